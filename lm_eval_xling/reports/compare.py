"""Compare two checkpoints' lm-eval runs document by document, with a paired bootstrap per task and metric.

Input: two folders written by `lm_eval --output_path DIR --log_samples` (DIR/<model>/results_<date>.json and
samples_<task>_<date>.jsonl; searched recursively). Each folder must hold one run (`lm_eval_xling.results.runs`: a
folder with runs of several models or settings is refused with the list); each task's log is the one of the newest
results file that has the task, checked against it (`check_pairing`). A task is compared when both runs logged it;
the two runs are labelled by their model and the settings in which they differ. lm-eval writes the per-document
value of every metric into each sample line (the keys named in its "metrics" list); the line of the first filter is
used for each document (as `lm_eval_xling.results.logs.read_samples` reads it). Documents are paired by doc_id, and
a paired doc_id must carry the same `doc_hash` in both logs, else the runs were not made on the same documents and
the comparison is refused.

A metric is compared when its aggregation is a per-document mean (the task's `metric_list` in the results file beside
the log, else lm-eval's default aggregation for the metric name, else lm-eval's own fallback, the mean) and every
paired document has a finite number for it, or when the task's family turns its logged values into one number per
document (`ReportFamily.per_document`: QUENCH's per-entity BLEU, ROUGE-L, BERTScore and jury scores; a document
without a value, such as an entity no judge could score, is left out of the pairs). Other corpus-level metrics
(BLEU, F1, custom aggregations), whose per-document values are tuples or dicts, are skipped and listed with the
reason.

Statistics, over the n documents both runs scored: A and B are the two means, diff = mean(B - A) (equal to
B - A), and the 95% interval of diff is the percentile interval of a paired bootstrap: `scipy.stats.bootstrap` with
paired=True resamples document indices with replacement, the same indices for A and B, `iters` times from
`numpy.random.default_rng(seed)` (a fresh generator per task and metric, so a result does not depend on what else is
compared). The two-sided p-value is read from the same resampled differences: the share of them on the other side
of zero from the observed diff (zero itself counted as the other side), times 2, capped at 1 (the percentile
bootstrap test, which rejects at 5% exactly when the percentile interval excludes 0, up to quantile interpolation);
p is 1 when diff is 0, and 0 means below 2/iters. `significant` is true when the interval excludes 0.

A run (either side) with several languages of a family that asks the same items in every language
(`ReportFamily.parallel`) also gets the report's table of each language's gap to the reference language within that
run (`lm_eval_xling.reports.gap.language_gaps`; Run A or B), printed after the comparison (not in `--json`), with
the gap over the items both languages' replies were read on. Before it, each run's reader coverage: for every task
that logs `invalid` (a generative choice task), the share of replies read against its reference language's task,
flagged where the two invalid rates differ by more than 5 points (`lm_eval_xling.reports.coverage`; not in `--json`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from lm_eval_xling.errors import UserError
from lm_eval_xling.files import save_figure
from lm_eval_xling.reports.contrasts import family_of
from lm_eval_xling.reports.coverage import INVALID, ReaderCoverage, reader_coverage
from lm_eval_xling.reports.gap import (
    LanguageGap,
    language_gap_markdown,
    language_gaps,
    read_task_run,
    reader_coverage_markdown,
)
from lm_eval_xling.results.folders import results_files
from lm_eval_xling.results.logs import SamplesError, logged_doc_hash, read_samples
from lm_eval_xling.results.metrics import configured_aggregations, finite_number, non_mean_aggregation
from lm_eval_xling.results.runs import Run, label_runs, one_run
from lm_eval_xling.stats import RESAMPLES, paired_difference


@dataclass(frozen=True)
class MetricComparison:
    a: float
    b: float
    diff: float
    ci: tuple[float, float]
    p: float
    significant: bool
    n: int
    filter: str

    def as_dict(self) -> dict[str, Any]:
        """The `--json` view: {"a", "b", "diff", "ci": [lo, hi], "p", "significant", "n"}."""
        return {
            "a": self.a,
            "b": self.b,
            "diff": self.diff,
            "ci": list(self.ci),
            "p": self.p,
            "significant": self.significant,
            "n": self.n,
        }


@dataclass
class Comparison:
    """Per-task, per-metric results, and what was left out and why."""

    results: dict[str, dict[str, MetricComparison]]
    skipped: dict[str, dict[str, str]] = field(default_factory=dict)  # task -> metric -> reason
    only_a: list[str] = field(default_factory=list)  # tasks with a sample log in A only
    only_b: list[str] = field(default_factory=list)
    unpaired: dict[str, tuple[int, int]] = field(default_factory=dict)  # task -> (docs only in A, only in B)
    iters: int = RESAMPLES
    seed: int = 0
    labels: tuple[str, str] = ("A", "B")
    language_gaps: list[LanguageGap] = field(default_factory=list)  # each run's gaps to a reference language
    reader_coverage: list[ReaderCoverage] = field(default_factory=list)  # each run's replies read, per task

    def as_dict(self) -> dict[str, dict[str, dict[str, Any]]]:
        """{task: {metric: {"a", "b", "diff", "ci", "p", "significant", "n"}}}."""
        return {task: {m: c.as_dict() for m, c in metrics.items()} for task, metrics in self.results.items()}

    def notes(self) -> list[str]:
        """The runs' labels; one line per skipped metric, one-sided task and unpaired document count."""
        lines = [f"A: {self.labels[0]}", f"B: {self.labels[1]}"]
        lines += [f"skipped: {task} {m} ({why})" for task, ms in self.skipped.items() for m, why in ms.items()]
        lines += [f"only in A, not compared: {task}" for task in self.only_a]
        lines += [f"only in B, not compared: {task}" for task in self.only_b]
        lines += [
            f"{task}: {na} documents only in A and {nb} only in B, left out"
            for task, (na, nb) in self.unpaired.items()
            if na or nb
        ]
        return lines


