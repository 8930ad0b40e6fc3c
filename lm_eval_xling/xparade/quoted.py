"""Reading an X-PARADE reply by what it quotes from the target, where its lists are not the whole answer (`spans.py`).

A careful annotator who meets a layout of its own ("NEW → "2017"", a CSV file, an HTML table, the target re-printed
with `[NEW: ...]`, `<mark class="new">` or `==...==(new)` marks, prose: 'the new information is "..."') reads it by
content: each piece the reply sets apart (quoted in any script, bracketed, tagged, highlighted, a table cell, a
line or its part beside a label) that is text of the target is a span; its label is the nearest one the reply
gives it, first inside its marks or tag, then right after or before it, then in its sentence, then in the heading
above. Where a piece of a line is set apart, the rest of that line is the re-printed target, not a span. A line
opening or ending with a mark the reply's legend explains ("🆕 = new", "[N] = new", "+ new, ~ inferable" in a diff)
takes that label; a line of several labelled lists ("New: a New: b Inferable: c") is read one list at a time. A
span labelled "same" or not labelled at all is no answer. A later correction ("move X to Inferable", "X belongs under
Inferable", "drop X") is applied in order, to the span it names written with or without its punctuation.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections import deque
from collections.abc import Iterator
from itertools import islice

from lm_eval_xling.replies import MAX_CHARS, TAKEN_BACK, after_reasoning
from lm_eval_xling.xparade.span_f1 import SpanMatcher, loose

NEW, INF, SAME = "new", "inf", "same"
_LABELS = (
    (
        NEW,
        r"new|novel|nuevo|nueva|nuevos|nuevas|uninferable|non-inferable|not(?: \w+){0,2} inferable|additional|नई|नया|नए"
        r"|नवीन"
        r"|not (?:found |stated |mentioned |given )?in the source|absent from the source"
        r"|nothing about this in the source|not in (?:the )?(?:\w+ )?(?:source|text)|no está en el original",
        r"新信息|新增|新的|新(?![\u4e00-\u9fff])|源段落没有提及|未提及",  # (not the 新 of 新高, "new high")
    ),
    (
        INF,
        r"inferable|inferrable|inferred|infer|inf|inferible|inferibles|inferido|inferida|deducible|deduced|derivable"
        r"|implied|implicit|can be inferred|follows from|inferir\w*|अनुमान\w*|अनुमेय",
        r"可推断|推断|可推理|可推导|隐含",
    ),
    (SAME, r"same|shared|equivalent|igual|mismo|misma|समान", r"相同|一致"),
)  # fmt: skip  (label, words and phrases, words of scripts without spaces: matched anywhere)
_WORDS = {label: rf"(?<![^\W_])(?:{spaced})(?![^\W_])|{unspaced}" for label, spaced, unspaced in _LABELS}
_ANY_LABEL = "|".join(_WORDS.values())
_LABEL = re.compile("|".join(rf"(?P<{label}>{words})" for label, words in _WORDS.items()), re.IGNORECASE)
# a line that is a label with words that name what it labels: "New", "<new>", "Inferable spans"
_LABEL_ONLY = re.compile(
    rf"^\W*(?:(?:\d{{1,2}}|[a-z]|[一二三四五六七八九十]+)[.)、]\W*)?(?:{_ANY_LABEL})(?:_?\d+)?"
    rf"(?:\W*(?:{_ANY_LABEL}|information|info|spans?|content|parts?|phrases?|segments?|text|items?|list|的|信息|内容))*"
    r"\W*$",
    re.IGNORECASE,
)  # "New", "1) New information", "一、新信息", "🆕 新的 / New", "new_1"
# a legend: what a reply's marks stand for ("🟥 = new", "[N] = new", "(+ new, ? inferable)", "N = new information")
_LEGEND = re.compile(
    rf"(?:^|(?<=[\s(,;]))[`'\"]?(?P<mark>[^\s\w`'\"(),;=:]{{1,3}}|\[[A-Za-z]\]|\([A-Za-z]\)|[A-Z](?=\s*[=:]))[`'\"]?"
    rf"\s*(?:=|:|→|->)?\s*(?P<label>{_ANY_LABEL})",
    re.IGNORECASE,
)
_LABEL_COLON = re.compile(rf"(?:{_ANY_LABEL})(?:_?\d+)?\s*[:=：]", re.IGNORECASE)  # "New:", "inferable_1="
# where a line's next labelled list starts: "New:", "Inferable information:", "New →"
_LABEL_STARTS = re.compile(
    rf"(?:{_ANY_LABEL})(?:_?\d+)?(?:\s+(?:information|info|spans?))?\s*(?:[:=：]|→|->|=>)", re.IGNORECASE
)
_TAGGED = re.compile(r"<[^<>\n]{1,100}>")
# a heading: a label among a few words, ending in a colon or marked as one ("### Can be deduced")
_HEADING = re.compile(
    rf"^(?:#+\s*|\*\*)?(?:[^\W\d_][\w-]*\W+){{0,3}}?(?:{_ANY_LABEL})\w*(?:\W+\w+){{0,6}}?\W*[:：]\W*$"
    rf"|^#+\s*(?:[^\W\d_][\w-]*\W+){{0,3}}?(?:{_ANY_LABEL})\w*(?:\W+\w+){{0,6}}\W*$",
    re.IGNORECASE,
)
_ASIDE = re.compile(
    r"(?i)^\W*(?:explanations?|notes?|reasoning|rationale|analysis|justification|comments?|summary|explicación"
    r"|explicaciones|notas?|análisis|व्याख्या|टिप्पणी|विश्लेषण|解释|说明|分析|备注|理由|总结)\b[^\n]{0,40}$"
)  # a heading of what is no list
_STATED_EMPTY = re.compile(
    rf"(?i)^\W*(?:[^\W\d_]+\s+){{0,3}}?(?:{_ANY_LABEL})[^:：\n]{{0,40}}[:：]\W*"
    r"(?:none|nothing|n/?a|ninguna|ninguno|nada|无|没有|कोई नहीं)(?!\w)"
)  # "Información inferible: ninguna. El resto ...": the list stated empty, then talk about the rest
_CONTINUATION = re.compile(r"(?i)^\W*(?:source|target) paragraph\b")  # the prompt's next example: reading ends
_NEXT_EXAMPLE = re.compile(r"(?i)^\W*(?:source|target)[ \t]*:")  # an example invented after the answer
# pieces a reply sets apart: quotes of every script, brackets, tags, highlights, bold
_ENCLOSED = re.compile(
    r"[\[【](?P<code>[^\W\d_][\w-]{0,30})[\]】](?P<o>[^\[\]【】\n]{1,1000})[\[【]/(?P=code)[\]】]"  # "[NEW]...[/NEW]"
    r'|"(?P<a>[^"\n]{1,1000})"|«(?P<b>[^»\n]{1,1000})»|“(?P<c>[^”\n]{1,1000})”|„(?P<d>[^“”\n]{1,1000})[“”]'
    r"|「(?P<e>[^」\n]{1,1000})」|『(?P<f>[^』\n]{1,1000})』|[【⟪⟦](?P<g>[^】⟫⟧\n]{1,1000})[】⟫⟧]"
    r"|\[\[(?P<h>[^\]\n]{1,1000})\]\]|\[(?P<i>[^\[\]\n]{1,1000})\]|\{\{(?P<j>[^{}\n]{1,1000})\}\}"
    r"|\{(?P<k>[^{}\n]{1,1000})\}|==(?P<l>[^=\n]{1,1000})==|\*\*(?P<m>[^*\n]{1,1000})\*\*"
    r"|<(?P<tag>[A-Za-z][\w-]{0,30})(?P<attrs>[^<>\n]{0,300})>(?P<n>[^<>\n]{1,1000})</(?P=tag)\s*>"
)
_IN_QUOTES = re.compile(r'"([^"\n]+)"')
_LIST_ITEM = re.compile(r"\s*[,，、]\s*")
_EITHER = re.compile(r"(?i)[ \t]*(?:or|and/or|/)[ \t]+(?:as[ \t]+)?(?:an?[ \t]+)?|[ \t]*/[ \t]*")
_MARKED = re.compile(r"\[[^\]\n]*\]|\{[^}\n]*\}|<\w[^>\n]*>|==|[【⟪⟦]|\*\*")
_ROW_BREAK = re.compile(r"(?i)</?(?:tr|table|thead|tbody|br|p|div|li|ul|ol)\b[^>\n]{0,100}>")
_CELL = re.compile(r"(?i)</?t[dh]\b[^>\n]{0,100}>")
_SEPARATORS = re.compile(r"(?<!\s)\s*(?:=>|->|→|⇒|▸|\t|;;|\s\|\s|\||;|,|:|：|=|\s[-–—/]\s)\s*")
_SPLIT = re.compile(r"(?<!\s)\s*(?:;;?|；)\s*")  # between spans on one line
_FRAME = re.compile(r"^[\s\-*•·>#☑☐]*(?:(?:\d{1,3}|[a-z])[.)]\s+|[（(]\d{1,2}[)）]\s*)?")  # list marks, numbering
# a comment in parentheses after a span, quoting what it is inferred from: '此前...三万人（由"创下历史新高"可推知）'
# (a quote alone in brackets is a span named: 'the altitude ("a 2.430 metros")')
_QUOTING_ASIDE = re.compile(r"(?<=\S)[ \t]*[(（][^()（）\n\"“”„«»「『]{1,100}[\"“„«「『][^()（）\n]{0,300}[)）]")
_OFFSETS = re.compile(r"(?i)[\[(]\s*(?:chars?\s*)?\d+\s*[-–:]\s*\d+\s*[\])]:?|\bchars?\s+\d+\s*[-–]\s*\d+\s*:?")
_GLOSS = re.compile(r"(?<!\s)\s*(?:\([^()\n]*\)|（[^（）\n]*）|\s[-–—]\s.*)$")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|(?<=[。！？；])")
_LEAD = re.compile(r"^[\s^(（\[,;|:=>→—–*_-]*")
_EMPTY_CELLS = re.compile(r"\|(?:\s*\|)+")
_SENTENCE = re.compile(r"(?<=[.!?。！？])\s+|(?<=[。！？；])")
_CLAUSE_END = re.compile(r"[;；]")
_ASIDES = re.compile(r"\([^()\n]{4,300}\)|（[^（）\n]{2,300}）")  # an aside in brackets, not a "(new)" label
# a correction in the tasks' languages: a span dropped, moved to the other label, or split ("only "X" is new")
_CORRECTION = re.compile(
    r"(?i)(?P<drop>\b(?:drop|remove|delete|ignore|leav(?:e|ing) (?:it|this|that|them) out"
    r"|should not be (?:under|in|listed)|is not (?:new|inferable)|not a span|quita\w*|elimin\w+|borr\w+|हटा\w*)\b"
    r"|删除|删去|去掉|移除)"
    r"|(?P<move>\b(?:move|belongs under|belongs in|should be (?:under|in|listed (?:as|under|in)|(?=new|inferable))"
    r"|mueve\w*|mover|pasa(?:r)? a)\b|移到|移至|改为|改成|归入|归为)"
    r"|(?P<split>\bsplit\b|拆分|拆开)"
)
_LAST_ONE = re.compile(r"(?i)\b(?:that|the|this)\s+last\s+(?:one|span|item|entry)\b|最后一[个项条]")
_NOT_BEFORE = re.compile(r"(?i)(?:not|non-?|un|n't)(?:\s+be)?[\s*_]*$")  # "not inferable", "cannot be inferred"
_MARKS = 20  # a legend explains at most this many marks (each line is compared with each)
_PROSE_PIECES = 20  # a line with more pieces is a list, not prose that takes a label back (its search stays linear)
_MIN_CHARS = 3  # a piece set apart by nothing but its line needs this many characters (a CJK one counts two)


class _Labels:
    """The labels a line gives and where its sentences end, found once per line: the label nearest to a piece in
    its sentence is then looked up, not searched for (reading stays linear however many pieces a line has)."""

    def __init__(self, line: str) -> None:
        # an aside in brackets labels nothing: "(that same night)"
        masked = _ASIDES.sub(lambda m: m[0] if _LABEL_ONLY.match(m[0]) else " " * len(m[0]), line)
        self.found = [(m.start(), m.end(), _label_of(masked, m)) for m in _LABEL.finditer(masked)]
        self.starts = [start for start, _, _ in self.found]
        self.line, self.cuts = line, [m.end() for m in _SENTENCE.finditer(line)]
        self.clauses = sorted({*self.cuts, *(m.end() for m in _CLAUSE_END.finditer(line))})

    def asked(self, offset: int) -> bool:
        """Whether the sentence around `offset` is a question."""
        at = bisect_left(self.cuts, offset + 1)
        end = self.cuts[at] if at < len(self.cuts) else len(self.line)
        return self.line[:end].rstrip()[-1:] in ("?", "？")

    def first_after(self, offset: int) -> str | None:
        """The first label at or after `offset`."""
        at = bisect_left(self.starts, offset)
        return self.found[at][2] if at < len(self.found) else None

    def nearest(self, start: int, end: int, sentence: bool = True) -> str | None:
        """The label nearest to line[start:end] outside it: within its clause (up to a semicolon), else within its
        sentence; None if none."""
        if not sentence:
            return self._nearest(start, end, 0, float("inf"))
        return self._nearest(start, end, *_bounds(self.clauses, start, end)) or self._nearest(
            start, end, *_bounds(self.cuts, start, end)
        )

    def _nearest(self, start: int, end: int, begin: float, stop: float) -> str | None:
        candidates = []
        before = bisect_right(self.starts, start) - 1
        while before >= 0 and self.found[before][1] > start:
            before -= 1  # a label overlapping the piece is its text, not its label
        if before >= 0 and self.found[before][0] >= begin:
            candidates.append((start - self.found[before][1], 0, self.found[before][2]))
        later = bisect_left(self.starts, end)
        if later < len(self.found) and self.found[later][1] <= stop:
            candidates.append((self.found[later][0] - end, 1, self.found[later][2]))  # (as near: the one before)
        return min(candidates)[2] if candidates else None


def _bounds(cuts: list[int], start: int, end: int) -> tuple[float, float]:
    """The start and end of the stretch between `cuts` that holds line[start:end]."""
    at, after = bisect_right(cuts, start), bisect_right(cuts, end - 1)
    return (cuts[at - 1] if at else 0), (cuts[after] if after < len(cuts) else float("inf"))


def _label_of(text: str, match: re.Match[str]) -> str:
    """A label word's label: "not inferable" is new."""
    if match.lastgroup == INF and _NOT_BEFORE.search(text, max(0, match.start() - 12), match.start()):
        return NEW
    return match.lastgroup


