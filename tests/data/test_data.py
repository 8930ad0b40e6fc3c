"""The local-data setting (LM_EVAL_XLING_DATA), the Hub path, and the errors users see on bad data."""

from __future__ import annotations

import json
import shutil

import datasets
import lm_eval
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from support.common import run_cli

from lm_eval_xling.data import DatasetError, load_dataset
from lm_eval_xling.nsp.schema import NSP


def test_missing_dataset_names_id_subset_and_expected_file(monkeypatch, tmp_path):
    monkeypatch.setenv("LM_EVAL_XLING_DATA", str(tmp_path))
    with pytest.raises(DatasetError) as err:
        lm_eval.simple_evaluate(model="dummy", tasks=["nsp_hausa"], limit=2)
    message = str(err.value)
    assert "lm-eval-xling/nsp (subset 'ha', split 'test')" in message
    assert str(tmp_path / "lm-eval-xling" / "nsp" / "ha" / "test.parquet") in message
    assert "lm-eval-xling data build" in message


def test_malformed_record_names_file_record_and_field(monkeypatch, tmp_path, data_root):
    root = tmp_path / "data"
    shutil.copytree(data_root, root)
    path = root / "lm-eval-xling" / "nsp" / "ha" / "test.parquet"
    records = pq.read_table(path).to_pylist()
    records[3]["label"] = "C"
    records[4]["context"] = None
    pq.write_table(pa.Table.from_pylist(records[:5]), path)
    monkeypatch.setenv("LM_EVAL_XLING_DATA", str(root))
    with pytest.raises(DatasetError, match=rf"{path} record 3 field 'label': expected one of \['A', 'B'\], got 'C'"):
        lm_eval.simple_evaluate(model="dummy", tasks=["nsp_hausa"], limit=2)

    pq.write_table(pa.Table.from_pylist(records[3:5]).drop_columns("label"), path)
    with pytest.raises(DatasetError, match=rf"{path} record 0 field 'label': missing"):
        lm_eval.simple_evaluate(model="dummy", tasks=["nsp_hausa"], limit=2)

    pq.write_table(pa.Table.from_pylist(records[4:5]), path)
    with pytest.raises(DatasetError, match=rf"{path} record 0 field 'context': expected str, got NoneType"):
        lm_eval.simple_evaluate(model="dummy", tasks=["nsp_hausa"], limit=2)


def test_unreadable_file_is_named(monkeypatch, tmp_path, data_root):
    root = tmp_path / "data"
    shutil.copytree(data_root, root)
    path = root / "lm-eval-xling" / "nsp" / "sw" / "test.parquet"
    path.write_text("not parquet")
    monkeypatch.setenv("LM_EVAL_XLING_DATA", str(root))
    with pytest.raises(DatasetError, match=rf"lm-eval-xling/nsp: {path} is not a readable .parquet file"):
        lm_eval.simple_evaluate(model="dummy", tasks=["nsp_swahili"], limit=2)


def test_jsonl_split_files_are_read_too(monkeypatch, tmp_path, data_root):
    root = tmp_path / "data"
    shutil.copytree(data_root, root)
    folder = root / "lm-eval-xling" / "nsp" / "en"
    pq.read_table(folder / "test.parquet").to_pandas().to_json(folder / "test.jsonl", orient="records", lines=True)
    (folder / "test.parquet").unlink()
    monkeypatch.setenv("LM_EVAL_XLING_DATA", str(root))
    results = lm_eval.simple_evaluate(model="dummy", tasks=["nsp_english"], limit=2, log_samples=True)
    assert [s["doc"]["id"] for s in results["samples"]["nsp_english"]] == ["en-00000", "en-00001"]


def test_without_the_setting_tasks_load_the_hub_dataset(monkeypatch, tmp_path, data_root):
    """The Hub path is `datasets.load_dataset(<hub id>, <subset>)`, schema-checked like a local copy."""
    monkeypatch.delenv("LM_EVAL_XLING_DATA", raising=False)
    monkeypatch.setenv("LM_EVAL_XLING_CACHE", str(tmp_path / "empty-cache"))  # no build there
    calls = []
    local = datasets.Dataset.from_parquet(str(data_root / "lm-eval-xling/nsp/ha/test.parquet"))

    def fake_hub(path, name=None, **kwargs):
        calls.append((path, name))
        return datasets.DatasetDict({"test": local, "test_1k": local.remove_columns("label")})

    monkeypatch.setattr(datasets, "load_dataset", fake_hub)
    with pytest.raises(
        DatasetError,
        match="hf://datasets/lm-eval-xling/nsp/ha/test_1k record 0 field 'label': missing",
    ):
        lm_eval.simple_evaluate(model="dummy", tasks=["nsp_hausa"], limit=2)
    assert calls == [("lm-eval-xling/nsp", "ha")]


