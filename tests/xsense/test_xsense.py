"""Multi-sense consistency: prompts, the translated conditions, `consistency compare` and `consistency run`."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest
from lm_eval.utils import sanitize_model_name
from support.common import run_cli

from lm_eval_xling.metrics.overlap import rouge
from lm_eval_xling.results.logs import doc_hash
from lm_eval_xling.xsense import quality, translation
from lm_eval_xling.xsense.declarations import DECLARATIONS
from lm_eval_xling.xsense.prompts import INSTRUCTIONS
from lm_eval_xling.xsense.tasks import load, pawsx_prompt, xnli_prompt
from lm_eval_xling.xsense.translation_reply import clean_translation


@pytest.fixture
def pawsx_en(local_data):
    return load("pawsx", "en")["test"].to_list()


def test_prompts_are_the_papers(local_data):
    doc = load("pawsx", "en")["test"][0]
    s1, s2 = doc["sentence1"], doc["sentence2"]
    assert pawsx_prompt(doc) == (
        f'Do the following sentences have the same meaning? Sentence 1: "{s1}" Sentence 2: "{s2}" '
        'Please answer with "yes" or "no".'
    )
    zh = load("xnli", "zh")["test"][0]
    assert xnli_prompt(zh) == (
        "对于给出的一对句子，以下哪一个选项是正确的：（A）第一个句子涵盖了第二个句子 "
        "（B）第一个句子与第二个句子矛盾 （C）两者都不？"
        f' 句子 1: "{zh["premise"]}" 句子 2: "{zh["hypothesis"]}" 请用“A”、“B”或“C”来回答。'
    )


def test_clean_translation_keeps_the_translation_only():
    assert clean_translation('  "Haben die Sätze die gleiche Bedeutung?"\n\nIn German, this means ...') == (
        "Haben die Sätze die gleiche Bedeutung?"
    )
    assert clean_translation("“这两个句子意思相同吗？”") == "这两个句子意思相同吗？"
    assert clean_translation('Bitte antworte mit "ja" oder "nein".') == 'Bitte antworte mit "ja" oder "nein".'
    assert clean_translation("\n\n") == ""


PAWSX, XNLI = DECLARATIONS["xsense_pawsx"], DECLARATIONS["xsense_xnli"]


def _composed(declaration, docs, translations, source, target):
    inputs = translation.inputs(declaration, docs, translations, target)
    pieces = {name: translations[f"instruction/{name}"] for name in declaration.instruction(source)}
    return translation.conditions(declaration, docs, inputs, pieces, target)


def test_conditions_translate_what_each_condition_says(pawsx_en):
    docs = dict(enumerate(pawsx_en[:2]))
    reqs = translation.requests(PAWSX, docs, "en", "de", references=None)
    assert [r["key"] for r in reqs] == [
        "instruction/prefix", "instruction/suffix", "instruction/sentence_word",
        "0/sentence1", "0/sentence2", "1/sentence1", "1/sentence2",
    ]  # fmt: skip
    translations = {r["key"]: f"DE[{r['text']}]" for r in reqs}
    composed = _composed(PAWSX, docs, translations, "en", "de")
    t, i, x = composed["T"][0], composed["I"][0], composed["X"][0]
    original = docs[0]
    assert t["sentence1"] == x["sentence1"] == f"DE[{original['sentence1']}]"
    assert i["sentence1"] == original["sentence1"]
    assert t["prefix"] == i["prefix"] == f"DE[{INSTRUCTIONS['pawsx']['en'].prefix}]"
    assert x["prefix"] == original["prefix"]
    assert (t["instruction_language"], i["instruction_language"], x["instruction_language"]) == ("de", "de", "en")
    assert all(c[0]["label"] == original["label"] and c[0]["id"] == original["id"] for c in composed.values())
    with pytest.raises(ValueError, match="unsupported direction de->zh"):
        translation.requests(PAWSX, docs, "de", "zh", references=None)


# Raw replies of two runs over the first 12 PAWS-X documents, and the labels they stand for. Both runs agree on
# documents 0-7 (in different words), disagree on 8 and 9, B is invalid on 10, both are invalid on 11 (which agree
# under the paper's rule, the default).
REPLIES_A = ["Yes.", "No", "yes", "No.", "Yes, they mean the same.", "no", '"Yes"', "No, the order differs.",
             "Yes", "No", "Yes", "I cannot say."]  # fmt: skip
REPLIES_B = ['"yes"', "No.", "Yes!", "no", "yes", "No, they differ.", "YES", "No",
             "No", "Yes", "maybe", "I cannot say."]  # fmt: skip
LABELS_A = [1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, None]


def _write_log(path, docs, replies, logged_answer="0"):
    """A sample log as lm-eval writes it; `filtered_resps` is deliberately stale, so compare must re-standardise."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as f:
        for doc_id, (doc, reply) in enumerate(zip(docs, replies, strict=True)):
            line = {"doc_id": doc_id, "doc": doc, "target": doc["label"], "resps": [[reply]],
                    "filtered_resps": [logged_answer], "filter": "standardize", "doc_hash": doc_hash(doc)}  # fmt: skip
            f.write(json.dumps(line, ensure_ascii=False) + "\n")
    return path


