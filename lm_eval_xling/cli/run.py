"""`run` (the main job: our tasks through the real lm_eval CLI) and `embedded-model`."""

from __future__ import annotations

import argparse
import math
import shutil
import subprocess
import sys
import time
from pathlib import Path

from lm_eval_xling.child import lm_eval_command, run_child
from lm_eval_xling.cli import command, launcher_argument
from lm_eval_xling.config import DATA_ENV, built_root, cache_dir, local_root, raw_root
from lm_eval_xling.errors import UserError

# The demo (`run` without --tasks): a task of each family and NSP Global in English and four languages of other
# families (Niger-Congo, Afro-Asiatic, Indo-European, Sino-Tibetan) on the same items, a few documents, short
# generations; QUENCH without its per-group deltas and intervals (not defined on a few documents of one group).
DEMO_GLOBAL = ("en", "sw", "am", "hi", "zh")
DEMO_TASKS = ("nsp_hausa", *(f"nsp_global_{language}" for language in DEMO_GLOBAL), "quench", "xparade_es_en",
              "xsense_pawsx_en", "ynq")  # fmt: skip
DEMO_LIMIT = 3
DEMO_GEN_KWARGS = "max_gen_toks=24"
DEMO_METADATA = '{"report_delta": false}'
DEMO_RESAMPLES = 1_000  # the demo report's bootstrap (10,000 by default): intervals on 3 documents are coarse anyway
DEMO_MAX_LENGTH = 1024  # the embedded model's context in the demo: Y-NQ's documents cut to fit, prefill cheap on CPU
SCALE_UP = """\
Full runs: name the tasks, drop --limit (CoT and QUENCH then generate their full budgets), e.g.
  lm-eval-xling run --tasks nsp_global --model_args pretrained=MODEL --apply_chat_template \\
      --log_samples --output_path results/          # 44 languages, the same 920 questions, then:
  lm-eval-xling report results/                      # each language's paired gap to English
  lm-eval-xling run --tasks nsp,nsp_cot,nsp_ll --model_args pretrained=MODEL --apply_chat_template \\
      --log_samples --output_path results/
  lm-eval-xling run --tasks quench,xparade,ynq --model_args pretrained=MODEL --apply_chat_template \\
      --log_samples --output_path results/
  lm-eval-xling consistency run --task xsense_pawsx --src en --tgt de --model_args pretrained=MODEL \\
      --output_path runs/pawsx-en-de"""


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
    """Whether the local data root holds the dataset (for NSP Global, the language) a demo task reads."""
    from lm_eval_xling.data.builders import builders
    from lm_eval_xling.nsp_global.schema import NSP_GLOBAL
    from lm_eval_xling.ynq.tasks import CSV_NAME, HUB_ID

    if task == "ynq":
        return (root / HUB_ID / CSV_NAME).is_file()
    if task.startswith("nsp_global_"):
        return (root / NSP_GLOBAL.hub_id / task.removeprefix("nsp_global_")).is_dir()
    names = ["pawsx"] if task.startswith("xsense_") else [n for n in builders() if task.startswith(n)]
    return (root / builders()[max(names, key=len)].SPEC.hub_id / "README.md").is_file()


def _demo_tasks(root: Path) -> str:
    tasks = [task for task in DEMO_TASKS if _dataset_present(task, root)]
    for task in DEMO_TASKS:
        if task not in tasks:
            where = f"in {DATA_ENV}" if local_root() is not None else "built here (its raw source is not there)"
            print(f"demo: skipped {task}: its dataset is not {where}", file=sys.stderr)
    return ",".join(tasks)


def batch_size(value: str) -> str:
    """argparse type: lm_eval's batch sizes, checked before a model is built (an error after loading it costs
    minutes, and lm_eval checks only then)."""
    size = value.removeprefix("auto:") if value.startswith("auto:") else "1" if value == "auto" else value
    if not (size.isascii() and size.isdigit() and int(size) > 0):
        raise argparse.ArgumentTypeError(f"{value!r} is no batch size: give N > 0, auto or auto:N")
    return value


