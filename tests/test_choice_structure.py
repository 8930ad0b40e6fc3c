"""The choice reader's structural rules, each in several languages and mirrored (the letters swapped, the answer
swaps), and the mends of misreadings found in real replies (each case is our own text in the real reply's shape)."""

from __future__ import annotations

import pytest

from lm_eval_xling.choices import read_choice

SWAP = str.maketrans("AB", "BA")


def both_ways(reply: str, expected: str | None, options=("A", "B"), texts=(), language=None) -> None:
    """`reply` reads `expected`, and with A and B swapped (letters and texts) the other one."""
    assert read_choice(reply, options, texts, language=language) == expected, reply
    swapped_texts = (texts[1], texts[0], *texts[2:]) if len(texts) >= 2 else texts
    mirrored = None if expected is None else expected.translate(SWAP)
    assert read_choice(reply.translate(SWAP), options, swapped_texts, language=language) == mirrored, reply


@pytest.mark.parametrize(
    ("reply", "language"),
    [
        ("Javob: B) -4", "uz"),
        ("Juwap: **B) AQSH**", "kaa"),
        ("Жауап: B) Левшин", "kk"),
        ("Réponse : B", "fr"),
        ("Jawaab: B", "so"),
        ("Idahoo: B", None),  # a label in a language without a file: structure alone
    ],
)
def test_a_label_and_a_colon_before_one_option(reply: str, language: str | None) -> None:
    both_ways(reply, "B", ("A", "B", "C", "D"), language=language)


@pytest.mark.parametrize(
    ("reply", "language"),
    [
        ("Waa B.", "so"),
        ("C'est la B.", "fr"),
        ("Doğru cevap B'dir.", "tr"),
        ("正解はBです。", "ja"),
        ("정답은 B입니다.", "ko"),
        ("ትክክለኛው መልስ B ነው።", "am"),
        ("After weighing both, I'd lean towards B.", "en"),
        ("The next sentence is most likely B.", "en"),
    ],
)
def test_the_letter_ending_the_last_statement(reply: str, language: str) -> None:
    both_ways(reply, "B", language=language)


@pytest.mark.parametrize(
    "reply",
    [
        "Let's look at A first. The girl in B",  # trails off: no finished statement
        "A B",
        "Is it B?",
        "If the girl were older, the answer would be B.",
        "It is not B.",
    ],
)
def test_a_letter_at_the_end_that_commits_to_nothing(reply: str) -> None:
    both_ways(reply, None)


def test_an_option_restated_with_its_own_text_on_the_last_line() -> None:
    texts = ("Yalnız I", "Yalnız III", "I ve II", "II ve III")
    reply = "I ifadesi doğrudur.\nII ifadesi yanlıştır.\nIII ifadesi doğrudur.\n\n**B) Yalnız III**"
    assert read_choice(reply, ("A", "B", "C", "D"), texts, language="tr") == "B"
    echo = "A) Yalnız I\nB) Yalnız III\nC) I ve II\nD) II ve III"
    assert read_choice(echo, ("A", "B", "C", "D"), texts, language="tr") is None  # an echo's last line is no answer


def test_a_first_line_answer_then_a_rationale_that_lists_the_other_options() -> None:
    texts = ("Malaria", "Typhoid fever", "Dengue", "Yellow fever")
    reply = (
        "B. Typhoid fever\n\nRationale: the stepwise fever and the rose spots point to typhoid.\n"
        "- A. Malaria gives a cyclical fever.\n- C. Dengue comes with severe joint pain.\n"
        "- D. Yellow fever brings jaundice."
    )
    assert read_choice(reply, ("A", "B", "C", "D"), texts) == "B"
    assert read_choice("A. Malaria\nB. Typhoid fever\nC. Dengue\nD. Yellow fever", ("A", "B", "C", "D"), texts) is None


def test_a_rationale_per_option_after_the_answer_is_no_later_commitment() -> None:
    reply = (
        "The correct answer is C.\n\nThe other options are not the correct answer:\n"
        "A. Scurvy comes from a lack of vitamin C.\nB. Rickets comes from a lack of vitamin D.\n"
        "D. Beriberi comes from a lack of thiamine."
    )
    assert read_choice(reply, ("A", "B", "C", "D")) == "C"


def test_an_abbreviation_is_no_option() -> None:
    reply = "E. coli rarely needs antibiotics here. Therefore, the answer is A."
    assert read_choice(reply, ("A", "B", "C", "D", "E")) == "A"
    assert read_choice("Shigella, not E. coli, is the answer: A.", ("A", "B", "C", "D", "E")) == "A"


def test_an_option_whose_text_holds_another_options_text() -> None:
    texts = ("yalnız II", "yalnız II ve III")
    both_ways("Doğru olanlar yalnız II ve III.", "B", texts=texts, language="tr")
    both_ways("Doğru olan yalnız II.", "A", texts=texts, language="tr")


def test_correct_and_incorrect_labels() -> None:
    both_ways("Correct option: A\nIncorrect option: B", "A")
    both_ways("Incorrect option: B\nCorrect option: A", "A")
    assert read_choice("The incorrect statement is C.", ("A", "B", "C", "D")) == "C"  # the answer to "which is wrong?"


def test_an_invented_follow_up_question_does_not_overturn_the_answer() -> None:
    reply = "Answer: B\n\nQuestion 2: Which animal lays eggs?\nA) Dog\nB) Hen\nAnswer: A"
    both_ways(reply, "B")


@pytest.mark.parametrize(
    ("reply", "language"),
    [
        ("B değil, A'dır.", "tr"),
        ("B emas, javob A.", "uz"),
        ("Jibu si B, ni A.", "sw"),
        ("答案不是B，是A。", "zh"),
    ],
)
def test_a_negated_option_then_the_answer(reply: str, language: str) -> None:
    both_ways(reply, "A", language=language)


@pytest.mark.parametrize(("reply", "language"), [("Javob: A yoki B", "uz"), ("Cevap A veya B.", "tr")])
def test_two_options_joined_in_the_languages_words_are_no_commitment(reply: str, language: str) -> None:
    both_ways(reply, None, language=language)
