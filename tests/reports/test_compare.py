"""`lm-eval-xling compare`: paired per-document comparison of two checkpoints' lm-eval runs."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from support.common import run_cli

from lm_eval_xling.reports.compare import compare_runs, markdown_table
from lm_eval_xling.results.logs import SamplesError, doc_hash

TASK = "toy_task"
STAMP = "2026-01-01T00-00-00.000000"
N_DOCS = 200
# acc is a per-document mean; bleu is corpus-level (tuples per document); span_f1 has numbers per document but a
# custom aggregation (recorded by lm-eval as the function's source), so neither is a mean to compare
METRIC_LIST = [
    {"metric": "acc", "aggregation": "mean", "higher_is_better": True},
    {"metric": "bleu", "aggregation": "bleu", "higher_is_better": True},
    {"metric": "span_f1", "aggregation": "def span_f1(items):\n    return 0.0\n", "higher_is_better": True},
]


def _doc(doc_id: int, text: str | None = None) -> dict:
    return {"id": doc_id, "question": text or f"Question number {doc_id}?", "answer": "A"}


def write_run(
    folder: Path,
    acc: list[int],
    task: str = TASK,
    changed_doc: int | None = None,
    model: str = "org__ckpt",
    stamp: str = STAMP,
) -> Path:
    """An lm_eval --log_samples folder: <model>/results_<date>.json and samples_<task>_<date>.jsonl, two filters."""
    run = folder / model
    run.mkdir(parents=True, exist_ok=True)
    lines = []
    for filter_name in ("first", "second"):  # only the first filter's line of each document counts
        for doc_id, correct in enumerate(acc):
            doc = _doc(doc_id, "another question" if doc_id == changed_doc else None)
            value = correct if filter_name == "first" else 1 - correct
            sample = {
                "doc_id": doc_id,
                "doc": doc,
                "target": "A",
                "arguments": [[f"Q{doc_id}", {"until": ["\n"]}]],
                "resps": [["A" if value else "B"]],
                "filtered_resps": ["A" if value else "B"],
                "filter": filter_name,
                "metrics": ["acc", "bleu", "span_f1"],
                "doc_hash": doc_hash(doc),
                "prompt_hash": "0",
                "target_hash": "0",
                "acc": value,
                "bleu": ["A", "A" if value else "B"],
                "span_f1": 0.5 * value,
            }
            lines.append(json.dumps(sample) + "\n")
    (run / f"samples_{task}_{stamp}.jsonl").write_text("".join(lines), encoding="utf-8")
    results = {
        "results": {task: {"alias": task, "acc,first": float(np.mean(acc))}},
        "configs": {task: {"task": task, "metric_list": METRIC_LIST}},
    }
    (run / f"results_{stamp}.json").write_text(json.dumps(results), encoding="utf-8")
    return folder


def planted(tmp_path: Path) -> tuple[Path, Path]:
    """A right on docs 0-99 (50%), B on docs 0-159 (80%): B gains 60 docs and loses none, diff exactly 0.30."""
    a = write_run(tmp_path / "a", [int(i < 100) for i in range(N_DOCS)])
    b = write_run(tmp_path / "b", [int(i < 160) for i in range(N_DOCS)])
    return a, b


def test_planted_difference_is_significant(tmp_path):
    result = compare_runs(*planted(tmp_path), iters=4000).results[TASK]
    assert set(result) == {"acc"}
    acc = result["acc"]
    assert (acc.a, acc.b, acc.diff, acc.n) == (0.5, 0.8, 0.3, N_DOCS)
    assert acc.significant and acc.ci[0] > 0 and acc.p < 0.001
    # paired: the per-doc difference is 1 on 60 of 200 docs, sd sqrt(0.21); an unpaired bootstrap would give
    # the wider sqrt(0.25 + 0.16) and miss this interval
    half = 1.96 * math.sqrt(0.21 / N_DOCS)
    assert acc.ci == pytest.approx((0.3 - half, 0.3 + half), abs=0.01)


def test_corpus_and_custom_aggregations_are_skipped(tmp_path):
    comparison = compare_runs(*planted(tmp_path), iters=200)
    assert set(comparison.skipped[TASK]) == {"bleu", "span_f1"}
    assert "aggregation bleu" in comparison.skipped[TASK]["bleu"]
    assert "aggregation span_f1" in comparison.skipped[TASK]["span_f1"]
    table = markdown_table(comparison)
    assert f"skipped: {TASK} bleu" in table and f"skipped: {TASK} span_f1" in table


def test_a_skipped_metric_is_named_with_its_reason_in_words(tmp_path):
    """A metric declared a mean whose logged values are not numbers is skipped with a reason, not a cut raw value."""
    a, b = planted(tmp_path)
    for folder in (a, b):
        results = next(folder.rglob("results_*.json"))
        data = json.loads(results.read_text(encoding="utf-8"))
        data["configs"][TASK]["metric_list"][1]["aggregation"] = "mean"
        results.write_text(json.dumps(data), encoding="utf-8")
    reason = compare_runs(a, b, iters=50).skipped[TASK]["bleu"]
    assert reason == "its per-document values are lists: a corpus-level score, not a mean over documents"


def test_a_folder_compared_with_itself_is_refused(tmp_path):
    a, _ = planted(tmp_path)
    proc = run_cli("lm-eval-xling", "compare", str(a), str(a / "."), check=False)
    assert proc.returncode == 2 and "A and B are the same folder" in proc.stderr and "Traceback" not in proc.stderr


def test_results_are_reproducible_with_the_seed(tmp_path):
    a, b = planted(tmp_path)
    first = compare_runs(a, b, iters=500, seed=3).as_dict()
    assert compare_runs(a, b, iters=500, seed=3).as_dict() == first
    assert compare_runs(a, b, iters=500, seed=4).as_dict()[TASK]["acc"]["ci"] != first[TASK]["acc"]["ci"]


@pytest.mark.parametrize("kind", ["swaps", "relabelled"])
def test_null_difference_is_not_flagged(tmp_path, kind):
    acc_a = [int(i < 100) for i in range(N_DOCS)]
    if kind == "swaps":  # B loses docs 0-9 and gains docs 100-109
        acc_b = [1 - v if i < 10 or 100 <= i < 110 else v for i, v in enumerate(acc_a)]
    else:  # B: the same answers shuffled over the documents, same mean
        acc_b = list(np.random.default_rng(11).permutation(acc_a))
    a = write_run(tmp_path / "a", acc_a)
    b = write_run(tmp_path / "b", [int(v) for v in acc_b])
    acc = compare_runs(a, b, iters=2000).results[TASK]["acc"]
    assert acc.diff == 0 and acc.a == acc.b == 0.5
    assert not acc.significant and acc.ci[0] < 0 < acc.ci[1] and acc.p == 1.0


def test_other_documents_are_refused(tmp_path):
    a = write_run(tmp_path / "a", [1] * 30)
    b = write_run(tmp_path / "b", [1] * 30, changed_doc=17)
    with pytest.raises(SamplesError, match=rf"{TASK} doc_id 17: doc_hash differs.*not made on the same documents"):
        compare_runs(a, b, iters=100)
    proc = run_cli("lm-eval-xling", "compare", str(a), str(b), check=False)
    assert proc.returncode != 0 and f"{TASK} doc_id 17" in proc.stderr


def test_cli_json_table_and_plot(tmp_path):
    a, b = planted(tmp_path)
    write_run(a, [1] * 5, task="only_in_a", stamp="2026-01-02T00-00-00.000000")
    plot = tmp_path / "plots" / "forest.png"
    proc = run_cli("lm-eval-xling", "compare", str(a), str(b), "--json", "--plot", str(plot), "--iters", "1000")
    assert json.loads(proc.stdout) == compare_runs(a, b, iters=1000).as_dict()
    assert json.loads(proc.stdout)[TASK]["acc"]["diff"] == 0.3
    assert "only in A, not compared: only_in_a" in proc.stderr and f"skipped: {TASK} bleu" in proc.stderr
    png = plot.read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 5000
    table = run_cli("lm-eval-xling", "compare", str(a), str(b), "--iters", "1000").stdout
    assert f"| {TASK} | acc | 0.5000 | 0.8000 | +0.3000 |" in table and "| yes | 200 |" in table


def test_same_model_twice_through_real_lm_eval(tmp_path, tiny_model, data_root):
    """Two real lm_eval runs of one model on the same documents: no difference, nothing flagged."""
    outs = [tmp_path / "a", tmp_path / "b"]
    for out in outs:
        run_cli(
            "lm_eval", "--model", "hf", "--model_args", f"pretrained={tiny_model},dtype=float32", "--device", "cpu",
            "--tasks", "nsp_english_ll", "--limit", "8", "--log_samples", "--output_path", str(out),
            env={"LM_EVAL_XLING_DATA": str(data_root)},
        )  # fmt: skip
    report = json.loads(run_cli("lm-eval-xling", "compare", *map(str, outs), "--json", "--iters", "500").stdout)
    assert set(report) == {"nsp_english_ll"}
    assert set(report["nsp_english_ll"]) == {"acc", "acc_norm"}
    for values in report["nsp_english_ll"].values():
        assert values["diff"] == 0 and values["a"] == values["b"] and values["n"] == 8
        assert values["significant"] is False and values["p"] == 1.0


def test_a_folder_holding_two_runs_is_refused_with_the_list(tmp_path):
    a, b = planted(tmp_path)
    write_run(a, [1] * N_DOCS, model="org__other", stamp="2026-01-02T00-00-00.000000")
    for folder in (a / "org__ckpt", a / "org__other"):
        results = next(folder.glob("results_*.json"))
        results.write_text(results.read_text().replace('"results"', f'"model_name": "{folder.name}", "results"', 1))
    proc = run_cli("lm-eval-xling", "compare", str(a), str(b), check=False)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "results of 2 different runs" in proc.stderr
    assert "- org__ckpt: results_2026-01-01" in proc.stderr and "- org__other: results_2026-01-02" in proc.stderr


def _quench_run(folder: Path, predictions: list[str], gen_kwargs: dict) -> Path:
    """A QUENCH entity run: per document one unit (prediction, reference) logged under each metric."""
    run = folder / "org__model"
    run.mkdir(parents=True)
    metrics = ["bleu", "rouge_l", "bleu_sacrebleu", "unanswered"]
    lines = []
    for doc_id, prediction in enumerate(predictions):
        doc = {"question_id": f"q{doc_id}", "answer": f"Answer number {doc_id}"}
        unit = {"prediction": prediction.format(doc_id), "reference": doc["answer"], "indic": doc_id % 2 == 0,
                "answered": bool(prediction), "question_id": doc["question_id"], "jury": None}  # fmt: skip
        sample = {"doc_id": doc_id, "doc": doc, "resps": [[prediction]], "filter": "extract", "metrics": metrics}
        sample["doc_hash"] = doc_hash(doc)
        lines.append(json.dumps(sample | dict.fromkeys(metrics, [unit])) + "\n")
    (run / f"samples_quench_indic_{STAMP}.jsonl").write_text("".join(lines), encoding="utf-8")
    config = {"task": "quench_indic", "metadata": {"version": 4.0}, "metric_list": []}
    results = {"results": {"quench_indic": {"alias": "quench_indic"}}, "configs": {"quench_indic": config},
               "model_name": "org/model", "config": {"gen_kwargs": gen_kwargs}}  # fmt: skip
    (run / f"results_{STAMP}.json").write_text(json.dumps(results), encoding="utf-8")
    return folder


def test_quench_is_compared_entity_by_entity_with_paired_intervals(tmp_path):
    """QUENCH logs each entity's prediction and reference, not a number: compare scores them per entity, so BLEU,
    ROUGE-L and the unanswered share get paired intervals; corpus BLEU stays skipped, with its reason."""
    a = _quench_run(tmp_path / "a", ["something else"] * 30, {"temperature": 0})
    b = _quench_run(tmp_path / "b", ["Answer number {}"] * 20 + [""] * 10, {"temperature": 0.7})
    comparison = compare_runs(a, b, iters=500)
    assert comparison.labels == ("org/model [gen_kwargs temperature=0]", "org/model [gen_kwargs temperature=0.7]")
    scores = comparison.results["quench_indic"]
    assert set(scores) == {"bleu", "rouge_l", "unanswered"}
    assert scores["unanswered"].a == 0 and scores["unanswered"].b == pytest.approx(1 / 3)
    assert scores["rouge_l"].diff == pytest.approx(200 / 3) and scores["rouge_l"].significant  # ROUGE-L x 100
    assert all(c.n == 30 for c in scores.values())
    assert "bleu_sacrebleu" in comparison.skipped["quench_indic"]
