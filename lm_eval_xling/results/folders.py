"""The one reader of lm-eval output folders (`--output_path`).

lm-eval writes `results_<stamp>.json` and, with `--log_samples`, one `samples_<task>_<stamp>.jsonl` per task with
the same stamp (an ISO date, so names sort by time). One rule everywhere: the newest file wins, and a results file
is backed by the sample logs of its own stamp.
"""

from __future__ import annotations

import fcntl
import json
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lm_eval_xling.errors import UserError
from lm_eval_xling.files import parse_json
from lm_eval_xling.redact import without_credentials
from lm_eval_xling.results.logs import (
    SamplesError,
    check_pairing,
    model_args_dict,
    read_results,
    task_name_from_path,
)

_SEEDS = ("random_seed", "numpy_seed", "torch_seed", "fewshot_seed")
_DEFAULT_SEEDS = (0, 1234, 1234, 1234)  # lm_eval's --seed default


@dataclass(frozen=True)
class ResultsFile:
    """One results file lm-eval wrote, parsed."""

    path: Path
    data: dict[str, Any]

    @property
    def stamp(self) -> str:
        return self.path.stem.removeprefix("results_")

    def samples_path(self, task: str) -> Path:
        """The sample log lm-eval wrote for `task` in the same run (it may be absent)."""
        return self.path.with_name(f"samples_{task}_{self.stamp}.jsonl")

    def checked_samples_path(self, task: str) -> Path | None:
        """`samples_path(task)` when it exists, after checking that it is the log these results were computed
        from (`check_pairing`); None when absent."""
        path = self.samples_path(task)
        if not path.is_file():
            return None
        check_pairing(self.path, self.data, task, path)
        return path


def _folder(folder: Path) -> Path:
    if not folder.is_dir():
        raise SamplesError(f"{folder}: not a folder")
    return folder


def results_files(folder: Path) -> list[ResultsFile]:
    """Every results file under `folder`, oldest first; an unreadable one is an error naming it."""
    paths = sorted(_folder(folder).rglob("results_*.json"), key=lambda p: (p.name, str(p)))
    if not paths:
        raise SamplesError(f"{folder}: no results_<date>.json below it (an lm_eval --output_path folder is expected)")
    return [_read_results(path) for path in paths]


def _read_results(path: Path) -> ResultsFile:
    return ResultsFile(path, read_results(path))


def sample_logs(folder: Path) -> dict[str, Path]:
    """{task: its newest samples_<task>_<stamp>.jsonl} anywhere under `folder`."""
    found: dict[str, Path] = {}
    for path in _folder(folder).rglob("samples_*.jsonl"):
        task = task_name_from_path(path)
        if task is not None and (task not in found or path.name > found[task].name):
            found[task] = path
    return found


def logged_documents(path: Path) -> int | None:
    """The number of documents a sample log holds (lm-eval writes a line per document and filter), when every line
    is a whole JSON object and the file ends with a newline; else None."""
    try:
        text = path.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    if not text.endswith("\n"):
        return None
    try:
        samples = [parse_json(line) for line in text.splitlines()]
    except json.JSONDecodeError:
        return None
    if not all(isinstance(s, dict) for s in samples):
        return None
    return len({json.dumps(s.get("doc_id")) for s in samples})


def results_written(output: Path, since: float) -> list[Path]:
    """The results files lm_eval wrote for `--output_path output` since `since` (time.time()): under the folder, or
    beside a `.json` path as `<stem>_<date>.json`, as lm-eval names them."""
    output = Path(output)
    found = output.parent.glob(f"{output.stem}_*.json") if output.suffix == ".json" else output.rglob("results_*.json")
    try:
        return sorted(path for path in found if path.stat().st_mtime >= since)
    except OSError:
        return []


def _option(command: list[str], flag: str) -> str | None:
    """The value of `flag` in an lm_eval command line (`--flag value` or `--flag=value`), the last one given."""
    found = None
    for i, arg in enumerate(command):
        if arg == flag and i + 1 < len(command):
            found = command[i + 1]
        elif arg.startswith(f"{flag}="):
            found = arg.split("=", 1)[1]
    return found


def ran(command: list[str]) -> Callable[[ResultsFile], bool]:
    """The `same_run` test of a staged command: a results file counts for `command` (an lm_eval command line) only
    where it was written by the same model, model_args (credentials aside: a rotated key asks the same, and the
    results files our commands leave hold none), --limit and --seed. The one check of run identity of every
    resumable command: a finished folder of another model or limit is never taken for this run's."""
    model, args = _option(command, "--model"), without_credentials(model_args_dict(_option(command, "--model_args")))
    limit = _option(command, "--limit")
    seed = _option(command, "--seed")
    seeds = [int(s) if s.strip().lower() != "none" else None for s in seed.split(",")] if seed else []
    seeds = (seeds * 4 if len(seeds) == 1 else seeds + list(_DEFAULT_SEEDS[len(seeds) :]))[:4]

    def same(results: ResultsFile) -> bool:
        config = results.data.get("config", {})
        logged_limit = config.get("limit")
        return (
            config.get("model") == model
            and without_credentials(model_args_dict(config.get("model_args"))) == args
            and (None if logged_limit is None else float(logged_limit)) == (None if limit is None else float(limit))
            and [config.get(key, default) for key, default in zip(_SEEDS, _DEFAULT_SEEDS, strict=True)] == seeds
        )

    return same


def complete_samples(
    folder: Path, task: str, same_run: Callable[[ResultsFile], bool] = lambda results: True
) -> Path | None:
    """The newest complete sample log of `task` under `folder`, or None: a results file of its own run (one that
    `same_run` accepts) counts its samples, and the log holds exactly as many documents in whole JSON lines,
    newline-terminated.
    The rule by which a staged command counts a stage as done: a run killed mid-write (a torn log, a torn or missing
    results file) is not."""
    if not folder.is_dir():
        return None
    for path in sorted(folder.rglob("results_*.json"), key=lambda p: (p.name, str(p)), reverse=True):
        try:
            results = _read_results(path)
        except SamplesError:
            continue
        log, counts = results.samples_path(task), results.data.get("n-samples")
        if task not in results.data["results"] or not log.is_file() or not same_run(results):
            continue
        expected = counts.get(task, {}).get("effective") if isinstance(counts, dict) else None
        if expected is not None and logged_documents(log) == expected:
            return log
    return None


LOCK_NAME = ".lm-eval-xling.lock"


@contextmanager
def held(folder: Path, command: str) -> Iterator[None]:
    """The output folder of a resumable command, held while the command runs: a second run on it, which would pay
    for every stage the first is running, is refused with one line naming the first. The system lets go of the
    hold when its process ends, however it ends, so no stale lock is left behind."""
    folder.mkdir(parents=True, exist_ok=True)
    with (folder / LOCK_NAME).open("a+", encoding="utf-8") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            lock.seek(0)
            owner = lock.read().strip() or "another run"
            raise UserError(
                f"{folder}: {owner} is writing here; wait for it to end (the same command then resumes from its "
                "finished stages) or choose another output folder"
            ) from None
        lock.seek(0)
        lock.truncate()
        lock.write(f"{command} (pid {os.getpid()})")
        lock.flush()
        yield
