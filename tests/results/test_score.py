"""`lm-eval-xling score` re-scores lm-eval sample logs with the task's own filters and metrics."""

from __future__ import annotations

import json

import pytest
from support.common import run_cli

from lm_eval_xling.results.logs import SamplesError, doc_hash
from lm_eval_xling.results.replay import score_samples

# (reply, what the NSP filter must make of it) for the first four docs of nsp_hausa
REPLIES = [
    "B",
    "Let me think.\n\nOption A repeats the context, while **B** moves the story on.\n\n**Final answer: B**",
    "Neither of them fits.",
    "A: the first option.",
]


def _results_json(out_dir):
    return json.loads(next(out_dir.rglob("results_*.json")).read_text())["results"]


def _write_log(path, task_docs, replies, doc_ids):
    with path.open("w", encoding="utf-8") as f:
        for doc_id, reply in zip(doc_ids, replies, strict=True):
            doc = task_docs[doc_id]
            line = {"doc_id": doc_id, "doc": doc, "resps": [[reply]], "doc_hash": doc_hash(doc)}
            f.write(json.dumps(line, ensure_ascii=False) + "\n")


@pytest.fixture
def hausa_docs(local_data):
    from lm_eval_xling.nsp.tasks import load

    return load("ha")["test"].to_list()


def test_score_applies_the_task_filter_to_raw_replies(tmp_path, hausa_docs, local_data):
    log = tmp_path / "samples_nsp_hausa_2026-01-01T00-00-00.000000.jsonl"
    _write_log(log, hausa_docs, REPLIES, [0, 1, 2, 3])
    labels = [hausa_docs[i]["label"] for i in range(4)]
    expected_acc = sum(r == lbl for r, lbl in zip(["B", "B", None, "A"], labels, strict=True)) / 4

    out = json.loads(run_cli("lm-eval-xling", "score", str(log), "--json").stdout)
    assert out["nsp_hausa"]["acc,extract"] == pytest.approx(expected_acc)
    assert out["nsp_hausa"]["invalid,extract"] == pytest.approx(0.25)


def test_score_handles_a_non_prefix_subset_and_needs_a_task_name(tmp_path, hausa_docs):
    log = tmp_path / "my_log.jsonl"
    _write_log(log, hausa_docs, ["A", "B"], [2, 5])
    with pytest.raises(SamplesError, match="pass --task"):
        score_samples(log)
    results = score_samples(log, task="nsp_hausa")
    expected = (hausa_docs[2]["label"] == "A") + (hausa_docs[5]["label"] == "B")
    assert results["results"]["nsp_hausa"]["acc,extract"] == pytest.approx(expected / 2)


def test_score_refuses_a_log_of_other_documents(tmp_path, hausa_docs):
    log = tmp_path / "samples_nsp_hausa_2026-01-01T00-00-00.000000.jsonl"
    _write_log(log, hausa_docs, ["A"], [0])
    line = json.loads(log.read_text())
    line["doc"]["context"] += " (edited)"
    line["doc_hash"] = doc_hash(line["doc"])
    log.write_text(json.dumps(line) + "\n")
    with pytest.raises(SamplesError, match="doc_id 0: the logged document differs"):
        score_samples(log)


def test_score_names_the_bad_line(tmp_path, local_data):
    log = tmp_path / "samples_nsp_hausa_2026-01-01T00-00-00.000000.jsonl"
    log.write_text('{"doc_id": 0, "doc": {}, "resps": [["A"]]}\n{"doc_id": 1, "doc": {}}\n')
    with pytest.raises(SamplesError, match=r":2: field 'resps' is missing"):
        score_samples(log)


@pytest.fixture(scope="module")
def live_run(tmp_path_factory, tiny_model, data_root):
    """A real `lm_eval` run (random-weight model) with sample logs."""
    out = tmp_path_factory.mktemp("live") / "out"
    run_cli(
        "lm_eval", "--model", "hf", "--model_args", f"pretrained={tiny_model},dtype=float32",
        "--tasks", "nsp_hausa,nsp_english_ll,nsp_swahili_cot", "--limit", "6",
        "--gen_kwargs", "max_gen_toks=24", "--batch_size", "6",
        "--log_samples", "--output_path", str(out), env={"LM_EVAL_XLING_DATA": str(data_root)},
    )  # fmt: skip
    return out


