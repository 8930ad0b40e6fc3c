"""bench/drill.py on a few of its cases: the user gets one line naming the file, exit 2 and no traceback, and no
output holds a planted secret or this machine's paths."""

from __future__ import annotations

import subprocess
import sys

from support.common import REPO

DATA_CASES = ["nsp: empty story file", "nsp: non-UTF-8 byte on JSONL line 3001", "nsp_global: empty story page"]
# Results cases that need no base run (a few seconds): bad arguments and broken files of post-run commands.
RESULTS_CASES = [
    "report: --iters -5",
    "report: missing folder",
    "consistency table: torn consistency.json",
    "data build: missing raw folder",
    "report: --iters 2000000000",
    "ynq-lengths: falling --edges",
    "consistency run: --limit -3",
]
COLUMNS = ("case", "command", "exit", "traceback", "outcome", "secrets", "first line")


def drill(*cases: str) -> dict[str, dict[str, str]]:
    """{case: {column: cell}} of the drill's table on `cases`."""
    proc = subprocess.run(
        [sys.executable, str(REPO / "bench" / "drill.py"), "--synthetic", "--only", *cases],
        capture_output=True,
        text=True,
        cwd=REPO,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr[-3000:]
    rows = [line.strip("| ").split(" | ") for line in proc.stdout.splitlines() if "`" in line]
    table = {row[0]: dict(zip(COLUMNS, row, strict=True)) for row in rows}
    assert sorted(table) == sorted(cases)
    return table


def test_drill_data_cases_fail_cleanly():
    rows = drill(*DATA_CASES)
    for case, row in rows.items():
        assert (row["exit"], row["traceback"], row["outcome"]) == ("2", "no", "clear error"), f"{case}: {row}"
    assert "stories/en.txt" in rows[DATA_CASES[0]]["first line"]
    assert "test.jsonl:3001: not UTF-8" in rows[DATA_CASES[1]]["first line"]
    assert "stories/sw/0002/index.html: not an HTML page" in rows[DATA_CASES[2]]["first line"]


def test_drill_results_cases_refuse_bad_input_cleanly():
    rows = drill(*RESULTS_CASES)
    for case, row in rows.items():
        assert (row["exit"], row["traceback"], row["outcome"]) == ("2", "no", "clear error"), f"{case}: {row}"
        assert row["secrets"] == "0", f"{case}: {row['secrets']}"
        assert "does not name" not in row["first line"], f"{case}: {row['first line']}"
