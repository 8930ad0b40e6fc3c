"""The jury's pieces on known inputs: verdict parsing, pooled scores and kappa, the cache under two processes, an
API judge's concurrency against an endpoint with a set latency."""

from __future__ import annotations

import multiprocessing
import re
import sqlite3
import subprocess
import sys
import threading
import time
from collections import Counter

import lm_eval.models  # noqa: F401 - lm-eval's own models first: it loads them only into an empty registry
import pytest
from lm_eval.api.model import LM
from lm_eval.api.registry import register_model
from support.latency_server import LatencyServer

from lm_eval_xling.errors import UserError
from lm_eval_xling.metrics.jury import Judge, Jury, VerdictCache, fleiss_kappa, judges_from_metadata, summarize
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


SENT: Counter[str] = Counter()  # every prompt the counting judge was sent, over all its instances
_SENT_LOCK = threading.Lock()


@register_model("jury-counting-judge")
class CountingJudge(LM):
    """A judge that counts what it is sent and, after a pause (so that two juries overlap), replies "correct"; it
    fails on a prompt that asks it to."""

    def __init__(self, **_):
        super().__init__()

    def generate_until(self, requests, disable_tqdm: bool = False):
        with _SENT_LOCK:
            SENT.update(r.args[0] for r in requests)
        time.sleep(0.2)
        if any("fail" in r.args[0] for r in requests):
            raise ConnectionError("judge down")
        return ["correct"] * len(requests)

    def loglikelihood(self, requests, disable_tqdm: bool = False):
        raise NotImplementedError

    def loglikelihood_rolling(self, requests, disable_tqdm: bool = False):
        raise NotImplementedError


COUNTING = Judge.from_spec({"model": "jury-counting-judge", "model_args": "model=counter"})


def test_two_juries_started_together_send_each_prompt_once(tmp_path):
    """Two juries (each with its own connection, as two processes) on the same prompts, more than one chunk: each
    prompt reaches the judge once in all, and both get every verdict."""
    SENT.clear()
    prompts = [f"Is {i} even? Answer correct or incorrect." for i in range(150)]
    start, units = threading.Barrier(2), []

    def judge() -> None:
        jury = Jury([COUNTING], VerdictCache(tmp_path / "cache.sqlite"))
        start.wait()
        units.append(jury.judge(prompts, parse_binary))

    threads = [threading.Thread(target=judge) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert Counter(prompts) == SENT
    assert len(units) == 2 and all([u["counter"]["verdict"] for u in run] == [1.0] * 150 for run in units)


def test_claims_of_an_ended_silent_or_failed_owner_are_taken_over(tmp_path):
    path = tmp_path / "cache.sqlite"
    owner, other = VerdictCache(path), VerdictCache(path)
    assert owner.claim(["a", "b", "c"], 2) == ["a", "b"]
    assert other.claim(["a", "b", "c"], 10) == ["c"]  # a and b are in flight: waited for, not sent again
    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE claims SET pid = ? WHERE key = 'a'", (int(ended.stdout),))
    assert other.claim(["a", "b"], 10) == ["a"]
    assert VerdictCache(path, claim_timeout=0.0).claim(["b"], 10) == ["b"]  # silent for longer than the timeout
    # a prompt the judge failed on is neither cached nor left claimed: the next jury sends it at once
    SENT.clear()
    failed = Jury([COUNTING], VerdictCache(path)).judge(["please fail"], parse_binary)
    assert failed[0]["counter"]["verdict"] is None and "error" in failed[0]["counter"]
    assert (
        other.claim([VerdictCache.key(COUNTING, "please fail")], 10) and SENT["please fail"] == 2
    )  # chunk, then alone


def test_an_api_judge_has_all_its_concurrent_requests_in_flight(tmp_path):
    """num_concurrent above the smallest chunk of prompts: all its requests are in flight at once (a chunk holds
    at least that many prompts), each prompt is sent once and read."""
    with LatencyServer(latency_s=3.0) as server:
        args = f"model=latency,base_url={server.chat_url},num_concurrent=80,tokenized_requests=False"
        judge = Judge.from_spec({"model": "local-chat-completions", "model_args": args})
        prompts = [f"Is {i} even? Answer correct or incorrect." for i in range(80)]
        units = Jury([judge], VerdictCache(tmp_path / "cache.sqlite")).judge(prompts, parse_binary)
    assert len(server.arrivals) == 80 and server.peak_in_flight == 80
    assert [u["latency"]["verdict"] for u in units] == [1.0] * 80


@pytest.mark.parametrize(
    ("judges", "named"),
    [
        ([{"model": 3}], "judge 3: field 'model' is 3; expected text"),
        (["x"], "judges: 'x' is no judge"),
        ([{"model": "hf", "model_args": 5}], "judge hf: field 'model_args' is 5"),
        ('[{"model": "hf"', "judges: not JSON"),
        ("[" * 100_000 + "]" * 100_000, "judges: not JSON (nested too deeply"),
        ({"model": "hf"}, "is no list of judges"),
    ],
)
def test_a_malformed_judge_spec_is_one_clear_error(judges, named):
    with pytest.raises(UserError, match=re.escape(named)):
        judges_from_metadata({"judges": judges})


def test_a_judge_that_cannot_be_built_is_named(tmp_path):
    jury = Jury([Judge.from_spec({"model": "hf", "model_args": {"dtype": "float32"}})], VerdictCache(tmp_path / "c"))
    with pytest.raises(UserError, match=r"judge hf: hf cannot be built from its model_args \(.*pretrained"):
        jury.judge(["Is Paris the capital of France?"], lambda reply: None)


def test_a_judge_cache_that_is_no_database_is_named(tmp_path):
    (tmp_path / "notes.txt").write_text("not a database\n" * 100)
    for path in (tmp_path / "notes.txt", tmp_path):  # a text file, a folder
        with pytest.raises(UserError, match=rf"{re.escape(str(path))}: cannot be used as the judge cache"):
            VerdictCache(path)
