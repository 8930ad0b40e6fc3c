"""`score`: re-score lm-eval sample logs with the task's current filters and metrics."""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

from lm_eval_xling.cli import command
from lm_eval_xling.errors import UserError
from lm_eval_xling.files import parse_json


def judges_argument(text: str) -> list:
    """The `--judges` value: a JSON list of judge models."""
    try:
        value = parse_json(text)
    except json.JSONDecodeError as err:
        raise argparse.ArgumentTypeError(f"not JSON ({err})") from None
    if not isinstance(value, list):
        raise argparse.ArgumentTypeError("expected a JSON list of judges")
    return value


def json_metrics(results: dict) -> tuple[dict[str, dict[str, float | None]], list[str]]:
    """({task: {"metric,filter": value}}, notes) for --json: a metric that is not a finite number (NaN: nothing to
    average) stays in as null, since JSON has no NaN, and a note names it."""
    from lm_eval_xling.results.metrics import metric_values

    values: dict[str, dict[str, float | None]] = dict(metric_values(results))
    notes = []
    for task, metrics in results["results"].items():
        for key, value in metrics.items():
            if "," in key and isinstance(value, float) and not math.isfinite(value):
                values[task][key] = None
                notes.append(f"{task} {key}: {value} (nothing to average), written as null")
    return values, notes


def _score(args: argparse.Namespace) -> int:
    from lm_eval.utils import make_table

    from lm_eval_xling.results.replay import score_samples

    if args.task and len(args.samples) > 1:
        raise UserError("--task applies to a single samples file")
    metadata = {"judges": args.judges} if args.judges else None
    merged: dict = {}
    for path in args.samples:
        results = score_samples(path, task=args.task, metadata=metadata)
        if args.json:
            values, notes = json_metrics(results)
            merged.update(values)
            for note in notes:
                print(f"note: {note}", file=sys.stderr)
        else:
            print(f"{path}\n{make_table(results)}")
    if args.json:
        print(json.dumps(merged, indent=2, allow_nan=False))
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    score = command(
        sub,
        "score",
        "lm-eval-xling score results/my-model/samples_nsp_hausa_2026-01-01T00-00-00.000000.jsonl --json",
        help="re-score lm-eval sample logs with the task's filters and metrics",
    )
    score.add_argument("samples", nargs="+", type=Path, help="samples_<task>_<date>.jsonl files")
    score.add_argument("--task", help="task name, when the file name does not tell it")
    score.add_argument("--json", action="store_true", help='print {task: {"metric,filter": value}}')
    score.add_argument(
        "--judges",
        type=judges_argument,
        help='JSON list of judge models for judged tasks, e.g. \'[{"model": "hf", "model_args": "pretrained=..."}]\'',
    )
    score.set_defaults(func=_score)
