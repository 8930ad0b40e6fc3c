"""Self-consistency between two lm-eval sample logs of one classification task family.

Each log's raw responses are replayed through its task (`lm_eval_xling.results.replay.replay_samples`), so answers are
the task's own standardisation of the raw replies: the filter's output for generate_until tasks, the choice the
task's primary metric picks for multiple_choice tasks (`acc_norm` where the task reports it, else `acc`).
Correctness is that metric's per-item value, as lm-eval computed it (so multiple-input tasks such as xwinograd,
whose gold answer is a context index rather than the logged target, split correctly).

Before comparing, the logs must be of one task family (`xsense_pawsx_en` and `xsense_pawsx_de`; `paws_en` and
`paws_de`) whose primary metric scores each item 0 or 1 (QUENCH's overlap scores do not), and of the same items:
each shared doc_id must have the same lm-eval `doc_hash`, or (a translation) the same dataset id, or, where the
documents carry no id, the same gold answer. Anything else is refused.

Invalid answers: the paper maps every invalid answer to one label (-1), so two invalid answers agree (the default,
`invalid_rule="paper"`); `invalid_rule="never"` counts them as disagreeing.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from lm_eval_xling.metrics import INVALID
from lm_eval_xling.results.logs import SamplesError, logged_doc_hash, task_name_from_path
from lm_eval_xling.results.replay import replay_samples
from lm_eval_xling.stats import RESAMPLES, mean_ci

INVALID_MARKERS = {INVALID, "", "None"}  # a filtered answer that stands for no answer
INVALID_RULES = ("paper", "never")
ID_FIELDS = ("id", "idx", "guid", "pair_id")  # a dataset's own item ids, shared by the translations of an item


class CompareError(SamplesError):
    """The two logs are not of one task family, or not of the same items."""


@dataclass(frozen=True)
class Answer:
    value: str | None  # None: invalid
    correct: bool  # by the task's primary metric
    doc_hash: str
    item_id: Any  # the dataset's own id (ID_FIELDS), None where the document has none
    gold: str  # the gold answer as the task scores it


@dataclass(frozen=True)
class Log:
    task: str
    metric: str  # the primary metric: what "correct" means
    answers: dict[int, Answer]


def family(task: str) -> str:
    """The task name without its language: `xsense_pawsx_en` -> `xsense_pawsx`, `xwinograd_fr` -> `xwinograd`."""
    return task.rsplit("_", 1)[0]


def primary_metric(task_obj) -> str:
    """`acc_norm` where the task reports it, else `acc`, else its first metric."""
    metrics = list(task_obj.aggregation())
    return next((m for m in ("acc_norm", "acc") if m in metrics), metrics[0])


def _gold(task_obj, doc: dict[str, Any]) -> str:
    """The gold answer as lm-eval scores it: a multiple-input task's gold is the index of the right context."""
    gold = task_obj.doc_to_text(doc) if getattr(task_obj, "multiple_input", False) else task_obj.doc_to_target(doc)
    return str(gold)


def _choice(task_obj, sample: dict[str, Any], metric: str) -> str:
    """The option a multiple-choice item's metric picks: highest log-likelihood, per character for acc_norm."""
    lls = np.array([float(resp[0]) for resp in sample["filtered_resps"]])
    if metric == "acc_norm":
        lls = lls / np.array([float(len(choice)) for choice in task_obj.doc_to_choice(sample["doc"])])
    return str(int(np.argmax(lls)))


def _item_id(doc: dict[str, Any]) -> Any:
    return next((doc[key] for key in ID_FIELDS if key in doc), None)


def _correct(path: Path, sample: dict[str, Any], task: str, metric: str) -> bool:
    """Whether the metric scored the item right; CompareError where it does not score items 0 or 1."""
    value = sample[metric]
    try:
        number = float(value)
    except (TypeError, ValueError):
        number = math.nan
    if number not in (0.0, 1.0):
        shown = repr(value) if isinstance(value, (int, float)) else f"a {type(value).__name__}"
        raise CompareError(
            f"{path} doc_id {sample['doc_id']}: {task}'s metric {metric!r} is {shown}, not 0 or 1; consistency "
            "compares tasks that score each item right or wrong (acc, acc_norm)"
        )
    return number == 1.0


def read_log(path: Path, task: str | None = None) -> Log:
    """Answers of one sample log by doc_id, after the task's own standardisation of the raw responses."""
    try:
        task_obj, samples = replay_samples(path, task)
    except KeyError as err:  # the task's code reads a field its documents lack
        name = task or task_name_from_path(path)
        raise CompareError(
            f"{path}: its documents have no field {err} that task {name} reads; is this a log of {name}? "
            "(the task comes from the file name, or --task_a / --task_b)"
        ) from None
    metric = primary_metric(task_obj)
    first_filter = samples[0]["filter"]
    out = {}
    for s in samples:
        if s["filter"] != first_filter:
            continue
        if task_obj.OUTPUT_TYPE == "multiple_choice":
            value = _choice(task_obj, s, metric)
        else:
            value = str(s["filtered_resps"][0]) if s["filtered_resps"] else None
        out[s["doc_id"]] = Answer(
            value=None if value in INVALID_MARKERS else value,
            correct=_correct(path, s, task_obj.config.task, metric),
            doc_hash=logged_doc_hash(s),
            item_id=_item_id(s["doc"]),
            gold=_gold(task_obj, s["doc"]),
        )
    return Log(task_obj.config.task, metric, out)