def test_plain_lm_eval_finds_the_cache_folders_build_and_says_one_line_without_one(tmp_path, synthetic_raw):
    """The design card's command with no setting: after `data build` (default: the cache folder) it runs offline;
    with no build and no Hub it prints one line naming the dataset and both ways to get it, and exits 2."""
    empty = {"LM_EVAL_XLING_CACHE": str(tmp_path / "empty"), "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}
    command = ("lm_eval", "--model", "dummy", "--tasks", "nsp_hausa,nsp_global_sw", "--limit", "2")
    proc = run_cli(*command, env=empty, check=False)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr[-2000:]
    line = [x for x in proc.stderr.splitlines() if x.startswith("lm-eval-xling: ")]
    assert line == [
        "lm-eval-xling: lm-eval-xling/nsp is not built here and the Hugging Face Hub did not give it "
        f"({line[0].split('(')[1].split(')')[0]}); get it either way: `lm-eval-xling data build` (from the raw "
        "sources, into the cache folder), or set LM_EVAL_XLING_DATA to a data root that holds it"
    ]
    cache = {"LM_EVAL_XLING_CACHE": str(tmp_path / "cache")}
    run_cli("lm-eval-xling", "data", "build", "--raw", str(synthetic_raw), "--only", "nsp", "nsp_global", env=cache)
    out = tmp_path / "out"
    run_cli(*command, "--output_path", str(out), env={**empty, **cache})
    results = json.loads(next(out.rglob("results_*.json")).read_text(encoding="utf-8"))
    assert {"nsp_hausa", "nsp_global_sw"} <= set(results["results"])
    assert str(tmp_path) not in json.dumps(results)  # the cache folder's path is not in the results


def _nsp_copy(tmp_path, data_root, monkeypatch):
    """A copy of the built NSP dataset as the local data root; returns the Hausa test split's Parquet path."""
    root = tmp_path / "data"
    shutil.copytree(data_root / "lm-eval-xling" / "nsp", root / "lm-eval-xling" / "nsp")
    monkeypatch.setenv("LM_EVAL_XLING_DATA", str(root))
    return root / "lm-eval-xling" / "nsp" / "ha" / "test.parquet"


def _as_jsonl(path, records):
    jsonl = path.with_suffix(".jsonl")
    jsonl.write_text("".join(json.dumps(r) + "\n" for r in records))
    path.unlink(missing_ok=True)
    return jsonl


@pytest.mark.parametrize("form", ["parquet", "jsonl"])
def test_an_empty_split_is_an_error_naming_dataset_and_file(monkeypatch, tmp_path, data_root, form):
    path = _nsp_copy(tmp_path, data_root, monkeypatch)
    if form == "parquet":
        pq.write_table(pq.read_table(path).slice(0, 0), path)
    else:
        path = _as_jsonl(path, [])
    # before: the run died inside `datasets` with "IndexError: Invalid key: 0 is out of bounds for size 0"
    expected = rf"lm-eval-xling/nsp \(subset 'ha', split 'test'\): {path} holds no records"
    with pytest.raises(DatasetError, match=expected):
        lm_eval.simple_evaluate(model="dummy", tasks=["nsp_hausa"], limit=1)


def test_jsonl_errors_name_the_line_past_the_first_megabyte(monkeypatch, tmp_path, data_root):
    path = _nsp_copy(tmp_path, data_root, monkeypatch)
    records = pq.read_table(path).to_pylist()
    records = [records[i % len(records)] | {"context": records[i % len(records)]["context"] * 4} for i in range(3500)]
    jsonl = _as_jsonl(path, records)
    assert jsonl.stat().st_size > 2**20 * 3000 / 3500
    lines = jsonl.read_bytes().split(b"\n")
    lines[3000] = b"\xff" + lines[3000]  # line 3001
    jsonl.write_bytes(b"\n".join(lines))
    with pytest.raises(DatasetError, match=rf"{jsonl}:3001: not UTF-8 \(byte 0xff at column 1\)"):
        load_dataset(NSP, "ha")  # before: pyarrow's bare UnicodeDecodeError; rows past 1 MB numbered per block

    records[2]["story_id"] = 2.5
    _as_jsonl(path, records)
    with pytest.raises(DatasetError, match=rf"{jsonl} line 3 field 'story_id': expected int, got float 2.5"):
        load_dataset(NSP, "ha")  # before: "record 0" (pyarrow had made the whole column float)

    records[2]["story_id"] = 2
    _as_jsonl(path, records)
    jsonl.write_text(jsonl.read_text()[:-30])  # a write cut off mid-line
    with pytest.raises(DatasetError, match=rf"{jsonl}:3500: not a JSON line"):
        load_dataset(NSP, "ha")
