"""Cross-lingual gap report: per-family tables, high- vs low-resource deltas, invalid-answer rates and
self-translation consistency beside accuracy, with 95% percentile-bootstrap intervals from lm-eval sample logs,
written as `report.md` (its plots as PNG files beside it) and a self-contained `report.html` (the same plots
embedded).

Rows are runs, not models (`lm_eval_xling.results.runs`): two runs of one model with different settings are two
rows, labelled by what differs, and the "Runs" table lists every run's settings. With several runs, the first run
(of the first folder given) is A and each other run's difference B - A is shown per task and metric with its 95%
paired-bootstrap interval over the documents both logged. Corpus-level metrics a family can split by document
(QUENCH's per-entity scores, `ReportFamily.per_document`) get intervals too. A family whose tasks ask the same items
in every language (`ReportFamily.parallel`) gets a table of each language's gap to the reference language over the
items both logged, paired by a document field (not lm-eval's doc_id, an index), with an exact McNemar test and a plot
per run, beside the gap over the items the reader read in both languages. Every generative choice task (one that
logs `invalid`) gets the share of its replies read beside its reference language's (`lm_eval_xling.reports.
coverage`), and a gap whose two invalid rates differ by more than 5 points is flagged where the gap is shown. A
value that is not a finite number is shown as `n/a` with the reason. Names and settings are public
(`lm_eval_xling.redact`): a shared report names no machine or user."""

from __future__ import annotations

import base64
import html
import io
import math
import textwrap
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from lm_eval_xling.errors import UserError
from lm_eval_xling.files import write_file
from lm_eval_xling.reports import calibration
from lm_eval_xling.reports.contrasts import ReportFamily, families, family_of
from lm_eval_xling.reports.coverage import (
    COVERAGE_HEADER,
    COVERAGE_NOTE,
    INVALID,
    READ_GAP,
    ReaderCoverage,
    coverage_cells,
    flag_text,
    flagged,
    pair_flag,
    reader_coverage,
    reader_flags,
)
from lm_eval_xling.results.folders import results_files
from lm_eval_xling.results.logs import sample_lines
from lm_eval_xling.results.metrics import (
    configured_aggregations,
    finite_number,
    metric_values,
    non_mean_aggregation,
    out_of_range,
    own_interval,
)
from lm_eval_xling.results.runs import SETTINGS, Run, group_runs, run_date
from lm_eval_xling.stats import RESAMPLES, difference_ci, mcnemar_exact, mean_ci, paired_difference
from lm_eval_xling.xsense import CONSISTENCY_REPORT
from lm_eval_xling.xsense.pipeline import read_report

ACCURACY = "acc"  # the metric a parallel-language family's items are paired on: 1 right, 0 wrong (invalid included)


class ReportError(UserError):
    """A results folder is missing or unreadable."""


@dataclass
class TaskRun:
    """One run's results of one task: the results file's metrics and the per-document values of mean metrics."""

    model: str  # the run's label: its model, and the settings that tell it from the model's other runs
    task: str
    results: dict[str, float] = field(default_factory=dict)  # "metric,filter" -> value (NaN kept: shown as n/a)
    per_doc: dict[str, dict[int, float]] = field(default_factory=dict)  # "metric,filter" -> {doc_id: value}
    pair_keys: dict[int, Any] = field(default_factory=dict)  # doc_id -> the item's id (parallel-language families)
    scored: Counter[str] = field(default_factory=Counter)  # "metric,filter" -> documents that logged it (any value)


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
    filter: str = "none"


