"""Hub dataset id <-> local directory, and schema checks with precise errors.

Every task reads its data through `load_dataset`. By default it loads the dataset from the Hugging Face Hub;
when the environment variable LM_EVAL_XLING_DATA names a directory, every task reads the same dataset from
`$LM_EVAL_XLING_DATA/<hub id>/<subset>/<split>.parquet` (or `.jsonl`), the layout `lm-eval-xling data build`
writes and the Hub repository holds.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import datasets
import pyarrow as pa
import pyarrow.json
import pyarrow.parquet as pq

DATA_ENV = "LM_EVAL_XLING_DATA"
FORMATS = (".parquet", ".jsonl")


class DatasetError(ValueError):
    """A dataset is missing or a record does not match its schema."""


class SourceMissing(FileNotFoundError):
    """A builder's raw source is absent here: the dataset is skipped, not failed."""


@dataclass(frozen=True)
class Field:
    """One column: its Python type and, for categorical columns, the allowed values."""

    type: type
    choices: tuple[Any, ...] | None = None
    nullable: bool = False


@dataclass(frozen=True)
class DatasetSpec:
    """What a Hub dataset holds: its id, subsets (configs), splits and record schema."""

    hub_id: str
    subsets: tuple[str, ...]
    splits: tuple[str, ...]
    fields: Mapping[str, Field] = field(default_factory=dict)

    def check_record(self, record: Mapping[str, Any], where: str, index: int) -> None:
        """Raise DatasetError naming the file, record and field when `record` breaks the schema."""
        for name, spec in self.fields.items():
            prefix = f"{self.hub_id}: {where} record {index} field {name!r}"
            if name not in record:
                raise DatasetError(f"{prefix}: missing (record has {sorted(record)})")
            value = record[name]
            if value is None and spec.nullable:
                continue
            ok_type = isinstance(value, spec.type) and not (spec.type is int and isinstance(value, bool))
            if not ok_type:
                raise DatasetError(f"{prefix}: expected {spec.type.__name__}, got {type(value).__name__} {value!r:.80}")
            if spec.choices is not None and value not in spec.choices:
                raise DatasetError(f"{prefix}: expected one of {list(spec.choices)}, got {value!r:.80}")

    def check_records(self, records: Iterable[Mapping[str, Any]], where: str) -> None:
        for index, record in enumerate(records):
            self.check_record(record, where, index)


def jsonl_lines(path: Path, error: type[Exception] = DatasetError) -> Iterator[tuple[int, Any]]:
    """(line number, parsed value) for every non-blank line of a JSONL file; a line that is not JSON raises `error`
    naming the file and the line."""
    with path.open(encoding="utf-8") as f:
        for line_no, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                yield line_no, json.loads(line)
            except json.JSONDecodeError as err:
                raise error(f"{path}:{line_no}: not a JSON line ({err})") from err


def local_root() -> Path | None:
    """The directory named by LM_EVAL_XLING_DATA, or None when tasks load from the Hub."""
    value = os.environ.get(DATA_ENV)
    return Path(value).expanduser() if value else None


def split_file(root: Path, spec: DatasetSpec, subset: str, split: str) -> Path | None:
    """The existing file of one split under `root`, or None."""
    for suffix in FORMATS:
        path = root / spec.hub_id / subset / f"{split}{suffix}"
        if path.is_file():
            return path
    return None


def _read_table(path: Path, spec: DatasetSpec) -> pa.Table:
    try:
        if path.suffix == ".parquet":
            return pq.read_table(path)
        return pyarrow.json.read_json(path)
    except (pa.ArrowInvalid, OSError) as err:
        raise DatasetError(f"{spec.hub_id}: {path} is not a readable {path.suffix} file: {err}") from err


def load_local(root: Path, spec: DatasetSpec, subset: str) -> datasets.DatasetDict:
    """Read every split of `subset` from a local copy, checking each record against the schema."""
    splits = {}
    for split in spec.splits:
        path = split_file(root, spec, subset, split)
        if path is None:
            expected = " or ".join(str(root / spec.hub_id / subset / f"{split}{s}") for s in FORMATS)
            raise DatasetError(
                f"{spec.hub_id} (subset {subset!r}, split {split!r}) is missing from {DATA_ENV}={root}: "
                f"expected {expected}. Build it with `lm-eval-xling data build --out {root}`, "
                f"or unset {DATA_ENV} to load from the Hugging Face Hub."
            )
        table = _read_table(path, spec)
        spec.check_records(table.to_pylist(), str(path))
        splits[split] = datasets.Dataset(table)
    return datasets.DatasetDict(splits)


def load_dataset(spec: DatasetSpec, subset: str) -> datasets.DatasetDict:
    """Load one subset of a dataset from the local copy if LM_EVAL_XLING_DATA is set, else from the Hub."""
    if subset not in spec.subsets:
        raise DatasetError(f"{spec.hub_id}: unknown subset {subset!r}; expected one of {list(spec.subsets)}")
    root = local_root()
    if root is not None:
        return load_local(root, spec, subset)
    loaded = datasets.load_dataset(spec.hub_id, subset)
    for split in spec.splits:
        spec.check_records(loaded[split], f"hf://datasets/{spec.hub_id}/{subset}/{split}")
    return loaded


def write_split(out: Path, spec: DatasetSpec, subset: str, split: str, records: list[dict[str, Any]]) -> Path:
    """Check `records` against the schema and write them as one Parquet split under `out` (a data root)."""
    path = out / spec.hub_id / subset / f"{split}.parquet"
    spec.check_records(records, f"{path} (being built)")
    path.parent.mkdir(parents=True, exist_ok=True)
    columns = {name: [r[name] for r in records] for name in spec.fields}
    pq.write_table(pa.table(columns), path)
    return path
