"""A resumable command's output folder is held while it runs: a second run on it is refused with one line naming
the first, and a run that was killed leaves no lock behind."""

from __future__ import annotations

import subprocess
import sys

import pytest

from lm_eval_xling.errors import UserError
from lm_eval_xling.results.folders import held

HOLDER = """
import sys, time
from pathlib import Path
from lm_eval_xling.results.folders import held
with held(Path(sys.argv[1]), "quench-chain"):
    print("holding", flush=True)
    time.sleep(60)
"""


def test_a_second_run_on_a_held_folder_is_refused_and_a_killed_run_leaves_no_lock(tmp_path):
    first = subprocess.Popen([sys.executable, "-c", HOLDER, str(tmp_path)], stdout=subprocess.PIPE, text=True)
    try:
        assert first.stdout.readline().strip() == "holding"
        refused = rf"quench-chain \(pid {first.pid}\) is writing here; wait for it"
        with pytest.raises(UserError, match=refused), held(tmp_path, "consistency run"):
            pass
    finally:
        first.kill()  # killed mid-run, as a user's Ctrl-C or the OOM killer does
        first.wait()
    with held(tmp_path, "consistency run"):  # the system let go of the dead run's hold
        assert "consistency run" in (tmp_path / ".lm-eval-xling.lock").read_text()
