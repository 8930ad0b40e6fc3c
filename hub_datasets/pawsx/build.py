"""Build a local copy of google-research-datasets/paws-x (configs en/de/zh, split test) from raw JSONL files.

The Hub already publishes this dataset; the copy lets the multi-sense-consistency tasks read it through
LM_EVAL_XLING_DATA with exactly the Hub's columns (id, sentence1, sentence2, label), so both sources give the same
records. Raw source: `pawsx/test-<lang>.jsonl`, one JSON object {id, sentence1, sentence2, label (1 = paraphrase)}
per line, in the Hub's order. The languages are translations of the same pairs: their ids must be the same sequence
(their labels may differ slightly, as on the Hub, so each language keeps its own).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from lm_eval_xling.data import DatasetError, Field, SourceMissing, write_split
from lm_eval_xling.schemas import PAWSX

SPEC = PAWSX
FOLDER = "pawsx"
KEY = "id"  # the field that pairs the languages' records
RAW_FIELDS: Mapping[str, Field] = PAWSX.fields  # the raw records carry the Hub's columns


def read_jsonl(path: Path, fields: Mapping[str, Field]) -> list[tuple[int, dict[str, Any]]]:
    """(line number, record) for every non-blank line; errors name the file, the line and the field."""
    if not path.is_file():
        raise DatasetError(f"{SPEC.hub_id}: raw file missing: {path}")
    records = []
    for number, data in enumerate(path.read_bytes().splitlines(), start=1):
        where = f"{SPEC.hub_id}: {path} line {number}"
        try:
            line = data.decode("utf-8")
        except UnicodeDecodeError as err:
            raise DatasetError(f"{where}: not UTF-8 ({err.reason} at byte {err.start})") from None
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as err:
            raise DatasetError(f"{where}: not valid JSON ({err.msg} at column {err.colno})") from None
        if not isinstance(record, dict):
            raise DatasetError(f"{where}: expected a JSON object, got {type(record).__name__}")
        for name, spec in fields.items():
            if name not in record:
                raise DatasetError(f"{where} field {name!r}: missing (record has {sorted(record)})")
            value = record[name]
            if not isinstance(value, spec.type) or (spec.type is int and isinstance(value, bool)):
                raise DatasetError(
                    f"{where} field {name!r}: expected {spec.type.__name__}, got {type(value).__name__} {value!r:.80}"
                )
            if spec.choices is not None and value not in spec.choices:
                raise DatasetError(f"{where} field {name!r}: expected one of {list(spec.choices)}, got {value!r:.80}")
        records.append((number, record))
    if not records:
        raise DatasetError(f"{SPEC.hub_id}: {path} holds no records")
    return records


def check_parallel(files: Mapping[str, tuple[Path, list[tuple[int, dict[str, Any]]]]]) -> None:
    """Every language holds the same KEY values in the same order (unique within a file)."""
    for path, records in files.values():
        first_line: dict[Any, int] = {}
        for number, record in records:
            if record[KEY] in first_line:
                raise DatasetError(
                    f"{SPEC.hub_id}: {path} line {number} field {KEY!r}: duplicate {record[KEY]!r} "
                    f"(first on line {first_line[record[KEY]]})"
                )
            first_line[record[KEY]] = number
    (ref_path, ref), *others = files.values()
    for path, records in others:
        for (ref_number, ref_record), (number, record) in zip(ref, records, strict=False):
            if record[KEY] != ref_record[KEY]:
                raise DatasetError(
                    f"{SPEC.hub_id}: {path} line {number} field {KEY!r}: {record[KEY]!r}, but {ref_path} line "
                    f"{ref_number} has {ref_record[KEY]!r}: the languages must hold the same pairs in the same order"
                )
        if len(records) != len(ref):
            raise DatasetError(
                f"{SPEC.hub_id}: {path} holds {len(records)} records, {ref_path} {len(ref)}: "
                "the languages must hold the same pairs in the same order"
            )


def build(raw: Path, out: Path) -> dict[str, int]:
    """Write every language's test split under the data root `out`; return record and label counts."""
    source = raw / FOLDER
    if not source.is_dir():
        raise SourceMissing(f"PAWS-X raw data not found: {source}")
    files = {}
    for language in SPEC.subsets:
        path = source / f"test-{language}.jsonl"
        files[language] = (path, read_jsonl(path, RAW_FIELDS))
    check_parallel(files)
    counts = {}
    for language, (_, raw_records) in files.items():
        records = [{name: record[name] for name in SPEC.fields} for _, record in raw_records]
        write_split(out, SPEC, language, "test", records)
        counts[f"{language}/test"] = len(records)
        labels = Counter(r["label"] for r in records)
        for label in SPEC.fields["label"].choices:
            counts[f"{language}/test/label_{label}"] = labels[label]
    return counts
