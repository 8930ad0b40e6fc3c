"""Y-NQ ROUGE on words: punctuation is no token, numbers are their digits, tone marks and underdots tell words
apart, NFC and NFD alike; checked against tests/corpus/rouge.jsonl (word lists and scores worked out by hand)."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lm_eval_xling.metrics.overlap import SacrebleuTokenizer, rouge
from lm_eval_xling.ynq.tasks import WORDS

CORPUS = [json.loads(line) for line in (Path(__file__).parents[1] / "corpus" / "rouge.jsonl").read_text().splitlines()]


def ynq_rouge(prediction: str, reference: str) -> dict[str, float]:
    return rouge([prediction], [reference], tokenizer=WORDS)


def test_punctuation_is_not_a_token():
    assert WORDS.tokenize('He said: "Yes!" (twice) -- then left... [1]; ok?') == [
        "he", "said", "yes", "twice", "then", "left", "1", "ok",
    ]  # fmt: skip
    assert WORDS.tokenize("“Ògbójú Ọdẹ”, ‘Ìwé’ — ¿qué? ¡sí! «x»") == ["ògbójú", "ọdẹ", "ìwé", "qué", "sí", "x"]
    assert WORDS.tokenize(" .,;:!?()[]{}\"'-–—…/ ") == []


def test_numbers_keep_their_digits_only():
    assert WORDS.tokenize("1991.") == WORDS.tokenize("1991") == ["1991"]
    assert WORDS.tokenize("(1960)") == ["1960"]
    # separators split digit groups, as rouge_score does: equal when written alike, no locale guessed
    assert WORDS.tokenize("3.5 and 1,000") == ["3", "5", "and", "1", "000"]
    assert ynq_rouge("In 1991.", "in 1991")["rouge1"] == pytest.approx(100)
    assert ynq_rouge("Ní ọdún (1960).", "Ní ọdún 1960")["rougeL"] == pytest.approx(100)


def test_a_right_answer_with_a_full_stop_scores_100():
    reference = "Nelson Mandela became President of South Africa in 1994"
    assert ynq_rouge(reference + ".", reference) == pytest.approx({"rouge1": 100, "rouge2": 100, "rougeL": 100})
    # the previous tokenizer (sacrebleu intl) glued the full stop to the number: "1994." is not "1994"
    old = rouge([reference + "."], [reference], language=None)
    assert old["rouge1"] == pytest.approx(100 * 8 / 9) and old["rouge2"] == pytest.approx(100 * 7 / 8)


def test_the_task_scores_on_words(local_data):
    from lm_eval.tasks import TaskManager

    tasks = TaskManager().load(["ynq_english", "ynq_yoruba"])["tasks"]
    english, yoruba = (next(iter(tasks[f"ynq_{lang}"].test_docs())) for lang in ("english", "yoruba"))
    for task, doc, answer in [
        (tasks["ynq_english"], english, f'"{english["long_answer"].rstrip(".")}"'),  # quoted, no full stop
        (tasks["ynq_yoruba"], yoruba, unicodedata.normalize("NFD", yoruba["long_answer"].upper())),
    ]:
        scores = task.process_results(doc, [answer])
        assert (scores["rouge1"], scores["rouge2"], scores["rougeL"]) == pytest.approx((100, 100, 100))
    assert tasks["ynq_yoruba"].process_results(yoruba, [yoruba["long_answer"].replace("ṣ", "s")])["rouge1"] < 100


def test_tone_marks_and_underdots_tell_words_apart():
    # ọkọ̀ (vehicle), ọkọ (husband), oko (farm); ṣe (do) and se (cook)
    assert len(set(WORDS.tokenize("ọkọ̀ ọkọ oko ṣe se"))) == 5
    assert ynq_rouge("Ọkọ náà dé", "Ọkọ̀ náà dé")["rouge1"] == pytest.approx(100 * 2 / 3)
    assert WORDS.tokenize("Ọ̀ṢUN Ẹ́GBẸ́") == ["ọ̀ṣun", "ẹ́gbẹ́"]  # lower case keeps the marks


def test_nfd_equals_nfc():
    text = "Ọ̀ṣun ń ṣàn kọjá ìlú Òṣogbo; Ẹ̀bùn Nobel, orílẹ̀-èdè."
    for form in ("NFC", "NFD", "NFKC", "NFKD"):
        assert WORDS.tokenize(unicodedata.normalize(form, text)) == WORDS.tokenize(text)
    assert all(unicodedata.is_normalized("NFC", w) for w in WORDS.tokenize(unicodedata.normalize("NFD", text)))
    assert ynq_rouge(unicodedata.normalize("NFD", text), text)["rougeL"] == pytest.approx(100)
    assert WORDS.tokenize("a \u0301 b") == ["a", "b"]  # a tone mark with no letter is no word


def test_chinese_characters_are_one_token_each():
    assert WORDS.tokenize("我很高兴，OK。") == ["我", "很", "高", "兴", "ok"]


@given(st.text(alphabet=st.characters(max_codepoint=127)))
def test_ascii_text_tokenizes_as_rouge_score_does(text):
    """The paper's scores are comparable with rouge_score's default tokenizer ([a-z0-9] runs): on ASCII text the
    words are the same, so English Y-NQ scores match it wherever answers are plain ASCII."""
    from rouge_score.tokenize import tokenize

    assert WORDS.tokenize(text) == tokenize(text, None)


def test_xsense_keeps_the_sacrebleu_tokenizer():
    """Only Y-NQ moved to words: rouge() without a tokenizer still splits punctuation off as tokens (xsense)."""
    assert SacrebleuTokenizer(None).tokenize("In 1991.") == ["in", "1991."]
    assert SacrebleuTokenizer(None).tokenize("(1960) ok") == ["(1960", ")", "ok"]
    assert rouge(["我很高兴"], ["我不高兴"], "zh")["rouge1"] == pytest.approx(75)


def test_corpus_is_well_formed():
    assert len(CORPUS) >= 20 and len({r["id"] for r in CORPUS}) == len(CORPUS)
    assert {r["language"] for r in CORPUS} == {"english", "yoruba"}
    assert sum(not unicodedata.is_normalized("NFC", r["prediction"]) for r in CORPUS) >= 3  # NFD input
    assert sum("note" in r for r in CORPUS) >= 5


@pytest.mark.parametrize("record", CORPUS, ids=[r["id"] for r in CORPUS])
def test_corpus_words_and_hand_scores(record):
    assert WORDS.tokenize(record["prediction"]) == record["prediction_words"]
    assert WORDS.tokenize(record["reference"]) == record["reference_words"]
    scores = ynq_rouge(record["prediction"], record["reference"])
    assert scores["rouge1"] == pytest.approx(record["rouge1"], abs=0.01)
    assert scores["rougeL"] == pytest.approx(record["rougeL"], abs=0.01)
