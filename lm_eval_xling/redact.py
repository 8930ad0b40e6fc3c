"""What public outputs may not publish: the one denylist of credentials, hosts and local paths.

A key is a credential when a word of it (split at `_`, `-`, `.`) holds `secret` or ends in `token` (`hf_token`,
`token_path`; not `max_tokens`, `tokenizer` or a tokenizer's `pad_token`), when it starts with `aws_`, or when its last
word names one (`api_key`, `access_key_id`, `password`, `bearer`, `authorization`, `headers`, ...), unless its value is
empty or a flag (`token=True` asks for the locally stored token and holds none). A value is a credential when it
carries one: `user:pass@host` (with or without a scheme), `Bearer ...`, a Hugging Face (`hf_...`), OpenAI-style
(`sk-...`), GitHub (`ghp_...`), AWS (`AKIA...`), Slack (`xoxb-...`) or Google (`AIza...`) key, a JSON web token or an
e-mail address. A URL, a `host:port`, `localhost` and any address that is not
globally routable (private, loopback, link-local) name a host, as does a `host`, `hostname`, `proxy`, `server` or
`endpoint` key; all these are dropped.

A local path (absolute, `~/`, `./`, `../`, `file://`, a Windows path, or a relative one with two separators or that
exists) becomes `local:<folder name>:<id>`; a Hugging Face id `org/name` stays. The id is the first 12 hex of the
sha256 of the model's weights where the path holds them (the same model anywhere gets the same id), else a hash of the
path keyed by a random secret of this user, so that guessing paths cannot reverse it. Any relative path under a key
that names a folder or file (`cache_dir=data/alice_cache`) becomes `local:<id>`: its folder name may name its user.

`redact` cleans run metadata (dicts, lists), `redact_text` free text (headings, Markdown, file names), `public_name`
a model's name, lm-eval's folder name for a local model (`__home__me__model`) included.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import ipaddress
import os
import re
import secrets
import tempfile
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import Any

from lm_eval_xling.config import cache_dir

_CREDENTIAL_WORDS = {"key", "apikey", "password", "passwd", "pwd", "pass", "passphrase", "bearer", "authorization",
                     "auth", "credential", "credentials", "header", "headers", "cookie", "cookies", "login", "user",
                     "username"}  # fmt: skip
_SPECIAL_TOKENS = {"bos", "eos", "pad", "unk", "sep", "cls", "mask"}  # `pad_token="</s>"` configures a tokenizer
_HOST_WORDS = {"host", "hostname", "proxy", "proxies", "server", "endpoint"}
# `cache_dir=data/alice_cache` is a local path (not "path": lm-eval's `dataset_path` names a Hub dataset)
_PATH_WORDS = {"dir", "directory", "file", "folder", "root"}
_FLAGS = {"", "true", "false", "none", "null", "0", "1"}
_DEVICES = {"cpu", "cuda", "mps", "xpu", "npu", "hpu", "xla", "meta"}  # `cuda:1` is a device, not host:port
_WEIGHTS = (".safetensors", ".bin", ".gguf", ".pt", ".pth")
_SALT_FILE = "path_salt"
PLACEHOLDER = "<redacted>"

_CREDENTIAL = (
    r"[^\s/:@'\"`]+:[^\s/@'\"`]*@[^\s/'\"`]+"  # user:pass@host, in a URL or not
    r"|\bbearer\s+[^\s'\"`]+"
    r"|\bhf_[A-Za-z0-9]{20,}"
    r"|\bsk-[A-Za-z0-9_-]{20,}"
    r"|\bgh[pousr]_[A-Za-z0-9]{30,}"
    r"|(?-i:\b(?:AKIA|ASIA)[0-9A-Z]{16}\b)"
    r"|\beyJ[\w-]{4,}\.[\w-]{4,}\.[\w-]{4,}"  # a JSON web token
    r"|\bxox[abposr]-[A-Za-z0-9-]{10,}"  # Slack
    r"|(?-i:\bAIza[\w-]{30,})"  # Google
    r"|\b[\w.+-]{1,64}@[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63})*\.[a-z]{2,24}\b"  # an e-mail address
)
_CREDENTIAL_VALUE = re.compile(_CREDENTIAL, re.IGNORECASE)
_URL = re.compile(r"^[a-z][a-z0-9+.-]*://", re.IGNORECASE)
_HOST_PORT = re.compile(r"(?P<host>\[[0-9a-f:.%\w]+\]|[\w.-]+):(?P<port>\d{1,5})(?:/\S*)?", re.IGNORECASE)
# Its last label starts with a letter: `2025-01-01T12:30` is a time, not host:port.
_HOSTNAME = re.compile(r"([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)*[a-z]([a-z0-9-]*[a-z0-9])?", re.IGNORECASE)
_LOCAL_PATH = re.compile(r"^(/|(~[\w.-]*|\.{1,2})([/\\]|$)|file://|[a-z]:[/\\]|\\\\)", re.IGNORECASE)
# lm-eval's folder name for a local model (`/home/me/m` -> `__home__me__m`): a leading or second `__` separator.
_FOLDER_OF_PATH = re.compile(r"^(~|\.{1,2})?__|__.+__")
_PATH_CHAR = r"[^\s<>()\[\]'\"`,;|*?]"
_IN_TEXT = re.compile(
    rf"(?P<url>\b[a-z][a-z0-9+.-]*://{_PATH_CHAR}+)"
    rf"|(?P<credential>{_CREDENTIAL})"
    rf"|(?P<path>(?<![\w.~/\\<-])(?:(?:~[\w.-]*|\.{{1,2}})?/|(?:\.{{1,2}}|[a-z]:)\\|[a-z]:/|\\\\){_PATH_CHAR}+)"
    r"|(?<![\w.:/-])(?P<host>\[[0-9a-f:.]+\]|[a-z0-9][\w.-]*):(?P<port>\d{1,5})(?![\w.:])"
    r"|(?<![\w.:])(?P<address>\d{1,3}(?:\.\d{1,3}){3}|localhost"
    r"|(?=[0-9a-f:]*[0-9a-f])(?:[0-9a-f]{0,4}:){2,7}[0-9a-f]{0,4})(?![\w.:])",
    re.IGNORECASE,
)


def _words(key: str) -> list[str]:
    return re.split(r"[_\-.\s]+", key.strip().lower())


def is_credential_key(key: str) -> bool:
    """True when a model_args (or config) key names a credential."""
    words = _words(key)
    if words[0] == "aws" or any("secret" in word for word in words) or words[-2:] == ["key", "id"]:
        return True
    for i, word in enumerate(words):
        if word.endswith("token") and not (word == "token" and i and words[i - 1] in _SPECIAL_TOKENS):
            return True
    return words[-1] in _CREDENTIAL_WORDS or "apikey" in words or "bearer" in words


def _is_flag(value: Any) -> bool:
    return isinstance(value, (bool, int, float)) or str(value).strip().lower() in _FLAGS


def is_credential(key: str, value: Any) -> bool:
    """True when (key, value) holds a credential: a credential key with a real value, or a value that carries one."""
    if is_credential_key(key) and not _is_flag(value):
        return True
    return isinstance(value, str) and _CREDENTIAL_VALUE.search(value) is not None


def _is_host(host: str, port: str | None = None) -> bool:
    """`host` (with `port`, when given) names a machine: any address or hostname with a port, else `localhost` or
    an address that is not globally routable."""
    host = host.strip("[]").lower()
    if port is not None and not 0 < int(port) < 65536:
        return False
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        if host == "localhost":
            return True
        return port is not None and host not in _DEVICES and _HOSTNAME.fullmatch(host) is not None
    return port is not None or not address.is_global


def names_host(value: str) -> bool:
    """True when a value names a host: a URL (not `file://`), `host:port[/...]`, `localhost` or a private address."""
    text = value.strip()
    if _URL.match(text):
        return not text.lower().startswith("file://")
    match = _HOST_PORT.fullmatch(text)
    return _is_host(match["host"], match["port"]) if match else _is_host(text)


def is_local_path(value: str) -> bool:
    """True when a value is a path on this machine; a Hugging Face id `org/name` is not (unless it exists here)."""
    text = value.strip()
    if _LOCAL_PATH.match(text):
        return True
    if _URL.match(text) or re.search(r"\s", text):
        return False
    parts = re.split(r"[/\\]", text.rstrip("/\\"))
    if len(parts) < 2 or not all(parts):
        return False
    return len(parts) > 2 or "\\" in text or bool({".", ".."} & set(parts)) or os.path.exists(text)


def _weight_files(path: Path) -> list[Path]:
    try:
        if path.is_file():
            return [path] if path.name.endswith(_WEIGHTS) else []
        if path.is_dir():
            return sorted(p for p in path.iterdir() if p.is_file() and p.name.endswith(_WEIGHTS))
    except OSError:  # an unreadable folder: identified by its path instead
        pass
    return []


@functools.cache
def _weights_digest(files: tuple[tuple[str, int, int], ...]) -> str:
    """sha256 of the files' bytes, in order; keyed by (path, size, mtime) so that one run hashes a model once."""
    digest = hashlib.sha256()
    for name, _, _ in files:
        with open(name, "rb") as f:
            while chunk := f.read(1 << 20):
                digest.update(chunk)
    return digest.hexdigest()


