"""Hook overhead: every family's tasks vs lm-eval's built-in tasks, through a model that answers instantly.

    LM_EVAL_XLING_DATA=DIR python bench/hooks.py [--repeats N]     # DIR from `lm-eval-xling data build`

Each row runs its tasks through `lm_eval.simple_evaluate` (sample logging on, as in a `--log_samples` run; bootstrap
stderr off) with `InstantLM`, which serves one canned, well-formed reply per request and does nothing else, so the
seconds are lm-eval's own work plus our hooks: dataset loading, prompts, filters, parsers, metrics, aggregation.
The built-in tasks run their own YAML with only the dataset swapped for a local copy through lm-eval's
`custom_dataset` override: `xnli_en` and `paws_en` on the real XNLI / PAWS-X English test sets under DIR, `nq_open`
on NQ-shaped records (question, answer list) made from the XNLI premises and hypotheses.

A row covers at least 1,000 documents where its dataset has them: X-PARADE runs all six directions' test and dev
tasks (1,152 pairs; 576 for the translate-to-English condition, which has no dev tasks), NSP Global three languages
of three scripts. Y-NQ is published on the Hub only: its split is the test-suite writer's synthetic CSV, repeated to
Y-NQ's 358 rows. QUENCH runs without a jury, its BERTScore time measured apart (the jury's speed is bench/jury.py's).
X-PARADE's replies are its gold answers (several spans a list, as a model that does the task writes them). Its T
condition maps spans through a word aligner whose encoder is a model (seconds a pair on a CPU): the bench puts a
positional aligner in its place, so that row is the hooks around the alignment.

Each row runs on its tasks' first document and on all of them, `--repeats` times each, keeping the fastest (the
least disturbed) run of each; the difference is the per-document cost, printed as seconds per 1,000 documents. Before
each run the collector is emptied and what is left frozen, so that a run does not pay for what earlier runs left.
Each row is compared with the built-in task of the same request type twice: on that task's own records, and on its
records widened with our documents' fields, as many as ours. lm-eval's own per-document work grows with the record
(it reads each row from Arrow several times and JSON-dumps it for the sample log's hash: X-PARADE's pairs, with their
annotations and translations, are ~5 KB of JSON against NQ's ~0.2 KB), so only the second comparison is of hooks
alone; the first is what a run costs.
"""

from __future__ import annotations

import argparse
import functools
import gc
import logging
import os
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import Any

import datasets
from lm_eval.api.model import LM

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from support.ynq_data import write_ynq_csv, ynq_rows  # noqa: E402

from lm_eval_xling.config import DATA_ENV, local_root  # noqa: E402
from lm_eval_xling.xparade import tasks as xparade_tasks  # noqa: E402

Reply = Callable[[dict[str, Any]], list[Any]]  # a document -> its requests' raw responses


class InstantLM(LM):
    """Answers request `idx` of document `doc_id` of task `task_name` with `replies[task_name, doc_id][idx]`, doing
    nothing else (`ReplayLM` also checks every request's document against its log, a JSON dump per request: replay's
    safety, not a run's cost)."""

    def __init__(self, replies: dict[tuple[str, int], list[Any]]) -> None:
        super().__init__()
        self.replies = replies

    def _answer(self, requests) -> list[Any]:
        return [self.replies[r.task_name, r.doc_id][r.idx] for r in requests]

    generate_until = loglikelihood = loglikelihood_rolling = _answer


