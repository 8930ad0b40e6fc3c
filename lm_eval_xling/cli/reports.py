"""`report` (cross-lingual gap report), `submit` (leaderboard file) and `compare` (two checkpoints)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from lm_eval_xling.cli import command, whole_number
from lm_eval_xling.stats import RESAMPLES

ITERS = whole_number(1, 1_000_000)  # bootstrap resamples: 100 times the default is plenty, more only hangs
HUB_FOLDER = ".eval_results"  # where a Hub model repository keeps its eval results


def _report(args: argparse.Namespace) -> int:
    from lm_eval_xling.reports.gap import write_report

    for path in write_report(args.results_dirs, args.out or args.results_dirs[0], args.iters):
        print(path)
    return 0


def _submit(args: argparse.Namespace) -> int:
    from lm_eval_xling.reports.leaderboard import write_submission

    out, submission, notes = write_submission(args.results_dir, args.out, allow_partial=args.allow_partial)
    for note in notes:
        print(f"note: {note}", file=sys.stderr)
    print(out)
    if args.format == "hub":
        from lm_eval_xling.reports.hub_results import write_hub_results

        for path in write_hub_results(submission, out.parent / HUB_FOLDER):
            print(path)
    return 0


def _compare(args: argparse.Namespace) -> int:
    from lm_eval_xling.reports.compare import compare_runs, forest_plot, markdown_table

    comparison = compare_runs(args.a, args.b, iters=args.iters, seed=args.seed)
    if args.json:
        print(json.dumps(comparison.as_dict(), indent=2))
        for note in comparison.notes():
            print(note, file=sys.stderr)
    else:
        print(markdown_table(comparison))
    if args.plot:
        print(f"forest plot: {forest_plot(comparison, args.plot)}", file=sys.stderr)
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    report = command(
        sub,
        "report",
        "lm-eval-xling report results_model_a/ results_model_b/ --out report/",
        help="cross-lingual gap report (report.md + self-contained report.html) from lm_eval --log_samples folders",
        description="Per-family tables and high- vs low-resource deltas with 95% bootstrap CIs, invalid-answer rates.",
    )
    report.add_argument(
        "results_dirs", nargs="+", type=Path, metavar="RESULTS_DIR", help="lm_eval --output_path folder"
    )
    report.add_argument("--out", type=Path, help="output folder (default: the first RESULTS_DIR)")
    report.add_argument("--iters", type=ITERS, default=RESAMPLES, help=f"bootstrap resamples (default {RESAMPLES})")
    report.set_defaults(func=_report)

    submit = command(
        sub,
        "submit",
        "lm-eval-xling submit results/ --out leaderboard.json",
        help="one leaderboard results JSON (HF leaderboard template layout) from an lm_eval --log_samples folder",
        description="Refuses results with missing tasks or samples files, or made with another task version.",
    )
    submit.add_argument("results_dir", type=Path, help="lm_eval's --output_path folder, or its <model> subfolder")
    submit.add_argument("--out", type=Path, help="default: RESULTS_DIR/leaderboard.json")
    submit.add_argument(
        "--allow_partial",
        action="store_true",
        help="submit a run on part of the documents (--limit), marked partial (refused without this flag)",
    )
    submit.add_argument(
        "--format",
        choices=("leaderboard", "hub"),
        default="leaderboard",
        help=f"hub: also write the Hub's eval-results YAML files (one per task) into {HUB_FOLDER}/ beside the file",
    )
    submit.set_defaults(func=_submit)

    compare = command(
        sub,
        "compare",
        "lm-eval-xling compare results_a/ results_b/ --plot diff.png",
        help="two checkpoints' lm-eval runs (--log_samples folders) per task and metric, with a paired bootstrap",
        description="Per-document metrics of the tasks both folders hold, paired by doc_id (doc_hash checked): "
        "means, B - A, its 95% paired-bootstrap interval, p and significance.",
    )
    compare.add_argument("a", type=Path, help="run A's lm_eval --output_path folder")
    compare.add_argument("b", type=Path, help="run B's folder (the difference is B - A)")
    compare.add_argument("--json", action="store_true", help='print {task: {metric: {"a", "b", "diff", "ci", ...}}}')
    compare.add_argument("--plot", type=Path, metavar="FILE.png", help="write a forest plot of B - A")
    compare.add_argument("--iters", type=ITERS, default=RESAMPLES, help=f"bootstrap resamples (default {RESAMPLES})")
    compare.add_argument("--seed", type=whole_number(0), default=0, help="seed of numpy's default_rng")
    compare.set_defaults(func=_compare)
