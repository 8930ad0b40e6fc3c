"""The jury corrected with human labels (issue 39): Lee et al.'s worked example, the intervals' coverage over a
fixed set of seeds where the judges err at set rates, the Indic gap recovered when only the judge's errors differ
between the groups, the labels file's errors, and `score --human_labels` end to end with a loopback judge."""

from __future__ import annotations

import json

import lm_eval
import numpy as np
import pytest
from support.scripted_quench import REPLIES  # noqa: F401 - registers the quench-scripted model

from lm_eval_xling.cli import main
from lm_eval_xling.errors import UserError
from lm_eval_xling.metrics.calibration import allocation, calibrate, difference, lee_corrected, read_human_labels
from lm_eval_xling.metrics.jury import Judge, Jury, VerdictCache
from lm_eval_xling.metrics.verdicts import parse_binary
from lm_eval_xling.quench.tasks import ENTITY_JUDGE_PROMPT, judge_prompt

SEEDS = range(300)


def test_lee_et_als_worked_example() -> None:
    """The authors' README example: p = 0.4 of n = 1000 judged correct, specificity 0.7 and sensitivity 0.9 each on
    200 labels. theta = (0.4 + 0.7 - 1) / (0.7 + 0.9 - 1) = 1/6. The interval, by hand: z^2 = 3.841459; smoothed
    p = 401.92073 / 1003.84146 = 0.400383, q0 = 141 / 202, q1 = 181 / 202, Youden 0.594059, centre 0.165645 shifted
    by 2 z^2 (0.165645 * 0.00046115 - 0.834355 * 0.00104350) = -0.006102, se 0.052650, half-width 0.103192."""
    estimate = lee_corrected(0.4, 1000, 0.7, 200, 0.9, 200)
    assert estimate.value == pytest.approx(1 / 6)
    assert (estimate.low, estimate.high) == pytest.approx((0.05635, 0.26273), abs=2e-5)
    # their allocation of 200 labels after a pilot of 10 per class: kappa = (10 * 0.3 + 1) / (10 * 0.1 + 1) = 2,
    # m1 = 200 / (1 + (1 / 0.4 - 1) sqrt(2)) = 64.07
    assert allocation(200, 0.4, 0.7, 10, 0.9, 10) == (136, 64)


def _judged(rng, n: int, labelled: int, theta: float, q0: float, q1: float):
    """n entities right with probability theta, a judge with specificity q0 and sensitivity q1, `labelled` of them
    labelled by a person (at random)."""
    truth = rng.random(n) < theta
    verdicts = np.where(truth, rng.random(n) < q1, rng.random(n) >= q0).astype(float).tolist()
    chosen = set(rng.choice(n, labelled, replace=False).tolist())
    return verdicts, [bool(t) if i in chosen else None for i, t in enumerate(truth)]


def _coverage(n: int, labelled: int, theta: float, q0: float, q1: float) -> dict[str, float]:
    covered = dict.fromkeys(("raw", "lee", "ppi"), 0)
    for seed in SEEDS:
        c = calibrate(*_judged(np.random.default_rng(seed), n, labelled, theta, q0, q1))
        for figure in covered:
            estimate = getattr(c, figure)
            covered[figure] += estimate.low <= theta <= estimate.high
    return {figure: count / len(SEEDS) for figure, count in covered.items()}


@pytest.mark.parametrize(
    ("theta", "q0", "q1"),
    [(0.6, 0.7, 0.9), (0.3, 0.8, 0.9), (0.5, 0.95, 0.7)],
    ids=["lenient", "lenient-low-accuracy", "strict"],
)
def test_corrected_intervals_cover_the_true_accuracy_and_the_raw_mean_does_not(theta, q0, q1, capsys) -> None:
    """600 judged entities, 80 of them labelled; nominal 95%."""
    coverage = _coverage(600, 80, theta, q0, q1)
    with capsys.disabled():
        print(f"\ncoverage theta={theta} q0={q0} q1={q1}: " + ", ".join(f"{k} {v:.3f}" for k, v in coverage.items()))
    assert coverage["raw"] < 0.5  # the judge's errors move the raw share away from the truth
    assert coverage["lee"] >= 0.93 and coverage["ppi"] >= 0.91


