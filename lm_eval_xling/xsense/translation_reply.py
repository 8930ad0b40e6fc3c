"""The translation in a model's reply to a translation request, on the shared reply reader.

Every text sent is one line of one or a few sentences; models wrap the translation in preambles ("Sure, here it
is —", "Here is the translation:"), labels on their own line or the same line ("German: ...", "翻译如下：“...”",
"### Translation"), code fences, an "Original: ... / Translation: ..." pair or a two-column table, quotes of any
script, and notes after it ("(Literally: ...)", "Note: ..."). What is returned is the translation as the model wrote
it (its own characters, not normalised): the first line that is neither preamble, label nor the original, with
the next lines while the translation has fewer sentences than the source, without a same-line label, quotes
around all of it or a trailing note. A refusal, or a reply that never gets to a translation, gives "".
"""

from __future__ import annotations

import re

from lm_eval_xling.replies import Line, read_reply

# words a label is made of: "German translation", "Translation (formal)", "Option 1", "Original (English)", "译文"
_LABEL_WORDS = re.compile(
    r"(?i)(?:translation|translated|übersetzung|traducción|traduccion|tafsiri|fassara|翻译如下|翻译|译文|中文|英文|英语|"
    r"德语|西班牙语|english|german|deutsch|chinese|spanish|español|swahili|kiswahili|hausa|englisch|chinesisch|"
    r"spanisch|option|version|variant|alternative|opción|here|is|the|it|in|into|text|original|source|target|literal|"
    r"formal|informal|final|answer|\d|[()\[\]/,.&-]|\s)+"
)
_ORIGINAL = re.compile(r"(?i)^(?:original|source|quelltext|原文)\b")
_COLON = re.compile(r"[:：]")
_LABEL_MAX = 40  # characters before a colon that can still be a label
# a line that only announces what follows: "Sure, here it is —", "Of course.", "好的。", "Here is the translation"
_COURTESY = re.compile(
    r"(?i)^(?:sure|of course|certainly|absolutely|okay|ok|yes|claro|natürlich|gerne|klar|好的|当然|没问题|以下|这是|"
    r"here(?:'s| is| are)|below is)\b[^\n]{0,70}$"
)
_NOTE = re.compile(
    r"(?i)\s*(?:\((?:lit(?:erally|\.)?|note|i\.e\.|or|also|formal|informal|in english|translation)\b[^)]*\)"
    r"|(?<=[.!?。！？\"”»」])\s*(?:note|n\.b\.|literally|i used|i translated|i chose|i kept|this translation|"
    r"the word|alternatively|注|注意|说明|nota|hinweis|anmerkung)\b.*)\s*$"
)
_SENTENCE_END = re.compile(r"[.!?。！？]+[\"'”’»」』)]*(?=\s|$)")
_QUOTES = {'"': '"', "'": "'", "“": "”", "„": "“", "‘": "’", "«": "»", "「": "」", "『": "』", "»": "«", "‚": "‘"}
_TRANSLATOR_REFUSAL = re.compile(r"(?i)\b(?:translat\w*|help|assist|request|confident)\b|not (?:confident|sure) enough")


def _sentences(text: str) -> int:
    return max(1, len(_SENTENCE_END.findall(text.strip())))


def _same(a: str, b: str) -> bool:
    return re.sub(r"[\W_]+", "", a.casefold()) == re.sub(r"[\W_]+", "", b.casefold())


def _partner(text: str) -> int:
    """Where the quote opening `text` closes (-1: never). A symmetric quote opens after a space or bracket and
    closes before one or punctuation; between letters it is an apostrophe ("it's")."""
    opening, closing = text[0], _QUOTES[text[0]]
    depth = 0
    for i, char in enumerate(text):
        if char not in (opening, closing):
            continue
        before = text[i - 1] if i else " "
        after = text[i + 1] if i + 1 < len(text) else " "
        if opening != closing:
            depth += 1 if char == opening else -1
        elif before.isspace() or before in "([":
            depth += 1
        elif not after.isalnum():
            depth -= 1
        if depth == 0:
            return i
    return -1


def _unquote(text: str) -> str:
    """`text` without quotes around all of it; quotes that close inside it ('"Ja" oder "Nein"') stay."""
    for _ in range(2):
        if len(text) < 2 or text[0] not in _QUOTES or _partner(text) != len(text) - 1:
            break
        text = text[1:-1].strip()
    return text


def _label(text: str) -> tuple[str, str] | None:
    """(label, the rest) where `text` opens with a label and a colon ("German: ...", "Option 1 (formal): ...")."""
    colon = _COLON.search(text, 0, _LABEL_MAX + 1)
    if colon and _LABEL_WORDS.fullmatch(text[: colon.start()]):
        return text[: colon.start()], text[colon.end() :].strip()
    return None


def _row(line: Line, source: str | None) -> str | None:
    """The translation in a table row: its cell that is neither a header nor the source."""
    cells = [c.strip() for c in line.text.split("|")]
    kept = [c for c in cells if c and not _LABEL_WORDS.fullmatch(c) and not (source and _same(c, source))]
    return kept[-1] if kept else None


def _candidates(lines: tuple[Line, ...], source: str | None) -> list[str]:
    """The lines that may hold the translation, labels cut off, preambles and the original left out."""
    out = []
    for i, line in enumerate(lines):
        more = i + 1 < len(lines)
        if line.kind == "row":
            if (cell := _row(line, source)) is not None:
                out.append(cell)
            continue
        text = line.text
        if line.kind == "heading" and more and (_LABEL_WORDS.fullmatch(text.rstrip(":：")) or len(text) < 40):
            continue  # "### Translation", "## Hausa Translation"
        if labelled := _label(text):
            label, text = labelled
            if _ORIGINAL.match(label) or not text:
                continue
        elif more and (text.endswith((":", "：", "—", "–")) or _COURTESY.match(text)) and len(text) <= 80:
            continue  # "Here is the translation:", "Sure, here it is —", "Of course."
        elif _ORIGINAL.match(text):
            continue
        if source and more and _same(_unquote(text), source):
            continue  # the original repeated before its translation
        out.append(text)
    return out


def clean_translation(reply: object, source: str | None = None) -> str:
    """The translation in a reply (see the module docstring); `source` is the text that was sent, whose
    sentence count tells how many lines a translation spans, and which a reply's echo of it is not."""
    source = source if isinstance(source, str) else None
    reading = read_reply(reply, fold=False)
    if reading.unfinished or not reading.lines:
        return ""
    candidates = _candidates(reading.lines, source)
    if not candidates:
        return ""
    first = candidates[0]
    if (reading.refusal or reading.abstains) and _TRANSLATOR_REFUSAL.search(first):
        return ""
    parts, wanted = [_NOTE.sub("", first)], _sentences(source) if source else 1
    for line in candidates[1:]:
        if _sentences(" ".join(parts)) >= wanted or _label(line) or _NOTE.fullmatch(line):
            break
        parts.append(_NOTE.sub("", line))
    return _unquote(" ".join(p.strip() for p in parts).strip())
