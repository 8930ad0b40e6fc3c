"""The choice reader as an lm-eval filter (`function: xling_choice` in any task's `filter_list`).

Registered under that name whenever lm-eval's registry is imported in an environment where lm-eval-xling is
installed (`lm_eval_xling._autoinclude` adds it, lazily, as "lm_eval_xling.filters:ChoiceFilter"), so a YAML names
it without importing anything. Each reply becomes the letter it commits to (`lm_eval_xling.choices.read_choice`,
with the options' letters and texts taken from the document) or the invalid marker.
"""

from __future__ import annotations

import string
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from lm_eval.api.filter import Filter
from lm_eval.api.registry import register_filter

from lm_eval_xling.choices import read_choice
from lm_eval_xling.errors import UserError

NAME = "xling_choice"


@register_filter(NAME)
class ChoiceFilter(Filter):
    """Each reply -> the letter of the option it commits to, or `invalid` (no commitment, two at once, a hedge)."""

    def __init__(
        self,
        choices: str | Sequence[str] = "choices",
        letters: Sequence[str] | None = None,
        language: str | None = None,
        language_field: str | None = None,
        invalid: str = "[invalid]",
    ) -> None:
        """`choices`: the document field holding the options' texts (a list), or a list of fields, one per option
        (Global-MMLU's `option_a`..`option_d`, MMLU-ProX's `option_0`..`option_9`; a null or empty one is an option
        the document lacks, and its letter is skipped). `letters`: the options' letters (default A, B, C, ... for as
        many texts). `language` (a code: "sw", "de") or `language_field` (the document field holding it) picks the
        reader's words for negation, doubt and conditionals; neither: English's. `invalid`: what an unread reply
        becomes (lm-eval's regex filters' `fallback`)."""
        if isinstance(choices, str):
            fields_ok = bool(choices)
        else:
            fields_ok = isinstance(choices, Sequence) and bool(choices)
            fields_ok = fields_ok and all(isinstance(f, str) and f for f in choices)
        if not fields_ok:
            raise UserError(f"{NAME}: `choices` must be a field name or a list of field names, got {choices!r}")
        if letters is not None:
            letters = tuple(letters)
            if not letters or not all(isinstance(x, str) and x for x in letters) or len(set(letters)) != len(letters):
                raise UserError(
                    f"{NAME}: `letters` must be distinct non-empty strings, got {list(letters)!r}"
                    " (quote YAML words such as 'yes' and 'no', which YAML reads as true and false)"
                )
        if language is not None and language_field is not None:
            raise UserError(f"{NAME}: give `language` or `language_field`, not both")
        for name, value in (("language", language), ("language_field", language_field)):
            if value is not None and not isinstance(value, str):
                raise UserError(f"{NAME}: `{name}` must be a string, got {value!r}")
        if not isinstance(invalid, str):
            raise UserError(f"{NAME}: `invalid` must be a string, got {invalid!r}")
        self.choices = choices
        self.letters = letters
        self.language = language
        self.language_field = language_field
        self.invalid = invalid

    def options(self, doc: Mapping[str, Any]) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The document's option letters and their texts."""
        if isinstance(self.choices, str):
            texts = _field(doc, self.choices, "choices")
            if not isinstance(texts, Sequence) or isinstance(texts, str | bytes) or not texts:
                raise UserError(
                    f"{NAME}: the document's field {self.choices!r} (choices) must be a non-empty list of the options'"
                    f" texts, got {texts!r}"
                )
            present = list(enumerate(texts))
        else:
            present = [(i, _field(doc, name, "choices")) for i, name in enumerate(self.choices)]
            present = [(i, text) for i, text in present if text is not None and text != ""]
            if not present:
                raise UserError(f"{NAME}: a document has no options: {_where(self.choices)} are all null or empty")
        letters = self.letters or tuple(string.ascii_uppercase)
        if present and present[-1][0] >= len(letters):
            raise UserError(
                f"{NAME}: a document has {present[-1][0] + 1} options ({_where(self.choices)}) but only"
                f" {len(letters)} letters: {list(letters)!r}"
            )
        return tuple(letters[i] for i, _ in present), tuple("" if t is None else str(t) for _, t in present)

    def language_of(self, doc: Mapping[str, Any]) -> str | None:
        if self.language_field is None:
            return self.language
        value = _field(doc, self.language_field, "language_field")
        return value if isinstance(value, str) and value else None

    def apply(self, resps: Iterable[Sequence[str]], docs: Sequence[Mapping[str, Any]]) -> list[list[str]]:
        out = []
        for replies, doc in zip(resps, docs, strict=True):
            letters, texts = self.options(doc)
            language = self.language_of(doc)
            out.append([read_choice(r, letters, texts, language=language) or self.invalid for r in replies])
        return out


def _field(doc: Mapping[str, Any], name: str, argument: str) -> Any:
    if not isinstance(doc, Mapping) or name not in doc:
        fields = ", ".join(map(str, doc)) if isinstance(doc, Mapping) else type(doc).__name__
        raise UserError(f"{NAME}: the document has no field {name!r} (set by `{argument}`); its fields: {fields}")
    return doc[name]


def _where(choices: str | Sequence[str]) -> str:
    return f"field {choices!r}" if isinstance(choices, str) else f"fields {list(choices)!r}"