def _salt() -> bytes:
    """This user's random secret that keys the hash of a path: made once, readable by the user alone."""
    path = cache_dir() / _SALT_FILE
    if not path.is_file():
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, aside = tempfile.mkstemp(dir=path.parent, prefix=f".{_SALT_FILE}.")  # mode 0600
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_hex(32))
        try:
            os.link(aside, path)  # fails where another process made it first: theirs is kept
        except FileExistsError:
            pass
        finally:
            os.unlink(aside)
    return path.read_bytes().strip()


def local_reference(path: str) -> str:
    """`local:<folder name>:<id>`: the id of the weights' bytes where `path` holds weights, else a salted hash of
    the path; the same model gets the same id, two models different ones, and no path can be guessed back from it."""
    text = path.strip().removeprefix("file://").rstrip("/\\") or path.strip()
    name = (PureWindowsPath(text) if "\\" in text else PurePosixPath(text)).name or "model"
    try:
        local = Path(text).expanduser()
    except RuntimeError:  # `~user/...` of a user unknown here
        local = Path(text)
    if files := _weight_files(local):
        digest = _weights_digest(tuple((str(p), p.stat().st_size, p.stat().st_mtime_ns) for p in files))
    else:
        digest = hmac.new(_salt(), str(local.resolve()).encode(), hashlib.sha256).hexdigest()
    return f"local:{name}:{digest[:12]}"


