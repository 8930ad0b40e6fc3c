"""The shared choice reader's invariants (the corpus agreement is in test_reply_corpus.py)."""

from __future__ import annotations

import json
import re
import time
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lm_eval_xling.choices import _OTHER_LETTERS, read_choice
from lm_eval_xling.replies import decoded, read_reply

CORPUS = Path(__file__).parent / "corpus"
NSP = [
    json.loads(line)
    for path in (CORPUS / "nsp.jsonl", CORPUS / "heldout" / "nsp.jsonl")
    for line in path.read_text(encoding="utf-8").splitlines()
]

_SWAPS = {"A": "B", "B": "A", "a": "b", "b": "a", "first": "second", "second": "first", "1st": "2nd", "2nd": "1st",
          "former": "latter", "latter": "former", "kwanza": "pili", "pili": "kwanza", "farko": "biyu",
          "biyu": "farko", "第一": "第二", "第二": "第一"}  # fmt: skip


def _other_scripts_swaps() -> dict[str, str]:
    """Another script's letters for A and B (the reader's own table: Thai "ก" "ข", Cyrillic "А" "Б"/"В", ...), each
    swapped for the first of the other letter in its Unicode block."""
    ab = {letter: latin for letter, latin in _OTHER_LETTERS.items() if latin in "AB" and len(letter) == 1}
    firsts: dict[tuple[int, str], str] = {}
    for letter, latin in ab.items():
        firsts.setdefault((ord(letter) >> 7, latin), letter)
    swaps = {letter: firsts[ord(letter) >> 7, "B" if latin == "A" else "A"] for letter, latin in ab.items()}
    return {"الف": firsts[ord("ب") >> 7, "B"], **swaps}  # (Persian and Urdu name the first letter "الف")


_OTHER_SWAPS = _other_scripts_swaps()
_SWAPS.update(_OTHER_SWAPS)
# a letter a choice's letter cannot touch (a CJK or Hangul one can: "A가", with the subject's particle)
_LATIN = r"[^\W\d_\u2e80-\u9fff\uac00-\ud7af]"
_LETTER_OR_ORDINAL = re.compile(
    rf"(?<!{_LATIN})(?:[ABab]|first|second|1st|2nd|former|latter|kwanza|pili|farko|biyu)(?!{_LATIN})|第一|第二"
    rf"|الف|[{''.join(letter for letter in _OTHER_SWAPS if len(letter) == 1)}]"
)


def mirror(text: str, options: tuple[str, str] = ("", "")) -> str:
    """The reply with the option letters (and positions) swapped; the options' own texts in it are kept as written.
    The letters are those the reader reads: after its repair of a wrong codec and its NFKC ("AÂ¡" is "A¡")."""
    text = unicodedata.normalize("NFKC", decoded(text))
    kept = [o for o in options if o]
    for i, option in enumerate(kept):
        text = text.replace(option, f"\ue100{i}\ue101")
    text = _LETTER_OR_ORDINAL.sub(lambda m: _SWAPS[m[0]], text)
    for i, option in enumerate(kept):
        text = text.replace(f"\ue100{i}\ue101", option)
    return text


def read(record: dict) -> str | None:
    return read_choice(record["reply"], ("A", "B"), (record["option_a"], record["option_b"]))


@pytest.mark.parametrize("record", NSP, ids=[r["id"] for r in NSP])
def test_swapping_the_letters_swaps_the_answer(record: dict) -> None:
    """Mirror every corpus reply (letters, positions and option texts): the reading mirrors, or both are invalid."""
    options = (record["option_a"], record["option_b"])
    swapped = read_choice(mirror(record["reply"], options), ("A", "B"), options[::-1])
    assert swapped == {"A": "B", "B": "A", None: None}[read(record)]


def test_a_letter_only_mentioned_is_never_the_answer() -> None:
    """No commitment, no letter: the old first-letter fall-back is gone."""
    for reply in (
        "Option A describes the dog. Option B describes the rain.",
        "Let's look at A first. The girl in A",
        "A: The fox ran home.\n\nB: The dog barked.",
        '"A": "The fox ran home."\n"B": "The dog barked."',
        "### Option A\nThe fox ran home.\n\n### Option B\nThe dog barked.",
        "Both are plausible; I cannot decide.",
        "<think>The answer is clearly B because",
        "A boy ran home.",
        "If the story were set later, B would fit.",
    ):
        assert read_choice(reply) is None, reply


def test_the_letter_and_the_article_follow_one_rule() -> None:
    for sentence in ("{} clearly fits the scene better.", "{} is correct.", "{} makes more sense.", "{}."):
        assert read_choice(sentence.format("A")) == "A"
        assert read_choice(sentence.format("B")) == "B"
    assert read_choice("A boy ran home.") is None
    assert read_choice("B boy ran home.") is None


