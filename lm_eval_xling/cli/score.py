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

    from lm_eval_xling.metrics.calibration import read_human_labels
    from lm_eval_xling.quench.calibrated import calibration_metrics
    from lm_eval_xling.reports.calibration import calibration_report
    from lm_eval_xling.results.replay import score_samples

    if args.task and len(args.samples) > 1:
        raise UserError("--task applies to a single samples file")
    if args.plan is not None and not args.human_labels:
        raise UserError(
            "--plan needs --human_labels: the judges' error rates are measured on them (label a pilot of about ten "
            "entities of each class first)"
        )
    metadata = {"judges": args.judges} if args.judges else {}
    if args.human_labels:
        read_human_labels(args.human_labels)  # a bad file is named before anything is scored
        metadata["human_labels"] = str(args.human_labels)
    merged: dict = {}
    for path in args.samples:
        results = score_samples(path, task=args.task, metadata=metadata or None)
        if args.human_labels and not any(map(calibration_metrics, results["results"].values())):
            raise UserError(
                f"{path}: --human_labels: no verdict of correct or incorrect to correct (a QUENCH entity task, "
                "judged in the run or given --judges)"
            )
        if args.json:
            values, notes = json_metrics(results)
            merged.update(values)
            for note in notes:
                print(f"note: {note}", file=sys.stderr)
        else:
            print(f"{path}\n{make_table(_without_calibration(results))}")
            for task, metrics in results["results"].items():
                if table := calibration_report(task, metrics, args.plan):
                    print(table)
    if args.json:
        print(json.dumps(merged, indent=2, allow_nan=False))
    return 0


def _without_calibration(results: dict) -> dict:
    """The results without the figures of human labels (`calibration_report` shows them)."""
    from lm_eval_xling.quench.calibrated import calibration_metrics
    from lm_eval_xling.results.metrics import metric_name

    kept = {}
    for task, metrics in results["results"].items():
        added = calibration_metrics(metrics)
        kept[task] = {key: value for key, value in metrics.items() if metric_name(key) not in added}
    return results | {"results": kept}


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
    score.add_argument(
        "--human_labels",
        type=Path,
        help="CSV of question_id,variable,label (correct/incorrect): QUENCH's jury corrected with these labels",
    )
    score.add_argument(
        "--plan",
        type=float,
        metavar="WIDTH",
        help="with --human_labels: the labels per class a 95%% interval WIDTH points wide needs (Lee et al.)",
    )
    score.set_defaults(func=_score)
