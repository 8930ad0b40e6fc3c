"""The one denylist of what run metadata may not publish (lm_eval_xling.redact)."""

from __future__ import annotations

import pytest

from lm_eval_xling.redact import is_credential, local_reference, redact


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
        ("extra", "Bearer abcdef"),
        ("note", "hf_abcdefghijklmnopqrstuvwx"),
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
        ("pretrained", "meta-llama/Llama-3.1-8B-Instruct"),
        ("num_key_value_heads", 8),
    ],
)
def test_ordinary_arguments_are_kept(key, value):
    assert not is_credential(key, value)
    assert redact({key: value}, "model_args", removed := []) == {key: value} and removed == []


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
