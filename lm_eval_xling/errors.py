"""The one base class of errors a user can fix (bad input, missing files): the CLI prints them as one line."""

import sys
from pathlib import Path
from typing import NoReturn


class UserError(ValueError):
    """A problem with the user's input or files, worded to name the file, record and field; not a bug."""


def stop(err: UserError) -> NoReturn:
    """Raise `err` from code that lm-eval calls (a task's loader); inside the `lm_eval` command line, which would
    print it under a traceback, print it as one line and exit 2 instead."""
    command = Path(sys.argv[0])
    if command.name in ("lm_eval", "lm-eval") or command.parts[-2:] == ("lm_eval", "__main__.py"):  # or `-m lm_eval`
        print(f"lm-eval-xling: {err}", file=sys.stderr)
        raise SystemExit(2)
    raise err
