"""One reading of lm-eval outputs for every command (results.logs): checked sample lines, one rule for a doc_id
logged twice, results files that must parse, and results that must belong to the log they are paired with."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from lm_eval.utils import hash_string

from lm_eval_xling.cli import main
from lm_eval_xling.results.logs import doc_hash

STAMP = "2026-01-01T00-00-00.000000"
TASK = "nsp_hausa"


@pytest.fixture
def hausa_docs(local_data):
    from lm_eval_xling.nsp.tasks import load

    return load("ha")["test"].to_list()


def write_run(folder: Path, docs: list[dict], doc_ids: list[int], results_of: list[int] | None = None) -> Path:
    """An lm_eval --log_samples folder for nsp_hausa, every reply "A"; the results file as lm-eval writes it for the
    documents `results_of` (default: those logged), task_hashes and n-samples included. Returns the log."""
    folder.mkdir(parents=True, exist_ok=True)

    def lines(ids: list[int]) -> list[dict]:
        return [{"doc_id": i, "doc": docs[i], "doc_hash": doc_hash(docs[i]), "prompt_hash": "p", "target_hash": "t",
                 "resps": [["A"]], "filtered_resps": ["A"], "filter": "extract", "metrics": ["acc"],
                 "acc": int(docs[i]["label"] == "A")} for i in ids]  # fmt: skip

    logged, counted = lines(doc_ids), lines(results_of if results_of is not None else doc_ids)
    log = folder / f"samples_{TASK}_{STAMP}.jsonl"
    log.write_text("".join(json.dumps(s) + "\n" for s in logged), encoding="utf-8")
    results = {
        "results": {TASK: {"alias": TASK, "acc,extract": sum(s["acc"] for s in counted) / len(counted)}},
        "configs": {TASK: {"task": TASK}},
        "n-samples": {TASK: {"original": len(docs), "effective": len(counted)}},
        "task_hashes": {TASK: hash_string("".join(s["doc_hash"] + "pt" for s in counted))},
        "model_name": "org/model",
    }
    (folder / f"results_{STAMP}.json").write_text(json.dumps(results), encoding="utf-8")
    return log


def _fails(argv: list[str]) -> str:
    """The one line a command prints for a user error (exit 2)."""
    with pytest.raises(SystemExit) as failed:
        main(argv)
    assert failed.value.code == 2
    message = str(failed.value)
    assert "\n" not in message
    return message


def _command(name: str, folder: Path, log: Path, out: Path) -> list[str]:
    return {"report": ["report", str(folder), "--out", str(out)], "compare": ["compare", str(folder), str(folder)],
            "score": ["score", str(log)]}[name]  # fmt: skip


@pytest.mark.parametrize("command", ["report", "compare", "score"])
def test_a_doc_id_logged_twice_is_refused_alike_everywhere(tmp_path, hausa_docs, command):
    log = write_run(tmp_path / "run", hausa_docs, [0, 1, 2, 3])
    lines = log.read_text(encoding="utf-8").splitlines(keepends=True)
    log.write_text("".join([*lines, lines[1]]), encoding="utf-8")  # doc 1 again, as a fifth line
    message = _fails(_command(command, tmp_path / "run", log, tmp_path / "out"))
    assert message.endswith(
        f"{log}:5: doc_id 1 (filter 'extract') is logged again (first at line 2); lm-eval logs each document once "
        "per filter"
    )


@pytest.mark.parametrize("command", ["report", "compare", "score"])
def test_a_doc_id_that_is_not_an_integer_is_named(tmp_path, hausa_docs, command):
    log = write_run(tmp_path / "run", hausa_docs, [0, 1])
    log.write_text(log.read_text(encoding="utf-8").replace('"doc_id": 1,', '"doc_id": "1",'), encoding="utf-8")
    message = _fails(_command(command, tmp_path / "run", log, tmp_path / "out"))
    assert message.endswith(f"{log}:2: field 'doc_id' is '1'; expected a non-negative integer")


@pytest.mark.parametrize(
    ("planted", "named"),
    [
        ("task_hashes", "its samples do not hash to task_hashes.nsp_hausa there"),  # other documents, same count
        ("n-samples", f"4 documents, but results_{STAMP}.json reports n-samples.nsp_hausa.effective 2"),
    ],
)
def test_report_and_compare_refuse_a_log_of_other_documents(tmp_path, hausa_docs, planted, named):
    folder = tmp_path / "run"
    log = write_run(folder, hausa_docs, [4, 5, 6, 7], results_of=[0, 1, 2, 3] if planted == "task_hashes" else [0, 1])
    if planted == "n-samples":  # a results file with counts but no hashes: the count is checked
        results = folder / f"results_{STAMP}.json"
        data = json.loads(results.read_text(encoding="utf-8"))
        del data["task_hashes"]
        results.write_text(json.dumps(data), encoding="utf-8")
    for command in ("report", "compare"):
        message = _fails(_command(command, folder, log, tmp_path / "out"))
        assert f"{log}: " in message and named in message
    assert not (tmp_path / "out").exists()


def test_the_log_its_results_were_computed_from_passes(tmp_path, hausa_docs):
    write_run(tmp_path / "run", hausa_docs, [0, 1, 2, 3])
    assert main(["report", str(tmp_path / "run"), "--out", str(tmp_path / "out"), "--iters", "50"]) == 0
    shutil.copytree(tmp_path / "run", tmp_path / "again")
    assert main(["compare", str(tmp_path / "run"), str(tmp_path / "again"), "--iters", "50"]) == 0


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("[]", "field 'results' is missing or not an object; not an lm-eval results file"),
        ('{"results": {"nsp_hausa": []}}', "field 'results.nsp_hausa' is list; expected an object"),
        ('{"results": {}, "configs": []}', "field 'configs' is list; expected an object"),
        ('{"results": {"nsp_hausa": {"acc,extract', "not readable as JSON (Unterminated string"),
    ],
)
@pytest.mark.parametrize("command", ["report", "compare"])
def test_a_broken_results_file_is_one_line_naming_it(tmp_path, hausa_docs, text, named, command):
    log = write_run(tmp_path / "run", hausa_docs, [0, 1])
    results = tmp_path / "run" / f"results_{STAMP}.json"
    results.write_text(text, encoding="utf-8")
    message = _fails(_command(command, tmp_path / "run", log, tmp_path / "out"))
    assert f"{results}: {named}" in message
