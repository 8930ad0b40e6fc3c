"""Local copies of the Hub datasets that the multi-sense-consistency tasks read: PAWS-X and XNLI (en/de/zh test)."""

from __future__ import annotations

import json
import shutil
from collections import Counter

import datasets
import pyarrow.parquet as pq
import pytest
from support.common import RAW, run_cli

from lm_eval_xling.data import DatasetError, SourceMissing, load_dataset
from lm_eval_xling.data.builders import builders
from lm_eval_xling.xsense.schema import PAWSX, XNLI, XSENSE_LANGUAGES

needs_xsense = pytest.mark.skipif(
    not all((RAW / name).is_dir() for name in ("pawsx", "xnli")),
    reason=f"PAWS-X/XNLI raw data not found at {RAW / 'pawsx'} and {RAW / 'xnli'} (set LM_EVAL_XLING_RAW)",
)
HUB_COLUMNS = {"pawsx": ["id", "sentence1", "sentence2", "label"], "xnli": ["premise", "hypothesis", "label"]}
SPECS = {"pawsx": PAWSX, "xnli": XNLI}


def raw_records(raw, name: str, language: str) -> list[dict]:
    """The raw file's records restricted to the Hub's columns (what both sources must give)."""
    lines = (raw / name / f"test-{language}.jsonl").read_text(encoding="utf-8").splitlines()
    return [{column: json.loads(line)[column] for column in HUB_COLUMNS[name]} for line in lines if line.strip()]


def split_table(root, name: str, language: str):
    return pq.read_table(root / SPECS[name].hub_id / language / "test.parquet")


def test_specs_are_the_hubs():
    assert XSENSE_LANGUAGES == ("en", "de", "zh")
    assert PAWSX.hub_id == "google-research-datasets/paws-x" and XNLI.hub_id == "facebook/xnli"
    for name, spec in SPECS.items():
        assert list(spec.fields) == HUB_COLUMNS[name]
        assert spec.subsets == XSENSE_LANGUAGES and spec.splits == ("test",)
    assert PAWSX.fields["label"].choices == (0, 1) and XNLI.fields["label"].choices == (0, 1, 2)


def test_synthetic_build_counts_columns_and_parallel_ids(tmp_path, synthetic_raw):
    pawsx = builders()["pawsx"].build(synthetic_raw, tmp_path)
    xnli = builders()["xnli"].build(synthetic_raw, tmp_path)
    for lang in XSENSE_LANGUAGES:
        assert {k: v for k, v in pawsx.items() if k.startswith(f"{lang}/")} == {
            f"{lang}/test": 12, f"{lang}/test/label_0": 6, f"{lang}/test/label_1": 6,
        }  # fmt: skip
        assert {k: v for k, v in xnli.items() if k.startswith(f"{lang}/")} == {
            f"{lang}/test": 12, f"{lang}/test/label_0": 4, f"{lang}/test/label_1": 4, f"{lang}/test/label_2": 4,
        }  # fmt: skip
    for name in SPECS:
        tables = {lang: split_table(tmp_path, name, lang) for lang in XSENSE_LANGUAGES}
        for lang, table in tables.items():
            assert table.column_names == HUB_COLUMNS[name]  # exactly the Hub's: XNLI's raw `idx` is left out
            assert table.to_pylist() == raw_records(synthetic_raw, name, lang)
    ids = {lang: split_table(tmp_path, "pawsx", lang).column("id").to_pylist() for lang in XSENSE_LANGUAGES}
    assert ids["en"] == ids["de"] == ids["zh"] and len(set(ids["en"])) == 12


def test_data_build_writes_the_hub_layout_with_cards(data_root):
    for spec in SPECS.values():
        card = (data_root / spec.hub_id / "README.md").read_text(encoding="utf-8")
        assert card.startswith("---\n") and "local mirror" in card and "data push" in card
        for lang in XSENSE_LANGUAGES:
            assert f"config_name: {lang}" in card
            assert sorted(p.name for p in (data_root / spec.hub_id / lang).iterdir()) == ["test.parquet"]


