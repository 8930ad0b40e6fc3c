"""Replies that think out loud before and after they commit (issue 36, twelfth blind round): what the reply weighs is
not its answer; its last commitment is, in any family."""

from __future__ import annotations

import pytest

from lm_eval_xling.metrics.verdicts import parse_binary, parse_likert
from lm_eval_xling.quench.tasks import extract_entities
from lm_eval_xling.xparade.span_f1 import token_labels
from lm_eval_xling.xparade.spans import read_spans
from lm_eval_xling.xsense.translation_reply import clean_translation

TARGET = ["El", "museo", "abrió", "en", "2005", "y", "tiene", "4.000", "cuadros", ",", "sobre", "todo", "retratos", "."]
LISTS = "New:\nsobre todo retratos\nInferable:\nnone"


def _labels(reply: str) -> list[int]:
    new, inf, _ = read_spans(reply, TARGET)
    return token_labels(TARGET, new, inf)[0].tolist()


@pytest.mark.parametrize(
    "thinking",
    [
        '- "El museo abrió en 2005" = same.\n- "tiene 4.000 cuadros": is it new? The source says 4,000 paintings.\n\n',
        '分析："sobre todo retratos" 可以推断吗？不能。"El museo abrió" 相同。\n\n',
    ],
)
def test_what_a_reply_weighs_before_its_lists_is_not_its_answer(thinking: str) -> None:
    assert _labels(thinking + LISTS) == _labels(LISTS)


def test_talk_after_a_list_stated_empty_is_no_item_of_it() -> None:
    after = '\n\nI did not include "tiene 4.000 cuadros", which is in the source. Ask me for a stricter reading!'
    assert _labels(LISTS + after) == _labels(LISTS)


def test_a_translation_is_the_line_in_the_language_asked() -> None:
    talk = 'For "a woman" I\'d use 한 여성이 rather than 여자가 — 여성 is more neutral in written Korean.'
    reply = f"{talk}\n\n한 여성이 책을 읽고 있다.\n\n(Back-translation: A woman is reading a book.)"
    assert clean_translation(reply, "A woman is reading a book.", "ko") == "한 여성이 책을 읽고 있다."
    assert clean_translation("Mwanamke anasoma kitabu.", "A woman is reading a book.", "ja") == ""  # not Japanese
    final = "Terms:\n1. premise -> msingi\n2. entail -> inathibitisha\n\nFinal translation:\nJe, msingi unathibitisha?"
    assert clean_translation(final, "Does the premise entail it?", "sw") == "Je, msingi unathibitisha?"


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ('"UK" is correct in substance but not in form.\n\nJudgement: correct / incorrect', None),
        ("Provisionally incorrect, as the spelling differs... but Tolstoi is Tolstoy. Final: correct", 1.0),
    ],
)
def test_a_judge_that_names_both_verdicts_has_given_none(reply: str, verdict: float | None) -> None:
    assert parse_binary(reply) == verdict


@pytest.mark.parametrize(
    ("reply", "score"),
    [
        ("Accuracy: 3\nCompleteness: 4\nOverall score:", None),
        ("我给 4 分（满分 5 分）。", 4.0),
        ("5点満点中、3点とします。", 3.0),
    ],
)
def test_a_score_is_the_one_stated_for_the_whole(reply: str, score: float | None) -> None:
    assert parse_likert(reply) == score


def test_an_answer_stated_in_a_script_without_spaces_is_read() -> None:
    question = {"variable": "Y", "variables": ["X", "Y"], "question": "Y led the fleets of X. Identify Y."}
    reply = "我们来想一想。率领舰队的是郑和。\n\n所以答案是郑和（Zheng He）。"
    assert extract_entities([[reply]], [question])[0][0]["answer"] == "郑和"