def _read_per_doc(path: Path, task: str, config: dict[str, Any]) -> tuple[dict, dict[int, Any], Counter[str]]:
    """({"metric,filter": {doc_id: value}} of the mean metrics logged in a samples file, and of the corpus-level
    metrics the task's family splits by document (a document without a value is left out); {doc_id: the document's
    pair field} for a parallel-language family, else {}; the count of documents that logged each metric)."""
    values: dict[str, dict[int, float]] = {}
    scored: Counter[str] = Counter()
    unsplit: dict[str, dict[int, Any]] = {}
    pair_keys: dict[int, Any] = {}
    configured = configured_aggregations(config)
    family = family_of(task)
    pair_field = family.parallel.pair_field if family and family.parallel else None
    for line_no, sample in sample_lines(path):
        if pair_field is not None:
            doc = sample.get("doc")
            key = doc.get(pair_field) if isinstance(doc, dict) else None
            if not isinstance(key, (str, int)) or isinstance(key, bool):
                raise ReportError(
                    f"{path}:{line_no}: doc field {pair_field!r} is {key!r:.40}; expected the item's id (a string or "
                    "integer), the same in every language"
                )
            pair_keys[sample["doc_id"]] = key
        for metric in sample.get("metrics", []):
            key = f"{metric},{sample.get('filter', 'none')}"
            scored[key] += metric in sample
            number = finite_number(sample.get(metric))
            if number is not None and non_mean_aggregation(metric, configured) is None:
                values.setdefault(key, {})[sample["doc_id"]] = number
            elif number is None and metric in sample:
                unsplit.setdefault(key, {})[sample["doc_id"]] = sample[metric]
    for key, logged in unsplit.items():
        split = family.document_values(key.split(",", 1)[0], list(logged.values()), config) if family else None
        if split is not None:
            numbers = {doc: finite_number(v) for doc, v in zip(logged, split, strict=True)}
            values[key] = {doc: v for doc, v in numbers.items() if v is not None}
    if twice := [key for key, count in Counter(pair_keys.values()).items() if count > 1]:
        raise ReportError(f"{path}: doc field {pair_field!r} is {twice[0]!r} in several documents; expected one each")
    return values, pair_keys, scored


def read_task_run(
    label: str, task: str, samples: Path | None, config: dict[str, Any], results: dict[str, float] | None = None
) -> TaskRun:
    """One run's task: its results-file values and, from its sample log where there is one, the per-document values
    (and, for a parallel-language family, each document's item id)."""
    task_run = TaskRun(label, task, results or {})
    if samples is not None:
        task_run.per_doc, task_run.pair_keys, task_run.scored = _read_per_doc(samples, task, config)
    return task_run


def _results(metrics: dict[str, Any]) -> dict[str, float]:
    """A task's "metric,filter" values from a results file, NaN and inf kept (stderrs, alias, sample_len left out)."""
    return {
        key: float(value)
        for key, value in metrics.items()
        if "," in key and "_stderr," not in key and isinstance(value, (int, float)) and not isinstance(value, bool)
    }


def load_runs(folders: list[Path], family: ReportFamily | None = None) -> tuple[list[TaskRun], list[Run]]:
    """(every (run, task) of a reported family (or of `family` only) under the folders, the runs in the order of the
    folders given): a run's task comes from its newest results file that has it, with the per-document values of
    that file's own sample log (refused when it is not the log of those results)."""
    files = [results for folder in folders for results in results_files(folder)]
    for results in files:
        values = metric_values(results.data)
        if broken := [f"{task}: {line}" for task, v in values.items() for line in out_of_range(v)]:
            raise ReportError(f"{results.path}: {'; '.join(broken)}")
    position = {results.path: i for i, results in enumerate(files)}
    runs = group_runs(sorted(files, key=lambda r: (r.path.name, str(r.path))))  # oldest first: newest wins
    runs.sort(key=lambda run: min(position[r.path] for r in run.files))
    task_runs = []
    for run in runs:
        for task, results in run.tasks().items():
            if family_of(task) is None or (family is not None and family_of(task) is not family):
                continue
            config = (results.data.get("configs") or {}).get(task) or {}
            samples = results.checked_samples_path(task)
            task_runs.append(read_task_run(run.label, task, samples, config, _results(results.data["results"][task])))
    order = {run.label: i for i, run in enumerate(runs)}
    task_runs.sort(key=lambda r: (family_of(r.task).prefix, r.task, order[r.model]))
    return task_runs, runs


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
            if metric.endswith("_delta") or "_ci_" in metric:
                continue
            x = np.array(list(run.per_doc.get(key, {}).values()))
            value = run.results.get(key, float(np.mean(x)) if len(x) else math.nan)
            ci = mean_ci(x, iters) if len(x) else own_interval(run.results, key)
            row = Row(run.model, run.task, _label(key), value, ci, len(x) or run.scored[key])  # corpus metrics too
            (invalid if metric == INVALID else main).append(row)
    return main, invalid


