"""Replies in workplace and document layouts, with quoting and negation, in more languages (issue 36, round 16):
a fenced diff read as applied, an option ticked among crossed ones, two final statements that contradict each
other, a verdict word inside a question, a base model's next item, talk around a translation in English, a
table's source row, subtitle cues, headings in languages the reader lacks under a preamble, verdict words of
more languages. The examples are the project's own."""

from __future__ import annotations

import pytest

from lm_eval_xling.metrics.verdicts import parse_binary, parse_likert
from lm_eval_xling.quench.tasks import extract_entities
from lm_eval_xling.xparade.spans import read_spans
from lm_eval_xling.xsense.translation_reply import clean_translation

QUESTION = "X led the Y expedition that reached Z in 1498. Identify X."


def _entity(reply: str, variable: str = "X") -> str | None:
    doc = {"variable": variable, "variables": ["X", "Y", "Z"], "question": QUESTION}
    return extract_entities([[reply]], [doc])[0][0]["answer"]


def test_a_fenced_diff_is_read_as_applied_in_every_family() -> None:
    assert parse_binary("Revised after a second look:\n```diff\n- Verdict: correct\n+ Verdict: incorrect\n```") == 0.0
    assert parse_binary("```diff\n- Verdict: incorrect\n+ Verdict: correct\n```") == 1.0
    assert _entity("```diff\n- answer_X: Bartolomeu Dias\n+ answer_X: Vasco da Gama\n  answer_Z: Calicut\n```") == (
        "Vasco da Gama"
    )


@pytest.mark.parametrize(
    ("reply", "answer"),
    [
        ("❌ Bartolomeu Dias\n❌ Pedro Cabral\n✅ Vasco da Gama", "Vasco da Gama"),
        ("❌ NÃO: Pedro Cabral\n✅ SIM: Vasco da Gama\n\nZ = Calicut", "Vasco da Gama"),
    ],
)
def test_the_option_ticked_among_crossed_ones_is_the_answer(reply: str, answer: str) -> None:
    assert _entity(reply) == answer


def test_two_final_statements_that_contradict_each_other_give_no_answer_either_way() -> None:
    assert _entity("Step 1: ...\n\nRăspuns final: Vasco da Gama\n\n---\nRăspuns final: Pedro Cabral") is None
    assert _entity("Răspuns final: Pedro Cabral\nRăspuns final: Vasco da Gama") is None
    assert _entity("Răspuns final: Vasco da Gama\nRăspuns final: Vasco da Gama") == "Vasco da Gama"


def test_a_base_models_next_question_is_no_answer_and_the_question_restated_is_read_past() -> None:
    assert _entity("\n\nQuestion: X painted the Mona Lisa. Identify X.\nAnswer: Leonardo da Vinci") is None
    assert _entity(f"Question: {QUESTION}\nAnswer: Vasco da Gama") == "Vasco da Gama"


@pytest.mark.parametrize(
    ("reply", "variable", "answer"),
    [
        ("variable,answer\nX,Vasco da Gama\nZ,Calicut\n\nAnswer for the variable asked (Z): Calicut", "Z", "Calicut"),
        ("answer_Z: Calicut\nanswer_X: Vasco da Gama", "X", "Vasco da Gama"),  # a key naming another variable
        ("Beste Anna,\n\nZ is dus:\n\nCalicut\n\nMet vriendelijke groet,\nPieter", "Z", "Calicut"),
        ("Impendulo: nguVasco da Gama.", "X", "Vasco da Gama"),  # a Nguni copula written onto the name
        ("الجواب هو كاليكوت، ماشي غوا", "Z", "كاليكوت"),  # an Arabic comma before what is said of it
        ("Dat ass also och meng Äntwert: Vasco da Gama.", "X", "Vasco da Gama"),  # the noun further in
        (
            "Vasco da Gama\n\nWhy: the first voyage round the Cape to India was led by Vasco da Gama.",
            "X",
            "Vasco da Gama",
        ),
    ],
)
def test_an_answer_is_read_in_rows_keys_letters_and_sentences(reply: str, variable: str, answer: str) -> None:
    assert _entity(reply, variable) == answer


def test_a_description_that_names_another_variable_is_no_answer() -> None:
    assert _entity("X is the captain whose ship reached Z. Z is the port X reached. X is the captain whose") is None


