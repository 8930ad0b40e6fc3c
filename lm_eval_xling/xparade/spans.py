"""Reading a model's X-PARADE answer: its lists of new and inferable target spans, on the shared reply reader.

A careful annotator finds the lists whatever their form: sections under headings worded in English or in the
task's languages ("New information:", "Nuevo:", "新信息：", "नई जानकारी:"), JSON objects, tables of spans and labels
(or one column per label), a label after each span ("- los huérfanos (new)"), several quoted spans on one line,
glosses and comments after a span ("- 全部委任 (all appointed)"). Only the answer counts: reasoning blocks, "Same"
and explanation sections are skipped, an invented next example ends the reading, and where a list is given again
(a correction) its last statement wins. A pasted target paragraph with emphasised parts gives those parts (bold:
new, italic: inferable), never the whole paragraph.

What a line says may be read more than one way ("la OMS (Organización Mundial)" is one span, or a span and its
gloss): each piece keeps its readings, the reply's text first, and `resolve` takes the first reading whose spans
all occur in the text they are matched against.

`read_spans` is what the tasks use: the lists as read here where they hold the whole answer, and else what the
reply quotes from the target (`quoted.py`: a layout of its own, spans the lists miss, spans of the lists found
nowhere in the target, a correction after the lists). A reply in which neither finds anything is `unreadable`:
scored as predicting no spans, and counted.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field

from lm_eval_xling.replies import EMOJI, MAX_CHARS, PARAGRAPH, Line, own_words, read_reply, version_lead
from lm_eval_xling.xparade.quoted import (
    corrects,
    each_label,
    ends_between_labels,
    has_label,
    lists_start,
    opens_list,
    read_quoted,
)
from lm_eval_xling.xparade.span_f1 import SpanMatcher
from lm_eval_xling.xparade.spoken import read_spoken

NEW, INF, SAME, OTHER = "new", "inf", "same", "other"

# The words a heading may consist of, by what they name; every word of a heading must be one of these.
_WORDS = {
    NEW: "new novel nuevo nueva nuevos nuevas novedosa uninferable noninferable नई नया नए नवीन नव 新 新增",
    INF: "inferable inferrable inferred inferible inferibles inferido inferida inferidos inferidas deducible "
    "deducibles implied implicit अनुमान अनुमानित अनुमेय अनुमान-योग्य 可推断 推断 可推理 推理 可推导 推导 可推知 可推论 隐含",
    SAME: "same shared equivalent igual iguales mismo misma mismos mismas समान वही 相同 一致",
    OTHER: "explanation explanations note notes reasoning rationale analysis justification comment comments summary "
    "explicación explicaciones nota notas análisis व्याख्या टिप्पणी स्पष्टीकरण विश्लेषण 解释 说明 分析 注 备注 理由 总结",
}
_NEGATION = {"not", "non", "un", "no", "नहीं", "गैर", "不", "不可"}
_FILLER = set(
    str.split(
        "information info spans span tokens token content text list label labels category parts part phrases "
        "phrase pieces piece segments segment words the and or but of from source paragraph target given can be "
        "that is are which only following in to a an these this ok okay so well "
        "información informacion fragmentos fragmento segmentos segmento partes parte texto fuente párrafo de del la "
        "el los las que se puede pueden inferir a partir y o "
        "जानकारी सूचना योग्य से की का के जा सकने वाली वाले अंश स्रोत पाठ अनुच्छेद और या लगाने लगाया "
        "信息 内容 片段 跨度 部分 的 出 从 源 段落 中 可 以 自 原文 文本 和 或"
    )
)
_VOCABULARY = {word: label for label, words in _WORDS.items() for word in str.split(words)}
_CJK_WORDS = sorted(
    (w for w in [*_VOCABULARY, *_FILLER, *_NEGATION] if "\u4e00" <= w[0] <= "\u9fff"), key=len, reverse=True
)
_HEAD_WORD = re.compile(
    "|".join(_CJK_WORDS) + r"|[\u4e00-\u9fff]|[^\W\d_\u4e00-\u9fff](?:[^\W\u4e00-\u9fff]|[\u0900-\u097f-])*"
)
_HEAD_MAX = 60  # characters before the colon
# a label of at most four words without digits or quotes, then a colon: a heading in any language ("Mpya:")
# a label of up to ten words and a colon ("Yangi ma'lumot:", "el 7agat el gdeeda:", "Àwọn apá tí a lè fi òye
# mọ̀:"): words of letters, with an apostrophe or a digit inside
_HEAD_WORD_ANY = r"(?!['’])(?=[^\s:：]*[^\W\d_])[^\s\".,!?:：\[\]]+"  # ("[NEW: ...]" marks a span)
_HEAD_WORDS = 10
_UNKNOWN_HEAD = re.compile(
    rf"^(?:{_HEAD_WORD_ANY}[ \t]){{0,{_HEAD_WORDS - 1}}}{_HEAD_WORD_ANY}[ \t]*[:：][ \t]*(?P<rest>.*)$"
)
_KEY = re.compile(r"([^\W\d_]+(?: [^\W\d_]+)?)(?: ?\d{1,3})?[ \t]*[:：][ \t]*")  # "Span 1: ", "Label: "
_COLON = re.compile(r"[:：]|[ \t]*(?:=|→|->|👉)[ \t]*")  # "New:", "new = [...]", "inferable = none", "NEW 👉 ..."
_HEAD_LEAD = re.compile(r"^(?:\(?(?:\d{1,2}|[a-zA-Z])[.)]\s+|\[|\()")  # "1. New", "(a) New", "[New]"
_EMPTY = re.compile(
    r"^(?:none|n/?a|nil|null|nothing|empty|no (?:(?:new|inferable|inferrable)(?: (?:or|and|nor))? )*"
    r"(?:spans?|information|info|content)"
    r"(?: found)?|-+|—+|–+|\[\s*\]|\(\s*none\s*\)|<\s*none\s*>|无|没有|暂无|ninguno|ninguna|nada|कोई नहीं|कुछ नहीं)\W*$",
    re.IGNORECASE,
)
# "No new or inferable information.", "There are no new or inferable spans": an answer with both lists empty
_NOTHING = re.compile(
    r"(?:^|(?<=[\s(]))(?:there (?:is|are) )?no (?:new|inferable)(?: (?:or|and|nor) (?:new|inferable))?"
    r" (?:information|info|spans?)\b|\bnothing (?:new|inferable)\b|ninguna información (?:nueva|inferible)"
    r"|\bnada (?:nuev[oa]|inferible)\b"
    r"|no hay información nueva|कोई नई (?:या अनुमान[ -]योग्य )?जानकारी नहीं|न(?: तो)? कोई नई जानकारी|无新信息"
    r"|\bboth lists (?:are |remain |stay )?empty\b|ambas listas (?:están |quedan )?vacías|दोनों सूचियाँ (?:ख़|ख)ाली"
    r"|两个列表都(?:是)?空"
    r"|没有(?:任何)?(?:新|可推断)[^。，\n]{0,12}?(?:信息|内容)",
    re.IGNORECASE,
)
_ONLY_INFERABLE = re.compile(r"(?i)infer|推断|अनुमान")
_NEW_NAMED = re.compile(r"(?i)new|nuev|新|नई")
_CONTINUATION = re.compile(r"^(?:source|target) paragraph\b", re.IGNORECASE)  # the prompt's next example
_NEXT_EXAMPLE = re.compile(r"^(?:source|target)[ \t]*:", re.IGNORECASE)  # an example invented after the answer
# a line that announces the final answer: "Final answer", "## Final", "**Respuesta final:**"
_FINAL = re.compile(
    r"(?im)^[^\w\n]*(?:final(?:[ \t]+(?:answer|list|version|output|labels?))?|respuesta[ \t]+final|最终答案"
    r"|अंतिम[ \t]+उत्तर)(?:[^\w\n]*$|[ \t*]*[:：][ \t*]*)"
)
_QUOTED = re.compile(r'"([^"\n]{1,1000})"')
_LABELLED_LINE = re.compile(r"^[ \t>*-]*[^\W\d_][^:：\n\"“«「]{0,30}[:：][ \t]*\S")  # "label: ..." in any language
_SENTENCE_LINE = re.compile(r"\S+(?:[ \t]+\S+){3,}[.!?。]")  # a sentence of four words or more
_QUOTE_MARKS = re.compile(r"[\"“«「„]")
_SEPARATORS = re.compile(r"\s*(?:[;；、]|,|\band\b|\by\b|和|及|और)\s*")  # between quoted spans
_SPLIT = re.compile(r"[;；]|[ \t][/|][ \t]")  # between unquoted spans: "a; b", "a / b", "a | b"
_COMMA = re.compile(r"[ \t]*[,，、][ \t]*")  # between unquoted spans, where the spans are no one span with a comma
# a label after a span, read on the line's last characters: "(new)", "[INFERABLE]", "— new", ": inferable", "→ new"
_LABEL_WORDS = "|".join(sorted((re.escape(w) for w in _VOCABULARY), key=len, reverse=True))
_TRAILING_LABEL = re.compile(
    rf"(?:\s*[(\[（【]\s*(?P<a>(?:not |non-?|un)?(?:{_LABEL_WORDS})(?: (?:information|info|span))?)\s*[)\]）】]"
    rf"|\s+(?:[-–—:→|]|->)\s*(?P<b>(?:not |non-?|un)?(?:{_LABEL_WORDS})(?: (?:information|info|span))?))"
    r"\s*[.。]?$",
    re.IGNORECASE,
)
_LABEL_AFTER = re.compile(rf"[\s\"'*_]*(?:[-–—:→|]|->)\s*(?:{_LABEL_WORDS})\b", re.IGNORECASE)
_LEADING_LABEL = re.compile(rf"^[\[(（【]\s*(?P<a>{_LABEL_WORDS})\s*[\])）】]\s*", re.IGNORECASE)
_NAMED_LABEL = re.compile(rf"(?i)(?:{_LABEL_WORDS})")
_LAST_WORD = re.compile(r"[\s,;:|\"'()\[\]，、：]+")
_CUT_TAIL = 200  # characters of a reply's end that hold its last word
_TAIL = 40  # characters of a line searched for a trailing label (keeps the search linear)
_INLINE_MAX = 150  # characters: a longer line ending in a label is prose ("... which is why I call it: new")
# a gloss or comment after a span: "(all appointed)", " — not in the source", ": the source says once"
_GLOSS = re.compile(r"\s*(?:[(（\[][^()（）\[\]]*[)）\]]\s*[.。]?|\s[-–—]\s.*|[-–—]{2}.*|:\s.*|：.*|\s#\s.*)$")
_FIRST_SENTENCE = re.compile(r"(?<=[.!?。！？])\s*")
_ASIDE_LINE = re.compile(r"[(（][^()（）]*[)）][.。]?")
_LEAD_MARKS = re.compile(rf"^[{EMOJI}\s]+")
_EMOJI_AROUND = re.compile(rf"^[{EMOJI}\u200d\s]+|[{EMOJI}\u200d\s]+$")  # "en un hospital público 👍" (on a span's
# ends only: a span is searched on its first and last characters, which keeps the search linear)
_ENDS = 40
_OUTLINE_MARK = re.compile(r"^[A-Za-z][.)][ \t]+")  # an outline's sub-item: 'A. "2016 के"', "B) ..."
_PARENTHESES = re.compile(r"[(（]([^()（）\n]+)[)）]")
_ASIDE = re.compile(r"[(（][^()（）\n]+[)）]|\[[^\[\]\n]+\]")  # "(...)" or "[...]" in a heading
_STRIP = " \t\"'`*_"  # around a span: quotes and markdown (its punctuation was copied from the target)
_MARKS = {
    "bold": re.compile(r"\bbold|粗体|加粗|मोटे"),
    "italic": re.compile(r"\bitalic|斜体|cursiva|तिरछे"),
    "bracket": re.compile(r"\bbracket|\[|方括号|corchete|कोष्ठक"),
}
_CLAUSES = re.compile(r",|;|\band\b|\bwhile\b|，|；|、|和|\by\b")
_BRACKETED = re.compile(r"\[([^\[\]\n]{1,500})\]")
_PASTED_MIN = 30  # characters of a line that pastes the paragraph
_CELL_BORDER = re.compile(r" ?\| ?")
_SPAN_COLUMN = {"span", "spans", "text", "phrase", "segment", "fragment", "fragmento", "texto", "片段", "文本", "内容",
                "अंश", "पाठ", "target span", "target text", "word", "words", "item", "entry", "value",
                "sentence"}  # fmt: skip
_LABEL_COLUMN = {"label", "labels", "category", "type", "class", "classification", "tag", "etiqueta", "categoría",
                 "tipo", "标签", "类别", "类型", "लेबल", "श्रेणी", "प्रकार", "kind", "new label", "to"}  # fmt: skip
_RECORD = 6  # fields after a span field searched for its label
_NOTE_KEYS = {"reason", "note", "notes", "comment", "comments", "explanation", "rationale", "why", "justification"}
_WAS = {"old", "from", "was", "previous", "before", "old label"}  # keys of what a relabelling replaces


Piece = tuple[tuple[str, ...], ...]  # the readings of one piece of a list, each a tuple of spans, best first


@dataclass
class SpanReading:
    """The answer as read: each list's pieces, and whether any list was found at all."""

    new: list[Piece] = field(default_factory=list)
    inf: list[Piece] = field(default_factory=list)
    readable: bool = False
    cut_off: bool = False  # reasoning never closed, or JSON never closed: no answer, whatever it quotes
    undecided: bool = False  # it says it cannot tell and names no label after, or ends between two labels