@dataclass
class RunDifference:
    a: str
    b: str
    task: str
    metric: str
    value_a: float
    value_b: float
    ci: tuple[float, float]
    n: int


def run_differences(runs: list[TaskRun], labels: list[str], iters: int = RESAMPLES) -> list[RunDifference]:
    """B - A for each run B after the first (A) on each task and per-document metric both logged, with the 95%
    paired-bootstrap interval over the documents both scored."""
    if len(labels) < 2:
        return []
    by_run = {(r.model, r.task): r for r in runs}
    out = []
    for label in labels[1:]:
        for task in sorted({r.task for r in runs if r.model == label}):
            a, b = by_run.get((labels[0], task)), by_run[label, task]
            if a is None:
                continue
            for key in sorted(a.per_doc.keys() & b.per_doc.keys()):
                if _split(key)[0].endswith("_delta"):
                    continue
                docs = sorted(a.per_doc[key].keys() & b.per_doc[key].keys())
                if not docs:
                    continue
                x = np.array([a.per_doc[key][d] for d in docs])
                y = np.array([b.per_doc[key][d] for d in docs])
                ci, _ = paired_difference(x, y, iters)
                out.append(RunDifference(labels[0], label, task, _label(key), x.mean(), y.mean(), ci, len(docs)))
    return out


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
            keys = [k for k in keys if "_ci_" not in k]
            if metrics is not None:
                keys = [k for k in keys if _split(k)[0] in metrics]
            for key in keys:
                metric = _split(key)[0]
                if metric == INVALID or metric.endswith("_delta"):
                    continue
                if a.per_doc.get(key) and b.per_doc.get(key):
                    x, y = np.array(list(a.per_doc[key].values())), np.array(list(b.per_doc[key].values()))
                    value, ci = float(np.mean(x) - np.mean(y)), difference_ci(x, y, iters)
                else:
                    value, ci = a.results[key] - b.results[key], None
                out.append(Delta(model, kind, high, low, _label(key), value, ci, _split(key)[1]))
        for task, run in sorted(tasks.items()):  # deltas a task computes itself (corpus level, no CI)
            if (kind := family_of(task).own_deltas) is None:
                continue
            for key, value in sorted(run.results.items()):
                if _split(key)[0].endswith("_delta"):
                    label = _label(key).replace("_delta", "", 1)
                    out.append(Delta(model, kind, task, task, label, value, own_interval(run.results, key)))
    return out


@dataclass(frozen=True)
class LanguageGap:
    """One run's accuracy on a task of a parallel-language family and, but for the reference language's own row, its
    difference to the reference language's task over the items both logged."""

    model: str
    task: str
    metric: str
    accuracy: float
    ci: tuple[float, float]
    n: int
    invalid: float | None  # share of invalid replies, where logged
    reference: str  # the reference language's task (the task itself in its own row)
    n_paired: int = 0
    reference_paired: float | None = None  # the reference language's accuracy over the paired items
    gap: float | None = None  # mean(language - reference) over the paired items
    gap_ci: tuple[float, float] | None = None  # 95% paired-bootstrap interval
    only_reference: int = 0  # paired items right in the reference language only
    only_language: int = 0  # paired items right in this language only
    p: float | None = None  # exact McNemar test
    reference_invalid: float | None = None  # the reference task's share of invalid replies, where logged
    n_answered: int | None = None  # paired items read (not invalid) in both languages; None: no invalid per item
    gap_answered: float | None = None  # mean(language - reference) over those items
    gap_answered_ci: tuple[float, float] | None = None  # 95% paired-bootstrap interval

    @property
    def reader_flagged(self) -> bool:
        """Whether the two languages' invalid rates differ by more than `coverage.READ_GAP`."""
        return self.task != self.reference and flagged(self.invalid, self.reference_invalid)


def _mean_invalid(run: TaskRun, filt: str) -> float | None:
    """A task's share of invalid replies under a filter: its sample log's mean, else its results file's value."""
    invalid = run.per_doc.get(f"{INVALID},{filt}")
    return float(np.mean(list(invalid.values()))) if invalid else run.results.get(f"{INVALID},{filt}")


