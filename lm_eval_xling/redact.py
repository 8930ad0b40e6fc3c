"""What run metadata may not publish: one denylist of credentials, and the rule for hosts and local paths.

A key is a credential when its last word (split at `_`, `-`, `.`) names one (`api_key`, `auth_token`, `bearer`,
`authorization`, `password`, `client_secret`, `headers`, ...), unless its value is empty or a flag (`token=True`
asks for the locally stored token and holds none). A value is a credential when it carries one: `user:pass@` in a
URL, `Bearer ...`, or a Hugging Face (`hf_...`) or OpenAI-style (`sk-...`) key. A URL names a host (often a private
one, e.g. `base_url`) and is dropped; a local path (`/...`, `~/...`, `./...`, `file://...`, `C:\\...`) is replaced by
`local:<folder name>:<first 12 hex of its sha256>`, which tells two local models apart without naming the machine.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import PurePosixPath, PureWindowsPath
from typing import Any

_CREDENTIAL_WORDS = {"key", "apikey", "token", "secret", "password", "passwd", "pwd", "bearer", "authorization",
                     "auth", "credential", "credentials", "header", "headers", "cookie", "cookies"}  # fmt: skip
_FLAGS = {"", "true", "false", "none", "null", "0", "1"}
_CREDENTIAL_VALUE = re.compile(
    r"[a-z][a-z0-9+.-]*://[^/\s:@]+:[^/\s@]*@"  # user:pass@ in a URL
    r"|\bbearer\s+\S"
    r"|\bhf_[A-Za-z0-9]{20,}"
    r"|\bsk-[A-Za-z0-9_-]{20,}",
    re.IGNORECASE,
)
_URL = re.compile(r"^[a-z][a-z0-9+.-]*://", re.IGNORECASE)
_LOCAL_PATH = re.compile(r"^(/|~|\.{1,2}[/\\]|file://|[a-z]:[/\\]|\\\\)", re.IGNORECASE)


def is_credential_key(key: str) -> bool:
    """True when a model_args (or config) key names a credential."""
    words = re.split(r"[_\-.\s]+", key.strip().lower())
    return words[-1] in _CREDENTIAL_WORDS or "apikey" in words or "bearer" in words


def is_credential(key: str, value: Any) -> bool:
    """True when (key, value) holds a credential: a credential key with a real value, or a value that carries one."""
    if is_credential_key(key) and not (isinstance(value, (bool, int, float)) or str(value).strip().lower() in _FLAGS):
        return True
    return isinstance(value, str) and _CREDENTIAL_VALUE.search(value) is not None


def is_local_path(value: str) -> bool:
    return _LOCAL_PATH.match(value.strip()) is not None


def local_reference(path: str) -> str:
    """`local:<folder name>:<sha256 prefix of the path>`: stable for one path, naming no machine or user."""
    text = path.strip().removeprefix("file://").rstrip("/\\")
    name = (PureWindowsPath(text) if "\\" in text else PurePosixPath(text)).name or "model"
    return f"local:{name}:{hashlib.sha256(text.encode()).hexdigest()[:12]}"


def public_name(name: str) -> str:
    """A model name fit to publish: a local path as `local_reference`, anything else as it is."""
    return local_reference(name) if is_local_path(name) else name


def redact(value: Any, where: str, removed: list[str]) -> Any:
    """`value` (dicts and lists walked) without credentials and URLs, local paths as `local_reference`; each change
    is appended to `removed` as "<where>: what, and what was done"."""
    if isinstance(value, dict):
        kept = {key: _redact_item(str(key), item, f"{where}.{key}", removed) for key, item in value.items()}
        return {key: item for key, item in kept.items() if item is not _DROPPED}
    if isinstance(value, list):
        kept = [_redact_item("", item, f"{where}[{i}]", removed) for i, item in enumerate(value)]
        return [item for item in kept if item is not _DROPPED]
    if isinstance(value, str) and is_local_path(value):
        removed.append(f"{where}: local path, replaced by {local_reference(value)}")
        return local_reference(value)
    return value


_DROPPED = object()


def _redact_item(key: str, value: Any, where: str, removed: list[str]) -> Any:
    if is_credential(key, value):
        removed.append(f"{where}: credential, dropped")
        return _DROPPED
    if isinstance(value, str) and _URL.match(value.strip()) and not value.strip().lower().startswith("file://"):
        removed.append(f"{where}: URL (names a host), dropped")
        return _DROPPED
    return redact(value, where, removed)
