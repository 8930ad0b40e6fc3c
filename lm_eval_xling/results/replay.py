"""Re-score lm-eval `--log_samples` files them through the task's own filters and metrics.

Scoring replays the logged raw responses (`resps`) through `lm_eval.evaluator.evaluate` with a model that
answers every request from the log, so filters, metrics, aggregation and stderr are computed by exactly the
code path of a live run.
"""

from __future__ import annotations

import math
from collections import defaultdict
from contextlib import nullcontext
from pathlib import Path
from typing import Any

import datasets
from lm_eval.api.model import LM

from lm_eval_xling.metrics.judged_task import logged_verdicts
from lm_eval_xling.results.logs import (
    HARNESS_METADATA,
    SamplesError,
    check_pairing,
    doc_hash,
    logged_doc_hash,
    read_results,
    read_samples,
    results_beside,
    task_name_from_path,
)


def _decode(request_type: str, resp: Any) -> Any:
    """Undo the log's JSON encoding: lm-eval writes loglikelihoods as strings ("-30.1", "False")."""
    if request_type == "loglikelihood":
        logprob, is_greedy = resp
        return float(logprob), is_greedy in (True, "True")
    if request_type == "loglikelihood_rolling":
        return float(resp)
    return resp


# The keys of a task's config that say where its documents come from, besides the dataset itself: cleared when a
# task is run on other documents through lm-eval's task overrides (here, and in `consistency run`'s task files).
DOCUMENT_KEYS = ("dataset_name", "custom_dataset", "process_docs", "training_split", "validation_split",
                 "fewshot_split")  # fmt: skip


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
            if logged_doc_hash(sample) != doc_hash(req.doc):
                raise SamplesError(
                    f"{self._source} doc_id {doc_id}: the logged document differs from the task's "
                    "dataset (a log of another task, or made on another dataset version?)"
                )
            repeat = self._served[doc_id, req.idx]
            self._served[doc_id, req.idx] += 1
            try:
                resp = sample["resps"][req.idx][repeat]
            except (IndexError, KeyError, TypeError) as err:
                raise SamplesError(
                    f"{self._source} doc_id {doc_id}: field 'resps' has no response for request "
                    f"{req.idx} (repeat {repeat})"
                ) from err
            try:
                out.append(_decode(req.request_type, resp))
            except (TypeError, ValueError) as err:
                raise SamplesError(
                    f"{self._source} doc_id {doc_id}: field 'resps' holds {resp!r:.60} for request {req.idx}; "
                    f"not a {req.request_type} response"
                ) from err
        return out

    generate_until = loglikelihood = loglikelihood_rolling = _replay


def _task_manager(task: str, path: Path, metadata: dict | None = None) -> Any:
    """lm-eval's TaskManager (with `metadata`), after checking that it knows `task`."""
    from lm_eval.tasks import TaskManager

    manager = TaskManager(metadata=metadata)
    if task not in manager.task_index:
        raise SamplesError(f"{path}: lm-eval knows no task {task!r} (the name comes from the file name or --task)")
    return manager


def _logged(path: Path, task: str | None) -> tuple[str, dict[int, dict[str, Any]], list[int]]:
    """(task name, samples by doc_id, sorted doc_ids) of a samples file."""
    task = task or task_name_from_path(path)
    if task is None:
        raise SamplesError(
            f"{path}: cannot tell the task from the file name; pass --task NAME (consistency compare: --task_a)"
        )
    samples = read_samples(path)
    return task, samples, sorted(samples)