def test_compare_on_logs_with_known_overlap(tmp_path, pawsx_en):
    docs = pawsx_en[:12]
    a = _write_log(tmp_path / "a" / "samples_xsense_pawsx_en_2026-01-01T00-00-00.000000.jsonl", docs, REPLIES_A)
    b = _write_log(tmp_path / "b" / "samples_xsense_pawsx_en_2026-01-02T00-00-00.000000.jsonl", docs, REPLIES_B)
    same = [1.0] * 8 + [0.0] * 3 + [1.0]
    correct = [i for i in range(12) if LABELS_A[i] == docs[i]["label"]]
    incorrect = [i for i in range(12) if i not in correct]
    expected = {
        "all": 9 / 12,
        "correct": sum(same[i] for i in correct) / len(correct),
        "incorrect": sum(same[i] for i in incorrect) / len(incorrect),
        "n": 12,
        "invalid_a": 1,
        "invalid_b": 2,
    }
    out = json.loads(run_cli("lm-eval-xling", "consistency", "compare", str(a), str(b), "--json").stdout)
    assert {k: out[k] for k in expected} == pytest.approx(expected)
    assert out["matched"] == {"doc_hash": 12, "id": 0, "gold": 0} and out["invalid_rule"] == "paper"
    text = run_cli("lm-eval-xling", "consistency", "compare", str(a), str(b)).stdout
    assert "| all | 0.750 |" in text and "items compared: 12; invalid answers: A 1, B 2" in text
    # identical runs are fully consistent; under the rule "never" except on the invalid answer
    out = json.loads(run_cli("lm-eval-xling", "consistency", "compare", str(a), str(a), "--json").stdout)
    assert out["all"] == 1.0
    never = ("--invalid-rule", "never", "--json")
    assert json.loads(run_cli("lm-eval-xling", "consistency", "compare", str(a), str(a), *never).stdout)["all"] == (
        pytest.approx(11 / 12)
    )


def test_compare_aligns_by_document_id(tmp_path, pawsx_en):
    a = _write_log(tmp_path / "a" / "samples_xsense_pawsx_en_2026-01-01T00-00-00.000000.jsonl", pawsx_en[:4],
                   ["Yes", "No", "Yes", "No"])  # fmt: skip
    lines = a.read_text().splitlines()
    b = tmp_path / "b" / "samples_xsense_pawsx_en_2026-01-02T00-00-00.000000.jsonl"
    b.parent.mkdir()
    b.write_text("\n".join(reversed(lines[1:])) + "\n")  # other order, document 0 missing
    out = json.loads(run_cli("lm-eval-xling", "consistency", "compare", str(a), str(b), "--json").stdout)
    assert out["n"] == 3 and out["all"] == 1.0


_BUILTIN_OVERRIDE = """group: paws_local_{lang}
task:
  - task: paws_{lang}
    dataset_path: parquet
    dataset_name: null
    dataset_kwargs:
      data_files:
        test: {data}/google-research-datasets/paws-x/{lang}/test.parquet
    training_split: null
    validation_split: null
"""


