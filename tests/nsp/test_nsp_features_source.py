"""nsp-features files name the LM and embedder behind their rows, and are never extended by another pair."""

from __future__ import annotations

import json

import pytest
from support.common import run_cli

from lm_eval_xling.nsp import features as nf


def _write(path, *sources):
    path.write_text("".join(json.dumps({"id": str(i), **s}) + "\n" for i, s in enumerate(sources)), encoding="utf-8")


def test_same_source_may_extend(tmp_path):
    path = tmp_path / "f.jsonl"
    _write(path, {"lm": "/m", "embedder": "use"}, {"lm": "/m", "embedder": "use"})
    nf.check_source(path, {"lm": "/m", "embedder": "use"})
    nf.check_source(tmp_path / "absent.jsonl", {"lm": "/other", "embedder": "use"})


@pytest.mark.parametrize(
    ("written", "message"),
    [
        ({"lm": "/other", "embedder": "use"}, "made by lm '/other', embedder 'use'"),
        ({"lm": "/m", "embedder": "paraphrase"}, "embedder 'paraphrase'"),
        ({}, "a run that did not record its models"),
    ],
)
def test_other_source_is_refused(tmp_path, written, message):
    path = tmp_path / "f.jsonl"
    _write(path, {"lm": "/m", "embedder": "use"}, written)
    with pytest.raises(nf.FeaturesError, match=message):
        nf.check_source(path, {"lm": "/m", "embedder": "use"})


def test_cli_refuses_another_embedder_and_keeps_the_file(local_data, tiny_model, tmp_path):
    args = ["--subset", "sw", "--lm", f"sw={tiny_model}", "--batch-size", "2", "--limit", "2", "--out", str(tmp_path)]
    run_cli("lm-eval-xling", "nsp-features", *args, "--embedder", "use")
    path = tmp_path / "sw" / "test.features.jsonl"
    before = path.read_text(encoding="utf-8")
    refused = run_cli(
        "lm-eval-xling", "nsp-features", *args, "--limit", "4", "--embedder", "sentence-transformers/other",
        check=False,
    )  # fmt: skip
    assert refused.returncode != 0
    assert "holds features made by lm" in refused.stderr and "--out DIR" in refused.stderr
    assert path.read_text(encoding="utf-8") == before