def test_the_gap_is_recovered_when_only_the_judges_errors_differ_between_groups(tmp_path, capsys) -> None:
    """The loopback judge, in process and through the jury (its phrasings read by the verdict reader), lenient on
    Indic entities (specificity 0.6, sensitivity 0.95) and even-handed on the others (0.9, 0.9); both groups 50%
    right, 150 entities each, 30 labelled, 100 seeds: the raw gap is about -17.5 points, the true one 0; each
    group's corrected interval covers its 50%, the raw one does not."""
    import support.phrased_judge  # noqa: F401 - registers erring-judge

    prompts, entities = [], []
    for seed in range(100):
        rng = np.random.default_rng(seed)
        for indic in (True, False):
            truth, labelled = rng.random(150) < 0.5, set(rng.choice(150, 30, replace=False).tolist())
            for i, right in enumerate(truth.tolist()):
                gold, place = f"Person {seed}-{indic}-{i}", "in India" if indic else "in Peru"
                given = f"The answer is {gold}" if right else f"The answer is Someone {i}"
                prompts.append(judge_prompt(ENTITY_JUDGE_PROMPT, f"X was born {place}. Identify X.", gold, given))
                entities.append((seed, indic, right if i in labelled else None))
    args = "seed=7,q0=0.9,q1=0.9,indic_q0=0.6,indic_q1=0.95"
    judge = Judge.from_spec({"model": "erring-judge", "model_args": args, "name": "judge"})
    verdicts = [
        r["judge"]["verdict"] for r in Jury([judge], VerdictCache(tmp_path / "c.sqlite")).judge(prompts, parse_binary)
    ]
    assert None not in verdicts  # every phrasing read
    covered, gaps = dict.fromkeys(("raw", "lee", "ppi"), 0), []
    accuracy = {(indic, figure): 0 for indic in (True, False) for figure in covered}
    for seed in range(100):
        c = {}
        for indic in (True, False):
            mine = [
                (v, label)
                for v, (s, group, label) in zip(verdicts, entities, strict=True)
                if (s, group) == (seed, indic)
            ]
            c[indic] = calibrate([v for v, _ in mine], [label for _, label in mine])
            for figure in covered:
                estimate = getattr(c[indic], figure)
                accuracy[indic, figure] += estimate.low <= 0.5 <= estimate.high
        for figure in covered:
            gap = difference(getattr(c[False], figure), getattr(c[True], figure))
            covered[figure] += gap.low <= 0 <= gap.high
        gaps.append(c[False].raw.value - c[True].raw.value)
    coverage = {figure: count / 100 for figure, count in covered.items()}
    by_group = {f"{'indic' if indic else 'non_indic'} {figure}": n / 100 for (indic, figure), n in accuracy.items()}
    with capsys.disabled():
        print(f"\ngap coverage (true gap 0, mean raw gap {np.mean(gaps):.3f}): {coverage}; accuracy: {by_group}")
    assert by_group["indic raw"] < 0.2 and by_group["indic lee"] >= 0.9 and by_group["indic ppi"] >= 0.88
    assert by_group["non_indic lee"] >= 0.9 and by_group["non_indic ppi"] >= 0.88
    assert np.mean(gaps) == pytest.approx(-0.175, abs=0.02)
    assert coverage["raw"] < 0.15
    assert coverage["lee"] >= 0.9 and coverage["ppi"] >= 0.88


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("question_id,variable\nQ1,X\n", ":1: missing column(s) ['label']"),
        ("question_id,variable,label\nQ1,X,maybe\n", ":2: label: 'maybe' is neither correct nor incorrect"),
        ("question_id,variable,label\nQ1,,correct\n", ":2: variable: empty"),
        ("question_id,variable,label\nQ1,X,correct\nQ1,X,incorrect\n", ":3: label: Q1::X is labelled both"),
        ("question_id,variable,label\n", ": holds no labels"),
    ],
)
def test_a_bad_labels_file_is_named_by_line_and_field(tmp_path, text, says) -> None:
    path = tmp_path / "labels.csv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(UserError) as refused:
        read_human_labels(path)
    assert str(refused.value).startswith(f"{path}{says}")


