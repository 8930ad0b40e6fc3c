"""Y-NQ: rows that share a Question ID, the model's context length, and `ynq-lengths` (fixed edges, the comparable
subset, Table 2 statistics and the answer-quality flags)."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest
from support.common import run_cli
from support.ynq_data import write_ynq_csv, ynq_rows

from lm_eval_xling.ynq.tasks import DocumentFitter, length_report, length_table


@pytest.fixture
def duplicate_ids(tmp_path, monkeypatch):
    """The fixture CSV with row 1 under row 0's Question ID (the real CSV: 358 rows, 356 ids), with its own document
    and answers; row 2 flags its English answer as wrong."""
    rows = [ynq_rows()[i] for i in (4, 5, 3)]  # short documents: nothing is cut for the tiny model
    rows[1]["Question ID"] = rows[0]["Question ID"]
    rows[1]["English Document"] = "The river festival opens at dawn and the drummers lead the boats. " * 5
    rows[1]["English Long Answer"] = "The drummers lead the boats at the river festival."
    rows[2]["Answer_Alignment_English_Wrong_Answer"] = "True"
    root = tmp_path / "data"
    write_ynq_csv(root / "facebook" / "Y-NQ" / "Yoruba_NQ.csv", rows)
    monkeypatch.setenv("LM_EVAL_XLING_DATA", str(root))
    return rows


def test_rows_that_share_a_question_id_keep_their_own_document(duplicate_ids):
    from lm_eval.tasks import TaskManager

    task = TaskManager().load(["ynq_english"])["tasks"]["ynq_english"]
    docs = list(task.test_docs())
    assert docs[0]["id"] == docs[1]["id"] and docs[0]["document"] != docs[1]["document"]
    for doc, row in zip(docs, duplicate_ids, strict=True):
        assert row["English Document"] in task.doc_to_text(doc)
    # scored against its own reference: the second row's answer is a perfect match for itself only
    assert task.process_results(docs[1], [duplicate_ids[1]["English Long Answer"]])["rougeL"] == pytest.approx(100)
    assert task.process_results(docs[0], [duplicate_ids[1]["English Long Answer"]])["rougeL"] < 50


@pytest.mark.slow
def test_duplicate_ids_end_to_end(duplicate_ids, tmp_path, tiny_model):
    out = tmp_path / "run"
    model_args = f"pretrained={tiny_model},dtype=float32"
    run_cli("lm_eval", "--model", "hf", "--model_args", model_args, "--device", "cpu", "--tasks", "ynq_english",
            "--gen_kwargs", "max_gen_toks=4", "--log_samples", "--output_path", str(out))  # fmt: skip
    samples = [json.loads(line) for line in next(out.rglob("samples_ynq_english_*.jsonl")).read_text().splitlines()]
    by_row = {s["doc"]["row"]: s for s in samples}
    for row in (0, 1):
        prompt = by_row[row]["arguments"]["gen_args_0"]["arg_0"]
        assert by_row[row]["doc"]["document"] in prompt
        assert duplicate_ids[1 - row]["English Document"] not in prompt


def _config(**attrs):
    return SimpleNamespace(**attrs)


def test_context_length_follows_the_model(monkeypatch, tiny_model):
    import transformers

    assert DocumentFitter({"pretrained": "x", "max_model_len": 4096}).max_length == 4096  # vLLM's name
    assert DocumentFitter({"pretrained": "x", "max_length": 1000}).max_length == 1000
    nested_fitter, plain_fitter = (DocumentFitter({"pretrained": str(tiny_model)}) for _ in range(2))
    tokenizer = nested_fitter.tokenizer and plain_fitter.tokenizer  # loaded before AutoConfig is replaced
    nested = _config(text_config=_config(max_position_embeddings=32768), max_position_embeddings=1200)
    monkeypatch.setattr(transformers.AutoConfig, "from_pretrained", lambda name, **_: nested)
    assert nested_fitter.max_length == 32768  # the text model's, not the encoder's
    monkeypatch.setattr(transformers.AutoConfig, "from_pretrained", lambda name, **_: _config())
    expected = tokenizer.model_max_length if tokenizer.model_max_length < 10**9 else 2048  # lm-eval's default
    assert plain_fitter.max_length == expected


def _sample(row, en, yo, score, wrong=""):
    doc = {"row": row, "id": f"q{row}", "document": f"doc {row}", "question": "Who leads the procession?",
           "long_answer": "The king leads it.", "english_words": en, "yoruba_words": yo,
           "rewrite_flag": "False", "answer_alignment": "aligned", "english_wrong_answer": wrong}  # fmt: skip
    return {"doc": doc, "rouge1": score, "rouge2": score / 2, "rougeL": score}


# (English words, Yoruba words, English ROUGE, Yoruba ROUGE): rows 4 and 5 are long and of similar length.
PAIRS = [(9000, 120, 40, 30), (3000, 200, 50, 36), (1200, 1600, 45, 10), (400, 90, 60, 48),
         (3300, 3100, 45, 18), (1000, 950, 30, 20)]  # fmt: skip


def test_fixed_edges_comparable_pairs_and_statistics():
    english = [_sample(i, en, yo, s, wrong="True" if i == 0 else "") for i, (en, yo, s, _) in enumerate(PAIRS)]
    yoruba = [_sample(i, en, yo, s) for i, (en, yo, _, s) in enumerate(PAIRS)]
    report = length_report({"english": english, "yoruba": yoruba}, edges=(500, 1500))
    assert report["bucketing"] == "fixed edges [500, 1500]"
    assert [(b["words"], b["n"], b["rougeL"]) for b in report["buckets"]["yoruba"]] == [
        ([0, 500], 3, pytest.approx((30 + 36 + 48) / 3)),
        ([500, 1500], 1, 20),
        ([1500, None], 2, 14),  # 1,600 and 3,100 words: the drop past 1,500 words stays visible
    ]
    assert [b["n"] for b in report["buckets"]["english"]] == [1, 2, 3]
    comparable = report["comparable"]  # (3300, 3100) and (1000, 950): both over 900 words, within 1.25
    assert comparable["english"] == {"n": 2, "words": 2150, "rouge1": 37.5, "rouge2": 18.75, "rougeL": 37.5}
    assert comparable["yoruba"]["n"] == 2 and comparable["yoruba"]["words"] == 2025
    assert comparable["english_over_yoruba"]["rougeL"] == pytest.approx(37.5 / 19)
    stats = report["statistics"]["english"]
    assert (stats["qa"], stats["questions"], stats["documents"]) == (6, 6, 6)
    assert stats["median_doc_words"] == 2100 and stats["avg_question_words"] == 4
    assert stats["flags"] == {"rewrite_flag": {"False": 6}, "answer_alignment": {"aligned": 6},
                              "english_wrong_answer": {"": 5, "True": 1}}  # fmt: skip
    assert stats["without_english_wrong_answer"]["n"] == 5
    equal = length_report({"yoruba": yoruba}, buckets=2)
    assert [b["words"] for b in equal["buckets"]["yoruba"]] == [[90, 200], [950, 3100]]
    text = length_table(report)
    assert "| yoruba | 1500+ | 2 | 14.0 | 7.0 | 14.0 |" in text and "rougeL 1.97x" in text


@pytest.mark.slow
def test_ynq_lengths_with_fixed_edges_on_the_fixture(tmp_path, tiny_model, local_data):
    out = tmp_path / "run"
    run_cli("lm_eval", "--model", "hf", "--model_args", f"pretrained={tiny_model},dtype=float32", "--device", "cpu",
            "--tasks", "ynq", "--gen_kwargs", "max_gen_toks=4", "--log_samples", "--output_path", str(out))  # fmt: skip
    logs = [str(p) for p in out.rglob("samples_ynq_*.jsonl")]
    report = json.loads(run_cli("lm-eval-xling", "ynq-lengths", *logs, "--edges", "100,1500", "--json").stdout)
    # the fixture's English documents: 9000, 3000, 1200, 400, 100, 60 words; Yoruba: 300, 200, 120, 90, 60, 40
    assert [b["n"] for b in report["buckets"]["english"]] == [1, 3, 2]
    assert [b["n"] for b in report["buckets"]["yoruba"]] == [3, 3, 0]
    assert report["buckets"]["yoruba"][2]["rougeL"] is None  # an empty bucket: null, not NaN
    assert report["statistics"]["yoruba"]["qa"] == 6
    text = run_cli("lm-eval-xling", "ynq-lengths", *logs).stdout
    assert "Buckets: fixed edges [250, 500, 1000, 1500, 3000, 6000]" in text


def test_ynq_lengths_names_a_document_without_its_word_counts(tmp_path):
    """A Y-NQ log whose documents lack the word counts this package's tasks log (another harness's task of the same
    name) is one line naming the sample and field, not a KeyError."""
    from lm_eval_xling.cli import main

    log = tmp_path / "samples_ynq_english_2026-01-01T00-00-00.000000.jsonl"
    log.write_text(json.dumps({"doc_id": 0, "doc": {"question": "q"}, "resps": [["a"]]}) + "\n", encoding="utf-8")
    with pytest.raises(SystemExit) as failed:
        main(["ynq-lengths", str(log)])
    assert failed.value.code == 2
    assert (
        str(failed.value) == f"ynq-lengths: {log}: doc_id 0: field 'doc.english_words' is None; expected a word "
        "count (the documents of this package's ynq tasks have it)"
    )
