"""QUENCH: quiz questions with masked entities, scored per entity by overlap metrics and an LLM jury.

Entity tasks ask once per question for every variable; rationale tasks ask once per entity for the reasoning
behind a given answer (the gold one, or the model's own prediction from an entity run's sample log).
"""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path
from typing import Any

import datasets

from lm_eval_xling.data import load_dataset
from lm_eval_xling.judged_task import JudgedTask
from lm_eval_xling.metrics.jury import JURY_METRICS, parse_likert, summarize
from lm_eval_xling.metrics.overlap import bertscore_f1, corpus_bleu, rouge_l
from lm_eval_xling.parsing.variables import parse_variables
from lm_eval_xling.schemas import QUENCH

# The paper's prompts, verbatim.
_QUIZMASTER = (
    "Consider yourself a participant in a quiz show where I am the quizmaster. I will ask you a question that can be "
    "from any general theme. "
)
ENTITY_PROMPT = (
    _QUIZMASTER + "You need to provide me with the correct answer. The question can have multiple variables to "
    "answer, and you need to provide me with the answer for variables {}. Hence, use the following format strictly "
    "in your response: 'The answer is <<<X: answer>>>.' You will lose points if you fail to follow the format."
)
RATIONALE_PROMPT = (
    _QUIZMASTER + "The prediction for variable {} is {}. Provide me with the rationale followed for your answer. "
    "Use the following format in your response: 'The rationale is <rationale>'. You lose points if you fail to "
    "follow the format."
)
COT_SUFFIX = "Let's think step by step."
_HOST = "You are the host of a quiz show where you ask complex and tricky questions to the contestants. "
ENTITY_JUDGE_PROMPT = (
    _HOST + "Now, once you ask one such question, the contestant gives an answer that might not be the exact answer "
    "but is still correct. For instance, the answer provided to you might be 'U.S.A' while the actual answer is "
    "'United States of America' or 'United States' or 'America', etc. Use your wise judgment to decide, based on the "
    "question given, whether the answer is correct or not. YOU ARE THE JUDGE AND YOUR WORD IS FINAL. Be fair and "
    "just in your judgment. Always respond with 'correct' or 'incorrect' based on the answer provided by the "
    "contestant. You will be provided the question, the true answer, and the answer provided by the contestant, and "
    "you need to decide whether the answer is correct or not. ## Question\n{question}\n## True Answer\n{gold}\n"
    "## Answer Given by contestant\n{prediction}\n## Your Judgement (correct/incorrect)"
)
RATIONALE_JUDGE_PROMPT = (
    _HOST + "Now, once you ask one such question, the contestant gives an answer as well as the rationale behind "
    "that answer. You need to decide whether the rationale provided is correct or not by comparing it with the true "
    "rationale. Use your wise judgment to decide based on the question given whether the rationale is correct or not. "
    "YOU ARE THE JUDGE AND YOUR WORD IS FINAL. Be fair and just in your judgment. Provide a score between 1 to 5 "
    "based on the rationale provided by the contestant. 1 being the least and 5 being the highest score.\n"
    "## Question\n{question}\n## True Rationale\n{gold}\n## Rationale Given by contestant\n{prediction}\n"
    "## Your Judgement (1-5)"
)
OVERLAP_METRICS = ("bleu", "rouge_l", "bertscore")


def variable_list(variables: list[str]) -> str:
    """ "X", "X and Y", "X, Y, and Z"."""
    if len(variables) <= 2:
        return " and ".join(variables)
    return ", ".join(variables[:-1]) + ", and " + variables[-1]


# ---- data


def load(subset: str = "default", **_: Any) -> datasets.DatasetDict:
    """custom_dataset hook for the entity tasks."""
    return load_dataset(QUENCH, subset)


def indic_only(docs: datasets.Dataset) -> datasets.Dataset:
    return docs.filter(lambda d: d["indic"])


def non_indic_only(docs: datasets.Dataset) -> datasets.Dataset:
    return docs.filter(lambda d: not d["indic"])


def entities(questions: datasets.Dataset, shown: dict[str, str] | None = None) -> datasets.Dataset:
    """One row per masked entity; `shown` is the answer put in the rationale prompt (default: the gold one)."""
    rows = []
    for q in questions:
        for var, answer, rationale in zip(q["variables"], q["answers"], q["rationales"], strict=True):
            entity_id = f"{q['id']}::{var}"
            if shown is not None and entity_id not in shown:
                continue  # the entity run did not cover this question
            rows.append(
                {
                    "id": entity_id,
                    "question": q["question"],
                    "variable": var,
                    "answer": answer,
                    "rationale": rationale,
                    "shown_answer": answer if shown is None else shown[entity_id],
                    "indic": q["indic"],
                }
            )
    return datasets.Dataset.from_list(rows)


def load_rationale_gold(subset: str = "default", **_: Any) -> datasets.DatasetDict:
    return datasets.DatasetDict({"test": entities(load(subset)["test"])})


def load_rationale_pred(subset: str = "default", predictions: str | None = None, **_: Any) -> datasets.DatasetDict:
    """Entities with the model's own predictions, read from an entity run's `--log_samples` file."""
    if not predictions:
        raise ValueError('quench_rationale_pred needs --metadata \'{"predictions": "<entity run samples .jsonl>"}\'')
    return datasets.DatasetDict({"test": entities(load(subset)["test"], predicted_answers(Path(predictions)))})