def _label_of(words: Sequence[str]) -> str | None:
    """The label a heading's words name (NEW, INF, SAME, OTHER), None if they are not a heading."""
    named = [_VOCABULARY[w] for w in words if w in _VOCABULARY]
    if not named or any(w not in _VOCABULARY and w not in _FILLER and w not in _NEGATION for w in words):
        return None
    if OTHER in named:
        return OTHER
    if INF in named:  # "New but inferable" is inferable, "Not inferable" new
        return NEW if any(w in _NEGATION for w in words) else INF
    return NEW if NEW in named and not any(w in _NEGATION for w in words) else SAME  # "Not new": neither list


def _words(head: str) -> list[str] | None:
    """The words of a heading (None where something else is in it)."""
    head = head.strip().lower().replace("_", " ")  # YAML keys: "new_spans:"
    words = _HEAD_WORD.findall(head)
    rest = _HEAD_WORD.sub(" ", head)
    if re.search(r"[^\s()\[\]/&+,*#>-]", rest):
        return None
    return [w for part in words for w in ([part] if part in _VOCABULARY else part.split("-"))]


def _heading(line: Line) -> tuple[str, str] | None:
    """(label, the rest of the line) where the line opens a section: "New:", "**Inferable spans**", "新信息：…"."""
    text = _HEAD_LEAD.sub("", line.text)
    colon = _COLON.search(text[: _HEAD_MAX + 1])
    head, rest = (text[: colon.start()], text[colon.end() :]) if colon else (text, "")
    if line.kind == "field" and head.lower() in _LABEL_COLUMN | _WAS | _NOTE_KEYS:
        return None  # a record's label ("new label: new"), not a list
    words = _words(head.rstrip("])） "))
    if words is None or _label_of(words) is None and ("(" in head or "[" in head):
        # an aside ("नव सूचना (स्रोत मे नहि अछि):", "New information [6 marks]"), or a label in words the reader
        # lacks glossed in words it knows ("Machaqa (new):")
        bare = _words(_ASIDE.sub("", head).rstrip("])） "))
        glossed = [_words(gloss) for gloss in _PARENTHESES.findall(head)]
        words = bare if bare and _label_of(bare) else next((g for g in glossed if g and _label_of(g)), words)
    if not colon and (
        len(text) > _HEAD_MAX
        or line.kind == "item" and line.emphasis != (("bold", line.text),) and len(words or ()) < 2
    ):  # fmt: skip
        return None  # "- new" without a colon is a span; a bold item alone ("- **New**") or of label words
        # ("2. Información nueva", a clause's title) is a heading
    if not colon and words and words[0] == "no":  # "No inferable information.": that list, stated empty
        label = _label_of(words[1:])
        return (label, "none") if label in (NEW, INF) and len(set(words) & {"new", "inferable"}) < 2 else None
    label = _label_of(words) if words else None
    if label and rest.strip().isdigit():
        return None  # "new=2": a count of the spans, no list
    return (label, rest.strip()) if label else None


