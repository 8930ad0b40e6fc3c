"""Build the X-PARADE dataset (lm-eval-xling/xparade): one record per paragraph pair, per direction and split.

Raw source: the X-PARADE repository's `complete_data_<lang>/<pair_type>-adj-<split>.json` files. Token "0" of
each pair is a language tag ("ES:") and not part of the paragraph: it is dropped, and token keys (which may have
gaps) become positions 0..n-1 in `target_tokens`. Gold labels come from the adjudicated `labels`; each annotator's
"new information", "new information (inferable)" and "connotation difference" spans are kept as positions (the
paper's adjudication counts connotation as inferable, section 3.3; the gold labels already do).
"""

from __future__ import annotations

import json
from pathlib import Path

from lm_eval_xling.data import DatasetError, Field, SourceMissing, check_fields, field_errors, raw_text, write_split
from lm_eval_xling.files import parse_json
from lm_eval_xling.xparade.schema import XPARADE

SPEC = XPARADE
_LABELS = ("same", "new", "inf")
_RAW_FIELDS = {
    "tokens": Field(dict),
    "labels": Field(dict),
    "pair_type": Field(str),
    "annotations": Field(list),
    "pageid": Field(object),
    "title": Field(str),
    "premise": Field(str),
    "text": Field(str),
}


def _token_key(key: object) -> int:
    """A token key as the raw files write it (7 or "7"); anything else (1.5, "x", True) is malformed."""
    if isinstance(key, int) and not isinstance(key, bool):
        return key
    if isinstance(key, str) and key.isascii() and key.isdigit():
        return int(key)
    raise ValueError(f"token key {key!r} is not a whole number")


def pair_record(raw: dict, where: str, record_id: str) -> dict:
    """One pair in the dataset's schema; errors name the file, the record and the field."""
    if not isinstance(raw, dict):
        raise DatasetError(f"{XPARADE.hub_id}: {where} record {record_id}: expected a JSON object")
    where = f"{XPARADE.hub_id}: {where} record {record_id}"
    check_fields(raw, _RAW_FIELDS, where)
    with field_errors(where, "tokens"):
        keys = sorted(_token_key(k) for k in raw["tokens"] if k != "0")
        tokens = [raw["tokens"][str(k)] for k in keys]
    position = {k: i for i, k in enumerate(keys)}
    label_of: dict[int, str] = {}
    with field_errors(where, "labels"):
        for label in _LABELS:
            for k in map(_token_key, raw["labels"][label]):
                if label_of.setdefault(k, label) != label:
                    raise ValueError(f"token {k} is labelled both {label_of[k]} and {label}")
    if missing := [k for k in keys if k not in label_of]:
        raise DatasetError(f"{where} field 'labels': no label for tokens {missing}")
    with field_errors(where, "pair_type"):
        source_lang, target_lang = raw["pair_type"].split("-")

    def positions(spans: list) -> list[int]:
        return sorted({position[k] for k in map(_token_key, spans) if k in position})

    with field_errors(where, "annotations"):
        annotations = sorted(raw["annotations"], key=lambda a: a["annotator_id"])
        spans = {
            name: [positions(a["spans"].get(name, [])) for a in annotations]
            for name in ("new information", "new information (inferable)", "connotation difference")
        }
    return {
        "id": record_id,
        "pageid": str(raw["pageid"]),
        "title": raw["title"],
        "source_lang": source_lang,
        "target_lang": target_lang,
        "source": raw["premise"],
        "target": raw["text"],
        "target_tokens": tokens,
        "gold": [label_of[k] for k in keys],
        "annotator_ids": [a["annotator_id"] for a in annotations],
        "annotator_new": spans["new information"],
        "annotator_inf": spans["new information (inferable)"],
        "annotator_conn": spans["connotation difference"],
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
            try:
                pairs = parse_json(raw_text(path, XPARADE))
            except json.JSONDecodeError as err:
                raise DatasetError(
                    f"{XPARADE.hub_id}: {path} line {err.lineno} column {err.colno}: not valid JSON ({err.msg})"
                ) from None
            if not isinstance(pairs, list):
                raise DatasetError(f"{XPARADE.hub_id}: {path}: expected a JSON list of pairs")
            records = [pair_record(p, str(path), f"{direction}-{split}-{i:03d}") for i, p in enumerate(pairs)]
            write_split(out, XPARADE, direction, split, records, path)
            counts[f"{direction}/{split}"] = len(records)
    return counts
