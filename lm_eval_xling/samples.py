"""Read lm-eval `--log_samples` files and re-score them through the task's own filters and metrics.

Scoring replays the logged raw responses (`resps`) through `lm_eval.evaluator.evaluate` with a model that
answers every request from the log, so filters, metrics, aggregation and stderr are computed by exactly the
code path of a live run.
"""

from __future__ import annotations

import json
import math
import re
from collections import defaultdict
from pathlib import Path
from typing import Any

import datasets
from lm_eval.api.model import LM
from lm_eval.utils import handle_non_serializable, hash_string

from lm_eval_xling.data import jsonl_lines

_SAMPLES_NAME = re.compile(r"^samples_(?P<task>.+)_\d{4}-\d{2}-\d{2}T[\d\-.]+$")


class SamplesError(ValueError):
    """A samples file is unreadable or does not match the task it is scored with."""


def task_name_from_path(path: Path) -> str | None:
    """lm-eval names sample logs `samples_<task>_<date>.jsonl`; return <task>, or None."""
    match = _SAMPLES_NAME.match(path.stem)
    return match["task"] if match else None


def latest_samples(output_path: Path, task: str) -> Path | None:
    """The newest `samples_<task>_<date>.jsonl` lm-eval wrote under `output_path`, or None."""
    found = [p for p in output_path.rglob(f"samples_{task}_*.jsonl") if task_name_from_path(p) == task]
    return max(found, key=lambda p: p.name, default=None)


def read_samples(path: Path) -> dict[int, dict[str, Any]]:
    """One logged sample per doc_id (lm-eval writes a line per doc and filter; the resps are the same)."""
    by_doc: dict[int, dict[str, Any]] = {}
    for line_no, sample in jsonl_lines(path, SamplesError):
        for key in ("doc_id", "doc", "resps"):
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


def _decode(request_type: str, resp: Any) -> Any:
    """Undo the log's JSON encoding: lm-eval writes loglikelihoods as strings ("-30.1", "False")."""
    if request_type == "loglikelihood":
        logprob, is_greedy = resp
        return float(logprob), is_greedy in (True, "True")
    if request_type == "loglikelihood_rolling":
        return float(resp)
    return resp


class ReplayLM(LM):
    """A model that answers each request with the raw response logged for it."""

    def __init__(self, samples: dict[int, dict[str, Any]], doc_ids: list[int], source: Path):
        super().__init__()
        self._samples = samples
        self._doc_ids = doc_ids  # position in the evaluated subset -> logged doc_id
        self._source = source
        self._served: dict[tuple[int, int], int] = defaultdict(int)

    def _replay(self, requests) -> list[Any]:
        out = []
        for req in requests:
            doc_id = self._doc_ids[req.doc_id]
            sample = self._samples[doc_id]
            if "doc_hash" in sample and doc_hash(req.doc) != sample["doc_hash"]:
                raise SamplesError(
                    f"{self._source} doc_id {doc_id}: the logged document differs from the task's "
                    "dataset (was the log made on another dataset version?)"
                )
            repeat = self._served[doc_id, req.idx]
            self._served[doc_id, req.idx] += 1
            try:
                resp = sample["resps"][req.idx][repeat]
            except (IndexError, TypeError) as err:
                raise SamplesError(
                    f"{self._source} doc_id {doc_id}: field 'resps' has no response for request "
                    f"{req.idx} (repeat {repeat})"
                ) from err
            out.append(_decode(req.request_type, resp))
        return out

    generate_until = loglikelihood = loglikelihood_rolling = _replay


_HARNESS_METADATA = {"version", "config_source"}  # set per task by its YAML and by lm-eval; not run arguments


def run_config(path: Path, task: str) -> dict[str, Any]:
    """The task's config as the logged run used it, from the results file lm-eval wrote beside the samples file
    (same timestamp); {} when that file is absent."""
    stamp = path.stem.rsplit("_", 1)[-1]
    results = path.with_name(f"results_{stamp}.json")
    if not results.is_file():
        return {}
    return json.loads(results.read_text(encoding="utf-8")).get("configs", {}).get(task, {})


def _logged(path: Path, task: str | None) -> tuple[str, dict[int, dict[str, Any]], list[int]]:
    """(task name, samples by doc_id, sorted doc_ids) of a samples file."""
    task = task or task_name_from_path(path)
    if task is None:
        raise SamplesError(f"{path}: cannot tell the task from the file name; pass --task NAME (compare: --task-a)")
    samples = read_samples(path)
    return task, samples, sorted(samples)


def score_samples(
    path: Path, task: str | None = None, metadata: dict | None = None, bootstrap_iters: int = 100_000
) -> dict[str, Any]:
    """Re-score one samples file; return lm-eval's results dict (with "results", "versions", ...).

    The task is built as the run used it: with the run's `--metadata` (e.g. a translated docs file), updated with
    `metadata`, and its generation settings (`--gen_kwargs`), both read by `run_config`."""
    from lm_eval.evaluator import evaluate
    from lm_eval.tasks import TaskManager

    task, samples, doc_ids = _logged(path, task)
    config = run_config(path, task)
    run_meta = {k: v for k, v in config.get("metadata", {}).items() if k not in _HARNESS_METADATA}
    task_dict = TaskManager(metadata=run_meta | (metadata or {}) or None).load([task])
    if config.get("generation_kwargs"):
        task_dict["tasks"][task].set_config(key="generation_kwargs", value=config["generation_kwargs"])
    prefix = doc_ids == list(range(len(doc_ids)))
    results = evaluate(
        lm=ReplayLM(samples, doc_ids, path),
        task_dict=task_dict,
        limit=len(doc_ids) if prefix else None,
        samples=None if prefix else {task: doc_ids},
        bootstrap_iters=bootstrap_iters,
        log_samples=False,
    )
    return results


def replay_samples(path: Path, task: str | None = None) -> tuple[Any, list[dict[str, Any]]]:
    """(the task, the samples lm-eval logs for it) with every filter re-applied to the logged raw responses.

    The task runs on the documents as logged (its dataset is swapped for them through lm-eval's task overrides
    in an inline group), so any task's log replays without its dataset: a built-in task whose data is on the
    Hub, or a run on translated documents."""
    from lm_eval.evaluator import evaluate
    from lm_eval.tasks import TaskManager

    task, samples, doc_ids = _logged(path, task)
    logged = datasets.DatasetDict({"test": datasets.Dataset.from_list([samples[i]["doc"] for i in doc_ids])})
    overrides = {
        "task": task,
        "custom_dataset": lambda **_: logged,
        "test_split": "test",
        **dict.fromkeys(("training_split", "validation_split", "fewshot_split", "process_docs", "dataset_name")),
        "num_fewshot": 0,
    }
    task_dict = TaskManager().load([{"group": "lm_eval_xling_replay", "task": [overrides]}])
    results = evaluate(lm=ReplayLM(samples, doc_ids, path), task_dict=task_dict, bootstrap_iters=0, log_samples=True)
    replayed = results["samples"][task]
    for sample in replayed:
        sample["doc_id"] = doc_ids[sample["doc_id"]]
    return task_dict["tasks"][task], replayed


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
