"""The choice reader on real replies of 27 chat models in English and 12 Turkic languages (../shared/data/real4, read
in place), per language, against a careful reading: `careful` where real4 has one, else our adjudication of a reply
where the reader and the source's own extractor disagreed (bench/real4_adjudicated.jsonl: ids and readings only), else
the source's reading."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from pathlib import Path

import pytest
from support.common import RAW

from lm_eval_xling.choices import read_choice

REAL4 = RAW / "real4"
FILES = ("tumlu.jsonl", "afrimedqa.jsonl", "zeroeval_mmlu_redux.jsonl")
ADJUDICATED = Path(__file__).resolve().parents[1] / "bench" / "real4_adjudicated.jsonl"

pytestmark = pytest.mark.skipif(
    not all((REAL4 / name).is_file() for name in FILES), reason=f"real4 replies not found at {REAL4}"
)


@pytest.fixture(scope="module")
def tally() -> dict[str, Counter]:
    verdicts = {r["id"]: r["reading"] for r in map(json.loads, ADJUDICATED.read_text(encoding="utf-8").splitlines())}
    stats: dict[str, Counter] = defaultdict(Counter)
    for name in FILES:
        for r in map(json.loads, (REAL4 / name).read_text(encoding="utf-8").splitlines()):
            target = r["careful"] if "careful" in r else verdicts.get(r["id"], r["their_extracted"])
            options = r["options"]
            got = read_choice(r["reply"], options["letters"], options["texts"], language=r["language"])
            for key in (r["language"], "all"):
                stats[key].update(n=1, agree=got == target, unanswered=target is None,
                                  committed=target is None and got is not None)  # fmt: skip
    return stats


def test_every_language_is_read_as_a_careful_reader_reads_it(tally: dict[str, Counter]) -> None:
    agreement = {language: s["agree"] / s["n"] for language, s in tally.items()}
    assert len(agreement) == 14, agreement  # 13 languages and all
    assert min(agreement.values()) >= 0.97, agreement


def test_no_commitment_where_a_careful_reader_sees_none(tally: dict[str, Counter]) -> None:
    everything = tally["all"]
    assert everything["committed"] <= 0.01 * everything["unanswered"], everything
