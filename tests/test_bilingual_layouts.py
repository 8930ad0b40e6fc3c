"""Replies in two languages (issue 36, round 24): a verdict, an answer or the lists given twice, side by side or as
another language's version after the first, agreeing or not; a name in two scripts; a language's name as a label.
The examples are the project's own."""

from __future__ import annotations

import pytest

from lm_eval_xling.metrics.verdicts import parse_binary, parse_likert
from lm_eval_xling.quench.answers import parse_variables
from lm_eval_xling.xparade.span_f1 import token_labels
from lm_eval_xling.xparade.spans import read_spans
from lm_eval_xling.xsense.translation_reply import clean_translation

TOKENS = ["Ana", ",", "who", "is", "22", ",", "studies", "law", "at", "the", "University", "of", "Lagos", "."]


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("Sahihi / Correct", 1.0),  # one verdict in two languages
        ("Jibu ni sahihi. / The answer is wrong.", None),  # two versions that disagree
        ("Urteil: richtig. Die Antwort stimmt.\n\nEnglish translation: Verdict: incorrect.", None),
        ("Urteil: richtig. Die Antwort stimmt.\n\nEnglish translation: Verdict: correct.", 1.0),
        ("| Italiano | Deutsch |\n|---|---|\n| Verdetto: **corretto** | Urteil: **falsch** |", None),
        ("🇮🇩 Keputusan: **salah**.\n🇻🇳 Kết luận: **đúng**.", None),
    ],
)
def test_a_verdict_in_two_languages_stands_where_they_agree(reply: str, verdict: float | None) -> None:
    assert parse_binary(reply) == verdict


@pytest.mark.parametrize(
    ("reply", "score"),
    [
        ("Bewertung: 2 von 5.\n\nTranslation: Rating: four out of five.", None),
        ("Bewertung: 4 von 5.\n\nTranslation: Rating: four out of five.", 4.0),
        ("Dhibcaha: 1.5 / 5", 1.5),  # a score's slash is no second version
    ],
)
def test_a_score_in_two_languages_stands_where_they_agree(reply: str, score: float | None) -> None:
    assert parse_likert(reply) == score


@pytest.mark.parametrize(
    ("reply", "answer"),
    [
        ("The answer is Leo Tolstoy / Лев Толстой", "Leo Tolstoy"),  # one name in two scripts
        ("The answer is ONE PIECE（ワンピース）", "ONE PIECE"),  # a gloss in another script, no space before it
        ("| Español | English |\n|---|---|\n| La respuesta es Inglaterra | The answer is Argentina |", None),
        ("Amsar ita ce Sakkwato.\n\nIn English: The answer is Sokoto.", "Sokoto"),  # one city in two spellings
        ("Resposta: Vasco da Gama.\nRespuesta (en español): La respuesta es Vasco de Gama.", "Vasco de Gama"),
    ],
)
def test_an_answer_in_two_languages_stands_where_they_agree(reply: str, answer: str | None) -> None:
    assert parse_variables(reply, ["X"], "X")["X"] == answer


def test_lists_in_two_languages_stand_where_they_agree() -> None:
    english = 'New: "who is 22"\nInferable: "studies law"'
    agreeing = f"**EN**\n{english}\n\n**ES**\nNuevo: «who is 22»\nInferible: «studies law»"
    disagreeing = f"**EN**\n{english}\n\n**ES**\nNuevo: «studies law»\nInferible: «who is 22»"
    assert read_spans(agreeing, TOKENS) == (["who is 22"], ["studies law"], True)
    assert read_spans(disagreeing, TOKENS) == ([], [], False)


def test_a_target_line_glossed_below_takes_the_glosss_label() -> None:
    reply = 'studies law\nestudia derecho\n"estudia derecho" → NEW'  # the target's words, their translation, its label
    new, inf, readable = read_spans(reply, TOKENS)
    assert readable and list(token_labels(TOKENS, new, inf)[0]) == list(token_labels(TOKENS, ["studies law"], [])[0])


def test_a_language_named_as_a_label_is_no_negator() -> None:
    reply = "Hindi: आप कैसे हैं?\nTransliteration: Aap kaise hain?"  # "hindi" is Tagalog's "not"
    assert clean_translation(reply, "How are you?", "hi") == "आप कैसे हैं?"
