"""Noisy and degraded replies (issue 36, round 22): text decoded with the wrong codec, look-alike letters of another
script inside a word, an OCR's digits for letters, a line written again and again, typos in the answer's lead, a
request echoed on the translation's line, JSON missing its closing brace, a reply cut off inside its lists or a
table row, and verdict words of scripts written without spaces. The examples are the project's own."""

from __future__ import annotations

import pytest

from lm_eval_xling.metrics.verdicts import parse_binary, parse_likert
from lm_eval_xling.quench.answers import parse_variables
from lm_eval_xling.xparade.spans import read_spans
from lm_eval_xling.xsense.translation_reply import clean_translation

TOKENS = ["Ana", ",", "who", "is", "22", ",", "studies", "law", "at", "the", "University", "of", "Lagos", "."]


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("Repons lan pa kÃ²rÃ¨k. Kapital la se Okap.", 0.0),  # UTF-8 read as cp1252: "kòrèk"
        ("Javob toâ€˜gâ€˜ri, Samarqand.", 1.0),
        ("Verdict: соrrесt", 1.0),  # Cyrillic о, е, с in a Latin word
        ("Хариулт бyрyy.", 0.0),  # Latin y in a Cyrillic word
        ("ចម្លើយ មិន ត្រឹមត្រូវ ទេ។", 0.0),  # a negator before the verdict word
        ("အဖြေ မှားပါတယ်။ မှန်ကန်သောအဖြေမှာ ရန်ကုန် ဖြစ်ပါတယ်။", 0.0),  # the correct answer named, no space
        ("correct correct correct correct", 1.0),
    ],
)
def test_noise_a_reader_reads_through_leaves_the_verdict(reply: str, verdict: float) -> None:
    assert parse_binary(reply) == verdict


@pytest.mark.parametrize(
    ("reply", "score"),
    [
        ("Sc0re: 4\nExce1lent use of the c1ues.", 4.0),  # an OCR's 0 and 1 for o and l
        ("Rating: 3 Rating: 3 Rating: 3 Rating: 3", 3.0),  # a loop
        ("Baho: 4 ball. Izoh yaxshi, lekin yil yo'q.", 4.0),  # a label, the score and its unit, then more
        ("m ba l 3 sou 5. Li eksplike tout.", 3.0),
        ("Nkọwa dị mma. Enyere m ya akara 4 n'ime 5.", 4.0),
        ("Skor: 2\nSkor: 4", None),  # two scores, neither taken back
        ("Max: 5\nThe reasoning is thin.", None),  # the scale's maximum is no score
    ],
)
def test_noise_a_reader_reads_through_leaves_the_score(reply: str, score: float | None) -> None:
    assert parse_likert(reply) == score


@pytest.mark.parametrize(
    ("reply", "answer"),
    [
        ("Teh anser is Kalpana Chawla. She flew twice.", "Kalpana Chawla"),
        ("ya the ans is julius nyerere 😅", "julius nyerere"),
        ("THE ANSWER IS ROGER FEDERER!!! HE WON IT EIGHT TIMES!!!", "ROGER FEDERER"),
        ("Jibu: The answer is <X answer> → Nwankwo Kanu", "Nwankwo Kanu"),  # the format echoed, then filled
        ("🇰🇭✨ ចម្លើយគឺ បាយ័ន ✨", "បាយ័ន"),  # emoji before the lead
        ("hmm... Sony? or Panasonic?? could be either", None),
        ("Hariult: Chinggis Khaan.", "Chinggis Khaan"),  # a romanised noun for "answer"
    ],
)
def test_noise_a_reader_reads_through_leaves_the_entity(reply: str, answer: str | None) -> None:
    assert parse_variables(reply, ["X"], "X")["X"] == answer


@pytest.mark.parametrize(
    ("reply", "source", "target", "expected"),
    [
        ("Please translate the following text into Wolof: Where is the market? Ana marse bi?",
         "Where is the market?", "wo", "Ana marse bi?"),  # the request echoed on the translation's line
        ("Zulu:Izinja ziyakhonkotha.English:The dogs are barking.", "Izinja ziyakhonkotha.", "en",
         "The dogs are barking."),
        ("Habari, unaendeleaje? = Hello, how are you?", "Habari, unaendeleaje?", "en", "Hello, how are you?"),
        ("<pad> Thank you for the bread.</s>", "Fa'afetai mo le falaoa.", "en", "Thank you for the bread."),
        ("ສະບາຍດີຕອນເຊົ້າ.ສະບາຍດີຕອນເຊົ້າ.", "Good morning to everyone.", "lo", "ສະບາຍດີຕອນເຊົ້າ."),  # a loop
        ("I like rice with fish. My mother cooks very del", "ខ្ញុំចូលចិត្តបាយជាមួយត្រី។ ម្ដាយខ្ញុំចម្អិនឆ្ងាញ់។", "en",
         ""),  # cut off: the source's sentences end with the Khmer full stop
    ],
)  # fmt: skip
def test_noise_a_reader_reads_through_leaves_the_translation(
    reply: str, source: str, target: str, expected: str
) -> None:
    assert clean_translation(reply, source, target) == expected


@pytest.mark.parametrize(
    "reply",
    [
        "NEW = [who is 22, Lagos]\nINFERABLE = [studies law]",  # a list in brackets, unquoted
        '{"new": ["who is 22", "Lagos"], "inferable": ["studies law"]',  # its closing brace forgotten
    ],
)
def test_noisy_lists_are_read(reply: str) -> None:
    assert read_spans(reply, TOKENS) == (["who is 22", "Lagos"], ["studies law"], True)


@pytest.mark.parametrize(
    "reply",
    [
        'NEW:\n1. "who is 22"\n\nINFERABLE:\n1. "the Univer',  # cut off inside its lists
        "| Span | Label |\n|---|---|\n| who is 22 | NEW |\n| the Univer",  # cut off inside a table row
    ],
)
def test_lists_cut_off_give_no_answer(reply: str) -> None:
    assert read_spans(reply, TOKENS) == ([], [], False)
