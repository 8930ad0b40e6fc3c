"""The jury's pieces on known inputs: verdict parsing, pooled scores and kappa, the cache under two processes."""

from __future__ import annotations

import multiprocessing
import sqlite3

import pytest

from lm_eval_xling.metrics.jury import Judge, VerdictCache, fleiss_kappa, summarize
from lm_eval_xling.metrics.verdicts import parse_binary, parse_likert


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [("correct", 1.0), ("Incorrect.", 0.0), ("**Correct**", 1.0), ("The answer is not correct", 0.0),
     ("incorrect - the true answer is London, so not correct", 0.0), ("I am unsure", None), ("", None)],
)  # fmt: skip
def test_parse_binary(reply, verdict):
    assert parse_binary(reply) == verdict


@pytest.mark.parametrize(
    ("reply", "verdict"), [("4", 4.0), ("Score: 2/5", 2.0), ("I would give it a 5.", 5.0), ("0", None), ("7", None)]
)
def test_parse_likert(reply, verdict):
    assert parse_likert(reply) == verdict


def test_summarize_pools_judges_and_counts_failures():
    """Failed and unread verdicts are left out (per-unit means, then their mean); the _as_zero numbers count them 0
    over judges x units."""
    units = [
        {"a": {"verdict": 1.0}, "b": {"verdict": 1.0}, "me": {"skipped": "evaluated model", "verdict": None}},
        {"a": {"verdict": 0.0}, "b": {"verdict": 1.0}},
        {"a": {"verdict": None, "error": "judge failed"}, "b": {"verdict": 0.0}},
        {"a": {"verdict": 0.0}, "b": {"verdict": 0.0}},
        {"a": {"verdict": None, "reply": "maybe"}, "b": {"verdict": None, "reply": "hmm"}},
    ]
    scores = summarize(units, scale=1.0)
    assert scores["judge_a"] == pytest.approx(100 / 3)  # 1 of its 3 verdicts
    assert scores["judge_a_as_zero"] == pytest.approx(20.0)  # 1 of 5 units
    assert scores["judge_b"] == pytest.approx(50.0)
    assert scores["judge_b_as_zero"] == pytest.approx(40.0)
    assert scores["jury_mean"] == pytest.approx(37.5)  # units 1, 0.5, 0, 0 (the last has no verdict)
    assert scores["jury_mean_as_zero"] == pytest.approx(30.0)  # 3 of 2 judges x 5 units
    assert scores["jury_majority"] == pytest.approx(37.5)  # 1, a 0/1 tie as 0.5, 0, 0
    assert scores["jury_failures"] == 1
    assert scores["jury_unparsed"] == 2
    assert "judge_me" not in scores
    likert = summarize([{"a": {"verdict": 5.0}, "b": {"verdict": 3.0}}], scale=5.0)
    assert likert["jury_mean"] == pytest.approx(80.0)


def test_fleiss_kappa_agreement_extremes():
    assert fleiss_kappa([[1, 1], [0, 0], [1, 1], [0, 0]]) == pytest.approx(1.0)
    assert fleiss_kappa([[1, 0], [0, 1], [1, 0], [0, 1]]) == pytest.approx(-1.0)


def test_judge_identity_and_name_and_credentials():
    with pytest.raises(ValueError, match="in the environment"):
        Judge.from_spec({"model": "local-chat-completions", "model_args": "model=gpt-x,api_key=sk-SECRET123"})
    judge = Judge.from_spec({"model": "local-chat-completions", "model_args": "model=gpt-x,base_url=http://h/v1"})
    assert judge.name == "gpt_x"
    moved = Judge.from_spec({"model": "local-chat-completions", "model_args": "model=gpt-x,base_url=http://other/v1"})
    assert VerdictCache.key(judge, "p") == VerdictCache.key(moved, "p")  # same judge behind another URL
    assert judge.is_model({"model": "gpt-x"}) and not judge.is_model({"pretrained": "gpt-y"})


def _writer(path: str, start: int, stop: int) -> None:
    cache = VerdictCache(__import__("pathlib").Path(path))
    judge = Judge("hf", "pretrained=j", "j")
    for i in range(start, stop):
        cache.put(VerdictCache.key(judge, f"prompt {i}"), judge, f"reply {i}")


def test_cache_shared_by_two_processes_loses_and_duplicates_nothing(tmp_path):
    """Two ranks judging overlapping shards into one cache file at the same time."""
    path = tmp_path / "cache.sqlite"
    ctx = multiprocessing.get_context("spawn")
    procs = [
        ctx.Process(target=_writer, args=(str(path), 0, 600)),
        ctx.Process(target=_writer, args=(str(path), 300, 900)),
    ]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
        assert p.exitcode == 0
    rows = sqlite3.connect(path).execute("SELECT reply FROM verdicts").fetchall()
    assert sorted(r for (r,) in rows) == sorted(f"reply {i}" for i in range(900))