def _pieces(line: str) -> Iterator[tuple[list[tuple[str, ...]], str | None, bool]]:
    """(readings, label, set apart) of the pieces a line sets apart (quoted, bracketed, tagged, ...); a piece's
    readings are tuples of spans, best first."""
    labels = _Labels(line)
    for match in _ENCLOSED.finditer(line):
        if labels.asked(match.end()):
            continue  # 'Is "studies law" really inferable?': a question, no answer
        name = next(k for k in "abcdefghijklmno" if match[k] is not None)
        text, own = match[name], None
        head, colon, rest = text.replace("：", ":", 1).partition(":")  # "【新：...】"
        spanned, pipe, tail = text.rpartition("|")
        if colon and _LABEL_ONLY.match(head):
            own, text = _LABEL.search(head).lastgroup, rest
        elif pipe and _LABEL_ONLY.match(tail):  # "[[in front of a packed stadium|NEW]]"
            own, text = _LABEL.search(tail).lastgroup, spanned
        elif name in "no":
            tagged = _LABEL.search(f"{match['tag']} {match['attrs']}" if name == "n" else match["code"])
            own = tagged.lastgroup if tagged else None
        if own is None:  # right after it ("==x==(new)", "[x](NEW)", "x — NEW:"), or right before ("NEW → "x"")
            after = _LEAD.sub("", _SENTENCE_END.split(line[match.end() : match.end() + 20], 1)[0])
            before = _SENTENCE_END.split(line[max(0, match.start() - 15) : match.start()])[-1]
            near = _LABEL.match(after) or _LABEL.search(before)
            own = near.lastgroup if near else labels.nearest(match.start(), match.end())
        listed = name == "i" and not _IN_QUOTES.sub("", text).strip(" ,")  # a JSON list: '["a", "b"]', two spans
        if listed:
            yield [tuple(_IN_QUOTES.findall(text))], own, True
        else:  # "[a, b]": one span, or a list of them
            yield [(text,), tuple(_LIST_ITEM.split(text))] if name == "i" else [(text,)], own, True


