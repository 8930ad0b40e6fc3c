"""A reply written as data, read as the values it holds (the shared reader, replies.py, writes them as its field
lines and table rows): YAML documents and TOML or INI sections, CSV with a header row, `key=value` log lines, a
function call's arguments (`submit_answer(entity="Satyajit Ray")`), a Python value printed at a prompt, subtitles.

What only carries the data is dropped first: subtitle cue numbers and timings, the code typed at an interactive
prompt (`>>> translate(...)`, `In [3]: ...`; the `Out[3]:` value stays), a log line's timestamp and level. Then each
paragraph that is data as a whole, or each line that is, is parsed by the standard parsers (PyYAML, tomllib,
configparser, csv, ast); a paragraph that is only partly data stays text, so prose is never read as data.
"""

from __future__ import annotations

import ast
import configparser
import csv
import re
import sys

import yaml

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

_CUE = re.compile(
    r"(?m)^[ \t]*(?:\d{1,6}[ \t]*\n(?=[ \t]*\d{1,2}:\d\d))?[ \t]*[\d:.,]{8,12}[ \t]*-->[ \t]*[\d:.,]{8,12}[^\n]*$"
)
_WEBVTT = re.compile(r"\A\s*WEBVTT[^\n]*\n")
# a transcript's time stamp opening a line ("[00:01:12]", "[0:05.2 --> 0:07.9]") and a WebVTT voice tag ("<v Ana>")
_STAMP = r"(?:\d{1,2}:)?\d{1,2}:\d\d(?:[.,]\d{1,3})?"
_TIME_STAMP = re.compile(
    rf"(?m)^[ \t]*\[{_STAMP}(?:[ \t]*(?:-->|-|–)[ \t]*{_STAMP})?\][ \t]*|<v(?:[ \t][^<>\n]{{0,60}})?>"
)
_PROMPT_INPUT = re.compile(r"(?m)^[ \t]*(?:>>>|In[ \t]*\[\d{1,5}\]:)[^\n]*$\n?")
_PROMPT_OUTPUT = re.compile(r"(?m)^[ \t]*Out[ \t]*\[\d{1,5}\]:[ \t]*")
_LOG_PREFIX = re.compile(
    r"(?m)^[ \t]*\d{4}-\d\d-\d\d(?:[T ][\d:.,]{5,15}(?:Z|[+-]\d\d:?\d\d)?)?[ \t]+"
    r"(?:\[?(?:TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|CRITICAL|FATAL)\]?:?[ \t]+)?"
)
_SECTION = re.compile(r"^[ \t]*\[[^\[\]\n]{1,60}\][ \t]*$")
_COMMENT = re.compile(r"^[ \t]*[#;]")
_ASSIGNMENT = re.compile(r"^[ \t]*[\w.\-]{1,40}[ \t]*=")
# what only YAML writes: a document mark, a key over indented values ("- key: value" items alone are Markdown too)
_YAML_MARKS = re.compile(r"(?m)^---[ \t]*$|^[ \t]*[\w-]{1,40}:[ \t]*\n[ \t]+\S")
_YAML_LINE = re.compile(r"^[ \t]*(?:#.*|-(?:[ \t].*)?|[\w\- ]{1,40}:(?:[ \t].*)?|\.\.\.|---|[ \t]+\S.*)$")
_HEADER_CELL = re.compile(r"[^\W\d][\w]{0,30}")
# `key=value` pairs making up a whole line: a bare value has no space, a quoted one may ("span="a b" label=new")
_PAIR = r"[A-Za-z_][\w.\-]{0,40}[ \t]*=[ \t]*(?:\"(?:[^\"\\\n]|\\.){0,1000}\"|'[^'\n]{0,1000}'|[^\s\"'=]{1,200})"
_PAIRS = re.compile(rf"(?:[A-Za-z_][\w\-]{{0,30}}[ \t]+)?{_PAIR}(?:[ \t,]+{_PAIR})*[ \t]*")
_ONE_PAIR = re.compile(r"(?P<key>[A-Za-z_][\w.\-]{0,40})[ \t]*=[ \t]*(?P<value>\"(?:[^\"\\\n]|\\.)*\"|'[^']*'|\S+)")
_CALL = re.compile(r"[ \t]*[A-Za-z_][\w.]{0,60}\([^\n]{0,2000}\)[ \t;]*")
_LITERAL = re.compile(r"[ \t]*(?:[\[{(].{0,2000}[\]})]|'[^'\n]{0,2000}'|\"[^\"\n]{0,2000}\")[ \t]*")
MAX_DOCUMENT = 20_000  # characters of a paragraph parsed as a document (a longer one is read as text)


