"""The QUENCH jury end to end through `lm_eval.simple_evaluate`, with scripted models: the evaluated model and the
judges are registered lm-eval models that reply from tables, so every verdict, unparsed reply and failure is known
and the scores can be computed by hand: failed and unread verdicts left out (the default) or counted 0 over judges x
entities (`_as_zero`)."""

from __future__ import annotations

import json
import math

import lm_eval
import pytest
from support.scripted_quench import GOLD, JUDGE_A  # importing it registers the quench-scripted model


def _judge(name: str, record) -> dict:
    return {"model": "quench-scripted", "model_args": f"table={name},model=judge-{name},record={record}", "name": name}


def _run(tmp_path, tasks, judges, **meta):
    record = tmp_path / "prompts.jsonl"
    metadata = {"judges": [_judge(j, record) for j in judges], "judge_cache": str(tmp_path / "cache.sqlite")} | meta
    results = lm_eval.simple_evaluate(
        model="quench-scripted", model_args="table=model,model=quench-self", tasks=tasks, metadata=metadata,
        log_samples=True, bootstrap_iters=0,
    )  # fmt: skip
    return results, [json.loads(line) for line in record.read_text().splitlines()]


def test_entity_jury_scores_equal_hand_computed_values(tmp_path, local_data):
    results, prompts = _run(tmp_path, ["quench", "quench_rationale_gold"], ["a", "b"])
    got = {k.removesuffix(",extract"): v for k, v in results["results"]["quench"].items()}
    # verdicts (a, b) per entity, None = unparsed (Loire, a) or failed (Pongal, a); Michelangelo unanswered
    # Thames (1,1) London (0,0) Tagore (1,1)i Diwali (0,1)i Michelangelo (0,0) Paris (1,1) Loire (-,0) Pongal (-,1)i
    assert got["judge_a"] == pytest.approx(100 * 3 / 6)  # the 2 missing verdicts left out
    assert got["judge_b"] == pytest.approx(100 * 5 / 8)
    assert got["judge_a_as_zero"] == pytest.approx(100 * 3 / 8)  # counted 0: / 8 entities
    # per entity 1, 0, 1, .5, 0, 1, 0 (Loire: b alone), 1 (Pongal: b alone)
    assert got["jury_mean"] == pytest.approx(100 * 4.5 / 8)
    assert got["jury_mean_as_zero"] == pytest.approx(100 * 8 / 16)  # / (2 judges x 8 entities)
    assert got["jury_majority"] == pytest.approx(100 * 4.5 / 8)  # the Diwali tie counts 0.5
    assert got["jury_failures"] == 1 and got["jury_unparsed"] == 1
    # every question weighs the same: Q1 (1, 0) .5, Q2 1, Q3 .5, Q4 0, Q5 (1, 0) .5, Q6 1
    assert got["jury_mean_per_question"] == pytest.approx(100 * 3.5 / 6)
    # kappa over the 5 answered entities both judges scored: P = 0.8, Pe = 0.7^2 + 0.3^2 = 0.58
    assert got["jury_kappa"] == pytest.approx((0.8 - 0.58) / (1 - 0.58))
    assert got["jury_mean_indic"] == pytest.approx(100 * 2.5 / 3)  # Tagore, Diwali, Pongal
    assert got["jury_mean_non_indic"] == pytest.approx(100 * 2 / 5)
    assert got["jury_mean_delta"] == pytest.approx(100 * (2 / 5 - 2.5 / 3))
    assert got["jury_mean_delta_ci_low"] <= got["jury_mean_delta"] <= got["jury_mean_delta_ci_high"]
    # the judges read the raw reply, the authors' judge prompt; an unread verdict is asked once more, reminded
    entity_prompts = [p["prompt"] for p in prompts if "## True Answer" in p["prompt"] and p["judge"] == "b"]
    assert len(entity_prompts) == 8
    reminded = [p["prompt"] for p in prompts if p["judge"] == "a" and p["prompt"].endswith("correct or incorrect.")]
    assert len(reminded) == 1 and "## True Answer\nLoire\n" in reminded[0]
    assert any("## Answer Given by contestant\nThe answer is <X Holi>\n" in p for p in entity_prompts)

    rationale = {k.removesuffix(",extract"): v for k, v in results["results"]["quench_rationale_gold"].items()}
    # Likert: a = 5 (Thames), unparsed (Diwali), 4 x 6; b = 3 x 8; x 20 per point
    assert rationale["judge_a"] == pytest.approx(100 * 29 / 35)
    assert rationale["judge_a_as_zero"] == pytest.approx(100 * 29 / 40)
    assert rationale["jury_mean"] == pytest.approx(100 * (4 + 3 + 6 * 3.5) / 40)  # Diwali: b's 3 alone
    assert rationale["jury_mean_as_zero"] == pytest.approx(100 * 53 / 80)
    assert rationale["jury_majority"] == pytest.approx(100 * (4 + 3 + 6 * 3.5) / 40)  # medians of split pairs
    assert rationale["jury_unparsed"] == 1 and rationale["jury_failures"] == 0

    sample = next(s for s in results["samples"]["quench"] if s["doc"]["answer"] == "Pongal")
    marks = json.loads(sample["filtered_resps"][0])["jury"][0]
    assert marks["a"] == {"verdict": None, "error": "judge failed after retries"} and marks["b"]["verdict"] == 1.0


