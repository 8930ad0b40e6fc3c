"""A jury corrected with human labels (issue 39): how often each judge is right, and the accuracy its verdicts imply
once its errors are taken out, per QUENCH group.

For the judged entities a person also labelled (`read_human_labels`), each judge and the jury's majority are
measured against the labels: sensitivity (right answers called correct) and specificity (wrong answers called
incorrect), with Wilson intervals. Beside the raw share of "correct" verdicts, the accuracy is estimated two ways:

- Lee et al. (2025, arXiv 2511.21140): theta = (p + q0 - 1) / (q0 + q1 - 1), p the share of "correct" over every
  judged entity, q0 the specificity and q1 the sensitivity on the labelled ones. Its interval is the authors'
  plug-in construction, which counts the test items and both label counts: each rate smoothed (p by z^2 / 2 of
  each outcome, q0 and q1 by one of each), the delta method over the three, and the second-order shift of the
  centre the authors add. No maintained library implements it (`truescore`'s Rogan-Gladen interval has neither the
  smoothing nor the shift; `judgy` bootstraps), so it is written here and tested on the authors' worked example.
- PPI++ (Angelopoulos, Duchi and Zrnic 2023), `ppi-python`'s power-tuned mean and interval: the labels' mean
  corrected by the verdicts on every entity. It assumes only that the labelled entities are a random sample of
  the judged ones, and needs no q0 + q1 > 1.

A difference between two groups (non-Indic minus Indic, as the jury's `_delta`) takes each group's own rates, so
a judge that errs more on one group does not make a gap of its own.
"""

from __future__ import annotations

import csv
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from statistics import NormalDist

from lm_eval_xling.errors import UserError

LABELS = {"correct": True, "incorrect": False, "1": True, "0": False}
LABEL_COLUMNS = ("question_id", "variable", "label")


@dataclass(frozen=True)
class Estimate:
    value: float
    low: float
    high: float
    se: float = math.nan  # the standard error a difference of two estimates combines


NONE = Estimate(math.nan, math.nan, math.nan)


@dataclass(frozen=True)
class Calibration:
    """One judge (or the jury) on one group of entities."""

    judged: int  # entities with a verdict
    correct_labels: int  # labelled entities with a verdict, labelled correct (m1) ...
    incorrect_labels: int  # ... and incorrect (m0)
    raw: Estimate  # the share of "correct" verdicts
    sensitivity: Estimate
    specificity: Estimate
    lee: Estimate
    ppi: Estimate