def language_gaps(runs: list[TaskRun], iters: int = RESAMPLES, seed: int = 0) -> list[LanguageGap]:
    """Accuracy of each task of a parallel-language family whose run also has the reference language's task (the
    reference's own row when another language has it), with the paired difference to it over the items both logged,
    and over the items both answered (read, not invalid; where both log `invalid` per item), paired by the family's
    document field; by run, variant, reference first, then task."""
    parallel = [(r, family) for r in runs if (family := family_of(r.task)) and family.parallel]
    by_run = {(r.model, r.task): r for r, _ in parallel}
    scored = [(r, family) for r, family in parallel if any(_split(key)[0] == ACCURACY for key in r.per_doc)]
    for run, _ in scored:
        for key, values in run.per_doc.items():
            if _split(key)[0] == ACCURACY and not set(values.values()) <= {0.0, 1.0}:
                raise ReportError(f"{run.model}: {run.task} {key} has per-document values other than 0 and 1")
    referenced = {(r.model, ref) for r, family in scored if (ref := family.reference_task(r.task)) != r.task}
    order = {model: i for i, model in enumerate(dict.fromkeys(r.model for r in runs))}
    out = []
    for run, family in scored:
        reference = by_run.get((run.model, family.reference_task(run.task)))
        if reference is None or (reference is run and (run.model, run.task) not in referenced):
            continue
        for key, values in sorted(run.per_doc.items()):
            metric, filt = _split(key)
            if metric != ACCURACY:
                continue
            row = LanguageGap(
                run.model,
                run.task,
                _label(key),
                float(np.mean(list(values.values()))),
                mean_ci(list(values.values()), iters, seed),
                len(values),
                _mean_invalid(run, filt),
                reference.task,
                reference_invalid=_mean_invalid(reference, filt),
            )
            right = {run.pair_keys[doc]: value for doc, value in values.items()}
            right_reference = {reference.pair_keys[doc]: v for doc, v in reference.per_doc.get(key, {}).items()}
            if reference is not run and (items := sorted(right.keys() & right_reference.keys(), key=str)):
                a = np.array([right_reference[item] for item in items])
                b = np.array([right[item] for item in items])
                row = replace(
                    row,
                    n_paired=len(items),
                    reference_paired=float(np.mean(a)),
                    gap=float(np.mean(b - a)),
                    gap_ci=paired_difference(a, b, iters, seed)[0],
                    only_reference=int(np.sum(a > b)),
                    only_language=int(np.sum(b > a)),
                    p=mcnemar_exact(a, b),
                )
                row = _answered_in_both(row, run, reference, filt, right, right_reference, items, iters, seed)
            out.append(row)
    return sorted(
        out, key=lambda r: (order[r.model], family_of(r.task).language(r.task)[1], r.task != r.reference, r.task)
    )


def _answered_in_both(
    row: LanguageGap,
    run: TaskRun,
    reference: TaskRun,
    filt: str,
    right: dict[Any, float],
    right_reference: dict[Any, float],
    items: list[Any],
    iters: int,
    seed: int,
) -> LanguageGap:
    """`row` with the gap over the paired items that neither language's reply was invalid on (the reader read both),
    where both tasks log `invalid` per item; unchanged where they do not (a log-likelihood task reads no reply)."""
    key = f"{INVALID},{filt}"
    if key not in run.per_doc or key not in reference.per_doc:
        return row
    unread = {run.pair_keys[doc]: value for doc, value in run.per_doc[key].items()}
    unread_reference = {reference.pair_keys[doc]: value for doc, value in reference.per_doc[key].items()}
    answered = [item for item in items if unread.get(item) == 0 and unread_reference.get(item) == 0]
    if not answered:
        return replace(row, n_answered=0)
    a = np.array([right_reference[item] for item in answered])
    b = np.array([right[item] for item in answered])
    return replace(
        row,
        n_answered=len(answered),
        gap_answered=float(np.mean(b - a)),
        gap_answered_ci=paired_difference(a, b, iters, seed)[0],
    )


