"""`run` (the main job: our tasks through the real lm_eval CLI) and `embedded-model`."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from lm_eval_xling.child import lm_eval_command, run_child
from lm_eval_xling.cli import command, launcher_argument
from lm_eval_xling.config import DATA_ENV, built_root, local_root, raw_root
from lm_eval_xling.errors import UserError

# The demo (`run` without --tasks): one task per family, a few documents, short generations.
DEMO_TASKS = ("nsp", "nsp_ll", "nsp_global_sw", "quench", "xparade_es_en", "xsense_pawsx_en", "ynq")
DEMO_LIMIT = 3
DEMO_GEN_KWARGS = "max_gen_toks=32"
DEMO_MAX_LENGTH = 1024  # the embedded model's context in the demo: Y-NQ's documents cut to fit, prefill cheap on CPU
SCALE_UP = """\
Full runs: name the tasks, drop --limit (CoT and QUENCH then generate their full budgets), e.g.
  lm-eval-xling run --tasks nsp,nsp_cot,nsp_ll --model_args pretrained=MODEL --apply_chat_template \\
      --log_samples --output_path results/
  lm-eval-xling run --tasks quench,xparade,ynq --model_args pretrained=MODEL --apply_chat_template \\
      --log_samples --output_path results/
  lm-eval-xling consistency run --task xsense_pawsx --src en --tgt de --model_args pretrained=MODEL \\
      --output_path runs/pawsx-en-de
Results go where --output_path points (with --log_samples, `lm-eval-xling report results/` reads them)."""


def ensure_local_data(raw: Path) -> Path:
    """The local data root for the main job: LM_EVAL_XLING_DATA, else the cache folder's build from `raw` (made once,
    found there by every task)."""
    from lm_eval_xling.data import SourceMissing
    from lm_eval_xling.data.builders import build, builders

    root = local_root()
    if root is not None:
        return root
    root = built_root()
    for name, module in builders().items():
        if not (root / module.SPEC.hub_id / "README.md").is_file():
            try:
                build(name, raw, root)
            except SourceMissing as err:
                print(f"skipped {name}: {err}", file=sys.stderr)
    return root


def _dataset_present(task: str, root: Path) -> bool:
    """Whether the local data root holds the dataset a demo task reads."""
    from lm_eval_xling.data.builders import builders
    from lm_eval_xling.ynq.tasks import CSV_NAME, HUB_ID

    if task == "ynq":
        return (root / HUB_ID / CSV_NAME).is_file()
    names = ["pawsx"] if task.startswith("xsense_") else [n for n in builders() if task.startswith(n)]
    return (root / builders()[max(names, key=len)].SPEC.hub_id / "README.md").is_file()


def _demo_tasks(root: Path) -> str:
    tasks = [task for task in DEMO_TASKS if _dataset_present(task, root)]
    for task in DEMO_TASKS:
        if task not in tasks:
            where = f"in {DATA_ENV}" if local_root() is not None else "built here (its raw source is not there)"
            print(f"demo: skipped {task}: its dataset is not {where}", file=sys.stderr)
    return ",".join(tasks)


def _run(args: argparse.Namespace, extra: list[str]) -> int:
    """The main job: our tasks through the real lm_eval CLI, on the embedded model and local data by default; with
    `--launcher`, lm_eval runs in the launcher's processes (data parallel).

    Without --tasks it is the demo: every family's task at a few documents and short generations."""
    from lm_eval.__main__ import cli_evaluate

    if args.limit is not None and args.limit <= 0:  # lm_eval reads 0 as "every document"
        raise UserError(f"--limit is {args.limit:g}; give a positive number of documents, or leave it out for all")
    root = ensure_local_data(args.raw)
    demo = args.tasks is None
    argv = ["lm_eval", "--model", args.model, "--tasks", _demo_tasks(root) if demo else args.tasks]
    limit = DEMO_LIMIT if demo and args.limit is None else args.limit
    if limit is not None:
        argv += ["--limit", str(limit)]
    if demo and "--gen_kwargs" not in extra:
        argv += ["--gen_kwargs", DEMO_GEN_KWARGS]
    argv += ["--batch_size", str(args.batch_size)]
    if args.model_args is None:
        from lm_eval_xling.embedded import model_dir

        model_args = f"pretrained={model_dir()}" + (f",max_length={DEMO_MAX_LENGTH}" if demo else "")
        argv += ["--model_args", model_args, "--apply_chat_template"]
    else:
        argv += ["--model_args", args.model_args]
    if args.launcher:  # every process of the launcher runs lm_eval; lm-eval splits the documents among them
        try:
            run_child([*lm_eval_command(args.launcher), *argv[1:], *extra])
        except subprocess.CalledProcessError as err:
            raise UserError(f"lm_eval exited {err.returncode} under {args.launcher!r} (its output is above)") from None
    else:
        sys.argv = ["lm-eval-xling run", *argv[1:], *extra]  # lm-eval's errors then reach our one-line handler
        cli_evaluate()
    if demo:
        print(SCALE_UP)
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
        help="run tasks through lm_eval (default: a demo of every family on the embedded model, on locally built data)",
        description="Unknown arguments are passed on to lm_eval (e.g. --output_path OUT --log_samples).",
    )
    run.add_argument("--tasks", help=f"default: the demo, {','.join(DEMO_TASKS)} at --limit {DEMO_LIMIT}")
    run.add_argument("--limit", type=float, help="documents per task (default: all; the demo's 3)")
    run.add_argument("--model", default="hf")
    run.add_argument("--batch_size", default="8")
    run.add_argument("--model_args", help="default: the embedded SmolLM2-135M-Instruct, chat template on")
    run.add_argument("--raw", type=Path, default=raw_root(), help="raw sources, used when data is built")
    launcher_argument(run)
    run.set_defaults(func=_run, passes_through=True)

    embedded = command(
        sub,
        "embedded-model",
        "lm_eval --model hf --model_args pretrained=$(lm-eval-xling embedded-model) --tasks nsp_english --limit 5",
        help="print the embedded model's folder (converted once)",
    )
    embedded.set_defaults(func=_embedded_model)
