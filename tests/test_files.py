"""Every command writes through one atomic writer: a write that fails leaves the previous file whole and names it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from lm_eval_xling.errors import UserError
from lm_eval_xling.files import write_file

# A child process limited to 1 KB files (`ulimit -f 1`) rewrites a file with 8 KB.
SIZE_LIMITED = """
import resource, sys
from lm_eval_xling.files import write_file
resource.setrlimit(resource.RLIMIT_FSIZE, (1024, 1024))
write_file(sys.argv[1], "x" * 8192)
"""


def test_a_write_over_the_size_limit_keeps_the_previous_file(tmp_path: Path) -> None:
    path = tmp_path / "leaderboard.json"
    path.write_text('{"old": true}\n', encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", SIZE_LIMITED, str(path)], capture_output=True, text=True)
    assert done.returncode != 0
    assert f"{path}: cannot write it" in done.stderr
    assert path.read_text(encoding="utf-8") == '{"old": true}\n'
    assert [p.name for p in tmp_path.iterdir()] == ["leaderboard.json"]  # nothing left aside


def test_an_unwritable_place_is_named(tmp_path: Path) -> None:
    (tmp_path / "out").write_text("a file, not a folder", encoding="utf-8")
    with pytest.raises(UserError, match=r"out/report\.md: cannot write it"):
        write_file(tmp_path / "out" / "report.md", "# report\n")


def test_text_and_bytes_are_written_whole(tmp_path: Path) -> None:
    assert write_file(tmp_path / "a" / "b.txt", "é\n").read_bytes() == "é\n".encode()
    assert write_file(tmp_path / "c.png", b"\x89PNG").read_bytes() == b"\x89PNG"
