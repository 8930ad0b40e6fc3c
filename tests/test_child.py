"""A staged command's `lm_eval` child (child.run_child) never outlives it: Ctrl-C/SIGTERM and kill -9 alike."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

PARENT = textwrap.dedent("""
    import sys
    from lm_eval_xling.child import run_child
    run_child([sys.executable, "-c", "import os, time; print(os.getpid(), flush=True); time.sleep(120)"])
""")


def _running(pid: int) -> bool:
    """Whether `pid` is alive (a zombie awaiting its reaper counts as dead)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def _gone(pid: int, wait_s: float = 10) -> bool:
    deadline = time.monotonic() + wait_s
    while _running(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "kill -9"])
def test_the_child_dies_with_its_parent(how):
    parent = subprocess.Popen([sys.executable, "-c", PARENT], stdout=subprocess.PIPE, text=True)
    child = int(parent.stdout.readline())
    try:
        parent.send_signal(how)
        parent.wait(30)
        assert _gone(child), f"lm_eval child {child} still running after its parent got {how.name}"
    finally:
        if _running(child):
            os.kill(child, signal.SIGKILL)
    assert parent.returncode != 0