def public_name(name: str) -> str:
    """A model name fit to publish: a local path, or lm-eval's folder name for one (`__home__me__model`), as
    `local_reference`; a URL or one holding a credential as `redact_text` leaves it; anything else (`org/name`,
    `org__name`) as it is."""
    if _FOLDER_OF_PATH.search(name) and not re.search(r"[/\\]", name):
        return local_reference(name.replace("__", "/"))
    if is_local_path(name):
        return local_reference(name)
    return redact_text(name) if names_host(name) or _CREDENTIAL_VALUE.search(name) else name


def redact_text(text: str) -> str:
    """`text` with every URL, credential, host:port and private address as `<redacted>`, and every absolute, home
    or ./ path as `local_reference`; relative paths without ./ are left, as free text is full of `a/b/c`."""

    def replace(match: re.Match) -> str:
        found = match.group()
        if match["host"] is not None and not _is_host(match["host"], match["port"]):
            return found
        if match["address"] is not None and not _is_host(found):
            return found
        if match["url"] is None and match["path"] is None:
            return PLACEHOLDER
        core = found.rstrip(".:!?")  # sentence punctuation after a path or URL
        reference = local_reference(core) if match["path"] or core.lower().startswith("file://") else PLACEHOLDER
        return reference + found[len(core) :]

    return _IN_TEXT.sub(replace, text)


