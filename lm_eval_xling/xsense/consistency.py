"""Self-consistency between two lm-eval sample logs of one classification task family.

Each log's raw responses are replayed through its task (`lm_eval_xling.samples.replay_samples`), so answers are
the task's own standardisation of the raw replies: the filter's output for generate_until tasks, the choice with
the highest log-likelihood for multiple_choice tasks. Items are aligned by document id; an invalid answer never
matches anything (two invalid answers are not "the same answer").
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from lm_eval_xling.samples import SamplesError, replay_samples

INVALID_MARKERS = {"[invalid]", "", "None"}


@dataclass(frozen=True)
class Answer:
    value: str | None  # None: invalid
    target: str


def _answer(sample: dict[str, Any], output_type: str) -> Answer:
    filtered = sample["filtered_resps"]
    if output_type == "multiple_choice":
        value = str(int(np.argmax([float(resp[0]) for resp in filtered])))
    else:
        value = str(filtered[0]) if filtered else None
    return Answer(None if value in INVALID_MARKERS else value, str(sample["target"]))


def answers(path: Path, task: str | None = None) -> dict[int, Answer]:
    """{doc_id: answer} of one sample log, after the task's own standardisation of the raw responses."""
    task_obj, samples = replay_samples(path, task)
    first_filter = samples[0]["filter"]
    return {s["doc_id"]: _answer(s, task_obj.OUTPUT_TYPE) for s in samples if s["filter"] == first_filter}


def _mean_ci(values: Sequence[float], n_resamples: int, seed: int) -> tuple[float, float, float]:
    """Mean and its 95% percentile-bootstrap interval (scipy); NaN where there is nothing to average."""
    if not values:
        return math.nan, math.nan, math.nan
    mean = float(np.mean(values))
    if len(set(values)) < 2:  # every resample has the same mean
        return mean, mean, mean
    from scipy.stats import bootstrap

    ci = bootstrap(
        (np.asarray(values, dtype=float),), np.mean, n_resamples=n_resamples, method="percentile", random_state=seed
    ).confidence_interval
    return mean, float(ci.low), float(ci.high)


@dataclass(frozen=True)
class Consistency:
    """Shares of items with the same answer in both runs: overall, and over the items run A got right / wrong."""

    all: float
    correct: float
    incorrect: float
    n: int
    invalid_a: int
    invalid_b: int
    ci: dict[str, tuple[float, float]]
    per_item: dict[int, bool]

    def summary(self) -> dict[str, Any]:
        """The `--json` view: {"all", "correct", "incorrect", "n", "invalid_a", "invalid_b"}."""
        return {k: v for k, v in asdict(self).items() if k not in ("ci", "per_item")}


def consistency(a: dict[int, Answer], b: dict[int, Answer], n_resamples: int = 2000, seed: int = 0) -> Consistency:
    """Compare two runs over the documents both contain."""
    shared = sorted(a.keys() & b.keys())
    if not shared:
        raise SamplesError("the two sample logs have no document id in common")
    same = {i: a[i].value is not None and a[i].value == b[i].value for i in shared}
    groups = {
        "all": [float(same[i]) for i in shared],
        "correct": [float(same[i]) for i in shared if a[i].value == a[i].target],
        "incorrect": [float(same[i]) for i in shared if a[i].value != a[i].target],
    }
    stats = {name: _mean_ci(values, n_resamples, seed) for name, values in groups.items()}
    return Consistency(
        all=stats["all"][0],
        correct=stats["correct"][0],
        incorrect=stats["incorrect"][0],
        n=len(shared),
        invalid_a=sum(a[i].value is None for i in shared),
        invalid_b=sum(b[i].value is None for i in shared),
        ci={name: (low, high) for name, (_, low, high) in stats.items()},
        per_item=same,
    )


def compare(path_a: Path, path_b: Path, task_a: str | None = None, task_b: str | None = None) -> Consistency:
    return consistency(answers(path_a, task_a), answers(path_b, task_b))
