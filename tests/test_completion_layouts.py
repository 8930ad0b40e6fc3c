"""Replies of completion models, tutors and rarely tested languages (issue 36, round 15): a base model's answer
before the quiz items it goes on to write, text hard-wrapped as on a scanned page, verdicts and scores in more
languages, an answer's footnote mark or option number, headings read in the prompt's order beside a note, a
restatement cut off, a translation asked in a named script. The examples are the project's own."""

from __future__ import annotations

import pytest

from lm_eval_xling.choices import read_choice
from lm_eval_xling.metrics.verdicts import parse_binary, parse_likert
from lm_eval_xling.quench.tasks import extract_entities
from lm_eval_xling.xparade.spans import read_spans
from lm_eval_xling.xsense.translation_reply import clean_translation


def _entity(reply: str) -> str | None:
    doc = {"variable": "X", "variables": ["X", "Y"], "question": "X founded the city Y ... Identify X."}
    return extract_entities([[reply]], [doc])[0][0]["answer"]


NEXT_ITEM = "\n\nQuestion 8: Which river flows through Cairo?\nReference answer: Nile\nContestant answer: Nile\n"


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        (" no" + NEXT_ITEM + "Correct (yes/no): yes", 0.0),
        (" yes" + NEXT_ITEM + "Correct (yes/no): no", 1.0),
        ("\tincorrect\n\n### Item 9\nQuestion: Capital of Peru?\nReference answer: Lima\nVerdict: correct", 0.0),
    ],
)
def test_a_completion_models_answer_is_read_before_the_items_it_goes_on_to_write(reply: str, verdict: float) -> None:
    assert parse_binary(reply) == verdict


def test_the_next_items_of_a_completion_are_cut_in_every_family() -> None:
    assert (
        parse_likert(" 2\nWhy: it misses the cause.\n\nQuestion: Why is the sky blue?\nRationale: ...\nScore: 5") == 2
    )
    assert read_choice(" A\n\nStory: Ama went home.\nOption A: She slept.\nOption B: She ran.\nAnswer: B") == "A"
    assert _entity(" Akbar\n\nQuestion: X built the Y Fort. Identify X.\nAnswer: Shah Jahan") == "Akbar"
    assert _entity("Answer: Ashoka\n\nExplanation: he ruled after Bindusara.\n\nIdentify Y.\nAnswer: Pat") == "Ashoka"


def test_labelled_lines_of_a_chat_reply_are_its_answer() -> None:
    """Only a reply that continues the prompt's line (it opens with a space) is a completion."""
    assert parse_likert("Here is my evaluation.\n\nAccuracy: 4\nClarity: 5\nOverall: 4") == 4
    assert parse_binary("Let me check.\n\nReference: Lima\nGiven: Cusco\nVerdict: incorrect") == 0.0


def test_text_hard_wrapped_at_a_width_reads_as_running_text() -> None:
    scanned = "The contes-\ntant wrote Lyon\nwhere the refer-\nence says Paris, so the an-\nswer is in-\ncorrect."
    assert parse_binary(scanned) == 0.0
    assert _entity("The an-\nswer is Chandra-\ngupta Maurya. He de-\nfeated the Nandas.") == "Chandragupta Maurya"
    assert parse_binary("Well-\nknown answer.\nVerdict: correct") == 1.0  # one broken word is no page


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("Dyfarniad: anghywir.", 0.0),  # Welsh
        ("Niðurstaða: rétt.", 1.0),  # Icelandic
        ("Epaia: zuzena", 1.0),  # Basque
        ("Verdett: mhux korrett.", 0.0),  # Maltese
        ("Hukom: sayop", 0.0),  # Cebuano
        ("Ҳукм: нодуруст", 0.0),  # Tajik
        ("Vertinimas: teisingas", 1.0),  # Lithuanian
        ("ውሳነ፡ ቅኑዕ", 1.0),  # Tigrinya
        ("Njàkk: dëggul", 0.0),  # Wolof
    ],
)
def test_verdict_words_of_more_languages_are_read(reply: str, verdict: float) -> None:
    assert parse_binary(reply) == verdict


@pytest.mark.parametrize("reply", ["Vale, la respuesta es correcta.", "La respuesta es correcta. Vale."])
def test_a_word_of_one_language_is_no_verdict_where_another_uses_it_otherwise(reply: str) -> None:
    """Every language's verdict words are read in one expression: Spanish "vale" (okay) is no Estonian "wrong"."""
    assert parse_binary(reply) == 1.0


