"""X-PARADE's command: `xparade-baselines` (majority, word alignment, Human*)."""

from __future__ import annotations

import argparse
import json
import sys

from lm_eval_xling.cli import command


def _baselines(args: argparse.Namespace) -> int:
    from lm_eval_xling.xparade.baselines import markdown_table, run_baselines

    results = run_baselines(args.split, encoder=args.align_encoder, method=args.align_method)
    if not args.json:
        print(markdown_table(results, args.split))  # the notes close the table
        return 0
    print(json.dumps(results.scores, indent=2))
    for note in results.notes:  # which baseline was skipped and why, beside the JSON
        print(f"note: {note}", file=sys.stderr)
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    baselines = command(
        sub,
        "xparade-baselines",
        "lm-eval-xling xparade-baselines --split dev",
        help="X-PARADE reference rows: majority, word alignment, Human* (binary, 3-way), annotator agreement",
        description="P/R/F1 per baseline and direction beside the paper's; alignment null threshold tuned on dev.",
    )
    baselines.add_argument("--split", choices=("dev", "test"), default="test")
    baselines.add_argument("--json", action="store_true", help="print {baseline: {direction: P/R/F1}} as JSON")
    baselines.add_argument(
        "--align_encoder",
        help="transformers model (Hub name or folder) of the alignment baseline; "
        "default bert-base-multilingual-cased, else the embedded model; 'none' skips it",
    )
    baselines.add_argument("--align_method", choices=("argmax", "itermax"), default="argmax")
    baselines.set_defaults(func=_baselines)
