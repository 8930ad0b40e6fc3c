"""Tests for lm_eval_xling.quench.answers.parse_variables on realistic QUENCH replies."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lm_eval_xling.quench.answers import parse_variables
from lm_eval_xling.replies import read_reply

XY = ["X", "Y"]
XYZ = ["X", "Y", "Z"]

COT_THREE = (
    "Let's think step by step.\n\n"
    "The question talks about a physicist, X, who discovered radioactivity together with Y. "
    "Y is described as her husband, and Z is the prize they shared.\n\n"
    "1. X is a Polish-French scientist, the first woman to win a Nobel Prize.\n"
    "2. Y is a French physicist who worked with her on radium.\n"
    "3. Z: they shared it in 1903.\n\n"
    "So, putting it all together:\n\n"
    "The answer is <<<X: Marie Curie>>>; <<<Y: Pierre Curie>>>; <<<Z: Nobel Prize in Physics>>>."
)

COT_PLAIN = (
    "Let's think step by step.\n\n"
    "The clue mentions a city on the Seine that hosted the 1900 Olympics; that is X.\n"
    "The country it is the capital of is Y.\n\n"
    "Final answer:\n"
    "X: Paris\n"
    "Y: France"
)

COT_RESTATED = (
    "Let's think step by step.\n\n"
    "First guess: <<<X: London>>>, since the Thames is mentioned.\n\n"
    "But the clue says the river is the Seine, not the Thames, so that is wrong.\n\n"
    "The answer is <<<X: Paris>>>."
)

COT_MARKDOWN = (
    "## Reasoning\n\n"
    "**Step 1.** The painting described is the *Mona Lisa*, so the painter X is Leonardo.\n\n"
    "**Step 2.** The museum that holds it, Y, is in Paris.\n\n"
    "## Answer\n\n"
    "- **X:** Leonardo da Vinci\n"
    "- **Y:** The Louvre"
)

CASES = [
    # direct, single variable
    ("The answer is <<<X: Marie Curie>>>.", ["X"], {"X": "Marie Curie"}),
    ("<<<X: Marie Curie>>>", ["X"], {"X": "Marie Curie"}),
    ("<<<X:Marie Curie>>>", ["X"], {"X": "Marie Curie"}),
    ("<<< X : Marie Curie >>>", ["X"], {"X": "Marie Curie"}),
    ("<<X: Ada Lovelace>>", ["X"], {"X": "Ada Lovelace"}),
    ("<X: Ada Lovelace>", ["X"], {"X": "Ada Lovelace"}),
    ('<<<X: "Hamlet">>>', ["X"], {"X": "Hamlet"}),
    ("<<<X: **Mount Everest**>>>", ["X"], {"X": "Mount Everest"}),
    ("X: Paris", ["X"], {"X": "Paris"}),
    ("X - Paris", ["X"], {"X": "Paris"}),
    ("X = Paris", ["X"], {"X": "Paris"}),
    ("**X:** Paris", ["X"], {"X": "Paris"}),
    ("X is Paris.", ["X"], {"X": "Paris"}),
    ("The answer is X: Paris", ["X"], {"X": "Paris"}),
    ("The answer is Paris.", ["X"], {"X": "Paris"}),
    ("Paris", ["X"], {"X": "Paris"}),
    ("**Answer:** Tokyo", ["X"], {"X": "Tokyo"}),
    ("The answer is <<<Paris>>>.", ["X"], {"X": "Paris"}),
    ("X: Washington, D.C.", ["X"], {"X": "Washington, D.C."}),
    ("X: J. K. Rowling. She wrote the Harry Potter series.", ["X"], {"X": "J. K. Rowling"}),
    ("<<<X: St. Louis>>>", ["X"], {"X": "St. Louis"}),
    # direct, several variables
    ("The answer is <<<X: Paris>>>; <<<Y: France>>>", XY, {"X": "Paris", "Y": "France"}),
    ("<<<X: Paris>>>, <<<Y: France>>>", XY, {"X": "Paris", "Y": "France"}),
    ("<<<X: Paris>>>\n<<<Y: France>>>\n<<<Z: Europe>>>", XYZ, {"X": "Paris", "Y": "France", "Z": "Europe"}),
    ("<<<X: Paris; Y: France>>>", XY, {"X": "Paris", "Y": "France"}),
    # the place a name lies in is no part of it
    ("<<<X: Paris, France>>>; <<<Y: Seine>>>", XY, {"X": "Paris", "Y": "Seine"}),
    ("X: Washington, D.C.", ["X"], {"X": "Washington, D.C."}),
    ("X: Paris; Y: France", XY, {"X": "Paris", "Y": "France"}),
    ("X = Tom Hanks, Y = Forrest Gump", XY, {"X": "Tom Hanks", "Y": "Forrest Gump"}),
    ("- X: Paris\n- Y: France", XY, {"X": "Paris", "Y": "France"}),
    ("1. **X**: Paris\n2. **Y** - France", XY, {"X": "Paris", "Y": "France"}),
    ("X is Paris, Y is France.", XY, {"X": "Paris", "Y": "France"}),
    ("The answer is X: Paris and Y: France.", XY, {"X": "Paris", "Y": "France"}),
    (
        "Sure! Here you go:\n\n<<<X: Paris>>>; <<<Y: France>>>\n\nLet me know if you need more.",
        XY,
        {"X": "Paris", "Y": "France"},
    ),
    # out of order, duplicated, missing
    ("<<<Y: France>>>; <<<X: Paris>>>", XY, {"X": "Paris", "Y": "France"}),
    ("<<<X: Lyon>>>; <<<Y: France>>>; <<<X: Paris>>>", XY, {"X": "Paris", "Y": "France"}),
    ("The answer is <<<X: Paris>>>.", XY, {"X": "Paris", "Y": None}),
    ("<<<X: Paris>>>; <<<Y: >>>", XY, {"X": "Paris", "Y": None}),
    ("<<<X: Paris>>>; <<<Y: France>>>; <<<W: Europe>>>", XY, {"X": "Paris", "Y": "France"}),
    ("<<<W: Seine>>>; <<<X: Paris>>>", ["X", "Y", "Z", "W"], {"X": "Paris", "Y": None, "Z": None, "W": "Seine"}),
    ("Paris", XY, {"X": None, "Y": None}),
    ("X: Paris. Y: France.", XY, {"X": "Paris", "Y": "France"}),
    # a bracketed answer outranks a later plain one, and "X: a" outranks a later "X is ..."
    ("<<<X: Paris>>>\n\nExplanation:\nX: the capital of France, on the Seine.", ["X"], {"X": "Paris"}),
    ("X: Paris\nY: France\n\nX is the capital of Y, and Y is in Europe.", XY, {"X": "Paris", "Y": "France"}),
    # capitals that are not labels
    ("X: Paris. Y is the capital of France.", XY, {"X": "Paris", "Y": None}),
    ("A: Athens\nB: Greece", ["A", "B"], {"A": "Athens", "B": "Greece"}),
    ("A lot of people think it is Rome.\nB is unclear.", ["A", "B"], {"A": None, "B": None}),  # "unclear": none
    ("XYZ Corp: a company; Yale: a university", XY, {"X": None, "Y": None}),
    ("x: paris\ny: france", XY, {"X": "paris", "Y": "france"}),  # a lower-case label opening its line
    ("X refers to Paris, the capital.", ["X"], {"X": "Paris"}),  # "refers to" states what X is
    ("X-ray crystallography", ["X"], {"X": None}),
    # chain of thought
    (COT_THREE, XYZ, {"X": "Marie Curie", "Y": "Pierre Curie", "Z": "Nobel Prize in Physics"}),
    (COT_PLAIN, XY, {"X": "Paris", "Y": "France"}),
    (COT_RESTATED, ["X"], {"X": "Paris"}),
    (COT_MARKDOWN, XY, {"X": "Leonardo da Vinci", "Y": "The Louvre"}),
    (
        "Let's think step by step.\n\nThe river flows through Paris.\n\nHence the answer is Seine.",
        ["X"],
        {"X": "Seine"},
    ),
    (
        "Let's think step by step.\n\nThe river flows through Paris and into the English Channel.\n"
        "I am not sure which river is meant.",
        ["X"],
        {"X": None},
    ),
    # garbage and empty
    ("", XY, {"X": None, "Y": None}),
    ("   \n\n ", ["X"], {"X": None}),
    ("<<<>>>", ["X"], {"X": None}),
    ("<<<X: ...>>>", ["X"], {"X": None}),
    (
        "I'm sorry, but I can't help with that request because the question is incomplete and unclear to me, "
        "so I cannot answer it.",
        XY,
        {"X": None, "Y": None},
    ),
]


@pytest.mark.parametrize(("reply", "variables", "expected"), CASES)
def test_realistic_replies(reply: str, variables: list[str], expected: dict[str, str | None]) -> None:
    got = parse_variables(reply, variables)
    assert got == expected
    assert list(got) == variables


def test_keys_follow_requested_order() -> None:
    assert list(parse_variables("<<<X: a>>>; <<<Z: c>>>; <<<Y: b>>>", ["Z", "Y", "X"])) == ["Z", "Y", "X"]


def test_no_variables() -> None:
    assert parse_variables("<<<X: Paris>>>", []) == {}


def _check(text: str, variables: list[str]) -> None:
    got = parse_variables(text, variables)
    assert list(got) == variables
    read = read_reply(text).text.replace("\n", " ")  # every answer is text of the reply as the shared reader reads it
    for value in got.values():
        assert value is None or (isinstance(value, str) and value and value == value.strip() and value in read)


VARIABLE_SETS = st.sampled_from([["X"], ["Y"], XY, XYZ, ["A", "B"], ["W", "X", "Y", "Z"]])
PIECES = st.sampled_from(
    [
        "<<<",
        ">>>",
        "<<",
        ">",
        "<",
        "X",
        "Y",
        "Z",
        "A",
        ":",
        ";",
        ",",
        ".",
        "-",
        "=",
        " is ",
        " and ",
        "The answer is",
        "Answer:",
        "\n",
        "\r\n",
        "**",
        "- ",
        "1. ",
        " ",
        "\t",
        '"',
        "'",
        "Paris",
        "Marie Curie",
        "D.C.",
        "J.",
        "é",
        "",
    ]
)


@settings(max_examples=3000, deadline=None)
@given(st.text(), VARIABLE_SETS)
def test_fuzz_any_text(text: str, variables: list[str]) -> None:
    _check(text, variables)


@settings(max_examples=3000, deadline=None)
@given(st.lists(PIECES, max_size=40).map("".join), VARIABLE_SETS)
def test_fuzz_assembled_pieces(text: str, variables: list[str]) -> None:
    _check(text, variables)
