"""Multi-sense consistency's commands: `consistency run`, `consistency compare` and `consistency table`."""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

from lm_eval_xling.cli import command, launcher_argument, whole_number

# Why a share is undefined, by the items it is over (correct/incorrect: as run A answered them).
UNDEFINED = {"all": "no item in both logs", "correct": "A got no item right", "incorrect": "A got every item right"}


def _run(args: argparse.Namespace, extra: list[str]) -> int:
    from lm_eval_xling.results.folders import held
    from lm_eval_xling.xsense.pipeline import Run, run, table

    plan = Run(args.model, args.model_args, args.task, args.src, args.tgt, args.output_path, args.limit, extra,
               translations=args.translations, review_instruction=args.review_instruction,
               launcher=args.launcher)  # fmt: skip
    with held(plan.output, "consistency run"):
        report = run(plan)
    if report is None:  # --review_instruction: stopped before the T and I stages
        return 0
    print(json.dumps({key: report[key] for key in ("translation", "collapsed", "bleu_link")}, indent=2))
    print(table([report]))
    return 0


def _compare(args: argparse.Namespace) -> int:
    from lm_eval_xling.xsense import quality
    from lm_eval_xling.xsense.consistency import compare, strict

    result, checked = compare(args.a, args.b, args.task_a, args.task_b, args.invalid_rule)
    link = None
    if args.translations:
        items, language = quality.input_translations(args.translations)
        link = quality.bleu_link(quality.item_bleu(items, language), result.per_item)
    if args.json:
        print(json.dumps(result.summary() | strict(checked), allow_nan=False))
        return 0
    print("| | consistency | 95% CI |\n|---|---:|---|")
    for name in ("all", "correct", "incorrect"):
        value, (low, high) = getattr(result, name), result.ci[name]
        if math.isfinite(value):
            print(f"| {name} | {value:.3f} | {low:.3f}-{high:.3f} |")
        else:
            print(f"| {name} | n/a ({UNDEFINED[name]}) | n/a |")
    print(f"items compared: {result.n}; invalid answers: A {result.invalid_a}, B {result.invalid_b}")
    print(
        f"matched: {checked['matched']}; only in A: {checked['only_a']}, only in B: {checked['only_b']}; "
        f"correct by {checked['metric']}; invalid rule: {result.invalid_rule}"
    )
    if link:
        print(json.dumps({"bleu_link": strict(link)}, indent=2))
    return 0


def _table(args: argparse.Namespace) -> int:
    from lm_eval_xling.xsense.pipeline import read_report, table

    print(table([read_report(folder) for folder in args.runs]))
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    consistency = sub.add_parser(
        "consistency", help="multi-sense consistency: model-internal translation, T/I/X runs, comparisons"
    ).add_subparsers(dest="action", required=True)
    crun = command(
        consistency,
        "run",
        "lm-eval-xling consistency run --model hf --model_args pretrained=MODEL --task xsense_pawsx --src en "
        "--tgt de --output_path runs/pawsx-en-de --limit 50 --apply_chat_template",
        help="original, rerun, translation, T, I and X runs of one declared task and direction, then the report "
        "(resumable)",
        description="Unknown arguments are passed on to every lm_eval run (e.g. --apply_chat_template --batch_size 8).",
    )
    crun.add_argument("--model", default="hf")
    crun.add_argument("--model_args", required=True)
    crun.add_argument(
        "--task",
        required=True,
        help="a declared task family (xsense_pawsx, xsense_xnli, nsp, nsp_1k, nsp_global, xstorycloze) or one of its "
        "tasks in the source language (nsp_english_1k); see lm_eval_xling/xsense/declarations.py",
    )
    crun.add_argument("--src", required=True, help="source language (en, de, zh, sw, ha, es; as the task declares)")
    crun.add_argument("--tgt", required=True, help="target language")
    crun.add_argument("--output_path", type=Path, required=True)
    crun.add_argument("--limit", type=whole_number(1), help="evaluate the first N test items")
    launcher_argument(crun)
    crun.add_argument(
        "--translations",
        choices=("model", "paper"),
        default="model",
        help="model: the model translates (default); paper: the paper's released gpt-3.5 translations "
        "(selftrans/ under LM_EVAL_XLING_RAW)",
    )
    crun.add_argument(
        "--review_instruction",
        action="store_true",
        help="stop after writing the translated instruction pieces to <output_path>/instruction.json; correct them "
        "there and run again",
    )
    crun.set_defaults(func=_run, passes_through=True)
    ccompare = command(
        consistency,
        "compare",
        "lm-eval-xling consistency compare runs/a/samples_paws_en_*.jsonl runs/b/samples_paws_de_*.jsonl --json",
        help="consistency between two sample logs of one task family, aligned by document id; refuses (exit 2) logs "
        "of different task families or different documents",
    )
    ccompare.add_argument("a", type=Path, help="run A's samples_<task>_<date>.jsonl (correct/incorrect refer to A)")
    ccompare.add_argument("b", type=Path, help="run B's samples file")
    ccompare.add_argument("--task_a", help="task of A, when the file name does not tell it")
    ccompare.add_argument("--task_b", help="task of B, when the file name does not tell it")
    ccompare.add_argument("--translations", type=Path, help="the xsense_translate sample log: adds the BLEU link")
    ccompare.add_argument(
        "--invalid_rule",
        choices=("paper", "never"),
        default="paper",
        help="paper (default): two invalid answers agree, as the authors count them; never: they never agree",
    )
    ccompare.add_argument(
        "--json",
        action="store_true",
        help='print {"all", "correct", "incorrect", "n", "invalid_a", "invalid_b", "invalid_rule", "tasks", "metric", '
        '"matched", "only_a", "only_b"} (strict JSON: null for an undefined share)',
    )
    ccompare.set_defaults(func=_compare)
    ctable = command(
        consistency,
        "table",
        "lm-eval-xling consistency table runs/pawsx-en-de runs/xnli-en-zh",
        help="the paper's table (task x direction by T, I, X) of finished runs",
    )
    ctable.add_argument("runs", nargs="+", type=Path, help="--output_path folders of `consistency run`")
    ctable.set_defaults(func=_table)
