"""Cross-lingual gap report: per-family tables, high- vs low-resource deltas and invalid-answer rates with
95% percentile-bootstrap intervals from lm-eval sample logs, written as `report.md` and a self-contained
`report.html` (plots embedded as base64 PNG)."""

from __future__ import annotations

import base64
import html
import io
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from lm_eval_xling.data import jsonl_lines
from lm_eval_xling.samples import (
    SamplesError,
    configured_aggregations,
    finite_number,
    metric_values,
    non_mean_aggregation,
    task_name_from_path,
)

FAMILIES = ("nsp", "xsense", "ynq", "quench", "xparade")
FAMILY_TITLES = {"nsp": "NSP", "xsense": "XSense", "ynq": "Y-NQ", "quench": "QUENCH", "xparade": "xPARADE"}
INVALID = "invalid"
DEFAULT_ITERS = 2000


class ReportError(ValueError):
    """A results folder is missing or unreadable."""


@dataclass
class TaskRun:
    """One model's run of one task: the results file's metrics and the per-document values of mean metrics."""

    model: str
    task: str
    results: dict[str, float] = field(default_factory=dict)  # "metric,filter" -> value
    per_doc: dict[str, np.ndarray] = field(default_factory=dict)  # "metric,filter" -> per-document values


@dataclass
class Row:
    model: str
    task: str
    metric: str
    value: float
    ci: tuple[float, float] | None
    n: int


@dataclass
class Delta:
    model: str
    kind: str
    high: str
    low: str
    metric: str
    value: float
    ci: tuple[float, float] | None


def family_of(task: str) -> str | None:
    prefix = task.split("_", 1)[0]
    return prefix if prefix in FAMILIES else None


def _read_per_doc(path: Path, config: dict[str, Any]) -> dict[str, np.ndarray]:
    """{"metric,filter": per-document values} of the numeric mean metrics logged in a samples file."""
    values: dict[str, dict[int, float]] = {}
    configured = configured_aggregations(config)
    for line_no, sample in jsonl_lines(path, SamplesError):
        if "doc_id" not in sample:
            raise SamplesError(f"{path}:{line_no}: field 'doc_id' is missing")
        for metric in sample.get("metrics", []):
            number = finite_number(sample.get(metric))
            if number is not None and non_mean_aggregation(metric, configured) is None:
                key = f"{metric},{sample.get('filter', 'none')}"
                values.setdefault(key, {})[sample["doc_id"]] = number
    return {key: np.array([v[d] for d in sorted(v)]) for key, v in values.items()}


def load_runs(folders: list[Path]) -> list[TaskRun]:
    """Every (model, task) found under the folders: newest results_*.json per model folder, plus sample logs."""
    runs: dict[tuple[str, str], TaskRun] = {}
    for folder in folders:
        if not folder.is_dir():
            raise ReportError(f"{folder}: not a folder")
        results_files = sorted(folder.rglob("results_*.json"), key=lambda p: p.name)
        if not results_files:
            raise ReportError(f"{folder}: no results_<date>.json (an lm_eval --output_path folder is expected)")
        for results_path in results_files:  # sorted by date: newer files overwrite older ones
            try:
                data = json.loads(results_path.read_text(encoding="utf-8"))
            except json.JSONDecodeError as err:
                raise ReportError(f"{results_path}: not JSON ({err})") from err
            if not isinstance(data.get("results"), dict):
                raise ReportError(f"{results_path}: field 'results' is missing or not an object")
            model = str(data.get("model_name") or results_path.parent.name)
            values = metric_values(data)
            for task in data["results"]:
                if family_of(task) is None:
                    continue
                run = runs.setdefault((model, task), TaskRun(model, task))
                run.results.update((k, v) for k, v in values[task].items() if "_stderr," not in k)
                samples = [
                    p for p in results_path.parent.glob(f"samples_{task}_*.jsonl") if task_name_from_path(p) == task
                ]
                if samples:
                    config = (data.get("configs") or {}).get(task) or {}
                    run.per_doc = _read_per_doc(max(samples, key=lambda p: p.name), config)
    return sorted(runs.values(), key=lambda r: (family_of(r.task) or "", r.task, r.model))


def bootstrap_ci(x: np.ndarray, iters: int = DEFAULT_ITERS, seed: int = 0) -> tuple[float, float]:
    """95% percentile-bootstrap interval of the mean."""
    if len(x) < 2 or np.all(x == x[0]):
        m = float(np.mean(x))
        return m, m
    from scipy.stats import bootstrap

    res = bootstrap((x,), np.mean, n_resamples=iters, method="percentile", random_state=seed)
    return float(res.confidence_interval.low), float(res.confidence_interval.high)


