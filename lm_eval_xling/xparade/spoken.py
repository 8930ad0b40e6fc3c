"""Reading an X-PARADE reply spoken aloud (`spans.py`): a transcript of an annotator who dictates the spans with no
quotes and no marks ("okay so new one is inaugurada en marzo and inferable is seis por hora"). A careful listener
hears the target's words: each run of words the reply says in the target's order is a span (a number said in words
between two runs that the target holds as digits bridges them), labelled by the last label said before it on its
line; a label said after a turn ("no sorry that one is inferable") relabels the run before the turn."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import defaultdict

from lm_eval_xling.replies import CJK, TAKEN_BACK
from lm_eval_xling.xparade.quoted import INF, NEW, label_marks
from lm_eval_xling.xparade.span_f1 import SpanMatcher, loose

_WORD = re.compile(rf"[{CJK}]|[^\s{CJK}]+")  # a word, a character of a script written without spaces
_UNSPACED = re.compile(rf"[{CJK}]|[^\w\s]")  # a target token written without a space before it
_MIN_WORDS = 3  # a shorter run is words the talk shares with the target ("in the"), not a span said
_MIN_PAIR = 8  # letters of a run of two words that is a span ("en marzo")
_BRIDGE = 3  # words said between two runs that the target holds as one token or two ("cien" for "100")
_CANDIDATES = 50  # places of one word in the target tried (a very common word: reading stays linear)
_QUOTE = re.compile(r"[\"“”„«»「」『』]")
_UNHEARD = re.compile(r"(?i)\[(?:inaudible|unintelligible|crosstalk|unclear|indistinct)[^\]\n]{0,30}\]")
_ENDS = re.compile(r"[.!?。！？।,，;；]$")  # a token that ends a sentence or a clause: a span may stop there
_WRITTEN = re.compile(r"[.!?。！？]")  # a line that ends a sentence is written, not a transcript of speech


def read_spoken(text: str, matcher: SpanMatcher) -> tuple[list[str], list[str]] | None:
    """The new and inferable spans a transcript says (see the module docstring), None where it says none with a
    label."""
    if _QUOTE.search(text):
        return None  # a reply that quotes is read by what it quotes, not heard
    tokens = matcher.tokens
    target = [(i, key) for i, token in enumerate(tokens) if (key := loose(token))]
    where: dict[str, list[int]] = defaultdict(list)
    for position, (_, key) in enumerate(target):
        where[key].append(position)
    found: dict[str, str] = {}
    said = text.rstrip()
    for line in text.splitlines():
        marks = [(start, label) for start, _, label in label_marks(line) if label in (NEW, INF)]
        if not marks or _WRITTEN.search(line):
            continue
        if _UNHEARD.search(line):
            return None  # "and for inferable [inaudible]": the spans were not heard
        if not (runs := _runs(line, target, where, [start for start, _ in marks])):
            continue
        if said.endswith(line.rstrip()) and not line[runs[-1][1] :].strip() and _inside(tokens, runs[-1][3]):
            return None  # cut off inside a span: "... नया इसका नेटवर्क दुनिया के सबसे"
        starts = [start for start, _ in marks]
        turns = [m.end() for m in TAKEN_BACK.finditer(line)]
        for k, (begin, end, first, last) in enumerate(runs):
            before = bisect_right(starts, begin) - 1
            label = marks[before][1] if before >= 0 else None
            following = runs[k + 1][0] if k + 1 < len(runs) else len(line)
            turn = next((t for t in turns if end <= t < following), None)
            if turn is not None and (later := next((lab for s, lab in marks if turn <= s < following), None)):
                label = later  # "new is X no sorry that one is inferable"
            if label is None:
                continue
            joiner = "" if all(_UNSPACED.fullmatch(tokens[i]) for i in range(first, last + 1)) else " "
            span = joiner.join(tokens[first : last + 1])
            found.pop(span, None)
            found[span] = label
    if not found:
        return None
    return [s for s, lab in found.items() if lab == NEW], [s for s, lab in found.items() if lab == INF]


def _runs(
    line: str, target: list[tuple[int, str]], where: dict[str, list[int]], labels: list[int]
) -> list[tuple[int, int, int, int]]:
    """(start, end in the line, first, last target token) of each run of target words the line says in order; two
    runs are bridged only where no label (at `labels`) is said between them."""
    words = [(m.start(), m.end(), loose(m[0])) for m in _WORD.finditer(line)]
    runs: list[list[int]] = []  # [start word, end word, first position, last position]
    j = 0
    while j < len(words):
        best = (0, 0)
        for position in where.get(words[j][2], ())[:_CANDIDATES]:
            n = 0
            while j + n < len(words) and position + n < len(target) and words[j + n][2] == target[position + n][1]:
                n += 1
            best = max(best, (n, position))
        n, position = best
        if n >= _MIN_WORDS or n == 2 and sum(len(words[j + k][2]) for k in range(n)) >= _MIN_PAIR:
            last = runs[-1] if runs else None
            said = words[last[1] - 1][1] if last else 0
            if (
                last
                and 0 < position - last[3] - 1 <= 2
                and j - last[1] <= _BRIDGE
                and not _between(labels, said, words[j][0])
            ):
                last[1], last[3] = j + n, position + n - 1  # bridged: "cuando se plantaron cien hectáreas"
            else:
                runs.append([j, j + n, position, position + n - 1])
            j += n
        else:
            j += 1
    size = len(target)
    return [
        (words[a][0], words[b - 1][1], target[p][0], target[q][0])
        for a, b, p, q in runs
        if q - p + 1 <= 0.9 * size  # the whole target read aloud is no span
    ]


def _between(offsets: list[int], start: int, end: int) -> bool:
    at = bisect_right(offsets, start)
    return at < len(offsets) and offsets[at] < end


def _inside(tokens: list[str], last: int) -> bool:
    """Whether a span that stops at token `last` stops inside a sentence of the target: it ends no sentence or
    clause, and a word follows it."""
    return not _ENDS.search(tokens[last]) and last + 1 < len(tokens) and bool(loose(tokens[last + 1]))
