"""QUENCH parsing as a person reads it: judge verdicts (binary and Likert) and model answers in the authors' format
and in what models really write (CoT, markdown, JSON, tables, several variables, variables with other names)."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lm_eval_xling.metrics.verdicts import parse_binary, parse_likert
from lm_eval_xling.quench.answers import parse_variables

BINARY = [
    ("correct", 1.0),
    ("Incorrect", 0.0),
    ("Correct.", 1.0),
    ("**Incorrect**", 0.0),
    ("The correct answer is Karachi, so the contestant's answer is incorrect.", 0.0),
    ("## Your Judgement (correct/incorrect)\nincorrect", 0.0),
    ("Not quite correct.", 0.0),
    ("The contestant's answer isn't correct.", 0.0),
    ("That's not right.", 0.0),
    ("The answer is not right.", 0.0),
    ("Correct. 'U.S.A' refers to the same country as 'United States of America'.", 1.0),
    (
        "Incorrect. The true answer is Karachi, while the contestant said Lahore; Lahore would be correct only for a "
        "different question.",
        0.0,
    ),
    (
        "The contestant answered 'Bombay', which is the former name of Mumbai. Since both names refer to the same "
        "city, the answer is correct.",
        1.0,
    ),
    ("Judgement: incorrect\n\nThe contestant named the wrong river.", 0.0),
    ("I would say the answer is correct.", 1.0),
    ("The answer given by the contestant, 'Tagore', is correct as it refers to Rabindranath Tagore.", 1.0),
    ("Incorrect - the question asks for the city, not the country.", 0.0),
    ("correct\n\nExplanation: The contestant identified the right person.", 1.0),
    ("The contestant's answer 'Everest' is not incorrect; it is simply the short form.", 1.0),
    ("**Verdict:** Correct", 1.0),
    ("The answer is wrong.", 0.0),
    ("Wrong. The correct answer is the Ganges.", 0.0),
    (
        "Although the contestant mentioned the correct region, the answer is incorrect because the question asks "
        "for the exact city.",
        0.0,
    ),
    ("The answer is partially correct but misses the key detail, so I judge it incorrect.", 0.0),
    ("The contestant's answer matches the true answer exactly. Correct!", 1.0),
    ("Correct/incorrect: correct", 1.0),
    ("The answer 'Lahore' is not correct. The correct answer would be Karachi.", 0.0),
    ("No, that's incorrect.", 0.0),
    ("Yes, the answer is right.", 1.0),
    ("The contestant is right.", 1.0),
    (
        "Let me compare. The true answer is 'Sachin Tendulkar' and the contestant wrote 'Tendulkar'. The surname "
        "alone identifies him in this context.\n\n**Correct**",
        1.0,
    ),
    ("### Judgement\n\nIncorrect\n\nThe contestant confused the two rivers.", 0.0),
    ("I'm not sure.", None),
    ("", None),
    ("The question is ambiguous.", None),
    ("The reply names the organelle but drops the qualifier, so my verdict is", None),  # cut off before it
    ("Yes", 1.0),  # the judge answers the question it was asked
    ("Correct.\n\nActually, wait: the river is the Volga, not the Don. The contestant's answer is wrong.", 0.0),
    ("Yarışmacının cevabı doğru değil. Doğru cevap Ankara'dır.", 0.0),  # the negator after the verdict word
    ("Jibu la mshindani ni sahihi.", 1.0),  # Swahili's copula "ni" is no negator
    ("They named only one of the two founders, so I have to mark this as incorrect.", 0.0),
    ('{"uzasadnienie": "Prawidłowa odpowiedź to Kopernik.", "ocena": "niepoprawna"}', 0.0),  # the gold named
    ("Comparing the two names, the contestant reversed the order of given name and surname, which in", None),
    ("**Rubric**\n1. Names the inventor: ✗\n2. On topic: ✓\n\n**Overall: FAIL**", 0.0),
    ("I can't say the answer is incorrect: both name the same ocean. So yes, it's correct.", 1.0),
    ("I wouldn't count this as correct.", 0.0),
    ('{"correct": true, "notes": "A misspelling of an unambiguous name, so it is not marked incorrect."}', 1.0),
    ("Se aceitarmos a grafia, estaria correta; se não, incorreta. Não consigo decidir.", None),
]

LIKERT = [
    ("4", 4.0),
    ("Score: 2/5", 2.0),
    ("I would give it a 5.", 5.0),
    ("On a scale of 1 to 5, I give it 4", 4.0),
    ("Score between 1 to 5: 3", 3.0),
    ("The rationale captures 2 of the 3 clues. Score: 3", 3.0),
    ("Rating: 4.0", 4.0),
    ("0/5", None),
    ("0", None),
    ("7", None),
    ("**Score: 4**\n\nThe rationale identifies the festival but misses the lamp clue.", 4.0),
    ("The contestant's rationale matches the key points of the true rationale.\n\n5", 5.0),
    ("## Your Judgement (Score between 1 to 5 do not provide any other score or text)\n3", 3.0),
    ("I rate this rationale 3 out of 5 because it misses the second clue.", 3.0),
    ("3/5 - partially correct reasoning.", 3.0),
    ("Score: 1. The rationale is unrelated to the question.", 1.0),
    ("The rationale is good but lacks detail. I'd give it a 4 out of 5.", 4.0),
    ("Judgement: 2", 2.0),
    ("The rationale mentions 3 facts, 2 of which are wrong. Score: 2", 2.0),
    ("Rating: 4.5/5", 4.5),
    ("I cannot score this.", None),
    ("Score: 6", None),
    ("It covers all 5 clues. 5/5", 5.0),
    ("The contestant explains the pun in the question well, so 4.", 4.0),
    ("Between 3 and 4, I would go with 4.", 4.0),
    ("**2**", 2.0),
    ("評価：5点中4点", 4.0),  # the scale first: "4 points of 5"
    ("점수: 5점 만점에 3점", 3.0),
    ("评分：二", 2.0),
    ("Score: 3. Reasoning follows, and my rating is", None),  # cut off where its revision was to follow
    ("5\n\nThe contestant named the discoverer and the year 1928.", 5.0),  # the score alone on the first line
    ("Оценка: три из пяти.", 3.0),
    ("আমি এই উত্তরটিকে ৫-এর মধ্যে ২ দিচ্ছি।", 2.0),
    ("Le doy un tres.", 3.0),
    ("Nota: dois e meio.", 2.5),
    ("I'd give this a solid **4 out of 5**! ⭐⭐⭐⭐\n\nWant me to grade the next one?", 4.0),  # "one" no score
    ("Puanım: 5 üzerinden 4,5.", 4.5),
    ("Score: 2/5\n\nThe contestant gives 1,500 m/s, the speed in water, not in air.", 2.0),  # "1,500" is no score
]

ANSWERS = [
    ("The answer is <X Karachi>", ["X"], {"X": "Karachi"}),
    ("The answer is <X Belle of the Ball>", ["Y"], {"Y": "Belle of the Ball"}),  # the format names X for every variable
    ("The answer is <Y Belle of the Ball>", ["Y"], {"Y": "Belle of the Ball"}),
    ("The answer is Karachi.", ["X"], {"X": "Karachi"}),
    ("The answer is <Karachi>.", ["X"], {"X": "Karachi"}),
    (
        "1. X: The Drigh Road Aerodrome was in Karachi, so the city is clear.\nThe answer is Karachi.",
        ["X"],
        {"X": "Karachi"},
    ),
    (
        "First guess: <<<X: Mumbai>>>? The aerodrome clue rules it out.\nFinal answer: X = Karachi",
        ["X"],
        {"X": "Karachi"},
    ),
    ("| Variable | Answer |\n|---|---|\n| X | Karachi |", ["X"], {"X": "Karachi"}),
    ('{"X": "Karachi"}', ["X"], {"X": "Karachi"}),
    ('```json\n{"X": "Karachi", "Y": "Sindh"}\n```', ["X", "Y"], {"X": "Karachi", "Y": "Sindh"}),
    ("<<<X:\nKarachi>>>", ["X"], {"X": "Karachi"}),
    ("<<<x: Karachi>>>", ["X"], {"X": "Karachi"}),
    (
        "Let's think step by step. The question mentions an airport opened in 1929 that served as a base for "
        "airships. That airport is in Karachi.\n\nThe answer is <X Karachi>",
        ["X"],
        {"X": "Karachi"},
    ),
    ("**The answer is <X Karachi>**", ["X"], {"X": "Karachi"}),
    ("The answer is `<X Karachi>`.", ["X"], {"X": "Karachi"}),
    ("The answer is <P Rabindranath Tagore>", ["P"], {"P": "Rabindranath Tagore"}),
    ("The answer is <X Rabindranath Tagore>", ["P"], {"P": "Rabindranath Tagore"}),
    ("A: Athens", ["A"], {"A": "Athens"}),
    ("The answer is <A1 Athens>", ["A1"], {"A1": "Athens"}),
    ("X = Paris\nY = France", ["X", "Y"], {"X": "Paris", "Y": "France"}),
    (
        "Step 1: The river is the Seine.\nStep 2: The city on it that hosted the 1900 Olympics is Paris.\n"
        "Final answer: X = Paris, Y = Seine",
        ["X", "Y"],
        {"X": "Paris", "Y": "Seine"},
    ),
    ("The answer is X: Paris.", ["X"], {"X": "Paris"}),
    ("The answer is <X Diwali>. It is the festival of lights.", ["X"], {"X": "Diwali"}),
    ("The answer is <X St. Louis>", ["X"], {"X": "St. Louis"}),
    ("The answer is <X Washington, D.C.>", ["X"], {"X": "Washington, D.C."}),
    ("", ["X"], {"X": None}),
    (
        "I am afraid I do not know which city the question refers to; the clues could fit several places in the "
        "region and I would only be guessing.",
        ["X"],
        {"X": None},
    ),
    ("The answer is <X answer>", ["X"], {"X": None}),  # the format copied without an answer
    (
        "Let's think step by step.\n1. The clue about the bridge suggests London.\n2. But the river is the Seine, so "
        "the city is Paris.\nThe answer is <X Paris>",
        ["X"],
        {"X": "Paris"},
    ),
    ("The answer is <X Paris>\n\nRationale: X is the capital of France.", ["X"], {"X": "Paris"}),
    ("## Answer\n\n**X:** Paris", ["X"], {"X": "Paris"}),
    ("Answer: Paris", ["X"], {"X": "Paris"}),
    ("The answer is <<<X: Paris>>>.", ["X"], {"X": "Paris"}),
    ("<X: Ada Lovelace>", ["X"], {"X": "Ada Lovelace"}),
    ("The answer is <X Marie Curie> and <Y Pierre Curie>", ["X", "Y"], {"X": "Marie Curie", "Y": "Pierre Curie"}),
    ("The answer is <X Marie Curie>", ["X", "Y"], {"X": "Marie Curie", "Y": None}),
    (
        "| Variable | Answer |\n|---|---|\n| X | Marie Curie |\n| Y | Pierre Curie |",
        ["X", "Y"],
        {"X": "Marie Curie", "Y": "Pierre Curie"},
    ),
    (
        "The answer is <X Mumbai>.\n\nWait, the aerodrome was in Karachi.\n\nThe answer is <X Karachi>.",
        ["X"],
        {"X": "Karachi"},
    ),
    ('{"answer": "Karachi"}', ["X"], {"X": "Karachi"}),
    ("جواب: علامہ اقبال۔", ["X"], {"X": "علامہ اقبال"}),  # the Urdu full stop ends the answer
    ("సమాధానం: పి. వి. నరసింహారావు", ["X"], {"X": "పి. వి. నరసింహారావు"}),  # initials without capitals
    ("ಉತ್ತರ: ಕುವೆಂಪು (ಕೆ. ವಿ. ಪುಟ್ಟಪ್ಪ)", ["X"], {"X": "ಕುವೆಂಪು"}),  # a gloss with initials dropped
    ("The answer is: [Zakir Hussain]", ["X"], {"X": "Zakir Hussain"}),
    ("🐅 The answer is Sundarbans!", ["X"], {"X": "Sundarbans"}),
    ("I have no confident name for X. The answer is unknown.", ["X"], {"X": None}),
    ("The answer is Ibn Battuta or al-Biruni.", ["X"], {"X": None}),  # two names offered
    ("மன்னிக்கவும், இந்தக் கேள்விக்கான பதில் எனக்குத் தெரியவில்லை.", ["X"], {"X": None}),
    ("1. Y is Konark.\n2. The king responsible is generally identified as", ["X", "Y"], {"X": None, "Y": "Konark"}),
    ("答えはラダ・ビノード・パールです。", ["X"], {"X": "ラダ・ビノード・パール"}),
    ("The Chola king built it around 1010 CE.\n\nThe answer is <entity>", ["X"], {"X": None}),  # the placeholder
    ("Final answer:\n\n**X** = Karachi", ["X"], {"X": "Karachi"}),
    ("The answer is <Z Sundarbans>", ["Z"], {"Z": "Sundarbans"}),
    ('The answer to this question is: "Jai Santoshi Maa"', ["X"], {"X": "Jai Santoshi Maa"}),
    ("The answer to this question is: 1929\n\nThe answer is: Karachi", ["X"], {"X": "Karachi"}),
]


@pytest.mark.parametrize(("reply", "verdict"), BINARY)
def test_binary_verdicts(reply, verdict):
    assert parse_binary(reply) == verdict


@pytest.mark.parametrize(("reply", "verdict"), LIKERT)
def test_likert_verdicts(reply, verdict):
    assert parse_likert(reply) == verdict


@pytest.mark.parametrize(("reply", "variables", "expected"), ANSWERS)
def test_model_answers(reply, variables, expected):
    assert parse_variables(reply, variables) == expected


def test_case_counts():
    assert len(BINARY) + len(LIKERT) >= 40 and len(ANSWERS) >= 40


@pytest.mark.parametrize("value", [None, 3, ["correct"], {"a": 1}, b"correct"])
def test_verdict_parsers_take_anything(value):
    assert parse_binary(value) is None and parse_likert(value) is None


WORDS = st.sampled_from(
    ["correct", "incorrect", "not", "isn't", "right", "wrong", "answer", "the correct answer is", "would be",
     "Score", ":", "/5", "out of", "1 to 5", "between", "4", "0", "3.5", "\n", " ", "**", "#", "(correct/incorrect)"]
)  # fmt: skip


@settings(max_examples=2000, deadline=None)
@given(st.one_of(st.text(), st.lists(WORDS, max_size=40).map(" ".join)))
def test_verdict_parsers_fuzz(text):
    assert parse_binary(text) in (None, 0.0, 1.0)
    value = parse_likert(text)
    assert value is None or 1 <= value <= 5


@pytest.mark.parametrize("parse", [parse_binary, parse_likert, lambda t: parse_variables(t, ["X", "Y"])])
def test_parsers_are_linear_on_a_megabyte(parse):
    for text in ("correct " * 130_000, "1 " * 500_000, "<<<X: " * 170_000, "a" * 1_000_000, "\n" * 1_000_000):
        start = time.perf_counter()
        parse(text)
        assert time.perf_counter() - start < 10  # quadratic work would take minutes


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("Spot on!", 1.0),
        ("Close, but no. The gold answer is Mount Kilimanjaro.", 0.0),
        ("Nope.", 0.0),
        ("Richtig.", 1.0),  # judges that answer in another language
        ("Incorrecto. La respuesta correcta es Lima.", 0.0),
        ("错误。标准答案是1969年。", 0.0),
        ("गलत। सही उत्तर दिल्ली है।", 0.0),
        ("Correct... wait, the gold says 1947. So, incorrect.", 0.0),  # a revision
        ("Incorrect. Actually, correct.", 1.0),
        ("Correct. Incorrect.", None),  # two verdicts, neither revising the other: none, in either order
        ("Incorrect. Correct.", None),
        ("I cannot determine whether the answer is correct without more context.", None),
    ],
)
def test_binary_verdicts_stated_in_other_words(reply, verdict):
    assert parse_binary(reply) == verdict


@pytest.mark.parametrize(
    ("reply", "score"),
    [
        ("\\boxed{4}", 4.0),
        ("I'd give this a 2½. The key step is missing.", 2.5),
        ("3 stars", 3.0),
        ("⭐⭐⭐⭐", 4.0),
        ("On a 1-5 scale, I'd put it at 4.", 4.0),
        ("Bewertung: 4 von 5. Die Begründung ist größtenteils korrekt.", 4.0),
        ("评分：4分。理由基本正确。", 4.0),
        ("अंक: 2। तर्क में मुख्य त्रुटि है।", 2.0),
        ("3 — The rationale gets the conclusion right but not the premise.", 3.0),
        ("Score: 8/10", None),  # off the 1-5 scale: no score, not a guessed conversion
    ],
)
def test_likert_scores_written_other_ways(reply, score):
    assert parse_likert(reply) == score


@pytest.mark.parametrize(
    ("correct", "incorrect"),
    [
        ("Верно.", "Неверно. Правильный ответ — Париж."),
        ("Die Antwort ist richtig.", "Die Antwort ist nicht richtig, es war Bonn."),
        ("La respuesta es correcta.", "La respuesta no es correcta: era Lima."),
        ("Doğru.", "Doğru değil."),
        ("صحيح", "غير صحيح، الجواب الصحيح هو القاهرة."),
        ("正解です。", "不正解です。正しい答えは富士山です。"),
        ("Sahihi.", "Si sahihi. Jibu sahihi ni Nairobi."),
        ("सही — उत्तर मेल खाता है।", "गलत — उत्तर मेल नहीं खाता।"),
        ("👍", "👎"),
    ],
)
def test_verdicts_in_the_judges_languages(correct, incorrect):
    """A verdict word of the judge's language is read, its negated form first; the correct answer the judge then
    names ("правильный ответ", "正しい答え") is no second verdict."""
    assert (parse_binary(correct), parse_binary(incorrect)) == (1.0, 0.0)


@pytest.mark.parametrize(
    ("reply", "score"),
    [
        ("4 von 5 Punkten. Die Begründung ist gut.", 4.0),
        ("الدرجة: ٤ من ٥", 4.0),
        ("Note : 2,5/5 — le raisonnement est confus.", 2.5),
        ("Bewertung: drei", 3.0),
        ("三分。理由只说明了一半。", 3.0),
        ("Alama: 4 kati ya 5.", 4.0),
        ("Score: 5. On second look it omits the mechanism; revising to 3.", 3.0),
    ],
)
def test_likert_scores_in_the_judges_languages(reply, score):
    assert parse_likert(reply) == score
