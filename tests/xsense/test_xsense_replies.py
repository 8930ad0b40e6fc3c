"""Answer standardisation and translation cleaning on replies as chat and reasoning models write them.

Each expected label is what a careful reader takes the reply to say: reasoning blocks are skipped, hedges that
name both answers are invalid, copulas and determiners are not answers, meaning phrases are.
"""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lm_eval_xling.xsense.answers import standardize
from lm_eval_xling.xsense.translation_reply import clean_translation

YES, NO = 1, 0  # PAWS-X
ENT, NEU, CON = 0, 1, 2  # XNLI: A entailment, C neutral, B contradiction

REPLIES = [
    # reasoning models: only what follows the reasoning counts
    ("pawsx", "en", "<think>The first sentence ... so the answer is no.</think>\n\nYes", YES),
    ("pawsx", "en", "<think>\nBoth mention the 1998 season. Yes, same.\n</think>\nNo, the dates differ.", NO),
    ("pawsx", "en", "<think>Let me compare them. Sentence 1 says", None),  # cut off mid-reasoning
    ("pawsx", "en", "<THINK>yes</THINK> No.", NO),
    ("pawsx", "de", "<think>Die Sätze ... also nein.</think>\n\nJa, beide bedeuten dasselbe.", YES),
    ("pawsx", "zh", "<think>两个句子的主语不同，所以是否。</think>\n否", NO),
    ("xnli", "en", "<think>The premise entails it, so A? No wait, B.</think>\n\nC", NEU),
    ("xnli", "zh", "<thinking>前提与假设矛盾。</thinking>答案：B", CON),
    ("pawsx", "en", "<reasoning>Different subject.</reasoning>\n**No**", NO),
    # hedges that name both answers
    ("pawsx", "en", "I cannot determine whether the answer is yes or no.", None),
    ("pawsx", "en", "It is hard to say if the answer is yes or no without more context.", None),
    ("pawsx", "de", "Ob die Antwort ja oder nein ist, lässt sich nicht sagen.", None),
    ("pawsx", "zh", "很难判断答案是“是”还是“否”。", None),
    ("xnli", "en", "The answer is A or B, depending on the reading.", None),
    ("xnli", "en", "Could be A, could be C.", None),
    ("pawsx", "en", "Yes or no? I would say no.", NO),
    # copulas, determiners, articles: answer words in another sense
    ("pawsx", "zh", "这两个句子的意思是不同的。", NO),
    ("pawsx", "zh", "两个句子的含义是不一样的。", NO),
    ("pawsx", "zh", "这两个句子的意思是相同的。", YES),
    ("pawsx", "zh", "这两个句子的意思没有区别。", YES),
    ("pawsx", "en", "There is no difference in meaning between them.", YES),
    ("pawsx", "en", "There is no real difference between the two sentences, so yes.", YES),
    ("pawsx", "de", "Es gibt keinen Unterschied in der Bedeutung.", YES),
    ("pawsx", "de", "Zwischen den Sätzen besteht kein Bedeutungsunterschied.", YES),
    ("xnli", "en", "A man is playing guitar, so B.", CON),
    ("xnli", "en", "A woman sleeps in the premise but runs in the hypothesis. The answer is B.", CON),
    ("xnli", "en", "A is correct: the premise entails the hypothesis.", ENT),
    ("xnli", "en", "The hypothesis follows. A.", ENT),
    # negations and plain answers with explanations
    ("pawsx", "en", "No. The first sentence says he was born in 1950, the second in 1951.", NO),
    ("pawsx", "en", "No, they do not have the same meaning.", NO),
    ("pawsx", "en", "The sentences do not mean the same thing, so the answer is no.", NO),
    ("pawsx", "en", "Yes - both sentences state that the river flows into the lake.", YES),
    ("pawsx", "de", "Nein. Im zweiten Satz ist die Reihenfolge vertauscht.", NO),
    ("pawsx", "de", "Die Antwort lautet: Nein.", NO),
    ("pawsx", "de", "Ja – beide Sätze beschreiben denselben Sachverhalt.", YES),
    ("pawsx", "zh", "不是，第二个句子把主语和宾语调换了。", NO),
    ("pawsx", "zh", "否，两个句子描述的事件不同。", NO),
    ("pawsx", "zh", "是的，两个句子表达的意思相同。", YES),
    ("pawsx", "zh", "答案是：是", YES),
    ("xnli", "de", "B – der erste Satz widerspricht dem zweiten.", CON),
    ("xnli", "de", "Die richtige Antwort ist (C), keines von beiden.", NEU),
    ("xnli", "zh", "（C）两者都不。", NEU),
    ("xnli", "zh", "第一个句子涵盖了第二个句子，所以答案是A。", ENT),
    # refusals and prose without an answer
    ("pawsx", "en", "I'm sorry, but I can't help with that.", None),
    ("pawsx", "de", "Das kann ich leider nicht beurteilen.", None),
    ("xnli", "en", "Neither sentence mentions the weather.", None),
]