def _parts(line: str) -> Iterator[tuple[list[tuple[str, ...]], str | None, bool]]:
    """`_pieces` of a line that sets nothing apart: the line beside its label ("new | X", "X => new", "NEW,X",
    "X — reason"), then its parts; a line without a label is a span under a heading ("- los huérfanos")."""
    bare = _EMPTY_CELLS.sub("|", line).strip(" \t|")
    label = _Labels(bare).nearest(len(bare), len(bare), sentence=False)
    cuts = list(_SEPARATORS.finditer(bare)) if label else []
    if cuts:
        first, last = cuts[0], cuts[-1]
        whole = (
            bare[first.end() :] if _LABEL_ONLY.match(bare[: first.start()])
            else bare[: last.start()] if _LABEL_ONLY.match(bare[last.end() :]) else bare
        )  # fmt: skip
        parts = [p for p in _SEPARATORS.split(bare) if p.strip() and not _LABEL_ONLY.match(p)]
        yield [(whole,), tuple(parts)], label, False
    elif not label:
        yield [(bare,), tuple(p for p in _SPLIT.split(bare) if p.strip())], None, False


def each_label(line: str) -> list[str]:
    """A line with several labelled lists ("New: a New: b Inferable: c", "new=a | inferable=b"), one per label."""
    starts = [m.start() for m in _LABEL_STARTS.finditer(line)] if not _MARKED.search(line) else []
    if len(starts) < 2:
        return [line]
    return [line[: starts[0]], *(line[a:b] for a, b in zip(starts, [*starts[1:], len(line)], strict=True))]


