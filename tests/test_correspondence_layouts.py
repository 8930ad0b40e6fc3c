"""Replies written as correspondence (issue 36, round 21): a letter's greeting and closing, a forum post that quotes
another's answer before its own word on it, a thread revised by "EDIT:", text struck out, a chat whose assistant
revises its first answer, a letter translated paragraph by paragraph, and leads of Armenian and Amharic. The
examples are the project's own."""

from __future__ import annotations

import pytest

from lm_eval_xling.metrics.verdicts import parse_binary, parse_likert
from lm_eval_xling.quench.answers import parse_variables
from lm_eval_xling.xparade.spans import read_spans
from lm_eval_xling.xsense.translation_reply import clean_translation

TOKENS = ["Ana", ",", "who", "is", "22", ",", "studies", "law", "at", "the", "University", "of", "Lagos", "."]


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("> **mod_rui** wrote:\n> The contestant named Lisbon. Correct.\n\nThanks, Rui. I will leave this one to the "
         "head judge, since I set the question.", None),  # another's verdict, quoted; none of the reply's own
        ("Kolega mi poslal tohle hodnocení:\n> Nesprávně.\n\nMyslím, že se mýlí: Brno je správná odpověď. Správně.",
         1.0),  # the reply's own verdict after the quote it disputes
        ("Dear organiser,\n\nThe contestant wrote Cardiff; the key says Swansea.\n\nDyfarniad: anghywir\n\nYn gywir,"
         "\nY Beirniad", 0.0),  # a closing that holds a verdict word ("Yours sincerely" in Welsh) is no verdict
        ("Subject: Q4 — CORRECT\n\nHi all,\n\nThe contestant answered Oslo, as the key has it.\n\nRegards,\nMarit",
         1.0),  # a name after the closing is no verdict cut off
        ("First pass: correct.\n\nEDIT: I misread the year; the key says 1905, the contestant 1950. So it is "
         "incorrect.", 0.0),
        ("Trenger jeg å avgjøre om svaret er riktig eller galt? Uten nøkkelen kan jeg ikke.", None),
    ],
)  # fmt: skip
def test_a_judges_letter_or_post_is_read_on_its_own_words(reply: str, verdict: float | None) -> None:
    assert parse_binary(reply) == verdict


def test_an_edit_that_lowers_a_score_is_the_score() -> None:
    assert parse_likert("Hinne: 4\n\nGood reasoning.\n\nEDIT: it mixes up two kings. Lowering it to 3.") == 3.0


@pytest.mark.parametrize(
    ("reply", "answer"),
    [
        (
            "> The answer is Ronaldo\n\nThat was @kiko's guess in the thread above; I'll wait for a hint before I "
            "answer.",
            None,
        ),
        ("Hi!\n\nThe answer is The Oval\n\nCheers,\nMina\n\nP.S. Wait, that was 1975. The answer is Lord's", "Lord's"),
        ("Հարգելի հաղորդավար,\n\nՊատասխանն է՝ Արարատ։\n\nՀարգանքով,\nԱնի", "Արարատ"),
        ("መልሱ ኃይሌ ገብረሥላሴ ነው።", "ኃይሌ ገብረሥላሴ"),  # a short first name is no small word before the name
    ],
)
def test_a_contestants_letter_or_post_is_read_on_its_own_words(reply: str, answer: str | None) -> None:
    assert parse_variables(reply, ["X", "Y"], "X")["X"] == answer


@pytest.mark.parametrize(
    "reply",
    [
        'Annotator C sent me this for item 7:\n> New: "who is 22"\n> Inferable: "studies law"\n\nIs "studies law" '
        "really inferable? I would rather ask before I submit anything.",
        '> New: "who is 22", "the University of"\n\nThose are Lena\'s lists, not mine; I have not read the item yet.',
    ],
)
def test_another_annotators_quoted_lists_are_no_answer(reply: str) -> None:
    assert read_spans(reply, TOKENS) == ([], [], False)


@pytest.mark.parametrize(
    "reply",
    [
        "Lo nuevo es la edad («who is 22»); lo único inferible es «the University of».",
        'नया केवल "who is 22" है; "the University of" अनुमेय है।',
        "“who is 22”是新信息，原文没有提到年龄；“the University of”可以推断出来。",
        'The target adds one new fact, her age ("who is 22"), and "the University of" can be inferred.',
        'New: "who is 22"\n~~Inferable: "studies law"~~ (it is in the source)\nInferable: "the University of"',
        'User: List the spans.\n\nAssistant: New: "who is 22", "the University of"\n\nUser: Is the second one new?'
        '\n\nAssistant: Revised: New: "who is 22"\nInferable: "the University of"',
    ],
)
def test_a_span_takes_the_label_of_its_own_clause_and_struck_text_is_gone(reply: str) -> None:
    assert read_spans(reply, TOKENS) == (["who is 22"], ["the University of"], True)


def test_a_reply_that_says_both_lists_are_empty_is_read_so() -> None:
    assert read_spans("न कोई नई जानकारी है, न कोई अनुमेय जानकारी। दोनों सूचियाँ ख़ाली हैं।", TOKENS) == ([], [], True)


LETTER = "Dear Mr Berg,\n\nThank you for the invitation. I will come on Monday.\n\nKind regards,\nPeeter"


@pytest.mark.parametrize(
    "reply",
    [
        "Here is the letter in Estonian:\n\nLugupeetud hr Berg!\n\nTänan kutse eest. Tulen esmaspäeval.\n\n"
        "Lugupidamisega\nPeeter\n\nNote: Estonian letters open with an exclamation mark.",
        "Sure!\n\n---\n\nLugupeetud hr Berg!\n\nTänan kutse eest. Tulen esmaspäeval.\n\nLugupidamisega\nPeeter\n\n---",
    ],
)
def test_a_letter_is_translated_paragraph_by_paragraph(reply: str) -> None:
    expected = "Lugupeetud hr Berg!\n\nTänan kutse eest. Tulen esmaspäeval.\n\nLugupidamisega\nPeeter"
    assert clean_translation(reply, LETTER, "et") == expected


@pytest.mark.parametrize(
    "reply",
    [
        "Here is the notice in Icelandic:\n\n**Tilkynning:**",  # a lead to what never came
        "Kære forældre,\n\nUdflugten er flyttet til 14. maj. Eleverne skal medbringe",  # cut off mid-sentence
    ],
)
def test_a_translation_cut_off_gives_none(reply: str) -> None:
    source = "Dear parents, the trip has moved to 14 May. Pupils should bring a packed lunch."
    assert clean_translation(reply, source, "da") == ""


def test_a_chat_whose_assistant_revises_its_translation_is_read_on_the_revision() -> None:
    reply = (
        "Assistant: Hej Mette, kan vi flytte mødet?\n\nUser: Too stiff.\n\nAssistant: Revised: Hej Mette, kan vi "
        "rykke mødet?"
    )
    assert clean_translation(reply, "Hi Mette, can we move the meeting?", "da") == "Hej Mette, kan vi rykke mødet?"
