"""Hook overhead: every family's evaluation split vs lm-eval's built-in tasks, through a model that answers instantly.

    LM_EVAL_XLING_DATA=DIR python bench/hooks.py     # DIR from `lm-eval-xling data build`

Each task runs through `lm_eval.simple_evaluate` with `ReplayLM` (the `score` replay model) serving one canned,
well-formed reply per request, so the seconds are lm-eval's own work plus our hooks (dataset loading, prompts,
filters, parsers, metrics, aggregation); bootstrap stderr is off on both sides. The built-in tasks run their own
YAML with only the dataset swapped for a local copy through lm-eval's `custom_dataset` override: `xnli_en` and
`paws_en` on the real XNLI / PAWS-X English test sets under DIR, `nq_open` on NQ-shaped records (question, answer
list) made from the XNLI premises and hypotheses. Y-NQ is published on the Hub only: its split is the test-suite
writer's synthetic CSV, repeated to Y-NQ's 358 rows (no tokenizer in the metadata, so nothing is cut).
QUENCH runs without a jury; its BERTScore time is measured apart (the jury's speed is bench/jury.py's).
Each task runs twice, on its first document and on all of them; the difference is the per-document cost,
printed as seconds per 1,000 documents with the ratio to the built-in task of the same request type.
"""

from __future__ import annotations

import functools
import logging
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import datasets

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from support.ynq_data import write_ynq_csv, ynq_rows  # noqa: E402

from lm_eval_xling.config import DATA_ENV, local_root  # noqa: E402
from lm_eval_xling.results.replay import ReplayLM  # noqa: E402

Reply = Callable[[dict[str, Any]], list[Any]]  # a document -> its requests' raw responses


def choices(n: int) -> Reply:
    return lambda doc: [[f"{-1.0 - i}", "False"] for i in range(n)]


def generated(text: Callable[[dict[str, Any]], str]) -> Reply:
    return lambda doc: [text(doc)]


# (task, request type, canned reply); ours first, then the built-in references of each type
OURS = [
    ("nsp_english", "generate_until", generated(lambda d: "The next sentence is B.\nFinal answer: B")),
    ("nsp_english_ll", "loglikelihood", choices(2)),
    ("xsense_xnli_en", "generate_until", generated(lambda d: "The answer is (a).")),
    (
        "xparade_en_es",
        "generate_until",
        generated(lambda d: f"New:\n{' '.join(d['target'].split()[:4])}\nInferable:\nnone"),
    ),
    ("ynq_english", "generate_until", generated(lambda d: d["long_answer"])),
    ("quench", "generate_until", generated(lambda d: f"{d['variable']} is {d['answer']}.")),
]
THEIRS = [
    ("xnli_en", "loglikelihood", choices(3)),
    ("paws_en", "loglikelihood", choices(2)),
    ("nq_open", "generate_until", generated(lambda d: d["answer"][0])),
]
REFERENCE = {"loglikelihood": "xnli_en", "generate_until": "nq_open"}


def local_copies(root: Path) -> dict[str, datasets.DatasetDict]:
    """The built-in tasks' datasets, in their Hub layout, from the local XNLI / PAWS-X copies under `root`."""
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


def task_spec(name: str, copies: dict[str, datasets.DatasetDict]) -> str | dict[str, Any]:
    if name not in copies:
        return name
    return {"task": name, "custom_dataset": lambda **_: copies[name], "dataset_name": None}


def timed_run(name: str, reply: Reply, copies, task_manager, limit: int | None = None) -> tuple[int, float]:
    """(documents, seconds) of one evaluation (the first `limit` documents) through simple_evaluate and the
    instant replay model."""
    import lm_eval

    spec = task_spec(name, copies)
    task = next(iter(task_manager.load([spec] if isinstance(spec, str) else [group(spec)])["tasks"].values()))
    docs = list(task.eval_docs)[:limit]
    samples = {i: {"resps": [[r] for r in reply(doc)]} for i, doc in enumerate(docs)}
    model = ReplayLM(samples, list(range(len(docs))), Path(f"<{name} canned replies>"))
    start = time.perf_counter()
    lm_eval.simple_evaluate(
        model=model,
        tasks=[spec if isinstance(spec, str) else group(spec)],
        task_manager=task_manager,
        bootstrap_iters=0,
        limit=limit,
        verbosity="ERROR",
    )
    return len(docs), time.perf_counter() - start


def group(spec: dict[str, Any]) -> dict[str, Any]:
    return {"group": f"bench_{spec['task']}", "task": [spec]}


def main() -> None:
    from lm_eval.tasks import TaskManager

    from lm_eval_xling.quench import tasks as quench_tasks
    from lm_eval_xling.ynq.tasks import CSV_NAME, HUB_ID

    root = local_root()
    if root is None:
        sys.exit("set LM_EVAL_XLING_DATA to the folder `lm-eval-xling data build --out` wrote")
    logging.disable(logging.WARNING)
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
        timings = {}
        for name, kind, reply in THEIRS + OURS:
            runs = []
            # a warm-up (first imports, caches), then the one-document run: what a run costs whatever its size
            for limit in (1, 1, None):
                bert_s[0] = 0.0
                docs, seconds = timed_run(name, reply, copies, task_manager, limit)
                runs.append((docs, seconds - bert_s[0], bert_s[0]))
            (_, one_s, one_bert), (docs, full_s, full_bert) = runs[1:]
            timings[name] = (kind, docs, full_s, one_s)
            if name == "quench":
                timings["quench: BERTScore alone"] = (kind, docs, full_bert, one_bert)
    per_k = {name: 1000 * (full - one) / (docs - 1) for name, (_, docs, full, one) in timings.items()}
    print("\nInstant replay model, bootstrap off. s/1k docs: seconds per 1,000 documents beyond the first, i.e.")
    print("(full run - 1-document run) / (docs - 1) * 1000: the per-document cost without the per-run set-up\n")
    print("| task | requests | docs | full run s | 1-doc run s | s/1k docs | reference | ours / theirs |")
    print("|---|---|---:|---:|---:|---:|---|---:|")
    for name, (kind, docs, full, one) in timings.items():
        ref = REFERENCE[kind]
        ratio = "" if name == ref else f"{per_k[name] / per_k[ref]:.2f}"
        print(f"| {name} | {kind} | {docs} | {full:.2f} | {one:.2f} | {per_k[name]:.2f} | {ref} | {ratio} |")


if __name__ == "__main__":
    main()
