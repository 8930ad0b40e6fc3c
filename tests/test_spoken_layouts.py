"""Replies spoken and dictated (issue 36, round 23): transcripts of speech with no punctuation or capitals, fillers,
a speaker's time stamps, punctuation dictated as words, numbers said as words in the judges' languages, and a
translation said amid talk in another script. The examples are the project's own."""

from __future__ import annotations

import pytest

from lm_eval_xling.metrics.verdicts import parse_likert
from lm_eval_xling.quench.answers import parse_variables
from lm_eval_xling.xparade.spans import read_spans
from lm_eval_xling.xsense.translation_reply import clean_translation

TOKENS = ["Ana", ",", "who", "is", "22", ",", "studies", "law", "at", "the", "University", "of", "Lagos", "."]


@pytest.mark.parametrize(
    ("reply", "score"),
    [
        ("hmm the reasoning is thin it misses the treaty so i give it two", 2.0),  # the last words of a transcript
        ("ఈ వివరణ బాగుంది కానీ తేదీ లేదు నేను నాలుగు ఇస్తాను", 4.0),
        ("ನಾನು ಎರಡೂವರೆ ಅಂಕ ಕೊಡ್ತೀನಿ", 2.5),
        ("嗯 理由一般 给他两分吧", 2.0),
        ("嗯……三点五分，理由基本对。", 3.5),
        ("어 오점 만점에 삼점 드리겠습니다", 3.0),
        ("เหตุผลดีครับ ให้สามคะแนนครับ", 3.0),
        ("five out of five full stop new line next question", 5.0),  # a line break dictated
    ],
)
def test_a_spoken_score_is_read(reply: str, score: float) -> None:
    assert parse_likert(reply) == score


@pytest.mark.parametrize(
    ("reply", "answer"),
    [
        ("eee cevap galatasaray", "galatasaray"),  # the lead after other words, no capitals
        ("yang main itu jawabannya dalang", "dalang"),
        ("음 토트넘 주장 어 정답은 손흥민입니다", "손흥민"),
        ("เอ่อ คำตอบคือ รามเกียรติ์ ครับ", "รามเกียรติ์"),
        ("I don't know the answer", None),
    ],
)
def test_a_spoken_answer_is_read(reply: str, answer: str | None) -> None:
    assert parse_variables(reply, ["X", "Y"], "X")["X"] == answer


@pytest.mark.parametrize(
    ("reply", "source", "target", "expected"),
    [
        ("Xin chào comma bạn khỏe không question mark", "Hello, how are you?", "vi", "Xin chào, bạn khỏe không?"),
        ("Okay, in Hindi you would say: आप कैसे हैं? That's 'aap kaise hain'. Hope that helps!", "How are you?", "hi",
         "आप कैसे हैं?"),  # the one run in the target's script
        ("嗯，中文是：谢谢你的帮助。xièxie nǐ de bāngzhù.", "Thank you for your help.", "zh", "谢谢你的帮助。"),
        ("[00:14] Interpreter: Where is the station?", "Istasyon nerede?", "en", "Where is the station?"),
        ("Uh — I have to leave early.", "Tengo que salir temprano.", "en", "I have to leave early."),
        ("It could be 'управителния съвет' or 'таблото', depending on what you mean.", "the board", "bg",
         ""),  # two runs in the target's script: alternatives, none chosen
    ],
)  # fmt: skip
def test_a_translation_said_aloud_is_read(reply: str, source: str, target: str, expected: str) -> None:
    assert clean_translation(reply, source, target) == expected


@pytest.mark.parametrize(
    "reply",
    [
        "okay so um new one is who is 22 and inferable is the university of lagos",
        "[00:00:01] Speaker 1: new one who is 22\n[00:00:05] Speaker 1: inferable the university of lagos that's it",
    ],
)
def test_spans_said_aloud_are_read(reply: str) -> None:
    assert read_spans(reply, TOKENS) == (["who is 22"], ["the University of Lagos"], True)


@pytest.mark.parametrize(
    "reply",
    [
        "new one who is 22 and for inferable [inaudible]",  # a list not heard
        "okay new one is studies law at the",  # cut off inside a span
    ],
)
def test_spans_not_heard_give_no_answer(reply: str) -> None:
    assert read_spans(reply, TOKENS) == ([], [], False)
