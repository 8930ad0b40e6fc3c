"""The `lm-eval-xling` command. Each command group's module registers its subcommands (`register`); this entry
point parses the arguments, runs the command, and turns a user error into one line and exit code 2 (`--debug`
shows the traceback).

Flags are spelt as lm-eval spells them (`--batch_size`); the dashed spelling (`--batch-size`) is accepted too.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from lm_eval_xling.errors import UserError

DESCRIPTION = (
    "Cross-lingual evaluation protocols as lm-eval tasks: build their data, run them, re-score and judge sample "
    "logs, compare runs and write reports. Flags take lm-eval's spelling (--batch_size) or the dashed one."
)
COMMAND_MODULES = (  # in the order `--help` lists them
    "lm_eval_xling.cli.run",
    "lm_eval_xling.cli.data",
    "lm_eval_xling.cli.score",
    "lm_eval_xling.cli.reports",
    "lm_eval_xling.nsp.commands",
    "lm_eval_xling.quench.commands",
    "lm_eval_xling.xparade.commands",
    "lm_eval_xling.xsense.commands",
    "lm_eval_xling.ynq.commands",
)


class CommandFailed(SystemExit):
    """Exit code 2 after a user error; its text is the message already printed to stderr."""

    def __init__(self, message: str):
        super().__init__(message)
        self.code = 2


class _Formatter(argparse.RawDescriptionHelpFormatter):
    """Help lists each flag under its lm-eval spelling only (the dashed alias works but is not shown)."""

    def _format_action_invocation(self, action: argparse.Action) -> str:
        if len(action.option_strings) == 2 and action.option_strings[1] == action.option_strings[0].replace("_", "-"):
            action = argparse.Action(action.option_strings[:1], action.dest, action.nargs, metavar=action.metavar)
        return super()._format_action_invocation(action)


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose `--flag_name` options also answer to `--flag-name`, and whose errors are one line."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)

    def add_argument(self, *names: str, **kwargs):
        aliases = [n.replace("_", "-") for n in names if n.startswith("--") and "_" in n]
        return super().add_argument(*names, *aliases, **kwargs)

    def error(self, message: str):
        """A bad argument: one line naming the command and the argument (`--help` shows the usage), exit 2."""
        print(f"{self.prog}: {message}", file=sys.stderr)
        raise SystemExit(2)


def command(sub: argparse._SubParsersAction, name: str, example: str, **kwargs) -> Parser:
    """A subcommand whose `--help` ends with a worked example."""
    cmd = sub.add_parser(name, epilog=f"example:\n  {example}", **kwargs)
    cmd.add_argument("--debug", action="store_true", default=argparse.SUPPRESS, help="show the traceback of an error")
    return cmd


def whole_number(low: int, high: int | None = None):
    """An argparse type: a whole number from `low` (to `high`); anything else is argparse's one-line error, exit 2."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < low or high is not None and value > high:
            bounds = f"from {low} to {high}" if high is not None else f"of {low} or more"
            raise argparse.ArgumentTypeError(f"{value} is out of range: give a whole number {bounds}")
        return value

    return parse


def rising_numbers(text: str) -> list[int]:
    """An argparse type: comma-separated whole numbers above 0, each greater than the one before ("500,1000,1500")."""
    try:
        values = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: give whole numbers separated by commas") from None
    if values[0] < 1 or any(b <= a for a, b in zip(values, values[1:], strict=False)):
        raise argparse.ArgumentTypeError(f"{text!r}: give numbers above 0, each greater than the one before")
    return values


def launcher_argument(cmd: Parser) -> None:
    """`--launcher`: what starts each `lm_eval` the command runs (lm-eval's own data parallelism)."""
    cmd.add_argument(
        "--launcher",
        help='start lm_eval through this launcher, e.g. "accelerate launch --num_processes 8" (data parallel on '
        'GPUs) or "accelerate launch --cpu --num_processes 2"; it must take `-m lm_eval` after its own flags',
    )


def parser() -> Parser:
    top = Parser(prog="lm-eval-xling", description=DESCRIPTION)
    top.add_argument("--debug", action="store_true", help="show the traceback of an error")
    sub = top.add_subparsers(dest="command", required=True, parser_class=Parser)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return top


def main(argv: list[str] | None = None) -> int:
    args, extra = parser().parse_known_args(argv)
    if extra and not getattr(args, "passes_through", False):  # only run-like commands pass arguments to lm_eval
        parser().error(f"unrecognized arguments: {' '.join(extra)}")
    label = " ".join(filter(None, (args.command, getattr(args, "action", None))))
    try:
        return args.func(args, extra) if getattr(args, "passes_through", False) else args.func(args)
    except (UserError, OSError) as err:
        if args.debug:
            raise
        message = f"{label}: {err}"
        print(message, file=sys.stderr)
        raise CommandFailed(message) from None
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM (staged commands turn it into one): no traceback
        if args.debug:
            raise
        print(f"{label}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