@pytest.mark.slow
def test_compare_works_on_a_builtin_lm_eval_task(tmp_path, tiny_model, local_data):
    """lm-eval's own paws_en / paws_de (multiple choice), run on the local copy of their Hub dataset."""
    logs = {}
    for lang in ("en", "de"):
        spec = tmp_path / f"paws_local_{lang}.yaml"
        spec.write_text(_BUILTIN_OVERRIDE.format(lang=lang, data=local_data))
        out = tmp_path / lang
        run_cli("lm_eval", "--model", "hf", "--model_args", f"pretrained={tiny_model},dtype=float32", "--device",
                "cpu", "--tasks", str(spec), "--log_samples", "--output_path", str(out))  # fmt: skip
        logs[lang] = next(out.rglob(f"samples_paws_{lang}_*.jsonl"))

    def choices(path):  # the answer of a multiple-choice item: the option with the highest log-likelihood
        rows = [json.loads(line) for line in path.read_text().splitlines()]
        return {r["doc_id"]: max(range(len(r["resps"])), key=lambda k: float(r["resps"][k][0][0])) for r in rows}

    a, b = choices(logs["en"]), choices(logs["de"])
    out = json.loads(run_cli("lm-eval-xling", "consistency", "compare", str(logs["en"]), str(logs["de"]),
                             "--json").stdout)  # fmt: skip
    assert out["n"] == 12 and out["invalid_a"] == out["invalid_b"] == 0
    assert out["matched"] == {"doc_hash": 0, "id": 12, "gold": 0} and out["metric"] == "acc"
    assert out["all"] == pytest.approx(sum(a[i] == b[i] for i in a) / 12)


def test_bleu_link_and_translation_scores():
    bleu = {0: 100.0, 1: 80.0, 2: 10.0, 3: 0.0}
    link = quality.bleu_link(bleu, {0: True, 1: True, 2: False, 3: False})
    assert link["pearson_r"] == pytest.approx(85 / math.sqrt(7475))  # cov 85; |x - mean| 86.46; |y - mean| 1
    assert link["consistency_bleu_gt_50"] == 1.0 and link["n_bleu_gt_50"] == 2
    assert math.isnan(quality.bleu_link(bleu, dict.fromkeys(bleu, True))["pearson_r"])  # constant: undefined
    items = {0: [("Die Sätze sind gleich.", "Die Sätze sind gleich.")], 1: [("我很高兴。", "我很高兴。")]}
    assert quality.item_bleu(items, "de")[0] == pytest.approx(100)
    # ROUGE keeps umlauts and Chinese characters (rouge_score's default tokenizer would drop them)
    assert rouge(["Größe Äpfel"], ["Größe Äpfel"], "de")["rouge1"] == pytest.approx(100)
    assert rouge(["我很高兴"], ["我不高兴"], "zh")["rouge1"] == pytest.approx(75)


