"""QUENCH: quiz questions with masked entities, scored per entity by overlap metrics and an LLM jury.

As the authors ran it (`LLM_Inference/*.py` of their repository): one request per masked entity (question,
variable), in three stages, each plain or chain-of-thought: the entity, the rationale for the gold answer, and the
rationale for the model's own reply from an entity run's sample log (chained, see `run_chain`).
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import datasets

from lm_eval_xling.data import load_dataset
from lm_eval_xling.errors import UserError
from lm_eval_xling.metrics.calibration import read_human_labels
from lm_eval_xling.metrics.judged_task import JudgedTask
from lm_eval_xling.metrics.jury import JURY_COUNTS, JURY_METRICS, active_judges, summarize, unit_scores
from lm_eval_xling.metrics.overlap import (
    bertscore_f1,
    char_bigram_bleu,
    corpus_bleu,
    default_bertscore_model,
    rouge_l,
    rouge_l_summary_level,
)
from lm_eval_xling.metrics.verdicts import parse_likert
from lm_eval_xling.quench.answers import parse_variables, read_rationale
from lm_eval_xling.quench.calibrated import calibrated_names, calibrated_values
from lm_eval_xling.quench.schema import QUENCH
from lm_eval_xling.stats import difference_ci, mean_ci

log = logging.getLogger("lm_eval.xling.quench")

# The authors' prompts, verbatim from their inference scripts (where the paper's appendix differs, the code ran).
# Their `<X answer>` names X whatever the variable is; kept, as it is what the models were shown.
QUIZMASTER = (
    "Consider yourself a participant in a quiz show where I am the quizmaster. I will ask you a question that can be "
    "from any general theme. You need to provide me with the correct answer."
)
COT = "Let's think step by step."
ANSWER_FORMAT = (
    "The question can have multiple variables to answer, and you need to provide me with the answer for variable {}. "
    "Hence, use the following format strictly in your response: `The answer is <X answer>`. You lose points if you "
    "fail to follow the format."
)
PRED_RATIONALE_FORMAT = (
    "The prediction for variable {} is {}, provide me with the rationale followed for your answer. Use the following "
    "format in your response: `The rationale is <rationale>`. You lose points if you fail to follow the format."
)
GOLD_RATIONALE_FORMAT = (
    "The correct answer for the variable {} is {}, provide me with the rationale that can be followed to arrive at "
    "the answer. Use the following format in your response: `The rationale is <rationale>`. You lose points if you "
    "fail to follow the format."
)
# The authors' judge prompts (their evaluation notebook); the placeholders are filled by plain replacement as there.
ENTITY_JUDGE_PROMPT = """You are the host of a quiz show where you ask complex and tricky questions to the contestants. 
Now once you ask one such question the contestant gives an answer which might not be the exact answer but is still correct for instance the answer provided to you might be 'U.S.A' while the actual answer is 'United States of America' or 'United States' or 'America' etc.
Use your wise judgement to decide based on the question given whether the answer is correct or not. YOU ARE THE JUDGE AND YOUR WORD IS FINAL. Be fair and just in your judgement. Always respond with 'correct' or 'incorrect' based on the answer provided by the contestant. 
You will be provided the question, true answer and the answer provided by the contestant and you need to decide whether the answer is correct or not.

## Question
<question>

## True Answer
<true_answer>

## Answer Given by contestant
<answer_given_by_contestant>

## Your Judgement (correct/incorrect)
"""  # noqa: E501, W291
RATIONALE_JUDGE_PROMPT = """You are the host of a quiz show where you ask complex and tricky questions to the contestants. 
Now once you ask one such question the contestant gives an answer as well as the rationale behind that answer. You need to decide whether the rationale provided is correct or not by comparing it with the true rationale.
Use your wise judgement to decide based on the question given whether the rationale is correct or not. YOU ARE THE JUDGE AND YOUR WORD IS FINAL. Be fair and just in your judgement. Provide a score between 1 to 5 based on the rationale provided by the contestant.
1 being the least and 5 being the highest score.

## Question
<question>

## True Rationale
<true_answer>

## Rationale Given by contestant
<rationale_given_by_contestant>

