"""Build a local copy of facebook/xnli (configs en/de/zh, split test) from raw JSONL files.

The Hub already publishes this dataset; the copy lets the multi-sense-consistency tasks read it through
LM_EVAL_XLING_DATA with exactly the Hub's columns (premise, hypothesis, label), so both sources give the same
records. Raw source: `xnli/test-<lang>.jsonl`, one JSON object {idx, premise, hypothesis, label (0 entailment,
1 neutral, 2 contradiction)} per line, in the Hub's order. `idx` is not a Hub column: it only pairs the languages,
which are translations of the same pairs and must hold the same idx sequence; it is left out of the copy.
"""

from __future__ import annotations

from pathlib import Path

from lm_eval_xling.data import Field
from lm_eval_xling.data.parallel_raw import build_parallel
from lm_eval_xling.xsense.schema import XNLI

SPEC = XNLI


def build(raw: Path, out: Path) -> dict[str, int]:
    return build_parallel(SPEC, raw / "xnli", "idx", {"idx": Field(int), **XNLI.fields}, out)