@pytest.mark.parametrize(
    ("task", "language", "reply", "label"),
    [pytest.param(*row, id=f"{row[0]}-{row[1]}-{row[2][:40]}") for row in REPLIES],
)
def test_reply_gives_the_label_a_reader_gives(task: str, language: str, reply: str, label: int | None) -> None:
    assert standardize(reply, task, language) == label


def test_at_least_forty_replies_in_three_languages() -> None:
    assert len(REPLIES) >= 40 and {lang for _, lang, _, _ in REPLIES} == {"en", "de", "zh"}


@pytest.mark.parametrize("reply", [None, ["Yes"], 1, b"yes"])
def test_a_reply_that_is_no_text_is_invalid(reply: object) -> None:
    assert standardize(reply, "pawsx", "en") is None


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="<>/thinkTHINK yesno\n", max_size=200))
def test_tags_in_any_order_never_raise(text: str) -> None:
    assert standardize(text, "pawsx", "en") in {None, 0, 1}


def test_a_megabyte_of_tags_is_read_in_linear_time() -> None:
    assert standardize("<think>" * 150_000 + " yes", "pawsx", "en") is None
    assert standardize("A man is here. " * 70_000, "xnli", "en") is None


TRANSLATIONS = [
    (
        'Here is the translation:\n\n"Haben die folgenden Sätze die gleiche Bedeutung?"',
        "Haben die folgenden Sätze die gleiche Bedeutung?",
    ),
    ('"Ja" oder "Nein"', '"Ja" oder "Nein"'),
    ('Bitte antworten Sie mit "Ja" oder "Nein".', 'Bitte antworten Sie mit "Ja" oder "Nein".'),
    ('"Bitte antworten Sie mit "Ja" oder "Nein"."', 'Bitte antworten Sie mit "Ja" oder "Nein".'),
    ("Sure! Here's the German translation:\n„Der Fluss mündet in den See.“", "Der Fluss mündet in den See."),
    ("Translation: Er wurde 1950 in Berlin geboren.", "Er wurde 1950 in Berlin geboren."),
    ("Übersetzung: »Satz«", "Satz"),
    ("以下是翻译：\n“下面的句子有着相同的含义吗？”", "下面的句子有着相同的含义吗？"),
    ("翻译：他在1950年出生于柏林。", "他在1950年出生于柏林。"),
    ("“句子”", "句子"),
    ("<think>The user wants German. 'Sentence' is 'Satz'.</think>\n\nSatz", "Satz"),
    ('"Sentence"\n\nNote: in this context the word refers to a grammatical sentence.', "Sentence"),
    ("Please answer with 'yes' or 'no'.", "Please answer with 'yes' or 'no'."),
    ("'Please answer with 'yes' or 'no'.'", "Please answer with 'yes' or 'no'."),
    ("'It's the same church.'", "It's the same church."),
    ("'Yes' or 'no'", "'Yes' or 'no'"),
    ("  Do the following sentences have the same meaning?  \n", "Do the following sentences have the same meaning?"),
    ("Der Film wurde 2004 veröffentlicht.\n\n(The film was released in 2004.)", "Der Film wurde 2004 veröffentlicht."),
    ('"Die Stadt liegt am Ufer des Flusses."\n\nIch hoffe, das hilft!', "Die Stadt liegt am Ufer des Flusses."),
    ("「两个句子的意思相同吗？」", "两个句子的意思相同吗？"),
    ("The translation is:\nThe church was built in 1821.", "The church was built in 1821."),
    ("", ""),
    ("<think>unfinished", ""),
]