## Your Judgement (Score between 1 to 5 do not provide any other score or text)
"""  # noqa: E501, W291

GROUPS = (("indic", True), ("non_indic", False))  # metric-name suffix, the documents' `indic` flag


def stage_prompt(instruction: str, question: str, cot: bool = False) -> str:
    """Quizmaster preamble, the CoT phrase where the authors put it (end of the preamble), the stage's instruction,
    then the question on its own line (their one-message layout; their Groq script sends the preamble as a system
    message and joins the question with a space instead)."""
    return " ".join([QUIZMASTER, *([COT] if cot else []), instruction]) + "\n" + question


def judge_prompt(template: str, question: str, gold: str, given: str) -> str:
    slot = (
        "<answer_given_by_contestant>"
        if "<answer_given_by_contestant>" in template
        else "<rationale_given_by_contestant>"
    )
    return template.replace("<question>", question).replace("<true_answer>", gold).replace(slot, given)


# ---- data


def load(subset: str = "default", **_: Any) -> datasets.DatasetDict:
    """The questions as published (one row per question)."""
    return load_dataset(QUENCH, subset)


def load_entities(subset: str = "default", **_: Any) -> datasets.DatasetDict:
    """custom_dataset hook of the entity and gold-rationale tasks: one document per masked entity."""
    return datasets.DatasetDict({"test": entities(load(subset)["test"])})


def load_rationale_pred(subset: str = "default", predictions: str | None = None, **_: Any) -> datasets.DatasetDict:
    """Entities with the model's own replies, read from an entity run's `--log_samples` file."""
    if not predictions:
        raise UserError('quench_rationale_pred needs --metadata \'{"predictions": "<entity run samples .jsonl>"}\'')
    return datasets.DatasetDict({"test": entities(load(subset)["test"], predicted_answers(Path(predictions)))})


def indic_only(docs: datasets.Dataset) -> datasets.Dataset:
    return docs.filter(lambda d: d["indic"])


def non_indic_only(docs: datasets.Dataset) -> datasets.Dataset:
    return docs.filter(lambda d: not d["indic"])


def entities(questions: datasets.Dataset, replies: dict[str, str] | None = None) -> datasets.Dataset:
    """One row per masked entity; with `replies` ({entity id: the model's reply}), only the entities replied to."""
    rows = []
    for q in questions:
        for var, answer, rationale in zip(q["variables"], q["answers"], q["rationales"], strict=True):
            entity_id = f"{q['id']}::{var}"
            if replies is not None and entity_id not in replies:
                continue  # the entity run did not cover this entity
            row = {"id": entity_id, "question_id": q["id"], "question": q["question"], "variable": var}
            row["variables"] = q["variables"]
            row |= {"answer": answer, "rationale": rationale, "indic": q["indic"]}
            if replies is not None:
                row["prediction"] = replies[entity_id]
            rows.append(row)
    return datasets.Dataset.from_list(rows)


def predicted_answers(samples: Path) -> dict[str, str]:
    """{entity id: the model's raw reply} from an entity task's sample log; the authors put the whole reply in the
    predicted-rationale prompt."""
    shown = {}
    with samples.open(encoding="utf-8") as f:
        for line in f:
            sample = json.loads(line)
            shown[sample["doc"]["id"]] = sample["resps"][0][0]
    return shown


# ---- prompts and filters


def entity_prompt(doc: dict) -> str:
    return stage_prompt(ANSWER_FORMAT.format(doc["variable"]), doc["question"])


def entity_cot_prompt(doc: dict) -> str:
    return stage_prompt(ANSWER_FORMAT.format(doc["variable"]), doc["question"], cot=True)


def _named_format(variable: str) -> str:
    """The answer format naming the variable asked for (`<Y answer>` for Y), not the authors' fixed `<X answer>`."""
    return ANSWER_FORMAT.format(variable).replace("<X answer>", f"<{variable} answer>")


def entity_named_prompt(doc: dict) -> str:
    return stage_prompt(_named_format(doc["variable"]), doc["question"])


def entity_named_cot_prompt(doc: dict) -> str:
    return stage_prompt(_named_format(doc["variable"]), doc["question"], cot=True)


def rationale_gold_prompt(doc: dict) -> str:
    return stage_prompt(GOLD_RATIONALE_FORMAT.format(doc["variable"], doc["answer"]), doc["question"])


def rationale_gold_cot_prompt(doc: dict) -> str:
    return stage_prompt(GOLD_RATIONALE_FORMAT.format(doc["variable"], doc["answer"]), doc["question"], cot=True)


def rationale_pred_prompt(doc: dict) -> str:
    return stage_prompt(PRED_RATIONALE_FORMAT.format(doc["variable"], doc["prediction"]), doc["question"])


def rationale_pred_cot_prompt(doc: dict) -> str:
    return stage_prompt(PRED_RATIONALE_FORMAT.format(doc["variable"], doc["prediction"]), doc["question"], cot=True)


def extract_entities(resps: list[list[str]], docs: list[dict]) -> list[list[dict[str, str | None]]]:
    """Filter: each reply -> {"answer": the answer to the variable asked, read with every variable of the
    question as a label that ends another's answer, or None; "reply": the raw reply (what judges read)}."""
    out = []
    for rs, doc in zip(resps, docs, strict=True):
        variables = doc.get("variables") or [doc["variable"]]
        asked, question = doc["variable"], doc.get("question")
        answers = [parse_variables(r, variables, asked, question)[asked] for r in rs]
        out.append([{"answer": a, "reply": r} for a, r in zip(answers, rs, strict=True)])
    return out


def extract_rationale(resps: list[list[str]], docs: list[dict]) -> list[list[dict[str, str]]]:
    """Filter: each reply -> {"rationale": its last stated rationale (`answers.read_rationale`), "reply": raw}."""
    return [[{"rationale": read_rationale(r), "reply": r} for r in rs] for rs in resps]


# ---- tasks

PerUnit = Callable[[list[dict]], list[float]]
COUNTS = (*JURY_COUNTS, "unanswered")  # lower is better, not split by group


class _QuenchTask(JudgedTask):
    scale = 1.0  # the largest verdict: entity verdicts are 0/1

    def __init__(self, config=None, **kwargs):
        super().__init__(config=config, **kwargs)
        meta = self.config.metadata
        self._aggregation_list, self._higher_is_better = {}, {}  # ours replace lm-eval's default metrics
        self._cache: dict[str, dict[int, float]] = {}
        bert = _bertscore_setting(meta)  # at once: it records a stand-in in the metadata the results keep
        per_unit = unit_scorers(lambda: bert, [j.name for j in self.judges], self.scale)
        whole = {
            "bleu_sacrebleu": lambda units: corpus_bleu(
                [u["prediction"] for u in units], [u["reference"] for u in units]
            ),
            "unanswered": _unanswered,
        }
        if self.judges:
            for name in [f"judge_{j.name}_as_zero" for j in self.judges] + [
                m for m in JURY_METRICS if m not in per_unit
            ]:
                whole[name] = partial(_jury_metric, name=name, scale=self.scale)
        for name, scorer in per_unit.items():
            self._add(name, partial(self._mean, name=name, scorer=scorer), per_unit=True)
        if self.judges:
            jury_mean = partial(self._mean, name="jury_mean", scorer=per_unit["jury_mean"])
            whole["jury_mean_per_question"] = partial(self._per_question, mean=jury_mean, name="jury_mean")
        for name, scorer in whole.items():
            self._add(name, scorer, per_unit=False)
        if self.judges and meta.get("human_labels"):
            self._calibrate(Path(meta["human_labels"]))

    def _add(self, name: str, scorer: Callable[[list[dict]], float], per_unit: bool) -> None:
        """`name` over all units and, with `report_delta`, per group and non-Indic minus Indic (with its CI)."""
        self._aggregation_list[name] = partial(_aggregate, scorer=scorer)
        self._higher_is_better[name] = name not in COUNTS
        if not self.config.metadata.get("report_delta") or name in COUNTS:
            return
        for group, indic in GROUPS:
            self._aggregation_list[f"{name}_{group}"] = partial(_aggregate, scorer=partial(_group, scorer, indic))
            self._higher_is_better[f"{name}_{group}"] = True
        self._aggregation_list[f"{name}_delta"] = partial(_aggregate, scorer=partial(_delta, scorer))
        self._higher_is_better[f"{name}_delta"] = False
        if not per_unit:
            return
        values = partial(self._values, name=name)
        for end, bound in (("low", 0), ("high", 1)):
            cis = {"delta": partial(_delta_ci, values=values, bound=bound)}
            cis |= {group: partial(_group_ci, values=values, indic=indic, bound=bound) for group, indic in GROUPS}
            for part, ci in cis.items():
                self._aggregation_list[f"{name}_{part}_ci_{end}"] = partial(_aggregate, scorer=ci)
                self._higher_is_better[f"{name}_{part}_ci_{end}"] = part != "delta"

    def _calibrate(self, path: Path) -> None:
        """The jury corrected with the human labels in `path` (see `quench.calibrated`)."""
        if self.scale != 1.0:
            raise UserError(f"human_labels: they correct correct/incorrect verdicts, not {self.config.task}'s scores")
        labels, computed = read_human_labels(path), {}

        def value(units: list[dict], name: str) -> float:
            key = tuple(map(id, units))  # every metric reads one computation over the same units
            if key not in computed:
                computed.clear()
                computed[key] = calibrated_values(units, labels)
            return computed[key].get(name, math.nan)

        for name in calibrated_names([j.name for j in self.judges]):
            self._aggregation_list[name] = partial(_aggregate, scorer=partial(value, name=name))
            self._higher_is_better[name] = not name.endswith(("_delta", "_ci_low", "_ci_high"))

    def _values(self, units: list[dict], name: str) -> list[float]:
        """Per-unit values of a metric, computed once per unit (groups, deltas and CIs reuse them); a unit without
        a value (NaN: no valid verdict) is left out."""
        return [v for u in units if not math.isnan(v := self._cache[name][id(u)])]

    def _mean(self, units: list[dict], name: str, scorer: PerUnit) -> float:
        cache = self._cache.setdefault(name, {})
        todo = [u for u in units if id(u) not in cache]
        if todo:
            cache.update(zip(map(id, todo), scorer(todo), strict=True))
        values = self._values(units, name)
        return sum(values) / len(values) if values else float("nan")

    def _per_question(self, units: list[dict], mean: Callable[[list[dict]], float], name: str) -> float:
        """The mean over questions of each question's mean over its entities (every question weighs the same)."""
        mean(units)  # fills the cache
        questions: dict[str, list[float]] = {}
        for unit in units:
            if not math.isnan(value := self._cache[name][id(unit)]):
                questions.setdefault(unit["question_id"], []).append(value)
        return sum(sum(v) / len(v) for v in questions.values()) / len(questions) if questions else float("nan")

    def units(self, doc: dict, response: Any) -> list[dict[str, Any]]:
        """Per judged unit: prediction, reference, Indic flag, whether the model answered."""
        raise NotImplementedError

    def process_results(self, doc: dict, results: list[str]) -> dict[str, list[dict]]:
        result = json.loads(results[0])
        units = self.units(doc, result["response"])
        for unit, marks in zip(units, result["jury"] or [None] * len(units), strict=True):
            unit["jury"] = marks
        # every metric aggregates the same units; `--predict_only` replaces them all by lm-eval's "bypass"
        return {name: units for name in self._aggregation_list}


def unit_scorers(bertscore: Callable[[], dict[str, Any]], judges: list[str], scale: float) -> dict[str, PerUnit]:
    """{metric: its per-unit scorer} of the metrics that average over units (entities or rationales): BERTScore
    with the settings `bertscore()` gives when it is first needed, and the jury's when there are `judges`
    (verdicts up to `scale`)."""
    scorers: dict[str, PerUnit] = {
        "bleu": lambda units: [char_bigram_bleu(u["prediction"], u["reference"]) for u in units],
        "rouge_l": lambda units: [rouge_l_summary_level(u["prediction"], u["reference"]) for u in units],
        "bertscore": lambda units: bertscore_f1(
            [u["prediction"] for u in units], [u["reference"] for u in units], **bertscore()
        ),
        "rouge_l_rouge_score": lambda units: rouge_l([u["prediction"] for u in units], [u["reference"] for u in units]),
    }
    for name in [f"judge_{judge}" for judge in judges] + (["jury_mean", "jury_majority"] if judges else []):
        scorers[name] = partial(_jury_per_unit, name=name, scale=scale)
    return scorers


def per_document(metric: str, docs: list[list[dict]], config: dict[str, Any]) -> list[float] | None:
    """Each document's value of a metric that averages over units (the mean of its units' values; NaN where none
    has one), from the units a sample log holds per document, so that runs can be paired and resampled by
    document (`compare`, `report`); None for a metric computed on the whole corpus. `config` is the task's logged
    config (its metadata says which BERTScore model the run used)."""
    units = _flatten(docs)
    judges = active_judges([u["jury"] for u in _judged(units)])
    scale = RationaleTask.scale if "rationale" in str(config.get("task", "")) else EntityTask.scale
    scorers = unit_scorers(lambda: _bertscore_setting(dict(config.get("metadata") or {})), judges, scale)
    scorers["unanswered"] = lambda units: [float(not u["answered"]) for u in units]
    if (scorer := scorers.get(metric)) is None:
        return None
    values = iter(scorer(units))
    out = []
    for doc_units in docs:
        scored = [v for v in (next(values) for _ in doc_units) if not math.isnan(v)]
        out.append(sum(scored) / len(scored) if scored else math.nan)
    return out


class EntityTask(_QuenchTask):
    def units(self, doc, response):
        answer = response["answer"]
        unit = {"prediction": answer or "", "reference": doc["answer"], "indic": doc["indic"], "entity": doc["id"]}
        return [unit | {"answered": answer is not None, "question_id": doc["question_id"]}]

    def judge_prompts(self, doc, response):
        """The judge reads the raw reply, as the authors' judges did."""
        return [judge_prompt(ENTITY_JUDGE_PROMPT, doc["question"], doc["answer"], response["reply"])]


class RationaleTask(_QuenchTask):
    scale = 5.0  # Likert 1-5
    parse_verdict = staticmethod(parse_likert)
    verdict_reminder = "Reply with the score only: one number from 1 to 5."

    def units(self, doc, response):
        rationale = response["rationale"]
        unit = {"prediction": rationale, "reference": doc["rationale"], "indic": doc["indic"]}
        return [unit | {"answered": bool(rationale.strip()), "question_id": doc["question_id"]}]

    def judge_prompts(self, doc, response):
        return [judge_prompt(RATIONALE_JUDGE_PROMPT, doc["question"], doc["rationale"], response["reply"])]


def _bertscore_setting(meta: dict[str, Any]) -> dict[str, Any]:
    """The paper's BERTScore (bert-score's English default, roberta-large at layer 17) when it is available, else
    the offline stand-in, said in the task's metadata (written into the results) and the log."""
    if model := meta.get("bertscore_model"):
        return {"model": model, "layers": int(meta.get("bertscore_layers", 17 if model == "roberta-large" else 6))}
    if _in_hf_cache("roberta-large") or default_bertscore_model() == "roberta-large":
        return {"model": "roberta-large", "layers": 17}
    note = "offline stand-in all-MiniLM-L6-v2 (layer 6), not the paper's roberta-large (layer 17)"
    meta["bertscore_note"] = note
    log.warning("QUENCH bertscore: %s; set bertscore_model to change it", note)
    return {"model": default_bertscore_model(), "layers": 6}


def _in_hf_cache(repo: str) -> bool:
    from huggingface_hub import try_to_load_from_cache

    return isinstance(try_to_load_from_cache(repo, "config.json"), str)


def _unanswered(units: list[dict]) -> float:
    """Share of the units the model gave no answer for (no answer found, a refusal, a hedge between
    alternatives): scored as empty by the overlap metrics, and counted here."""
    return sum(not u["answered"] for u in units) / len(units) if units else float("nan")


def _flatten(items: list[list[dict]]) -> list[dict]:
    return [u for doc_units in items for u in doc_units]


def _aggregate(items: list[list[dict]], scorer) -> float:
    return scorer(_flatten(items))


def _group(scorer, indic: bool, units: list[dict]) -> float:
    chosen = [u for u in units if u["indic"] == indic]
    return scorer(chosen) if chosen else float("nan")


def _delta(scorer, units: list[dict]) -> float:
    """The metric on non-Indic units minus the metric on Indic units."""
    return _group(scorer, False, units) - _group(scorer, True, units)


def _delta_ci(units: list[dict], values, bound: int) -> float:
    """A bound of the 95% bootstrap interval of the delta (non-Indic minus Indic), each side resampled on its own."""
    indic = [u for u in units if u["indic"]]
    other = [u for u in units if not u["indic"]]
    if not indic or not other:
        return float("nan")
    values(units)  # fills the cache for every unit
    return difference_ci(values(other), values(indic))[bound]


def _group_ci(units: list[dict], values, indic: bool, bound: int) -> float:
    """A bound of the 95% bootstrap interval of the group's mean (80 Indic entities make a wide one)."""
    values(units)  # fills the cache for every unit
    return mean_ci(values([u for u in units if u["indic"] == indic]))[bound]


def _judged(units: list[dict]) -> list[dict]:
    return [u for u in units if u["jury"] is not None]


def _jury_per_unit(units: list[dict], name: str, scale: float) -> list[float]:
    names = active_judges([u["jury"] for u in _judged(units)])
    return [unit_scores(u["jury"], names, scale).get(name, float("nan")) if u["jury"] else float("nan") for u in units]


def _jury_metric(units: list[dict], name: str, scale: float) -> float:
    judged = _judged(units)
    scores = summarize([u["jury"] for u in judged], scale, answered=[u["answered"] for u in judged])
    return scores.get(name, float("nan"))