def _clean(span: str) -> str:
    """A span without quotes and markdown around it; a quote it closes stays ('She called it "a gift"')."""
    if len(span) > 2 * _ENDS:
        span = _EMOJI_AROUND.sub("", span[:_ENDS]) + span[_ENDS:-_ENDS] + _EMOJI_AROUND.sub("", span[-_ENDS:])
    else:
        span = _EMOJI_AROUND.sub("", span)
    cleaned = span.strip(_STRIP).strip()
    return cleaned + '"' if cleaned.count('"') % 2 and span.rstrip().endswith('"') else cleaned


def _readings(text: str) -> Piece:
    """The readings of a list entry: as written; without a gloss or comment; its quoted spans; split at ";"."""
    text = _OUTLINE_MARK.sub("", text.strip())
    out: list[tuple[str, ...]] = []

    def add(*spans: str) -> None:
        kept = tuple(s for s in map(_clean, spans) if s and not _EMPTY.match(s))
        if kept and kept not in out:
            out.append(kept)

    if _EMPTY.match(_clean(text)):
        return ()
    if text.startswith("[") and text.endswith("]") and text.count("[") == 1:
        text = text[1:-1]  # a list in brackets, its items unquoted: "[built in 1902, by the river]"
    quoted = _QUOTED.findall(text)
    outside = _QUOTED.sub("", text)
    if quoted and not _SEPARATORS.sub("", outside).strip(_STRIP + "[]."):  # only quoted spans and separators
        add(*quoted)
    add(text)
    add(_GLOSS.sub("", text))
    if quoted and text.lstrip().startswith('"'):  # a quoted span, then a comment
        add(*quoted)
    pieces = _SPLIT.split(text)
    if len(pieces) > 1:
        add(*(_GLOSS.sub("", p) for p in pieces))
    if len(parts := _COMMA.split(text)) > 1:  # "all of them are healthy, Visitors will be able to see them"
        add(*parts)
    add(*_PARENTHESES.findall(text))  # a gloss first, the span after it: '"two children" (दो बच्चे)'
    return tuple(out)