def test_score_reproduces_a_live_lm_eval_run(live_run, local_data):
    """`score` on a real run's sample logs gives the run's metrics."""
    out = live_run
    live = _results_json(out)
    logs = sorted(out.rglob("samples_*.jsonl"))
    assert len(logs) == 3
    rescored = json.loads(run_cli("lm-eval-xling", "score", *map(str, logs), "--json").stdout)
    for task in ("nsp_hausa", "nsp_english_ll", "nsp_swahili_cot"):
        expected = {k: v for k, v in live[task].items() if k != "alias" and isinstance(v, float)}
        assert expected and {k: rescored[task][k] for k in expected} == pytest.approx(expected), task


def _lines(path):
    return path.read_text(encoding="utf-8").splitlines(keepends=True)


def _tampered(live_run, tmp_path, tamper):
    """A copy of the live run's folder whose Hausa log `tamper(folder, log)` changed; returns the log to score."""
    import shutil

    folder = shutil.copytree(next(live_run.rglob("results_*.json")).parent, tmp_path / "run")
    return tamper(folder, next(folder.glob("samples_nsp_hausa_*.jsonl")))


def _renamed_without_hashes(folder, log):
    english = log.with_name(log.name.replace("nsp_hausa", "nsp_english"))
    lines = [json.loads(line) for line in _lines(log)]
    english.write_text("".join(json.dumps({k: v for k, v in x.items() if k != "doc_hash"}) + "\n" for x in lines))
    return english


def _cut_to_five(folder, log):
    """Cut to 5 of its 6 documents, and its results file without task_hashes: the document count tells."""
    log.write_text("".join(_lines(log)[:5]), encoding="utf-8")
    results = next(folder.glob("results_*.json"))
    data = json.loads(results.read_text(encoding="utf-8"))
    del data["task_hashes"]
    results.write_text(json.dumps(data), encoding="utf-8")
    return log


def _answers_edited(folder, log):
    lines = [json.loads(line) for line in _lines(log)]
    for line in lines:  # every reply now names the right option: the run's accuracy was not 1
        line["resps"] = [[f"Answer: {line['doc']['label']}"]]
    log.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    return log


def _reported_nan(folder, log):
    """The run's results file says NaN where the log's replies give a number."""
    results = next(folder.glob("results_*.json"))
    data = json.loads(results.read_text(encoding="utf-8"))
    metrics = data["results"]["nsp_hausa"]
    metrics[next(key for key in metrics if key.startswith("acc,"))] = float("nan")
    results.write_text(json.dumps(data), encoding="utf-8")
    return log


@pytest.mark.parametrize(
    ("tamper", "named"),
    [
        (_renamed_without_hashes, "has no results for nsp_english; not a log of that run"),
        (_cut_to_five, "5 documents, but results_"),
        (_answers_edited, "the log's replies are not those the run scored"),
        (_reported_nan, "but results_"),
    ],
)
def test_score_refuses_a_log_its_run_did_not_write(live_run, local_data, tmp_path, tamper, named):
    """A log renamed to another task (and stripped of doc_hash), cut short, or with edited replies, beside the
    results file of its run: refused with one line, never scored."""
    log = _tampered(live_run, tmp_path, tamper)
    assert named in _fails(["score", str(log)])


def test_score_checks_documents_without_doc_hash(tmp_path, hausa_docs, local_data):
    """A Hausa log renamed to English, with no results file beside and no doc_hash: its documents are checked."""
    log = tmp_path / "samples_nsp_english_2026-01-01T00-00-00.000000.jsonl"
    _write_log(log, hausa_docs, ["A", "B"], [0, 1])
    log.write_text("".join(json.dumps({k: v for k, v in json.loads(x).items() if k != "doc_hash"}) + "\n"
                           for x in _lines(log)))  # fmt: skip
    assert "doc_id 0: the logged document differs from the task's dataset" in _fails(["score", str(log)])


def _fails(argv: list[str]) -> str:
    """The one line `lm-eval-xling` prints for a user error (exit 2, no traceback)."""
    from lm_eval_xling.cli import main

    with pytest.raises(SystemExit) as failed:
        main(argv)
    assert failed.value.code == 2 and "\n" not in str(failed.value)
    return str(failed.value)