def gap_section(family: ReportFamily, gaps: list[LanguageGap]) -> tuple[str, str, list[str], list[list[str]]]:
    """(heading, note, header, rows) of a parallel-language family's table of gaps to its reference language: the
    report's and `compare`'s."""
    reference, pair_field = family.parallel.reference, family.parallel.pair_field
    heading = f"{family.title}: gap to {reference} on identical items"
    note = (
        "Accuracy over every item a task logged, 95% bootstrap CI; an invalid reply counts as wrong (acc is 0 for "
        f"it). Gap: accuracy minus that of the {reference} task of the same variant over the items both logged, "
        f"paired by the document field `{pair_field}` (negative: worse than {reference}), 95% paired-bootstrap CI; "
        "McNemar p: exact two-sided test on the items right in one language only. Answered in both: the paired "
        f"items whose replies the reader read (not invalid) in both languages, and the gap over them with its 95% "
        "paired-bootstrap CI (- where the tasks log no invalid per item: log-likelihood). Reader: flagged where the "
        f"invalid rates of the task and the {reference} task differ by more than {100 * READ_GAP:.0f} points."
    )
    header = ["Run", "Task", "Metric", "Accuracy", "95% CI", "n", "Invalid", "Paired n",
              f"{reference} accuracy on the paired items", f"Gap to {reference}", "Gap 95% CI",
              f"Right in {reference} only", "Right in task only", "McNemar p", "Answered in both n",
              f"Gap to {reference}, answered in both", "Answered gap 95% CI", "Reader"]  # fmt: skip
    rows = []
    for g in gaps:
        cells = [g.model, g.task, g.metric, _fmt(g.accuracy), _fmt_ci(g.ci), str(g.n),
                 "-" if g.invalid is None else _fmt(g.invalid)]  # fmt: skip
        if g.task == g.reference:
            read = "reference" if g.invalid is not None else "-"  # a log-likelihood task reads no reply
            cells += ["-", "-", "reference", "-", "-", "-", "-", "-", read, "-", read]
            rows.append(cells)
            continue
        if g.gap is None:
            cells += ["0", "-", "n/a (no item in both)", "-", "-", "-", "-"]
        else:
            cells += [str(g.n_paired), _fmt(g.reference_paired), f"{g.gap:+.4f}", _fmt_ci(g.gap_ci),
                      str(g.only_reference), str(g.only_language),
                      f"{g.p:.4f}" if g.p >= 1e-4 else f"{g.p:.1e}"]  # fmt: skip
        if g.n_answered is None:
            cells += ["-", "-", "-"]
        elif g.gap_answered is None:
            cells += ["0", "n/a (no item answered in both)", "-"]
        else:
            cells += [str(g.n_answered), f"{g.gap_answered:+.4f}", _fmt_ci(g.gap_answered_ci)]
        cells.append(flag_text(g.invalid, g.reference_invalid, g.reference) if g.reader_flagged else "-")
        rows.append(cells)
    return heading, note, header, rows


def language_gap_markdown(gaps: list[LanguageGap]) -> str:
    """Every parallel-language family's gap table (`gap_section`) as Markdown sections; "" when there is none."""
    parts = []
    for family in families():
        if family_gaps := [g for g in gaps if family.has(g.task)]:
            heading, note, header, rows = gap_section(family, family_gaps)
            parts.append(f"## {heading}\n\n{note}\n\n{_table(header, rows)}\n")
    return "\n".join(parts)


def reader_coverage_markdown(coverage: list[ReaderCoverage]) -> str:
    """Every run's replies read per task against its reference language, flags included, as one Markdown section
    (`compare`'s); "" when no task logs `invalid`."""
    if not coverage:
        return ""
    return f"## Replies read\n\n{COVERAGE_NOTE}\n\n{_table(COVERAGE_HEADER, coverage_cells(coverage))}\n"


