"""`run` (the main job: our tasks through the real lm_eval CLI) and `embedded-model`."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from lm_eval_xling.cli import command
from lm_eval_xling.config import DATA_ENV, cache_dir, local_root, raw_root

DEFAULT_TASKS = "nsp,nsp_cot,nsp_ll,quench"
DEFAULT_LIMIT = 5


def ensure_local_data(raw: Path) -> Path:
    """The local data root for the main job: LM_EVAL_XLING_DATA, else a cache built from `raw` once."""
    from lm_eval_xling.data import SourceMissing
    from lm_eval_xling.data.builders import build, builders

    root = local_root()
    if root is not None:
        return root
    root = cache_dir() / "data"
    for name, module in builders().items():
        if not (root / module.SPEC.hub_id / "README.md").is_file():
            try:
                build(name, raw, root)
            except SourceMissing as err:
                print(f"skipped {name}: {err}", file=sys.stderr)
    os.environ[DATA_ENV] = str(root)
    return root


def _run(args: argparse.Namespace, extra: list[str]) -> int:
    """The main job: our tasks through the real lm_eval CLI, on the embedded model and local data by default."""
    from lm_eval.__main__ import cli_evaluate

    ensure_local_data(args.raw)
    argv = ["lm_eval", "--model", args.model, "--tasks", args.tasks, "--limit", str(args.limit)]
    argv += ["--batch_size", str(args.batch_size)]
    if args.model_args is None:
        from lm_eval_xling.embedded import model_dir

        argv += ["--model_args", f"pretrained={model_dir()}", "--apply_chat_template"]
    else:
        argv += ["--model_args", args.model_args]
    sys.argv = argv + extra
    cli_evaluate()
    return 0


def _embedded_model(args: argparse.Namespace) -> int:
    from lm_eval_xling.embedded import model_dir

    print(model_dir())
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    run = command(
        sub,
        "run",
        "lm-eval-xling run --tasks nsp_hausa --limit 20 --output_path results/ --log_samples",
        help="run tasks through lm_eval (default: NSP and QUENCH on the embedded model, on locally built data)",
        description="Unknown arguments are passed on to lm_eval (e.g. --output_path OUT --log_samples).",
    )
    run.add_argument("--tasks", default=DEFAULT_TASKS)
    run.add_argument("--limit", type=float, default=DEFAULT_LIMIT)
    run.add_argument("--model", default="hf")
    run.add_argument("--batch_size", default="8")
    run.add_argument("--model_args", help="default: the embedded SmolLM2-135M-Instruct, chat template on")
    run.add_argument("--raw", type=Path, default=raw_root(), help="raw sources, used when data is built")
    run.set_defaults(func=_run, passes_through=True)

    embedded = command(
        sub,
        "embedded-model",
        "lm_eval --model hf --model_args pretrained=$(lm-eval-xling embedded-model) --tasks nsp_english --limit 5",
        help="print the embedded model's folder (converted once)",
    )
    embedded.set_defaults(func=_embedded_model)
