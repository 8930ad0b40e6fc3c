"""Build the X-PARADE dataset (lm-eval-xling/xparade): one record per paragraph pair, per direction and split.

Raw source: the X-PARADE repository's `complete_data_<lang>/<pair_type>-adj-<split>.json` files. Token "0" of
each pair is a language tag ("ES:") and not part of the paragraph: it is dropped, and token keys (which may have
gaps) become positions 0..n-1 in `target_tokens`. Gold labels come from the adjudicated `labels`; each annotator's
"new information" and "new information (inferable)" spans are kept as positions ("connotation difference" is not
one of the benchmark's labels).
"""

from __future__ import annotations

import json
from pathlib import Path

from lm_eval_xling.data import DatasetError, SourceMissing, write_split
from lm_eval_xling.schemas import XPARADE

SPEC = XPARADE
_LABELS = ("same", "new", "inf")


def pair_record(raw: dict, where: str, record_id: str) -> dict:
    """One pair in the dataset's schema; errors name the file, the record and the field."""
    keys = sorted(int(k) for k in raw["tokens"] if k != "0")
    position = {k: i for i, k in enumerate(keys)}
    label_of: dict[int, str] = {}
    for label in _LABELS:
        for k in raw["labels"][label]:
            label_of[int(k)] = label
    if missing := [k for k in keys if k not in label_of]:
        raise DatasetError(
            f"{XPARADE.hub_id}: {where} record {record_id} field 'labels': no label for tokens {missing}"
        )
    source_lang, target_lang = raw["pair_type"].split("-")
    annotations = sorted(raw["annotations"], key=lambda a: a["annotator_id"])

    def positions(spans: list) -> list[int]:
        return sorted({position[int(k)] for k in spans if int(k) in position})

    return {
        "id": record_id,
        "pageid": str(raw["pageid"]),
        "title": raw["title"],
        "source_lang": source_lang,
        "target_lang": target_lang,
        "source": raw["premise"],
        "target": raw["text"],
        "target_tokens": [raw["tokens"][str(k)] for k in keys],
        "gold": [label_of[k] for k in keys],
        "annotator_ids": [a["annotator_id"] for a in annotations],
        "annotator_new": [positions(a["spans"].get("new information", [])) for a in annotations],
        "annotator_inf": [positions(a["spans"].get("new information (inferable)", [])) for a in annotations],
        "translations": [raw[k] for k in ("translation", "translation2", "translation3") if raw.get(k)],
    }


def build(raw: Path, out: Path) -> dict[str, int]:
    source = raw / "xparade"
    if not source.is_dir():
        raise SourceMissing(f"X-PARADE raw data not found: {source}")
    counts = {}
    for direction in XPARADE.subsets:
        folder = source / f"complete_data_{next(lang for lang in direction.split('-') if lang != 'en')}"
        for split in XPARADE.splits:
            path = folder / f"{direction}-adj-{split}.json"
            pairs = json.loads(path.read_text(encoding="utf-8"))
            records = [pair_record(p, str(path), f"{direction}-{split}-{i:03d}") for i, p in enumerate(pairs)]
            write_split(out, XPARADE, direction, split, records)
            counts[f"{direction}/{split}"] = len(records)
    return counts
