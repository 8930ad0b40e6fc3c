"""The one way lm-eval-xling writes a file: written aside in its folder, then renamed over it; and JSON read so that
no value, however deeply nested, raises anything but a JSON error.

A run killed mid-write, a full disk or a file-size limit (`ulimit -f`) leaves the previous file whole (or no file),
never a torn one, and the error names the file. Python ignores SIGXFSZ, so a size limit is an OSError here too.
"""

from __future__ import annotations

import io
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from lm_eval_xling.errors import UserError


def parse_json(text: str | bytes) -> Any:
    """`json.loads`, where a value nested deeper than the parser's recursion limit ("[[[[...") is the
    JSONDecodeError every caller already words for its file, not a RecursionError."""
    try:
        return json.loads(text)
    except RecursionError:
        raise json.JSONDecodeError("nested too deeply", text if isinstance(text, str) else "", 0) from None


def write_file(path: Path, data: str | bytes) -> Path:
    """Write `data` (text as UTF-8) to `path` in one step; UserError naming `path` when it cannot be written."""
    path = Path(path)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    aside = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path.parent, prefix=f".{path.name}.", delete=False) as f:
            aside = f.name
            f.write(payload)
        os.replace(aside, path)
    except OSError as err:
        if aside:
            Path(aside).unlink(missing_ok=True)
        reason = err.strerror or err
        raise UserError(f"{path}: cannot write it: {reason}; the previous file, if any, is untouched") from None
    return path


def save_figure(figure: Any, path: Path, dpi: int) -> Path:
    """Save a matplotlib figure as PNG through `write_file`."""
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=dpi)
    return write_file(path, buffer.getvalue())
