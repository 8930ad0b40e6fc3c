"""The one denylist of what public outputs may not publish (lm_eval_xling.redact)."""

from __future__ import annotations

import hashlib
import json
import stat

import pytest

from lm_eval_xling.redact import (
    is_credential,
    is_local_path,
    local_reference,
    public_name,
    redact,
    redact_text,
    safe_filename,
)


@pytest.fixture(autouse=True)
def own_cache(monkeypatch, tmp_path):
    """A cache folder of this test's own: the per-user salt of path hashes is made there."""
    monkeypatch.setenv("LM_EVAL_XLING_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("api_key", "abc"),
        ("openai_api_key", "abc"),
        ("auth_token", "abc"),
        ("token", "abc"),
        ("bearer", "abc"),
        ("Authorization", "Basic abc"),
        ("password", "hunter2"),
        ("client_secret", "abc"),
        ("headers", '{"X-Key": "abc"}'),
        ("base_url", "https://user:pa55@api.example.com/v1"),  # user:pass@ in a URL, under any key
        ("proxy_setting", "user:pw@10.1.2.3:3128"),  # and without a scheme
        ("extra", "Bearer abcdef"),
        ("note", "hf_abcdefghijklmnopqrstuvwx"),
        ("aws_access_key_id", "AKIAIOSFODNN7EXAMPLE"),
        ("aws_region", "eu-west-1"),
        ("access_key_id", "abc"),
        ("db_secret_value", "abc"),
        ("hf_token", "abc"),
        ("token_path", "/run/token"),
        ("pass", "hunter2"),
        ("passphrase", "correct horse"),
        ("login", "alice"),
        ("username", "alice"),
        ("note", "alice@example.org"),  # an e-mail address, a JSON web token, Slack's and Google's keys, anywhere
        ("note", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJl"),
        ("note", "xoxb-123456789012-abcdefghijkl"),
        ("note", "AIzaSyA1234567890abcdefghijklmnopqrst"),
    ],
)
def test_credentials_are_recognised(key, value):
    assert is_credential(key, value)


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("max_tokens", 512),
        ("max_gen_toks", 256),
        ("tokenizer", "Qwen/Qwen2.5-7B-Instruct"),
        ("tokenized_requests", False),
        ("token", True),  # use the locally stored token: holds none
        ("use_auth_token", "True"),
        ("hf_token", ""),
        ("pad_token", "</s>"),
        ("add_bos_token", True),
        ("pretrained", "meta-llama/Llama-3.1-8B-Instruct"),
        ("num_key_value_heads", 8),
        ("device", "cuda:1"),
        ("revision", "main"),
    ],
)
def test_ordinary_arguments_are_kept(key, value):
    assert not is_credential(key, value)
    assert redact({key: value}, "model_args", removed := []) == {key: value} and removed == []


def test_hosts_and_paths_are_known_by_their_keys_too():
    removed = []
    kept = redact({"server": "gpu-node-7", "cache_dir": "data/alice_cache", "pretrained": "org/name"}, "m", removed)
    assert kept["pretrained"] == "org/name" and "server" not in kept
    assert kept["cache_dir"].startswith("local:") and "alice" not in kept["cache_dir"]
    assert len(removed) == 2


def test_a_model_named_by_a_url_is_published_without_its_credentials_and_host():
    assert public_name("http://alice:hunter2@10.44.55.66:8000/v1/models/m") == "<redacted>"


def test_redact_walks_nested_values_and_says_what_it_removed():
    removed: list[str] = []
    args = {"peft": "./adapters/run-3", "kw": {"headers": {"x": "y"}, "urls": ["http://10.0.0.7:8000/v1", "ok"]}}
    assert redact(args, "model_args", removed) == {"peft": local_reference("./adapters/run-3"), "kw": {"urls": ["ok"]}}
    assert removed == [
        f"model_args.peft: local path, replaced by {local_reference('./adapters/run-3')}",
        "model_args.kw.headers: credential, dropped",
        "model_args.kw.urls[0]: URL (names a host), dropped",
    ]
    assert local_reference("/home/alice/ckpt/step-500/").startswith("local:step-500:")
    assert local_reference("C:\\Users\\alice\\model").startswith("local:model:")


def test_no_planted_secret_survives(tmp_path, monkeypatch):
    model = tmp_path / "alice-private" / "planted-model"
    model.mkdir(parents=True)
    (model / "model.safetensors").write_bytes(b"weights")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ckpts" / "run1").mkdir(parents=True)  # a relative path with one separator that exists here
    by_key = {  # known by the key alone
        "host": "gpu-node-17",
        "aws_secret_access_key": "wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY",
        "storage_secret": "s3cr3t-planted",
        "hf_token": "planted-hub-token",
    }
    by_value = {  # known wherever they are
        "proxy_setting": "alice:hunter2@proxy.corp.internal:3128",
        "server": "10.1.2.3:8000",
        "judge": "gpu-node-17.corp.internal:8080",
        "ten": "10.9.8.7",
        "one_seven_two": "172.16.5.4",
        "one_nine_two": "192.168.1.20",
        "loopback": "127.0.0.1",
        "loopback6": "::1",
        "link_local": "169.254.7.7",
        "name": "localhost",
        "aws_access_key_id": "AKIAIOSFODNN7EXAMPLE",
        "data": "data/alice-private/quench",
        "raw": "../alice-private/data",
        "cwd_relative": "ckpts/run1",
        "absolute": "/home/alice/ckpt/step-500",
        "home": "~/alice-private/ckpt",
        "windows": "C:\\Users\\alice\\model",
        "weights": str(model),
        "cli": "--cache-dir /home/alice/cache --port 8000",
    }
    kept = {
        "pretrained": "Qwen/Qwen2.5-7B-Instruct",
        "tokenizer": "org/name",
        "dtype": "bfloat16",
        "device": "cuda:1",
        "max_tokens": 512,
        "token": True,
        "pad_token": "</s>",
    }
    removed: list[str] = []
    out = redact({**by_key, **by_value, "nested": {"list": list(by_value.values())}, **kept}, "model_args", removed)
    text = json.dumps(out)
    planted_parts = ["alice", "hunter2", "corp", "10.", "172.16", "192.168", "127.0", "::1", "169.254", "localhost"]
    planted_parts += ["AKIA", "wJalr", "s3cr3t", "planted-hub", "../", "~", "/home", "C:", "gpu-node", str(tmp_path)]
    for secret in planted_parts:
        assert secret not in text
    assert {key: out[key] for key in kept} == kept
    assert out["weights"] == "local:planted-model:" + hashlib.sha256(b"weights").hexdigest()[:12]
    assert out["cwd_relative"].startswith("local:run1:") and out["absolute"].startswith("local:step-500:")
    assert {entry.split(":")[0] for entry in removed} >= {f"model_args.{key}" for key in {**by_key, **by_value}}


