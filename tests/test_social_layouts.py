"""Replies in informal and social registers, with self-correction, and in more languages (issue 36, round 17):
box-drawing tables, Roman-numeral outlines, emoji and hashtags around an answer, a variable stated with the copula
of any language, the answer stated first and the others labelled after it, a later correction of the variable, a
label in a language the reader lacks, a frame around a translation in any language, a tick after the chosen line,
revisions ("scratch that", "UPDATE:"), an answer quoted from another before the reply's own. The examples are the
project's own."""

from __future__ import annotations

import pytest

from lm_eval_xling.metrics.verdicts import parse_binary
from lm_eval_xling.quench.tasks import extract_entities
from lm_eval_xling.replies import read_reply
from lm_eval_xling.xparade.spans import read_spans
from lm_eval_xling.xsense.translation_reply import clean_translation

QUESTION = "X, who wrote the epic Y, was born in the city of Z. Identify X."


def _entity(reply: str, variable: str = "X") -> str | None:
    doc = {"variable": variable, "variables": ["X", "Y", "Z"], "question": QUESTION}
    return extract_entities([[reply]], [doc])[0][0]["answer"]


def test_a_box_drawing_table_is_read_as_rows_its_wrapped_cells_joined() -> None:
    reply = (
        "┌──────────────┬──────────────────┐\n"
        "│ Variable     │ Answer           │\n"
        "├──────────────┼──────────────────┤\n"
        "│ X            │ Abai             │\n"
        "│ Z            │ Semey            │\n"
        "├──────────────┼──────────────────┤\n"
        "│ The epic was │ first printed in │\n"
        "│ written late │ the city.        │\n"
        "└──────────────┴──────────────────┘"
    )
    assert [(line.kind, line.text) for line in read_reply(reply).lines] == [
        ("row", "Variable | Answer"),
        ("row", "X | Abai"),
        ("row", "Z | Semey"),
        ("row", "The epic was written late | first printed in the city."),
    ]
    assert _entity(reply) == "Abai"


def test_outline_sections_and_ascii_rules_are_layout() -> None:
    lines = read_reply("+-----+-----+\n| a | b |\n+=====+=====+\nII. Second part\nV. S. Naipaul").lines
    assert [(line.kind, line.text) for line in lines] == [
        ("row", "a | b"),
        ("heading", "Second part"),
        ("text", "V. S. Naipaul"),  # initials, no section
    ]
    assert [line.quoted for line in read_reply("> Their reading\nMine").lines] == [True, False]
    assert read_reply("│ X │ Abai\n│ Z │ Semey │").lines[0].text == "X | Abai"  # a row drawn without its last bar


@pytest.mark.parametrize(
    ("reply", "variable", "answer"),
    [
        ("Let me see. X ni Wole Soyinka; Z ni Abeokuta.", "X", "Wole Soyinka"),  # a copula of any language
        ("Na ndụmọdụ: X bụ Chinua Achebe", "X", "Chinua Achebe"),
        ("Felly, X yw Ho.", "X", "Ho"),  # a name inside one of the question's words ("who") is no repetition
        ("I. Context: a novel of 1958\nII. Natija: X — Chinua Achebe.", "X", "Chinua Achebe"),  # after a colon
        ("X شهریار است؛ Z تبریز.", "X", "شهریار"),  # no copula word in a script without capitals, one after
        ("the answer: sholokhov 🔥 y = тихий дон", "X", "sholokhov"),  # an emoji ends the name
        ("Semey. X is Abai, and Y is the Book of Words.", "Z", "Semey"),  # the one asked first, others labelled
        ("Answer: Lahore\n\nCorrection: Z is Multan, not Lahore.", "Z", "Multan"),  # the variable's later word
        ("Die richtige Antwort ist … Goethe!", "X", "Goethe"),  # a pause before the answer
        ("**TL;DR: Louis Riel**\n\nSee the long post above.", "X", "Louis Riel"),  # a label of one word
        ("ⴰⵔⴰⵔ: ⵎⴰⵙⵉⵏⵉⵙⴰ (Masinissa).", "X", "ⵎⴰⵙⵉⵏⵉⵙⴰ"),  # a label in a language the reader lacks
        ("پاسخ: حافظ. «گلستان» اثر او نیست.", "X", "حافظ"),  # a sentence after a quote, no capitals
    ],
)
def test_an_answer_is_read_in_the_registers_of_chat_and_in_any_language(reply: str, variable: str, answer: str) -> None:
    assert _entity(reply, variable) == answer