def _tag_label(tag: re.Match[str]) -> str:
    """A tag as a heading reads it: "<new>" is "new", "<dt>" nothing."""
    name = tag[0].strip("</>").split()[0] if tag[0].strip("</>").split() else ""
    return f" {name} " if _LABEL_ONLY.match(name) else " "


def _legend_mark(line: str, legend: dict[str, str]) -> tuple[str, str] | None:
    """(label, the rest) of a line that opens or ends with a mark the reply's legend explains."""
    text = _FRAME.sub("", line).strip()
    lowered = text.lower()
    for mark, label in legend.items():
        if lowered.startswith(mark) and len(text) > len(mark):
            return label, text[len(mark) :]
        if lowered.endswith(mark) and len(text) > len(mark):
            return label, text[: -len(mark)]
    return None


def _clean(text: str) -> str:
    return _GLOSS.sub("", _FRAME.sub("", text)).strip(" \t\"'`*_«»“”„「」")


def _matched(readings: list[tuple[str, ...]], matcher: SpanMatcher, apart: bool) -> list[str]:
    """The spans of the first reading whose spans all are the target's text as written, else of the first whose
    spans all match it once normalised, else the matching spans of the last;
    a piece set apart by nothing but its line needs `_MIN_CHARS`, and none may be the whole target re-printed."""
    size = len(matcher.tokens)

    def ok(span: str) -> bool:
        wide = len(span) + sum(char >= "\u2e80" for char in span)  # a CJK character weighs two
        covered = matcher(span) if wide >= (1 if apart else _MIN_CHARS) else []
        return bool(covered) and not (size > 3 and len(covered) > 0.9 * size)

    cleaned = [tuple(_clean(s) for s in spans) for spans in readings]
    full = next(
        (spans for spans in cleaned if spans and all(map(ok, spans)) and all(map(matcher.as_written, spans))), None
    )
    full = full or next((spans for spans in cleaned if spans and all(map(ok, spans))), None)
    return list(full) if full else [s for s in cleaned[-1] if ok(s)]