def test_a_verdict_word_asked_in_a_question_is_no_verdict() -> None:
    reply = 'The gold answer is "19 June 1861"; the contestant wrote "1861".\n\nShould the year alone count as correct?'
    assert parse_binary(reply) is None
    assert parse_binary("The year alone is enough here. Correct.") == 1.0


def test_a_count_after_a_colon_at_the_end_is_no_score() -> None:
    reply = "Rating for item 12: on the 1-5 scale that's a **4**.\n\n:white_check_mark: 1  :eyes: 2"
    assert parse_likert(reply) == 4


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("Ocena: napačno.", 0.0),  # Slovenian
        ("Iudicium: non rectum est.", 0.0),  # Latin
        ("Repons lan kòrèk.", 1.0),  # Haitian Creole
        ("Mia juĝo: malĝusta.", 0.0),  # Esperanto
        ("Panding: zhengque", 1.0),  # toneless pinyin
        ("Oordiel: ferkeard.", 0.0),  # West Frisian
    ],
)
def test_verdict_words_of_more_languages_are_read(reply: str, verdict: float) -> None:
    assert parse_binary(reply) == verdict


SOURCE = "The museum will reopen in June."


@pytest.mark.parametrize(
    ("reply", "target", "translation"),
    [
        ("@Lina here's the Swedish for the newsletter 🇸🇪\n\nMuseet öppnar igen i juni.\n\nUsed the plain present.",
         "sv", "Museet öppnar igen i juni."),
        ("Here is the Dutch version for the client:\n\nHet museum gaat in juni weer open.\n\nI kept the tense.\n\nEva",
         "nl", "Het museum gaat in juni weer open."),
        ("| Language | Text |\n|---|---|\n| English | The museum will reopen in June. |\n"
         "| Danish | Museet genåbner i juni. |", "da", "Museet genåbner i juni."),
        ("```\n7\n00:00:12,000 --> 00:00:14,500\nMuzeum zostanie ponownie\notwarte w czerwcu.\n```",
         "pl", "Muzeum zostanie ponownie otwarte w czerwcu."),
        ("My answer: Muzeum se znovu otevře v červnu. (70%)\nRunner-up: Muzeum opět otevře v červnu. (30%)",
         "cs", "Muzeum se znovu otevře v červnu."),
        ("❌ Museum akan dibuka Juni.\n✅ Museum akan dibuka kembali pada bulan Juni.",
         "id", "Museum akan dibuka kembali pada bulan Juni."),
        ("Kia ora! In te reo Māori:\n\nKa tuwhera anō te whare taonga ā te Pipiri.\n\n(anō = again)",
         "mi", "Ka tuwhera anō te whare taonga ā te Pipiri."),
        ("```csv\nid,source,target\nm-7,\"The museum will reopen in June.\",\"Il museo riapre a giugno.\"\n```",
         "it", "Il museo riapre a giugno."),  # a CSV row, its quoted cells whole
        ("lang\tsource\ttarget\nro\tThe museum will reopen in June.\tMuzeul se redeschide în iunie.",
         "ro", "Muzeul se redeschide în iunie."),  # tab-separated values
    ],
)  # fmt: skip
def test_the_translation_is_told_from_the_talk_around_it(reply: str, target: str, translation: str) -> None:
    assert clean_translation(reply, SOURCE, target) == translation


TOKENS = ["The", "ferry", ",", "which", "is", "new", ",", "runs", "twice", "a", "day", "from", "Apia", "."]


@pytest.mark.parametrize(
    "reply",
    [
        'O aʻu iloiloga:\n\nFaʻamatalaga fou (e leai i le tusitusiga muamua):\n1. "which is new"\n\n'
        'Faʻamatalaga e mafai ona faʻatatau mai le tusitusiga muamua:\n1. "from Apia"',  # a preamble, an aside
        '🆕 Ny information: "which is new" – står ikke i kilden\n🔍 Kan udledes: "from Apia" – færgen sejler derfra\n\n'
        "Sig til, hvis I er uenige 🙂",  # emoji before the labels, a remark after the lists
    ],
)
def test_headings_in_languages_the_reader_lacks_are_read_in_the_prompts_order(reply: str) -> None:
    assert read_spans(reply, TOKENS) == (["which is new"], ["from Apia"], True)
