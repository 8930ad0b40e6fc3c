"""The NSP builder: deterministic, and every question keeps the paper's invariants."""

from __future__ import annotations

import csv
from collections import Counter

import pyarrow.parquet as pq
import pytest
from support.common import RAW, needs_raw

from lm_eval_xling.data.builders import builders

build = builders()["nsp"]


def _split(root, lang, split):
    return pq.read_table(root / "lm-eval-xling" / "nsp" / lang / f"{split}.parquet").to_pylist()


def check_invariants(records, story_text):
    """Each option/context is where the fields say it is in the story, and the options differ."""
    stories = [build.split_sentences(s) for s in build.split_stories(story_text)]
    for r in records:
        sentences = stories[r["story_id"]]
        true, distractor = (r["option_a"], r["option_b"]) if r["label"] == "A" else (r["option_b"], r["option_a"])
        assert r["option_a"] != r["option_b"], r["id"]
        assert 3 <= r["context_length"] <= 10, r["id"]
        assert 2 <= r["distractor_distance"] <= 9, r["id"]
        assert r["story_length"] == len(sentences)
        assert r["distractor_length"] == len(distractor.split())
        starts = [
            i
            for i in range(len(sentences) - r["context_length"] - r["distractor_distance"])
            if " ".join(sentences[i : i + r["context_length"]]) == r["context"]
            and sentences[i + r["context_length"]] == true
            and sentences[i + r["context_length"] + r["distractor_distance"]] == distractor
        ]
        assert starts, f"{r['id']}: context, true sentence and distractor not found in story {r['story_id']}"


def test_synthetic_build_is_deterministic_and_valid(tmp_path, synthetic_raw):
    first, second = tmp_path / "a", tmp_path / "b"
    assert build.build(synthetic_raw, first) == build.build(synthetic_raw, second)
    for lang in ("en", "sw", "ha"):
        records = _split(first, lang, "test")
        assert records == _split(second, lang, "test")
        check_invariants(records, (synthetic_raw / "nsp" / "stories" / f"{lang}.txt").read_text())


def test_refrains_never_give_identical_options():
    story = " ".join(["The drum said boom."] * 3 + ["Nobody came."] + ["The drum said boom."] * 12)
    import random

    questions = build.story_questions(build.split_sentences(story), 0, random.Random(0))
    assert questions
    assert all(q["option_a"] != q["option_b"] for q in questions)


def test_distance_range_is_reached():
    import random

    sentences = [f"Sentence {i}." for i in range(40)]
    questions = build.story_questions(sentences, 0, random.Random(0))
    assert {q["distractor_distance"] for q in questions} == set(range(2, 10))  # as released: never 10
    assert {q["context_length"] for q in questions} == set(range(3, 11))


@pytest.fixture(scope="module")
def real_build(tmp_path_factory):
    out = tmp_path_factory.mktemp("nsp-real")
    return out, build.build(RAW, out)


@needs_raw
def test_real_build_counts_balance_and_invariants(real_build):
    out, counts = real_build
    assert counts == {
        f"{lang}/{split}": n for lang in ("en", "sw", "ha") for split, n in (("test", 10_000), ("test_1k", 1_000))
    }
    for lang in ("en", "sw", "ha"):
        records = _split(out, lang, "test")
        assert len({r["id"] for r in records}) == 10_000
        share_a = Counter(r["label"] for r in records)["A"] / len(records)
        assert 0.48 <= share_a <= 0.52, (lang, share_a)
        check_invariants(records, (RAW / "nsp" / "stories" / f"{lang}.txt").read_text(encoding="utf-8"))


@needs_raw
def test_real_build_is_deterministic(real_build, tmp_path):
    out, _ = real_build
    again = tmp_path / "again"
    build.build(RAW, again)
    for lang in ("en", "sw", "ha"):
        for split in ("test", "test_1k"):
            assert _split(out, lang, split) == _split(again, lang, split)


@needs_raw
def test_paper_subsets_kept_in_original_order(real_build):
    out, _ = real_build
    for lang in ("en", "sw", "ha"):
        with (RAW / "nsp" / f"nsp_{lang}_1000.csv").open(encoding="utf-8", newline="") as f:
            rows = list(csv.DictReader(f))
        records = _split(out, lang, "test_1k")
        assert [(r["context"], r["option_a"], r["option_b"], r["label"]) for r in records] == [
            (row["context"], row["option_A"], row["option_B"], row["label"]) for row in rows
        ]