def gap_plot(gaps: list[LanguageGap], title: str) -> bytes:
    """One run's gaps to the reference language as horizontal bars, sorted, with their 95% intervals and a line at
    0 (the reference's own row left out); each bar names its paired n and both languages' accuracy on those items,
    as PNG bytes."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.patches import Patch

    rows = sorted((g for g in gaps if g.gap is not None), key=lambda g: (g.gap, g.task, g.metric))
    figure = Figure(figsize=(9, 1.8 + 0.45 * max(len(rows), 1)), layout="constrained")
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    errors = [[g.gap - g.gap_ci[0] for g in rows], [g.gap_ci[1] - g.gap for g in rows]]
    # the exact test, not the interval: with few discordant items a percentile interval can exclude 0 while
    # McNemar's p is far above 0.05 (0 against 4 discordant items: p = 0.125)
    colors = ["tab:red" if g.p < 0.05 else "tab:blue" for g in rows]
    axes.barh(range(len(rows)), [g.gap for g in rows], xerr=errors, color=colors, capsize=3)
    axes.axvline(0, color="black", linewidth=1)
    labels = [
        f"{g.task} {g.metric}\nn={g.n_paired} paired: {_language(g.reference)} {g.reference_paired:.2f}, "
        f"{_language(g.task)} {g.reference_paired + g.gap:.2f}"
        for g in rows
    ]
    axes.set_yticks(range(len(rows)), labels, fontsize=7)
    axes.set_ylim(len(rows) - 0.5, -0.5)  # the largest drop on top
    axes.set_xlabel("accuracy gap to the reference language on the paired items (95% paired-bootstrap CI)")
    handles = [Patch(color="tab:red", label="exact McNemar p < 0.05"), Patch(color="tab:blue", label="p >= 0.05")]
    figure.legend(handles=handles, loc="outside lower center", ncols=2, fontsize=8)
    axes.set_title("\n".join(textwrap.wrap(title, 90)), fontsize=10)  # a run's label can be long
    buf = io.BytesIO()
    figure.savefig(buf, format="png", dpi=100)
    return buf.getvalue()


def _language(task: str) -> str:
    """A parallel-language task's language code (`nsp_global_yo_ll`: yo)."""
    family = family_of(task)
    return family.language(task)[0] if family else task


def _fmt(value: float) -> str:
    """A number to 4 decimals; NaN and inf as `n/a` with the reason."""
    if math.isnan(value):
        return "n/a (NaN: nothing to average)"
    if math.isinf(value):
        return f"n/a ({value}: not a score)"
    return f"{value:.4f}"


def _fmt_ci(ci: tuple[float, float] | None) -> str:
    if ci is None or not all(math.isfinite(bound) for bound in ci):
        return "n/a"
    return f"[{_fmt(ci[0])}, {_fmt(ci[1])}]"