def test_score_names_a_task_lm_eval_does_not_know(tmp_path, hausa_docs):
    log = tmp_path / "samples_nsp_klingon_2026-01-01T00-00-00.000000.jsonl"
    _write_log(log, hausa_docs, ["A"], [0])
    assert _fails(["score", str(log)]) == (
        f"score: {log}: lm-eval knows no task 'nsp_klingon' (the name comes from the file name or --task)"
    )
    assert "lm-eval knows no task 'nsp_klingon'" in _fails(["consistency", "compare", str(log), str(log)])


def test_score_refuses_a_doc_id_beyond_the_dataset(tmp_path, hausa_docs):
    log = tmp_path / "samples_nsp_hausa_2026-01-01T00-00-00.000000.jsonl"
    _write_log(log, hausa_docs, ["A"], [0])
    log.write_text(log.read_text(encoding="utf-8").replace('"doc_id": 0', '"doc_id": 9999'), encoding="utf-8")
    assert _fails(["score", str(log)]) == (
        f"score: {log}: doc_id 9999, but nsp_hausa has {len(hausa_docs)} documents (a log of another dataset or split?)"
    )


def test_score_says_which_metadata_a_task_needs(tmp_path, hausa_docs):
    log = tmp_path / "samples_xsense_translate_2026-01-01T00-00-00.000000.jsonl"
    _write_log(log, hausa_docs, ["A"], [0])
    assert "xsense_translate needs --metadata" in _fails(["score", str(log)])


def test_score_json_keeps_a_nan_metric_as_null_with_a_note(tmp_path, monkeypatch, capsys):
    from lm_eval_xling.cli import main
    from lm_eval_xling.results import replay

    results = {"results": {"quench": {"alias": "quench", "bleu,none": 0.25, "jury_kappa,none": float("nan"),
                                      "jury_kappa_stderr,none": "N/A"}}}  # fmt: skip
    monkeypatch.setattr(replay, "score_samples", lambda *_, **__: results)
    assert main(["score", str(tmp_path / "samples_quench_2026-01-01T00-00-00.000000.jsonl"), "--json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out) == {"quench": {"bleu,none": 0.25, "jury_kappa,none": None}}
    assert "note: quench jury_kappa,none: nan (nothing to average), written as null" in err


def test_score_names_a_response_of_the_wrong_kind(tmp_path, hausa_docs):
    log = tmp_path / "samples_nsp_hausa_ll_2026-01-01T00-00-00.000000.jsonl"
    doc = hausa_docs[0]  # a loglikelihood task logs [logprob, is_greedy] per option; here a reply to each
    log.write_text(json.dumps({"doc_id": 0, "doc": doc, "resps": [["A"], ["B"]], "doc_hash": doc_hash(doc)}) + "\n")
    message = _fails(["score", str(log)])
    assert message.startswith(f"score: {log} doc_id 0: field 'resps' holds '")
    assert message.endswith("not a loglikelihood response")


def test_a_log_nested_too_deeply_is_one_line(tmp_path):
    """A line of JSON nested deeper than Python's parser goes (it raised RecursionError) is a bad line like any."""
    log = tmp_path / "samples_nsp_hausa_2026-01-01T00-00-00.000000.jsonl"
    log.write_text("[" * 200_000 + "]" * 200_000 + "\n", encoding="utf-8")
    assert f"{log}:1: not a JSON line (nested too deeply" in _fails(["score", str(log)])


def test_a_log_with_a_lone_surrogate_is_one_line(tmp_path):
    """Half a surrogate pair ("\\ud800") parses as JSON but is no text: no harness wrote it (hashing it raised)."""
    log = tmp_path / "samples_nsp_hausa_2026-01-01T00-00-00.000000.jsonl"
    sample = {"doc_id": 0, "doc": {"context": "Labari \ud800"}, "resps": [["A"]], "filtered_resps": ["A"]}
    log.write_text(json.dumps(sample) + "\n", encoding="utf-8")
    assert f"{log}:1: holds a lone surrogate escape" in _fails(["score", str(log)])
