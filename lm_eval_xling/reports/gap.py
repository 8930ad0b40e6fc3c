"""Cross-lingual gap report: per-family tables, high- vs low-resource deltas, invalid-answer rates and
self-translation consistency beside accuracy, with 95% percentile-bootstrap intervals from lm-eval sample logs,
written as `report.md` and a self-contained `report.html` (plots embedded as base64 PNG). A model run from a local
folder is named by `redact.public_name` (`local:<folder name>:<sha256 prefix>`), so a shared report names no machine
or user."""

from __future__ import annotations

import base64
import html
import io
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from lm_eval_xling.errors import UserError
from lm_eval_xling.redact import public_name
from lm_eval_xling.reports.contrasts import families, family_of
from lm_eval_xling.results.folders import results_files
from lm_eval_xling.results.logs import sample_lines
from lm_eval_xling.results.metrics import configured_aggregations, finite_number, metric_values, non_mean_aggregation
from lm_eval_xling.stats import RESAMPLES, difference_ci, mean_ci
from lm_eval_xling.xsense import CONSISTENCY_REPORT

INVALID = "invalid"  # the metric of every answer-parsing task: the share of replies no parser could read


class ReportError(UserError):
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


def _read_per_doc(path: Path, config: dict[str, Any]) -> dict[str, np.ndarray]:
    """{"metric,filter": per-document values} of the numeric mean metrics logged in a samples file."""
    values: dict[str, dict[int, float]] = {}
    configured = configured_aggregations(config)
    for _, sample in sample_lines(path):
        for metric in sample.get("metrics", []):
            number = finite_number(sample.get(metric))
            if number is not None and non_mean_aggregation(metric, configured) is None:
                key = f"{metric},{sample.get('filter', 'none')}"
                values.setdefault(key, {})[sample["doc_id"]] = number
    return {key: np.array([v[d] for d in sorted(v)]) for key, v in values.items()}


def load_runs(folders: list[Path]) -> list[TaskRun]:
    """Every (model, task) of a reported family under the folders: the newest results file that has the task, with
    the per-document values of that run's own sample log (refused when it is not the log of those results)."""
    runs: dict[tuple[str, str], TaskRun] = {}
    for folder in folders:
        for results in results_files(folder):  # oldest first: a newer run of a task replaces an older one
            model = public_name(str(results.data.get("model_name") or results.path.parent.name))
            values = metric_values(results.data)
            for task in results.data["results"]:
                if family_of(task) is None:
                    continue
                run = runs[model, task] = TaskRun(model, task)
                run.results.update((k, v) for k, v in values[task].items() if "_stderr," not in k)
                if (samples := results.checked_samples_path(task)) is not None:
                    config = (results.data.get("configs") or {}).get(task) or {}
                    run.per_doc = _read_per_doc(samples, config)
    return sorted(runs.values(), key=lambda r: (family_of(r.task).prefix, r.task, r.model))


def _split(key: str) -> tuple[str, str]:
    metric, _, filt = key.partition(",")
    return metric, filt or "none"


def _label(key: str) -> str:
    metric, filt = _split(key)
    return metric if filt == "none" else f"{metric} ({filt})"


def metric_rows(runs: list[TaskRun], iters: int = RESAMPLES) -> tuple[list[Row], list[Row]]:
    """(main-metric rows, invalid-rate rows); CIs only where per-document values were logged."""
    main, invalid = [], []
    for run in runs:
        for key in sorted(set(run.results) | set(run.per_doc)):
            metric, _ = _split(key)
            if metric.endswith("_delta"):
                continue
            x = run.per_doc.get(key)
            value = float(np.mean(x)) if x is not None and len(x) else run.results[key]
            ci = mean_ci(x, iters) if x is not None and len(x) else None
            row = Row(run.model, run.task, _label(key), run.results.get(key, value), ci, 0 if x is None else len(x))
            (invalid if metric == INVALID else main).append(row)
    return main, invalid


def _pairs(tasks: set[str]) -> list[tuple[str, str, str, tuple[str, ...] | None]]:
    """(kind, high-resource task, low-resource task, metrics) for every declared contrast whose two tasks exist."""
    pairs = []
    for task in sorted(tasks):
        for contrast in family_of(task).contrasts:
            if (low := contrast.low_task(task)) in tasks:
                pairs.append((contrast.kind, task, low, contrast.metrics))
    return pairs


