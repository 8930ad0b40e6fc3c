"""A leaderboard submission as the Hugging Face Hub's eval results: one `.eval_results/<task>.yaml` per task, for the
model repo (`lm-eval-xling submit --format hub`), so that the model page shows the numbers and the benchmark
dataset's leaderboard (declared by the `eval.yaml` in `hub_datasets/<name>/`) collects them.

Format: the Hub's "Evaluation Results" documentation (hub-docs `docs/hub/eval-results.md` and its spec
`eval_results.yaml`): a YAML list of entries `{dataset: {id, task_id, revision?}, value, date?, source?, notes?,
evaluation_framework?}`. An entry has no metric name: a Hub leaderboard (one per `task_id`) ranks one value per model,
so each task gets one entry, the value of its main metric (`main_metric`), named in `notes`. Written per task:
- `dataset.id`: the task's `dataset_path` (a task read from a local folder has no Hub id and is left out);
  `dataset.task_id`: the lm-eval task name; `dataset.revision`: the revision the task pins, if any. Otherwise the
  documents scored are identified by the submission's `docs_sha256`, given in `notes` as such (it is no git revision).
- `value`: the submission's number, unchanged; a task whose main metric is not a finite number gets no file.
- `date`: the `date` argument, else the submission's run date, as an ISO-8601 string (UTC); none if neither is known.
- `evaluation_framework`: `lm-eval`, as in our `eval.yaml` files.
- `notes`: the metric, `lm-eval-xling <version> (lm-eval <version>)`, the docs_sha256, and first of all, for a
  partial run (`run.partial`, a `limit`, or fewer documents evaluated than the task has), that it is partial.
No `source`: the format requires a `url` in it, and these files name no URL, host or path; the provenance is in
`notes`. Groups (a mean over tasks, with no `datasets` entry) are left out.
"""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Mapping
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import yaml

import lm_eval_xling
from lm_eval_xling.errors import UserError
from lm_eval_xling.files import write_file

log = logging.getLogger(__name__)

FRAMEWORK = "lm-eval"  # `evaluation_framework` of the entries and of hub_datasets/*/eval.yaml
# The metric a task's leaderboard ranks: the first of these the task reports (metric names, not task names), else
# the task's first metric. Only metrics every run of a task reports: a judge-dependent one (QUENCH's jury_mean)
# would make one task's leaderboard rank different metrics for different models.
MAIN_METRICS = ("acc", "acc_norm", "exact_match", "macro_f1", "f1", "rougeL", "rouge_l")
_HUB_ID = re.compile(r"^[A-Za-z0-9][\w.-]*/[A-Za-z0-9][\w.-]*$")
_UNSAFE_FILE_CHARS = re.compile(r"[^\w.-]")


class HubResultsError(UserError):
    """The submission cannot be written as Hub eval results."""


def main_metric(scores: Mapping[str, Any]) -> str | None:
    """The key of `scores` (a task's `{metric or "metric,filter": value}`) that its Hub entry reports: the first
    metric of MAIN_METRICS present (its first filter, the task's own order), else the first key; None if empty."""
    for name in MAIN_METRICS:
        for key in scores:
            if key.split(",", 1)[0] == name:
                return key
    return next(iter(scores), None)


