"""Reader coverage beside the numbers it feeds: the share of each generative choice task's replies the reader could
read (1 - invalid), per run, task and filter, set against its family's reference language (`ReportFamily.
reference_of`: English for NSP and NSP Global, the declared reference elsewhere). When a language's invalid rate
differs from the reference's by more than `READ_GAP` (5 points), part of its accuracy gap may be the reader's rather
than the model's, and every table that shows that gap says so (`READER_FLAG`)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from lm_eval_xling.reports.contrasts import family_of

if TYPE_CHECKING:
    from lm_eval_xling.reports.gap import TaskRun

INVALID = "invalid"  # the metric of every answer-parsing task: the share of replies no parser could read
READ_GAP = 0.05  # invalid rates further apart than this (5 points) flag the language
READER_FLAG = "part of this gap may be replies the reader could not read: see invalid"


def invalid_rate(run: TaskRun, filt: str) -> tuple[float, int] | None:
    """(share of invalid replies, replies logged) of one run's task under one filter: the sample log's mean where it
    was logged, else the results file's value (0 replies); None when the task logs no `invalid`."""
    key = f"{INVALID},{filt}"
    if values := run.per_doc.get(key):
        return float(np.mean(list(values.values()))), len(values)
    if math.isfinite(run.results.get(key, math.nan)):
        return run.results[key], 0
    return None


def flagged(invalid: float | None, reference_invalid: float | None) -> bool:
    """Whether two invalid rates differ by more than `READ_GAP` (rounded to 1e-9 first: 0.20 - 0.15 is 5 points,
    not 5.000000000000002)."""
    if invalid is None or reference_invalid is None:
        return False
    return round(abs(invalid - reference_invalid), 9) > READ_GAP


def flag_text(invalid: float, reference_invalid: float, reference: str) -> str:
    """The flag with the two rates it comes from."""
    points = 100 * (invalid - reference_invalid)
    return f"{READER_FLAG} ({invalid:.4f} against {reference_invalid:.4f} in {reference}: {points:+.1f} points)"


@dataclass(frozen=True)
class ReaderCoverage:
    """One run's share of replies read on one task and filter, beside its reference language's task's."""

    model: str
    task: str
    filter: str
    invalid: float
    n: int  # replies in the sample log (0: the rate comes from the results file)
    reference: str | None  # the reference language's task (the task itself in its own row; None: not in the run)
    reference_invalid: float | None = None

    @property
    def read(self) -> float:
        return 1 - self.invalid

    @property
    def flagged(self) -> bool:
        return self.reference != self.task and flagged(self.invalid, self.reference_invalid)

    def reader_cell(self) -> str:
        """The table's last cell: the flag, or why there is none."""
        if self.reference is None:
            return "no reference task in the run"
        if self.reference == self.task:
            return "reference"
        if self.reference_invalid is None:
            return f"{self.reference} logs no invalid ({self.filter})"
        if self.flagged:
            return flag_text(self.invalid, self.reference_invalid, self.reference)
        return f"within {100 * READ_GAP:.0f} points"


def reader_coverage(runs: list[TaskRun]) -> list[ReaderCoverage]:
    """A row per run, task and filter that logs `invalid` (a generative choice task), by run, family, reference task
    (its own row first), task and filter."""
    tasks_of: dict[str, dict[str, TaskRun]] = {}
    for run in runs:
        tasks_of.setdefault(run.model, {})[run.task] = run
    out = []
    for model, tasks in tasks_of.items():
        for task, run in tasks.items():
            if (family := family_of(task)) is None:
                continue
            filters = sorted({key.partition(",")[2] or "none" for key in {*run.per_doc, *run.results}
                              if key.partition(",")[0] == INVALID})  # fmt: skip
            reference = family.reference_of(task, tasks)
            for filt in filters:
                if (mine := invalid_rate(run, filt)) is None:
                    continue  # not a number in the results file and no sample log: shown as n/a in its tables
                theirs = invalid_rate(tasks[reference], filt) if reference is not None else None
                out.append(ReaderCoverage(model, task, filt, *mine, reference, theirs[0] if theirs else None))
    order = {model: i for i, model in enumerate(tasks_of)}
    return sorted(
        out,
        key=lambda c: (order[c.model], family_of(c.task).prefix, c.reference or c.task, c.task != c.reference, c.task,
                       c.filter),
    )  # fmt: skip


def reader_flags(coverage: list[ReaderCoverage]) -> dict[tuple[str, str, str], ReaderCoverage]:
    """{(run, task, filter): its coverage} for looking a gap's flag up."""
    return {(c.model, c.task, c.filter): c for c in coverage}


def pair_flag(
    coverage: dict[tuple[str, str, str], ReaderCoverage], model: str, task: str, reference: str, filt: str
) -> str:
    """The flag of a gap between `task` and `reference` (one run, one filter), "" when their invalid rates are
    within `READ_GAP` or either logs none."""
    mine, theirs = coverage.get((model, task, filt)), coverage.get((model, reference, filt))
    if mine is None or theirs is None or not flagged(mine.invalid, theirs.invalid):
        return ""
    return flag_text(mine.invalid, theirs.invalid, reference)


COVERAGE_NOTE = (
    "Share of replies read: 1 - invalid, the share the reader could read, per task and filter, against the reference "
    f"language's task of the same variant. A difference of more than {100 * READ_GAP:.0f} points in invalid is "
    "flagged: part of that language's gap may be the reader's, not the model's."
)
COVERAGE_HEADER = ["Run", "Task", "Filter", "Read (1 - invalid)", "Invalid", "n", "Reference", "Reference invalid",
                   "Invalid - reference (points)", "Reader"]  # fmt: skip


def coverage_cells(coverage: list[ReaderCoverage]) -> list[list[str]]:
    """The rows of a reader-coverage table (`COVERAGE_HEADER`)."""
    rows = []
    for c in coverage:
        other = c.reference is not None and c.reference != c.task and c.reference_invalid is not None
        rows.append([c.model, c.task, c.filter, f"{c.read:.4f}", f"{c.invalid:.4f}", str(c.n), c.reference or "-",
                     f"{c.reference_invalid:.4f}" if other else "-",
                     f"{100 * (c.invalid - c.reference_invalid):+.1f}" if other else "-", c.reader_cell()])  # fmt: skip
    return rows
