"""Recover the option letter a model's free-form reply commits to (direct or chain-of-thought).

Rules, first hit wins:
1. an explicit final marker ("Final answer: B", "\\boxed{B}", "Answer: (A)" opening a line),
   last one in the text;
2. an answer statement ("the answer is A", "I choose B", "Therefore, B.", "Option B is the most
   logical", Swahili "jibu ni B", Hausa "amsar ita ce A"), last one in the text;
3. a reply that is, or starts with, a lone letter ("B.", "**A**", "(b)", "Option A", "A: ...");
4. otherwise the one choice letter standing alone in the text; None for none or several.
A letter joined to another ("A or B", "A/B"), negated ("not A", "B is wrong") or used as the
article "a"/"A" never counts. No pattern has adjacent overlapping quantifiers, so matching stays
linear-ish.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

_FLAGS = re.IGNORECASE | re.MULTILINE
_NOISE = re.compile(r"[*_`#\r]+")  # markdown emphasis/headings and CRs carry no answer
_QUALITY = (
    r"(?:(?:the\s+)?(?:(?:most|more)\s+)?(?:correct|right|best|better|likely|logical|plausible"
    r"|coherent|natural|appropriate|sensible|consistent|fitting|reasonable)\b)"
)
_NEGATED = r"(?<!\bnor\s)(?<!\bor\s)(?<!\band\s)(?<!\bnot\s)(?<!n't\s)(?<!n’t\s)"
# Between a marker and its letter: punctuation, then an optional "option", then an opening bracket.
_GAP = r"[\s:=>\-–—]*(?:(?:option|choice|letter)\b[\s:]*)?[(\[{\"'“‘]?"
_FINAL = (
    r"\bfinal\s+(?:answer|choice|option|selection|response|verdict)"
    r"(?:\s+(?:is|would\s+be|will\s+be))?\b|^[ \t]*answer\s*:|\\boxed\{(?:\\text(?:bf)?\{)?"
)
_STATEMENTS = (
    r"\b(?:answer|option|choice|continuation|ending|sentence)\s+"
    r"(?:is|would\s+be|will\s+be|must\s+be|should\s+be)\b" + _GAP + "{L}",
    r"\bI(?:\s+would|\s+will|'d|’d)?\s+(?:choose|pick|select|go\s+with)\b" + _GAP + "{L}",
    r"\bjibu(?:\s+\w+){0,2}?\s+ni\b" + _GAP + "{L}",  # Swahili "jibu (sahihi) ni" = "the answer is"
    r"\bamsar?(?:\s+\w+)?\s+ita\s+ce\b" + _GAP + "{L}",  # Hausa "amsar ita ce" = "the answer is"
    # A conclusion word counts only when the letter ends the sentence ("So, A man ..." is prose).
    r"\b(?:therefore|thus|hence|so|overall)\b,?(?:\s+it(?:'s|\s+is))?" + _GAP + r"{L}(?=[)\]}\"'”]?[ \t]*(?:[.!]|$))",
    _NEGATED
    + r"(?:(?:option|choice)\s+)?{L}(?=\s+(?:is|seems|would\s+be)\s+"
    + _QUALITY
    + r"|\s+makes\s+(?:the\s+)?(?:most|more)\s+sense|\s+fits\s+(?:best|better))",
)
_LEADING = r"\A\s*(?:(?:option|choice|letter)\s*)?[(\[{\"'“‘]?{L}(?:[)\]}\"'”]|[ \t]*(?:[.:,\-–—]|$))"
# Words that may follow a bare "A" without it being the article ("A is ...", not "A dog").
_FOLLOWERS = (
    r"(?:is|was|are|seems|fits|makes|would|could|should|because|since|sounds|looks"
    r"|or|and|nor|vs)\b"
)


@lru_cache(maxsize=32)
def _compile(choices: tuple[str, ...]) -> tuple[re.Pattern[str], ...]:
    ordered = sorted(choices, key=len, reverse=True)
    ups = "|".join(re.escape(c.upper()) for c in ordered)
    lows = "|".join(re.escape(c.lower()) for c in ordered)
    neg = (
        r"(?![ \t]+(?:(?:is|are|was|seems|does|do)[ \t]*)?"
        r"(?:not|n['’]t|incorrect|wrong|unlikely|less|false|implausible|illogical|inconsistent)\b)"
    )
    # A lowercase letter must end its phrase, so "the answer is a bit unclear" is not option A.
    letter = (
        rf"{_NEGATED}(?<!\w)(?P<x>(?-i:{ups})|(?-i:{lows})(?=[)\]}}\"'”]|[ \t]*(?:[.,;:!?]|$)))"
        rf"(?!\w)(?![ \t]*(?:\bor\b|\band\b|\bnor\b|\bvs\b|/|&|,)[ \t]*(?:option[ \t]+)?[(\[]?"
        rf"(?-i:{ups})(?!\w)){neg}"
    )
    token = rf"(?<!\bnot\s)(?<!n't\s)(?<!n’t\s)(?<!\w)(?P<x>(?-i:{ups}))(?!\w){neg}"
    if words := "|".join(w for w in "AI" if w in {c.upper() for c in choices}):
        # "A"/"I" before a lowercase word is the English word, unless it follows "option".
        token += (
            rf"(?!(?<=\b(?-i:{words}))(?<!option\s(?-i:{words}))(?<!choice\s(?-i:{words}))"
            rf"[ \t]+(?!{_FOLLOWERS})(?-i:[a-z]))"
        )
    return (
        re.compile(rf"(?:{_FINAL}){_GAP}{letter}", _FLAGS),
        *(re.compile(s.replace("{L}", letter), _FLAGS) for s in _STATEMENTS),
        re.compile(_LEADING.replace("{L}", letter), _FLAGS),
        re.compile(token, _FLAGS),
    )


def _last(patterns: Sequence[re.Pattern[str]], text: str) -> re.Match[str] | None:
    """The match that starts last in `text` across `patterns`."""
    best = None
    for pattern in patterns:
        for match in pattern.finditer(text):
            if best is None or match.start() > best.start():
                best = match
    return best


def extract_choice(text: str, choices: Sequence[str] = ("A", "B")) -> str | None:
    """Return the option letter a model's reply commits to, or None when it commits to none
    (invalid)."""
    canon = {c.upper(): c for c in choices if isinstance(c, str) and c.strip()}
    if not isinstance(text, str) or not canon:
        return None
    final, *statements, leading, token = _compile(tuple(canon.values()))
    text = _NOISE.sub("", text)
    match = _last([final], text) or _last(statements, text) or leading.match(text)
    if match:
        return canon[match["x"].upper()]
    found = {m["x"] for m in token.finditer(text)}
    return canon[found.pop()] if len(found) == 1 else None