@pytest.mark.slow
def test_consistency_run_all_stages_then_resume(tmp_path, tiny_model, local_data):
    out = tmp_path / "run"
    args = ["lm-eval-xling", "consistency", "run", "--model_args", f"pretrained={tiny_model},dtype=float32",
            "--task", "xsense_pawsx", "--src", "en", "--tgt", "de", "--output_path", str(out), "--limit", "3",
            "--device", "cpu", "--gen_kwargs", "max_gen_toks=12"]  # fmt: skip
    first = run_cli(*args)
    assert "| pawsx | en-de |" in first.stdout
    text = (out / "consistency.json").read_text()
    report = json.loads(text)
    # no local path in the report: the logs relative to the run folder, the local model by its public name
    for local in (str(tmp_path), str(tiny_model), str(Path.home()), sanitize_model_name(str(tiny_model))):
        assert local not in text
    assert not re.search(r'"(/|~/|\.\./)', text)
    assert len(report["logs"]) == 7 and report["logs"]["original"].startswith("original/local:tiny-llama")
    assert "| pawsx | en-de |" in run_cli("lm-eval-xling", "consistency", "table", str(out)).stdout
    run_cli("lm-eval-xling", "report", str(out), "--out", str(tmp_path / "report"), "--iters", "20")
    assert "| pawsx | en-de |" in (tmp_path / "report" / "report.md").read_text()  # the gap report reads it too
    assert set(report["consistency"]) == {"rerun", "T", "I", "X", "I_native"}
    assert report["translations"] == "model" and set(report["instruction"]) == {"prefix", "suffix", "sentence_word"}
    assert report["translation"]["reference"] == "human"
    # T and X compare the items the model translated (a tiny model's 12 tokens may be cut off: no translation)
    left_out = report["collapsed"]["n"]
    assert all(c["n"] == (3 - left_out if name in ("T", "X") else 3) for name, c in report["consistency"].items())
    assert report["translation"]["sentences"] == 6 and set(report["bleu_link"]) == {"T", "X"}
    requests = (out / "translate" / "requests.jsonl").read_text().splitlines()
    assert len(requests) == 3 + 2 * 3  # three instruction pieces, two sentences per item
    t_docs = [json.loads(line) for line in (out / "datasets" / "T.jsonl").read_text().splitlines()]
    assert [d["instruction_language"] for d in t_docs] == ["de"] * 3
    # a stage whose log is gone runs again; finished stages are not repeated
    for log in (out / "X").rglob("samples_*.jsonl"):
        log.unlink()
    again = run_cli(*args)
    assert again.stdout.count("done already") == 6  # original, rerun, translate, T, I, I_native
    assert "stage X: " in again.stdout
    # compare re-reads a translated run without its docs file (the documents are in the log)
    (out / "datasets" / "T.jsonl").unlink()
    t_log = next((out / "T").rglob("samples_*.jsonl"))
    original_log = next((out / "original").rglob("samples_*.jsonl"))
    compared = json.loads(run_cli("lm-eval-xling", "consistency", "compare", str(original_log), str(t_log),
                                  "--json").stdout)  # fmt: skip
    expected = {k: v for k, v in report["consistency"]["T"].items() if k != "ci"}
    if left_out:  # the logs alone do not say which items the model left untranslated: compare counts them all
        assert compared["n"] == 3
    else:
        assert {k: compared[k] for k in expected} == pytest.approx(expected, nan_ok=True)


def test_rerun_changes_the_seed_that_samples():
    """hf samples with torch's seed (`--seed`); API models send their own `seed` with every request."""
    from lm_eval_xling.xsense.pipeline import Run

    def rerun_args(model, args):
        return Run(model, args, "xsense_pawsx", "en", "de", output=None).rerun_model_args()

    assert rerun_args("hf", "pretrained=m") == "pretrained=m"
    assert rerun_args("local-chat-completions", "model=m,base_url=u") == "model=m,base_url=u,seed=1235"
    assert rerun_args("local-chat-completions", "model=m,seed=7") == "model=m,seed=7"  # the user's choice stands


def test_translated_xnli_task_is_recomposed_in_the_target_layout(local_data):
    docs = {0: load("xnli", "en")["test"][0]}
    reqs = translation.requests(XNLI, docs, "en", "zh", references=None)
    translations = {r["key"]: f"«{r['text'][:12]}»" for r in reqs}
    t = _composed(XNLI, docs, translations, "en", "zh")["T"][0]
    p, s, w = (translations[f"instruction/{k}"] for k in ("prefix", "suffix", "sentence_word"))
    first, second = translations["0/premise"], translations["0/hypothesis"]
    assert xnli_prompt(t) == f'{p} 句子 1: "{first}" 句子 2: "{second}" {s}'  # the authors' layout and word


def test_a_translated_suffix_that_quotes_other_answer_words_accepts_them():
    from lm_eval_xling.xsense.tasks import pawsx_answers

    native = {"instruction_language": "de", "suffix": 'Bitte antworte mit "ja" oder "nein".'}
    kept = {"instruction_language": "de", "suffix": 'Bitte antworten Sie mit "yes" oder "No".'}
    replies = [["Yes.", "Nein.", "no"]] * 2
    assert pawsx_answers(replies, [native, kept]) == [["[invalid]", 0, "[invalid]"], [1, 0, 0]]