@pytest.mark.parametrize(
    "reply",
    [
        "X wrote Y, so X was born in Z.",  # the question restated: "X wrote" is no answer
        "Let's go step by step. Y (the epic) is long.",  # a sentence of small words is no name
    ],
)
def test_the_question_restated_or_a_sentence_is_no_answer(reply: str) -> None:
    assert _entity(reply) is None


def test_a_later_plain_statement_of_the_verdict_is_the_verdict() -> None:
    transcript = "Botti: Väärin.\nKäyttäjä: Entä tämä?\nBotti: Nimi on sama henkilö. Vastaus on oikein."
    assert parse_binary(transcript) == 1.0
    assert parse_binary("Jibu ni sahihi.") == 1.0


SOURCE = "Please drink plenty of water."


@pytest.mark.parametrize(
    ("reply", "target", "translation"),
    [
        ("Formal (to an elder, a stranger): Tafadhali kunywa maji mengi.", "sw", "Tafadhali kunywa maji mengi."),
        ("En swahili, on dirait : Tafadhali kunywa maji mengi.", "sw", "Tafadhali kunywa maji mengi."),
        ('2/3 In Swahili: "Tafadhali kunywa maji mengi." 💧 #Kiswahili #afya', "sw", "Tafadhali kunywa maji mengi."),
        ("All together → Tafadhali kunywa maji mengi.", "sw", "Tafadhali kunywa maji mengi."),
        ("Kunywa maji mengi. 👎 too blunt\nTafadhali kunywa maji mengi. ✔️ this one", "sw",
         "Tafadhali kunywa maji mengi."),
        ("| Register | Swahili | Use |\n|---|---|---|\n| Plain | Kunywa maji mengi. | friends |\n"
         "| Polite ✔️ | Tafadhali kunywa maji mengi. | elders |\n\n✔️ = what I would send", "sw",
         "Tafadhali kunywa maji mengi."),
        ("Kunywa maji.\n\nScratch that, it drops 'plenty'. Closer to the original:\n\nKunywa maji mengi.", "sw",
         "Kunywa maji mengi."),
        ("Kunywa maji meng.\n\nUPDATE: typo fixed:\n\nKunywa maji mengi.\n\nEDIT 2: thanks for the gold!", "sw",
         "Kunywa maji mengi."),
        ("I. Tafsiri\n   Tafadhali kunywa maji mengi.\nII. Notes\n   Polite form.", "sw",
         "Tafadhali kunywa maji mengi."),
        ("- **Translation:**\n  - Tafadhali kunywa maji mengi.\n    - Breakdown:\n      - *Tafadhali* — please\n"
         "      - *maji mengi* — plenty of water", "sw", "Tafadhali kunywa maji mengi."),
        ("Tafadhali kunywa maji mengi. (to one person; to many: Tafadhalini kunyweni maji mengi.)", "sw",
         "Tafadhali kunywa maji mengi."),
        ("(a) Kunywa maji mengi.\n(b) Tafadhali kunywa maji mengi.\n\nMy pick is (b): it keeps 'please'.", "sw",
         "Tafadhali kunywa maji mengi."),
        ("> Kunywa maji machache.\n\nNot quite: 'machache' is 'little'. It should be:\n\n**Kunywa maji mengi.**",
         "sw", "Kunywa maji mengi."),
        ("कृपया खूब पानी पिएँ — (kripya khoob paani piyen)", "hi", "कृपया खूब पानी पिएँ"),
    ],
)  # fmt: skip
def test_the_translation_is_read_in_social_and_outline_layouts(reply: str, target: str, translation: str) -> None:
    assert clean_translation(reply, SOURCE, target) == translation


TOKENS = ["Ana", ",", "who", "is", "22", ",", "studies", "law", "at", "the", "University", "of", "Lagos", "."]


@pytest.mark.parametrize(
    "reply",
    [
        "ok so new: who is 22 👍\ninferable: the University of (it says so lol)\nthats all",
        "┌────────────────────┬───────────┐\n│ Span               │ Label     │\n├────────────────────┼───────────┤\n"
        "│ who is 22          │ NEW       │\n│ the University of  │ INFERABLE │\n└────────────────────┴───────────┘",
        'I. Alignment\n   A. "studies law" = "studies law"\nII. New spans\n   A. "who is 22"\n'
        'III. Inferable spans\n   A. "the University of"',
        'Yangi: "who is 22"\nInferable: "the University of"',  # a heading the reader lacks beside one it knows
    ],
)
def test_the_same_spans_in_chat_box_outline_and_mixed_layouts_give_the_same_lists(reply: str) -> None:
    assert read_spans(reply, TOKENS) == (["who is 22"], ["the University of"], True)