def test_the_last_commitment_wins_and_a_concession_does_not_overturn_it() -> None:
    assert read_choice("Final answer: A\n\nWait, I misread the last line; it is B.") == "B"
    assert read_choice("The answer is B. If the story were set later, A would fit.") == "B"
    assert read_choice("While A is possible, B is more logical.") == "B"
    assert read_choice("B. On reflection I cannot decide between them.") is None


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("Jibu: B", "B"),
        ("Jibu sahihi ni A.", "A"),
        ("Sentensi B ndiyo inayofuata.", "B"),
        ("Chaguo la kwanza.", "A"),
        ("Amsa: A", "A"),
        ("Amsar ita ce B.", "B"),
        ("Jumla ta biyu ce ta fi dacewa.", "B"),
        ("答案是B", "B"),
        ("答案：A", "A"),
        ("I'd go with the second one.", "B"),
        ('{"final_answer": "B"}', "B"),
        ('```json\n{"reasoning": "A is off-topic", "answer": "B"}\n```', "B"),
        ("Ｂ", "B"),
        ("**Final Answer:** \\boxed{A}", "A"),
        ("reasoning that the template opened ... so A.</think>\n\nB", "B"),
    ],
)
def test_commitments_in_the_tasks_languages_and_formats(reply: str, expected: str) -> None:
    assert read_choice(reply) == expected


@pytest.mark.parametrize(
    ("reply", "options"),
    [
        ("Options:\nA. no.\nB. yes.", ("no", "yes")),
        ("Options:\n- yes\n- no", ("no", "yes")),
        ("1) nein\n2) ja", ("nein", "ja")),
        ("- A\n- B", ("A", "B")),
        ("* Option A\n* Option B", ("A", "B")),
    ],
)
def test_a_list_of_the_options_is_no_commitment(reply: str, options: tuple[str, str]) -> None:
    """A reply that lists the options one per line has chosen none, in either order; one option listed alone,
    or a commitment after the list, still counts."""
    swapped = reply.replace(options[0], "\0").replace(options[1], options[0]).replace("\0", options[1])
    assert read_choice(reply, options) is None and read_choice(swapped, options) is None
    assert read_choice(f"{reply}\n\nAnswer: {options[1]}", options) == options[1]
    assert read_choice(f"Answer:\n- {options[0]}", options) == options[0]


def test_a_direct_reply_that_is_one_options_sentence() -> None:
    texts = ("The fox ran back to its den.", "The dog barked at the moon.")
    assert read_choice("The dog barked at the moon.", texts=texts) == "B"
    assert read_choice("A: The dog barked at the moon.", texts=texts) is None  # the letter and text disagree


_WRAPPERS = [
    lambda r: r,
    lambda r: f"**{r}**",
    lambda r: f"### Answer\n{r}",
    lambda r: f"<think>\nOption A is about the fox; option B is about the dog. Maybe A? Or B?\n</think>\n\n{r}",
    lambda r: f"Option A talks about the fox.\nOption B talks about the dog.\n\n{r}",
    lambda r: f"Option B talks about the dog.\nOption A talks about the fox.\n\n{r}",
    lambda r: f"> {r}",
    lambda r: f'{{"answer": "{r}"}}' if len(r) == 1 else r,
]
_COMMITTED = ["{}", "The answer is {}.", "Final answer: {}", "I choose {}.", "{} is the more logical continuation."]


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(_COMMITTED),
    st.sampled_from(_WRAPPERS),
    st.sampled_from("AB"),
    st.booleans(),
)
def test_format_and_preceding_discussion_do_not_change_a_commitment(template, wrap, letter, restate) -> None:
    """The same committed reply reads the same with markdown, a heading, a think block, a JSON wrapper or a
    discussion of both options before it; a hedge-free restatement after it changes nothing."""
    reply = wrap(template.format(letter))
    if restate:
        reply += f"\n\nSo the answer is {letter}."
    assert read_choice(reply) == letter


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_any_text_is_read_without_raising(text: str) -> None:
    assert read_choice(text) in (None, "A", "B")
    assert read_choice(text, ("A", "B", "C"), (text, "x" * 9, None)) in (None, "A", "B", "C")
    assert read_choice(mirror(text)) == {"A": "B", "B": "A", None: None}[read_choice(text)]


@pytest.mark.parametrize("reply", [None, 3, b"B", ["B"], {"answer": "B"}])
def test_non_text_is_invalid(reply: object) -> None:
    assert read_choice(reply) is None
    assert read_reply(reply).lines == ()


@pytest.mark.parametrize("unit", ["A or B? ", "Option A (", '{"a": [', "**B** ", "<think>", "答案是", "\n"])
def test_megabyte_replies_take_time_linear_in_their_length(unit: str) -> None:
    """A megabyte of any repeated fragment is read on its tail, in about the time of 100 kB."""
    small, big = unit * (10_000 // len(unit)), unit * (1_000_000 // len(unit))
    start = time.process_time()
    read_choice(small)
    small_time = time.process_time() - start
    start = time.process_time()
    assert read_choice(big + "\nFinal answer: B") in ("B", None)
    assert time.process_time() - start < max(1.0, 40 * small_time)