@pytest.mark.parametrize(("reply", "expected"), TRANSLATIONS)
def test_translation_cleaning(reply: str, expected: str) -> None:
    assert clean_translation(reply) == expected


SOURCE = "The museum will be closed on public holidays."
TRANSLATIONS_OF_A_SOURCE = [
    ("Sure! Here's the translation: Das Museum ist an Feiertagen geschlossen.",
     "Das Museum ist an Feiertagen geschlossen."),
    ('The translation into German is "Das Museum ist an Feiertagen geschlossen."',
     "Das Museum ist an Feiertagen geschlossen."),
    ("In German, this is **Das Museum ist an Feiertagen geschlossen.**", "Das Museum ist an Feiertagen geschlossen."),
    ("EN: The museum will be closed on public holidays.\nZH: 博物馆将在法定节假日闭馆。", "博物馆将在法定节假日闭馆。"),
    ("博物馆将在法定节假日闭馆。（Bówùguǎn jiāng zài fǎdìng jiéjiàrì bìguǎn.）", "博物馆将在法定节假日闭馆。"),
    ("Original: The museum will be closed on public holidays.\nPinyin: Bówùguǎn jiāng bìguǎn.\n"
     "Translation: 博物馆将在法定节假日闭馆。", "博物馆将在法定节假日闭馆。"),
    ("1. Formal: Das Museum bleibt an Feiertagen geschlossen.\n2. Casual: An Feiertagen ist das Museum zu.\n\n"
     "I'd recommend the second one for a sign.", "An Feiertagen ist das Museum zu."),
    ("Translation: Das Museum ist an Feiertagen zu. Actually, more precisely: Das Museum bleibt an Feiertagen "
     "geschlossen.", "Das Museum bleibt an Feiertagen geschlossen."),
    ("The museum will be closed on public holidays.", ""),  # the source given back
    ("Here is the German translation:\n\nDas Museum bleibt an", ""),  # cut off
    ("Please provide the text you'd like me to translate into German.", ""),  # talk about translating
    ("Thinking...\nDraft: Das Museum ist zu.\n...done thinking.\n\nDas Museum ist an Feiertagen geschlossen.",
     "Das Museum ist an Feiertagen geschlossen."),  # a chat front end's reasoning lines
    ("Options:\n- Literal: \"Das Museum wird an Feiertagen geschlossen sein.\"\n"
     "- Natural: \"Das Museum ist an Feiertagen geschlossen.\"\n\n"
     "I'd go with \"Das Museum ist an Feiertagen geschlossen.\"", "Das Museum ist an Feiertagen geschlossen."),
    ("1. Das Museum wird an Feiertagen geschlossen sein.\n2. An Feiertagen bleibt das Museum geschlossen.\n\n"
     "The best choice is **2**.", "An Feiertagen bleibt das Museum geschlossen."),
    ("Das Museum wird an Feiertagen geschlossen sein.\n\nThat is stiff; more idiomatic German would be:\n\n"
     "An Feiertagen bleibt das Museum geschlossen.", "An Feiertagen bleibt das Museum geschlossen."),
    ("🇦🇹 Austrian German: Das Museum hat an Feiertagen zu.", "Das Museum hat an Feiertagen zu."),
    ("- **Das Museum ist an Feiertagen geschlossen.**\n- **An Feiertagen bleibt das Museum zu.**\n\nBoth work.", ""),
    ("The German translation is:\n\n$$\\boxed{\\text{Das Museum ist an Feiertagen geschlossen.}}$$",
     "Das Museum ist an Feiertagen geschlossen."),
    ("1. \"museum\" → \"Museum\"\n2. \"closed\" → \"geschlossen\"\n\n**Final answer:** Das Museum ist an Feiertagen "
     "geschlossen.", "Das Museum ist an Feiertagen geschlossen."),
    ("Das Museum ist an Feiertagen zu. Wait, that is colloquial, so the correct translation is: Das Museum ist an "
     "Feiertagen geschlossen.", "Das Museum ist an Feiertagen geschlossen."),
    ("Literally: \"Das Museum wird geschlossen sein.\"\n\nSo my final translation would be: \"Das Museum ist an "
     "Feiertagen geschlossen.\"", "Das Museum ist an Feiertagen geschlossen."),
    ("Hi there! 😊 Happy to help!\n\n## German Translation\n\n**„Das Museum ist an Feiertagen geschlossen.“**",
     "Das Museum ist an Feiertagen geschlossen."),
    ("Hi! 👋 Here's your translation:\n\nDas Museum ist an Feiertagen geschlossen. ✅",
     "Das Museum ist an Feiertagen geschlossen."),
    ("Gern! Die Übersetzung lautet: „Das Museum ist an Feiertagen geschlossen.“ Noch etwas?",
     "Das Museum ist an Feiertagen geschlossen."),
    ("1. Das Museum ist an Feiertagen geschlossen.\n2. An Feiertagen bleibt das Museum zu.\n\n"
     "Am natürlichsten klingt: **Das Museum ist an Feiertagen geschlossen.**",
     "Das Museum ist an Feiertagen geschlossen."),
    ("Das Museum ist an Feiertagen zu.\n\n**Correction:** \"zu\" is colloquial. The better translation is:\n\n"
     "Das Museum bleibt an Feiertagen geschlossen.", "Das Museum bleibt an Feiertagen geschlossen."),
]  # fmt: skip