def _table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def _html_table(header: list[str], rows: list[list[str]]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>" for r in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def family_plot(rows: list[Row], title: str) -> bytes:
    """A grouped bar plot (task x metric on the axis, one bar per run) with CI error bars and each bar's n, as PNG
    bytes: one colour per metric (an invalid rate never reads as a score), runs told apart by hatching, in the
    tables' order."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.patches import Patch

    groups = list(dict.fromkeys((r.task, r.metric) for r in rows))
    models = list(dict.fromkeys(r.model for r in rows))
    metrics = list(dict.fromkeys(r.metric for r in rows))
    colours = {metric: f"C{i % 10}" for i, metric in enumerate(metrics)}
    hatches = {model: ("", "//", "..", "xx", "\\\\", "oo")[i % 6] for i, model in enumerate(models)}
    width = 0.8 / max(len(models), 1)
    figure = Figure(figsize=(max(7.0, 0.55 * len(groups) * max(len(models), 1) + 3), 5), layout="constrained")
    FigureCanvasAgg(figure)
    ax = figure.add_subplot()
    for i, model in enumerate(models):
        for g, group in enumerate(groups):
            r = next((r for r in rows if r.model == model and (r.task, r.metric) == group), None)
            if r is None:
                continue
            lo, hi = r.ci if r.ci else (r.value, r.value)
            bars = ax.bar(g + (i - (len(models) - 1) / 2) * width, r.value, width, color=colours[r.metric],
                          hatch=hatches[model], edgecolor="black", linewidth=0.5,
                          yerr=[[max(r.value - lo, 0.0)], [max(hi - r.value, 0.0)]], capsize=3)  # fmt: skip
            ax.bar_label(bars, [f"n={r.n}"], fontsize=6, padding=2)
    ax.set_xticks(range(len(groups)), [f"{t}\n{m}" for t, m in groups], rotation=30, ha="right", fontsize=7)
    heading = f"{title}: metric per task (95% bootstrap CI; n documents on each bar)"
    figure.suptitle("\n".join(textwrap.wrap(heading, 60)), fontsize=10)  # above the legend, whole at any width
    handles = [Patch(facecolor=colours[m], label=m) for m in metrics]
    handles += [Patch(facecolor="white", edgecolor="black", hatch=hatches[m], label=m) for m in models]
    figure.legend(handles=handles, loc="outside right", fontsize=7)
    buf = io.BytesIO()
    figure.savefig(buf, format="png", dpi=100)
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
            if result is None:
                cells.append("-")
            elif result["all"] is None:
                cells.append("n/a (no item in both runs)")
            else:
                cells.append(f"{_fmt(result['all'])} {_fmt_ci(tuple(result['ci']['all']))}")
        accuracy = report["accuracy"]
        translated = "-" if "T" not in accuracy else _fmt(accuracy["T"])
        rows.append([report["task"], report["direction"], _fmt(accuracy["original"]), translated, *cells,
                     str(report.get("collapsed", {}).get("n", 0))])  # fmt: skip
    return rows


def _run_cells(runs: list[Run]) -> list[list[str]]:
    """One row per run: its label, settings and date(s)."""
    rows = []
    for run in runs:
        dates = sorted({run_date(r) for r in run.files})
        rows.append([run.label, *(run.settings[k] for k in SETTINGS), ", ".join(dates)])
    return rows


def write_report(folders: list[Path], out: Path, iters: int = RESAMPLES) -> tuple[Path, Path]:
    """Write report.md (with a PNG per family, and per run of a parallel-language family, beside it) and report.html
    into `out`; return the two reports' paths.
    A `consistency run` folder (it holds consistency.json) adds a row to the consistency table; its stages' lm-eval
    runs are not read as task runs."""
    consistency_folders = [f for f in folders if (f / CONSISTENCY_REPORT).is_file()]
    reports = [read_report(folder) for folder in consistency_folders]
    other = [f for f in folders if f not in consistency_folders]
    task_runs, runs = load_runs(other) if other else ([], [])
    if not task_runs and not reports:
        prefixes = ", ".join(f.prefix for f in families())
        raise ReportError(f"no task of the families {prefixes} in {', '.join(map(str, folders))}")
    labels = [run.label for run in runs if any(r.model == run.label for r in task_runs)]
    main, invalid = metric_rows(task_runs, iters)
    delta_rows = deltas(task_runs, iters)
    intro = (
        f"Runs: {'; '.join(labels)}. CI: 95% percentile bootstrap over documents (per-document metrics with sample "
        "logs; n/a otherwise). n/a in a value: not a finite number, with the reason."
    )
    md = ["# Cross-lingual gap report", "", intro, ""]
    page = [
        "<!DOCTYPE html><html><head><meta charset='utf-8'><title>Cross-lingual gap report</title>",
        f"<style>{_CSS}</style></head><body>",
        "<h1>Cross-lingual gap report</h1>",
        f"<p>{html.escape(intro)}</p>",
    ]

    def section(
        title: str, header: list[str], cells: list[list[str]], none: str, note: str = "", after: Sequence[str] = ()
    ) -> None:
        """A heading, a note, the table (or `none`), and the `after` notes right under it as a list."""
        md.extend([f"## {title}", "", *([note, ""] if note else []), _table(header, cells) if cells else none, ""])
        md.extend([*(f"- {line}" for line in after), *([""] if after else [])])
        page.extend([f"<h2>{html.escape(title)}</h2>", *([f"<p>{html.escape(note)}</p>"] if note else [])])
        page.append(_html_table(header, cells) if cells else f"<p>{html.escape(none)}</p>")
        if after:
            page.append("<ul>" + "".join(f"<li>{html.escape(line)}</li>" for line in after) + "</ul>")

    out.mkdir(parents=True, exist_ok=True)
    if runs:
        section("Runs", ["Run", *SETTINGS, "Date (UTC)"], _run_cells(runs), "")

    def image(png: bytes, name: str, alt: str) -> None:
        (out / name).write_bytes(png)
        md.extend([f"![{alt}]({name})", ""])
        page.append(f"<img alt='{html.escape(alt)}' src='data:image/png;base64,{base64.b64encode(png).decode()}'>")

    header = ["Run", "Task", "Metric", "Value", "95% CI", "n"]
    gaps = language_gaps(task_runs, iters)
    coverage = reader_coverage(task_runs)
    for family in families():
        rows = [r for r in main if family.has(r.task)]
        if not rows:
            continue
        title = family.title
        family_coverage = [c for c in coverage if family.has(c.task)]
        flags = [f"{c.model}, {c.task} ({c.filter}): {c.reader_cell()}" for c in family_coverage if c.flagged]
        cells = [[r.model, r.task, r.metric, _fmt(r.value), _fmt_ci(r.ci), str(r.n)] for r in rows]
        section(title, header, cells, "", after=flags)
        image(family_plot(rows, title), f"{family.prefix}.png", f"{title} plot")
        if family_coverage:
            section(f"{title}: replies read", COVERAGE_HEADER, coverage_cells(family_coverage), "", COVERAGE_NOTE)
        if family_gaps := [g for g in gaps if family.has(g.task)]:
            heading, note, gap_header, cells = gap_section(family, family_gaps)
            section(heading, gap_header, cells, "", note)
            for i, label in enumerate(labels, 1):
                if any(g.model == label and g.gap is not None for g in family_gaps):
                    run_gaps = [g for g in family_gaps if g.model == label]
                    image(
                        gap_plot(run_gaps, f"{heading}: {label}"), f"{family.prefix}_gap_{i}.png", f"{heading}: {label}"
                    )
    if len(labels) > 1:
        differences = run_differences(task_runs, labels, iters)
        cells = [[d.b, d.task, d.metric, _fmt(d.value_a), _fmt(d.value_b), _fmt(d.value_b - d.value_a),
                  _fmt_ci(d.ci), str(d.n)] for d in differences]  # fmt: skip
        note = f"A: {labels[0]}. B - A over the documents both runs scored, 95% paired-bootstrap interval."
        section("Differences between runs", ["B", "Task", "Metric", "A", "B", "B - A", "95% CI", "n"], cells,
                "No task and per-document metric that two runs share.", note)  # fmt: skip
    if reports:
        note = ("Share of items answered alike in the original and in each run (95% bootstrap CI); T: instruction "
                "and inputs translated by the model, I: instruction only, X: inputs only; rerun: the original again "
                "with other seeds. Collapsed: items whose options became one text in translation (left out of T and "
                "X).")  # fmt: skip
        section("Self-translation consistency",
                ["Task", "Direction", "Accuracy", "Accuracy (T)", "T", "I", "X", "rerun", "Collapsed"],
                consistency_rows(reports), "", note)  # fmt: skip
    by_task = reader_flags(coverage)
    delta_cells = [[d.model, d.kind, d.high, d.low, d.metric, _fmt(d.value), _fmt_ci(d.ci),
                    pair_flag(by_task, d.model, d.low, d.high, d.filter) or "-"] for d in delta_rows]  # fmt: skip
    note = (f"Reader: flagged where the low- and high-resource tasks' invalid rates differ by more than "
            f"{100 * READ_GAP:.0f} points." if delta_cells else "")  # fmt: skip
    section("High- vs low-resource deltas", ["Run", "Comparison", "High", "Low", "Metric", "Delta (high - low)",
            "95% CI", "Reader"], delta_cells, "No task pair with both sides present.", note)  # fmt: skip
    if calibrated := [[run.model, run.task, *row] for run in task_runs for row in calibration.rows(run.results)]:
        section("QUENCH: the jury corrected with human labels", ["Run", "Task", *calibration.HEADER], calibrated, "",
                calibration.NOTE)  # fmt: skip
    invalid_cells = [[r.model, r.task, r.metric, _fmt(r.value), _fmt_ci(r.ci), str(r.n)] for r in invalid]
    section("Invalid answers", header, invalid_cells, "No task logs the metric `invalid`.")
    page.append("</body></html>")
    md_path, html_path = out / "report.md", out / "report.html"
    write_file(md_path, "\n".join(md))
    write_file(html_path, "\n".join(page))
    return md_path, html_path