def predicted_answers(samples: Path) -> dict[str, str]:
    """{"<question id>::<variable>": predicted answer} from an entity task's sample log (raw reply if unparsed)."""
    shown = {}
    with samples.open(encoding="utf-8") as f:
        for line in f:
            sample = json.loads(line)
            doc, raw = sample["doc"], sample["resps"][0][0]
            answers = parse_variables(raw, doc["variables"])
            for var in doc["variables"]:
                shown[f"{doc['id']}::{var}"] = answers[var] or raw.strip()
    return shown


# ---- prompts and parsing


def entity_prompt(doc: dict) -> str:
    return ENTITY_PROMPT.format(variable_list(doc["variables"])) + f"\nQuestion: {doc['question']}"


def entity_cot_prompt(doc: dict) -> str:
    return entity_prompt(doc) + "\n" + COT_SUFFIX


def rationale_prompt(doc: dict) -> str:
    return RATIONALE_PROMPT.format(doc["variable"], doc["shown_answer"]) + f"\nQuestion: {doc['question']}"


def entity_target(doc: dict) -> str:
    return "; ".join(f"<<<{v}: {a}>>>" for v, a in zip(doc["variables"], doc["answers"], strict=True))


def extract_entities(resps: list[list[str]], docs: list[dict]) -> list[list[dict[str, str | None]]]:
    """Filter: each reply -> {variable: answer or None}."""
    return [[parse_variables(r, doc["variables"]) for r in rs] for rs, doc in zip(resps, docs, strict=True)]


def extract_rationale(resps: list[list[str]], docs: list[dict]) -> list[list[str]]:
    """Filter: the text after 'The rationale is', else the whole reply."""
    out = []
    for rs in resps:
        texts = []
        for r in rs:
            head, sep, tail = r.partition("The rationale is")
            texts.append((tail if sep else head).strip(" :\n\"'"))
        out.append(texts)
    return out


# ---- tasks


class _QuenchTask(JudgedTask):
    scale = 1.0  # the largest verdict: entity verdicts are 0/1

    def __init__(self, config=None, **kwargs):
        super().__init__(config=config, **kwargs)
        meta = self.config.metadata
        self._aggregation_list, self._higher_is_better = {}, {}  # ours replace lm-eval's default metrics
        self.report_delta = bool(meta.get("report_delta"))
        bert = partial(bertscore_f1, model=meta.get("bertscore_model"), layers=int(meta.get("bertscore_layers", 6)))
        scorers = {
            "bleu": lambda units: corpus_bleu([u["prediction"] for u in units], [u["reference"] for u in units]),
            "rouge_l": lambda units: _mean(rouge_l([u["prediction"] for u in units], [u["reference"] for u in units])),
            "bertscore": lambda units: _mean(bert([u["prediction"] for u in units], [u["reference"] for u in units])),
        }
        if self.judges:
            names = [f"judge_{j.name}" for j in self.judges] + list(JURY_METRICS)
            for name in names:
                scorers[name] = partial(_jury_metric, name=name, scale=self.scale)
        for name, scorer in scorers.items():
            self._aggregation_list[name] = partial(_aggregate, scorer=scorer)
            is_count = name in ("jury_failures", "jury_unparsed")
            self._higher_is_better[name] = not is_count
            if self.report_delta and not is_count:
                self._aggregation_list[f"{name}_delta"] = partial(_delta, scorer=scorer)
                self._higher_is_better[f"{name}_delta"] = False

    def units(self, doc: dict, response: Any) -> list[dict[str, Any]]:
        """Per judged unit: prediction, reference, Indic flag."""
        raise NotImplementedError

    def process_results(self, doc: dict, results: list[str]) -> dict[str, list[dict]]:
        result = json.loads(results[0])
        units = self.units(doc, result["response"])
        for unit, marks in zip(units, result["jury"] or [None] * len(units), strict=True):
            unit["jury"] = marks
        # every metric aggregates the same units; `--predict_only` replaces them all by lm-eval's "bypass"
        return {name: units for name in self._aggregation_list}


class EntityTask(_QuenchTask):
    def units(self, doc, response):
        return [
            {
                "prediction": response[v] or "",
                "reference": a,
                "indic": doc["indic"],
                "answered": response[v] is not None,
            }
            for v, a in zip(doc["variables"], doc["answers"], strict=True)
        ]

    def judge_prompts(self, doc, response):
        return [
            ENTITY_JUDGE_PROMPT.format(question=doc["question"], gold=u["reference"], prediction=u["prediction"])
            if u["answered"]
            else None  # a missing variable is wrong for that entity, without asking
            for u in self.units(doc, response)
        ]


class RationaleTask(_QuenchTask):
    scale = 5.0  # Likert 1-5
    parse_verdict = staticmethod(parse_likert)

    def units(self, doc, response):
        return [{"prediction": response, "reference": doc["rationale"], "indic": doc["indic"]}]

    def judge_prompts(self, doc, response):
        return [RATIONALE_JUDGE_PROMPT.format(question=doc["question"], gold=doc["rationale"], prediction=response)]


def _flatten(items: list[list[dict]]) -> list[dict]:
    return [u for doc_units in items for u in doc_units]


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else float("nan")


def _aggregate(items: list[list[dict]], scorer) -> float:
    return scorer(_flatten(items))


def _delta(items: list[list[dict]], scorer) -> float:
    """The metric on non-Indic units minus the metric on Indic units."""
    units = _flatten(items)
    indic, other = [u for u in units if u["indic"]], [u for u in units if not u["indic"]]
    return scorer(other) - scorer(indic) if indic and other else float("nan")


def _jury_metric(units: list[dict], name: str, scale: float) -> float:
    return summarize([u["jury"] for u in units if u["jury"] is not None], scale).get(name, float("nan"))