def score_samples(
    path: Path, task: str | None = None, metadata: dict | None = None, bootstrap_iters: int = 100_000
) -> dict[str, Any]:
    """Re-score one samples file; return lm-eval's results dict (with "results", "versions", ...).

    The task is built as the run used it: with the run's `--metadata` (e.g. a translated docs file), updated with
    `metadata`, and its generation settings (`--gen_kwargs`), both read from the results file beside the log (the
    same stamp; none: the task as it is now). Every logged document must be the task's (its doc_hash, else its
    logged doc); where the run's results file lies beside the log, the log must be the one those results were
    computed from (`check_pairing`), and, at the same task version and without other judges, its responses must
    give the numbers the run reported (`_check_reproduced`). A judged task reads the judge replies the log holds
    (`logged_verdicts`) unless `metadata` names judges of its own."""
    from lm_eval.evaluator import evaluate

    task, samples, doc_ids = _logged(path, task)
    beside = results_beside(path)
    reported = read_results(beside) if beside.is_file() else None
    if reported is not None:
        check_pairing(beside, reported, task, path)
    config = ((reported or {}).get("configs") or {}).get(task, {})
    run_meta = {k: v for k, v in config.get("metadata", {}).items() if k not in HARNESS_METADATA}
    task_dict = _task_manager(task, path, run_meta | (metadata or {}) or None).load([task])
    if doc_ids[-1] >= (n_docs := len(task_dict["tasks"][task].eval_docs)):
        raise SamplesError(
            f"{path}: doc_id {doc_ids[-1]}, but {task} has {n_docs} documents (a log of another dataset or split?)"
        )
    if config.get("generation_kwargs"):
        task_dict["tasks"][task].set_config(key="generation_kwargs", value=config["generation_kwargs"])
    prefix = doc_ids == list(range(len(doc_ids)))
    with nullcontext() if (metadata or {}).get("judges") else logged_verdicts(samples):
        results = evaluate(
            lm=ReplayLM(samples, doc_ids, path),
            task_dict=task_dict,
            limit=len(doc_ids) if prefix else None,
            samples=None if prefix else {task: doc_ids},
            bootstrap_iters=bootstrap_iters,
            log_samples=False,
        )
    if reported is not None and not set(metadata or {}) - {"human_labels"}:  # (labels add figures, change none)
        _check_reproduced(path, task, results, reported, beside)
    return results


def _check_reproduced(
    path: Path, task: str, rescored: dict[str, Any], reported: dict[str, Any], reported_in: Path
) -> None:
    """Refuse a log whose responses do not give the numbers its run reported for the same task version: its replies
    were edited, or it is not the log of those results."""
    if str((reported.get("versions") or {}).get(task)) != str(rescored["versions"].get(task)):
        return  # the task's scoring changed since the run: new numbers are the point of re-scoring
    for key, value in reported["results"].get(task, {}).items():
        new = rescored["results"][task].get(key)
        if "_stderr," in key or not _number(value) or not _number(new) or _same(float(value), float(new)):
            continue
        raise SamplesError(
            f"{path}: its responses give {key} {new:.6g}, but {reported_in.name} reports {value:.6g} "
            f"for {task} at the same task version; the log's replies are not those the run scored (edited?)"
        )


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _same(reported: float, rescored: float) -> bool:
    """Equal numbers (to rounding), NaN only to NaN: a run that reported NaN where its log gives a number, or the
    other way round, is another run's (or an edited) log."""
    if math.isnan(reported) or math.isnan(rescored):
        return math.isnan(reported) and math.isnan(rescored)
    return reported == rescored or abs(rescored - reported) <= 1e-9 * max(1.0, abs(reported))


def replay_samples(path: Path, task: str | None = None) -> tuple[Any, list[dict[str, Any]]]:
    """(the task, the samples lm-eval logs for it) with every filter re-applied to the logged raw responses.

    The task runs on the documents as logged (its dataset is swapped for them through lm-eval's task overrides
    in an inline group), so any task's log replays without its dataset: a built-in task whose data is on the
    Hub, or a run on translated documents."""
    from lm_eval.evaluator import evaluate

    task, samples, doc_ids = _logged(path, task)
    logged = datasets.DatasetDict({"test": datasets.Dataset.from_list([samples[i]["doc"] for i in doc_ids])})
    overrides = {
        "task": task,
        **dict.fromkeys(DOCUMENT_KEYS),
        "custom_dataset": lambda **_: logged,
        "test_split": "test",
        "num_fewshot": 0,
    }
    task_dict = _task_manager(task, path).load([{"group": "lm_eval_xling_replay", "task": [overrides]}])
    results = evaluate(lm=ReplayLM(samples, doc_ids, path), task_dict=task_dict, bootstrap_iters=0, log_samples=True)
    replayed = results["samples"][task]
    for sample in replayed:
        sample["doc_id"] = doc_ids[sample["doc_id"]]
    return task_dict["tasks"][task], replayed
