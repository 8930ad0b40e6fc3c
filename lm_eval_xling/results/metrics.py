"""Which keys of lm-eval results are metrics, and how lm-eval aggregates each one."""

from __future__ import annotations

import math
import re
from typing import Any

from lm_eval_xling.metrics.jury import JURY_COUNTS


def finite_number(value: Any) -> float | None:
    """`value` as a float when it is a finite number (bools count as 0/1), else None."""
    if isinstance(value, (bool, int, float)) and math.isfinite(value):
        return float(value)
    return None


def metric_values(results: dict[str, Any]) -> dict[str, dict[str, float]]:
    """{task: {"metric,filter": value}} from an lm-eval results dict, stderrs included: its "name,filter" keys with
    a number (alias and sample_len are not metrics; an "N/A" stderr is left out)."""
    return {
        task: {
            key: number for key, value in metrics.items() if "," in key and (number := finite_number(value)) is not None
        }
        for task, metrics in results["results"].items()
    }


def metric_name(key: str) -> str:
    """The metric of a "metric,filter" results key."""
    return key.partition(",")[0]


def without_filters(metrics: dict[str, Any]) -> dict[str, Any]:
    """One task's results keyed by metric alone (for a task with one filter)."""
    return {metric_name(key): value for key, value in metrics.items()}


def own_interval(values: dict[str, float], key: str) -> tuple[float, float] | None:
    """(low, high) of the 95% interval a task reports beside the metric `key` ("metric,filter"), as
    "metric_ci_low,filter" and "metric_ci_high,filter" (QUENCH's groups and gaps, its jury corrected with human
    labels), else None."""
    metric, _, filter_name = key.partition(",")
    low, high = values.get(f"{metric}_ci_low,{filter_name}"), values.get(f"{metric}_ci_high,{filter_name}")
    return None if low is None or high is None else (low, high)


# Metrics that are shares of documents (accuracy, rates, precision/recall/F1 on a 0-1 scale): outside [0, 1] is a
# broken results file, never a score. Counts of documents (the jury's failed and unparsed verdicts) are whole and
# never negative.
_SHARE = re.compile(r"^(acc|acc_norm|exact_match|invalid|invalid_rules|unanswered|unreadable|\w+_rate|"
                    r"(\w+_)?(precision|recall|f1))$")  # fmt: skip


def out_of_range(values: dict[str, float]) -> list[str]:
    """'metric,filter is v, <why>' for each value of one task's `metric_values` that no run can produce: a share
    outside [0, 1] or a count that is negative or not whole."""
    problems = []
    for key, value in values.items():
        metric = metric_name(key)
        if _SHARE.match(metric) and not 0 <= value <= 1:
            problems.append(f"metric {key} is {value}, outside [0, 1] for a share")
        elif metric in JURY_COUNTS and not (value >= 0 and value.is_integer()):
            problems.append(f"metric {key} is {value}, not a count (a whole number, 0 or more)")
    return problems


_FUNCTION_SOURCE = re.compile(r"^\s*def\s+(\w+)\s*\(")


def configured_aggregations(config: dict[str, Any]) -> dict[str, str | None]:
    """{metric: aggregation as a logged task config records it (None: not set)} from its `metric_list`."""
    out: dict[str, str | None] = {}
    for entry in config.get("metric_list") or []:
        metric = str(entry.get("metric", ""))
        source = _FUNCTION_SOURCE.match(metric)  # a `!function` metric is recorded as its source code
        aggregation = entry.get("aggregation")
        out[source[1] if source else metric] = None if aggregation is None else str(aggregation)
    return out


def non_mean_aggregation(metric: str, configured: dict[str, str | None]) -> str | None:
    """None when lm-eval averages `metric` over documents, else a short name of its aggregation.

    The configured aggregation wins; else lm-eval's default for the metric name; unknown names are averaged."""
    from lm_eval.api import registry
    from lm_eval.api.metrics import mean

    aggregation = configured.get(metric)
    if aggregation is None:
        if metric not in registry.metric_agg_registry:
            return None
        function = registry.get_metric_aggregation(metric)
        return None if function is mean else f"aggregation {getattr(function, '__name__', function)}"
    if aggregation in registry.aggregation_registry and registry.get_aggregation(aggregation) is mean:
        return None
    source = _FUNCTION_SOURCE.match(aggregation)
    return f"aggregation {source[1] if source else aggregation}"
