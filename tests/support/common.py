"""What every test module may need: the checkout, the real data's location, and running our console scripts."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
# The real benchmark data lives beside the project; tests that need it skip where it is absent.
RAW = Path(os.environ.get("LM_EVAL_XLING_RAW", REPO.parent / "shared" / "data"))
needs_raw = pytest.mark.skipif(
    not (RAW / "nsp").is_dir(),
    reason=f"real benchmark data not found at {RAW} (set LM_EVAL_XLING_RAW)",
)


def run_cli(*args: str, env: dict[str, str] | None = None, check: bool = True) -> subprocess.CompletedProcess:
    """Run an installed console script (lm_eval, lm-eval, lm-eval-xling) from this environment."""
    proc = subprocess.run(
        [str(BIN / args[0]), *args[1:]],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        cwd=REPO,
    )
    if check and proc.returncode != 0:
        raise AssertionError(f"{args} exited {proc.returncode}\n{proc.stdout[-3000:]}\n{proc.stderr[-5000:]}")
    return proc