@pytest.mark.parametrize("name", ["pawsx", "xnli"])
@pytest.mark.parametrize("language", XSENSE_LANGUAGES)
def test_tasks_load_the_local_copy_through_the_setting(local_data, synthetic_raw, name, language):
    loaded = load_dataset(SPECS[name], language)
    assert list(loaded) == ["test"]
    assert loaded["test"].column_names == HUB_COLUMNS[name]
    assert loaded["test"].to_list() == raw_records(synthetic_raw, name, language)


def test_hub_and_local_copy_give_the_same_records(monkeypatch, tmp_path, data_root):
    """Without the setting the same call loads `datasets.load_dataset(<hub id>, <lang>)`, schema-checked alike."""
    calls = []

    def fake_hub(path, name=None, **kwargs):
        calls.append((path, name))
        table = pq.read_table(data_root / path / name / "test.parquet")
        return datasets.DatasetDict({"test": datasets.Dataset(table)})

    monkeypatch.delenv("LM_EVAL_XLING_DATA", raising=False)
    monkeypatch.setenv("LM_EVAL_XLING_CACHE", str(tmp_path / "empty-cache"))  # no build there
    monkeypatch.setattr(datasets, "load_dataset", fake_hub)
    hub = {(n, lang): load_dataset(SPECS[n], lang)["test"].to_list() for n in SPECS for lang in XSENSE_LANGUAGES}
    assert calls == [(SPECS[n].hub_id, lang) for n in SPECS for lang in XSENSE_LANGUAGES]
    monkeypatch.setenv("LM_EVAL_XLING_DATA", str(data_root))
    for (n, lang), records in hub.items():
        assert load_dataset(SPECS[n], lang)["test"].to_list() == records


def _copy(synthetic_raw, tmp_path, name):
    raw = tmp_path / "raw"
    shutil.copytree(synthetic_raw / name, raw / name)
    return raw


def _rewrite_line(path, number: int, change) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[number - 1] = change(lines[number - 1])
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _with(**changes):
    return lambda line: json.dumps({**json.loads(line), **changes}, ensure_ascii=False)


def _without(field):
    return lambda line: json.dumps({k: v for k, v in json.loads(line).items() if k != field}, ensure_ascii=False)


@pytest.mark.parametrize(
    ("name", "language", "line", "change", "message"),
    [
        ("pawsx", "de", 5, lambda line: line[:-5], ":5: not a JSON line"),
        ("pawsx", "en", 3, lambda line: "[1, 2]", " line 3: expected a JSON object, got list"),
        ("pawsx", "zh", 7, _with(label=2), r" line 7 field 'label': expected one of \[0, 1\], got 2"),
        ("pawsx", "en", 2, _with(label=True), " line 2 field 'label': expected int, got bool True"),
        ("pawsx", "de", 12, _without("sentence2"), " line 12 field 'sentence2': missing"),
        ("pawsx", "zh", 1, _with(id="100"), " line 1 field 'id': expected int, got str '100'"),
        ("xnli", "zh", 4, _with(label=3), r" line 4 field 'label': expected one of \[0, 1, 2\], got 3"),
        ("xnli", "de", 9, _with(hypothesis=None), " line 9 field 'hypothesis': expected str, got NoneType None"),
        ("xnli", "en", 11, _without("idx"), " line 11 field 'idx': missing"),
    ],
)
def test_malformed_raw_line_names_file_line_and_field(tmp_path, synthetic_raw, name, language, line, change, message):
    raw = _copy(synthetic_raw, tmp_path, name)
    path = raw / name / f"test-{language}.jsonl"
    _rewrite_line(path, line, change)
    with pytest.raises(DatasetError, match=rf"{SPECS[name].hub_id}: {path}{message}"):
        builders()[name].build(raw, tmp_path / "out")
    assert not (tmp_path / "out").exists()  # nothing half-written


