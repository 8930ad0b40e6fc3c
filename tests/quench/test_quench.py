"""QUENCH: the built dataset, the prompts, the tasks through lm-eval, and the chained rationale run."""

from __future__ import annotations

import json

import lm_eval
import pyarrow.parquet as pq
import pytest
from support.common import RAW, needs_raw, run_cli

from lm_eval_xling.data import DatasetError
from lm_eval_xling.data.builders import builders
from lm_eval_xling.quench.tasks import (
    entity_cot_prompt,
    entity_prompt,
    extract_entities,
    predicted_answers,
    rationale_pred_prompt,
)

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


def test_prompts_are_the_authors():
    """One request per variable, the authors' wording; CoT at the end of the preamble (more in test_quench_prompts)."""
    doc = {"variable": "Y", "question": "Q?", "prediction": "The answer is <X Paris>"}
    preamble = (
        "Consider yourself a participant in a quiz show where I am the quizmaster. I will ask you a question that can "
        "be from any general theme. You need to provide me with the correct answer. "
    )
    assert entity_prompt(doc) == preamble + (
        "The question can have multiple variables to answer, and you need to provide me with the answer for variable "
        "Y. Hence, use the following format strictly in your response: `The answer is <X answer>`. You lose points if "
        "you fail to follow the format.\nQ?"
    )
    assert entity_cot_prompt(doc).startswith(preamble + "Let's think step by step. The question can have")
    assert rationale_pred_prompt(doc).startswith(
        preamble + "The prediction for variable Y is The answer is <X Paris>, "
    )


def test_named_variant_asks_for_the_variable_in_its_format(local_data):
    """quench_named: the authors' prompt except `<Y answer>` for variable Y; replies in that format are read."""
    results = lm_eval.simple_evaluate(model="dummy", tasks=["quench", "quench_named"], log_samples=True, limit=8)
    for original, named in zip(results["samples"]["quench"], results["samples"]["quench_named"], strict=True):
        variable = named["doc"]["variable"]
        prompt = named["arguments"][0][0]
        assert f"`The answer is <{variable} answer>`" in prompt
        assert prompt == original["arguments"][0][0].replace("<X answer>", f"<{variable} answer>")
    assert {s["doc"]["variable"] for s in results["samples"]["quench_named"]} > {"X"}
    assert extract_entities([["The answer is <Y Karachi>"]], [{"variable": "Y"}])[0][0]["answer"] == "Karachi"


def test_tasks_split_indic_and_report_deltas(local_data):
    tasks = ["quench", "quench_indic", "quench_non_indic", "quench_cot", "quench_rationale_gold"]
    results = lm_eval.simple_evaluate(model="dummy", tasks=tasks, log_samples=True, gen_kwargs="max_gen_toks=8")
    samples = results["samples"]
    assert len(samples["quench"]) == 8  # one request per masked entity: 6 questions, 8 variables
    assert {s["doc"]["indic"] for s in samples["quench_indic"]} == {True} and len(samples["quench_indic"]) == 3
    assert {s["doc"]["indic"] for s in samples["quench_non_indic"]} == {False}
    assert len(samples["quench_rationale_gold"]) == 8  # one per masked entity
    got = {k.split(",")[0]: v for k, v in results["results"]["quench"].items()}
    for part in ("delta", "indic", "non_indic"):  # every group score and the delta with its interval
        assert got[f"bleu_{part}_ci_low"] <= got[f"bleu_{part}"] <= got[f"bleu_{part}_ci_high"]
    assert got["bleu_indic_ci_low"] < got["bleu_indic_ci_high"]  # three Indic entities with different scores
    assert "bleu_delta,extract" not in results["results"]["quench_indic"]
    for task in tasks:
        assert {"bleu,extract", "rouge_l,extract", "bertscore,extract"} <= set(results["results"][task])


def test_overlap_metrics_score_perfect_answers_perfectly(tmp_path, local_data):
    """Replay a log whose replies are the gold answers: ROUGE-L and BERTScore 100, no delta."""
    from lm_eval_xling.quench.tasks import load_entities
    from lm_eval_xling.results.replay import score_samples

    docs = load_entities()["test"].to_list()
    log = tmp_path / "samples_quench_2026-01-01T00-00-00.000000.jsonl"
    lines = []
    for i, doc in enumerate(docs):
        reply = f"The answer is <X {doc['answer']}>"  # the authors' format, X whatever the variable
        lines.append(json.dumps({"doc_id": i, "doc": doc, "resps": [[reply]]}))
    log.write_text("\n".join(lines) + "\n")
    metrics = score_samples(log)["results"]["quench"]
    assert metrics["rouge_l,extract"] == pytest.approx(100)
    assert metrics["bertscore,extract"] == pytest.approx(100, abs=0.01)
    assert metrics["rouge_l_delta,extract"] == pytest.approx(0)
    assert predicted_answers(log)["Q5::Y"] == "The answer is <X Loire>"  # the raw reply, as the authors showed it


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
    assert all(d["prediction"] == predicted[d["id"]] for d in docs)
    again = run_cli(*args)
    assert again.stdout.count("done already") == 2