def read_human_labels(path: Path) -> dict[str, bool]:
    """{entity id ("question id::variable"): correct?} from a CSV file with the columns question_id, variable and
    label (correct or incorrect, or 1 or 0); an error names the file, the line and the field."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as err:
        raise UserError(f"{path}: cannot read the human labels ({err})") from None
    rows = csv.DictReader(text.splitlines())
    missing = [c for c in LABEL_COLUMNS if c not in (rows.fieldnames or ())]
    if missing:
        raise UserError(f"{path}:1: missing column(s) {missing}; give {', '.join(LABEL_COLUMNS)}")
    labels: dict[str, bool] = {}
    try:
        for row in rows:
            where = f"{path}:{rows.line_num}"
            values = {c: (row.get(c) or "").strip() for c in LABEL_COLUMNS}
            for column, value in values.items():
                if not value:
                    raise UserError(f"{where}: {column}: empty")
            if (label := LABELS.get(values["label"].lower())) is None:
                raise UserError(f"{where}: label: {values['label']!r} is neither correct nor incorrect")
            entity = f"{values['question_id']}::{values['variable']}"
            if labels.get(entity, label) != label:
                raise UserError(f"{where}: label: {entity} is labelled both correct and incorrect")
            labels[entity] = label
    except csv.Error as err:
        raise UserError(f"{path}:{rows.line_num}: not valid CSV ({err})") from None
    if not labels:
        raise UserError(f"{path}: holds no labels")
    return labels


def _z(alpha: float) -> float:
    """The normal quantile of a two-sided `1 - alpha` interval."""
    return NormalDist().inv_cdf(1 - alpha / 2)


def wilson(successes: int, trials: int, alpha: float = 0.05) -> Estimate:
    """A share with its Wilson interval."""
    if trials <= 0:
        return NONE
    from scipy.stats import binomtest  # imported here: a QUENCH task without human labels never needs scipy

    interval = binomtest(successes, trials).proportion_ci(confidence_level=1 - alpha, method="wilson")
    share = successes / trials
    return Estimate(share, float(interval.low), float(interval.high), math.sqrt(share * (1 - share) / trials))


def lee_corrected(p: float, n: int, q0: float, m0: int, q1: float, m1: int, alpha: float = 0.05) -> Estimate:
    """Lee et al.'s bias-adjusted accuracy and interval: `p` of `n` test items judged correct, specificity `q0` on
    `m0` items labelled incorrect, sensitivity `q1` on `m1` labelled correct. NaN where a count is 0 or the judge is
    no better than chance (q0 + q1 <= 1: the correction is undefined)."""
    if min(n, m0, m1) <= 0 or q0 + q1 <= 1:
        return NONE
    z2 = _z(alpha) ** 2
    p_s, q0_s, q1_s = (n * p + z2 / 2) / (n + z2), (m0 * q0 + 1) / (m0 + 2), (m1 * q1 + 1) / (m1 + 2)
    n_s, m0_s, m1_s = n + z2, m0 + 2, m1 + 2
    youden = q0_s + q1_s - 1
    theta = (p_s + q0_s - 1) / youden
    var0, var1 = q0_s * (1 - q0_s) / m0_s, q1_s * (1 - q1_s) / m1_s
    centre = theta + 2 * z2 * (theta * var1 - (1 - theta) * var0)
    se = math.sqrt(p_s * (1 - p_s) / n_s + (1 - theta) ** 2 * var0 + theta**2 * var1) / youden
    half = math.sqrt(z2) * se
    return Estimate(_unit((p + q0 - 1) / (q0 + q1 - 1)), _unit(centre - half), _unit(centre + half), se)


def ppi_corrected(labels: Sequence[float], verdicts: Sequence[float], others: Sequence[float], alpha: float = 0.05):
    """PPI++'s accuracy: the `labels` of the labelled entities, the judge's `verdicts` on them and its verdicts on
    the `others` (ppi-python, power-tuned). NaN without labels or without other entities."""
    if not labels or not others:
        return NONE
    import numpy as np
    from ppi_py import ppi_mean_ci, ppi_mean_pointestimate

    y, y_hat, y_other = (np.asarray(v, dtype=float) for v in (labels, verdicts, others))
    with np.errstate(invalid="ignore", divide="ignore"):  # verdicts all alike: no power tuning, NaN
        value = float(ppi_mean_pointestimate(y, y_hat, y_other)[0])
        low, high = (float(bound[0]) for bound in ppi_mean_ci(y, y_hat, y_other, alpha=alpha))
    if math.isnan(value) or math.isnan(low) or math.isnan(high):
        return NONE
    return Estimate(_unit(value), _unit(low), _unit(high), (high - low) / (2 * _z(alpha)))


def difference(a: Estimate, b: Estimate, alpha: float = 0.05) -> Estimate:
    """a - b with a normal interval from the two standard errors (independent groups)."""
    value, se = a.value - b.value, math.hypot(a.se, b.se)
    half = _z(alpha) * se
    return Estimate(value, max(-1.0, value - half), min(1.0, value + half), se)


def calibrate(verdicts: Sequence[float | None], labels: Sequence[bool | None], alpha: float = 0.05) -> Calibration:
    """A judge's verdict per entity (1 correct, 0 incorrect, None: none) against the labels (None: unlabelled)."""
    judged = [(v, label) for v, label in zip(verdicts, labels, strict=True) if v is not None]
    labelled = [(v, label) for v, label in judged if label is not None]
    right = [v for v, label in labelled if label]
    wrong = [v for v, label in labelled if not label]
    n, m1, m0 = len(judged), len(right), len(wrong)
    raw = wilson(round(sum(v for v, _ in judged)), n, alpha)
    sensitivity = wilson(round(sum(right)), m1, alpha)
    specificity = wilson(m0 - round(sum(wrong)), m0, alpha)
    lee = lee_corrected(raw.value, n, specificity.value, m0, sensitivity.value, m1, alpha)
    others = [v for v, label in judged if label is None]
    ppi = ppi_corrected([float(label) for _, label in labelled], [v for v, _ in labelled], others, alpha)
    return Calibration(n, m1, m0, raw, sensitivity, specificity, lee, ppi)


def allocation(total: int, p: float, q0: float, m0: int, q1: float, m1: int) -> tuple[int, int]:
    """Lee et al.'s split of `total` labels into (incorrect, correct) ones: the correct share 1 / (1 + (1/p - 1)
    sqrt(kappa)), kappa the ratio of the judge's error rates on the two classes, each smoothed by the labels
    already given (`m0`, `m1`: the authors' pilot; with one pilot count for both classes this is their rule); never
    fewer of a class than are already labelled."""
    if p <= 0:
        return total - m1, m1
    kappa = ((m0 * (1 - q0) + 1) / max(m0, 1)) / ((m1 * (1 - q1) + 1) / max(m1, 1))
    correct = round(min(total - m0, max(m1, total / (1 + (1 / p - 1) * math.sqrt(kappa)))))
    return total - correct, correct


def plan(width: float, calibration: Calibration, alpha: float = 0.05, most: int = 1_000_000) -> tuple[int, int] | None:
    """The fewest (incorrect, correct) labels, split by `allocation`, for which Lee et al.'s interval is at most
    `width` wide, at the rates observed; None where no number of labels gets there (the test items alone give a
    wider interval: judge more entities)."""
    c = calibration
    p, n = c.raw.value, c.judged
    q0, q1 = c.specificity.value, c.sensitivity.value

    def wide(total: int) -> bool:
        m0, m1 = allocation(total, p, q0, c.incorrect_labels, q1, c.correct_labels)
        estimate = lee_corrected(p, n, q0, m0, q1, m1, alpha)
        return not estimate.high - estimate.low <= width  # (NaN: too wide)

    given = c.correct_labels + c.incorrect_labels
    if not wide(given):
        return c.incorrect_labels, c.correct_labels
    low, high = given, max(4, 2 * given)
    while wide(high):
        if high >= most:
            return None
        low, high = high, min(most, 2 * high)
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if wide(middle) else (low, middle)
    return allocation(high, p, q0, c.incorrect_labels, q1, c.correct_labels)


def _unit(value: float) -> float:
    return min(1.0, max(0.0, value))
