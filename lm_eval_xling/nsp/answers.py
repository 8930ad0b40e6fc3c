"""Recover the option letter a model's free-form reply commits to (direct or chain-of-thought).

The reply is first tidied: only what follows a closing ``</think>`` is judged, markdown emphasis goes, an
all-caps line is lower-cased (keeping its option letters), an option's quoted or bracketed text right after its
letter is dropped ("Option A (\"We're hungry!\") is ..." reads "Option A is ..."), and a naming word before a
letter ("option", "sentence", Swahili "sentensi", Hausa "jumla") becomes a mark that the letter is an option.

Then an ordered table of rules; the first that finds a letter wins:

1. ``_committed``: the last line that is only a letter (the NSP authors' own rule) or the last explicit final
   marker ("Final answer: B", "\\boxed{A}", "Answer: B" opening a line, Swahili "jibu la mwisho", Hausa "amsa ta
   karshe"), whichever comes later;
2. ``_concluded``: the last conclusion ("the answer is A", "B is the most logical", "So, B.", "I believe A",
   "Option B: correct", "Sentence A comes next", Swahili "jibu ni B", Hausa "amsar ita ce A");
3. ``_ending``: a letter ending the reply (the authors' fallback);
4. ``_leading``: a reply that opens with a lone letter ("B.", "(a)", "A: <sentence>");
5. ``_only``: the one option letter standing alone anywhere in the text.

A letter never counts where it is offered as an alternative ("A or B"), negated ("not A", "rather than A",
"A is wrong") or, for "A", is the article ("A man ..."). These checks are lookarounds inside each pattern, no
pattern nests or chains overlapping repeats, and each rule is one pass, so a call is linear in the reply (and
bounded: runaway output beyond 100,000 characters is judged on its tail).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

_FLAGS = re.IGNORECASE | re.MULTILINE
# A reply is judged on its last 100,000 characters: 20 times what 1024 generated tokens hold, so only runaway
# output is cut, and a megabyte of it still takes well under a second.
_MAX_CHARS = 100_000
_MARK = "\ue000"  # private-use character: "the next letter was named as an option"

_QUOTES = str.maketrans({"“": '"', "”": '"', "„": '"', "‘": "'", "’": "'", "\u00a0": " "})
_NOISE = re.compile(r"[*_`#\r" + _MARK + "]+")  # markdown emphasis and headings carry no answer
_BLANKS = re.compile(r"[ \t]+")
_THINK_END = re.compile(r"</think\s*>", re.IGNORECASE)
_THINK_START = re.compile(r"<think\s*>", re.IGNORECASE)
# A line with no lowercase ASCII letter and an all-caps run ("OPTION B IS A MORE ...").
_CAPS_LINE = re.compile(r"^(?=[^\n]*?[A-Z]{2})[^\na-z]*+$", re.MULTILINE)
_OPTION_NAMER = r"(?:option|choice|sentence|letter|chaguo|sentensi|jumla|jumlar)"
_ANSWER_NAMER = r"(?:answer|jibu|amsa|amsar|za[ɓb]i|za[ɓb]in)"
# Between a marker and its letter: punctuation, an optional naming word, an opening bracket or quote.
_GAP = rf"[\s:=>\-–—]*(?:{_ANSWER_NAMER}\b[ \t:]*)?[(\[{{\"']?"

# Words a letter "A" may precede without being the English article ("A is ...", not "A dog ...").
_FOLLOWERS = (
    r"(?:is|was|are|were|isn't|wasn't|seems|appears|fits|makes|would|could|should|will|may|might|can|cannot"
    r"|does|doesn't|did|has|had|because|since|as|which|that|and|or|nor|vs|versus|but|than|also|only|clearly"
    r"|comes|follows|flows|continues|provides|introduces|describes|mentions|talks|shows|suggests|implies|says"
    r"|offers|presents|directly|maintains|keeps|creates|shifts|breaks|ndiyo|ndio|ni|ita|ce|ne|ya|ta"
    r"|over|rather|instead|in|on|for|to|with|from|at|by|of|here|there|too|then|now|given|due|based|again|alone)\b"
)
_ARTICLE = rf"(?![ \t]+(?!{_FOLLOWERS})[a-z])"  # not followed by a word the article "a" would introduce
# Words that negate or set aside the letter after them (text is single-spaced, so fixed-width lookbehinds work).
_NEGATORS = (
    "not", "nor", "than", "over", "unlike", "versus", "vs", "vs.", "except", "against", "instead of",
    "rather than", "eliminate", "eliminates", "reject", "rejects", "exclude", "excludes", "si", "sio", "siyo", "ba",
)  # fmt: skip
_JOINTS = (" or ", " and ", " nor ", " vs ", " vs. ", " versus ", "/", " / ", " & ", ", ", " au ", " ko ", " na ")
_NOT_AFTER = (
    r"[)\]\"']?\s*(?:(?:is|are|was|seems|does|do|would\s+be|appears\s+to\s+be|remains)\s+)?"
    r"(?:not|never|n't|isn't|doesn't|wasn't|cannot|can't|incorrect|wrong|unlikely|less|false|implausible"
    r"|illogical|inconsistent|irrelevant|unrelated|fails|disrupts|breaks|lacks|si|sio|siyo|haifai|ba)\b"
)
_QUALITY = (
    r"(?:(?:the|a|an)\s+)?(?:(?:most|more|much|far|clearly|definitely|the|best|better)\s+){0,2}"
    r"(?:correct|right|best|better|likely|logical|plausible|coherent|natural|appropriate|sensible|consistent"
    r"|fitting|reasonable|suitable|answer|continuation|next\s+sentence)\b"
)
_VERDICTS = (
    r"(?:makes\s+(?:the\s+)?(?:most|more)\s+sense|fits\s+(?:best|better|well|the\s+story)|comes\s+next"
    r"|is\s+next|follows(?:\s+(?:more\s+)?(?:logically|naturally|best|directly|on))?\s*(?:[.!,;]|$)"
    r"|flows\s+(?:more\s+)?(?:naturally|logically|better|best|smoothly)|continues\s+the\s+story)"
)
_PHRASE_END = r"(?=[)\]}\"']?[ \t]*(?:[.!,;]|$))"

# Final markers: a letter right after one settles the answer.
_FINAL = (
    r"\bfinal\s+(?:answer|choice|option|selection|response|verdict|decision)(?:\s+(?:is|would\s+be|will\s+be))?\b",
    r"^[ \t]*(?:(?:my|the|correct)\s+){0,2}(?:answer|jibu|amsa|amsar)[ \t]*(?:is|ni|ita\s+ce)?[ \t]*:",
    r"\\boxed\{(?:\\text(?:bf)?\{)?",
    r"\bjibu(?:\s+(?:langu|lako|letu|sahihi))?\s+la\s+mwisho\b(?:\s+ni\b)?",  # Swahili "final answer (is)"
    r"\bamsa\w*(?:\s+ta)?\s+[kƙ]arshe\b(?:\s+(?:ita\s+ce|ce|shi\s+ne|ne)\b)?",  # Hausa "final answer (is)"
)
# Phrases that state the letter after them.
_SAID = (
    r"\b(?:answer|option|choice|continuation|ending|sentence|one|pick|selection|follows|next|best|logically"
    r"|naturally)\s+(?:is|would\s+be|will\s+be|must\s+be|should\s+be|seems\s+to\s+be|appears\s+to\s+be)\b",
    r"\b(?:is|be)[ \t]*:",
    r"\bI(?:\s+would|\s+will|'d|\s+therefore|\s+still)?\s+(?:choose|pick|select|go\s+with|opt\s+for|believe|think"
    r"|say|conclude|prefer)\b(?:\s+(?:that|it's|it\s+is))?",
    r"\bjibu\b(?:\s+\w+){0,3}?\s+ni\b",  # Swahili "jibu (sahihi) ni" = "the answer is"
    r"\bamsa\w*(?:\s+\w+){0,3}?\s+(?:ita\s+ce|shi\s+ne|ce|ne)\b",  # Hausa "amsar ita ce" = "the answer is"
    r"\bna\s+za[ɓb]i\b",  # Hausa "na zaɓi" = "I chose"
)
# Conclusion words: the letter after them must end its phrase ("So, A man ..." is prose).
_SO = (
    r"\b(?:therefore|thus|hence|so|overall|consequently|in\s+conclusion|in\s+summary|conclusion|kwa\s+hiyo"
    r"|kwa\s+hivyo|hivyo|basi|saboda\s+haka|don\s+haka)\b,?(?:\s+(?:it's|it\s+is|the\s+answer\s+is))?"
)
# What may follow a letter to make it a verdict.
_PRAISED = (
    r"[ \t]+(?:is|seems|would\s+be|appears(?:\s+to\s+be)?|remains)[ \t]+" + _QUALITY,
    r"[ \t]+(?:(?:clearly|definitely|also|therefore|thus|still)[ \t]+)?" + _VERDICTS,
    r"[ \t]*[:=\-–—][ \t]*(?:correct|right|yes|true|✓|✔)\b[ \t]*(?:[.!,;(]|$)",
    r"[ \t]+(?:ndiyo|ndio|ni[ \t]+(?:sahihi|bora|jibu|sentensi)|inafaa|inaendeleza)",  # Swahili "B ndiyo ..."
    r"[ \t]+(?:(?:ita[ \t]+)?(?:ce|ne)[ \t]+(?:ta[ \t]+fi|mafi|amsa|daidai)|ya[ \t]+fi|ta[ \t]+fi|shi[ \t]+ne)",
)


@dataclass(frozen=True)
class _Patterns:
    """The compiled patterns for one set of option letters."""

    caps_letters: tuple[tuple[re.Pattern[str], str], ...]
    bare: re.Pattern[str]
    option_text: re.Pattern[str]
    named: re.Pattern[str]
    lone: re.Pattern[str]
    final: re.Pattern[str]
    statements: tuple[re.Pattern[str], ...]
    ending: re.Pattern[str]
    leading: re.Pattern[str]
    tokens: tuple[tuple[str, re.Pattern[str]], ...]


def _letter(ups: str, lows: str, klass: str, *, article: bool, then: str = "") -> str:
    """An option letter that stands: not an alternative, not negated and, with `article`, not the article "A";
    `then` is what must follow it (checked first: it rules out most places cheaply)."""
    not_before = "".join(rf"(?<!\b{re.escape(w)} )" for w in _NEGATORS) + r"(?<!n't )"
    not_alternative = "".join(rf"(?<!{klass}{re.escape(j)})" for j in _JOINTS)
    joints = "|".join(re.escape(j.strip()) for j in _JOINTS)
    after = rf"(?![)\]\"']?\s*(?:{joints})\s*{_MARK}?[(\[\"']?{klass}(?!\w))(?!{_NOT_AFTER})"
    first = f"(?={_MARK}?[{ups.replace('|', '')}{lows.replace('|', '')}](?!\\w){then})"
    marked = f"(?:{_MARK}|(?<!{_MARK}))"  # a named letter is matched from its mark, so the checks above see its words
    # A lowercase letter must end its phrase, so "the answer is a bit unclear" is not option A.
    letter = rf"(?P<x>(?-i:{ups})|(?-i:{lows}){_PHRASE_END})"
    body = rf"{first}(?<!\w){not_before}{not_alternative}{marked}{letter}(?!\w){after}"
    if article:
        body += rf"(?!(?<=(?-i:[AI]))(?<!{_MARK}.)[ \t]+(?!{_FOLLOWERS})(?-i:[a-z]))"
    return body


def _caps_fixes(c: str) -> list[tuple[re.Pattern[str], str]]:
    """(pattern, replacement) pairs that restore option letter `c` in a lower-cased line: always after a naming word,
    elsewhere unless it reads as the article ("a man")."""
    if c not in "AI":
        return [(re.compile(rf"(?<!\w){c.lower()}(?!\w)"), c)]
    named = re.compile(rf"(\b{_OPTION_NAMER} ){c.lower()}(?!\w)")
    return [(named, rf"\1{c}"), (re.compile(rf"(?<!\w){c.lower()}(?!\w){_ARTICLE}"), c)]


@lru_cache(maxsize=32)
def _compile(choices: tuple[str, ...]) -> _Patterns:
    ups, lows = "|".join(choices), "|".join(c.lower() for c in choices)
    klass = f"(?-i:[{''.join(choices)}])"
    letter = _letter(ups, lows, klass, article=True)
    settled = _letter(ups, lows, klass, article=False)
    said, so, praised = "|".join(_SAID), _SO, "|".join(_PRAISED)
    return _Patterns(
        caps_letters=tuple(fix for c in choices for fix in _caps_fixes(c)),
        bare=re.compile(rf"(?<!\w)[(\[\"']({klass}|(?-i:[{lows.replace('|', '')}]))[)\]\"'](?!\w)"),
        option_text=re.compile(
            rf"(?<!\w)({klass})[ \t]?[:,\-–—]?[ \t]?(?:\([^()\n ]*+ [^()\n]*\)|\"[^\"\n ]*+ [^\"\n]*\")"
        ),
        named=re.compile(rf"\b{_OPTION_NAMER} [(\[\"']?({klass})[)\]\"']?(?!\w)", _FLAGS),
        lone=re.compile(rf"^[ \t]*[(\[{{\"']?{_MARK}?(?P<x>{ups})[)\]}}\"']?[ \t]*\.?[ \t]*$", _FLAGS),
        final=re.compile(rf"(?:{'|'.join(_FINAL)}){_GAP}{settled}", _FLAGS),
        statements=(
            re.compile(rf"(?:{said}){_GAP}{letter}", _FLAGS),
            re.compile(rf"{so}{_GAP}{letter}{_PHRASE_END}", _FLAGS),
            re.compile(_letter(ups, lows, klass, article=True, then=f"(?:{praised})"), _FLAGS),
        ),
        ending=re.compile(rf"{settled}[)\]}}\"'.!]*\s*\Z", _FLAGS),
        leading=re.compile(rf"\A\s*[(\[{{\"']?{settled}(?:[)\]}}\"']|[ \t]*(?:[.:,\-–—]|$))", _FLAGS),
        tokens=tuple((c, re.compile(_letter(c, c.lower(), klass, article=True), _FLAGS)) for c in choices),
    )


def _prepare(text: str, patterns: _Patterns) -> str:
    """The part of the reply that carries its verdict, in a uniform shape."""
    if closing := list(_THINK_END.finditer(text))[-1:]:
        text = text[closing[0].end() :]
    elif opening := _THINK_START.search(text):
        text = text[: opening.start()]  # reasoning cut off before it closed: nothing follows it
    if len(text) > _MAX_CHARS:
        text = "...\n" + text[-_MAX_CHARS:]  # a cut start is no reply's opening letter
    text = _NOISE.sub("", text.translate(_QUOTES))
    text = _CAPS_LINE.sub(lambda m: _uncap(m[0], patterns), text)
    text = _BLANKS.sub(" ", text)
    text = patterns.bare.sub(r"\1", patterns.option_text.sub(r"\1", text))
    return patterns.named.sub(_MARK + r"\1", text)


def _uncap(line: str, patterns: _Patterns) -> str:
    """Lower-case an all-caps line so the article "A" reads as one again; option letters stay letters."""
    line = line.lower()
    for pattern, upper in patterns.caps_letters:
        line = pattern.sub(upper, line)
    return line


def _latest(pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    last = None
    for last in pattern.finditer(text):  # noqa: B007 - only the last one is wanted
        pass
    return last


def _committed(text: str, patterns: _Patterns) -> str | None:
    found = [m for m in (_latest(patterns.lone, text), _latest(patterns.final, text)) if m]
    return max(found, key=lambda m: m.start("x"))["x"] if found else None


def _concluded(text: str, patterns: _Patterns) -> str | None:
    found = [m for p in patterns.statements if (m := _latest(p, text))]
    return max(found, key=lambda m: m.start("x"))["x"] if found else None


def _ending(text: str, patterns: _Patterns) -> str | None:
    match = patterns.ending.search(text, max(0, len(text.rstrip()) - 8))
    return match["x"] if match else None


def _leading(text: str, patterns: _Patterns) -> str | None:
    match = patterns.leading.match(text)
    return match["x"] if match else None


def _only(text: str, patterns: _Patterns) -> str | None:
    found = [letter for letter, token in patterns.tokens if token.search(text)]
    return found[0] if len(found) == 1 else None


_RULES: tuple[Callable[[str, _Patterns], str | None], ...] = (_committed, _concluded, _ending, _leading, _only)


def _letter_key(c: str) -> str:
    """One spelling per option letter: the Kelvin sign "\u212a" and "k" are both "K" (regex case-folding treats them
    as one letter, so the lookup must too)."""
    return unicodedata.normalize("NFKC", c).strip().upper()


def extract_choice(text: object, choices: object = ("A", "B")) -> str | None:
    """Return the option letter a model's reply commits to, or None when it commits to none (invalid); any input
    is taken (choices that are not one-letter strings are ignored)."""
    if not isinstance(choices, list | tuple):
        return None
    canon = {_letter_key(c): c for c in choices if isinstance(c, str) and len(_letter_key(c)) == 1}
    canon = {key: c for key, c in canon.items() if key.isalpha()}
    if not isinstance(text, str) or not canon:
        return None
    patterns = _compile(tuple(sorted(canon)))
    prepared = _prepare(text, patterns)
    for rule in _RULES:
        if letter := rule(prepared, patterns):
            return canon.get(_letter_key(letter))
    return None
