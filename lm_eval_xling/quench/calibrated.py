"""QUENCH's jury corrected with human labels (task metadata `human_labels`: a CSV file of `question_id, variable,
label`; `score --human_labels FILE` sets it): for each judge and the jury's majority, over all entities, per group
and for the gap (non-Indic minus Indic), the figures of `metrics.calibration`, on the jury's 0-100 scale.

Metric names: `<who>_<figure><part>` with `who` `judge_<name>` or `jury`, `figure` one of FIGURES, `part` "",
"_indic" or "_non_indic", each with `_ci_low` / `_ci_high`; `<who>_{lee,ppi}_delta` (and its interval); the counts
`<who>_{judged,labels_correct,labels_incorrect}<part>`. The jury's verdict on an entity is its judges' majority;
a tie is no verdict.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from lm_eval_xling.metrics.calibration import Calibration, Estimate, calibrate, difference
from lm_eval_xling.metrics.jury import active_judges
from lm_eval_xling.results.metrics import without_filters

FIGURES = ("raw", "sensitivity", "specificity", "lee", "ppi")  # (raw: the share of "correct" verdicts)
CORRECTED = ("lee", "ppi")
COUNTS = ("judged", "labels_correct", "labels_incorrect")
PARTS = (("", None), ("_indic", True), ("_non_indic", False))


def calibrated_names(judges: Sequence[str]) -> list[str]:
    """Every metric a run with human labels adds, for judges named `judges`."""
    return [name for who in [*(f"judge_{j}" for j in judges), "jury"] for name in _names(who)]


def calibration_metrics(metrics: dict[str, float]) -> set[str]:
    """The names among a task's metrics that human labels added (filters stripped)."""
    metrics = without_filters(metrics)
    return {name for who in _whos(metrics) for name in _names(who)} & set(metrics)


def _names(who: str) -> list[str]:
    names = []
    for part, _ in PARTS:
        names += [f"{who}_{figure}{part}{end}" for figure in FIGURES for end in ("", "_ci_low", "_ci_high")]
        names += [f"{who}_{count}{part}" for count in COUNTS]
    return names + [f"{who}_{figure}_delta{end}" for figure in CORRECTED for end in ("", "_ci_low", "_ci_high")]


def _whos(metrics: dict[str, float]) -> list[str]:
    """The judges and the jury with figures in `metrics`, the jury last."""
    whos = {name[: -len("_lee_delta")] for name in metrics if name.endswith("_lee_delta")}
    return sorted(whos, key=lambda who: (who == "jury", who))


def calibrated_values(units: Sequence[dict[str, Any]], labels: dict[str, bool]) -> dict[str, float]:
    """{metric: value} over the judged `units` (each with its "entity" id, "indic" flag and "jury" marks)."""
    judged = [u for u in units if u["jury"]]
    names = active_judges([u["jury"] for u in judged])
    voters: dict[str, Callable[[dict], float | None]] = {
        f"judge_{name}": (lambda u, name=name: _verdict(u["jury"].get(name, {}))) for name in names
    }
    voters["jury"] = lambda u: _majority([_verdict(u["jury"].get(name, {})) for name in names])
    out: dict[str, float] = {}
    for who, verdict in voters.items():
        calibrations: dict[str, Calibration] = {}
        for part, indic in PARTS:
            members = [u for u in judged if indic is None or u["indic"] == indic]
            c = calibrate([verdict(u) for u in members], [labels.get(u["entity"]) for u in members])
            calibrations[part] = c
            for figure in FIGURES:
                _put(out, f"{who}_{figure}{part}", getattr(c, figure))
            counts = (c.judged, c.correct_labels, c.incorrect_labels)
            out |= {f"{who}_{count}{part}": float(n) for count, n in zip(COUNTS, counts, strict=True)}
        for figure in CORRECTED:
            gap = difference(getattr(calibrations["_non_indic"], figure), getattr(calibrations["_indic"], figure))
            _put(out, f"{who}_{figure}_delta", gap)
    return out


def _verdict(record: dict[str, Any]) -> float | None:
    verdict = record.get("verdict")
    return float(verdict) if verdict in (0, 1) else None


def _majority(verdicts: list[float | None]) -> float | None:
    valid = [v for v in verdicts if v is not None]
    correct = sum(valid)
    return None if not valid or 2 * correct == len(valid) else float(2 * correct > len(valid))


def _put(out: dict[str, float], name: str, estimate: Estimate) -> None:
    out[name], out[f"{name}_ci_low"], out[f"{name}_ci_high"] = (
        100 * estimate.value,
        100 * estimate.low,
        100 * estimate.high,
    )


def calibrations(metrics: dict[str, float]) -> dict[str, dict[str, Calibration]]:
    """{who: {part ("all", "indic", "non_indic"): its calibration}}, read back from a task's metrics (names without
    the filter; figures as shares); empty without human labels. The jury comes last."""
    out: dict[str, dict[str, Calibration]] = {}
    for who in _whos(metrics):
        for part, _ in PARTS:
            figures = {f: _estimate(metrics, f"{who}_{f}{part}") for f in FIGURES}
            counts = [round(metrics.get(f"{who}_{count}{part}", 0.0)) for count in COUNTS]
            out.setdefault(who, {})[part.lstrip("_") or "all"] = Calibration(*counts, **figures)
    return out


def gap(metrics: dict[str, float], who: str, figure: str) -> Estimate:
    """The gap (non-Indic minus Indic) of a corrected figure, as a share."""
    return _estimate(metrics, f"{who}_{figure}_delta")


def _estimate(metrics: dict[str, float], name: str) -> Estimate:
    value, low, high = (metrics.get(f"{name}{end}", math.nan) / 100 for end in ("", "_ci_low", "_ci_high"))
    return Estimate(value, low, high)