def _inline_label(text: str) -> tuple[str, str] | None:
    """(label, span) of an entry labelled at its end or start: "los huérfanos (new)", "[NEW] los huérfanos"."""
    if lead := _LEADING_LABEL.match(text):
        return _label_of([lead["a"].lower()]) or SAME, text[lead.end() :]
    tail_at = max(0, len(text) - _TAIL)
    if not (match := _TRAILING_LABEL.search(text, tail_at)):
        return None
    words = (match["a"] or match["b"]).lower().replace("-", " ").split()
    label = _label_of([w for w in words if w not in {"information", "info", "span"}])
    return (label, text[: match.start()]) if label else None


def _cell_label(cell: str) -> str | None:
    return _label_of(_words(cell) or []) if cell else None


def _table(rows: list[Line]) -> list[tuple[str, str]]:
    """(label, entry) of a table: one column per label, or a span column beside a label column (named in a
    header row, or found as the cell that is a label)."""
    table = [_CELL_BORDER.split(row.text) for row in rows]
    header = [c.lower() for c in table[0]]
    labels = [_cell_label(c) for c in header]
    columns = all(label or not c for label, c in zip(labels, header, strict=True))
    if columns and any(label in (NEW, INF) for label in labels):
        return [
            (label, cell)
            for cells in table[1:]
            for label, cell in zip(labels, cells, strict=False)
            if label in (NEW, INF) and cell
        ]
    named = any(c in _SPAN_COLUMN or c in _LABEL_COLUMN for c in header)
    span_at = next((i for i, c in enumerate(header) if c in _SPAN_COLUMN), 0)
    label_at = next((i for i, c in enumerate(header) if c in _LABEL_COLUMN), None)
    out = []
    for cells in table[1:] if named else table:
        at = span_at if named else next((i for i, c in enumerate(cells) if c and not _cell_label(c)), 0)
        if label_at is not None:
            label = _cell_label(cells[label_at]) if label_at < len(cells) else None
        else:  # (without a header: the cell that is a label and the first that is not, in either order)
            label = next((lab for i, c in enumerate(cells) if i != at and (lab := _cell_label(c))), None)
        if label in (NEW, INF) and at < len(cells):
            out.append((label, cells[at]))
    return out