@pytest.mark.parametrize(("exclude", "expected"), [(False, 100 * 8 / 9), (True, 100 * 5 / 6)])
def test_self_judging_is_the_papers_default_and_can_be_excluded(tmp_path, local_data, exclude, expected):
    """A judge that is the evaluated model (model=quench-self) counts unless judge_exclude_self is set."""
    judges = ["a", "b", "self"]
    record = tmp_path / "prompts.jsonl"
    specs = [_judge(j, record) for j in judges]
    specs[2]["model_args"] = f"table=self,model=quench-self,record={record}"
    results = lm_eval.simple_evaluate(
        model="quench-scripted", model_args="table=model,model=quench-self", tasks=["quench_indic"],
        metadata={"judges": specs, "judge_cache": str(tmp_path / "c.sqlite"), "judge_exclude_self": exclude},
        bootstrap_iters=0,
    )  # fmt: skip
    got = results["results"]["quench_indic"]
    assert got["jury_mean,extract"] == pytest.approx(expected)
    assert math.isnan(got["judge_self,extract"]) if exclude else got["judge_self,extract"] == 100.0


def test_a_judge_without_any_verdict_is_nan_not_zero():
    from lm_eval_xling.metrics.jury import summarize

    units = [{"a": {"verdict": None, "error": "judge failed after retries"}, "b": {"verdict": 1.0}}] * 3
    scores = summarize(units, scale=1.0)
    assert scores["judge_a"] != scores["judge_a"] and scores["judge_b"] == 100.0
    assert scores["jury_mean"] == pytest.approx(100.0)  # the failed judge's verdicts are left out
    assert scores["jury_mean_as_zero"] == pytest.approx(50.0)  # counted 0, the failed judge stays in the count


def test_kappa_ignores_unanswered_items():
    """400 chance-level items then 400 unanswered ones every judge scores 0: kappa stays at chance."""
    import random

    from lm_eval_xling.metrics.jury import summarize

    rng = random.Random(1)
    answered = [{n: {"verdict": float(rng.random() < 0.5)} for n in "abc"} for _ in range(400)]
    unanswered = [{n: {"verdict": 0.0} for n in "abc"} for _ in range(400)]
    alone = summarize(answered, 1.0)["jury_kappa"]
    both = summarize(answered + unanswered, 1.0, answered=[True] * 400 + [False] * 400)["jury_kappa"]
    assert both == pytest.approx(alone) and abs(alone) < 0.1
    assert summarize(answered + unanswered, 1.0)["jury_kappa"] > 0.3  # what counting them would give


def test_a_judge_in_varied_phrasings_scores_the_share_of_right_entities(tmp_path, local_data):
    """A loopback judge states each verdict differently (markdown, JSON, think blocks, negations, revisions, check
    marks, scores in words or stars): the jury reads every one, so its score is the share of right entities."""
    from support.phrased_judge import PhrasedJudge

    with PhrasedJudge() as judge:
        base_url = f"http://127.0.0.1:{judge.port}/v1/chat/completions"
        args = f"model=phrased,base_url={base_url},num_concurrent=1,max_retries=1,tokenized_requests=False"
        spec = {"model": "local-chat-completions", "model_args": args, "name": "phrased"}
        results = lm_eval.simple_evaluate(
            model="quench-scripted", model_args="table=model,model=quench-self",
            tasks=["quench", "quench_rationale_gold"], bootstrap_iters=0,
            metadata={"judges": [spec], "judge_cache": str(tmp_path / "cache.sqlite")},
        )  # fmt: skip
    entities = {k.removesuffix(",extract"): v for k, v in results["results"]["quench"].items()}
    # right: Thames, Tagore, Paris, Pongal; wrong: London (Paris), Diwali (Holi), Loire (Seine), Michelangelo (none)
    assert entities["jury_mean"] == pytest.approx(100 * 4 / 8)
    assert entities["jury_unparsed"] == 0 and entities["jury_failures"] == 0
    rationale = {k.removesuffix(",extract"): v for k, v in results["results"]["quench_rationale_gold"].items()}
    assert rationale["jury_unparsed"] == 0
    assert rationale["jury_mean"] == pytest.approx(100 * 2 / 5)  # "the clue" explains no gold rationale: 2 of 5


def test_score_reads_the_runs_verdicts_from_its_log(tmp_path, local_data, monkeypatch):
    """`score` re-scores a judged run with the judge replies its log holds: the run's numbers, with no judge asked
    again even where one would now answer otherwise (a judge that failed is asked again); given `--judges`, it asks
    those judges."""
    from lm_eval.loggers import EvaluationTracker

    from lm_eval_xling.results.replay import score_samples

    results, _ = _run(tmp_path, ["quench"], ["a", "b"])
    tracker = EvaluationTracker(output_path=str(tmp_path / "out"))
    tracker.save_results_aggregated(results=results, samples=results["samples"])
    tracker.save_results_samples(task_name="quench", samples=results["samples"]["quench"])
    log = next((tmp_path / "out").rglob("samples_quench_*.jsonl"))
    (tmp_path / "cache.sqlite").unlink()  # no verdict served from the cache
    monkeypatch.setitem(JUDGE_A, "Thames", "incorrect")  # judge a would now answer otherwise
    record = tmp_path / "prompts.jsonl"
    record.write_text("")

    rescored = score_samples(log)["results"]["quench"]
    asked = [json.loads(line) for line in record.read_text().splitlines()]
    assert [(p["judge"], GOLD.search(p["prompt"])[1]) for p in asked] == [("a", "Pongal")] * 2  # failed, reminded
    for key in ("judge_a,extract", "judge_b,extract", "jury_mean,extract", "jury_unparsed,extract"):
        assert rescored[key] == pytest.approx(results["results"]["quench"][key])

    rejudged = score_samples(log, metadata={"judges": [_judge("a", record)]})["results"]["quench"]
    assert rejudged["judge_a,extract"] < rescored["judge_a,extract"]  # asked again: Thames now incorrect
