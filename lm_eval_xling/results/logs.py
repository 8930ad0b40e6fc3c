"""Read what lm-eval writes: sample logs (`--log_samples`) and the results files beside them."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from lm_eval.utils import handle_non_serializable, hash_string

from lm_eval_xling.data import jsonl_lines
from lm_eval_xling.errors import UserError
from lm_eval_xling.files import parse_json

_SAMPLES_NAME = re.compile(r"^samples_(?P<task>.+)_\d{4}-\d{2}-\d{2}T[\d\-.]+$")


class SamplesError(UserError):
    """A samples file is unreadable or does not match the task it is scored with."""


def task_name_from_path(path: Path) -> str | None:
    """lm-eval names sample logs `samples_<task>_<date>.jsonl`; return <task>, or None."""
    match = _SAMPLES_NAME.match(path.stem)
    return match["task"] if match else None


def sample_lines(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, sample) for every line of a sample log, checked: a JSON object whose doc_id is a non-negative
    integer, and no (doc_id, filter) twice. lm-eval writes one line per document and filter, so a repeated one is a
    log joined or edited by hand, and which of the two lines counts would be a guess: it is refused, everywhere."""
    first_seen: dict[tuple[int, str], int] = {}
    for line_no, sample in jsonl_lines(path, SamplesError):
        if not isinstance(sample, dict):
            raise SamplesError(f"{path}:{line_no}: expected a JSON object, got {type(sample).__name__}")
        if "doc_id" not in sample:
            raise SamplesError(f"{path}:{line_no}: field 'doc_id' is missing")
        doc_id = sample["doc_id"]
        if isinstance(doc_id, bool) or not isinstance(doc_id, int) or doc_id < 0:
            raise SamplesError(f"{path}:{line_no}: field 'doc_id' is {doc_id!r:.40}; expected a non-negative integer")
        if not isinstance(sample.get("metrics", []), list):
            raise SamplesError(f"{path}:{line_no}: field 'metrics' is {sample['metrics']!r:.40}; expected a list")
        key = (doc_id, str(sample.get("filter", "none")))
        if key in first_seen:
            raise SamplesError(
                f"{path}:{line_no}: doc_id {doc_id} (filter {key[1]!r}) is logged again (first at line "
                f"{first_seen[key]}); lm-eval logs each document once per filter"
            )
        first_seen[key] = line_no
        yield line_no, sample


def read_samples(path: Path) -> dict[int, dict[str, Any]]:
    """One logged sample per doc_id (lm-eval writes a line per doc and filter; the resps are the same)."""
    by_doc: dict[int, dict[str, Any]] = {}
    for line_no, sample in sample_lines(path):
        for key in ("doc", "resps"):
            if key not in sample:
                raise SamplesError(f"{path}:{line_no}: field {key!r} is missing")
        by_doc.setdefault(sample["doc_id"], sample)
    if not by_doc:
        raise SamplesError(f"{path}: no samples")
    return by_doc


def doc_hash(doc: dict[str, Any]) -> str:
    """lm-eval's `doc_hash` of a document, as written in sample logs."""
    return hash_string(json.dumps(doc, indent=2, default=handle_non_serializable, ensure_ascii=False))


def logged_doc_hash(sample: dict[str, Any]) -> str:
    """A sample line's `doc_hash`, computed from its `doc` where the log has none."""
    return sample.get("doc_hash") or doc_hash(sample["doc"])


def model_args_dict(value: Any) -> dict[str, Any]:
    """model_args as lm-eval parses them: it logs a dict (0.4.13) or the command line's 'k=v,k=v' string (older
    0.4.x); a command line's string is parsed the same way."""
    if isinstance(value, dict):
        return value
    if isinstance(value, str) and value:
        from lm_eval.utils import simple_parse_args_string

        return simple_parse_args_string(value)
    return {}


HARNESS_METADATA = {"version", "config_source"}  # set per task by its YAML and by lm-eval; not run arguments


def read_results(path: Path) -> dict[str, Any]:
    """A results file lm-eval wrote, parsed; SamplesError naming it when it is not one."""
    try:
        data = parse_json(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise SamplesError(f"{path}: not readable as JSON ({err})") from err
    if not isinstance(data, dict) or not isinstance(data.get("results"), dict):
        raise SamplesError(f"{path}: field 'results' is missing or not an object; not an lm-eval results file")
    for field in _OBJECTS:
        if data.get(field) is not None and not isinstance(data[field], dict):
            raise SamplesError(f"{path}: field {field!r} is {type(data[field]).__name__}; expected an object")
    for field in _OBJECTS_OF_OBJECTS:
        for task, entry in (data.get(field) or {}).items():
            if not isinstance(entry, dict):
                raise SamplesError(f"{path}: field '{field}.{task}' is {type(entry).__name__}; expected an object")
    return data


_OBJECTS_OF_OBJECTS = ("results", "configs", "n-samples")  # {task: {...}}
_OBJECTS = (*_OBJECTS_OF_OBJECTS, "config", "versions", "group_subtasks", "task_hashes")


def results_beside(path: Path) -> Path:
    """The results file lm-eval wrote in the same run as the sample log `path` (same stamp); it may be absent."""
    return path.with_name(f"results_{path.stem.rsplit('_', 1)[-1]}.json")


def check_pairing(results: Path, data: dict[str, Any], task: str, samples: Path) -> None:
    """Refuse a sample log other than the one the results file `results` (parsed: `data`) was computed from for
    `task`. lm-eval records per task the hash of the samples it logged (`task_hashes`: their doc, prompt and target
    hashes in order) and how many documents it evaluated (`n-samples`); each that `data` holds is checked."""
    if task not in data["results"]:
        raise SamplesError(
            f"{samples}: {results.name} beside it has no results for {task}; not a log of that run (a renamed log?)"
        )
    lines = [sample for _, sample in sample_lines(samples)]
    expected = (data.get("task_hashes") or {}).get(task)
    if expected:
        parts = (str(s.get(k, "")) for s in lines for k in ("doc_hash", "prompt_hash", "target_hash"))
        if hash_string("".join(parts)) != expected:
            raise SamplesError(
                f"{samples}: not the sample log {results.name} was computed from (its samples do not hash to "
                f"task_hashes.{task} there: other documents, prompts or answers, or an edited log)"
            )
    counted = ((data.get("n-samples") or {}).get(task) or {}).get("effective")
    documents = len({s["doc_id"] for s in lines})
    if isinstance(counted, int) and counted != documents:
        raise SamplesError(
            f"{samples}: {documents} documents, but {results.name} reports n-samples.{task}.effective {counted}; "
            "not the log those results were computed from"
        )