# right: Q1::X Thames, Q2::X Tagore, Q5::X Paris, Q6::X Pongal; wrong: Q1::Y, Q3::X, Q4::X, Q5::Y (Indic: Q2, Q3, Q6)
TRUTH = {"Q1::X": 1, "Q1::Y": 0, "Q2::X": 1, "Q3::X": 0, "Q4::X": 0, "Q5::X": 1, "Q5::Y": 0, "Q6::X": 1}


def test_score_with_human_labels_prints_the_corrected_jury(tmp_path, local_data, capsys) -> None:
    """A loopback judge that calls Loire's wrong answer (Seine) correct; six of the eight entities labelled. Lee et
    al.'s accuracy is the truth in every group here: all 4/8 (p 5/8, q0 3/4, q1 1), Indic 2/3, non-Indic 2/5
    (p 3/5, q0 2/3, q1 1), where the raw shares are 5/8, 2/3 and 3/5."""
    from support.phrased_judge import PhrasedJudge

    labels = tmp_path / "labels.csv"
    rows = [f"{e.replace('::', ',')},{'correct' if right else 'incorrect'}" for e, right in TRUTH.items()]
    labels.write_text("\n".join(["question_id,variable,label", *rows[1:2], *rows[3:]]) + "\n")
    assert set(read_human_labels(labels)) == set(TRUTH) - {"Q1::X", "Q2::X"}
    with PhrasedJudge(mistaken=frozenset({"Loire"})) as judge:
        base_url = f"http://127.0.0.1:{judge.port}/v1/chat/completions"
        args = f"model=lenient,base_url={base_url},num_concurrent=1,max_retries=1,tokenized_requests=False"
        spec = {"model": "local-chat-completions", "model_args": args, "name": "lenient"}
        results = lm_eval.simple_evaluate(
            model="quench-scripted", model_args="table=model,model=quench-self", tasks=["quench"],
            metadata={"judges": [spec], "judge_cache": str(tmp_path / "c.sqlite"), "human_labels": str(labels)},
            log_samples=True, bootstrap_iters=0,
        )  # fmt: skip
    got = {k.removesuffix(",extract"): v for k, v in results["results"]["quench"].items()}
    assert (got["jury_raw"], got["jury_lee"]) == pytest.approx((100 * 5 / 8, 100 * 4 / 8))
    assert (got["jury_lee_indic"], got["jury_lee_non_indic"]) == pytest.approx((100 * 2 / 3, 100 * 2 / 5))
    assert got["jury_lee_delta"] == pytest.approx(100 * (2 / 5 - 2 / 3))
    assert got["jury_specificity_non_indic"] == pytest.approx(100 * 2 / 3)
    assert (got["jury_labels_correct"], got["jury_labels_incorrect"]) == (2, 4)
    assert got["jury_lee_ci_low"] <= got["jury_lee"] <= got["jury_lee_ci_high"]
    assert got["judge_lenient_lee"] == got["jury_lee"]  # one judge: the jury is that judge

    log = _saved(results, tmp_path / "out")
    capsys.readouterr()
    assert main(["score", str(log), "--human_labels", str(labels), "--plan", "20"]) == 0
    printed = capsys.readouterr().out
    with capsys.disabled():
        print("\n" + printed)
    assert "| jury | all | 8 | 2 / 4 |" in printed and "| 62.5 [" in printed and "| 50.0 [" in printed
    assert "| jury | gap, non-Indic - Indic | | | | | -6.7 | -26.7 [" in printed
    assert "labels for a 95% interval of Lee et al.'s accuracy at most 20 points wide" in printed
    assert "jury_lee" not in printed  # the figures are in the table, not in lm-eval's

    assert main(["report", str(tmp_path / "out"), "--out", str(tmp_path / "report"), "--iters", "20"]) == 0
    report = (tmp_path / "report" / "report.md").read_text(encoding="utf-8")
    section = report.split("## QUENCH: the jury corrected with human labels", 1)[1]
    assert "| Run | Task | Judge | Entities | Judged | Labels correct / incorrect |" in section
    assert "| quench | jury | all | 8 | 2 / 4 |" in section and "| 50.0 [" in section  # beside raw 62.5, with labels


