"""Tests for lm_eval_xling.xsense.answers.standardize on realistic small-chat-model replies."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lm_eval_xling.metrics import INVALID
from lm_eval_xling.xsense.answers import LABEL_WORDS, standardize

YES, NO = 1, 0  # PAWS-X
ENT, NEU, CON = 0, 1, 2  # XNLI: A entailment, C neutral, B contradiction

PAWSX_EN = [
    ("Yes.", YES),
    ("yes", YES),
    ("YES", YES),
    ('"No"', NO),
    ("No.", NO),
    ("**Yes**", YES),
    ("yes, the sentences have the same meaning", YES),
    ("No, sentence 2 swaps the subject.", NO),
    ("Yes they are paraphrases of each other.", YES),
    ("No. Yes would mean that both sentences describe the same event.", NO),
    ("The second sentence says the same thing in other words, so yes.", YES),
    ("The answer is no.", NO),
    ("Answer: Yes", YES),
    ("Some would say yes, but the answer is no.", NO),
    ("Ｙｅｓ！", YES),
    ("yes or no", None),
    ("I cannot answer this.", None),
    ("Not really, the meanings differ.", None),
    ("Yesterday's meeting is mentioned in both sentences.", None),
    ("The eyes of the witness are closed in both sentences.", None),
    ("Ja.", None),  # German answer to an English instruction
    ("是", None),
    ("", None),
]

PAWSX_DE = [
    ("Ja.", YES),
    ("ja", YES),
    ("JA", YES),
    ("Nein.", NO),
    ("nein", NO),
    ("„Ja“", YES),
    ("**Nein**", NO),
    ("Ja, beide Sätze bedeuten dasselbe.", YES),
    ("Nein, die Sätze haben unterschiedliche Bedeutungen.", NO),
    ("Nein. Satz 2 vertauscht Subjekt und Objekt.", NO),
    ("Die beiden Sätze bedeuten dasselbe, also ja.", YES),
    ("Die Antwort ist Ja.", YES),
    ("Antwort: Nein", NO),
    ("Man könnte ja sagen, aber die Antwort ist nein.", NO),
    ("Ja oder nein", None),
    ("Yes.", None),  # English answer to a German instruction
    ("yes, the sentences have the same meaning", None),
    ("Ich kann das nicht beantworten.", None),
    ("Die Sätze beschreiben dasselbe Jahr.", None),
    ("Beide Sätze nennen denselben Verein.", None),
    ("", None),
]

PAWSX_ZH = [
    ("是", YES),
    ("是。", YES),
    ("是的", YES),
    ("是的，这两个句子的意思相同。", YES),
    ("是的，两个句子不是字面相同，但意思一样。", YES),
    ("「是」", YES),
    ("否", NO),
    ("否。第二个句子改变了主语。", NO),
    ("不是。", NO),
    ("不是的，两个句子的意思不同。", NO),
    ("这两个句子的意思是一样的。", YES),
    ("两个句子的意思不是一样的。", NO),
    ("答案：是", YES),
    ("答案：否", NO),
    ("答案是否定的。", NO),
    ("答案是：不是", NO),
    ("是否相同很难判断。", None),
    ("是或否", None),
    ("我无法判断。", None),
    ("Yes", None),  # English answer to a Chinese instruction
    ("", None),
]

XNLI_EN = [
    ("A", ENT),
    ("a", ENT),
    ("Ａ", ENT),
    ("B.", CON),
    ("(C) neither", NEU),
    ("C) Neutral", NEU),
    ("B: contradiction", CON),
    ("(B) the first sentence contradicts the second sentence.", CON),
    ("B\n\nExplanation: the premise says the man is asleep, so he cannot be running.", CON),
    ("The answer is C.", NEU),
    ("Answer: A", ENT),
    ("The premise entails the hypothesis, so the answer is A.", ENT),
    ("Option C is correct because the premise does not mention the weather.", NEU),
    ("The correct option is B, not A.", CON),
    ("At first the answer is A, but on reflection the answer is B.", CON),
    ("Both A and B could be true", None),
    ("A or B", None),
    ("The USA is mentioned in the premise but not in the hypothesis.", None),
    ("a man is playing a guitar.", None),
    ("Neutral", None),
    ("I cannot answer this.", None),
    ("", None),
]

XNLI_DE = [
    ("A", ENT),
    ("b", CON),
    ("Ａ", ENT),
    ("B.", CON),
    ("C) Neutral", NEU),
    ("(A) Folgerung", ENT),
    ("Die Antwort ist B.", CON),
    ("Antwort: C", NEU),
    ("Die richtige Antwort lautet A.", ENT),
    ("Die richtige Antwort lautet C, nicht A.", NEU),
    ("Die Hypothese widerspricht der Prämisse, also B.", CON),
    ("C, weil die Prämisse nichts darüber sagt.", NEU),
    ("Antwort: B. A wäre falsch, weil der Mann schläft.", CON),
    ("Sowohl A als auch B wären möglich.", None),
    ("A oder B", None),
    ("Widerspruch", None),
    ("Ich kann diese Frage nicht beantworten.", None),
    ("", None),
]

XNLI_ZH = [
    ("A", ENT),
    ("c", NEU),
    ("Ｂ", CON),
    ("B。", CON),
    ("（A）蕴含", ENT),
    ("B：矛盾", CON),
    ("答案：C", NEU),
    ("答案是B。", CON),
    ("答案为A", ENT),
    ("答案为C，A和B都不对。", NEU),
    ("选C", NEU),
    ("第一句话与第二句话矛盾，所以选B。", CON),
    ("我认为答案是A，因为前提包含了假设。", ENT),
    ("回答：C。B不对，因为前提没有提到天气。", NEU),
    ("A和B都有可能。", None),
    ("这两句话没有关系。", None),
    ("我无法回答这个问题。", None),
    ("", None),
]

TABLE = [
    pytest.param(task, lang, reply, label, id=f"{task}-{lang}-{reply[:30]}")
    for task, lang, rows in [
        ("pawsx", "en", PAWSX_EN),
        ("pawsx", "de", PAWSX_DE),
        ("pawsx", "zh", PAWSX_ZH),
        ("xnli", "en", XNLI_EN),
        ("xnli", "de", XNLI_DE),
        ("xnli", "zh", XNLI_ZH),
    ]
    for reply, label in rows
]


@pytest.mark.parametrize(("task", "language", "reply", "label"), TABLE)
def test_realistic_replies(task: str, language: str, reply: str, label: int | None) -> None:
    assert standardize(reply, task, language) == label


def test_vocabulary() -> None:
    assert INVALID == "[invalid]"
    assert LABEL_WORDS["pawsx"] == {
        "en": {"yes": 1, "no": 0},
        "de": {"ja": 1, "nein": 0},
        "zh": {"是": 1, "否": 0, "不是": 0},
    }
    for language in ("en", "de", "zh"):
        assert LABEL_WORDS["xnli"][language] == {"a": 0, "b": 2, "c": 1}


@pytest.mark.parametrize("reply", ["Neın.", "NEİN", "Die Antwort ist neın"])
def test_only_ascii_case_folds(reply: str) -> None:
    # Unicode re.IGNORECASE lets the dotless "ı" match "i" (NFKC keeps it), so "neın" would look like "nein".
    assert standardize(reply, "pawsx", "de") is None


def test_unknown_task_or_language_is_invalid() -> None:
    assert standardize("yes", "pawsx", "fr") is None
    assert standardize("A", "mnli", "en") is None


SETTINGS = st.sampled_from([(task, lang) for task, langs in LABEL_WORDS.items() for lang in langs])

# Explanations with no answer token of any task or language (no yes/no/ja/nein, no 是/否, no capital A/B/C).
EXPLANATIONS = {
    "en": [
        "The two sentences describe the same event in other words.",
        "the premise says the man is asleep, so he cannot be running.",
        "Sentence 2 swaps the subject and the object.",
        "The hypothesis adds details that the premise does not mention.",
    ],
    "de": [
        "Die beiden Sätze bedeuten dasselbe.",
        "Satz 2 vertauscht Subjekt und Objekt.",
        "Die Prämisse sagt nichts über das Wetter.",
    ],
    "zh": ["这两个句子的意思相同。", "第二个句子改变了主语。", "前提没有提到天气。"],
}


@settings(max_examples=2000, deadline=None)
@given(st.text(), SETTINGS)
def test_any_text_gives_none_or_a_label(text: str, setting: tuple[str, str]) -> None:
    task, language = setting
    assert standardize(text, task, language) in {None, *LABEL_WORDS[task][language].values()}


@st.composite
def wrapped_answers(draw: st.DrawFn) -> tuple[str, str, str, int]:
    task, language = draw(SETTINGS)
    word, label = draw(st.sampled_from(sorted(LABEL_WORDS[task][language].items())))
    word = draw(st.sampled_from([str.lower, str.upper, str.title]))(word)
    opening = draw(st.text(alphabet=" \"'“‘„«([（「*", max_size=3))
    closing = draw(st.text(alphabet=" \"'”’»)]）」*.。!！:：,，", max_size=3))
    explanation = draw(st.none() | st.sampled_from(EXPLANATIONS[draw(st.sampled_from(sorted(EXPLANATIONS)))]))
    if explanation is None:
        return opening + word + closing, task, language, label
    # A bare letter glued to prose is the article "a" ("a the premise ..."), so a break must come first.
    if not closing.strip():
        closing += draw(st.sampled_from([".", ",", ":", ")", "。", "，", "\n"]))
    return opening + word + closing + draw(st.sampled_from(["", " ", "\n\n"])) + explanation, task, language, label


@settings(max_examples=2000, deadline=None)
@given(wrapped_answers())
def test_wrapped_answer_word_gives_its_label(case: tuple[str, str, str, int]) -> None:
    reply, task, language, label = case
    assert standardize(reply, task, language) == label


# Characters that cannot form (or normalise into) any answer token: no a/b/c/e/i/j/n/o/s/y in either case,
# no 是/否, but the 不 of 不是, the 的 of 是的, digits, punctuation, full-width and CJK text.
NON_ANSWER = "dfghklmpqrtuvwxzDFGHKLMPQRTUVWXZ0123456789 \n\t.,;:!?'\"()[]-*「」。，：！不的这两个句子意思相同ｄｚ"


@settings(max_examples=2000, deadline=None)
@given(st.text(alphabet=NON_ANSWER), SETTINGS)
def test_text_without_answer_characters_is_invalid(text: str, setting: tuple[str, str]) -> None:
    task, language = setting
    assert standardize(text, task, language) is None