def _legend(lines: Sequence[Line]) -> tuple[Line | None, dict[str, str]]:
    """The line that says how a pasted paragraph marks its parts, and the label of each mark: each of its clauses
    ("new information in bold", "[inferable] in square brackets") names a label and a mark. Without a legend, bold
    is new and italic inferable."""
    for line in lines:
        found = {}
        for clause in _CLAUSES.split(line.text.lower()):
            marks = [mark for mark, pattern in _MARKS.items() if pattern.search(clause)]
            label = next((_label_of([w]) for w in _HEAD_WORD.findall(clause) if _label_of([w]) in (NEW, INF)), None)
            if label and marks:
                found |= dict.fromkeys(marks, label)
        if found:
            return line, found
    return None, {"bold": NEW, "italic": INF}


def _pasted(lines: Sequence[Line]) -> list[tuple[str, str]]:
    """The marked parts of the lines that paste the target with some parts emphasised or bracketed, each with the
    label the legend gives its mark."""
    legend, labels = _legend(lines)
    out = []
    for line in lines:
        runs = [*line.emphasis, *(("bracket", run) for run in _BRACKETED.findall(line.text))]
        runs = [(labels[mark], run) for mark, run in runs if mark in labels]
        outside = _BRACKETED.sub("", line.text)
        for _, run in runs:
            outside = outside.replace(run, "")
        if any(_LABEL_AFTER.match(line.text, at + len(run)) for _, run in runs if (at := line.text.find(run)) >= 0):
            continue  # '**"en primavera"** — new': a span labelled in a list, not a part of a pasted paragraph
        if line is not legend and runs and len(line.text) >= _PASTED_MIN and len(outside.strip(_STRIP)) >= 10:
            out += runs
    return out


