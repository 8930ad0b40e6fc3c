"""QUENCH: the built dataset, the prompts, the tasks through lm-eval, and the chained rationale run."""

from __future__ import annotations

import json

import lm_eval
import pyarrow.parquet as pq
import pytest
from conftest import RAW, needs_raw, run_cli

from lm_eval_xling.builders import builders
from lm_eval_xling.data import DatasetError
from lm_eval_xling.quench import entity_prompt, predicted_answers, rationale_prompt, variable_list

build = builders()["quench"]
needs_quench = pytest.mark.skipif(not (RAW / "quench").is_dir(), reason=f"QUENCH raw data not found at {RAW}")


@needs_raw
@needs_quench
def test_real_dataset_has_the_papers_counts(tmp_path):
    counts = build.build(RAW, tmp_path)
    assert counts == {
        "questions": 400, "entities": 459, "indic_questions": 70, "indic_entities": 80,
        "non_indic_questions": 330, "non_indic_entities": 379,
    }  # fmt: skip
    records = pq.read_table(tmp_path / "lm-eval-xling/quench/default/test.parquet").to_pylist()
    assert all(len(r["variables"]) == len(r["answers"]) == len(r["rationales"]) for r in records)


def test_broken_question_file_names_file_and_field(tmp_path, synthetic_raw):
    import shutil

    import yaml

    raw = tmp_path / "raw"
    shutil.copytree(synthetic_raw / "quench", raw / "quench")
    path = raw / "quench" / "Data_Store" / "Q5.yml"
    record = yaml.safe_load(path.read_text())
    del record["variable_specific_rationale"]["Y"]
    path.write_text(yaml.safe_dump(record))
    with pytest.raises(
        DatasetError, match=r"Q5.yml field 'variable_specific_rationale': no entry for variable\(s\) \['Y'\]"
    ):
        build.build(raw, tmp_path / "out")


def test_prompts_are_the_papers():
    doc = {"variables": ["X", "Y", "Z"], "question": "Q?"}
    assert variable_list(["X"]) == "X" and variable_list(["X", "Y"]) == "X and Y"
    assert entity_prompt(doc) == (
        "Consider yourself a participant in a quiz show where I am the quizmaster. I will ask you a question that can "
        "be from any general theme. You need to provide me with the correct answer. The question can have multiple "
        "variables to answer, and you need to provide me with the answer for variables X, Y, and Z. Hence, use the "
        "following format strictly in your response: 'The answer is <<<X: answer>>>.' You will lose points if you "
        "fail to follow the format.\nQuestion: Q?"
    )
    assert rationale_prompt({"variable": "X", "shown_answer": "Paris", "question": "Q?"}).startswith(
        "Consider yourself a participant in a quiz show where I am the quizmaster. I will ask you a question that can "
        "be from any general theme. The prediction for variable X is Paris. Provide me with the rationale followed "
        "for your answer. Use the following format in your response: 'The rationale is <rationale>'."
    )


def test_tasks_split_indic_and_report_deltas(local_data):
    tasks = ["quench", "quench_indic", "quench_non_indic", "quench_cot", "quench_rationale_gold"]
    results = lm_eval.simple_evaluate(model="dummy", tasks=tasks, log_samples=True, gen_kwargs="max_gen_toks=8")
    samples = results["samples"]
    assert len(samples["quench"]) == 6
    assert {s["doc"]["indic"] for s in samples["quench_indic"]} == {True} and len(samples["quench_indic"]) == 3
    assert {s["doc"]["indic"] for s in samples["quench_non_indic"]} == {False}
    assert len(samples["quench_rationale_gold"]) == 8  # one per masked entity
    assert "bleu_delta,extract" in results["results"]["quench"]
    assert "bleu_delta,extract" not in results["results"]["quench_indic"]
    for task in tasks:
        assert {"bleu,extract", "rouge_l,extract", "bertscore,extract"} <= set(results["results"][task])


def test_overlap_metrics_score_perfect_answers_perfectly(tmp_path, local_data):
    """Replay a log whose replies are the gold answers: ROUGE-L and BERTScore 100, no delta."""
    from lm_eval_xling.quench import load
    from lm_eval_xling.samples import score_samples

    docs = load()["test"].to_list()
    log = tmp_path / "samples_quench_2026-01-01T00-00-00.000000.jsonl"
    lines = []
    for i, doc in enumerate(docs):
        pairs = zip(doc["variables"], doc["answers"], strict=True)
        reply = "The answer is " + "; ".join(f"<<<{v}: {a}>>>" for v, a in pairs)
        lines.append(json.dumps({"doc_id": i, "doc": doc, "resps": [[reply]]}))
    log.write_text("\n".join(lines) + "\n")
    metrics = score_samples(log)["results"]["quench"]
    assert metrics["rouge_l,extract"] == pytest.approx(100)
    assert metrics["bertscore,extract"] == pytest.approx(100, abs=0.01)
    assert metrics["rouge_l_delta,extract"] == pytest.approx(0)
    assert predicted_answers(log)["Q5::Y"] == "Loire"


def test_quench_chain_runs_entity_then_rationale_and_resumes(tmp_path, tiny_model, local_data):
    out = tmp_path / "chain"
    args = ["lm-eval-xling", "quench-chain", "--model_args", f"pretrained={tiny_model},dtype=float32",
            "--task", "quench_indic", "--output_path", str(out),
            "--limit", "3", "--gen_kwargs", "max_gen_toks=8"]  # fmt: skip
    run_cli(*args)
    entity_log = next((out / "entity").rglob("samples_quench_indic_*.jsonl"))
    rationale_log = next((out / "rationale").rglob("samples_quench_rationale_pred_*.jsonl"))
    predicted = predicted_answers(entity_log)
    docs = [json.loads(line)["doc"] for line in rationale_log.read_text().splitlines()]
    assert {d["id"] for d in docs} == set(predicted)  # exactly the entities the entity run answered
    assert all(d["shown_answer"] == predicted[d["id"]] for d in docs)
    again = run_cli(*args)
    assert again.stdout.count("done already") == 2
