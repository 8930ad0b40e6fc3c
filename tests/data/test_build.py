"""`data build` on corrupt raw sources: every error names the raw file, the line or record and the field; one
corrupt source does not stop the others, and a failed build leaves no half-written dataset."""

from __future__ import annotations

import json
import shutil

import pytest
from support.common import run_cli

from lm_eval_xling.data import DatasetError
from lm_eval_xling.data.builders import build


def _replace(old: str, new: str):
    def corrupt(path):
        path.write_text(path.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")

    return corrupt


def _bad_byte(line: int):
    def corrupt(path):
        lines = path.read_bytes().split(b"\n")
        lines[line - 1] = b"\xff" + lines[line - 1]
        path.write_bytes(b"\n".join(lines))

    return corrupt


def _first_pair(edit):
    def corrupt(path):
        pairs = json.loads(path.read_text(encoding="utf-8"))
        edit(pairs[0])
        path.write_text(json.dumps(pairs), encoding="utf-8")

    return corrupt


CSV = "nsp/nsp_en_1000.csv"
XPARADE = "xparade/complete_data_es/en-es-adj-dev.json"
# (dataset, raw file, corruption, the error expected; {path} is the corrupted file). Before the fix, in order:
# ValueError: invalid literal for int(), KeyError: 'label', UnicodeDecodeError, a split of 0 records written,
# KeyError: 'tokens', ValueError: invalid literal for int(), label 1.5 read as 1, a token under two labels kept
# under the later, JSONDecodeError, a YAML error in "<unicode string>", a key written twice (the later kept), a
# PAWS-X line holding a lone surrogate (built, then unwritable).
CASES = [
    ("nsp", CSV, _replace("\n0,", "\nzero,"), r"{path} line 2 field 'story_id': malformed \(invalid literal"),
    ("nsp", CSV, _replace("label", "lable"), r"{path} line 1: missing column\(s\) \['label'\]"),
    ("nsp", "nsp/stories/sw.txt", _bad_byte(3), r"{path}:3: not UTF-8 \(byte 0xff at column 1\)"),
    ("nsp", CSV, lambda p: p.write_text(p.read_text().splitlines()[0] + "\n"), r"'test_1k'\): no records from {path}"),
    ("xparade", XPARADE, _first_pair(lambda pair: pair.pop("tokens")), r"{path} record en-es-dev-000 field 'tokens'"),
    ("xparade", XPARADE, _first_pair(lambda pair: pair["labels"].update(new=["x"])), r"field 'labels': malformed"),
    ("xparade", XPARADE, _first_pair(lambda pair: pair["labels"]["new"].append(1.5)), r"token key 1.5 is not a whole"),
    (
        "xparade",
        XPARADE,
        _first_pair(lambda pair: pair["labels"]["new"].append(pair["labels"]["same"][0])),
        r"field 'labels': malformed \(token \d+ is labelled both same and new\)",
    ),
    ("xparade", XPARADE, lambda p: p.write_text(p.read_text()[:-9]), r"{path} line 1 column \d+: not valid JSON"),
    ("quench", "quench/Data_Store/Q1.yml", _replace("question:", "question: [x"), r"{path} line 3 column \d+: not"),
    ("quench", "quench/Data_Store/Q1.yml", _replace("question:", "question: a\nquestion:"), r"duplicate key 'question"),
    ("pawsx", "pawsx/test-de.jsonl", _bad_byte(2), r"{path}:2: not UTF-8 \(byte 0xff at column 1\)"),
    ("pawsx", "pawsx/test-de.jsonl", _replace('"label"', '"label'), r"{path}:1: not a JSON line"),
    ("pawsx", "pawsx/test-zh.jsonl", _replace('"sentence1": "', '"sentence1": "\\ud800'), r"{path}:1: holds a lone"),
    ("xnli", "xnli/test-de.jsonl", _replace('"label": 0', '"label": "0"'), r"{path} line \d+ field 'label'"),
]


@pytest.mark.parametrize(("dataset", "file", "corrupt", "expected"), CASES, ids=[f"{c[0]}-{c[3][7:40]}" for c in CASES])
def test_raw_errors_name_file_line_and_field(tmp_path, synthetic_raw, dataset, file, corrupt, expected):
    raw = tmp_path / "raw"
    shutil.copytree(synthetic_raw / dataset, raw / dataset)
    corrupt(raw / file)
    with pytest.raises(DatasetError, match=expected.format(path=raw / file)):
        build(dataset, raw, tmp_path / "out")
    assert not (tmp_path / "out" / "lm-eval-xling" / dataset).exists()  # nothing half-written


def test_one_corrupt_source_does_not_stop_the_others(tmp_path, synthetic_raw, data_root):
    raw, out = tmp_path / "raw", tmp_path / "out"
    shutil.copytree(synthetic_raw, raw)
    (raw / "nsp" / "stories" / "en.txt").write_text("")  # built `nsp en/test 0`, exit 0, before
    _replace("question:", "question: [x")(raw / "quench" / "Data_Store" / "Q1.yml")
    _first_pair(lambda pair: pair.pop("tokens"))(raw / XPARADE)
    shutil.copytree(data_root / "lm-eval-xling" / "nsp", out / "lm-eval-xling" / "nsp")  # an earlier good build

    proc = run_cli("lm-eval-xling", "data", "build", "--raw", str(raw), "--out", str(out), check=False)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    failed = [line for line in proc.stderr.splitlines() if line.startswith("failed ")]
    assert len(failed) == 3, proc.stderr
    assert failed[0].startswith("failed nsp: lm-eval-xling/nsp (subset 'en', split 'test'): no records from ")
    assert failed[0].endswith(str(raw / "nsp" / "stories" / "en.txt"))
    assert "Q1.yml line 3" in failed[1] and "field 'tokens'" in failed[2]
    assert proc.stderr.splitlines()[-1] == "data build: 3 of 6 datasets failed: nsp, quench, xparade (see above)"
    for sound in ("pawsx", "xnli", "nsp_global"):  # the sound sources were built
        assert f"{sound}\ten/test\t" in proc.stdout
    # the earlier build is untouched, the failed ones never appeared, and no temporary folder is left
    for path in (data_root / "lm-eval-xling" / "nsp").rglob("*.parquet"):
        assert (out / path.relative_to(data_root)).read_bytes() == path.read_bytes()
    assert sorted(p.name for p in (out / "lm-eval-xling").iterdir()) == ["nsp", "nsp_global"]
    assert not [p for p in out.iterdir() if p.name.startswith(".")]


def test_a_missing_raw_folder_is_one_line_and_exit_2(tmp_path):
    missing, out = tmp_path / "no-raw", tmp_path / "out"
    proc = run_cli("lm-eval-xling", "data", "build", "--raw", str(missing), "--out", str(out), check=False)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr == f"data build: raw sources folder {missing} not found (--raw, or $LM_EVAL_XLING_RAW)\n"
    assert not out.exists()