class PositionalAligner:
    """Stands in for the X-PARADE T tasks' aligner: links each target word to the translation word at the same
    relative position (the real one runs an encoder on both paragraphs)."""

    def links(self, target: str, target_words, source: str, source_words) -> list[tuple[int, int, float]]:
        n, m = len(target_words), len(source_words)
        return [(i, i * m // n, 0.0) for i in range(n)] if m else []


def choices(n: int) -> Reply:
    return lambda doc: [(-1.0 - i, False) for i in range(n)]


def generated(text: Callable[[dict[str, Any]], str]) -> Reply:
    return lambda doc: [text(doc)]


def shown_target_spans(doc: dict[str, Any]) -> str:
    """An X-PARADE T reply: spans copied from the target as the prompt shows it (its English translation)."""
    words = (doc["target"] if doc["target_lang"] == "en" else doc["translations"][-1]).split()
    return f"New:\n- {' '.join(words[:4])}\nInferable:\n- {' '.join(words[6:9])}"


DIRECTIONS = ("en_es", "es_en", "en_hi", "hi_en", "en_zh", "zh_en")
NSP_GLOBAL = ("en", "hi", "zh")
NSP_REPLY = generated(lambda d: "The next sentence is B.\nFinal answer: B")
# the built-in tasks: task -> (request type, canned reply)
BUILT_IN = {
    "xnli_en": ("loglikelihood", choices(3)),
    "paws_en": ("loglikelihood", choices(2)),
    "nq_open": ("generate_until", generated(lambda d: d["answer"][0])),
}
# ours: (row, its tasks, request type, canned reply)
OURS = [
    ("nsp", ["nsp_english"], "generate_until", NSP_REPLY),
    ("nsp_ll", ["nsp_english_ll"], "loglikelihood", choices(2)),
    ("nsp_global", [f"nsp_global_{lang}" for lang in NSP_GLOBAL], "generate_until", NSP_REPLY),
    ("nsp_global_ll", [f"nsp_global_{lang}_ll" for lang in NSP_GLOBAL], "loglikelihood", choices(2)),
    ("xsense", ["xsense_xnli_en"], "generate_until", generated(lambda d: "The answer is (a).")),
    (
        "xparade",
        [f"xparade_{d}{split}" for d in DIRECTIONS for split in ("", "_dev")],
        "generate_until",
        generated(xparade_tasks.gold_answer),
    ),
    ("xparade T", [f"xparade_{d}_t" for d in DIRECTIONS], "generate_until", generated(shown_target_spans)),
    ("ynq", ["ynq_english"], "generate_until", generated(lambda d: d["long_answer"])),
    ("quench", ["quench"], "generate_until", generated(lambda d: f"{d['variable']} is {d['answer']}.")),
]
REFERENCE = {"loglikelihood": "xnli_en", "generate_until": "nq_open"}


def local_copies(root: Path) -> dict[str, datasets.DatasetDict]:
    """The built-in tasks' datasets, in their Hub layout (the same records in every split), from the local XNLI /
    PAWS-X copies under `root`."""
    xnli = datasets.load_dataset("parquet", data_files=str(root / "facebook/xnli/en/test.parquet"))["train"]
    paws = datasets.load_dataset("parquet", data_files=str(root / "google-research-datasets/paws-x/en/test.parquet"))
    nq = datasets.Dataset.from_dict(
        {
            "question": [f"{p} Which sentence follows?" for p in xnli["premise"]],
            "answer": [[h] for h in xnli["hypothesis"]],
        }
    )
    return {
        "xnli_en": datasets.DatasetDict({"test": xnli, "validation": xnli, "train": xnli}),
        "paws_en": datasets.DatasetDict({"test": paws["train"], "validation": paws["train"], "train": paws["train"]}),
        "nq_open": datasets.DatasetDict({"validation": nq, "train": nq}),
    }


def task_spec(name: str, dataset: datasets.DatasetDict | None = None) -> str | dict[str, Any]:
    """The task by name, or (given `dataset`) a built-in task in an inline group with its dataset swapped."""
    if dataset is None:
        return name
    spec = {"task": name, "custom_dataset": lambda **_: dataset, "dataset_name": None}
    return {"group": f"bench_{name}", "task": [spec]}


def widened(records: datasets.Dataset, docs: list[dict[str, Any]]) -> datasets.DatasetDict:
    """A built-in task's `records`, cycled to one per document of ours and each carrying that document's fields
    (its own fields win): the built-in task does its usual work, on records as wide as ours."""
    rows = [doc | records[i % len(records)] for i, doc in enumerate(docs)]
    data = datasets.Dataset.from_list(rows)
    return datasets.DatasetDict({"test": data, "validation": data, "train": data})


def timed_run(specs: list, reply: Reply, task_manager, limit: int | None) -> tuple[int, float]:
    """(documents, seconds) of one evaluation of `specs` (the first `limit` documents of each task) through
    simple_evaluate and the instant model."""
    import lm_eval

    tasks = task_manager.load(specs)["tasks"]
    replies = {
        (name, i): reply(doc) for name, task in tasks.items() for i, doc in enumerate(islice(task.eval_docs, limit))
    }
    gc.collect()
    gc.freeze()  # what earlier runs left is no work for the collector, as in a fresh process
    start = time.perf_counter()
    lm_eval.simple_evaluate(
        model=InstantLM(replies),
        tasks=specs,
        task_manager=task_manager,
        bootstrap_iters=0,
        limit=limit,
        verbosity="ERROR",
    )
    seconds = time.perf_counter() - start
    gc.unfreeze()
    return len(replies), seconds


@dataclass
class Timing:
    """The fastest full run and one-document run of a row, and the seconds of them measured apart."""

    tasks: int
    docs: int
    full_s: float
    one_s: float
    full_apart_s: float = 0.0
    one_apart_s: float = 0.0

    @property
    def per_k(self) -> float:
        """Seconds per 1,000 documents beyond each task's first."""
        return 1000 * (self.full_s - self.one_s) / (self.docs - self.tasks)


def measure(specs: list, reply: Reply, task_manager, repeats: int, apart: list[float]) -> Timing:
    """The row's timing, without the seconds the timed wrappers add to `apart` (reset before each run)."""
    timed_run(specs, reply, task_manager, 1)  # a warm-up: first imports, caches
    best: dict[int | None, tuple[int, float, float]] = {}
    for limit in (1, None):  # the one-document run: what a run costs whatever its size
        for _ in range(repeats):
            apart[0] = 0.0
            docs, seconds = timed_run(specs, reply, task_manager, limit)
            if limit not in best or seconds - apart[0] < best[limit][1]:
                best[limit] = (docs, seconds - apart[0], apart[0])
    (ones, one_s, one_apart), (docs, full_s, full_apart) = best[1], best[None]
    return Timing(ones, docs, full_s, one_s, full_apart, one_apart)


def main() -> None:
    from lm_eval.tasks import TaskManager

    from lm_eval_xling.quench import tasks as quench_tasks
    from lm_eval_xling.ynq.tasks import CSV_NAME, HUB_ID

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=3, help="runs of each size; the fastest is kept")
    args = parser.parse_args()
    root = local_root()
    if root is None:
        sys.exit("set LM_EVAL_XLING_DATA to the folder `lm-eval-xling data build --out` wrote")
    logging.disable(logging.WARNING)
    datasets.disable_progress_bars()
    bert_s = [0.0]
    bertscore = quench_tasks.bertscore_f1

    @functools.wraps(bertscore)
    def timed_bertscore(*args, **kwargs):
        start = time.perf_counter()
        try:
            return bertscore(*args, **kwargs)
        finally:
            bert_s[0] += time.perf_counter() - start

    quench_tasks.bertscore_f1 = timed_bertscore
    xparade_tasks.span_mapper = PositionalAligner
    with tempfile.TemporaryDirectory() as tmp:
        if not (root / HUB_ID / CSV_NAME).is_file():  # Y-NQ: the synthetic CSV beside links to the built datasets
            view = Path(tmp)
            for path in root.glob("*/*"):
                (view / path.relative_to(root)).parent.mkdir(exist_ok=True)
                (view / path.relative_to(root)).symlink_to(path)
            rows = [r | {"Question ID": f"{r['Question ID']}-{i}"} for i in range(60) for r in ynq_rows()][:358]
            write_ynq_csv(view / HUB_ID / CSV_NAME, rows)
            os.environ[DATA_ENV] = str(view)
        copies = local_copies(root)
        task_manager = TaskManager()
        theirs = {name: measure([task_spec(name, copies[name])], reply, task_manager, args.repeats, bert_s)
                  for name, (_, reply) in BUILT_IN.items()}  # fmt: skip
        table = []
        for row, names, kind, reply in OURS:
            ref = REFERENCE[kind]
            ours = measure([task_spec(name) for name in names], reply, task_manager, args.repeats, bert_s)
            docs = [doc for task in task_manager.load(names)["tasks"].values() for doc in task.eval_docs]
            same = task_spec(ref, widened(copies[ref]["train"], docs))
            on_ours = measure([same], BUILT_IN[ref][1], task_manager, args.repeats, bert_s)
            table.append((row, kind, ours, on_ours))
            if row == "quench":
                apart = Timing(ours.tasks, ours.docs, ours.full_apart_s, ours.one_apart_s)
                table.append(("quench: BERTScore alone", kind, apart, on_ours))
    print(f"\nInstant model, sample logging on, bootstrap off, fastest of {args.repeats} runs of each size.")
    print("s/1k: seconds per 1,000 documents beyond each task's first, (full run - 1-document run) / (docs - tasks)")
    print("* 1000: the per-document cost without the per-run set-up. The reference is the built-in task of the same")
    print("request type, on its own records and on records as wide as ours (its records carrying our fields).\n")
    print("| row | requests | tasks | docs | full run s | 1-doc run s | s/1k | reference | its s/1k, own records "
          "| ours / theirs | its s/1k, our records | ours / theirs, same records |")  # fmt: skip
    print("|---|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|")
    for row, (kind, _) in BUILT_IN.items():
        t = theirs[row]
        print(f"| {row} | {kind} | {t.tasks} | {t.docs} | {t.full_s:.2f} | {t.one_s:.2f} | {t.per_k:.2f} | | | | | |")
    for row, kind, t, on_ours in table:
        ref = REFERENCE[kind]
        print(
            f"| {row} | {kind} | {t.tasks} | {t.docs} | {t.full_s:.2f} | {t.one_s:.2f} | {t.per_k:.2f} | {ref} "
            f"| {theirs[ref].per_k:.2f} | {t.per_k / theirs[ref].per_k:.2f} | {on_ours.per_k:.2f} "
            f"| {t.per_k / on_ours.per_k:.2f} |"
        )


if __name__ == "__main__":
    main()
