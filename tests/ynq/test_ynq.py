"""Y-NQ: the CSV loader, ROUGE that keeps Yoruba diacritics, document truncation, length buckets, end to end."""

from __future__ import annotations

import json
import re

import pytest
from support.common import run_cli
from support.ynq_data import YNQ_LENGTHS, write_ynq_csv, ynq_rows

from lm_eval_xling.data import DatasetError
from lm_eval_xling.metrics.overlap import rouge
from lm_eval_xling.ynq.tasks import (
    COLUMNS,
    METRICS,
    PROMPT,
    WORDS,
    DocumentFitter,
    length_report,
    load,
    read_csv,
    records,
)


def test_loader_reads_the_fixture(local_data):
    english, yoruba = load("english")["test"], load("yoruba")["test"]
    assert len(english) == len(yoruba) == len(YNQ_LENGTHS)
    assert [(d["english_words"], d["yoruba_words"]) for d in english] == YNQ_LENGTHS
    assert yoruba[0]["question"] == "Ta ló ń ṣáájú lọ sí igbó (0)?" and yoruba[0]["long_answer"].startswith("Ọba")
    assert english[0]["long_answer"].startswith("The king")


def test_loader_accepts_header_variants(tmp_path):
    variant = [c.upper().replace(" ", "_") if i % 2 else c.replace("ù", "u").replace("á", "a").lower()
               for i, c in enumerate(COLUMNS)]  # fmt: skip
    assert variant[6] == "yoruba document" and variant[1] == "SPLIT"
    rows = ynq_rows()
    plain = read_csv(write_ynq_csv(tmp_path / "a.csv", rows))
    assert read_csv(write_ynq_csv(tmp_path / "b.csv", rows, header=variant)) == plain
    assert records(plain, "yoruba")[1]["document"] == rows[1]["Yorùbá Document"]


def test_broken_csv_names_what_is_wrong(tmp_path):
    rows = ynq_rows()
    header = [c for c in COLUMNS if c != "Yorùbá Long Answer"] + ["Yoruba Answer"]
    with pytest.raises(
        DatasetError, match=r"missing columns \['Yorùbá Long Answer'\]; expected .*found .*Yoruba Answer"
    ):
        read_csv(write_ynq_csv(tmp_path / "a.csv", rows, header=header))
    rows[3]["English Question"] = "  "
    with pytest.raises(DatasetError, match=r"record 3 \(line 5\) field 'English Question': empty"):
        read_csv(write_ynq_csv(tmp_path / "b.csv", rows))
    path = write_ynq_csv(tmp_path / "c.csv", ynq_rows())
    lines = path.read_bytes().split(b"\n")
    path.write_bytes(b"\n".join([*lines[:2], b"\xff" + lines[2], *lines[3:]]))
    with pytest.raises(DatasetError, match=rf"{re.escape(str(path))}:3: not UTF-8 \(byte 0xff at column 1\)"):
        read_csv(path)


def test_a_document_longer_than_csvs_default_field_limit_is_read(tmp_path):
    rows = ynq_rows()
    rows[0]["English Document"] = "word " * 60_000  # 300,000 characters: csv's default limit is 131,072
    assert read_csv(write_ynq_csv(tmp_path / "a.csv", rows))[0]["english_document"] == rows[0]["English Document"]


def test_rouge_keeps_yoruba_diacritics():
    """rouge_score's default tokenizer keeps only [a-z0-9]: "ọkọ̀" (vehicle) and "ọkọ" (husband) both become "k"."""
    from rouge_score import rouge_scorer

    reference, prediction = "Ọkọ̀ náà dé", "Ọkọ náà dé"
    ascii_only = rouge_scorer.RougeScorer(["rouge1"]).score(reference, prediction)["rouge1"].fmeasure
    assert ascii_only == pytest.approx(1.0)  # the tone mark is lost: a false perfect match
    assert rouge([prediction], [reference], tokenizer=WORDS)["rouge1"] == pytest.approx(100 * 2 / 3)  # "ọkọ" != "ọkọ̀"
    # the same words typed precomposed or with combining marks are one form (NFC)
    decomposed = "Ọkọ̀ náà dé".replace("á", "a\u0301")
    assert rouge([decomposed], [reference], tokenizer=WORDS)["rouge1"] == pytest.approx(100)


def test_long_documents_are_cut_not_the_question(local_data, tiny_model):
    from transformers import AutoTokenizer

    fitter = DocumentFitter({"pretrained": str(tiny_model)})
    tokenizer = AutoTokenizer.from_pretrained(tiny_model)
    doc = load("english")["test"][0]  # 9000 words
    prompt, doc_tokens, kept = fitter.fit(doc, max_gen_toks=64)
    assert doc_tokens == len(tokenizer(doc["document"], add_special_tokens=False)["input_ids"]) > 1024
    assert 0 < kept < doc_tokens
    assert prompt.endswith(f"####\nQUESTION\n{doc['question']}\n\n####\nANSWER\n")
    assert prompt.startswith(PROMPT.split("{document}")[0])
    assert len(tokenizer(prompt)["input_ids"]) + 64 <= 1024
    short = load("english")["test"][5]  # 60 words
    prompt, doc_tokens, kept = fitter.fit(short, max_gen_toks=64)
    assert prompt == PROMPT.format(document=short["document"], question=short["question"])
    assert doc_tokens == kept > 0
    assert DocumentFitter({}).fit(doc, 64)[1:] == (0, 0)  # no tokenizer known: nothing cut, nothing measured


