"""Hub dataset id <-> local directory, and schema checks with precise errors.

Every task reads its data through `load_dataset`. When the environment variable LM_EVAL_XLING_DATA names a
directory, every task reads its dataset from `$LM_EVAL_XLING_DATA/<hub id>/<subset>/<split>.parquet` (or
`.jsonl`), the layout `lm-eval-xling data build` writes and the Hub repository holds. Unset, a task reads the
dataset from the cache folder where `data build` (or the main job) built it there, else from the Hugging Face Hub.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import datasets
import pyarrow as pa
import pyarrow.parquet as pq

from lm_eval_xling.config import DATA_ENV, built_root, local_root
from lm_eval_xling.errors import UserError, stop
from lm_eval_xling.files import parse_json

FORMATS = (".parquet", ".jsonl")


class DatasetError(UserError):
    """A dataset is missing or a record does not match its schema."""


class SourceMissing(FileNotFoundError):
    """A builder's raw source is absent here: the dataset is skipped, not failed."""


@dataclass(frozen=True)
class Field:
    """One column: its Python type and, for categorical columns, the allowed values."""

    type: type
    choices: tuple[Any, ...] | None = None
    nullable: bool = False


def check_fields(record: Mapping[str, Any], fields: Mapping[str, Field], where: str) -> None:
    """Raise DatasetError naming `where` (file and record) and the field when `record` breaks `fields`."""
    for name, spec in fields.items():
        prefix = f"{where} field {name!r}"
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


@dataclass(frozen=True)
class DatasetSpec:
    """What a Hub dataset holds: its id, subsets (configs), splits and record schema."""

    hub_id: str
    subsets: tuple[str, ...]
    splits: tuple[str, ...]
    fields: Mapping[str, Field] = field(default_factory=dict)

    def check_record(self, record: Mapping[str, Any], where: str, index: int) -> None:
        """Raise DatasetError naming the file, record and field when `record` breaks the schema."""
        check_fields(record, self.fields, f"{self.hub_id}: {where} record {index}")

    def check_records(self, records: Iterable[Mapping[str, Any]], where: str) -> None:
        for index, record in enumerate(records):
            self.check_record(record, where, index)


def not_utf8(path: Path, data: bytes, err: UnicodeDecodeError, first_line: int = 1) -> str:
    """Where a UTF-8 decoding error of `data` (read from `path`, starting at line `first_line`) lies: line, column
    and the byte."""
    line_start = data.rfind(b"\n", 0, err.start) + 1
    line_no = data.count(b"\n", 0, line_start) + first_line
    return f"{path}:{line_no}: not UTF-8 (byte {data[err.start]:#04x} at column {err.start - line_start + 1})"


def jsonl_lines(path: Path, error: Callable[[str], Exception] = DatasetError) -> Iterator[tuple[int, Any]]:
    """(line number, parsed value) for every non-blank line of a JSONL file; a line that is not UTF-8, not JSON or
    holds a lone surrogate raises `error` naming the file and the line."""
    with path.open("rb") as f:
        for line_no, data in enumerate(f, 1):
            try:
                line = data.decode("utf-8")
            except UnicodeDecodeError as err:
                raise error(not_utf8(path, data, err, line_no)) from None
            if not line.strip():
                continue
            try:
                value = parse_json(line)
            except json.JSONDecodeError as err:
                raise error(f"{path}:{line_no}: not a JSON line ({err})") from err
            if ("\\ud" in line or "\\uD" in line) and _lone_surrogate(value):
                raise error(
                    f"{path}:{line_no}: holds a lone surrogate escape (\\ud800-\\udfff alone), which is no text"
                )
            yield line_no, value


def _lone_surrogate(value: Any) -> bool:
    """Whether a parsed JSON value holds half of a surrogate pair: it cannot be written as UTF-8 (a hash, a
    copy, a report of it fails), so no harness wrote it."""
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def raw_text(path: Path, spec: DatasetSpec) -> str:
    """A raw source file's text; a byte that is not UTF-8 raises DatasetError naming the file and the line."""
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise DatasetError(f"{spec.hub_id}: {not_utf8(path, data, err)}") from None


@contextmanager
def field_errors(where: str, name: str) -> Iterator[None]:
    """Re-raise a malformed raw value's KeyError, TypeError, ValueError or AttributeError as a DatasetError naming
    `where` (file and record) and the field `name`."""
    try:
        yield
    except DatasetError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as err:
        detail = f"missing key {err}" if isinstance(err, KeyError) else str(err)
        raise DatasetError(f"{where} field {name!r}: malformed ({detail})") from None


def split_file(root: Path, spec: DatasetSpec, subset: str, split: str) -> Path | None:
    """The existing file of one split under `root`, or None."""
    for suffix in FORMATS:
        path = root / spec.hub_id / subset / f"{split}{suffix}"
        if path.is_file():
            return path
    return None


