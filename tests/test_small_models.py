"""Replies of small and multilingual models (issue 36, round 13): the answer stated in the reply's own language, a
base model that goes on to write the prompt's next item, headings in a language the reader has no words for, a
reply cut off before it commits. Each family reads what a careful reader reads; the examples are the project's own."""

from __future__ import annotations

import pytest

from lm_eval_xling.metrics.verdicts import parse_binary, parse_likert
from lm_eval_xling.quench.tasks import extract_entities
from lm_eval_xling.xparade.span_f1 import token_labels
from lm_eval_xling.xparade.spans import read_spans
from lm_eval_xling.xsense.translation_reply import clean_translation


def _entity(reply: str) -> str | None:
    doc = {"variable": "X", "variables": ["X"], "question": "X is the city ... Identify X."}
    return extract_entities([[reply]], [doc])[0][0]["answer"]


@pytest.mark.parametrize(
    ("reply", "answer"),
    [
        ("Amsar ita ce Abuja. Ita ce babban birnin tarayya.", "Abuja"),  # Hausa: two small words, then the name
        ("Ìdáhùn náà ni Ibadan.", "Ibadan"),  # Yoruba
        ("Jadi, jawabannya adalah Borobudur.", "Borobudur"),  # Indonesian, after a connective
        ("Cevap İstanbul'dur. 1453'te fethedildi.", "İstanbul"),  # Turkish: the suffix after the name's apostrophe
        ("정답은 경복궁입니다.", "경복궁"),  # Korean: the copula written onto the answer
        ("答えは「富士山」です。", "富士山"),  # Japanese: the copula after the closing bracket
        ("\u202bالإجابة هي القاهرة.\u202c", "القاهرة"),  # Arabic inside right-to-left marks
        ("La respuesta es dhokla.", "dhokla"),  # a small answer after one small word
        ("मुझे इस प्रश्न का उत्तर नहीं पता।", None),  # "I don't know the answer": a negator is no copula
        ("The answer is Kochi\n\nQuestion: X is the capital of Goa. Identify X.\nThe answer is Panaji", "Kochi"),
        ("The answer is Kochi\n\n### Instruction:\nConsider yourself a participant ...\nThe answer is Panaji", "Kochi"),
        ("The answer is Kochi\nThe answer is Kochi\nThe answer is Kochi\nThe answer is Ko", "Kochi"),
    ],
)
def test_an_answer_stated_in_any_language_is_read(reply: str, answer: str | None) -> None:
    assert _entity(reply) == answer


NEXT_ITEM = "\n\n## Question\nWhich river flows through Kolkata?\n\n## True Answer\nHooghly\n\n"
JUDGED = "## Answer Given by contestant\nHooghly\n\n## Your Judgement (correct/incorrect)\n"


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("incorrect" + NEXT_ITEM + JUDGED + "correct", 0.0),  # the next item's verdict is not this one's
        ("correct" + NEXT_ITEM + JUDGED + "incorrect", 1.0),
        (NEXT_ITEM.lstrip() + JUDGED + "correct" + NEXT_ITEM + JUDGED + "incorrect", 1.0),  # the prompt echoed first
        (NEXT_ITEM.lstrip() + JUDGED, None),  # the prompt echoed, no verdict
    ],
)
def test_a_base_model_writing_the_next_item_is_read_on_this_one(reply: str, verdict: float | None) -> None:
    assert parse_binary(reply) == verdict


@pytest.mark.parametrize(
    ("reply", "score"),
    [
        ("我给这个解释打三分。", 3.0),  # a CJK score word after "give"
        ("이 설명에 4점을 줍니다.", 4.0),
        ("\u200fالدرجة: ٤\u200f", 4.0),  # Arabic-Indic digit inside right-to-left marks
        ("On a scale of 1 to 5, I would rate it as follows:\n\n2\n\nIt names 3 of the 4 causes.", 2.0),
        ("Score: 3\n" * 6 + "Score:", 3.0),  # a loop cut off is no reply cut off before its score
        ("三分之一的理由是对的。", None),  # "a third": no score
    ],
)
def test_a_score_in_any_script_or_layout_is_read(reply: str, score: float | None) -> None:
    assert parse_likert(reply) == score


TOKENS = [
    "El",
    "puente",
    "abrió",
    "en",
    "1962",
    ",",
    "tras",
    "diez",
    "años",
    "de",
    "obras",
    ",",
    "y",
    "es",
    "azul",
    ".",
]
ENGLISH = "New:\n- tras diez años de obras\nInferable:\n- y es azul"


@pytest.mark.parametrize(
    "reply",
    [
        "Yeni:\n- tras diez años de obras\nÇıkarılabilir:\n- y es azul",  # Turkish headings
        "Mpya:\n➤ tras diez años de obras\n\nInayoweza kukisiwa:\n➤ y es azul\n\nMaelezo: sehemu nyingine ni sawa.",
        "\u202bمعلومات جديدة:\u202c\n\u200f١۔ tras diez años de obras\n\n\u202bقابل استنتاج:\u202c\n\u200f١۔ y es azul",
        "新情報：\n・tras diez años de obras\n\n推測可能：\n・y es azul",
    ],
)
def test_headings_in_words_the_reader_lacks_are_read_in_the_prompts_order(reply: str) -> None:
    new, inf, readable = read_spans(reply, TOKENS)
    assert readable
    assert (
        token_labels(TOKENS, new, inf)[0].tolist() == token_labels(TOKENS, *read_spans(ENGLISH, TOKENS)[:2])[0].tolist()
    )


def test_prose_cut_off_before_its_lists_is_unreadable() -> None:
    weighing = 'Comparemos. La frase "tras diez años de obras" no está en la fuente; podría ser nueva, o quizá deb'
    assert read_spans(weighing, TOKENS) == ([], [], False)
    assert read_spans(weighing + "e considerarse nueva.", TOKENS)[2]  # finished, the same prose is read


@pytest.mark.parametrize(
    ("reply", "translation"),
    [
        ('الترجمة: يرجى الإجابة بـ "نعم" أو "لا".', 'يرجى الإجابة بـ "نعم" أو "لا".'),  # a label in the target language
        ('हिंदी अनुवाद: कृपया "हाँ" या "नहीं" में उत्तर दें।', 'कृपया "हाँ" या "नहीं" में उत्तर दें।'),
        (
            'Übersetzung: Die Katze schläft.\n\nKorrektur: "dog" heißt "Hund". Richtige Übersetzung: Der Hund schläft.',
            "Der Hund schläft.",
        ),
        ("Вот перевод:\n\n«", ""),  # cut off after the opening quote: no translation
    ],
)
def test_a_translation_labelled_or_corrected_in_the_target_language(reply: str, translation: str) -> None:
    source = 'Please answer with "yes" or "no".' if "نعم" in reply or "हाँ" in reply else "The dog is sleeping."
    target = "ar" if "نعم" in reply else "hi" if "हाँ" in reply else "ru" if "перевод" in reply else "de"
    assert clean_translation(reply, source, target) == translation