def safe_filename(text: str) -> str:
    """`redact_text(text)` as a file name: letters, digits, `.`, `_` and `-` only."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", redact_text(text)).strip("_.") or "unnamed"


def redact(value: Any, where: str, removed: list[str]) -> Any:
    """`value` (dicts and lists walked) without credentials and hosts, local paths as `local_reference`, and the same
    inside other strings (`redact_text`); each change is appended to `removed` as "<where>: what, what was done"."""
    if isinstance(value, dict):
        kept = {key: _redact_item(str(key), item, f"{where}.{key}", removed) for key, item in value.items()}
        return {key: item for key, item in kept.items() if item is not _DROPPED}
    if isinstance(value, list):
        kept = [_redact_item("", item, f"{where}[{i}]", removed) for i, item in enumerate(value)]
        return [item for item in kept if item is not _DROPPED]
    if isinstance(value, str) and is_local_path(value):
        reference = local_reference(value)
        removed.append(f"{where}: local path, replaced by {reference}")
        return reference
    if isinstance(value, str) and (text := redact_text(value)) != value:
        removed.append(f"{where}: path, host or credential inside the text, redacted")
        return text
    return value


_DROPPED = object()


def _redact_item(key: str, value: Any, where: str, removed: list[str]) -> Any:
    if is_credential(key, value):
        removed.append(f"{where}: credential, dropped")
        return _DROPPED
    if isinstance(value, str) and names_host(value):
        removed.append(f"{where}: {'URL (names a host)' if _URL.match(value.strip()) else 'host'}, dropped")
        return _DROPPED
    if _words(key)[-1] in _HOST_WORDS and not _is_flag(value):
        removed.append(f"{where}: host, dropped")
        return _DROPPED
    if _words(key)[-1] in _PATH_WORDS and isinstance(value, str) and re.search(r"[/\\]", value.strip("/\\")):
        reference = "local:" + local_reference(value).rsplit(":", 1)[1]  # no folder name: it may name its user
        removed.append(f"{where}: local path, replaced by {reference}")
        return reference
    return redact(value, where, removed)


def without_credentials(value: Any) -> Any:
    """`value` (dicts and lists walked) without its credentials, everything else kept (paths and hosts a local file
    may hold): credential keys dropped, `model_args` strings ('k=v,k=v') without their credential pairs, credentials
    inside other strings as `<redacted>`. For the files lm_eval writes under a command of ours."""
    if isinstance(value, dict):
        return {
            key: model_args_text(item) if key == "model_args" and isinstance(item, str) else without_credentials(item)
            for key, item in value.items()
            if not (is_credential_key(str(key)) and not _is_flag(item))
        }
    if isinstance(value, list):
        return [without_credentials(item) for item in value]
    if isinstance(value, str):
        return _CREDENTIAL_VALUE.sub(PLACEHOLDER, value)
    return value


def model_args_text(text: str) -> str:
    """A `model_args` string ('k=v,k=v') without its credential pairs, credentials inside its values redacted."""
    pairs = [pair.partition("=") for pair in text.split(",")]
    return ",".join(
        f"{key}{sign}{_CREDENTIAL_VALUE.sub(PLACEHOLDER, item)}"
        for key, sign, item in pairs
        if not (sign and is_credential_key(key) and not _is_flag(item))
    )


def strip_credentials(results: list[Path]) -> None:
    """Rewrite results files lm_eval wrote under a command of ours (with the user's `--model_args` and judge specs)
    without their credentials (`without_credentials`)."""
    import json

    from lm_eval_xling.files import write_file

    for path in results:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue  # not ours to mend: the readers of results files name it
        if (clean := without_credentials(data)) != data:
            write_file(path, json.dumps(clean, indent=2, ensure_ascii=False, default=str) + "\n")
