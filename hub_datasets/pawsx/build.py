"""Build a local copy of google-research-datasets/paws-x (configs en/de/zh, split test) from raw JSONL files.

The Hub already publishes this dataset; the copy lets the multi-sense-consistency tasks read it through
LM_EVAL_XLING_DATA with exactly the Hub's columns (id, sentence1, sentence2, label), so both sources give the same
records. Raw source: `pawsx/test-<lang>.jsonl`, one JSON object {id, sentence1, sentence2, label (1 = paraphrase)}
per line, in the Hub's order. The languages are translations of the same pairs: their ids must be the same sequence
(their labels may differ slightly, as on the Hub, so each language keeps its own).
"""

from __future__ import annotations

from pathlib import Path

from lm_eval_xling.data.parallel_raw import build_parallel
from lm_eval_xling.xsense.schema import PAWSX

SPEC = PAWSX


def build(raw: Path, out: Path) -> dict[str, int]:
    return build_parallel(SPEC, raw / "pawsx", "id", PAWSX.fields, out)
