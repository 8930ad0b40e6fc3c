"""Replies in formal, spoken and escaped layouts, in code-switched and more languages (issue 36, round 18): LaTeX
documents, speech markup (SSML), HTML escaped twice, legal and outline clause numbers, a 1 or 0 as a binary verdict,
a label in any language closing the reply, a name after a clause of the reply's own language, headings with an aside
or a gloss, corrections that split a span or drop the last one, a quote with a note after it. The examples are the
project's own."""

from __future__ import annotations

import pytest

from lm_eval_xling.metrics.verdicts import parse_binary, parse_likert
from lm_eval_xling.quench.tasks import extract_entities
from lm_eval_xling.replies import read_reply
from lm_eval_xling.xparade.spans import read_spans
from lm_eval_xling.xsense.translation_reply import clean_translation

QUESTION = "X, who wrote the epic Y, was born in the city of Z. Identify X."


def _entity(reply: str, variable: str = "X") -> str | None:
    doc = {"variable": variable, "variables": ["X", "Y", "Z"], "question": QUESTION}
    return extract_entities([[reply]], [doc])[0][0]["answer"]


def _lines(reply: str) -> list[tuple[str, str]]:
    return [(line.kind, line.text) for line in read_reply(reply).lines]


def test_latex_is_read_as_the_layout_it_stands_for() -> None:
    reply = (
        "\\documentclass{article}\n\\begin{document}\n\\section*{Answer}\n\\begin{itemize}\n"
        "  \\item \\textbf{X}: \\emph{Abai Qunanbaiuly}\\footnote{Also written Kunanbayev.}\n"
        "  \\item Y is ``The Book of Words'' --- a prose work\n\\end{itemize}\n\\end{document}"
    )
    assert _lines(reply) == [
        ("heading", "Answer"),
        ("item", "X: Abai Qunanbaiuly"),
        ("item", 'Y is "The Book of Words" — a prose work'),
    ]
    assert _entity(reply) == "Abai Qunanbaiuly"
    assert read_reply("$\\boxed{\\text{Abai}}$").text == "$\\boxed{\\text{Abai}}$"  # no LaTeX document: as written


def test_speech_markup_is_read_as_text_its_pauses_as_spaces_or_line_ends() -> None:
    spoken = '<speak>The answer is <break time="300ms"/> <emphasis level="strong">Abai</emphasis>.</speak>'
    assert read_reply(spoken).text == "The answer is Abai."
    assert _entity(spoken) == "Abai"
    listed = '<speak>New. <break time="200ms"/> <say-as interpret-as="cardinal">4</say-as> out of 5.</speak>'
    assert _lines(listed) == [("text", "New."), ("text", "4 out of 5.")]
    assert read_reply("The answer is <P Abai>").text == "The answer is <P Abai>"  # a placeholder, no tag


def test_html_escaped_twice_and_legal_clauses_are_layout() -> None:
    assert _lines("&lt;b&gt;New:&lt;/b&gt; &#8220;a&#8221;&lt;br&gt;Inferable: none") == [
        ("text", 'New: "a"'),
        ("text", "Inferable: none"),
    ]
    assert _lines("1.1 First clause\n1.2(a) Second\n(ii) Third\n（一）第四\n第二条　结论") == [
        ("item", "First clause"),
        ("item", "Second"),
        ("item", "Third"),
        ("item", "第四"),
        ("heading", "结论"),
    ]
    assert _lines("3.5 out of 5") == [("text", "3.5 out of 5")]  # one number of two levels: a score, no clause
    assert read_reply("Write \\*domo\\* in *italics*").text == "Write *domo* in italics"  # an escaped mark stays


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("Jibu ni sawa kabisa. 1", 1.0),  # closing the reply after a sentence
        ("Veredikto: 0", 0.0),  # after a label of any language
        ("Нийса ду — 1. Кандидатан жоп нийса ю.", 1.0),  # after a dash
        ("1 — same person, the accent written differently.", 1.0),  # opening the reply before a dash
        ("My first reading is 0: different spellings. Wait, it is the same city, renamed. Revised verdict: 1.", 1.0),
        ("The candidate wrote 'Wrong Way Corrigan', his nickname. Verdict: 1.", 1.0),  # a quote holds "wrong"
        ("Verdict: 1 (incorrect).", 0.0),  # a digit with a word after it is no verdict of its own
    ],
)
def test_a_binary_verdict_given_as_a_digit_is_read(reply: str, verdict: float) -> None:
    assert parse_binary(reply) == verdict