@pytest.mark.parametrize(
    "value",
    ["/abs/x", "~/x", "./x", "../shared/data", "data/local/quench", "C:\\x", "models\\qwen", "org/../x", "file:///x"],
)
def test_local_paths_are_recognised(value):
    assert is_local_path(value)


@pytest.mark.parametrize("value", ["org/name", "Qwen/Qwen2.5-7B-Instruct", "bfloat16", "https://hf.co/org/name"])
def test_hub_ids_and_plain_values_are_not_paths(value):
    assert not is_local_path(value)


def _model(folder, files: dict[str, bytes]) -> str:
    folder.mkdir(parents=True)
    for name, data in files.items():
        (folder / name).write_bytes(data)
    return str(folder)


def test_local_model_is_named_by_its_weights(tmp_path):
    shards = {"model-2.safetensors": b"two", "model-1.safetensors": b"one"}
    a = _model(tmp_path / "a" / "model", {**shards, "config.json": b"{}"})
    copy = _model(tmp_path / "b" / "model", shards)
    other = _model(tmp_path / "c" / "model", {**shards, "model-2.safetensors": b"TWO"})
    gguf = _model(tmp_path / "d", {"m.gguf": b"gguf bytes"})
    assert local_reference(a) == local_reference(copy) == "local:model:" + hashlib.sha256(b"onetwo").hexdigest()[:12]
    assert local_reference(other) != local_reference(a)
    assert local_reference(a) != "local:model:" + hashlib.sha256(a.encode()).hexdigest()[:12]
    assert local_reference(f"{gguf}/m.gguf") == "local:m.gguf:" + hashlib.sha256(b"gguf bytes").hexdigest()[:12]


def test_a_path_without_weights_is_hashed_with_a_secret_salt(own_cache, monkeypatch, tmp_path):
    path = "/home/alice/ckpt/model"
    reference = local_reference(path)
    assert reference.startswith("local:model:") and reference == local_reference(path + "/")
    assert reference != "local:model:" + hashlib.sha256(path.encode()).hexdigest()[:12]
    assert reference != local_reference("/home/bob/ckpt/model")
    assert stat.S_IMODE((own_cache / "path_salt").stat().st_mode) == 0o600
    monkeypatch.setenv("LM_EVAL_XLING_CACHE", str(tmp_path / "another-user"))
    assert local_reference(path) != reference  # another user's salt: guessing the path does not give the id


def test_lm_eval_folder_of_a_local_model_gets_its_public_name():
    assert public_name("__home__alice__models__qwen") == local_reference("/home/alice/models/qwen")
    assert public_name("/home/alice/models/qwen") == local_reference("/home/alice/models/qwen")
    assert public_name("~__models__qwen") == local_reference("~/models/qwen")
    for name in ("Qwen/Qwen2.5-7B", "Qwen__Qwen2.5-7B", "gpt2"):
        assert public_name(name) == name


def test_text_keeps_its_words_and_loses_what_names_a_machine():
    text = (
        "## /home/alice/ckpt/step-500 on http://10.0.0.7:8000/v1 (see ~/notes.md, ./runs/x, C:\\Users\\alice\\m)\n"
        "proxy alice:hunter2@proxy.corp:3128, judge gpu-node-17:8080 at 192.168.1.20, fe80::1 or localhost; "
        "key hf_abcdefghijklmnopqrstuvwx, AKIAIOSFODNN7EXAMPLE, Authorization: Bearer abc.def"
    )
    out = redact_text(text)
    planted_parts = ["alice", "hunter2", "corp", "10.0", "192.168", "fe80", "localhost", "gpu-node", "hf_", "AKIA"]
    for secret in [*planted_parts, "abc.def", "~/", "./runs", "http"]:
        assert secret not in out
    assert out.startswith(f"## {local_reference('/home/alice/ckpt/step-500')} on <redacted> (see ")
    plain = "| Qwen/Qwen2.5-7B | cuda:1 | 12:30 | a/b/c and/or x[::2] | 4.44.2 | --- |"
    assert redact_text(plain) == plain


def test_safe_filename_names_no_path():
    name = safe_filename("errors /home/alice/ckpt/step-500 nsp_english")
    assert name == "errors_" + local_reference("/home/alice/ckpt/step-500").replace(":", "_") + "_nsp_english"
