"""Raw sources of parallel test sets (one JSONL file per language, the same items in the same order): the shared
reading and checking of the PAWS-X and XNLI builders in hub_datasets/."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from lm_eval_xling.data import (
    DatasetError,
    DatasetSpec,
    Field,
    SourceMissing,
    check_fields,
    jsonl_lines,
    write_split,
)

Lines = list[tuple[int, dict[str, Any]]]  # (line number, record)


def read_jsonl(spec: DatasetSpec, path: Path, fields: Mapping[str, Field]) -> Lines:
    """(line number, record) for every non-blank line; errors name the file, the line and the field."""
    if not path.is_file():
        raise DatasetError(f"{spec.hub_id}: raw file missing: {path}")
    records = []
    for number, record in jsonl_lines(path, error=lambda problem: DatasetError(f"{spec.hub_id}: {problem}")):
        where = f"{spec.hub_id}: {path} line {number}"
        if not isinstance(record, dict):
            raise DatasetError(f"{where}: expected a JSON object, got {type(record).__name__}")
        check_fields(record, fields, where)
        records.append((number, record))
    if not records:
        raise DatasetError(f"{spec.hub_id}: {path} holds no records")
    return records


def check_parallel(spec: DatasetSpec, key: str, files: Mapping[str, tuple[Path, Lines]]) -> None:
    """Every language holds the same `key` values in the same order (unique within a file)."""
    for path, records in files.values():
        first_line: dict[Any, int] = {}
        for number, record in records:
            if record[key] in first_line:
                raise DatasetError(
                    f"{spec.hub_id}: {path} line {number} field {key!r}: duplicate {record[key]!r} "
                    f"(first on line {first_line[record[key]]})"
                )
            first_line[record[key]] = number
    (ref_path, ref), *others = files.values()
    for path, records in others:
        for (ref_number, ref_record), (number, record) in zip(ref, records, strict=False):
            if record[key] != ref_record[key]:
                raise DatasetError(
                    f"{spec.hub_id}: {path} line {number} field {key!r}: {record[key]!r}, but {ref_path} line "
                    f"{ref_number} has {ref_record[key]!r}: the languages must hold the same pairs in the same order"
                )
        if len(records) != len(ref):
            raise DatasetError(
                f"{spec.hub_id}: {path} holds {len(records)} records, {ref_path} {len(ref)}: "
                "the languages must hold the same pairs in the same order"
            )


def build_parallel(
    spec: DatasetSpec, source: Path, key: str, raw_fields: Mapping[str, Field], out: Path
) -> dict[str, int]:
    """Write every language's test split from `source/test-<lang>.jsonl` under the data root `out` (nothing is
    written unless every file passes); return record and label counts."""
    if not source.is_dir():
        raise SourceMissing(f"{spec.hub_id} raw data not found: {source}")
    files = {}
    for language in spec.subsets:
        path = source / f"test-{language}.jsonl"
        files[language] = (path, read_jsonl(spec, path, raw_fields))
    check_parallel(spec, key, files)
    counts = {}
    for language, (_, raw_records) in files.items():
        records = [{name: record[name] for name in spec.fields} for _, record in raw_records]
        write_split(out, spec, language, "test", records, files[language][0])
        counts[f"{language}/test"] = len(records)
        labels = Counter(r["label"] for r in records)
        for label in spec.fields["label"].choices:
            counts[f"{language}/test/label_{label}"] = labels[label]
    return counts