def carried_off(text: str) -> str:
    """`text` without what only carries data: subtitle cues and timings, a transcript's time stamps and voice tags,
    code typed at a prompt, log prefixes."""
    if "-->" in text:
        text = _CUE.sub("", _WEBVTT.sub("", text))
    if "[" in text or "<v" in text:
        text = _TIME_STAMP.sub("", text)
    if ">>>" in text or "In" in text:
        text = _PROMPT_INPUT.sub("", text)
    if "Out" in text:
        text = _PROMPT_OUTPUT.sub("", text)
    return _LOG_PREFIX.sub("", text) if "-" in text else text


def document(paragraph: str) -> object | None:
    """The value a paragraph holds where all of it is one document: INI or TOML sections, YAML with nesting or a
    document mark, CSV under a header row."""
    lines = [line for line in paragraph.split("\n") if line.strip()]
    if len(lines) < 2:
        return None
    data = [line for line in lines if not _COMMENT.match(line)]
    if any(_SECTION.match(line) for line in data) and all(
        _SECTION.match(line) or _ASSIGNMENT.match(line) for line in data
    ):
        return _sections(paragraph)
    if _YAML_MARKS.search(paragraph) and all(_YAML_LINE.match(line) for line in lines):
        value = _yaml(paragraph)
        return value if isinstance(value, dict | list) and value else None
    return _table(data)


def line_value(line: str) -> object | None:
    """The value a line holds where all of it is data: a call's arguments, a Python dict or tuple, `key=value`
    pairs."""
    if "(" in line and _CALL.fullmatch(line):
        return _arguments(line.strip().rstrip(";"))
    if line.lstrip()[:1] in "[{('\"" and _LITERAL.fullmatch(line):
        value = _literal(line.strip())  # (a list stays text: its quoted values are read as written, '["a", "b"]')
        return value if isinstance(value, dict | tuple) and value else None
    if "=" in line and _PAIRS.fullmatch(line):
        return {m["key"]: _unquoted(m["value"]) for m in _ONE_PAIR.finditer(line)}
    return None


def _sections(paragraph: str) -> object | None:
    try:
        return tomllib.loads(paragraph)
    except (ValueError, TypeError, OverflowError, RecursionError):  # (TOMLDecodeError is a ValueError)
        pass
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    try:
        parser.read_string(paragraph)
    except configparser.Error:
        return None
    return {name: _listed(dict(parser[name])) for name in parser.sections()} or None


def _listed(section: dict[str, str]) -> object:
    """A section of numbered keys ("span_1", "span2") as the list of their values."""
    keys = list(section)
    stems = {re.sub(r"[\W_]*\d+$", "", key) for key in keys}
    return list(section.values()) if len(stems) == 1 and all(re.search(r"\d$", k) for k in keys) else section


def _yaml(paragraph: str) -> object:
    try:
        return yaml.safe_load(paragraph)
    except (yaml.YAMLError, ValueError, TypeError, OverflowError, RecursionError):
        return None  # (a value YAML reads as a date may be no date: "2026-13-45" raises ValueError)


def _table(lines: list[str]) -> list[dict[str, str]] | None:
    """CSV rows under a header of names, as one mapping per row."""
    if not lines or not all("," in line for line in lines):
        return None
    try:
        rows = list(csv.reader(lines))
    except csv.Error:
        return None
    width = len(rows[0])
    if width < 2 or any(len(row) != width for row in rows) or not all(_HEADER_CELL.fullmatch(c) for c in rows[0]):
        return None
    return [dict(zip(rows[0], row, strict=True)) for row in rows[1:]]


def _arguments(call: str) -> dict[str, object] | None:
    """The literal arguments of a call, by keyword (positional ones under "args")."""
    try:
        node = ast.parse(call, mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    if not isinstance(node, ast.Call):
        return None
    out: dict[str, object] = {}
    args = [value for arg in node.args if (value := _constant(arg)) is not None]
    if args:
        out["args"] = args if len(args) > 1 else args[0]
    for keyword in node.keywords:
        if keyword.arg and (value := _constant(keyword.value)) is not None:
            out[keyword.arg] = value
    return out or None


def _constant(node: ast.expr) -> object | None:
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
        return None


def _literal(text: str) -> object | None:
    try:
        return ast.literal_eval(text)
    except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
        return None


def _unquoted(value: str) -> str:
    if len(value) > 1 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1].replace('\\"', '"')
    return value