def bootstrap_delta(
    high: np.ndarray, low: np.ndarray, iters: int = DEFAULT_ITERS, seed: int = 0
) -> tuple[float, float]:
    """95% percentile-bootstrap interval of mean(high) - mean(low), resampling each side on its own (unpaired)."""
    if (len(high) < 2 or np.all(high == high[0])) and (len(low) < 2 or np.all(low == low[0])):
        d = float(np.mean(high) - np.mean(low))
        return d, d
    from scipy.stats import bootstrap

    def statistic(a: np.ndarray, b: np.ndarray, axis: int) -> np.ndarray:
        return np.mean(a, axis=axis) - np.mean(b, axis=axis)

    res = bootstrap((high, low), statistic, n_resamples=iters, method="percentile", paired=False, random_state=seed)
    return float(res.confidence_interval.low), float(res.confidence_interval.high)


def _split(key: str) -> tuple[str, str]:
    metric, _, filt = key.partition(",")
    return metric, filt or "none"


def _label(key: str) -> str:
    metric, filt = _split(key)
    return metric if filt == "none" else f"{metric} ({filt})"


def metric_rows(runs: list[TaskRun], iters: int = DEFAULT_ITERS) -> tuple[list[Row], list[Row]]:
    """(main-metric rows, invalid-rate rows); CIs only where per-document values were logged."""
    main, invalid = [], []
    for run in runs:
        for key in sorted(set(run.results) | set(run.per_doc)):
            metric, _ = _split(key)
            if metric.endswith("_delta"):
                continue
            x = run.per_doc.get(key)
            value = float(np.mean(x)) if x is not None and len(x) else run.results[key]
            ci = bootstrap_ci(x, iters) if x is not None and len(x) else None
            row = Row(run.model, run.task, _label(key), run.results.get(key, value), ci, 0 if x is None else len(x))
            (invalid if metric == INVALID else main).append(row)
    return main, invalid


def _pairs(tasks: set[str]) -> list[tuple[str, str, str]]:
    """(kind, high-resource task, low-resource task) for every comparison whose two tasks exist."""
    pairs = []
    for task in sorted(tasks):
        if task.startswith("nsp_english"):
            suffix = task.removeprefix("nsp_english")
            for low in ("swahili", "hausa"):
                if f"nsp_{low}{suffix}" in tasks:
                    pairs.append((f"English vs {low.title()}", task, f"nsp_{low}{suffix}"))
        elif task.startswith("ynq_english"):
            suffix = task.removeprefix("ynq_english")
            if f"ynq_yoruba{suffix}" in tasks:
                pairs.append(("English vs Yoruba", task, f"ynq_yoruba{suffix}"))
        elif task.startswith("quench_non_indic"):
            suffix = task.removeprefix("quench_non_indic")
            if f"quench_indic{suffix}" in tasks:
                pairs.append(("non-Indic vs Indic", task, f"quench_indic{suffix}"))
        elif task.startswith("xsense_") and task.endswith("_en"):
            stem = task.removesuffix("_en")
            for low in ("de", "zh"):
                if f"{stem}_{low}" in tasks:
                    pairs.append((f"source vs translated ({low})", task, f"{stem}_{low}"))
    return pairs


def deltas(runs: list[TaskRun], iters: int = DEFAULT_ITERS) -> list[Delta]:
    """High- minus low-resource differences of each shared mean metric (invalid excluded), with unpaired CIs."""
    by_model: dict[str, dict[str, TaskRun]] = {}
    for run in runs:
        by_model.setdefault(run.model, {})[run.task] = run
    out = []
    for model, tasks in sorted(by_model.items()):
        for kind, high, low in _pairs(set(tasks)):
            a, b = tasks[high], tasks[low]
            keys = sorted((set(a.results) | set(a.per_doc)) & (set(b.results) | set(b.per_doc)))
            if kind.startswith("source vs translated"):
                keys = [k for k in keys if _split(k)[0] == "acc"]
            for key in keys:
                metric = _split(key)[0]
                if metric == INVALID or metric.endswith("_delta"):
                    continue
                if key in a.per_doc and key in b.per_doc:
                    x, y = a.per_doc[key], b.per_doc[key]
                    value, ci = float(np.mean(x) - np.mean(y)), bootstrap_delta(x, y, iters)
                else:
                    value, ci = a.results[key] - b.results[key], None
                out.append(Delta(model, kind, high, low, _label(key), value, ci))
        for task, run in sorted(tasks.items()):  # quench's own corpus-level non-Indic minus Indic deltas
            for key, value in sorted(run.results.items()):
                metric = _split(key)[0]
                if family_of(task) == "quench" and metric.endswith("_delta"):
                    label = _label(key).replace("_delta", "", 1)
                    out.append(Delta(model, "non-Indic vs Indic (task's delta)", task, task, label, value, None))
    return out


def _fmt(value: float) -> str:
    return f"{value:.4f}"


def _fmt_ci(ci: tuple[float, float] | None) -> str:
    return "n/a" if ci is None else f"[{_fmt(ci[0])}, {_fmt(ci[1])}]"