@dataclass(frozen=True)
class TaskLog:
    """One task's sample log in a run, checked against its results file, and the task's config as logged."""

    path: Path
    config: dict[str, Any]


def run_logs(folder: Path) -> tuple[Run, dict[str, TaskLog]]:
    """The one run under `folder` and {task: its log}; an error when the folder holds several runs or no log."""
    run = one_run(results_files(folder), folder, "compare")
    logs = {}
    for task, results in run.tasks().items():
        if task not in (results.data.get("group_subtasks") or {}) and (path := results.checked_samples_path(task)):
            logs[task] = TaskLog(path, (results.data.get("configs") or {}).get(task) or {})
    if not logs:
        raise SamplesError(f"{folder}: no samples_<task>_<date>.jsonl beside its results (lm_eval --log_samples)")
    return run, logs


def _per_doc(path: Path) -> dict[int, tuple[str, str, dict[str, Any]]]:
    """{doc_id: (doc_hash, filter, {metric: logged value})} from the first filter's line of each document."""
    out = {}
    for doc_id, sample in read_samples(path).items():
        values = {name: sample[name] for name in sample.get("metrics", []) if name in sample}
        out[doc_id] = (logged_doc_hash(sample), sample.get("filter", "none"), values)
    return out


def _numbers(task: str, metric: str, values: list[Any], config: dict[str, Any]) -> list[float | None] | str:
    """One number per document (None: it has none), or why the metric cannot be paired by document."""
    family = family_of(task)
    if family is not None and any(finite_number(v) is None for v in values):
        per_document = family.document_values(metric, values, config)
        if per_document is not None:
            return [finite_number(v) for v in per_document]
    if (not_mean := non_mean_aggregation(metric, configured_aggregations(config))) is not None:
        return f"{not_mean}, not a per-document mean"
    bad = next((v for v in values if finite_number(v) is None), None)
    if bad is not None:
        if isinstance(bad, float):
            return "some of its per-document values are NaN or infinite"
        return f"its per-document values are {type(bad).__name__}s: a corpus-level score, not a mean over documents"
    return [finite_number(v) for v in values]


def compare_task(
    task: str, log_a: TaskLog, log_b: TaskLog, iters: int = RESAMPLES, seed: int = 0
) -> tuple[dict[str, MetricComparison], dict[str, str], tuple[int, int]]:
    """(compared metrics, skipped metrics with the reason, (docs only in A, docs only in B)) of one task."""
    docs_a, docs_b = _per_doc(log_a.path), _per_doc(log_b.path)
    shared = sorted(docs_a.keys() & docs_b.keys())
    if not shared:
        raise SamplesError(f"{task}: the two runs have no doc_id in common ({log_a.path}, {log_b.path})")
    for doc_id in shared:
        if docs_a[doc_id][0] != docs_b[doc_id][0]:
            raise SamplesError(
                f"{task} doc_id {doc_id}: doc_hash differs between A ({log_a.path}) and B ({log_b.path}); "
                "the runs were not made on the same documents"
            )
    metric_names = list(dict.fromkeys(m for i in shared for side in (docs_a, docs_b) for m in side[i][2]))
    compared: dict[str, MetricComparison] = {}
    skipped: dict[str, str] = {}
    for metric in metric_names:
        both = [i for i in shared if metric in docs_a[i][2] and metric in docs_b[i][2]]
        if not both:
            skipped[metric] = "no document scored in both runs"
            continue
        numbers_a = _numbers(task, metric, [docs_a[i][2][metric] for i in both], log_a.config)
        numbers_b = _numbers(task, metric, [docs_b[i][2][metric] for i in both], log_b.config)
        if isinstance(why := numbers_a if isinstance(numbers_a, str) else numbers_b, str):
            skipped[metric] = why
            continue
        pairs = [(x, y) for x, y in zip(numbers_a, numbers_b, strict=True) if x is not None and y is not None]
        if not pairs:
            skipped[metric] = "no document with a value in both runs"
            continue
        a = np.array([x for x, _ in pairs])
        b = np.array([y for _, y in pairs])
        ci, p = paired_difference(a, b, iters, seed)
        compared[metric] = MetricComparison(
            a=float(np.mean(a)),
            b=float(np.mean(b)),
            diff=float(np.mean(b - a)),
            ci=ci,
            p=p,
            significant=ci[0] > 0 or ci[1] < 0,
            n=len(a),
            filter=docs_a[shared[0]][1],
        )
    return compared, skipped, (len(docs_a.keys() - docs_b.keys()), len(docs_b.keys() - docs_a.keys()))


