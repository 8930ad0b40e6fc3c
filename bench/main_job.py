"""The main job (`lm-eval-xling run`, the demo) on an empty cache and again after it: wall seconds and peak memory
of each, against the targets (under 60 s after set-up on 2 cores, under 2 GB).

    python bench/main_job.py [--raw ../shared/data]

The cold run fetches and converts the embedded model and builds the datasets into a fresh cache folder; the warm run
is the main job after set-up. Prints a markdown table: run | s | peak MB | s / 60 | MB / 2048, then the warm run's
last screen.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGET_S, TARGET_MB = 60.0, 2048.0


# Runs the command given and prints its peak resident memory (KB) on the last line of stderr: getrusage of the
# children of a fresh process measures this run alone.
PEAK = (
    "import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True); "
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)"
)


def run_main_job(cache: Path, raw: Path) -> tuple[float, float, str]:
    """(wall seconds, peak resident MB, standard output) of one `lm-eval-xling run`."""
    command = [str(Path(sys.executable).parent / "lm-eval-xling"), "run", "--raw", str(raw)]
    env = {**os.environ, "LM_EVAL_XLING_CACHE": str(cache), "LM_EVAL_XLING_DATA": ""}
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", PEAK, *command], env=env, capture_output=True, text=True, check=True)
    seconds = time.perf_counter() - start
    return seconds, int(proc.stderr.splitlines()[-1]) / 1024, proc.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--raw", type=Path, default=Path("../shared/data"), help="raw sources (default ../shared/data)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as cache:
        rows = [("empty cache", *run_main_job(Path(cache), args.raw.resolve()))]
        rows.append(("after set-up", *run_main_job(Path(cache), args.raw.resolve())))
    print("| run | s | peak MB | s / 60 | MB / 2048 |\n|---|---:|---:|---:|---:|")
    for name, seconds, peak, _ in rows:
        print(f"| {name} | {seconds:.1f} | {peak:.0f} | {seconds / TARGET_S:.2f} | {peak / TARGET_MB:.2f} |")
    print("\nThe main job's last screen (after set-up):\n")
    print("\n".join(rows[-1][3].rstrip().splitlines()[-22:]))


if __name__ == "__main__":
    main()