@pytest.mark.parametrize(
    ("reply", "score"),
    [
        ("ነጥብ: ፫", 3.0),  # Ge'ez numerals
        ("Zvibodzwa: 3 kubva pa5", 3.0),  # a score, words, the scale's 5
        ("Umumiy baho: 4 (beshdan to'rt)", 4.0),  # a label of two words, an aside after the score
        ("Tugaim ceithre as cúig.", 4.0),  # Irish number words
        ("Mo fún un ní mẹ́ta nínú márùn.", 3.0),  # Yoruba number words
    ],
)
def test_scores_in_more_scripts_and_words_are_read(reply: str, score: float) -> None:
    assert parse_likert(reply) == score


@pytest.mark.parametrize(
    ("reply", "answer"),
    [
        ("Answer: Kalidasa[2].\n\n[2] See the Raghuvamsha.", "Kalidasa"),  # a footnote mark
        ("Options: 1. Babur 2. Humayun\n\nThe answer is 2. Humayun.", "Humayun"),  # the listed option's number
        ("Erantzuna: Donostia da.", "Donostia"),  # Basque copula
        ("Ҷавоб: Исмоили Сомонӣ аст.", "Исмоили Сомонӣ"),  # Tajik copula
        ("Idahun: Ọbáfẹ́mi Awólọ́wọ̀ ni.", "Ọbáfẹ́mi Awólọ́wọ̀"),  # Yoruba focus particle
    ],
)
def test_an_answers_mark_number_or_copula_is_not_part_of_it(reply: str, answer: str) -> None:
    assert _entity(reply) == answer


TOKENS = ["The", "bridge", ",", "opened", "in", "1998", ",", "carries", "trains", "every", "hour", "."]


@pytest.mark.parametrize(
    "reply",
    [
        '### Rhannau newydd\n1. "opened in 1998"\n\n### Rhannau y gellir eu casglu\n1. "every hour"\n\nNodyn: '
        "mae'r ail yn dilyn o'r ffynhonnell.",  # headings without a colon, a note after them
        'Dyma fy ateb:\n\n```json\n{"newydd": ["opened in 1998"], "casgladwy": ["every hour"]}\n```\n\nNodyn: byr.',
        'New: "opened in 1998"\nInferable: "every hour"\n\nAnswer:\nNew: "opened in',  # a restatement cut off
    ],
)
def test_lists_under_headings_the_reader_lacks_are_read_beside_a_note(reply: str) -> None:
    assert read_spans(reply, TOKENS) == (["opened in 1998"], ["every hour"], True)


def test_a_list_cut_off_inside_a_span_is_no_answer_and_an_unquoted_remark_is_no_span() -> None:
    assert read_spans('### New\n- "opened in 1998"\n- "every ho', TOKENS) == ([], [], False)
    remark = 'नव सूचना (स्रोत मे नहि अछि):\n१. "opened in 1998"\n२. "carries trains"\n\nअनुमेय सूचना:\nकोनो नहि।'
    assert read_spans(remark, TOKENS) == (["opened in 1998", "carries trains"], [], True)
    assert read_spans("there is nothing inferable in this one", TOKENS)[2] is False  # says nothing of the new


@pytest.mark.parametrize(
    ("reply", "target", "translation"),
    [
        ("Bangla: আমি ভাত খাই।\nRomanised: Ami bhat khai.", "bn-Latn", "Ami bhat khai."),
        ("Ćirilica: Ја једем хлеб.\nLatinica: Ja jedem hleb.", "sr-Latn", "Ja jedem hleb."),
        ("Ćirilica: Ја једем хлеб.\nLatinica: Ja jedem hleb.", "sr-Cyrl", "Ја једем хлеб."),
        ("אויף ייִדיש: ״איך עס ברויט.״", "yi", "איך עס ברויט."),  # gershayim as quotes
        ("Ndiya kutya isonka.\n\nTranslation: Ndiya kut", "xh", "Ndiya kutya isonka."),  # a restatement cut off
    ],
)
def test_a_translation_in_the_script_asked_and_its_restatement_cut_off(reply: str, target: str, translation: str):
    assert clean_translation(reply, "I eat bread.", target) == translation