def compare_runs(dir_a: Path, dir_b: Path, iters: int = RESAMPLES, seed: int = 0) -> Comparison:
    """Compare every task both folders' runs logged (see the module docstring)."""
    if iters < 1:
        raise UserError(f"iters is {iters}; give at least 1 bootstrap resample")
    (run_a, logs_a), (run_b, logs_b) = run_logs(dir_a), run_logs(dir_b)  # a broken log is named first
    if dir_a.resolve() == dir_b.resolve():
        raise UserError(f"A and B are the same folder ({dir_a}): every difference would be 0; give two runs' folders")
    label_runs([run_a, run_b])
    comparison = Comparison(
        results={},
        only_a=sorted(logs_a.keys() - logs_b.keys()),
        only_b=sorted(logs_b.keys() - logs_a.keys()),
        iters=iters,
        seed=seed,
        labels=(run_a.label, run_b.label),
    )
    shared = sorted(logs_a.keys() & logs_b.keys())
    if not shared:
        raise SamplesError(f"{dir_a} and {dir_b} have no task in common (by samples_<task>_<date>.jsonl)")
    for task in shared:
        compared, skipped, unpaired = compare_task(task, logs_a[task], logs_b[task], iters, seed)
        comparison.results[task] = compared
        if skipped:
            comparison.skipped[task] = skipped
        comparison.unpaired[task] = unpaired
    for side, logs in (("A", logs_a), ("B", logs_b)):  # rows named A and B: the two runs' labels may be the same
        # a family's tasks that log `invalid` or ask the same items in every language (QUENCH's per-entity scores,
        # costly to split, are not needed here)
        wanted = [task for task, log in logs.items() if (family := family_of(task))
                  and (family.parallel or INVALID in configured_aggregations(log.config))]  # fmt: skip
        task_runs = [read_task_run(side, task, logs[task].path, logs[task].config) for task in wanted]
        comparison.reader_coverage += reader_coverage(task_runs)
        parallel = [run for run in task_runs if family_of(run.task).parallel]
        comparison.language_gaps += language_gaps(parallel, iters, seed)
    return comparison


def _p(p: float, iters: int) -> str:
    return f"<{2 / iters:.2g}" if p == 0 else f"{p:.4f}"


def markdown_table(comparison: Comparison) -> str:
    """The comparison as a Markdown table, followed by the notes (skipped metrics, one-sided tasks), each run's
    replies read (`reader_coverage_markdown`) and its gaps to a reference language (`language_gap_markdown`)."""
    lines = [
        f"A: {comparison.labels[0]}  ",
        f"B: {comparison.labels[1]}",
        "",
        "| task | metric | A | B | B-A | 95% CI | p | significant | n |",
        "|---|---|---:|---:|---:|---|---:|---|---:|",
    ]
    for task, metrics in comparison.results.items():
        for metric, c in metrics.items():
            lines.append(
                f"| {task} | {metric} | {c.a:.4f} | {c.b:.4f} | {c.diff:+.4f} | [{c.ci[0]:+.4f}, {c.ci[1]:+.4f}] "
                f"| {_p(c.p, comparison.iters)} | {'yes' if c.significant else 'no'} | {c.n} |"
            )
    lines.append("")
    lines.append(f"paired bootstrap over documents, {comparison.iters} resamples, seed {comparison.seed}")
    lines += comparison.notes()[2:]
    if coverage := reader_coverage_markdown(comparison.reader_coverage):
        lines += ["", coverage]
    if gaps := language_gap_markdown(comparison.language_gaps):
        lines += ["", gaps]
    return "\n".join(lines)


def forest_plot(comparison: Comparison, path: Path) -> Path:
    """A forest plot (one row per task and metric: B - A with its 95% interval, a line at 0) as a PNG file."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    rows = [(f"{task} {metric}", c) for task, ms in comparison.results.items() for metric, c in ms.items()]
    figure = Figure(figsize=(7, 1.2 + 0.4 * max(len(rows), 1)), layout="constrained")
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    axes.axvline(0, color="grey", linewidth=1, linestyle="--")
    for y, (_, c) in enumerate(rows):
        color = "tab:red" if c.significant else "tab:blue"
        error = [[c.diff - c.ci[0]], [c.ci[1] - c.diff]]
        axes.errorbar(c.diff, y, xerr=error, fmt="o", color=color, capsize=3)
    axes.set_yticks(range(len(rows)), [label for label, _ in rows])
    axes.set_ylim(len(rows) - 0.5, -0.5)  # first row on top
    axes.set_xlabel("B - A (95% paired bootstrap interval; red: excludes 0)")
    if not rows:
        axes.text(0.5, 0.5, "no metric to compare", transform=axes.transAxes, ha="center")
    return save_figure(figure, path, dpi=100)