def _saved(results: dict, out) -> object:
    """The sample log of a `simple_evaluate` run of quench, saved as `lm_eval --output_path out` saves it."""
    from lm_eval.loggers import EvaluationTracker

    tracker = EvaluationTracker(output_path=str(out))
    tracker.save_results_aggregated(results=results, samples=results["samples"])
    tracker.save_results_samples(task_name="quench", samples=results["samples"]["quench"])
    return next(out.rglob("samples_quench_*.jsonl"))


def test_human_labels_for_a_run_without_judges_is_one_line(tmp_path, local_data) -> None:
    labels = tmp_path / "labels.csv"
    labels.write_text("question_id,variable,label\nQ1,X,correct\n")
    results = lm_eval.simple_evaluate(
        model="quench-scripted", model_args="table=model", tasks=["quench"], log_samples=True, bootstrap_iters=0
    )
    log = _saved(results, tmp_path / "out")
    with pytest.raises(SystemExit) as refused:
        main(["score", str(log), "--human_labels", str(labels)])
    said = str(refused.value)
    assert refused.value.code == 2 and "\n" not in said
    assert said.endswith("--human_labels: no verdict of correct or incorrect to correct (a QUENCH entity task, "
                            "judged in the run or given --judges)")  # fmt: skip


def test_human_labels_on_scored_rationales_is_one_line(tmp_path, local_data) -> None:
    labels = tmp_path / "labels.csv"
    labels.write_text("question_id,variable,label\nQ1,X,correct\n")
    with pytest.raises(UserError, match="human_labels: they correct correct/incorrect verdicts"):
        lm_eval.simple_evaluate(
            model="quench-scripted", model_args="table=model", tasks=["quench_rationale_gold"],
            metadata={"judges": [{"model": "quench-scripted", "model_args": "table=a"}], "human_labels": str(labels)},
        )  # fmt: skip


def test_plan_needs_labels(tmp_path, capsys) -> None:
    with pytest.raises(SystemExit) as refused:
        main(["score", str(tmp_path / "samples_quench_2026-01-01T00-00-00.000000.jsonl"), "--plan", "10"])
    assert refused.value.code == 2 and "--plan needs --human_labels" in capsys.readouterr().err


def test_the_jury_is_its_judges_majority_and_a_tie_is_no_verdict() -> None:
    from lm_eval_xling.quench.calibrated import calibrated_values

    units = [
        {"entity": "Q1::X", "indic": True, "jury": {"a": {"verdict": 1.0}, "b": {"verdict": 1.0}}},
        {"entity": "Q2::X", "indic": True, "jury": {"a": {"verdict": 1.0}, "b": {"verdict": 0.0}}},  # a tie
        {"entity": "Q3::X", "indic": False, "jury": {"a": {"verdict": 0.0}, "b": {"verdict": None, "error": "x"}}},
    ]
    values = calibrated_values(units, {"Q1::X": True, "Q3::X": False})
    assert values["jury_judged"] == 2 and values["jury_raw"] == 50.0
    assert values["judge_a_judged"] == 3 and values["judge_b_judged"] == 2
    assert json.dumps(values, allow_nan=True)  # every value is a number (NaN where undefined)
