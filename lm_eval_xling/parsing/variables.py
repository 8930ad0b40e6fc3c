"""Recover the answer a QUENCH reply gives for each masked variable (X, Y, ...).

Rules, in order (a reply is read line by line; an answer never spans lines):
1. A label is a requested variable standing alone (case-sensitive), in one of three forms:
   a. bracketed: "<<<X: a>>>" with 1-3 "<", optional spaces or "**", and ":", "=" or "-";
   b. plain: "X: a", "X = a", "X - a", "X -> a", "**X:** a", where X opens the line (after indentation,
      "#", ">", a "- "/"1." list marker), follows a ";", ",", "|", "." or " and ", or follows
      "answer is"/"answers are"/"answer:";
   c. "X is a": as (b) but never after "." or "answer is" (so in "X: Paris. Y is the capital", Y is
      prose, not a label).
2. The answer runs from its label to the next label on the line or the line's end, and stops at the
   first ">"; an answer not closed by ">" also stops at a sentence break (". It ..." after a word of
   3+ lowercase letters or a digit, so "J. K. Rowling" and "St. Louis" survive).
3. Cleaning strips surrounding spaces, quotes, "*", "_", "`", "<", ">", ";", ",", ":" and one trailing
   period (kept after a one-letter abbreviation, as in "D.C."); nothing alphanumeric left -> no answer.
4. Per variable the strongest form present wins (a > b > c), and among those the last one: CoT replies
   restate the final answer at the end.
5. With one requested variable and no label: the text after the last "answer is/would be/:", else the
   whole reply when it is one line of at most 100 characters; either only if the variable letter does
   not stand alone in it. Several variables always need labels.
6. The keys are exactly `variables`, in order; an unanswered variable maps to None. Never raises; no
   pattern has adjacent overlapping quantifiers, so matching stays linear-ish.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

_LINE_START = r"^[ \t>#]*(?:[-*+•][ \t]+|\d+[.)][ \t]+)?\**"
_SEPARATED = r"(?<=[;,|])[ \t]*\**|(?<=[ \t])and[ \t]+\**"
_AFTER_ANSWER = r"(?i:\banswers?\b\**[ \t]*(?:is|are|:)(?!\w)[* \t:]*)"
_STRONG_SEP = r"(?:[ \t]*(?:[:=]|->|→)|[ \t]+[-–—](?=[ \t]))\**[ \t]*"
_ANSWER_IS = re.compile(r"(?i)\banswers?\b\**[ \t]*(?:is|would\s+be|:)(?!\w)[* \t:]*")
_SENTENCE_END = re.compile(r"(?:(?<=[a-z]{3})|(?<=\d))[.!?][ \t]+(?=[A-Z])")
_ABBREVIATION = re.compile(r"(?:^|[\s.])\w\.$")
_ALNUM = re.compile(r"[^\W_]")
# Everything str.isspace() accepts (all below U+3001), so one str.strip() call does the whole job.
_STRIP = "".join(chr(c) for c in range(0x3001) if chr(c).isspace()) + "*_`\"'“”‘’<>;,:"


@lru_cache(maxsize=64)
def _compile(variables: tuple[str, ...]) -> tuple[re.Pattern[str], ...]:
    """Label patterns, indexed by strength: 0 = "X is", 1 = plain, 2 = bracketed."""
    names = "|".join(re.escape(v) for v in sorted(variables, key=len, reverse=True))
    var = rf"(?<!\w)(?P<v>{names})(?!\w)\**"
    return (
        re.compile(rf"(?:{_LINE_START}|{_SEPARATED}){var}[ \t]+is(?!\w)[ \t:]*"),
        re.compile(rf"(?:{_LINE_START}|{_SEPARATED}|(?<=\.)[ \t]+\**|{_AFTER_ANSWER}){var}{_STRONG_SEP}"),
        re.compile(rf"<{{1,3}}[ \t]*\**{var}[ \t]*[:=\-–—][ \t]*"),
    )


def _clean(segment: str) -> str | None:
    """The answer in the text that follows a label, or None when it holds none."""
    closed = segment.find(">")
    segment = segment[:closed] if closed >= 0 else _SENTENCE_END.split(segment, maxsplit=1)[0]
    segment = segment.strip(_STRIP)
    if segment.endswith(".") and not _ABBREVIATION.search(segment[-3:]):
        segment = segment[:-1].strip(_STRIP)
    return segment if _ALNUM.search(segment) else None


def _unlabelled(text: str, variable: str) -> str | None:
    """Rule 5: the answer of a single-variable reply that carries no label."""
    alone = re.compile(rf"(?<!\w){re.escape(variable)}(?!\w)")
    for line in reversed(text.splitlines()):
        for match in reversed(list(_ANSWER_IS.finditer(line))):
            answer = _clean(line[match.end() :])
            if answer:
                return None if alone.search(answer) else answer
    reply = text.strip()
    if len(reply) <= 100 and len(reply.splitlines()) == 1 and not alone.search(reply):
        return _clean(reply)
    return None


def parse_variables(text: str, variables: Sequence[str]) -> dict[str, str | None]:
    """Map each variable to the answer the reply gives for it, or None when the reply gives none."""
    result: dict[str, str | None] = dict.fromkeys(variables)
    wanted = tuple(dict.fromkeys(v for v in variables if isinstance(v, str) and v.strip()))
    if not isinstance(text, str) or not wanted:
        return result
    patterns = _compile(wanted)
    best: dict[str, tuple[int, str]] = {}
    for line in text.splitlines():
        found = sorted(
            ((m.start(), s, m) for s, p in enumerate(patterns) for m in p.finditer(line)), key=lambda f: f[0]
        )
        labels: list[tuple[int, re.Match[str]]] = []
        for start, strength, match in found:
            if not labels or start >= labels[-1][1].end():  # a lead ("answer is") may cover a later label
                labels.append((strength, match))
        for i, (strength, match) in enumerate(labels):
            stop = labels[i + 1][1].start() if i + 1 < len(labels) else len(line)
            answer = _clean(line[match.end() : stop])
            if answer and strength >= best.get(match["v"], (-1, ""))[0]:
                best[match["v"]] = (strength, answer)
    if not best and len(wanted) == 1:
        result[wanted[0]] = _unlabelled(text, wanted[0])
    for variable, (_, answer) in best.items():
        result[variable] = answer
    return result