def read_span_lists(reply: object) -> SpanReading:
    """The new and inferable lists of a reply (see the module docstring)."""
    reading = read_reply("\n".join(map(str, reply)) if isinstance(reply, list | tuple) else reply)
    found = SpanReading()
    if reading.unfinished:
        found.cut_off = True
        return found
    stated: dict[str, list[Piece]] = {}  # each list as its section last stated it
    labelled: dict[str, list[Piece]] = {NEW: [], INF: []}  # entries labelled one by one, outside their section
    current: str | None = None
    entries: list[Piece] = []
    saw_items = one_line = False

    def close() -> None:
        if current in (NEW, INF):
            stated[current] = entries

    def add(label: str, pieces: Piece) -> None:
        if pieces and label == current:
            entries.append(pieces)
        elif pieces and label in (NEW, INF):
            labelled[label].append(pieces)

    found.undecided = (
        bool(reading.abstains)
        and not has_label(reading.text, reading.abstains[-1])
        or (ends_between_labels(reading.text))
    )
    lines = [_keyed(part) for line in reading.lines for part in _one_list_each(line)]
    quoted_items = 0  # items of the lists so far that are quoted spans
    heads = _partnered([_heading(line) for line in lines], lines)
    by_position = {} if any(heads) else _headings_by_position(lines)
    for i, line in enumerate(lines):
        if _CONTINUATION.match(line.text) or _NEXT_EXAMPLE.match(line.text):
            if found.readable or stated or any(labelled.values()):
                break  # the prompt's next example, invented after the answer
            current = None  # an echo of the prompt or its example before the answer is read past
            continue
        if line.kind == "row":
            continue  # tables are read below
        head = heads[i] or by_position.get(i)
        if not head and line.kind == "heading" and current in (NEW, INF) and (entries or one_line):
            close()
            current = None  # a heading of no label ends the list before it ("3. Cláusula final")
            continue
        if head:
            close()
            # a label stated again right after its own list adds to it ("NEW: a" / "NEW: b", one per cue of a
            # subtitle); after another list or prose it states the list anew
            again = head[0] == current and head[0] in stated
            current, rest = head
            entries, saw_items = stated[current] if again else [], line.kind == "item" and bool(rest)
            one_line = bool(rest)  # "inferable: la capital de España": its list on its line, prose may follow
            quoted_items += rest.lstrip(" \t*_").startswith('"')  # "Ny information: "..."": a span quoted
            if current in (NEW, INF) and (rest or line.values or len(lines) > 1):  # "new" alone names no span
                found.readable = True
                if not line.values and _EMPTY.match(_clean(_FIRST_SENTENCE.split(rest, 1)[0])):
                    close()  # "Inferable: none. The rest ... («a», «b») is in the source": stated, and empty
                    current = None
                    continue
                for text in line.values or ([rest] if rest else []):
                    entries += _entries(text)
                if line.kind == "field":
                    close()
                    current = None  # a JSON key's value is its whole list
            continue
        if line.kind == "field":  # structured output: a span key's value is a span, other keys are not
            key, _, value = line.text.partition(": ")
            if key.lower() in _NOTE_KEYS:
                continue
            if key.lower() not in _LABEL_COLUMN | _WAS and not _cell_label(key) and (label := _cell_label(value)):
                add(label, _readings(key))  # {"reaching a record high": "new"}: a span mapped to its label
                found.readable = True
            elif key.lower() in _SPAN_COLUMN:
                label = _paired_label(lines, i) or current
                pieces = _readings(value)
                for other in {NEW, INF} - {label}:  # a later record of the span relabels it
                    labelled[other] = [piece for piece in labelled[other] if piece != pieces]
                add(label, pieces)
                found.readable = found.readable or label is not None
            continue
        inline = _inline_label(line.text) if line.kind in ("item", "text") else None
        if inline and len(inline[1]) <= _INLINE_MAX:
            add(inline[0], _readings(inline[1]))
            found.readable = True
            continue
        if current in (NEW, INF):
            if line.kind == "text" and _ASIDE_LINE.fullmatch(line.text):
                continue  # "(The source says nothing of the trains.)": a comment on the list, not an item of it
            prose = quoted_items >= 2 or quoted_items and _SENTENCE_LINE.fullmatch(line.text)
            if line.kind == "text" and (saw_items or one_line or prose and '"' not in line.text):
                close()
                current = None  # prose after a list, or unquoted where spans are quoted ("कोनो नहि।"), ends it
                continue
            if not entries and _EMPTY.match(_clean(line.text)):
                close()
                current = None  # "Inferable:" then "none": stated empty; what follows is no item of it
                continue
            saw_items = saw_items or line.kind == "item"
            quoted_items += line.text.lstrip(" \t*_").startswith('"')
            entries += _entries(line.text)
    close()
    rows = [line for line in lines if line.kind == "row"]
    if rows and not (found.readable and (any(stated.values()) or any(labelled.values()))):
        for label, entry in _table(rows):
            add(label, _readings(entry))
            found.readable = True
    if not found.readable and (pasted := _pasted(lines)):
        for label, run in pasted:
            add(label, ((run,),))
        found.readable = True
    if not found.readable and not reading.refusal and lines and (any(map(_says_nothing_new, lines)) or (
        len(lines) == 1 and _EMPTY.match(lines[0].text))):  # fmt: skip
        found.readable = True
    found.new, found.inf = (stated.get(label, []) + labelled[label] for label in (NEW, INF))
    return found


def _partnered(heads: list[tuple[str, str] | None], lines: list[Line]) -> list[tuple[str, str] | None]:
    """The headings, with the one list heading the reader knows given its partner in words it does not, in the
    prompt's order: the line that heads a list right before a known inferable one is the new one ("Nou: ..." /
    "Inferible: ..."), right after a known new one the inferable one."""
    known = [head[0] for head in heads if head]
    for label, partner, step in ((INF, NEW, -1), (NEW, INF, 1)):
        if known.count(label) == 1 and partner not in known:
            at = next(i for i, head in enumerate(heads) if head and head[0] == label) + step
            if 0 <= at < len(lines) and not heads[at] and (head := _UNKNOWN_HEAD.match(lines[at].text)):
                heads[at] = (partner, head["rest"])
    return heads


def _headings_by_position(lines: list[Line]) -> dict[int, tuple[str, str]]:
    """Headings in words this reader does not know, read in the prompt's order ("Novo:" then "Inferível:", "Yeni:"
    then "Çıkarılabilir:"), for lines none of which is a known heading: where none is labelled inline either and at
    least two lines are a short label and a colon (or a markdown heading, or a key holding a JSON list), the first
    two head the new and the inferable list, later ones other sections. Where two or more of them open a list (a
    JSON list, nothing or a quote after the label), only those do: a label before prose ("Nodyn: mae'r ail ...")
    is a note, and so is a label with nothing after it before the next label ("Myn analyze:" over the lists).
    {line index: (label, the rest of the line)}."""
    if any(_inline_label(line.text) for line in lines):
        return {}
    labelled = []
    for i, line in enumerate(lines):
        if line.kind == "field":
            rest = line.text.partition(": ")[2]
            if line.values or rest in ("", "[]"):
                labelled.append((i, rest, True))
        elif line.kind == "heading" and not _COLON.search(line.text) and len(line.text.split()) <= _HEAD_WORDS:
            labelled.append((i, "", True))
        elif head := _UNKNOWN_HEAD.match(line.text) or _UNKNOWN_HEAD.match(_bare_head(line.text)):
            labelled.append((i, head["rest"], not head["rest"] or head["rest"].startswith('"')))
    ends = [i for i, *_ in labelled[1:]] + [len(lines)]  # where the next label stands (none: the end)
    labelled = [
        (i, rest, opens)
        for (i, rest, opens), end in zip(labelled, ends, strict=False)
        if rest or end > i + 1 or lines[i].kind == "field"
    ]
    if sum(lines[i].kind == "field" for i, *_ in labelled) >= 2:
        labelled = [entry for entry in labelled if lines[entry[0]].kind == "field"]  # the JSON's keys, not the prose
    elif sum(opens for *_, opens in labelled) >= 2:
        labelled = [entry for entry in labelled if entry[2]]
    if len(labelled) < 2:
        return {}
    labels = iter((NEW, INF))
    return {i: (next(labels, OTHER), rest) for i, rest, _ in labelled}