def test_building_the_task_looks_no_metric_up_on_the_hub(local_data, monkeypatch):
    import lm_eval.api.task
    from lm_eval.tasks import TaskManager

    looked_up = []
    real = lm_eval.api.task.get_metric
    monkeypatch.setattr(lm_eval.api.task, "get_metric", lambda name, *a: looked_up.append(name) or real(name, *a))
    task = TaskManager().load(["ynq_english"])["tasks"]["ynq_english"]
    assert not set(looked_up) & set(METRICS)  # a name lm-eval lacks is fetched with evaluate.load, retried offline
    assert task.higher_is_better() == METRICS and set(task.aggregation()) == set(METRICS)


def test_length_buckets_on_known_input():
    def sample(en, yo, score):
        doc = {"id": "q", "document": f"{en}", "question": "Who?", "long_answer": "The king.", "english_words": en,
               "yoruba_words": yo}  # fmt: skip
        return {"doc": doc, "rouge1": score, "rouge2": score, "rougeL": score}

    english = [sample(w, 100, s) for w, s in [(50, 10), (900, 40), (100, 20), (5000, 80), (400, 30), (150, 60)]]
    report = length_report({"english": english}, buckets=3)
    buckets = report["buckets"]["english"]
    assert [b["words"] for b in buckets] == [[50, 100], [150, 400], [900, 5000]]
    assert [b["rougeL"] for b in buckets] == [15, 45, 60]


def test_end_to_end_records_truncation_and_score_reproduces(tmp_path, tiny_model, local_data):
    from transformers import AutoTokenizer

    out = tmp_path / "run"
    model_args = f"pretrained={tiny_model},dtype=float32"
    run_cli("lm_eval", "--model", "hf", "--model_args", model_args, "--device", "cpu", "--tasks", "ynq",
            "--gen_kwargs", "max_gen_toks=16", "--log_samples", "--output_path", str(out))  # fmt: skip
    results = json.loads(next(out.rglob("results_*.json")).read_text())["results"]
    tokenizer = AutoTokenizer.from_pretrained(tiny_model)
    for language in ("english", "yoruba"):
        log = next(out.rglob(f"samples_ynq_{language}_*.jsonl"))
        samples = [json.loads(line) for line in log.read_text().splitlines()]
        for s in samples:  # the record of each sample: document tokens and the share kept
            tokens = len(tokenizer(s["doc"]["document"], add_special_tokens=False)["input_ids"])
            assert s["doc_tokens"] == tokens
            assert (s["truncated"] == 1.0) == (s["doc_kept_share"] < 1.0)
            frame = len(tokenizer(PROMPT.format(document="", question=s["doc"]["question"]))["input_ids"])
            assert s["truncated"] == float(tokens > 1024 - 16 - 32 - frame)  # room left by prompt, answer, margin
        share = sum(s["truncated"] for s in samples) / len(samples)
        assert results[f"ynq_{language}"]["truncated,none"] == pytest.approx(share)
        rescored = json.loads(run_cli("lm-eval-xling", "score", str(log), "--json").stdout)[f"ynq_{language}"]
        for metric in ("rouge1", "rouge2", "rougeL", "truncated", "doc_kept_share"):
            assert rescored[f"{metric},none"] == pytest.approx(results[f"ynq_{language}"][f"{metric},none"])
    assert results["ynq_english"]["truncated,none"] >= 0.5  # the 9000-, 3000- and 1200-word documents
    lengths = run_cli("lm-eval-xling", "ynq-lengths", *map(str, out.rglob("samples_ynq_*.jsonl")), "--buckets", "2")
    assert "| english | 60-400 | 3 |" in lengths.stdout
    assert "| english | comparable pairs (> 900 words, ratio <= 1.25), avg - words | 0 |" in lengths.stdout


def test_without_local_data_the_csv_comes_from_the_hub(tmp_path, monkeypatch):
    import huggingface_hub

    calls = []
    csv_file = write_ynq_csv(tmp_path / "hub" / "Yoruba_NQ.csv", ynq_rows())

    def download(repo_id, filename, repo_type):
        calls.append((repo_id, filename, repo_type))
        return str(csv_file)

    monkeypatch.delenv("LM_EVAL_XLING_DATA", raising=False)
    monkeypatch.setenv("LM_EVAL_XLING_CACHE", str(tmp_path / "empty-cache"))  # no build there
    monkeypatch.setattr(huggingface_hub, "hf_hub_download", download)
    assert len(load("yoruba")["test"]) == len(YNQ_LENGTHS)
    assert calls == [("facebook/Y-NQ", "Yoruba_NQ.csv", "dataset")]
