"""Replies as deployments write them (issue 36, round 14): a chat written out as plain text, a copula after the
answer in languages that put it last, a score or a translation named inside a sentence in the reply's language,
key=value lines, headings of several words in a language the reader has no words for. Each family reads what a
careful reader reads; the examples are the project's own."""

from __future__ import annotations

import pytest

from lm_eval_xling.choices import read_choice
from lm_eval_xling.metrics.verdicts import parse_binary, parse_likert
from lm_eval_xling.quench.tasks import extract_entities
from lm_eval_xling.xparade.span_f1 import token_labels
from lm_eval_xling.xparade.spans import read_spans
from lm_eval_xling.xsense.translation_reply import clean_translation


def _entity(reply: str) -> str | None:
    doc = {"variable": "X", "variables": ["X", "Y"], "question": "X founded the city Y ... Identify X."}
    return extract_entities([[reply]], [doc])[0][0]["answer"]


@pytest.mark.parametrize(
    "reply",
    [
        "B",
        "System: You are a helpful assistant.\nUser: Which sentence comes next, A or B?\nAssistant: B",
        "User: Which sentence comes next?\n\nAssistant: B\nUser: And the next story?\nAssistant: A",
        "### Human: Which sentence comes next?\n### Assistant: B",
    ],
)
def test_a_chat_written_out_as_text_is_read_on_the_models_own_turn(reply: str) -> None:
    assert read_choice(reply) == "B"


def test_turns_a_base_model_writes_after_its_answer_are_not_its_answer() -> None:
    reply = "Ein Hund schläft.\n\n### Human: Translate into French: The sun rises.\n### Assistant: Le soleil se lève."
    assert clean_translation(reply, "A dog is sleeping.", "de") == "Ein Hund schläft."


@pytest.mark.parametrize(
    ("reply", "answer"),
    [
        ("پاسخ: X شاه عباس است.", "شاه عباس"),  # Persian: the copula after the name
        ("பதில்: ராஜராஜ சோழன் ஆவார்.", "ராஜராஜ சோழன்"),  # Tamil
        ("መልስ: ዘርአ ያዕቆብ ነው።", "ዘርአ ያዕቆብ"),  # Amharic
        ("જવાબ: X મહાત્મા ગાંધી છે.", "મહાત્મા ગાંધી"),  # Gujarati, after the variable
        ("Jawaab: X waa Axmed Gurey.", "Axmed Gurey"),  # Somali: the variable, then the copula before the name
        ("Jawab: Mirza Ghalib hain.", "Mirza Ghalib"),  # romanised Urdu
        ("Answer: X is Akbar, and Y is Fatehpur Sikri.", "Akbar"),
        ("पृथ्वीनारायण शाह", "पृथ्वीनारायण शाह"),  # a name ending in a short word keeps it
    ],
)
def test_a_copula_after_the_answer_is_not_part_of_it(reply: str, answer: str) -> None:
    assert _entity(reply) == answer


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("მონაწილის პასუხი სწორია.", 1.0),  # Georgian
        ("Հետևաբար պատասխանը սխալ է։", 0.0),  # Armenian
        ("نو ځواب سم دی.", 1.0),  # Pashto
        ("کەواتە وەڵامەکە هەڵەیە.", 0.0),  # Sorani Kurdish
        ("ya3ni el egaba ghalat.", 0.0),  # Arabizi
    ],
)
def test_a_verdict_in_the_judges_language_is_read(reply: str, verdict: float) -> None:
    assert parse_binary(reply) == verdict


@pytest.mark.parametrize(
    ("reply", "score"),
    [
        ("ተወዳዳሪው ትክክል ነው። ውጤቱ 4 ነው።", 4.0),  # Amharic: "the result is 4"
        ("ஆசிரியர் சரி. மதிப்பெண் 2 ஆகும்.", 2.0),  # Tamil
        ("名前は正しいが年代が違う。評価は3です。", 3.0),  # Japanese
        ("Javob to'g'ri. Baho: 5 ball.", 5.0),  # Uzbek: a unit after the score
        ("ឈ្មោះត្រឹមត្រូវ។ ពិន្ទុ៖ ៤", 4.0),  # Khmer colon and digit
        ("The contestant named the right king. He reigned for 30 years.", None),  # no score
    ],
)
def test_a_score_named_in_the_last_sentence_is_read(reply: str, score: float | None) -> None:
    assert parse_likert(reply) == score


@pytest.mark.parametrize(
    ("reply", "target", "translation"),
    [
        ("ترجمهٔ این جمله «کتاب روی میز است.» است.", "fa", "کتاب روی میز است."),  # Persian frame and copula
        ("「The book is on the table.」の日本語訳は「本は机の上にあります。」です。", "ja", "本は机の上にあります。"),
        ('የ"The book is on the table." ትርጉም "መጽሐፉ ጠረጴዛው ላይ ነው።" ነው።', "am", "መጽሐፉ ጠረጴዛው ላይ ነው።"),
        ("lang=cs\ntranslation=Kniha je na stole.\nstatus=ok", "cs", "Kniha je na stole."),
        ("Překlad:\nPřečtěte si větu.\n(Pozn.: lze říci i „text“.)", "cs", "Přečtěte si větu."),  # Czech, no pinyin
        ("You asked for Tagalog. The translation is: Nasa mesa ang libro.", "tl", "Nasa mesa ang libro."),
    ],
)
def test_a_translation_named_inside_a_sentence_is_read(reply: str, target: str, translation: str) -> None:
    assert clean_translation(reply, "The book is on the table.", target) == translation


def test_headings_of_several_words_the_reader_lacks_are_read_in_the_prompts_order() -> None:
    tokens = ["The", "bridge", ",", "opened", "in", "1998", ",", "carries", "trains", "every", "hour", "."]
    reply = "Yangi ma'lumot:\nopened in 1998\nXulosa qilish mumkin bo'lgan ma'lumot:\nevery hour"
    new, inferable, readable = read_spans(reply, tokens)
    labels, _ = token_labels(tokens, new, inferable)
    assert readable and new == ["opened in 1998"] and inferable == ["every hour"]
    assert sum(1 for label in labels.tolist() if label) == 5
