"""bench/drill.py on two of its cases (a corrupt raw source, a corrupt built split): the user gets one line naming
the file, a non-zero exit and no traceback."""

from __future__ import annotations

import subprocess
import sys

from support.common import REPO

CASES = ["nsp: empty story file", "nsp: non-UTF-8 byte on JSONL line 3001"]


def test_drill_cases_fail_cleanly():
    proc = subprocess.run(
        [sys.executable, str(REPO / "bench" / "drill.py"), "--synthetic", "--only", *CASES],
        capture_output=True,
        text=True,
        cwd=REPO,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr[-3000:]
    rows = {line.split(" | ")[0].strip("| "): line.split(" | ") for line in proc.stdout.splitlines() if "`" in line}
    assert sorted(rows) == sorted(CASES)
    for case, (_, command, code, traceback, _) in rows.items():
        assert (code, traceback) == ("2", "no"), f"{case}: {command} exited {code}, traceback {traceback}"
    assert "stories/en.txt" in rows[CASES[0]][4]
    assert "test.jsonl:3001: not UTF-8" in rows[CASES[1]][4]