def label_marks(text: str) -> list[tuple[int, int, str]]:
    """(start, end, label) of each label `text` names ("not inferable" is new)."""
    return [(m.start(), m.end(), _label_of(text, m)) for m in _LABEL.finditer(text)]


def has_label(text: str, start: int) -> bool:
    """Whether `text` names the new or the inferable label at or after `start`."""
    return any(m.lastgroup in (NEW, INF) for m in _LABEL.finditer(text, start))


def ends_between_labels(text: str) -> bool:
    """Whether the last label `text` names is one of two offered ("it might count as new or as inferable")."""
    last = deque((m for m in _LABEL.finditer(text) if m.lastgroup in (NEW, INF)), maxlen=2)
    return (
        len(last) == 2
        and last[0].lastgroup != last[1].lastgroup
        and bool(_EITHER.fullmatch(text, last[0].end(), last[1].start()))
    )


def _turned(line: str, pieces: list[tuple[list[str], str | None]]) -> list[tuple[list[str], str | None]]:
    """The pieces of a line that takes back what it said and names a label with no span between ("... is new. On
    second thought, it is common knowledge, so I'll label it inferable instead."): the last span before the turn
    takes that label."""
    turns = deque(TAKEN_BACK.finditer(line), maxlen=1)  # the last turn
    if not turns or not pieces or len(pieces) > _PROSE_PIECES:
        return pieces
    turn = turns[0]
    label = next(
        ((m.start(), lab) for m in _LABEL.finditer(line, turn.end()) if (lab := _label_of(line, m)) in (NEW, INF)), None
    )
    starts = [line.find(spans[0]) for spans, _ in pieces]
    before = [i for i, start in enumerate(starts) if 0 <= start < turn.start()]
    if label is None or not before or any(turn.start() <= start < label[0] for start in starts):
        return pieces
    last = before[-1]
    return [*pieces[:last], (pieces[last][0], label[1]), *pieces[last + 1 :]]


