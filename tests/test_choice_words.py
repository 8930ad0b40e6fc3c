"""The choice reader's word lists, one file per language (lm_eval_xling/choice_words): each file is well formed,
and in each language a commitment in its own words is read, mirrored, and taken back by its own negators."""

from __future__ import annotations

import pytest
import yaml

from lm_eval_xling import choice_words
from lm_eval_xling.choices import read_choice
from lm_eval_xling.nsp_global.languages import LANGUAGES

LISTS = (*choice_words.KINDS, "ordinals")
TURKIC = ("az", "kk", "tr", "uz", "crh", "kaa", "tt", "ug", "ky", "tk", "ba")


def _words(code: str, kind: str) -> list[str]:
    return [w.rstrip("*") for w in choice_words._file(code)[kind]]


def test_every_task_language_has_a_file() -> None:
    assert set(LANGUAGES) | set(TURKIC) | {"en", "de", "zh", "sw", "ha"} <= set(choice_words.languages())


@pytest.mark.parametrize("code", choice_words.languages())
def test_a_file_holds_every_list_and_nothing_else(code: str) -> None:
    path = choice_words._FOLDER / f"{code}.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert set(data) == {"name", *LISTS}, path
    for kind in choice_words.KINDS:
        assert all(isinstance(w, str) and w.strip() for w in data[kind]), (path, kind)
    assert len(data["ordinals"]) == 5 and all(isinstance(o, list) for o in data["ordinals"]), path


@pytest.mark.parametrize("code", [c for c in choice_words.languages() if choice_words._file(c)["answer"]])
def test_an_answer_in_the_languages_own_words_is_read_either_way(code: str) -> None:
    for answer in _words(code, "answer"):
        for letter in "AB":
            assert read_choice(f"{answer}: {letter}", language=code) == letter, (answer, letter)


@pytest.mark.parametrize("code", [c for c in choice_words.languages() if choice_words._file(c)["negation"]])
def test_the_languages_own_negators_take_an_option_back(code: str) -> None:
    """A mention right after a negator ("not B", "değil" before it) is no commitment, whatever stands before."""
    for negator in _words(code, "negation"):
        assert read_choice(f"Final answer: A\n\n{negator} B", language=code) == "A", negator


def test_the_words_that_take_back_are_the_reply_languages_own() -> None:
    """Spanish "ni" negates; Swahili's "ni" is the copula of "Jibu ni B"."""
    assert read_choice("Jibu sahihi ni B.", language="sw") == "B"
    assert read_choice("La respuesta no es A ni B.", language="es") is None


def test_a_language_code_reads_the_file_of_its_language() -> None:
    assert [choice_words.base_language(c) for c in ("kk-Latn", "uz_Cyrl", "ku", "fil", "no", None)] == [
        "kk", "uz", "kmr", "tl", "nb", None,
    ]  # fmt: skip