def test_a_score_labelled_after_a_sentence_end_is_read() -> None:
    assert parse_likert("评分：３／５。重新核对后：完全一致。最终评分：５") == 5.0
    assert parse_likert("Good match. Puntuazioa: 4") == 4.0


@pytest.mark.parametrize(
    ("reply", "variable", "answer"),
    [
        ("Y is the Book of Words.\nThe poet wrote it in exile.\nJawabu: Abai", "X", "Abai"),  # a closing label
        ("el egaba heya Abai Qunanbaiuly, ya3ni the poet", "X", "Abai Qunanbaiuly"),  # a clause, then the name
        ("Jean de la Fontaine", "X", "Jean de la Fontaine"),  # a name's particles are short: no clause
    ],
)
def test_an_answer_is_read_after_a_closing_label_or_a_clause(reply: str, variable: str, answer: str) -> None:
    assert _entity(reply, variable) == answer


TOKENS = ["Ana", ",", "who", "is", "22", ",", "studies", "law", "at", "the", "University", "of", "Lagos", "."]
WANTED = (["who is 22"], ["the University of"], True)


@pytest.mark.parametrize(
    "reply",
    [
        "1. Scope\n1.1 The target was compared clause by clause.\n2. New information [2 marks]\n"
        '2.1 (i) "who is 22"\n3. Inferable information\n3.1 (i) "the University of"\n4. Final clause\n'
        "4.1 The rest is in the source.",
        'Machaqa (new):\n- "who is 22"\nJani (inferable):\n- "the University of"',  # a gloss in known words
        "\\section*{New}\n\\begin{itemize}\n\\item ``who is 22''\n\\end{itemize}\n\\section*{Inferable}\n"
        "\\begin{itemize}\n\\item ``the University of''\\footnote{A university implies a city.}\n\\end{itemize}",
        'New → "who is 22" Inferable → "the University of"',
        "New:\n- who is 22\n- studies law\nInferable:\n- the University of\n\nWait, drop that last one... "
        'I mean the second new one: remove "studies law".',
    ],
)
def test_the_same_spans_in_formal_layouts_and_after_corrections(reply: str) -> None:
    assert read_spans(reply, TOKENS) == WANTED


def test_a_statement_that_nothing_is_new_is_an_answer() -> None:
    assert read_spans("Nada nuevo, nada inferible: es una traducción fiel.", TOKENS) == ([], [], True)
    assert read_spans("No new info, no inferable info.", TOKENS) == ([], [], True)


def test_a_span_found_later_inside_an_earlier_one_splits_it() -> None:
    reply = 'New: "who is 22 studies law"\n\nCorrection: split it, "studies law" is inferable.'
    assert read_spans(reply, TOKENS) == (["who is 22"], ["studies law"], True)
    table = (
        "| Span | Label |\n|---|---|\n| who is 22 studies law | new |\n\n"
        'Corrección: split the row — "studies law" is inferable, only "who is 22" is new.'
    )
    assert read_spans(table, TOKENS) == (["who is 22"], ["studies law"], True)


SOURCE = "Please drink plenty of water."


@pytest.mark.parametrize(
    ("reply", "translation"),
    [
        ("“Tafadhali kunywa maji mengi.” — polite, to an elder (to a friend: Kunywa maji mengi!).",
         "Tafadhali kunywa maji mengi."),  # a quote with a note after it
        ("Hii hapa:\n\n> Tafadhali kunywa maji mengi.\n\n(*maji* = water, *mengi* = plenty)",
         "Tafadhali kunywa maji mengi."),  # a line in brackets is a comment
        ("翻译：Tafadhali kunywa maji mengi.（“maji” = water）", "Tafadhali kunywa maji mengi."),
        ("\\begin{quote}\nTafadhali kunywa maji mengi.$^{1}$\n\\end{quote}\n\\footnotesize{$^{1}$ Polite form.}",
         "Tafadhali kunywa maji mengi."),
        ('<speak><lang xml:lang="sw-KE">Tafadhali <break time="200ms"/> kunywa maji mengi.</lang></speak>',
         "Tafadhali kunywa maji mengi."),
        ("<p><b>Kiswahili:</b> Tafadhali kunywa maji mengi &amp; safi.</p>", "Tafadhali kunywa maji mengi & safi."),
    ],
)  # fmt: skip
def test_the_translation_is_read_in_formal_spoken_and_escaped_layouts(reply: str, translation: str) -> None:
    assert clean_translation(reply, SOURCE, "sw") == translation