def opens_list(paragraph: str) -> bool:
    """Whether a paragraph opens with a New or Inferable list's heading ("INFERABLE:", "**New spans**")."""
    first = paragraph.strip().split("\n", 1)[0].strip().strip("*#_ ")
    heading = len(first) < 200 and (_LABEL_COLON.match(first) or _LABEL_ONLY.match(first))
    return bool(heading) and (label := _LABEL.search(first)) is not None and label.lastgroup in (NEW, INF)


def lists_start(reply: str) -> int | None:
    """Where the reply's last stated lists begin (the earlier of the last New and the last Inferable heading), None
    where it states no New list (an Inferable list alone: the new spans are labelled before it): what a reply
    quotes before its lists is its deliberation ('"X" -> same', 'is "Y" inferable?'), not its answer; what follows
    them may still correct them."""
    last: dict[str, int] = {}
    offset = 0
    for line in reply.splitlines(keepends=True):
        bare = line.strip().strip("*#_ ")
        if len(bare) < 200 and (_LABEL_COLON.match(bare) or _LABEL_ONLY.match(bare)):
            label = _LABEL.search(bare)
            if label and label.lastgroup in (NEW, INF):
                last[label.lastgroup] = offset
        offset += len(line)
    return min(last.values()) if NEW in last else None


def _split(found: dict[str, str], span: str, label: str) -> None:
    """A span found inside an earlier one of the other label takes its part of it: the earlier one keeps the rest
    ("quien las visitó en 1835" new, then "quien las visitó" inferable: "en 1835" stays new)."""
    for earlier, other in list(found.items()):
        if other != label and span in earlier and span != earlier:
            del found[earlier]
            for rest in earlier.split(span):
                if _has_words(rest := rest.strip(" ,;:")):
                    found.setdefault(rest, other)


def _has_words(text: str) -> bool:
    return sum(c.isalnum() for c in text) >= _MIN_CHARS


def corrects(reply: str) -> bool:
    """Whether a reply corrects a list it gave ("move X to Inferable", "drop X")."""
    return _CORRECTION.search(reply) is not None


