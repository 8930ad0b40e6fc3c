"""X-PARADE prompts: the one-shot example, the translate-to-English tasks, and a run through the lm_eval command line
re-scored by `lm-eval-xling score`."""

from __future__ import annotations

import json
import zlib

import numpy as np
import pytest
from support.common import RAW, run_cli

from lm_eval_xling.xparade.schema import XPARADE_DIRECTIONS
from lm_eval_xling.xparade.span_f1 import INF, NEW, SAME
from lm_eval_xling.xparade.tasks import CONFUSION, EXAMPLE_MIN_SHARE, gold_answer, gold_spans, load, oneshot_docs

needs_xparade = pytest.mark.skipif(not (RAW / "xparade").is_dir(), reason=f"X-PARADE raw data not found at {RAW}")


def _task(name: str):
    from lm_eval.tasks import TaskManager

    return TaskManager().load([name])["tasks"][name]


def test_one_shot_example_teaches_new_and_inferable_spans_copied_from_the_paragraph(local_data):
    task = _task("xparade_en_zh")
    example = oneshot_docs(load("en-zh")["dev"])[0]
    doc = task.test_docs()[0]
    context = task.fewshot_context(doc, num_fewshot=1)
    assert context.count("Source paragraph (") == 2  # the example, then the pair to annotate
    assert gold_answer(example) in context
    for label in ("new", "inf"):
        assert gold_spans(example, label)
        assert all(span in example["target"] for span in gold_spans(example, label))
    assert task.config.generation_kwargs["until"] == ["Source paragraph (", "Target paragraph ("]


def test_dev_task_shows_the_runner_up_to_the_example_itself(local_data):
    task = _task("xparade_en_zh_dev")
    example, runner_up = oneshot_docs(load("en-zh")["dev"])
    context = task.fewshot_context(example, num_fewshot=1)
    assert context.count("Source paragraph (") == 2
    assert gold_answer(runner_up) in context and gold_answer(example) not in context


def test_translated_task_shows_the_english_translation(local_data):
    task = _task("xparade_zh_en_t")
    doc = task.test_docs()[0]
    prompt = task.doc_to_text(doc)
    assert prompt.startswith("Source paragraph (English, machine-translated from Chinese): An English translation.")
    assert doc["source"] not in prompt and doc["target"] in prompt


def test_translated_target_task_shows_the_english_pair_and_an_english_example(local_data):
    task = _task("xparade_en_zh_t")
    doc = task.test_docs()[0]
    context = task.fewshot_context(doc, num_fewshot=1)
    prompt = task.doc_to_text(doc)
    target = "Target paragraph (English, machine-translated from Chinese): An English translation.\n"
    assert prompt == f"Source paragraph (English): {doc['source']}\n{target}"
    assert context.endswith(prompt) and doc["target"] not in context
    # the example: zh-en's (its source translated), so its gold spans are on English text
    example = oneshot_docs(load("zh-en")["dev"])[0]
    assert "Source paragraph (English, machine-translated from Chinese)" in context.removesuffix(prompt)
    assert gold_answer(example) in context and example["target_lang"] == "en"


class Dictionary:
    """A stand-in encoder: a word and its translation share one random vector, so only translations align."""

    name, layer = "dictionary", 0
    pairs = {"gato": "cat", "negro": "black", "el": "the", "duerme": "sleeps"}

    def __call__(self, text, spans):
        words = [text[s:e].lower() for s, e in spans]
        seeds = [zlib.crc32(self.pairs.get(w, w).encode()) for w in words]
        vectors = np.array([np.random.default_rng(seed).normal(size=32) for seed in seeds]).reshape(len(spans), 32)
        return vectors / np.linalg.norm(vectors, axis=1, keepdims=True), np.arange(len(spans))


def test_spans_on_the_translation_reach_the_aligned_target_tokens(monkeypatch, tmp_path):
    from lm_eval_xling.xparade import tasks
    from lm_eval_xling.xparade.alignment import Aligner

    monkeypatch.setenv("LM_EVAL_XLING_CACHE", str(tmp_path))
    monkeypatch.setattr(tasks, "span_mapper", lambda: Aligner(Dictionary(), "itermax"))
    doc = {"target": "El gato negro duerme .", "target_tokens": ["El", "gato", "negro", "duerme", "."],
           "gold": ["same", "same", "new", "inf", "same"], "translations": ["The black cat sleeps."]}  # fmt: skip
    reply = json.dumps({"new": ["black", "not in the text"], "inf": ["sleeps"], "unreadable": False})
    scored = tasks.process_results_translated_target(doc, [reply])
    gold, predicted = scored["new_f1"]
    assert predicted == [SAME, SAME, NEW, INF, SAME]  # "black" -> "negro" across the word-order change
    assert scored["macro_f1"] == (gold, predicted) and scored["confusion_new_new"] == 1
    assert scored["unmatched_span_rate"] == (1, 3)


@needs_xparade
def test_real_examples_per_direction(tmp_path, monkeypatch):
    from lm_eval_xling.data.builders import build

    build("xparade", RAW, tmp_path)
    monkeypatch.setenv("LM_EVAL_XLING_DATA", str(tmp_path))
    chosen = {}
    for direction in XPARADE_DIRECTIONS:
        example = oneshot_docs(load(direction)["dev"])[0]
        shares = [example["gold"].count(label) / len(example["gold"]) for label in ("same", "new", "inf")]
        assert min(shares) >= EXAMPLE_MIN_SHARE, direction
        chosen[direction] = example["id"]
    assert chosen == {"en-es": "en-es-dev-071", "es-en": "es-en-dev-001", "en-hi": "en-hi-dev-050",
                      "hi-en": "hi-en-dev-068", "en-zh": "en-zh-dev-022", "zh-en": "zh-en-dev-091"}  # fmt: skip


def test_lm_eval_run_rescored_by_score(tmp_path, tiny_model, local_data):
    out = tmp_path / "run"
    tasks = ["xparade_en_hi", "xparade_es_en_t", "xparade_en_es_t"]
    run_cli("lm_eval", "--model", "hf", "--model_args", f"pretrained={tiny_model},dtype=float32",
            "--tasks", ",".join(tasks), "--limit", "2", "--gen_kwargs", "max_gen_toks=16",
            "--output_path", str(out), "--log_samples")  # fmt: skip
    results = json.loads(next(out.rglob("results_*.json")).read_text())["results"]
    for task in tasks:
        log = next(out.rglob(f"samples_{task}_*.jsonl"))
        rescored = json.loads(run_cli("lm-eval-xling", "score", "--json", str(log)).stdout)[task]
        for metric in ("new_f1,spans", "macro_precision,spans", "macro_recall,spans", "unmatched_span_rate,spans"):
            assert rescored[metric] == pytest.approx(results[task][metric]), (task, metric)
        docs = [json.loads(line)["doc"] for line in log.read_text().splitlines()]
        cells = sum(results[task][f"{cell},spans"] for cell in CONFUSION)
        assert cells == sum(len(d["target_tokens"]) for d in docs)  # every token counted once
