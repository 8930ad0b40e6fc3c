"""Y-NQ's command: `ynq-lengths` (ROUGE by document length)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from lm_eval_xling.cli import command, rising_numbers, whole_number
from lm_eval_xling.errors import UserError


def _lengths(args: argparse.Namespace) -> int:
    from lm_eval_xling.results.logs import read_samples, task_name_from_path
    from lm_eval_xling.ynq.tasks import LENGTH_EDGES, length_report, length_table

    samples = {}
    for path in args.samples:
        task = task_name_from_path(path) or ""
        if task not in ("ynq_english", "ynq_yoruba"):
            raise UserError(f"{path}: not a ynq_english or ynq_yoruba sample log")
        logged = read_samples(path)
        for doc_id, sample in logged.items():
            for field in ("english_words", "yoruba_words"):
                value = sample["doc"].get(field) if isinstance(sample["doc"], dict) else None
                if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                    raise UserError(
                        f"{path}: doc_id {doc_id}: field 'doc.{field}' is {value!r:.40}; expected a word count "
                        "(the documents of this package's ynq tasks have it)"
                    )
        samples[task.removeprefix("ynq_")] = list(logged.values())
    report = length_report(samples, tuple(args.edges or LENGTH_EDGES), args.buckets)
    print(json.dumps(report, indent=2, allow_nan=False) if args.json else length_table(report))
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    lengths = command(
        sub,
        "ynq-lengths",
        "lm-eval-xling ynq-lengths results/*/samples_ynq_english_*.jsonl results/*/samples_ynq_yoruba_*.jsonl",
        help="Y-NQ ROUGE by document-length bucket and on comparable-length pairs, and the data statistics",
    )
    lengths.add_argument(
        "samples", nargs="+", type=Path, help="samples_ynq_english_*.jsonl and/or samples_ynq_yoruba_*"
    )
    lengths.add_argument(
        "--edges",
        type=rising_numbers,
        help="fixed bucket edges in words, e.g. 500,1000,1500 (default: lm_eval_xling.ynq.tasks.LENGTH_EDGES)",
    )
    lengths.add_argument(
        "--buckets", type=whole_number(1), help="N equal-size buckets per language instead of fixed edges"
    )
    lengths.add_argument("--json", action="store_true")
    lengths.set_defaults(func=_lengths)
