"""The jury against human labels as `score --human_labels` prints it: per judge and for the jury, over all entities
and per group, how often it is right (sensitivity, specificity), the raw share of "correct" verdicts and the two
corrected accuracies, each with its 95% interval, and the gap (non-Indic minus Indic) each gives; with `--plan`,
the labels per class a narrower interval needs."""

from __future__ import annotations

import math

from lm_eval_xling.metrics.calibration import Calibration, Estimate, plan
from lm_eval_xling.quench.calibrated import calibrations, gap
from lm_eval_xling.results.metrics import without_filters

HEADER = [
    "Judge", "Entities", "Judged", "Labels correct / incorrect", "Sensitivity", "Specificity", "Raw", "Lee et al.",
    "PPI++",
]  # fmt: skip
NOTE = (
    "Figures in points with 95% intervals. Raw: the share of entities judged correct, as the jury reports it. Lee et "
    "al. (2025) and PPI++: that share corrected for the judge's errors on the entities a person labelled; the gap "
    "row: non-Indic minus Indic, each group with its own error rates."
)


def rows(metrics: dict[str, float]) -> list[list[str]]:
    """The table's rows for a task's results (keys with or without filters), per judge and the jury: all entities,
    each group, the gap; no row for a task without human labels."""
    metrics = {key: value for key, value in without_filters(metrics).items() if isinstance(value, int | float)}
    out = []
    for who, parts in calibrations(metrics).items():
        for part, c in parts.items():
            figures = [_shown(e) for e in (c.sensitivity, c.specificity, c.raw, c.lee, c.ppi)]
            out.append([who, part, str(c.judged), f"{c.correct_labels} / {c.incorrect_labels}", *figures])
        raw_gap = _points(parts["non_indic"].raw.value - parts["indic"].raw.value)
        corrected = [_shown(gap(metrics, who, figure)) for figure in ("lee", "ppi")]
        out.append([who, "gap, non-Indic - Indic", "", "", "", "", raw_gap, *corrected])
    return out


def calibration_report(task: str, metrics: dict[str, float], width: float | None = None) -> str:
    """The table (and plan) of a task's results; "" for a task without human labels. Figures in points (0-100),
    as the jury's own; `width` in points."""
    table = rows(metrics)
    if not table:
        return ""
    lines = [
        f"{task}: the jury against human labels (95% intervals; corrected: Lee et al. 2025, PPI++)",
        "| " + " | ".join(HEADER) + " |",
        "|---|---|---:|---:|---|---|---|---|---|",
        *("|" + "|".join(f" {cell} " if cell else " " for cell in row) + "|" for row in table),
    ]
    if width is not None:
        found = calibrations(without_filters(metrics))
        lines += ["", *_plan_lines(found, width)]
    return "\n".join(lines) + "\n"


def _plan_lines(found: dict[str, dict[str, Calibration]], width: float) -> list[str]:
    lines = [f"labels for a 95% interval of Lee et al.'s accuracy at most {width:g} points wide (at the rates seen):"]
    for who, parts in found.items():
        for part, c in parts.items():
            have = f"you have {c.correct_labels} + {c.incorrect_labels}"
            needed = plan(width / 100, c)
            if needed is None:
                says = f"no number of labels: the {c.judged} judged entities alone give a wider one; judge more"
            else:
                says = f"{needed[1]} labelled correct + {needed[0]} labelled incorrect ({have})"
            lines.append(f"- {who}, {part}: {says}")
    return lines


def _shown(estimate: Estimate) -> str:
    if math.isnan(estimate.value) or math.isnan(estimate.low):
        return "-"
    return f"{_points(estimate.value)} [{_points(estimate.low)}, {_points(estimate.high)}]"


def _points(share: float) -> str:
    return "-" if math.isnan(share) else f"{100 * share:.1f}"