@pytest.mark.parametrize(
    ("reply", "source", "expected"),
    [
        ("Er fragte: „Ist das Museum offen?“", 'He asked, "Is the museum open?"', "Er fragte: „Ist das Museum offen?“"),
        ("Bówùguǎn jīntiān kāimén ma?\n→ Is the museum open today?", "博物馆今天开门吗？", "Is the museum open today?"),
        (
            "Avant de partir :\n1. Ferme la porte.\n2. Éteins la lumière.\n\n(I used tu.)",
            "Before you leave:\n1. Close the door.\n2. Turn off the light.",
            "Avant de partir :\n1. Ferme la porte.\n2. Éteins la lumière.",
        ),  # a source of lines: as many lines
    ],
)
def test_quoted_speech_and_romanised_lines(reply: str, source: str, expected: str) -> None:
    """A source that quotes keeps its quote and lead in the translation; a romanised line of the source is none."""
    assert clean_translation(reply, source) == expected


@pytest.mark.parametrize(("reply", "expected"), TRANSLATIONS_OF_A_SOURCE)
def test_the_translation_is_the_text_that_renders_the_source(reply: str, expected: str) -> None:
    assert clean_translation(reply, SOURCE) == expected


@settings(max_examples=500, deadline=None)
@given(st.one_of(st.none(), st.integers(), st.text(), st.lists(st.text())))
def test_translation_cleaning_takes_any_input(reply: object) -> None:
    cleaned = clean_translation(reply)
    assert isinstance(cleaned, str) and "\n" not in cleaned


@pytest.mark.parametrize(
    "reply",
    ["| " + "1" * 100_000 + "x | b |", "1" * 39 + "x: text", "Option 1 " * 100_000, "Note: " * 100_000,
     "(" * 300_000, "a. Note" * 100_000, "Here is it:\n" * 50_000 + "Hallo."],
)  # fmt: skip
def test_translations_of_runaway_replies_are_read_in_linear_time(reply: str) -> None:
    start = time.perf_counter()
    assert isinstance(clean_translation(reply, "Two sentences. Here."), str)
    assert time.perf_counter() - start < 1.0