def _bare_head(text: str) -> str:
    """A line without the marks before its label and the aside in it ("🆕 Ny information:", "Nytt (finns inte i
    källan):")."""
    return _PARENTHESES.sub("", _LEAD_MARKS.sub("", text))


def _says_nothing_new(line: Line) -> bool:
    """Whether the line states the answer empty, the new list included ("nothing inferable" alone says nothing of
    the new spans)."""
    stated = _NOTHING.search(line.text)
    return stated is not None and not (_ONLY_INFERABLE.search(stated[0]) and not _NEW_NAMED.search(stated[0]))


def _keyed(line: Line) -> Line:
    """A text line "Span 1: ..." or "Label: new" read as the field it is (its pair gives a span its label)."""
    key = _KEY.match(line.text) if line.kind in ("text", "item") else None
    if key and (key[1].lower() in _SPAN_COLUMN or key[1].lower() in _LABEL_COLUMN):
        return Line(f"{key[1]}: {line.text[key.end() :]}", "field")
    return line


def _one_list_each(line: Line) -> list[Line]:
    """A line of several labelled lists ("New: "a", "b" Inferable: "c""), a line per list."""
    parts = each_label(line.text) if line.kind != "field" else [line.text]
    return [Line(part.strip(), "text") for part in parts if part.strip()] if len(parts) > 1 else [line]


def _entries(text: str) -> list[Piece]:
    piece = _readings(text)
    return [piece] if piece else []


def _paired_label(lines: list[Line], i: int) -> str | None:
    """The label of a span field from its record: a label field after it, before the next span field
    ({"span": "...", "confidence": 0.9, "label": "new"}), else right before it."""
    for j in range(i + 1, min(len(lines), i + 1 + _RECORD)):
        key, _, value = lines[j].text.partition(": ")
        if lines[j].kind != "field" or key.lower() in _SPAN_COLUMN:
            break  # the record ends, or the next one starts
        if key.lower() in _LABEL_COLUMN:
            return _cell_label(value) or SAME
    key, _, value = lines[i - 1].text.partition(": ") if i else ("", "", "")
    if i and lines[i - 1].kind == "field" and key.lower() in _LABEL_COLUMN:
        return _cell_label(value) or SAME
    return None


def resolve(pieces: Sequence[Piece], tokens: Sequence[str] | SpanMatcher) -> list[str]:
    """The spans of the pieces as matched against `tokens` (or a document's matcher, to share its work with its
    other lists): per piece its first reading whose spans all are the target's text as it stands, else its first
    reading whose spans all match once normalised ("a / b" is two spans where the target has "a, b"), else the
    reading with most matching spans, else its first reading (its spans then count as unmatched)."""
    match = (
        tokens if isinstance(tokens, SpanMatcher) else SpanMatcher(tokens if isinstance(tokens, list | tuple) else [])
    )
    out: list[str] = []
    for readings in pieces:
        scored = [(sum(bool(match(s)) for s in spans), spans) for spans in readings]
        full = next((spans for spans in readings if all(map(match.as_written, spans))), None)  # the target's own text
        full = full or next((spans for hits, spans in scored if hits == len(spans)), None)
        best = max(scored, key=lambda x: x[0])
        out += full if full else best[1] if best[0] else readings[0]
    return out


_COMPARED = 100  # unmatched spans compared with the quoted ones (more: all kept, so that reading stays linear)