def _table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def _html_table(header: list[str], rows: list[list[str]]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>" for r in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def family_plot(rows: list[Row], title: str) -> bytes:
    """A grouped bar plot (task x metric on the axis, one bar per model) with CI error bars, as PNG bytes."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    groups = sorted({(r.task, r.metric) for r in rows})
    models = sorted({r.model for r in rows})
    width = 0.8 / max(len(models), 1)
    fig, ax = plt.subplots(figsize=(max(6.0, 0.9 * len(groups) * max(len(models), 1) * 0.6 + 2), 4))
    for i, model in enumerate(models):
        by_group = {(r.task, r.metric): r for r in rows if r.model == model}
        xs, ys, errs = [], [], [[], []]
        for g, group in enumerate(groups):
            if group in by_group:
                r = by_group[group]
                lo, hi = r.ci if r.ci else (r.value, r.value)
                xs.append(g + (i - (len(models) - 1) / 2) * width)
                ys.append(r.value)
                errs[0].append(max(r.value - lo, 0.0))
                errs[1].append(max(hi - r.value, 0.0))
        ax.bar(xs, ys, width, yerr=errs, capsize=3, label=model)
    ax.set_xticks(range(len(groups)), [f"{t}\n{m}" for t, m in groups], rotation=30, ha="right", fontsize=7)
    ax.set_title(f"{title}: metric per task (95% bootstrap CI)")
    ax.legend(fontsize=7, loc="lower left", bbox_to_anchor=(1.01, 0.0))  # outside the axes: never over a bar
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100, bbox_inches="tight")
    plt.close(fig)
    return buf.getvalue()


_CSS = (
    "body{font-family:sans-serif;margin:2em;color:#222}table{border-collapse:collapse;margin:1em 0}"
    "td,th{border:1px solid #999;padding:3px 8px;text-align:left}th{background:#e8eef7}img{max-width:100%}"
)


def write_report(folders: list[Path], out: Path, iters: int = DEFAULT_ITERS) -> tuple[Path, Path]:
    """Write report.md and report.html into `out`; return their paths."""
    runs = load_runs(folders)
    if not runs:
        raise ReportError(f"no task of the families {', '.join(FAMILIES)} in {', '.join(map(str, folders))}")
    main, invalid = metric_rows(runs, iters)
    delta_rows = deltas(runs, iters)
    md = [
        "# Cross-lingual gap report",
        "",
        f"Models: {', '.join(sorted({r.model for r in runs}))}. "
        "CI: 95% percentile bootstrap over documents (mean metrics with sample logs; n/a otherwise).",
        "",
    ]
    page = [
        "<!DOCTYPE html><html><head><meta charset='utf-8'><title>Cross-lingual gap report</title>",
        f"<style>{_CSS}</style></head><body>",
        "<h1>Cross-lingual gap report</h1>",
        f"<p>{html.escape(md[2])}</p>",
    ]
    header = ["Model", "Task", "Metric", "Value", "95% CI", "n"]
    for family in FAMILIES:
        rows = [r for r in main if family_of(r.task) == family]
        if not rows:
            continue
        title = FAMILY_TITLES[family]
        cells = [[r.model, r.task, r.metric, _fmt(r.value), _fmt_ci(r.ci), str(r.n)] for r in rows]
        png = base64.b64encode(family_plot(rows, title)).decode("ascii")
        md += [f"## {title}", "", _table(header, cells), "", f"![{title} plot](data:image/png;base64,{png})", ""]
        page += [
            f"<h2>{html.escape(title)}</h2>",
            _html_table(header, cells),
            f"<img alt='{html.escape(title)} plot' src='data:image/png;base64,{png}'>",
        ]
    delta_header = ["Model", "Comparison", "High", "Low", "Metric", "Delta (high - low)", "95% CI"]
    delta_cells = [[d.model, d.kind, d.high, d.low, d.metric, _fmt(d.value), _fmt_ci(d.ci)] for d in delta_rows]
    none = "No task pair with both sides present."
    md += ["## High- vs low-resource deltas", "", _table(delta_header, delta_cells) if delta_cells else none, ""]
    page += ["<h2>High- vs low-resource deltas</h2>", _html_table(delta_header, delta_cells) if delta_cells else none]
    invalid_cells = [[r.model, r.task, r.metric, _fmt(r.value), _fmt_ci(r.ci), str(r.n)] for r in invalid]
    none = "No task logs the metric `invalid`."
    md += ["## Invalid answers", "", _table(header, invalid_cells) if invalid_cells else none, ""]
    page += ["<h2>Invalid answers</h2>", _html_table(header, invalid_cells) if invalid_cells else html.escape(none)]
    page.append("</body></html>")
    out.mkdir(parents=True, exist_ok=True)
    md_path, html_path = out / "report.md", out / "report.html"
    md_path.write_text("\n".join(md), encoding="utf-8")
    html_path.write_text("\n".join(page), encoding="utf-8")
    return md_path, html_path
