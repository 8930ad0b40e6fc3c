"""Run an `lm_eval` stage as a child process that never outlives the command that started it, directly or through a
launcher (`accelerate launch --num_processes 8`: lm-eval's own data parallelism, every stage split over 8 processes).

Staged commands (`quench-chain`, `consistency run`) run each stage as its own `lm_eval` process (a fresh interpreter
per stage: lm-eval keeps global state and a model's memory is only surely freed when its process ends). A Ctrl-C or
SIGTERM of the parent terminates the child; on Linux the kernel also kills the child when the parent dies by any
means, `kill -9` included (PR_SET_PDEATHSIG, set in the child before it starts), which no signal handler or
process group of the parent can do: an orphaned child would otherwise go on and write the stage after a restart
has begun it again.
"""

from __future__ import annotations

import ctypes
import os
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

_PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


def _dies_with_parent() -> Callable[[], None] | None:
    """A preexec_fn that asks the kernel for SIGKILL when the parent dies (and dies at once if it already has);
    libc is loaded here, in the parent, so the child between fork and exec only makes system calls."""
    if not sys.platform.startswith("linux"):
        return None
    prctl, parent = ctypes.CDLL(None, use_errno=True).prctl, os.getpid()

    def preexec() -> None:
        prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != parent:  # the parent died before the request took effect
            os.kill(os.getpid(), signal.SIGKILL)

    return preexec


def lm_eval_command(launcher: str | None = None) -> list[str]:
    """The command that starts lm_eval: this interpreter's `python -m lm_eval`, or `<launcher> -m lm_eval` for a
    launcher that runs a module in each of its processes (`accelerate launch --num_processes 8`, `torchrun
    --nproc_per_node 8`). A launcher named without a path is taken from this interpreter's environment first, so
    `.venv/bin/lm-eval-xling` finds `.venv/bin/accelerate` without an activated environment."""
    if not launcher:
        return [sys.executable, "-m", "lm_eval"]
    program, *args = shlex.split(launcher)
    beside = Path(sys.executable).parent / program
    return [str(beside) if "/" not in program and beside.is_file() else program, *args, "-m", "lm_eval"]


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def run_child(command: list[str]) -> None:
    """Run `command` to its end (CalledProcessError on a non-zero exit); it dies with this process."""
    child = subprocess.Popen(command, preexec_fn=_dies_with_parent())
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        if child.wait() != 0:
            raise subprocess.CalledProcessError(child.returncode, command)
    except KeyboardInterrupt:
        child.terminate()
        try:
            child.wait(30)
        except subprocess.TimeoutExpired:
            child.kill()
        raise
    finally:
        signal.signal(signal.SIGTERM, previous)


def run_stage(command: list[str], output: Path, stage: str) -> None:
    """Run one stage of a resumable command (`run_child`) that writes under `output`: a non-zero exit is one line
    naming `stage`; the results files it wrote lose their credentials (`redact.strip_credentials`), failed or not."""
    from lm_eval_xling.errors import UserError
    from lm_eval_xling.redact import strip_credentials
    from lm_eval_xling.results.folders import results_written

    started = time.time()
    try:
        run_child(command)
    except subprocess.CalledProcessError as err:
        raise UserError(
            f"{stage}: lm_eval exited {err.returncode} (its output is above); the same command again resumes here, "
            "finished stages are kept"
        ) from None
    finally:
        strip_credentials(results_written(output, started))