def read_spans(reply: object, tokens: Sequence[str] | SpanMatcher) -> tuple[list[str], list[str], bool]:
    """(new spans, inferable spans, readable) of a reply against the target's tokens: its lists where it gives them
    in a layout `read_span_lists` knows and all their spans are text of the target, else what it quotes from the
    target (`quoted.read_quoted`) where it quotes any, with the spans of its lists that are found nowhere."""
    match = tokens if isinstance(tokens, SpanMatcher) else SpanMatcher(tokens)
    text = own_words("\n".join(map(str, reply)) if isinstance(reply, list | tuple) else reply)
    if isinstance(text, str) and (finals := list(_FINAL.finditer(text))) and text[finals[-1].end() :].strip():
        text = text[finals[-1].end() :]  # a draft before the final answer is no answer
    if isinstance(text, str) and _versions_disagree(text, match):
        return [], [], False  # the lists in two languages' versions, labelled differently
    if isinstance(text, str) and (start := _final_block(text)):
        text = text[start:]  # a draft, a debate, a plan before the final labelled lists is no answer
    if isinstance(text, str) and text[text.rfind("\n") + 1 :].count('"') % 2:
        if opens_list(text[(start := _paragraph_start(text)) :]):
            return [], [], False  # cut off inside a span of its lists: no answer
        text = text[:start]  # cut off inside a span of a restatement after the lists: that paragraph is lost
    if isinstance(text, str) and _cut_row(text):
        return [], [], False
    reading = read_span_lists(text)
    if reading.cut_off:
        return [], [], False
    new, inf = resolve(reading.new, match), resolve(reading.inf, match)
    unmatched = [span for span in new + inf if not match(span)]
    if not reading.readable and (reading.undecided or _cut_off(text) and _SENTENCE_STOP.search(text)):
        return [], [], False  # '"X" might be new, or inferable; I can't tell', or prose cut off: no answer
    start = lists_start(text) if reading.readable and isinstance(text, str) else None
    if quoted := read_quoted(text if start is None else text[start:], match):
        covered = {i for span in new + inf for i in match(span)}
        more = start is None and _covers_more(quoted, covered, match)  # (after headed lists only a correction counts)
        if not reading.readable or unmatched or corrects(text[start or 0 :]) or more:
            found = quoted[0] + quoted[1]  # a span of the lists that holds none of these stays, counted unmatched
            missed = [span for span in unmatched if len(unmatched) > _COMPARED or not any(f in span for f in found)]
            return quoted[0] + [s for s in missed if s in new], quoted[1] + [s for s in missed if s not in new], True
    unread = not reading.readable or unmatched and len(unmatched) == len(new + inf)
    if unread and isinstance(text, str) and (spoken := read_spoken(text[-MAX_CHARS:], match)):
        return spoken[0], spoken[1], True  # a transcript of the spans said aloud
    return new, inf, reading.readable


def _versions_disagree(text: str, match: SpanMatcher) -> bool:
    """Whether the reply's last two versions in two languages ("**EN**" / "**ES**", "In English:") both give
    lists, and their lists label the target's tokens differently."""
    starts = [m.start() for m in version_lead().finditer(text[:MAX_CHARS])]
    if len(starts) < 2:
        return False
    labelled = []
    for part in (text[starts[-2] : starts[-1]], text[starts[-1] :]):
        reading = read_span_lists(part)
        new, inf = resolve(reading.new, match), resolve(reading.inf, match)
        if not new and not inf:
            return False
        labelled.append(({i for s in new for i in match(s)}, {i for s in inf for i in match(s)}))
    return labelled[0] != labelled[1]


def _final_block(text: str) -> int | None:
    """Where the reply's last block of labelled lists starts, where something stands before it: the first line
    quoting a span in the last run of two or more lines of the form "label: ..." (in any language: "új: "..."" /
    "kikövetkeztethető: ..."), counted from that line; a decision line before it ("Moderator: consensus.") is not
    in it. None where there is no such block."""
    if len(text) > MAX_CHARS:
        return None  # (a runaway reply: read as it stands)
    block, run, offset = None, None, 0
    for line in text.splitlines(keepends=True):
        if _LABELLED_LINE.match(line):
            if run is None and _QUOTE_MARKS.search(line):
                run = [offset, 0]
            if run is not None:
                run[1] += 1
                if run[1] >= 2:
                    block = run[0]
        else:
            run = None
        offset += len(line)
    return block or None


_SENTENCE_STOP = re.compile(r"[.!?。！？।]")  # (a transcript of speech ends no sentence: none is cut off)


def _cut_row(text: str) -> bool:
    """Whether a reply ends inside a table row: its last line opens with a bar and does not close, after a row that
    does ("| which could take | NEW |\n| Pedestrians are diverted to a tempor")."""
    lines = text.rstrip().rsplit("\n", 2)[-2:]
    return (
        len(lines) == 2
        and lines[0].rstrip().endswith("|")
        and lines[1].lstrip().startswith("|")
        and not (lines[1].rstrip().endswith("|"))
    )


def _paragraph_start(text: str) -> int:
    """Where the last paragraph of `text` starts (after its last blank line)."""
    blanks = list(PARAGRAPH.finditer(text))
    return blanks[-1].end() if blanks else 0


def _cut_off(text: object) -> bool:
    """Whether a reply ends inside a sentence (on a letter or a comma) and not on a label: cut off before it
    stated its answer ("However, the phrase "..." is n"; not '"los huérfanos",new')."""
    last = text.rstrip()[-1:] if isinstance(text, str) else ""
    if not last or not (unicodedata.category(last)[0] in "LM" or last in ",、，"):
        return False
    word = _LAST_WORD.split(text[-_CUT_TAIL:].rstrip())[-1]
    return _NAMED_LABEL.fullmatch(word) is None


def _covers_more(quoted: tuple[list[str], list[str]], covered: set[int], match: SpanMatcher) -> bool:
    """Whether the spans quoted cover target tokens the lists do not."""
    return bool({i for span in quoted[0] + quoted[1] for i in match(span)} - covered)