def _run(args: argparse.Namespace, extra: list[str]) -> int:
    """The main job: our tasks through the real lm_eval CLI, on the embedded model and local data by default; with
    `--launcher`, lm_eval runs in the launcher's processes (data parallel).

    Without --tasks it is the demo: every family's task at a few documents and short generations."""
    from lm_eval.__main__ import cli_evaluate

    from lm_eval_xling.redact import strip_credentials
    from lm_eval_xling.results.folders import results_written

    if args.limit is not None and not (math.isfinite(args.limit) and args.limit > 0):  # lm_eval reads 0 as "all"
        raise UserError(f"--limit is {args.limit:g}; give a positive number of documents, or leave it out for all")
    root = ensure_local_data(args.raw)
    demo = args.tasks is None
    argv = ["lm_eval", "--model", args.model, "--tasks", _demo_tasks(root) if demo else args.tasks]
    limit = DEMO_LIMIT if demo and args.limit is None else args.limit
    if limit is not None:
        argv += ["--limit", str(limit)]
    if demo and "--gen_kwargs" not in extra:
        argv += ["--gen_kwargs", DEMO_GEN_KWARGS]
    if demo and "--metadata" not in extra:
        argv += ["--metadata", DEMO_METADATA]
    output = _output_path(extra) if demo else None
    if demo and output is None:  # the last demo's results, replaced by this one's
        output = cache_dir() / "demo"
        shutil.rmtree(output, ignore_errors=True)
        argv += ["--output_path", str(output), "--log_samples"]
    argv += ["--batch_size", str(args.batch_size)]
    if args.model_args is None:
        from lm_eval_xling.embedded import model_dir

        model_args = f"pretrained={model_dir()}" + (f",max_length={DEMO_MAX_LENGTH}" if demo else "")
        argv += ["--model_args", model_args, "--apply_chat_template"]
    else:
        argv += ["--model_args", args.model_args]
    output, started = output or _output_path(extra), time.time()
    try:
        if args.launcher:  # every process of the launcher runs lm_eval; lm-eval splits the documents among them
            run_child([*lm_eval_command(args.launcher), *argv[1:], *extra])
        else:
            sys.argv = ["lm-eval-xling run", *argv[1:], *extra]  # lm-eval's errors then reach our one-line handler
            cli_evaluate()
    except subprocess.CalledProcessError as err:
        raise UserError(f"lm_eval exited {err.returncode} under {args.launcher!r} (its output is above)") from None
    except ValueError as err:  # lm-eval's word for a bad argument ("Tasks not found: ..."); --debug shows where
        raise UserError(f"lm_eval: {err}") from err
    finally:
        if output is not None:
            strip_credentials(results_written(output, started))
    if output is not None and not results_written(output, started):  # lm-eval only warns where it cannot save
        raise UserError(f"--output_path {output}: lm_eval saved no results there; give a folder you can write to")
    if demo:
        _demo_summary(output)
        print(SCALE_UP)
    return 0


def _output_path(extra: list[str]) -> Path | None:
    """The --output_path among the arguments passed on to lm_eval, if any."""
    for i, arg in enumerate(extra):
        if arg == "--output_path" and i + 1 < len(extra):
            return Path(extra[i + 1])
        if arg.startswith("--output_path="):
            return Path(arg.split("=", 1)[1])
    return None


def _demo_summary(output: Path) -> None:
    """The demo's last screen: NSP Global's paired gap of each language to English (the point of the package), and
    the report written from the run (where the run logged its samples)."""
    from lm_eval_xling.nsp_global import REPORT
    from lm_eval_xling.reports.gap import ReportError, language_gaps, load_runs, write_report

    try:
        _, page = write_report([output], output / "report", iters=DEMO_RESAMPLES)
    except ReportError as err:  # no --log_samples: nothing per document to report on
        print(f"report: {err}")
        return
    gaps = [g for g in language_gaps(load_runs([output], REPORT)[0], DEMO_RESAMPLES) if g.gap is not None]
    if gaps:
        print("\nNSP Global: each language against English on the same questions (paired by question id)")
        print(f"{'task':<16} {'paired n':>8} {'English':>8} {'language':>9} {'gap':>8}  95% CI            McNemar p")
    for i, g in enumerate(gaps):
        if len({g.model for g in gaps}) > 1 and (i == 0 or gaps[i - 1].model != g.model):
            print(f"run: {g.model}")
        low, high = g.gap_ci
        print(f"{g.task:<16} {g.n_paired:>8} {g.reference_paired:>8.3f} {g.reference_paired + g.gap:>9.3f} "
              f"{g.gap:>+8.3f}  [{low:+.3f}, {high:+.3f}]  {g.p:.3f}")  # fmt: skip
    print(f"\nReport (every task, plots): {page}\n")


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
    run.add_argument("--batch_size", type=batch_size, default="8", help="N, auto or auto:N (as lm_eval)")
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