def deltas(runs: list[TaskRun], iters: int = RESAMPLES) -> list[Delta]:
    """High- minus low-resource differences of each shared mean metric (invalid excluded), with unpaired CIs."""
    by_model: dict[str, dict[str, TaskRun]] = {}
    for run in runs:
        by_model.setdefault(run.model, {})[run.task] = run
    out = []
    for model, tasks in sorted(by_model.items()):
        for kind, high, low, metrics in _pairs(set(tasks)):
            a, b = tasks[high], tasks[low]
            keys = sorted((set(a.results) | set(a.per_doc)) & (set(b.results) | set(b.per_doc)))
            if metrics is not None:
                keys = [k for k in keys if _split(k)[0] in metrics]
            for key in keys:
                metric = _split(key)[0]
                if metric == INVALID or metric.endswith("_delta"):
                    continue
                if key in a.per_doc and key in b.per_doc:
                    x, y = a.per_doc[key], b.per_doc[key]
                    value, ci = float(np.mean(x) - np.mean(y)), difference_ci(x, y, iters)
                else:
                    value, ci = a.results[key] - b.results[key], None
                out.append(Delta(model, kind, high, low, _label(key), value, ci))
        for task, run in sorted(tasks.items()):  # deltas a task computes itself (corpus level, no CI)
            if (kind := family_of(task).own_deltas) is None:
                continue
            for key, value in sorted(run.results.items()):
                if _split(key)[0].endswith("_delta"):
                    out.append(Delta(model, kind, task, task, _label(key).replace("_delta", "", 1), value, None))
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


def consistency_rows(reports: list[dict[str, Any]]) -> list[list[str]]:
    """A row per `consistency run`: accuracy of the original and of the fully translated run (T) beside the
    consistency of the rerun and each condition with the original (95% CI)."""
    rows = []
    for report in reports:
        runs = report["consistency"]
        cells = []
        for name in ("T", "I", "X", "rerun"):
            result = runs.get(name)
            if result is None or result["all"] is None:
                cells.append("-")
            else:
                cells.append(f"{_fmt(result['all'])} {_fmt_ci(tuple(result['ci']['all']))}")
        accuracy = report["accuracy"]
        translated = "-" if "T" not in accuracy else _fmt(accuracy["T"])
        rows.append([report["task"], report["direction"], _fmt(accuracy["original"]), translated, *cells,
                     str(report.get("collapsed", {}).get("n", 0))])  # fmt: skip
    return rows


def write_report(folders: list[Path], out: Path, iters: int = RESAMPLES) -> tuple[Path, Path]:
    """Write report.md and report.html into `out`; return their paths. A `consistency run` folder (it holds
    consistency.json) adds a row to the consistency table; its stages' lm-eval runs are not read as task runs."""
    consistency_folders = [f for f in folders if (f / CONSISTENCY_REPORT).is_file()]
    reports = [json.loads((f / CONSISTENCY_REPORT).read_text(encoding="utf-8")) for f in consistency_folders]
    runs = load_runs([f for f in folders if f not in consistency_folders])
    if not runs and not reports:
        prefixes = ", ".join(f.prefix for f in families())
        raise ReportError(f"no task of the families {prefixes} in {', '.join(map(str, folders))}")
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
    for family in families():
        rows = [r for r in main if family.has(r.task)]
        if not rows:
            continue
        title = family.title
        cells = [[r.model, r.task, r.metric, _fmt(r.value), _fmt_ci(r.ci), str(r.n)] for r in rows]
        png = base64.b64encode(family_plot(rows, title)).decode("ascii")
        md += [f"## {title}", "", _table(header, cells), "", f"![{title} plot](data:image/png;base64,{png})", ""]
        page += [
            f"<h2>{html.escape(title)}</h2>",
            _html_table(header, cells),
            f"<img alt='{html.escape(title)} plot' src='data:image/png;base64,{png}'>",
        ]
    if reports:
        consistency_header = ["Task", "Direction", "Accuracy", "Accuracy (T)", "T", "I", "X", "rerun", "Collapsed"]
        cells = consistency_rows(reports)
        title = "Self-translation consistency"
        note = ("Share of items answered alike in the original and in each run (95% bootstrap CI); T: instruction "
                "and inputs translated by the model, I: instruction only, X: inputs only; rerun: the original again "
                "with other seeds. Collapsed: items whose options became one text in translation (left out of T and "
                "X).")  # fmt: skip
        md += [f"## {title}", "", note, "", _table(consistency_header, cells), ""]
        page += [f"<h2>{title}</h2>", f"<p>{html.escape(note)}</p>", _html_table(consistency_header, cells)]
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