def _finite(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def iso_date(value: Any, where: str) -> str:
    """`value` (ISO-8601, or the submission's "YYYY-MM-DD HH:MM" UTC) as an ISO-8601 string: a date as it is, a
    datetime in UTC (`...Z`; one without a zone is taken as UTC)."""
    text = str(value).strip()
    try:
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
            return datetime.strptime(text, "%Y-%m-%d").date().isoformat()
        moment = datetime.fromisoformat(text.removesuffix("Z") + ("+00:00" if text.endswith("Z") else ""))
    except ValueError:
        raise HubResultsError(f"{where}: {text!r} is not an ISO-8601 date or datetime") from None
    moment = moment.replace(tzinfo=timezone.utc) if moment.tzinfo is None else moment.astimezone(timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def partial_note(submission: Mapping[str, Any], task: str) -> str | None:
    """Why `task`'s numbers are of a partial run (a `partial` flag, a `limit`, fewer documents evaluated than the
    task has), or None for a full run."""
    run = submission.get("run") or {}
    dataset = (submission.get("datasets") or {}).get(task) or {}
    limit = next((v for v in (dataset.get("limit"), run.get("limit"), submission.get("limit")) if v is not None), None)
    counts = (run.get("n_samples") or submission.get("n-samples") or {}).get(task) or {}
    effective, original = counts.get("effective"), counts.get("original")
    short = effective is not None and original is not None and effective != original
    if not (run.get("partial") or submission.get("partial") or limit is not None or short):
        return None
    details = [
        f"{effective} of {original} documents" if short else None,
        f"limit {limit}" if limit is not None else None,
    ]
    found = ", ".join(d for d in details if d)
    return "PARTIAL RUN, not comparable with full runs" + (f" ({found})" if found else "")


def hub_entry(submission: Mapping[str, Any], task: str, date: str | None) -> dict[str, Any] | None:
    """The Hub entry of one task, or None (with a warning) when it cannot have one: no Hub dataset id, no finite
    main metric."""
    dataset = (submission.get("datasets") or {}).get(task) or {}
    dataset_id = dataset.get("dataset_path")
    if not isinstance(dataset_id, str) or not _HUB_ID.match(dataset_id):
        log.warning("%s: dataset %r is no Hub dataset id: no Hub eval result written", task, dataset_id)
        return None
    scores = (submission.get("results") or {}).get(task) or {}
    metric = main_metric(scores)
    if metric is None or not _finite(scores[metric]):
        log.warning("%s: main metric %s is not a finite number: no Hub eval result written", task, metric)
        return None
    versions = submission.get("versions") or {}
    ours = versions.get("lm_eval_xling") or lm_eval_xling.__version__
    notes = [f"metric {metric.replace(',', ', filter ')}", f"lm-eval-xling {ours} (lm-eval {versions.get('lm_eval')})"]
    reference: dict[str, Any] = {"id": dataset_id, "task_id": task}
    if dataset.get("revision"):
        reference["revision"] = str(dataset["revision"])
    elif dataset.get("docs_sha256"):
        notes.append(f"no dataset revision pinned; documents scored: docs_sha256 {dataset['docs_sha256']}")
    if partial := partial_note(submission, task):
        notes.insert(0, partial)
    entry: dict[str, Any] = {"dataset": reference, "value": scores[metric]}
    if date:
        entry["date"] = date
    entry["evaluation_framework"] = FRAMEWORK
    entry["notes"] = "; ".join(notes)
    return entry


def _header(task: str, entry: dict[str, Any]) -> str:
    lines = [
        f"Hugging Face Hub eval result (.eval_results format) of lm-eval task {task}, written by lm-eval-xling",
        "from a leaderboard submission (`lm-eval-xling submit --format hub`); value: the submission's, unchanged.",
    ]
    if "revision" not in entry["dataset"]:
        lines += [
            "dataset.revision is absent: the task pins no dataset revision. The documents scored are identified by",
            "docs_sha256 in notes: the sha256 of the task's sorted per-document doc_hash values (not a git revision).",
        ]
    if entry["notes"].startswith("PARTIAL"):
        lines.append("A PARTIAL run: only part of the task's documents were evaluated (see notes).")
    return "".join(f"# {line}\n" for line in lines)


def write_hub_results(submission: dict, out_dir: Path, date: str | None = None) -> list[Path]:
    """Write `<task>.yaml` in `out_dir` (the model repo's `.eval_results/` folder) for every task of the submission
    that can have a Hub entry (`hub_entry`); `date` (ISO-8601) overrides the submission's run date. Returns the paths
    written, in task order."""
    when = date if date is not None else (submission.get("run") or {}).get("date") or submission.get("date")
    when = iso_date(when, "date" if date is not None else "submission run.date") if when else None
    out_dir = Path(out_dir)
    written = []
    for task in sorted(submission.get("datasets") or {}):
        entry = hub_entry(submission, task, when)
        if entry is None:
            continue
        out_dir.mkdir(parents=True, exist_ok=True)
        path = out_dir / f"{_UNSAFE_FILE_CHARS.sub('_', task)}.yaml"
        if path in written:
            raise HubResultsError(f"{task}: its file name {path.name} is that of another task already written")
        text = yaml.safe_dump([entry], sort_keys=False, allow_unicode=True, width=1000)
        write_file(path, _header(task, entry) + text)
        written.append(path)
    return written