def check_family(task_a: str, task_b: str) -> None:
    """CompareError unless the two tasks are of one family."""
    if family(task_a) != family(task_b):
        raise CompareError(
            f"different tasks: {task_a} (family {family(task_a)}) and {task_b} (family {family(task_b)}); "
            "consistency compares the same items in two senses of one task"
        )


def match_items(a: Log, b: Log) -> dict[str, int]:
    """How the shared doc_ids were matched ({"doc_hash", "id", "gold"}: counts); CompareError when the logs are of
    different task families or hold different items under one doc_id."""
    check_family(a.task, b.task)
    shared = sorted(a.answers.keys() & b.answers.keys())
    if not shared:
        raise CompareError(f"the two sample logs have no document id in common ({a.task} vs {b.task})")
    how: Counter[str] = Counter()
    differing = []
    for i in shared:
        x, y = a.answers[i], b.answers[i]
        if x.doc_hash == y.doc_hash:
            how["doc_hash"] += 1
        elif x.item_id is not None and y.item_id is not None and x.item_id == y.item_id:
            how["id"] += 1
        elif x.item_id is None and y.item_id is None and x.gold == y.gold:
            how["gold"] += 1
        else:
            differing.append(i)
    if differing:
        raise CompareError(
            f"the logs hold different documents: {len(differing)} of {len(shared)} shared doc_ids differ "
            f"(by doc_hash, dataset id or gold answer; first: doc_id {differing[0]}); {len(shared) - len(differing)} "
            "matched"
        )
    return {key: how[key] for key in ("doc_hash", "id", "gold")}


def _mean_ci(values: Sequence[float], n_resamples: int, seed: int) -> tuple[float, float, float]:
    """Mean and its 95% interval; NaN where there is nothing to average."""
    return (float(np.mean(values)) if values else math.nan, *mean_ci(values, n_resamples, seed))


@dataclass(frozen=True)
class Consistency:
    """Shares of items with the same answer in both runs: overall, and over the items run A got right / wrong."""

    all: float
    correct: float
    incorrect: float
    n: int
    invalid_a: int
    invalid_b: int
    invalid_rule: str
    ci: dict[str, tuple[float, float]]
    per_item: dict[int, bool]

    def summary(self) -> dict[str, Any]:
        """The `--json` view: {"all", "correct", "incorrect", "n", "invalid_a", "invalid_b", "invalid_rule"}."""
        return strict({k: v for k, v in asdict(self).items() if k not in ("ci", "per_item")})


def same_answer(x: str | None, y: str | None, invalid_rule: str = "paper") -> bool:
    """Whether two answers agree; two invalid answers agree under the paper's rule only."""
    if x is None and y is None:
        return invalid_rule == "paper"
    return x is not None and x == y


def consistency(
    a: dict[int, Answer],
    b: dict[int, Answer],
    invalid_rule: str = "paper",
    n_resamples: int = RESAMPLES,
    seed: int = 0,
) -> Consistency:
    """Compare two runs over the documents both contain."""
    if invalid_rule not in INVALID_RULES:
        raise ValueError(f"invalid_rule must be one of {INVALID_RULES}, not {invalid_rule!r}")
    shared = sorted(a.keys() & b.keys())
    if not shared:
        raise CompareError("the two sample logs have no document id in common")
    same = {i: same_answer(a[i].value, b[i].value, invalid_rule) for i in shared}
    groups = {
        "all": [float(same[i]) for i in shared],
        "correct": [float(same[i]) for i in shared if a[i].correct],
        "incorrect": [float(same[i]) for i in shared if not a[i].correct],
    }
    stats = {name: _mean_ci(values, n_resamples, seed) for name, values in groups.items()}
    return Consistency(
        all=stats["all"][0],
        correct=stats["correct"][0],
        incorrect=stats["incorrect"][0],
        n=len(shared),
        invalid_a=sum(a[i].value is None for i in shared),
        invalid_b=sum(b[i].value is None for i in shared),
        invalid_rule=invalid_rule,
        ci={name: (low, high) for name, (_, low, high) in stats.items()},
        per_item=same,
    )


def compare(
    path_a: Path, path_b: Path, task_a: str | None = None, task_b: str | None = None, invalid_rule: str = "paper"
) -> tuple[Consistency, dict[str, Any]]:
    """Consistency of two logs, and what was compared: {"tasks", "metric", "matched", "only_a", "only_b"}."""
    names = (task_a or task_name_from_path(path_a), task_b or task_name_from_path(path_b))
    if None not in names:  # before replaying: one family's task code fails on another's documents
        check_family(*names)
    a, b = read_log(path_a, task_a), read_log(path_b, task_b)
    matched = match_items(a, b)
    result = consistency(a.answers, b.answers, invalid_rule)
    checked = {
        "tasks": [a.task, b.task],
        "metric": a.metric,
        "matched": matched,
        "only_a": len(a.answers.keys() - b.answers.keys()),
        "only_b": len(b.answers.keys() - a.answers.keys()),
    }
    return result, checked


def strict(value: Any) -> Any:
    """`value` with every non-finite float as None, so that it is strict JSON (no bare NaN)."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: strict(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [strict(v) for v in value]
    return value