def read_quoted(reply: object, matcher: SpanMatcher) -> tuple[list[str], list[str]] | None:
    """The new and inferable spans a reply quotes from the target (see the module docstring), None where it quotes
    none with a label."""
    if not isinstance(reply, str):
        return None
    text, unfinished = after_reasoning(reply[-MAX_CHARS:])
    if unfinished:
        return None
    text = _CELL.sub(" | ", _ROW_BREAK.sub("\n", text))
    legend = {}
    for m in islice(_LEGEND.finditer(text), _MARKS):  # a letter stands for its label also as "[N]", "(N)", "N:"
        letter = m["mark"].strip("[]()").lower()
        forms = (f"[{letter}]", f"({letter})", f"{letter}:") if letter.isalpha() and len(letter) == 1 else (letter,)
        legend |= dict.fromkeys(forms, _LABEL.search(m["label"]).lastgroup)
    legend |= {"+": NEW} if re.search(r"(?m)^\+ ", text) and "+" not in legend else {}  # a diff's added lines
    found: dict[str, str] = {}  # span -> label, in the order found
    known: dict[str, str] = {}  # a span as first written, by its text without punctuation: a later mention is it
    heading: str | None = None
    under: dict[str, list[str]] = {}  # the spans listed under each label's heading
    orphan: str | None = None  # the line before, where it was a span of the target without a label
    for line in (part for whole in text.splitlines() for part in each_label(whole)):
        if _CONTINUATION.match(line) or _NEXT_EXAMPLE.match(line) and found:
            break
        if not line.strip():
            continue
        if _ASIDE.match(line) or _STATED_EMPTY.match(line):
            heading = None  # "Explanation:", "Inferable: none. The rest ...": what follows needs labels of its own
            continue
        bare = _TAGGED.sub(_tag_label, line) if len(line) < 80 else ""
        if bare and (_HEADING.match(line) or _LABEL_ONLY.match(bare)):
            heading = _LABEL.search(bare).lastgroup
            for span in under.pop(heading, ()):  # a list stated again replaces the earlier one
                if found.get(span) == heading:
                    found.pop(span)
            continue
        corrections = list(_CORRECTION.finditer(line))
        moves = [m.end() for m in corrections if m["move"]]
        moved = _Labels(line).first_after(moves[-1]) if moves else None  # "move it to Inferable"
        dropped = any(m["drop"] for m in corrections)
        line = _QUOTING_ASIDE.sub(" ", _OFFSETS.sub(" ", line))
        apart_pieces = list(_pieces(line))
        pieces = [
            (spans, label) for readings, label, apart in apart_pieces if (spans := _matched(readings, matcher, apart))
        ]
        if not pieces and orphan and (glossed := [label for _, label, _ in apart_pieces if label in (NEW, INF)]):
            pieces = [([orphan], glossed[-1])]  # the target's line, then its translation quoted and labelled
        orphan = None if pieces or apart_pieces else orphan  # (past a line of romanisation)
        pieces = _turned(line, pieces)
        if not pieces and (marked := _legend_mark(line, legend)):  # "+ en medio punto", "二十多公斤 [N]"
            label, rest = marked
            pieces = [(spans, label) for spans in [_matched([(rest,)], matcher, False)] if spans]
        if dropped and not pieces and found and _LAST_ONE.search(line):
            found.pop(next(reversed(found)))  # "drop that last one"
            continue
        if not pieces and not _MARKED.search(line):  # a line that marks parts of the target is read by its marks
            pieces = [
                (spans, label)
                for readings, label, apart in _parts(line)
                if (spans := _matched(readings, matcher, apart))
            ]
        if len(pieces) == 1 and len(pieces[0][0]) == 1 and pieces[0][1] is None and heading is None:
            orphan = pieces[0][0][0]  # a line of the target's text with no label: a label may follow it
        for spans, label in pieces:
            for span in spans:
                span = known.setdefault(loose(span), span)  # "move "X" to Inferable" moves the "X." listed
                label = moved or label or heading
                if dropped and not moved:
                    found.pop(span, None)
                    continue
                if label in (NEW, INF):
                    found.pop(span, None)
                    _split(found, span, label)
                    found[span] = label
                    if label == heading:
                        under.setdefault(heading, []).append(span)
                elif label == SAME:
                    found.pop(span, None)
    if not found:
        return None
    return [s for s, lab in found.items() if lab == NEW], [s for s, lab in found.items() if lab == INF]