def test_languages_must_be_parallel(tmp_path, synthetic_raw):
    raw = _copy(synthetic_raw, tmp_path, "pawsx")
    de = raw / "pawsx" / "test-de.jsonl"
    _rewrite_line(de, 6, _with(id=999))
    with pytest.raises(
        DatasetError, match=rf"{de} line 6 field 'id': 999, but {raw / 'pawsx' / 'test-en.jsonl'} line 6 has 135"
    ):
        builders()["pawsx"].build(raw, tmp_path / "out")

    raw = _copy(synthetic_raw, tmp_path / "x", "xnli")
    zh = raw / "xnli" / "test-zh.jsonl"
    zh.write_text("".join(zh.read_text(encoding="utf-8").splitlines(keepends=True)[:-1]), encoding="utf-8")
    with pytest.raises(DatasetError, match=rf"{zh} holds 11 records, {raw / 'xnli' / 'test-en.jsonl'} 12"):
        builders()["xnli"].build(raw, tmp_path / "out")

    _rewrite_line(raw / "xnli" / "test-en.jsonl", 3, _with(idx=0))
    with pytest.raises(DatasetError, match=r"test-en.jsonl line 3 field 'idx': duplicate 0 \(first on line 1\)"):
        builders()["xnli"].build(raw, tmp_path / "out")


def test_missing_source_is_skipped_and_missing_language_file_is_an_error(tmp_path, synthetic_raw):
    (tmp_path / "nothing").mkdir()  # a raw folder without these sources (a missing folder is an error of its own)
    for name in SPECS:
        with pytest.raises(SourceMissing):
            builders()[name].build(tmp_path / "nothing", tmp_path / "out")
    skipped = run_cli(
        "lm-eval-xling", "data", "build", "--raw", str(tmp_path / "nothing"), "--out", str(tmp_path / "out"),
        "--only", "pawsx", "xnli", check=False,
    )  # fmt: skip
    assert skipped.returncode == 1
    assert "skipped pawsx: google-research-datasets/paws-x raw data not found" in skipped.stdout
    assert "skipped xnli: facebook/xnli raw data not found" in skipped.stdout

    raw = _copy(synthetic_raw, tmp_path, "xnli")
    (raw / "xnli" / "test-de.jsonl").unlink()
    with pytest.raises(DatasetError, match=rf"facebook/xnli: raw file missing: {raw / 'xnli' / 'test-de.jsonl'}"):
        builders()["xnli"].build(raw, tmp_path / "out")


@pytest.fixture(scope="module")
def real_build(tmp_path_factory):
    out = tmp_path_factory.mktemp("xsense-real")
    return out, {name: builders()[name].build(RAW, out) for name in SPECS}


@needs_xsense
def test_real_pawsx_counts_and_parallel_ids(real_build):
    out, counts = real_build
    assert counts["pawsx"] == {
        "en/test": 2000, "en/test/label_0": 1093, "en/test/label_1": 907,
        "de/test": 2000, "de/test/label_0": 1105, "de/test/label_1": 895,
        "zh/test": 2000, "zh/test/label_0": 1106, "zh/test/label_1": 894,
    }  # fmt: skip
    tables = {lang: split_table(out, "pawsx", lang) for lang in XSENSE_LANGUAGES}
    assert all(t.column_names == HUB_COLUMNS["pawsx"] for t in tables.values())
    ids = {lang: t.column("id").to_pylist() for lang, t in tables.items()}
    assert ids["en"] == ids["de"] == ids["zh"] and len(set(ids["en"])) == 2000


@needs_xsense
def test_real_xnli_counts_and_shared_labels(real_build):
    out, counts = real_build
    assert counts["xnli"] == {
        f"{lang}/test{part}": n
        for lang in XSENSE_LANGUAGES
        for part, n in (("", 5010), ("/label_0", 1670), ("/label_1", 1670), ("/label_2", 1670))
    }
    tables = {lang: split_table(out, "xnli", lang) for lang in XSENSE_LANGUAGES}
    assert all(t.column_names == HUB_COLUMNS["xnli"] for t in tables.values())
    labels = {lang: t.column("label").to_pylist() for lang, t in tables.items()}
    assert labels["en"] == labels["de"] == labels["zh"]
    assert Counter(labels["en"]) == {0: 1670, 1: 1670, 2: 1670}


@needs_xsense
@pytest.mark.parametrize("name", ["pawsx", "xnli"])
def test_real_local_copy_loads_the_raw_records_in_order(monkeypatch, real_build, name):
    out, _ = real_build
    monkeypatch.setenv("LM_EVAL_XLING_DATA", str(out))
    for lang in XSENSE_LANGUAGES:
        assert load_dataset(SPECS[name], lang)["test"].to_list() == raw_records(RAW, name, lang)
