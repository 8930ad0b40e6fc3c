"""Every answer parser takes any input (None, numbers, lists, huge or odd Unicode strings) without raising."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lm_eval_xling.choices import read_choice as extract_choice
from lm_eval_xling.metrics.verdicts import parse_binary, parse_likert
from lm_eval_xling.quench.answers import parse_variables, read_rationale
from lm_eval_xling.replies import read_reply
from lm_eval_xling.xparade.span_f1 import match_span, token_labels
from lm_eval_xling.xparade.spans import read_span_lists
from lm_eval_xling.xsense.answers import read_answer, standardize
from lm_eval_xling.xsense.translation_reply import clean_translation

# What a sample log or a caller may hand a parser: JSON values, and strings with letters that case-fold oddly.
ODD_TEXT = st.text(alphabet=st.sampled_from("AaBbKkXx\u212a\u0131\u0130\u017f:>< \n.")) | st.text()
ANY = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | ODD_TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=8,
)
PARSERS = {
    "extract_choice": lambda x, y: extract_choice(x, y),
    "parse_variables": lambda x, y: parse_variables(x, y),
    "standardize": lambda x, y: standardize(x, "pawsx", y),
    "standardize_task": lambda x, y: standardize(x, y, "en"),
    "read_reply": lambda x, y: read_reply(x),
    "read_answer": lambda x, y: read_answer(x, "pawsx", y),
    "parse_binary": lambda x, y: parse_binary(x),
    "parse_likert": lambda x, y: parse_likert(x),
    "read_span_lists": lambda x, y: read_span_lists(x),
    "read_rationale": lambda x, y: read_rationale(x),
    "clean_translation": lambda x, y: clean_translation(x, y),
    "match_span": lambda x, y: match_span(y, x),
    "token_labels": lambda x, y: token_labels(["a", "b"], x, y),
}


@pytest.mark.parametrize("name", sorted(PARSERS))
@settings(max_examples=150, deadline=None)
@given(reply=ANY, other=ANY)
def test_any_input_never_raises(name, reply, other) -> None:
    PARSERS[name](reply, other)


def test_choice_letters_that_case_fold_together() -> None:
    # the regex's case folding matches "k" to the Kelvin sign; the lookup failed with KeyError 'K'
    assert extract_choice("k", ("A", "\u212a")) == "\u212a"
    assert extract_choice("The answer is B", None) is None


def test_nested_or_missing_variables() -> None:
    assert parse_variables("X: a", [["X"]]) == {}
    assert parse_variables("X: a", None) == {}
    assert parse_variables("X: a", ["X", 3]) == {"X": "a"}


def test_reasoning_lines_of_a_chat_front_end_are_no_answer() -> None:
    assert read_reply("Thinking...\nMaybe A?\n...done thinking.\n\nB").text == "B"
    assert read_reply("Thinking...\nMaybe A?").unfinished


def test_structured_output_of_other_syntaxes_reads_as_fields_and_rows() -> None:
    assert read_reply("{'answer': 'B', 'why': 'it fits'}").text == "answer: B\nwhy: it fits"
    assert [(line.kind, line.text) for line in read_reply('[["a", "new"], ["b", "same"]]').lines] == [
        ("row", "a | new"),
        ("row", "b | same"),
    ]
    nested = read_reply("<result>\n  <answer>B</answer>\n</result>")
    assert [(line.kind, line.text) for line in nested.lines] == [("heading", "result"), ("field", "answer: B")]


def test_null_reply_or_unknown_language_is_invalid() -> None:
    assert standardize(None, "pawsx", "en") is None
    assert standardize("yes", "pawsx", "fr") is None
    assert standardize("yes", "pawsx", ["en"]) is None
    assert read_reply(None).text == ""


def test_non_string_spans_match_nothing() -> None:
    labels, unmatched = token_labels(["a", "b"], ["b", None, ["a"]], None)
    assert labels.tolist() == [0, 1] and unmatched == []
    assert match_span(["a", None], None) == []


def test_many_answer_leads_on_one_line() -> None:
    # each "answer:" lead sliced the rest of the line: quadratic (bench/parsers.py measures it)
    assert parse_variables("answer: >" * 50_000, ["X"]) == {"X": None}


def test_bracket_broken_over_lines_is_no_one_line_reply() -> None:
    # the whole-reply rule read the bracket-joined text, answering "Answer: -" (not in the reply); hypothesis found it
    assert parse_variables("<<<Answer:\n-", ["X"]) == {"X": None}
