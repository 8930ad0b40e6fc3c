"""Replies of agents and retrieval pipelines (issue 36, round 20): a draft, a critique and a revised answer, a
debate settled by a moderator, labelled lists in languages the readers lack at the end of such a trace, an agent's
trace cut off before its final answer, citation marks and a list of sources after the answer, a judge's last line
that labels its confidence, half stars, a majority over samples. The examples are the project's own."""

from __future__ import annotations

import pytest

from lm_eval_xling.metrics.verdicts import parse_binary, parse_likert
from lm_eval_xling.quench.tasks import extract_entities
from lm_eval_xling.replies import read_reply
from lm_eval_xling.xparade.spans import read_spans
from lm_eval_xling.xsense.translation_reply import clean_translation

TOKENS = ["Ana", ",", "who", "is", "22", ",", "studies", "law", "at", "the", "University", "of", "Lagos", "."]


@pytest.mark.parametrize(
    "reply",
    [
        'Vázlat:\núj: "who is 22", "studies law"\nkikövetkeztethető: "the University of"\n\n'
        'Kritika: "studies law" a forrásban is szerepel.\n\nJavított válasz:\núj: "who is 22"\n'
        'kikövetkeztethető: "the University of"',
        'Agent A: New — "who is 22" and "the University of".\n\nAgent B: "the University of" follows from Lagos.\n\n'
        'Moderator: B is right.\nnowe: "who is 22"\nwywnioskowalne: "the University of"\n\nPewność: wysoka.',
    ],
)
def test_the_last_labelled_lists_of_a_trace_are_its_answer(reply: str) -> None:
    assert read_spans(reply, TOKENS) == (["who is 22"], ["the University of"], True)


def test_an_explanation_after_a_quoted_span_is_no_span() -> None:
    reply = 'New thing:\n"who is 22"\nThis says how old Ana is.\n\nThing you can guess:\n"the University of"'
    assert read_spans(reply, TOKENS) == (["who is 22"], ["the University of"], True)


def test_an_agent_trace_without_its_final_answer_gives_none() -> None:
    trace = "Thought: I should look the word up.\nAction: dictionary\nAction Input: water\nObservation: maji"
    assert read_reply(trace).unfinished
    assert clean_translation(trace, "Please drink plenty of water.", "sw") == ""
    assert not read_reply(trace + "\nThought: done.\nFinal Answer: Tafadhali kunywa maji mengi.").unfinished


@pytest.mark.parametrize(
    ("reply", "translation"),
    [
        ("Tafadhali kunywa maji mengi. [1]\n\nSources:\n[1] Kamusi, \"maji\".", "Tafadhali kunywa maji mengi."),
        ("Tafadhali kunywa maji mengi.【1】\n\n【1】Kamusi: water = maji", "Tafadhali kunywa maji mengi."),
        ("Translation: Tafadhali kunywa maji mengi. [doc 2]\n\nConfidence: high.", "Tafadhali kunywa maji mengi."),
    ],
)  # fmt: skip
def test_citation_marks_and_sources_are_no_part_of_the_translation(reply: str, translation: str) -> None:
    assert clean_translation(reply, "Please drink plenty of water.", "sw") == translation


def test_a_question_in_any_script_is_translated_as_a_question() -> None:
    assert clean_translation('English: "Will you come?"', "کیا آپ آئیں گے؟", "en") == "Will you come?"


def test_a_verdict_before_a_labelled_last_line_and_scores_of_agents() -> None:
    assert parse_binary("The candidate's answer is therefore incorrect.\nConfidence: high") == 0.0
    assert parse_binary("Moderator: both are plausible; I am unable to rule for either side.") is None
    assert parse_likert("Rating: ★★★★½\nSame city, abbreviated.") == 4.5
    assert parse_likert("Sample 1: score 4\nSample 2: score 4\nSample 3: score 2\n-> majority 4") == 4.0
    assert parse_likert("Адзнака: 2 з 5.") == 2.0
    assert parse_likert("Score: 1\n\nReferences:\n[1] Aviation History, vol. 3\n[2] Museum notes, 1903") == 1.0


def test_a_citation_mark_is_no_part_of_a_name() -> None:
    doc = {"variable": "X", "variables": ["X"], "question": "X is a province. Identify X."}
    reply = "由【1】和【2】可知，莫高窟在敦煌。\n答案：甘肃省【2】"
    assert extract_entities([[reply]], [doc])[0][0]["answer"] == "甘肃省"