def _read_records(path: Path, spec: DatasetSpec) -> list[dict[str, Any]]:
    """The records of one split file, each checked against the schema; errors name the file, the record (Parquet:
    its 0-based index; JSONL: its line) and the field."""
    if path.suffix == ".jsonl":
        records = []
        for line_no, record in jsonl_lines(path):
            where = f"{spec.hub_id}: {path} line {line_no}"
            if not isinstance(record, dict):
                raise DatasetError(f"{where}: expected a JSON object, got {type(record).__name__}")
            check_fields(record, spec.fields, where)
            records.append(record)
        return records
    try:
        records = pq.read_table(path).to_pylist()
    except (pa.ArrowInvalid, OSError) as err:
        raise DatasetError(f"{spec.hub_id}: {path} is not a readable {path.suffix} file: {err}") from err
    spec.check_records(records, str(path))
    return records


def load_local(root: Path, spec: DatasetSpec, subset: str) -> datasets.DatasetDict:
    """Read every split of `subset` from a local copy, checking each record against the schema."""
    splits = {}
    for split in spec.splits:
        path = split_file(root, spec, subset, split)
        if path is None:
            expected = " or ".join(str(root / spec.hub_id / subset / f"{split}{s}") for s in FORMATS)
            raise DatasetError(
                f"{spec.hub_id} (subset {subset!r}, split {split!r}) is missing from {root}: "
                f"expected {expected}. Build it with `lm-eval-xling data build --out {root}`"
                + (f", or unset {DATA_ENV} to load from the Hugging Face Hub." if root == local_root() else ".")
            )
        records = _read_records(path, spec)
        if not records:
            raise DatasetError(f"{spec.hub_id} (subset {subset!r}, split {split!r}): {path} holds no records")
        try:
            splits[split] = datasets.Dataset(pa.Table.from_pylist(records))
        except (pa.ArrowInvalid, pa.ArrowTypeError) as err:  # columns outside the schema with mixed types
            raise DatasetError(f"{spec.hub_id}: {path}: records do not form one table ({err})") from err
    return datasets.DatasetDict(splits)


def data_root(hub_id: str) -> Path | None:
    """The data root a task reads `hub_id` from: LM_EVAL_XLING_DATA where set, else the cache folder where a build
    put the dataset there, else None (the Hub)."""
    root = local_root()
    if root is None and (built_root() / hub_id).is_dir():
        return built_root()
    return root


def unreachable(hub_id: str, err: Exception, how: str) -> DatasetError:
    """The one line for a dataset that is neither local nor on the Hub from here, with the two ways to get it."""
    return DatasetError(
        f"{hub_id} is not built here and the Hugging Face Hub did not give it ({type(err).__name__}); get it either "
        f"way: {how}, or set {DATA_ENV} to a data root that holds it"
    )


def load_dataset(spec: DatasetSpec, subset: str) -> datasets.DatasetDict:
    """Load one subset of a dataset from the local copy (LM_EVAL_XLING_DATA, else the cache folder's build) or the
    Hub. A subset the dataset does not publish is read where the local copy has it (a language of your own)."""
    root = data_root(spec.hub_id)
    if subset not in spec.subsets and (root is None or not (root / spec.hub_id / subset).is_dir()):
        stop(DatasetError(f"{spec.hub_id}: unknown subset {subset!r}; expected one of {list(spec.subsets)}"))
    if root is not None:
        try:
            return load_local(root, spec, subset)
        except DatasetError as err:
            stop(err)
    try:
        loaded = datasets.load_dataset(spec.hub_id, subset)
    except Exception as err:  # offline, no such repository, a proxy's error page: all say "not from the Hub"
        stop(unreachable(spec.hub_id, err, "`lm-eval-xling data build` (from the raw sources, into the cache folder)"))
    for split in spec.splits:
        where = f"hf://datasets/{spec.hub_id}/{subset}/{split}"
        if split in loaded and len(loaded[split]) == 0:
            raise DatasetError(f"{spec.hub_id} (subset {subset!r}, split {split!r}): {where} holds no records")
        spec.check_records(loaded[split], where)
    return loaded


def write_split(
    out: Path, spec: DatasetSpec, subset: str, split: str, records: list[dict[str, Any]], source: Path | None = None
) -> Path:
    """Check `records` (built from the raw file `source`) against the schema and write them as one Parquet split
    under `out` (a data root); an empty split is an error."""
    path = out / spec.hub_id / subset / f"{split}.parquet"
    if not records:
        raise DatasetError(f"{spec.hub_id} (subset {subset!r}, split {split!r}): no records from {source}")
    spec.check_records(records, f"{path} (being built)")
    path.parent.mkdir(parents=True, exist_ok=True)
    columns = {name: [r[name] for r in records] for name in spec.fields}
    pq.write_table(pa.table(columns), path)
    return path
