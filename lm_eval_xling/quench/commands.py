"""QUENCH's command: `quench-chain` (the entity run, then the rationale run on its own predictions)."""

from __future__ import annotations

import argparse
from pathlib import Path

from lm_eval_xling.cli import command, launcher_argument
from lm_eval_xling.cli.score import judges_argument


def _chain(args: argparse.Namespace, extra: list[str]) -> int:
    """Entity run, then the rationale run on the entity run's own replies; a finished stage is not redone."""
    from lm_eval_xling.quench.chain import run_chain
    from lm_eval_xling.results.folders import held

    with held(args.output_path, "quench-chain"):
        return run_chain(args.model, args.model_args, args.task, args.output_path, args.judges, extra, args.launcher)


def register(sub: argparse._SubParsersAction) -> None:
    chain = command(
        sub,
        "quench-chain",
        "lm-eval-xling quench-chain --model hf --model_args pretrained=MODEL --output_path runs/quench --limit 20",
        help="QUENCH entity run, then the rationale run on its own predictions (resumable)",
        description="Unknown arguments are passed on to both lm_eval runs (e.g. --limit 20 --apply_chat_template).",
    )
    chain.add_argument("--model", default="hf")
    chain.add_argument("--model_args", required=True)
    chain.add_argument("--task", default="quench", help="the entity task: quench, quench_indic, quench_cot, ...")
    chain.add_argument("--output_path", type=Path, required=True)
    chain.add_argument("--judges", type=judges_argument, help="JSON list of judge models (see `score --judges`)")
    launcher_argument(chain)
    chain.set_defaults(func=_chain, passes_through=True)
