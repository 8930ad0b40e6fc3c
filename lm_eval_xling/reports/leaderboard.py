"""A leaderboard submission from an lm-eval results folder (`lm-eval-xling submit`).

The folder is what `lm_eval --output_path DIR --log_samples` writes: `DIR/<model>/results_<date>.json` and, per
task, `samples_<task>_<date>.jsonl` with the same date. Either DIR or DIR/<model> may be given; all results files
below it must be of one run configuration (`lm_eval_xling.results.runs`: model, model_args, gen_kwargs, chat
template, few-shot layout, system instruction, limit). When there are several, each task (or group) is taken from
the newest results file that has it: a rerun replaces the older run of the same tasks, and runs of different tasks
are merged.

The file written is what the Hugging Face leaderboard template (demo-leaderboard-backend, open_llm_leaderboard style)
ingests: `{"config": {"model_name", "model_sha", "model_dtype"}, "results": {task: {metric: score}}}`, with metric
names without their ",filter" where a task has one filter. Extra top-level keys record the run: `model_args`,
`versions` (lm_eval, lm_eval_xling, per task), `datasets` (per task: dataset_path, dataset_name, dataset_kwargs, and
`revision` when the config pins one, else `docs_sha256`: the sha256 of the task's sorted per-document `doc_hash`
values joined by newlines), `ci` (the 95% interval the task reports beside a metric, else score +- 1.96 stderr, null
where lm-eval has no stderr), `samples` (sample log name, sha256 of its bytes, and `responses_sha256`: of each
document's doc_hash and raw responses, so a log whose replies were edited no longer matches however it is
re-serialised), and `run`: how the numbers were made (date, limit, per task n-samples original/effective and
num_fewshot, gen_kwargs, whether a chat template was applied and its hash, few-shot as multi-turn, the system
instruction's hash, thinking settings found in the model arguments, every task's notes such as QUENCH's BERTScore
stand-in, and `partial`). `leaderboard_schema.json` describes the file; every file is validated against it before it
is written.

A run on part of the documents (`--limit`, or fewer documents evaluated than the task has) is refused unless
`allow_partial` (`--allow_partial`), and then `run.partial` is true. A metric that is not a finite number (NaN: a
jury with no valid verdict) is left out and listed in `removed` with its reason; a share (accuracy, a rate, an F1)
outside [0, 1] is refused, naming task, metric and file.

A leaderboard file is public, so nothing in it may name a secret, a host or a machine (`lm_eval_xling.redact`):
credentials in the model or dataset arguments (`api_key`, `auth_token`, `user:pass@host`, ...) and hosts (`base_url`,
`host:port`) are dropped, and local paths, `model_name` included, become `local:<folder name>:<id>`
(`redact.local_reference`). The run still counts: a credential or a host does not change what was evaluated, so the
submission is written, and `removed` lists every dropped or replaced field (the command prints it too; the results
folder itself still holds them and is not for publishing).

Refused, with every problem named: a task without its samples file, or with one that is not the log its results
were computed from (`results.logs.check_pairing`: lm-eval's `task_hashes` and `n-samples`), a task in the results'
`configs` or `group_subtasks` without a results entry, and a task or group whose logged version differs from the
version its YAML has now (as lm-eval's TaskManager indexes it; names it does not know are skipped with a note).
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from functools import cache
from pathlib import Path
from typing import Any

import lm_eval_xling
from lm_eval_xling.errors import UserError
from lm_eval_xling.files import write_file
from lm_eval_xling.redact import redact
from lm_eval_xling.results.folders import ResultsFile, results_files
from lm_eval_xling.results.logs import SamplesError, logged_doc_hash, model_args_dict, read_samples, sample_lines
from lm_eval_xling.results.metrics import finite_number, metric_values, out_of_range, own_interval
from lm_eval_xling.results.runs import Run, one_run, run_date

SCHEMA_PATH = Path(__file__).with_name("leaderboard_schema.json")
Z_95 = 1.96
DEFAULT_OUT = "leaderboard.json"


class LeaderboardError(UserError):
    """The results cannot be submitted, or a submission breaks the schema."""


@cache
def schema() -> dict[str, Any]:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


def validate(submission: Any) -> None:
    """Raise LeaderboardError naming every place where `submission` breaks the shipped schema."""
    from jsonschema import Draft202012Validator

    errors = sorted(Draft202012Validator(schema()).iter_errors(submission), key=lambda e: list(map(str, e.path)))
    if errors:
        lines = [f"{'/'.join(map(str, e.absolute_path)) or '(top level)'}: {e.message}" for e in errors]
        raise LeaderboardError("not a valid leaderboard submission:\n  - " + "\n  - ".join(lines))


def _groups(run: ResultsFile) -> dict[str, list[str]]:
    return run.data.get("group_subtasks") or {}


def _model_config(run: ResultsFile) -> tuple[dict[str, str], dict[str, Any]]:
    """(the template's config, model_args) of a run."""
    config = run.data.get("config") or {}
    args = model_args_dict(config.get("model_args"))
    name = run.data.get("model_name") or args.get("pretrained") or args.get("model")
    if not name:
        raise LeaderboardError(f"{run.path}: no model_name and no pretrained= in config.model_args")
    sha = run.data.get("model_name_sha") or config.get("model_sha") or ""
    dtype = args.get("dtype")
    if not dtype or dtype == "auto":  # the dtype the model was loaded in, as lm-eval's hf model reports it
        dtype = str(config.get("model_dtype") or "").removeprefix("torch.") or "unknown"
    return {"model_name": str(name), "model_sha": str(sha), "model_dtype": str(dtype)}, args


def _scores(values: dict[str, float]) -> tuple[dict[str, float], dict[str, list[float] | None]]:
    """({metric: score}, {metric: [low, high] or None}) of one task's `metric_values` ("metric,filter" keys)."""
    keys = [k for k in values if "_stderr," not in k]
    one_filter = len({k.split(",", 1)[1] for k in keys}) == 1
    scores: dict[str, float] = {}
    ci: dict[str, list[float] | None] = {}
    for key in keys:
        value = values[key]
        metric, filter_name = key.split(",", 1)
        name = metric if one_filter else key
        scores[name] = value
        stderr = values.get(f"{metric}_stderr,{filter_name}")
        if own := own_interval(values, key):
            ci[name] = list(own)
        else:
            ci[name] = None if stderr is None else [value - Z_95 * stderr, value + Z_95 * stderr]
    return scores, ci


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def docs_sha256(samples_path: Path) -> str:
    """sha256 of the newline-joined sorted `doc_hash` values of a sample log, one per document."""
    samples = read_samples(samples_path)
    hashes = sorted(logged_doc_hash(s) for s in samples.values())
    return hashlib.sha256("\n".join(hashes).encode()).hexdigest()


def _dataset(config: dict[str, Any], samples_path: Path) -> dict[str, Any]:
    kwargs = config.get("dataset_kwargs") or {}
    entry = {
        "dataset_path": config.get("dataset_path"),
        "dataset_name": config.get("dataset_name"),
        "dataset_kwargs": kwargs,
    }
    revision = kwargs.get("revision") or config.get("revision")
    if revision:
        entry["revision"] = str(revision)
    else:
        entry["docs_sha256"] = docs_sha256(samples_path)
    return entry


def _same_version(a: Any, b: Any) -> bool:
    if a == b or str(a) == str(b):
        return True
    try:
        return float(a) == float(b)
    except (TypeError, ValueError):
        return False


_UNKNOWN = object()


def current_version(task_manager: Any, name: str) -> Any:
    """The version the task's (or group's) YAML has now, as lm-eval's TaskManager sees it; _UNKNOWN when the
    TaskManager does not know the name or the version cannot be had without building the task and failed."""
    entry = task_manager.task_index.get(name)
    if entry is None:
        return _UNKNOWN
    metadata = (entry.cfg or {}).get("metadata")
    if isinstance(metadata, dict) and "version" in metadata:
        return metadata["version"]
    try:  # a Python task, or a YAML without metadata.version: the built task's VERSION (may load its dataset)
        return task_manager.load([name])["tasks"][name].VERSION
    except Exception:  # noqa: BLE001 - any failure to build means "not checked", reported as a note
        return _UNKNOWN


def check_versions(versions: dict[str, Any], task_manager: Any = None) -> tuple[list[str], list[str]]:
    """(problems, notes): a logged version that differs from the task's current one is a problem; a name lm-eval's
    TaskManager does not know is a note."""
    if task_manager is None:
        from lm_eval.tasks import TaskManager

        task_manager = TaskManager()
    problems, notes = [], []
    for name, logged in sorted(versions.items()):
        current = current_version(task_manager, name)
        if current is _UNKNOWN:
            notes.append(f"{name}: not known to lm-eval's TaskManager here; its version {logged!r} was not checked")
        elif not _same_version(logged, current):
            problems.append(
                f"{name}: results were produced with task version {logged!r}, but the task is now at version "
                f"{current!r} (rerun the task with the current version)"
            )
    return problems, notes


def _leaf_tasks(run: ResultsFile) -> set[str]:
    """Tasks the run must have results for: those in its configs, and the leaves of its group_subtasks."""
    groups = _groups(run)
    listed = {task for subtasks in groups.values() for task in subtasks if task not in groups}
    return set(run.data.get("configs") or {}) | listed


# Model arguments that switch a model's thinking (reasoning) mode on or off, or set its budget.
_THINKING = re.compile(r"think|reason", re.IGNORECASE)


def _checked_scores(
    run: ResultsFile, task: str, values: dict[str, float], removed: list[str], problems: list[str]
) -> dict[str, float]:
    """The task's numeric metric values (`values`, its `metric_values`); a value that is not a finite number is
    listed in `removed` with why, a share outside [0, 1] is a problem naming the file."""
    for key, value in (run.data["results"].get(task) or {}).items():
        if "," not in key or "_stderr," in key or finite_number(value) is not None:
            continue
        why = "NaN: nothing to average (e.g. no document with a valid verdict)" if _is_nan(value) else "not a number"
        removed.append(f"results.{task}.{key}: {value!r} is {why}; dropped")
    problems += [f"{task}: {line}, in {run.path}" for line in out_of_range(values)]
    return values


def _is_nan(value: Any) -> bool:
    return isinstance(value, float) and math.isnan(value)


def responses_sha256(samples_path: Path) -> str:
    """sha256 of each logged line's doc_id, filter, doc_hash and raw responses (sorted, canonical JSON): changes
    when a reply is edited, however the log is re-serialised."""
    lines = sorted(
        json.dumps([s["doc_id"], str(s.get("filter")), logged_doc_hash(s), s.get("resps")], ensure_ascii=False)
        for _, s in sample_lines(samples_path)
    )
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()


def _provenance(run: Run, source: dict[str, ResultsFile], leaves: list[str], removed: list[str]) -> dict[str, Any]:
    """How the numbers were made: the `run` entry of a submission (see the module docstring)."""
    newest = run.files[-1]
    config = newest.data.get("config") or {}
    data = newest.data
    n_samples = {task: dict((source[task].data.get("n-samples") or {}).get(task) or {}) for task in leaves}
    partial = config.get("limit") is not None or any(
        n.get("effective") is not None and n.get("effective") != n.get("original") for n in n_samples.values()
    )
    args = model_args_dict(config.get("model_args"))
    notes = {}
    for task in leaves:
        metadata = ((source[task].data.get("configs") or {}).get(task) or {}).get("metadata") or {}
        if task_notes := {k: str(v) for k, v in metadata.items() if k.endswith("_note")}:
            notes[task] = task_notes
    return {
        "date": run_date(newest),
        "partial": partial,
        "limit": config.get("limit"),
        "n_samples": n_samples,
        "num_fewshot": {task: (source[task].data.get("n-shot") or {}).get(task) for task in leaves},
        "gen_kwargs": redact(config.get("gen_kwargs") or {}, "run.gen_kwargs", removed),
        "apply_chat_template": bool(data.get("chat_template")),
        "chat_template_sha256": data.get("chat_template_sha"),
        "fewshot_as_multiturn": bool(data.get("fewshot_as_multiturn")),
        "system_instruction_sha256": data.get("system_instruction_sha"),
        "thinking": redact({k: v for k, v in args.items() if _THINKING.search(k)}, "run.thinking", removed),
        "notes": notes,
    }


def build_submission(
    results_dir: Path, task_manager: Any = None, allow_partial: bool = False
) -> tuple[dict[str, Any], list[str]]:
    """(the submission, notes) for the results below `results_dir`; LeaderboardError listing every problem."""
    run = one_run(results_files(results_dir), results_dir, "a submission")
    runs = run.files
    problems: list[str] = []
    for results in runs:
        for task in sorted(_leaf_tasks(results) - set(results.data["results"])):
            problems.append(f"{task}: listed in {results.path.name} (configs/group_subtasks) but has no results entry")
    source = run.tasks()  # the newest file of each name wins
    groups = {group for results in runs for group in _groups(results)}

    results: dict[str, dict[str, float]] = {}
    ci: dict[str, dict[str, list[float] | None]] = {}
    task_versions: dict[str, Any] = {}
    datasets: dict[str, dict[str, Any]] = {}
    samples: dict[str, dict[str, str]] = {}
    removed: list[str] = []
    numbers = {r.path: metric_values(r.data) for r in runs}
    for name, origin in sorted(source.items()):
        values = numbers[origin.path][name]
        results[name], ci[name] = _scores(_checked_scores(origin, name, values, removed, problems))
        task_versions[name] = (origin.data.get("versions") or {}).get(name)
        if name in groups:
            continue
        try:
            path = origin.checked_samples_path(name)
        except SamplesError as err:
            problems.append(f"{name}: {err}")
            continue
        if path is None:
            problems.append(
                f"{name}: no samples file {origin.samples_path(name).name} beside {origin.path.name} "
                "(lm_eval --log_samples)"
            )
            continue
        samples[name] = {"file": path.name, "sha256": sha256_file(path), "responses_sha256": responses_sha256(path)}
        config = (origin.data.get("configs") or {}).get(name)
        if config is None:
            problems.append(f"{name}: no entry in the 'configs' of {origin.path.name}")
            continue
        try:
            datasets[name] = _dataset(config, path)
        except SamplesError as err:
            problems.append(f"{name}: {err}")
    results = {name: scores for name, scores in results.items() if scores}
    ci = {name: ci[name] for name in results}

    version_problems, notes = check_versions({k: v for k, v in task_versions.items() if v is not None}, task_manager)
    problems += version_problems
    provenance = _provenance(run, source, sorted(set(source) - groups), removed)
    if provenance["partial"] and not allow_partial:
        limited = {t: n for t, n in provenance["n_samples"].items() if n.get("effective") != n.get("original")}
        counts = ", ".join(f"{t} {n.get('effective')} of {n.get('original')}" for t, n in sorted(limited.items()))
        problems.append(
            f"a partial run (limit {run.settings['limit']}; documents evaluated: {counts or 'see n-samples'}): "
            "its numbers are not the benchmark's; rerun without --limit, or pass --allow_partial to submit it "
            "marked partial"
        )
    if problems:
        raise LeaderboardError(f"refusing {results_dir}:\n  - " + "\n  - ".join(problems))

    newest = runs[-1]
    model, model_args = _model_config(newest)
    model = redact(model, "config", removed)
    model_args = redact(model_args, "model_args", removed)
    datasets = {name: redact(entry, f"datasets.{name}", removed) for name, entry in datasets.items()}
    lm_eval_versions = {results.data.get("lm_eval_version") for results in runs} - {None}
    if len(lm_eval_versions) > 1:
        notes.append(f"results made with lm_eval {sorted(lm_eval_versions)}; recording the newest run's")
    submission = {
        "config": model,
        "results": results,
        "model_args": model_args,
        "versions": {
            "lm_eval": str(newest.data.get("lm_eval_version") or _installed("lm_eval")),
            "lm_eval_xling": lm_eval_xling.__version__,
            "tasks": task_versions,
        },
        "datasets": datasets,
        "ci": ci,
        "samples": samples,
        "run": provenance,
        "removed": removed,
    }
    if removed:
        notes.append(
            "not published (the results files beside still hold them: do not publish the folder):\n    "
            + "\n    ".join(removed)
        )
    if provenance["partial"]:
        notes.append("a partial run: submitted with run.partial true")
    if len(runs) > 1:
        notes.append(f"merged {len(runs)} results files; each task taken from the newest that has it")
    return submission, notes


def _installed(package: str) -> str:
    from importlib.metadata import version

    return version(package)


def write_submission(
    results_dir: Path, out: Path | None = None, task_manager: Any = None, allow_partial: bool = False
) -> tuple[Path, dict[str, Any], list[str]]:
    """Build, validate and write the submission (default: RESULTS_DIR/leaderboard.json); (path, submission, notes)."""
    submission, notes = build_submission(results_dir, task_manager, allow_partial)
    text = json.dumps(submission, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    validate(json.loads(text))
    out = out or results_dir / DEFAULT_OUT
    write_file(out, text)
    return out, submission, notes
