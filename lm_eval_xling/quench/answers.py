"""Recover the answer a QUENCH reply gives for each masked variable (X, Y, ...).

Rules, in order (a reply is read line by line; an answer never spans lines, except that a bracket opened
as "<<<X:" may put its answer on the next line):
1. A label is a requested variable standing alone, in one of three forms:
   a. bracketed: "<<<X: a>>>" with 1-3 "<", optional spaces or "**", and ":", "=", "-" or a space (the
      authors' format "<X answer>"); the variable's case does not matter inside brackets ("<<<x: a>>>");
   b. plain (case-sensitive): "X: a", "X = a", "X - a", "X -> a", "**X:** a", a table row "| X | a |" or a
      JSON key '"X": "a"', where X opens the line (after indentation, "#", ">", a "- "/"1." list marker),
      follows a ";", ",", "|", "." or " and ", or follows "answer is"/"answers are"/"answer:";
   c. "X is a": as (b) but never after "." or "answer is" (so in "X: Paris. Y is the capital", Y is
      prose, not a label).
2. The answer runs from its label to the next label on the line or the line's end, and stops at the
   first ">"; an answer not closed by ">" also stops at a sentence break (". It ..." after a word of
   3+ lowercase letters or a digit, so "J. K. Rowling" and "St. Louis" survive).
3. Cleaning strips surrounding spaces, quotes, "*", "_", "`", "<", ">", ";", ",", ":" and one trailing
   period (kept after a one-letter abbreviation, as in "D.C."); nothing alphanumeric left -> no answer.
4. Per variable the strongest statement wins, and among equals the last one (CoT replies restate the final
   answer at the end). Strongest first: anything after a "final answer" line or lead; then a statement of
   the requested format ("The answer is ..."); then the label forms, a > b > c.
5. With one requested variable, the text after the last "answer (to this question) is/would be/:" is such a
   format statement even without a label (a leading "<X" of the authors' format is dropped), unless the
   variable letter still stands alone in it; with no label at all, the whole reply also counts when it is one
   line of at most 100 characters. Several variables always need labels.
6. The keys are exactly `variables`, in order; an unanswered variable maps to None. Never raises; no
   pattern has adjacent overlapping quantifiers, so matching stays linear-ish.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Sequence
from functools import lru_cache

_LINE_START = r"^[ \t>#]*(?:[-*+•][ \t]+|\d+[.)][ \t]+)?\**"
_SEPARATED = r"(?<=[;,|])[ \t]*\**|(?<=[ \t])and[ \t]+\**"
_AFTER_ANSWER = r"(?i:\banswers?\b\**[ \t]*(?:is|are|:)(?!\w)[* \t:]*)"
_STRONG_SEP = r"(?:[ \t]*(?:[:=|]|->|→)|[ \t]+[-–—](?=[ \t]))\**[ \t]*"
_ANSWER_IS = re.compile(
    r"(?i)\banswers?\b(?:[ \t]+(?:to|for)[ \t]+(?:this|the)[ \t]+(?:question|clue|quiz|variable[ \t]+\w+))?"
    r"[\"']?\**[ \t]*(?:is|would\s+be|:)(?!\w)[* \t:]*"
)
_PLACEHOLDER = re.compile(r"(?i)(?:x[ \t]+|your[ \t]+)?answer")  # the format's "<X answer>" copied as is
_FINAL = re.compile(r"(?i)\bfinal\s+answers?\b")
# "<<<X:" with its answer on the next line: joined into one line before reading
_BRACKET_BREAK = re.compile(r"(<{1,3}[ \t]*\**[^\W\d_]\w{0,30}\**[ \t]*[:=\-–—])[ \t]*(?:\r?\n[ \t]*)+")
_FORMAT, _FINAL_BONUS = 5, 10  # strength added to a format statement ("The answer is") and to a final answer
_SENTENCE_END = re.compile(r"(?:(?<=[a-z]{3})|(?<=\d))[.!?][ \t]+(?=[A-Z])")
_ABBREVIATION = re.compile(r"(?:^|[\s.])\w\.$")
_ALNUM = re.compile(r"[^\W_]")
# Everything str.isspace() accepts (all below U+3001), so one str.strip() call does the whole job.
_STRIP = "".join(chr(c) for c in range(0x3001) if chr(c).isspace()) + "*_`\"'“”‘’<>;,:|{}"


@lru_cache(maxsize=64)
def _compile(variables: tuple[str, ...]) -> tuple[tuple[int, re.Pattern[str]], ...]:
    """(strength, label pattern): 0 = "X is", 1 = plain or JSON key, 2 = bracketed."""
    names = "|".join(re.escape(v) for v in sorted(variables, key=len, reverse=True))
    var = rf"(?<!\w)(?P<v>{names})(?!\w)\**"
    return (
        (0, re.compile(rf"(?:{_LINE_START}|{_SEPARATED}){var}[ \t]+is(?!\w)[ \t:]*")),
        (1, re.compile(rf"(?:{_LINE_START}|{_SEPARATED}|(?<=\.)[ \t]+\**|{_AFTER_ANSWER}){var}{_STRONG_SEP}")),
        (1, re.compile(rf"(?<![\w\"'])[\"'](?P<v>{names})[\"'][ \t]*:[ \t]*")),
        (2, re.compile(rf"<{{1,3}}[ \t]*\**(?<!\w)(?P<v>(?i:{names}))(?!\w)\**(?:[ \t]*[:=\-–—][ \t]*|[ \t]+)")),
    )


@lru_cache(maxsize=64)
def _bracket_label(variable: str) -> re.Pattern[str]:
    """A leading "<X " / "<<<x:" (the authors' format, or the variable itself) in an unlabelled answer."""
    names = "X" if variable == "X" else f"X|{re.escape(variable)}"
    return re.compile(rf"^[ \t]*<{{1,3}}[ \t]*\**(?i:{names})(?!\w)\**(?:[ \t]*[:=\-–—][ \t]*|[ \t]+)")


def _clean(segment: str) -> str | None:
    """The answer in the text that follows a label, or None when it holds none."""
    closed = segment.find(">")
    segment = segment[:closed] if closed >= 0 else _SENTENCE_END.split(segment, maxsplit=1)[0]
    segment = segment.strip(_STRIP)
    if segment.endswith(".") and not _ABBREVIATION.search(segment[-3:]):
        segment = segment[:-1].strip(_STRIP)
    return segment if _ALNUM.search(segment) and not _PLACEHOLDER.fullmatch(segment) else None


def _format_answer(text: str, variable: str) -> tuple[int, str] | None:
    """Rule 5: (strength, answer) of the last "answer is ..." statement of a single-variable reply."""
    alone = re.compile(rf"(?<!\w){re.escape(variable)}(?!\w)")
    lines = text.splitlines()
    for index in range(len(lines) - 1, -1, -1):
        line = lines[index]
        if "nswer" not in line.lower():  # a cheap test before the pattern, for replies of many lines
            continue
        closers = [i for i, c in enumerate(line) if c == ">"]
        for match in reversed(list(_ANSWER_IS.finditer(line))):
            # the answer stops at the first ">" (see _clean): slice no further, or many leads cost quadratic time
            after = bisect_left(closers, match.end())
            stop = closers[after] + 1 if after < len(closers) else len(line)
            answer = _clean(_bracket_label(variable).sub("", line[match.end() : stop], count=1))
            if answer:
                if alone.search(answer):
                    return None
                final = any(_FINAL.search(earlier) for earlier in lines[:index]) or _FINAL.search(line)
                return _FORMAT + (_FINAL_BONUS if final else 0), answer
    return None


def _whole_reply(text: str, variable: str) -> str | None:
    """Rule 5: a short one-line reply with no label is the answer."""
    reply = text.strip()
    if (
        len(reply) <= 100
        and len(reply.splitlines()) == 1
        and not re.search(rf"(?<!\w){re.escape(variable)}(?!\w)", reply)
    ):
        return _clean(reply)
    return None


def _first(pattern: re.Pattern[str], line: str) -> float:
    """Where `pattern` first starts in `line` (infinity when it does not)."""
    match = pattern.search(line)
    return match.start() if match else float("inf")


def parse_variables(text: object, variables: object) -> dict[str, str | None]:
    """Map each variable to the answer the reply gives for it, or None when the reply gives none; any input is
    taken (a variable that is not a non-blank string is never answered, and is a key only if hashable)."""
    variables = list(variables) if isinstance(variables, Sequence) and not isinstance(variables, str) else []
    result: dict[str, str | None] = {v: None for v in variables if isinstance(v, str)}
    wanted = tuple(dict.fromkeys(v for v in variables if isinstance(v, str) and v.strip()))
    if not isinstance(text, str) or not wanted:
        return result
    reply, text = text, _BRACKET_BREAK.sub(r"\1 ", text)
    patterns = _compile(wanted)
    canonical = {v.lower(): v for v in reversed(wanted)} | {v: v for v in wanted}
    best: dict[str, tuple[int, str]] = {}
    final = False
    for line in text.splitlines():
        if not line or line.isspace():
            continue
        found = sorted(((m.start(), s, m) for s, p in patterns for m in p.finditer(line)), key=lambda f: f[0])
        labels: list[tuple[int, re.Match[str]]] = []
        for start, strength, match in found:
            if not labels or start >= labels[-1][1].end():  # a lead ("answer is") may cover a later label
                labels.append((strength, match))
        final_at, stated_at = _first(_FINAL, line), _first(_ANSWER_IS, line)
        for i, (strength, match) in enumerate(labels):
            stop = labels[i + 1][1].start() if i + 1 < len(labels) else len(line)
            answer = _clean(line[match.end() : stop])
            final = final or final_at < match.end()
            strength += _FINAL_BONUS if final else _FORMAT if stated_at < match.end() else 0
            variable = canonical[match["v"]] if match["v"] in canonical else canonical[match["v"].lower()]
            if answer and strength >= best.get(variable, (-1, ""))[0]:
                best[variable] = (strength, answer)
        final = final or bool(_FINAL.search(line))
    if len(wanted) == 1:
        stated = _format_answer(text, wanted[0])
        if stated and stated[0] >= best.get(wanted[0], (-1, ""))[0]:
            best[wanted[0]] = stated
        elif not best and (whole := _whole_reply(reply, wanted[0])):
            best[wanted[0]] = (-1, whole)
    for variable, (_, answer) in best.items():
        result[variable] = answer
    return result
