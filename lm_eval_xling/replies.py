"""The one reply reader: what a careful human actually reads in a model's reply, before any family reads meaning.

`read_reply` turns a raw reply into a `Reading`. First what the transport added is undone (`own_text`): chat-template
tokens a server left in (the model's own turn is read), the quiz items a completion model went on to write after its
answer, hard-wrapped text (words broken at line ends), HTML entities, a reply JSON-encoded twice. Then only what
follows a closed reasoning block is read (`<think>`, `<thinking>`, `<reasoning>`; a reply that only closes one
started inside it; a block that never closes gave no answer), JSON objects and XML-like tags (`<answer>B</answer>`)
read as "key: value" lines (a tool call's name is none; a multi-line value is lines of the reply), code fences,
markdown emphasis and escapes, block quotes and table rules gone, headings and list items kept as lines but marked as
such, quotation marks of every script as ASCII quotes, full-width forms and other compatibility characters folded
(NFKC), the marks that steer right-to-left text dropped, a repetition loop said once (a loop cut off at the token
limit ends no statement). It also says where the reply refuses or states that it cannot tell.

Every step is a single pass of a regular expression without nested repeats or a scan of the text, so reading is
linear in the reply; runaway replies are read on their last 50,000 characters.
"""

from __future__ import annotations

import ast
import csv
import html
import json
import re
import unicodedata
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import cache

import ftfy
import regex

from lm_eval_xling.choice_words import language_names
from lm_eval_xling.data_text import MAX_DOCUMENT, carried_off, document, line_value
from lm_eval_xling.latex import as_markdown, looks_like_latex

# 10 times what 1024 generated tokens hold: only runaway output is cut (a reasoning block longer than this loses
# its opening tag, and the answer after its closing tag is read as usual).
MAX_CHARS = 50_000

_REASONING = ("think", "thinking", "reasoning")
# a reasoning block in tags, or in the plain lines a chat front end prints ("Thinking..." ... "...done thinking.")
_OPEN = re.compile(rf"<(?:{'|'.join(_REASONING)})\s*>|^[ \t]*Thinking(?:\.\.\.|…)[ \t]*$", re.I | re.M)
_AGENT_STEP = re.compile(r"(?im)^[ \t]*(?:thought|action(?:[ \t]+input)?|observation)[ \t]*:")  # ReAct's steps
_AGENT_END = re.compile(r"(?im)^[ \t*#]*final[ \t]+answer\b")
_CLOSE = re.compile(rf"</(?:{'|'.join(_REASONING)})\s*>|^[ \t]*(?:\.\.\.|…)?done thinking\.?[ \t]*$", re.I | re.M)
# Unicode's sentence terminals, every script's ("." "?" "।" "۔" "።" "。" ...): the characters that can end a sentence
TERMINALS = "".join(regex.findall(r"\p{Sentence_Terminal}", "".join(map(chr, range(0x20, 0x20000)))))
OTHER_TERMINALS = TERMINALS.translate(dict.fromkeys(map(ord, ".!?")))  # "।", "۔", "。": a sentence's end anywhere
QUOTES = str.maketrans({**dict.fromkeys("“”„‟«»「」『』‹›〝〞＂", '"'), **dict.fromkeys("‘’‚‛`´", "'")})
# spaces no reader sees: a no-break space, a zero-width space, a BOM, and the marks that steer right-to-left text
_BIDI = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
_INVISIBLE = str.maketrans({"\u00a0": " ", "\u200b": "", "\ufeff": "", "\r": "", **dict.fromkeys(_BIDI, "")})
# Chat-template control tokens a server failed to strip: pipe-delimited (`<|im_end|>`, `<|eot_id|>`), Gemma's turn
# marks and Llama 2's / Mistral's; a turn's opening names its role (`<|im_start|>assistant`, `<start_of_turn>model`).
_TEMPLATE_TOKEN = re.compile(r"<\|[A-Za-z][\w.-]{0,30}\|>|<(?:start|end)_of_turn>|\[/?INST\]|</s>|<pad>|<eos>")
_TURN_OPENING = re.compile(
    r"\s*(?:<s>\s*)?(?:(?:<\|im_start\|>|<start_of_turn>|<\|start_header_id\|>)[ \t]*[A-Za-z_]{0,20}[ \t]*"
    r"(?:<\|end_header_id\|>)?|\[INST\][^\[]{0,20000}\[/INST\])"  # Llama 2's instruction before its answer
)
# a chat written out as plain text ("System: ...", "User: ...", "Assistant: ..."), each turn opening a line
_ROLE_LINE = re.compile(r"(?im)^[ \t#*]*(?P<role>system|user|human|assistant)[ \t*]*:[ \t*]*")
# a line that opens with a field label ("Question 15:", "Reference answer:", "**Score (1-5):**"), and a paragraph
# made of two such lines in a row: the form of a quiz item
_LABEL_LINE = r"[ \t]*(?:#{1,6}[ \t]*)?[*_]*[^\W\d_][^\n:：]{0,40}?[*_]*[:：](?:[ \t]|$)"
_FORM = re.compile(rf"(?m)^(?:[ \t]*#{{1,6}}[^\n]*\n)?{_LABEL_LINE}[^\n]*\n{_LABEL_LINE}")
PARAGRAPH = re.compile(r"\n[ \t]*\n")  # the blank line between two paragraphs
_HARD_WRAP = re.compile(r"(?<=[^\W\d_])-\n(?=[^\W\d_])")  # "the an-\nswer": a word broken at a line's end
_WRAPPED_LINE = re.compile(rf"(?<=\S)[ \t]*\n(?=[ \t]*[^\W\d_])(?!{_LABEL_LINE})")
_ARGUMENTS = frozenset(("arguments", "parameters", "args", "input"))  # what a tool call passes, beside its name
_ENTITY = re.compile(r"&(?:#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z]{2,8});")
# the escapes of a string JSON-encoded twice ('\\"Paris\\"\\n'); "\\t" and "\\r" only where no letter follows
# ("\\text{...}" is LaTeX)
_ESCAPE = re.compile(r'\\(?:u([0-9a-fA-F]{4})|([n"\\/])|([tr])(?![A-Za-z]))')
_ESCAPED = {"n": "\n", '"': '"', "\\": "\\", "/": "/", "t": "\t", "r": "\r"}
_FIELD = "\ue200"  # opens a line of structured output (a JSON value, an XML-like tag)
_VALUES = "\ue201"  # opens each value of a JSON list on its field line
_TAG_ALONE = re.compile(r"^[ \t]*<(/?)([A-Za-z][\w-]{0,30})(?:[ \t][^<>\n/]{0,300})?/?>[ \t]*$")
_LAYOUT_TAGS = frozenset(("html", "body", "div", "p", "br", "hr", "ul", "ol", "li", "table", "tr", "td", "th", "span"))
_ROWS_OPEN = re.compile(r"\[\s*\[")  # a list of lists
_TAG = re.compile(r"<([A-Za-z][\w-]{0,30})>([^<\n]{0,500})</\1>")
# HTML's inline formatting is no field: "N<sub>A</sub>" is one word, "<b>B</b>" a bold B
_INLINE_TAG = re.compile(r"</?(?i:sub|sup|b|i|em|strong|u|small|mark|span|code)>")
# speech markup (SSML): emphasis read as bold, a pause inside a sentence as a space, the document's bounds as line
# ends, other tags around text (attributes and all: "<say-as interpret-as=\"cardinal\">") as nothing
_ATTRIBUTE = r"(?:[ \t]+[\w:-]{1,30}[ \t]*=[ \t]*(?:\"[^\"<>\n]{0,200}\"|'[^'<>\n]{0,200}'|[^\s<>\"']{1,200}))*"
_ATTRIBUTE += r"[ \t]*/?>"
_SPOKEN_EMPHASIS = re.compile(rf"(?i)<emphasis{_ATTRIBUTE}([^<>\n]{{1,1000}})</emphasis[ \t]*>")
_SPEECH_TAG = re.compile(
    rf"(?i)<(?P<pause>break){_ATTRIBUTE}|</?(?P<bound>speak){_ATTRIBUTE}"
    rf"|</?(?:prosody|say-as|phoneme|lang|voice|audio|sub|amazon:[\w-]+){_ATTRIBUTE}"
)
_LINE_TAG = re.compile(rf"(?i)</?(?:br|p|div|li){_ATTRIBUTE}")  # a tag that ends a line (or a list item)
_DIGIT = re.compile(r"(?![0-9])\d|[\u1369-\u1371]")  # a decimal digit of any script but ASCII; Ge'ez 1-9
# the emoji blocks and the variation selector, as a character-class body: "🏏", "🇩🇪", "⭐️"
EMOJI = "\U0001f000-\U0001faff\u2600-\u27bf\ufe0f"
# the marks that tick an option or a line as chosen, and those that cross one out (character-class bodies)
TICKS, CROSSES = "✓✔✅☑", "✗✘✖❌×☒"
# kana, CJK ideographs and Hangul (a character-class body): scripts written without spaces between words
CJK = "\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af"
# the sources an answer cites, listed after it to the reply's end: "References:" then entries only ("[1] ...")
_SOURCES = re.compile(
    r"(?im)^[ \t#*]*(?:references|sources|bibliography|citations|works[ \t]+cited|fuentes|referencias|quellen"
    r"|références|источники|джерела|参考文献|参考资料|来源|स्रोत|संदर्भ|rujukan|sumber|referensi|źródła|bronnen"
    r"|kilder|källor|fonti|referências|fontes)[ \t*]*[:：]?[ \t*]*\n"
    r"(?:[ \t]*(?:\[[^\]\n]{1,12}\]|【[^】\n]{1,12}】|\d{1,3}[.)]|[-*•])[^\n]*(?:\n|\Z))+\s*\Z"
)
_LINK = re.compile(r"\[([^\[\]\n]{1,300})\]\((?:https?://|www\.|/)[^()\s]{0,500}\)")
_FENCE = re.compile(r"^[ \t]*(?:```|~~~)[^\n]*$", re.MULTILINE)
_DIFF_FENCE = re.compile(r"(?im)^[ \t]*(?:```|~~~)[ \t]*(?:diff|patch)[ \t]*$")
_CSV_FENCE = re.compile(r"(?im)^[ \t]*(?:```|~~~)[ \t]*csv[ \t]*$")
_HEADING = re.compile(r"^[ \t]*#{1,6}[ \t]+")
# a list item's mark; a number's may touch a word of a script written without spaces ("1．是当地...")
# a list item's mark: a bullet of any style, or a number of any script closed by a full stop (Urdu's "۔" too) or ")"
_ITEM = re.compile(r"^[ \t]*(?:[-*+•·▪‣・◦○●■□◆◇►▶➤➔→⇒✓✔–—]|\d{1,3}[.)۔])(?:[ \t]+|(?=[\u3000-\u9fff\uac00-\ud7af]))")
# an outline's section: a Roman numeral, a heading ("II. New spans"; not an initial: "V. S. Naipaul")
# a clause's number in a legal or outline layout, read as a list item: "2.1", "2.1(a)", "(ii)", "（一）" (a number of
# two levels only where two lines have one: "3.5 out of 5" is a score; "(a)" stays, a letter an option is named by)
_ENUMERATOR = re.compile(r"^[ \t]*(?:\((?:[ivx]{1,4}|\d{1,2})\)|[(（][一二三四五六七八九十]{1,3}[)）])[ \t]*")
_CLAUSE = re.compile(r"(?m)^([ \t]*)\d{1,2}(?:\.\d{1,2})+\.?(?:[ \t]*\((?:[a-z]|[ivx]{1,4}|\d{1,2})\))?[ \t]+")
_TITLE = re.compile(r"(?m)^[ \t]*\d{1,2}\.[ \t]+(?=\S)")
# "第一条　新信息": an article's number before its title, a heading
_ARTICLE = re.compile(r"^[ \t]*第[一二三四五六七八九十百零\d]{1,4}[条條章节節款][ \t\u3000]*")
_SECTION = re.compile(r"^[ \t]*X{0,3}(?:IX|IV|V?I{0,3})(?<=[IVX])[.)][ \t]+(?![A-Z]\.)")
_CIRCLED = re.compile(r"(?m)^([ \t]*)[\u2460-\u2473\u2776-\u2793][ \t]*")  # "①": a list item (NFKC makes "1" of it)
_WIDE_NUMBER = re.compile(r"(?m)^([ \t]*[０-９]{1,3})．")  # "１．": a list number (NFKC would make "1.1987" of it)
_QUOTE_MARK = re.compile(r"^[ \t]*(?:>[ \t]?)+")
# a letter's closing: a short line ending in a comma ("Kind regards,"), then one or two short lines (a name, a role)
_NAME_WORD = r"[^\s.!?:;,\"«»“”„「」]"  # (no quote: a closing names no span)
_CLOSING = regex.compile(
    rf"\n[ \t]*[^\W\d_][^\n,.!?:;\"«»“”„「」]{{0,30}},[ \t]*\n"
    rf"(?:[ \t]*[\p{{Lu}}\p{{Lo}}]{_NAME_WORD}{{0,20}}(?:[ \t]+{_NAME_WORD}{{1,20}}){{0,2}}[ \t]*(?:\n|$)){{1,2}}\s*$"
)
_TABLE_RULE = re.compile(r"[ \t|:+=\-]+")  # with "---" or "===" in it: "|---|", "+----+----+", "+====+"
# a table drawn with box-drawing characters: its rules ("├──┼──┤") and the bars between its cells ("│ a │ b │")
_BOX_RULE = re.compile(r"[ \t\u2500-\u257f]+")
_BOX_BAR = re.compile(r"[│┃║]")
_ESCAPED_MARK = re.compile(r"\\(?=[!-/:-@\[-`{-~])")  # Markdown's escape of a mark: "\\-", "\\*", "\\("
# an escaped emphasis mark is the mark itself ("\\*domo\\*"): held as a private character while emphasis is read
_LITERAL = str.maketrans({"*": "\ue210", "_": "\ue211", "~": "\ue212"})
_LITERAL_BACK = str.maketrans({"\ue210": "*", "\ue211": "_", "\ue212": "~"})
_ESCAPED_EMPHASIS = re.compile(r"\\([*_~])")
# Emphasis marks; a "*" between two letters ("no*Die") is no emphasis and stays, parting them.
_EMPHASIS = re.compile(r"(?<!\w)\*{1,3}|\*{1,3}(?!\w)|(?<![^\W_])_{1,3}|_{1,3}(?![^\W_])|~~")
_STRUCK = re.compile(r"(?<!\\)~~[^~\n]{1,500}?(?<!\\)~~")  # struck out: taken back ("~~B~~ A")
# a line that is one piece written again and again (a model in a loop); a piece of a few letters is a word ("bonbon")
_LOOP = re.compile(r"^[ \t]*(?P<piece>[^\n]{3,300}?)(?:[ \t]*(?P=piece))+[ \t]*$")
_WORD_LOOP = re.compile(r"[^\W_]{3,11}")
_LOOP_LINE = 5_000  # a longer line is read as written (the search for its piece stays linear)
# punctuation dictated to a speech recogniser, read where the reply shows it is dictated (a mark named at its end,
# or two or more named): "Xin chào comma bạn có khỏe không question mark", "quote Hola end quote"
_DICTATED = {"comma": ",", "full stop": ".", "question mark": "?", "exclamation mark": "!", "exclamation point": "!"}
_DICTATED |= {"new line": "\n", "new paragraph": "\n\n"}
_NAMED_MARK = rf"\b({'|'.join(_DICTATED)})\b"
_DICTATED_MARK = re.compile(rf"(?i)(?<![ \t,])[ \t,]*{_NAMED_MARK}(?:[ \t]*[.,](?=\s|$))?")  # (from a run's start)
_DICTATED_END = re.compile(rf"(?i){_NAMED_MARK}[ \t.,\"]*$")
_DICTATED_QUOTE = re.compile(
    r"(?i)\b(?:open[ \t]+)?quote[ \t,]+(.{1,500}?)[ \t,]*\b(?:end[ \t]+quote|unquote|close[ \t]+quote)\b"
)
# a filler a speaker leaves before a pause: "Uh — I have to ...", "um, the bathroom", "嗯，", "えーと、"
_FILLER = re.compile(
    r"(?i)(?<![^\W\d_])(?:u+m+|u+h+m*|e+r+m+|h+m+)(?:[ \t]*(?:,|…|\.\.\.|—|–| -))[ \t]*"
    r"|(?:嗯|呃|えーと|えっと)[，、,…][ \t]*"
)
# letters of Latin, Cyrillic and Greek that look alike: a word of one script with some of another's is read in its
# script ("соrrесt" with Cyrillic о, е, с; "Xариулт" with a Latin X); and "0" and "1" inside a word of letters are
# the letters an OCR or a noisy pipeline mistook ("Sc0re", "exce1lent")
_LOOK_ALIKE = {
    "latin": "AaBCcEeHiIjKMOoPpsTXxyY",
    "cyrillic": "АаВСсЕеНіІјКМОоРрѕТХхуҮ",
    "greek": "ΑαΒϹϲΕεΗιΙϳΚΜΟοΡρѕΤΧχγΥ",
}
_TO_SCRIPT = {
    script: {
        ord(a): b for other, alike in _LOOK_ALIKE.items() if other != script for a, b in zip(alike, own, strict=True)
    }
    for script, own in _LOOK_ALIKE.items()
}
_WORD = regex.compile(r"\w+")
_LATIN, _CYRILLIC_GREEK = regex.compile(r"\p{Latin}"), regex.compile(r"[\p{Cyrillic}\p{Greek}]")
_SCRIPT_OF = (("latin", regex.compile(r"\p{Latin}")), ("cyrillic", regex.compile(r"\p{Cyrillic}")),
              ("greek", regex.compile(r"\p{Greek}")))  # fmt: skip
_MISREAD_DIGIT = regex.compile(r"(?<=\p{Latin})0(?=\p{Latin})|(?<=\p{Ll})1(?=\p{Ll})")
_BLANKS = re.compile(r"[ \t]+")
_SENTENCE_SPLIT = re.compile(rf"(?:(?<=[{re.escape(TERMINALS)}])|(?<=[{re.escape(TERMINALS)}][\"'”’»」』)]))[ \t]+")
# Emphasised runs inside a line: bold (**x**, __x__) and italic (*x*, _x_), each bounded and within the line.
_BOLD = re.compile(r"\*\*([^*\n]{1,500}?)\*\*|(?<![^\W_])__([^_\n]{1,500}?)__(?![^\W_])")
_ITALIC = re.compile(r"(?<![*\w])\*([^*\s][^*\n]{0,499}?)\*(?![*\w])|(?<![^\W_])_([^_\s][^_\n]{0,499}?)_(?![^\W_])")

# Statements that refuse, or say that the reply cannot tell, in the tasks' languages ("both are plausible" is not
# one: a commitment may follow it). A family decides what a commitment before or after such a statement means.
_ABSTAIN = re.compile(
    r"(?i:\b(?:I|we)(?:[ \t]+(?:can(?:not|'t)|am[ \t]+(?:unable|not[ \t]+able)[ \t]+to|won't|will[ \t]+not)"
    r"|'m[ \t]+(?:unable|not[ \t]+able)[ \t]+to)[ \t]+(?:\w+[ \t]+)?"
    r"(?:decide|determine|tell|choose|pick|answer|provide|translate|help|assist|comply|judge)\b"
    r"|\b(?:impossible|unable)[ \t]+to[ \t]+(?:decide|determine|tell|say|choose|know)\b"
    r"|\bnot[ \t]+enough[ \t]+(?:information|context)\b|\bnot[ \t]+confident[ \t]+enough\b"
    r"|\bI[ \t]+(?:don't|do[ \t]+not)[ \t]+know\b"
    r"|\bsiwezi[ \t]+(?:kuamua|kujua|kusema|kuchagua)\b|\bsijui\b"
    r"|\bba[ \t]+zan[ \t]+iya[ \t]+(?:ta[ \t]+)?(?:yanke|zaɓa|zaba|sani|fa[ɗd]i)\b|\bban[ \t]+sani[ \t]+ba\b"
    r"|\b(?:ich[ \t]+)?kann[ \t]+(?:ich[ \t]+)?(?:das[ \t]+)?nicht[ \t]+(?:entscheiden|sagen|beurteilen|bestimmen)\b)"
    r"|无法(?:确定|判断|决定|回答|选择)|不知道"
)
# what takes back what a reply stated, in the tasks' languages: "Actually, wait", "En realidad", "等一下", "Corrijo";
# and a forum post's later word on it ("EDIT:", "Update 2:")
TAKEN_BACK = re.compile(
    r"(?i)(?:^|(?<=\s))(?:edit(?:ed)?|update[ds]?)(?:[ \t]*\d{1,2})?[ \t]*[:：]"
    r"|\b(?:wait|actually|on\s+second\s+thought|re-?check\w*|correction|hold\s+on|misread|re-?read\w*"
    r"|reconsider\w*|on\s+reflection|revis\w+|en\s+realidad|corri[jx]o|actualizaci[oó]n|rectifico|en\s+fait"
    r"|je\s+corrige|eigentlich|korrigiere|moment|na\s+verdade|in\s+realtà|correggo|на\s+самом\s+деле|исправл\w+"
    r"|aslında|düzelt\w*|संशोधित|sebenarnya|ralat|thực\s+ra|khoan|bekle|subiri|kwa\s+kweli)\b|等一下|等等|其实|实际上|更正|修正|訂正|実は|잠깐|사실은"
)
_REFUSAL = re.compile(
    r"(?i:\bI(?:'m|[ \t]+am)[ \t]+sorry,?[ \t]+but[ \t]+I[ \t]+(?:can(?:not|'t)|won't)\b"
    r"|\bI[ \t]+(?:can(?:not|'t)|won't)[ \t]+(?:help|assist|comply)\b)"
    r"|我无法(?:回答|帮助)|抱歉"
)


@dataclass(frozen=True)
class Line:
    """One line as read: its text (markup gone) and what it is in the layout."""

    text: str
    kind: str  # "text", "heading", "item" (a list item), "row" (a table row, cells joined by " | ") or "field" (a
    # "key: value" line of structured output: a JSON value, an XML-like tag; a key over nested values has no value)
    values: tuple[str, ...] = ()  # a field holding a JSON list: its values (the text joins them with ", ")
    emphasis: tuple[tuple[str, str], ...] = ()  # ("bold" or "italic", text) of the runs emphasised inside the line
    quoted: bool = False  # in a block quote ("> ..."): words the reply quotes, maybe not its own


@dataclass(frozen=True)
class Reading:
    """A reply as a careful reader reads it."""

    lines: tuple[Line, ...]
    unfinished: bool  # reasoning that never closed: the reply gave no answer
    refusal: bool
    abstains: tuple[int, ...]  # end offsets in `text` of statements that refuse or say they cannot tell

    @property
    def text(self) -> str:
        return "\n".join(line.text for line in self.lines)


def _own_turn(text: str) -> str:
    """The model's own turn where a chat template's tokens were left in: what follows the turn's opening (a role, an
    echoed `[INST] ... [/INST]`), up to the first token that ends the turn or opens another (a server that ran past
    its stop writes the next turns itself); HTML's `<s>...</s>` is no template."""
    while opening := _TURN_OPENING.match(text):
        text = text[opening.end() :]
    kept, start, strike = "", 0, text.find("<s>")
    for token in _TEMPLATE_TOKEN.finditer(text):
        if token.start() < start or token[0] == "</s>" and 0 <= strike < token.start():
            continue
        kept += text[start : token.start()]
        if kept.strip():
            return kept
        opening = _TURN_OPENING.match(text, token.start())
        start = max(opening.end(), token.end()) if opening else token.end()
    return kept + text[start:]


def _plain_turn(text: str) -> str:
    """The model's own turn where the reply opens with the chat written out as plain text: the first "Assistant:"
    turn (after the echoed "System:" / "User:" turns), up to the next turn (a base model goes on to write them),
    unless a later one revises it ("User: Are you sure? Assistant: Good catch. Revised answer: ..."): the last such
    one; else the text."""
    turns = list(_ROLE_LINE.finditer(text))
    if text[: turns[0].start()].strip():
        return text  # the reply's own text first: the turns after it are the next ones, written by a base model
    own = [
        text[turn.end() : turns[i + 1].start() if i + 1 < len(turns) else len(text)]
        for i, turn in enumerate(turns)
        if turn["role"].lower() == "assistant"
    ]
    revised = [turn for turn in own[1:] if TAKEN_BACK.search(turn)]
    return revised[-1] if revised else own[0] if own else text


def _continued(text: str) -> str:
    """A completion model's answer without the next quiz items it went on to write: where the reply continues the
    prompt's line (it opens with a space: " no", " Bankim Chandra"), it ends before its first later paragraph that is
    a form of labelled lines ("Question 15: ...\nReference answer: ...")."""
    for paragraph in PARAGRAPH.finditer(text):
        if _FORM.match(text, paragraph.end()):
            return text[: paragraph.start()]
    return text


def _unwrapped(text: str) -> str:
    """Text hard-wrapped at a width (scanned or copied from a page: at least two words broken by a hyphen at a
    line's end) read as running text: broken words joined, lines of one paragraph joined by a space (a labelled line
    stays a line of its own)."""
    if len(_HARD_WRAP.findall(text)) < 2:
        return text
    return "\n\n".join(_WRAPPED_LINE.sub(" ", _HARD_WRAP.sub("", p)) for p in PARAGRAPH.split(text))


def _unescaped(text: str) -> str:
    """A reply JSON-encoded once more than it should be, as its reader sees it: a JSON string literal's value, or
    the escapes of one ('\\"Paris\\"\\nIt is...') decoded where the reply has no line break of its own."""
    stripped = text.strip()
    if stripped.startswith('"') and isinstance(value := _parse(stripped), str):
        return value
    if "\n" in text or not _ESCAPE.search(text) or stripped.startswith(("{", "[")) and _parse(stripped) is not None:
        return text  # (a JSON object keeps its escapes: they are read with it)
    return _ESCAPE.sub(lambda m: chr(int(m[1], 16)) if m[1] else _ESCAPED[m[2] or m[3]], text)


def own_text(reply: str) -> str:
    """What a reader of the model's reply sees once the transport's additions are undone: the model's own turn
    (behind a chat template's tokens or written out as plain text; a completion's answer without the quiz items it
    went on to write), hard-wrapped text as running text, HTML entities as their characters, speech markup (SSML)
    and LaTeX as the layout they stand for, a twice JSON-encoded reply decoded, what only carries data gone
    (subtitle timings, code typed at a prompt, log prefixes: `data_text.carried_off`), text struck out, the list of
    sources cited after the answer."""
    reply = reply.lstrip("\ufeff")
    reply = decoded(reply)
    if "<" in reply or "[/INST]" in reply:
        reply = _own_turn(reply)
    if ":" in reply and _ROLE_LINE.search(reply):
        reply = _plain_turn(reply)
    if reply[:1] in " \t" and "\n" in reply:
        reply = _continued(reply)
    if "-\n" in reply:
        reply = _unwrapped(reply)
    if "&" in reply and _ENTITY.search(reply):
        reply = html.unescape(reply)
    if "<" in reply:
        reply = _SPEECH_TAG.sub(_spoken, _SPOKEN_EMPHASIS.sub(r"**\1**", reply))
    if looks_like_latex(reply):
        reply = as_markdown(reply)
    reply = carried_off(reply)
    if "~~" in reply:
        reply = _STRUCK.sub("", reply)
    reply = _undictated(_unlooped(reply))
    if "\n" in reply and (sources := _SOURCES.search(reply)):
        reply = reply[: sources.start()]
    return _unescaped(reply) if "\\" in reply else reply


@cache
def version_lead() -> re.Pattern[str]:
    """A line that opens another language's version of what came before: a label naming a language or a
    translation ("English translation:", "**EN**", "हिंदी में:", "In English:"), or a flag."""
    names = "|".join(sorted(map(re.escape, language_names()), key=len, reverse=True))
    return re.compile(
        rf"(?im)^[ \t*#>|【\[-]*(?:[\U0001F1E6-\U0001F1FF]{{2}}"
        rf"|(?:in[ \t]+)?(?:{names}|{_NATIVE_NAMES}|(?-i:[A-Z]{{2}})|{_TRANSLATION_WORDS})"
        rf"(?:[ \t]+(?:version|translation|में)|版)?[ \t*]*(?:[:：]|\*\*|\(|】|\]|$))"
    )


# the tasks' languages named in their own words (X-PARADE's, NSP's)
_NATIVE_NAMES = r"español|castellano|inglés|हिंदी|हिन्दी|अंग्रेज़ी|中文|汉语|漢語|英文|英语|kiswahili|hausa"
_TRANSLATION_WORDS = (
    r"translation|translated|traducción|tradução|traduction|übersetzung|перевод|翻译|翻訳|번역|अनुवाद|ترجمة"
)
# two versions side by side on one line: "Jibu ni sahihi. / The answer is incorrect.", a table's cells
PARALLEL = re.compile(r"(?<!\d)[ \t]/[ \t](?!\d)|[ \t]\|[ \t]")  # (not a score's "3 / 5")


def own_words(reply: object) -> object:
    """A reply less what a letter or a forum post wraps around the writer's own words: the block quotes of others'
    words it answers (`_answered_quotes`) and a closing ("Regards,\nMarcus", "Yn gywir,\nY Beirniad": a short line
    ending in a comma, then one or two short lines, at the end)."""
    if not isinstance(reply, str):
        return reply
    if ">" in reply:
        reply = _answered_quotes(reply)
    end = max(0, len(reply) - 200)  # (a closing is short: its search stays linear)
    if "," in reply[end:] and (closing := _CLOSING.search(reply, end)):
        reply = reply[: closing.start()]
    return reply


def _answered_quotes(reply: str) -> str:
    """The reply less the block quotes of others' words it answers (a forum post, an email reply, a review of
    another annotator's list): a run of quoted lines that the reply's own lines follow, and that opens the reply,
    follows a line introducing it ("Annotator B sent me this:", three words or more before a colon) or opens with
    its attribution ("Ella wrote:"). A quote the reply ends on, or shows under a label ("Verdict:"), stays its own."""
    lines = reply.splitlines()
    quoted = [_QUOTE_MARK.match(line) is not None for line in lines]
    own_after = [False] * (len(lines) + 1)  # whether an own line (not blank, not quoted) follows line i
    for i in range(len(lines) - 1, -1, -1):
        own_after[i] = own_after[i + 1] or not quoted[i] and bool(lines[i].strip())
    kept: list[str] = []
    i = 0
    while i < len(lines):
        j = i
        while j < len(lines) and quoted[j]:
            j += 1
        if j == i:
            kept.append(lines[i])
            i += 1
            continue
        before = next((line.rstrip(" *_") for line in reversed(kept) if line.strip()), None)
        introduced = before is not None and before.endswith((":", "：")) and len(before.split()) >= 3
        signed = j - i > 1 and lines[i].rstrip(" *_").endswith((":", "："))
        if not ((before is None or introduced or signed) and own_after[j]):
            kept += lines[i:j]
        i = j
    return "\n".join(kept)


def decoded(reply: str) -> str:
    """The reply as written where a pipeline decoded it with the wrong codec ("kÃ²rÃ¨k" is "kòrèk"), by ftfy;
    only where that shows also in its compatibility form (NFKC), so that a reading never depends on the form."""
    bad = ftfy.badness.is_bad(reply) and ftfy.badness.is_bad(unicodedata.normalize("NFKC", reply))
    return ftfy.fix_encoding(reply) if bad else reply


def _spoken(tag: re.Match[str]) -> str:
    """A pause after a sentence or an emphasised run ends a line, inside a sentence it is a space."""
    if tag["pause"]:
        before = tag.string[max(0, tag.start() - 3) : tag.start()].rstrip()
        return "\n" if before[-1:] in TERMINALS or before.endswith("**") else " "
    return "\n" if tag["bound"] else ""


def after_reasoning(reply: str) -> tuple[str, bool]:
    """What follows the last closed reasoning block of the model's own text (`own_text`), and whether an opened
    block never closed (or an agent's trace never reached its final answer)."""
    reply = own_text(reply)
    if ":" in reply and len(_AGENT_STEP.findall(reply)) > 1 and not _AGENT_END.search(reply):
        return reply, True  # an agent's trace (Thought / Action / Observation) cut off before its final answer
    if closing := list(_CLOSE.finditer(reply))[-1:]:
        return reply[closing[0].end() :], False
    if opening := _OPEN.search(reply):
        return reply[: opening.start()], True
    return reply, False


def _field(key: str, value: str) -> str:
    """A "key: value" line of structured output (keys' underscores read as spaces), marked as a field."""
    label = key.replace("_", " ").replace("-", " ").strip()
    return f"\n{_FIELD}{label}: {value}\n" if label else f"\n{value}\n"


def _json_lines(value: object, key: str = "") -> list[str]:
    """A parsed JSON value as field lines, in document order: a list of plain values is one line ("A, B") that
    keeps its values apart; a list of such lists is a table, a row each; a key over nested values is a line of its
    own ("key:") before them."""
    if isinstance(value, list) and all(not isinstance(v, dict | list) for v in value):
        return [_field(key, "".join(_VALUES + ("" if v is None else str(v)) for v in value))]
    if value and isinstance(value, list) and all(isinstance(v, list) and len(v) > 1 and _plain(v) for v in value):
        rows = [_row(row) for row in value]
        return ([_field(key, "")] if key else []) + [f"\n{row}\n" for row in rows]
    if isinstance(value, str) and value.lstrip()[:1] == "{" and isinstance(parsed := _parse(value), dict):
        return _json_lines(parsed, key)  # a tool call's arguments, JSON in a string: '"{\\"verdict\\": ...}"'
    if isinstance(value, dict) and _ARGUMENTS.intersection(value) and "name" in value:
        value = {k: v for k, v in value.items() if k != "name"}  # a tool call: its name is no answer
    if isinstance(value, dict | list):
        nested = value.items() if isinstance(value, dict) else ((key, v) for v in value)
        lines = [line for k, v in nested for line in _json_lines(v, str(k) if isinstance(value, dict) else "")]
        return ([_field(key, "")] if key else []) + lines
    if isinstance(value, str) and "\n" in value.strip():
        return ([_field(key, "")] if key else []) + [f"\n{value}\n"]  # a reply's body in a field: its own lines
    return [_field(key, "" if value is None else str(value))]


def _row(cells: Sequence[object]) -> str:
    """Cells as a Markdown table row ("| a | b |"), an empty cell for None: how JSON, CSV, box-drawn and printed
    rows reach the line reader."""
    return "| " + " | ".join("" if cell is None else str(cell) for cell in cells) + " |"


def _plain(values: list) -> bool:
    return all(not isinstance(v, dict | list) for v in values)


def _parse(text: str) -> object:
    """A JSON value, or the same written as a Python literal (single quotes: "{'new': ['a']}"); None if neither."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        pass
    if "'" not in text:
        return None
    try:
        with warnings.catch_warnings():  # an escape Python lacks ("\\l") warns, and is read as written
            warnings.simplefilter("ignore")
            return ast.literal_eval(text)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None


_JSON_START = re.compile(r'\s*(?:\[\s*)*\{\s*"')  # an object: '{"', '[{"' (not '["no', read as the word)


def _json_closers(text: str) -> str | None:
    """For a reply that is a JSON value: the brackets it leaves open after its last complete value (a closing brace
    forgotten: '{"new": ["x"]'), "" where it closes them all, None where it is cut off before a value ends ('{"new":
    ["built in th'): that gives no answer."""
    if not _JSON_START.match(text):
        return ""
    opened, quoted, escaped = [], False, False
    for char in text:  # brackets outside strings (json's errors do not say whether the text ended too early)
        if quoted:
            quoted, escaped = (escaped or char != '"'), (not escaped and char == "\\")
        elif char == '"':
            quoted = True
        elif char in "{[":
            opened.append("}" if char == "{" else "]")
        elif char in "}]" and opened:
            opened.pop()
    if opened and (quoted or text.rstrip()[-1:] not in ('"', "]", "}")):
        return None
    return "".join(reversed(opened))


def _unwrap_json(text: str) -> str:
    """A reply that is, or holds, one JSON object or a list of objects: it replaced by its "key: value" lines."""
    start, end = text.find("{"), text.rfind("}")
    if start < 0 or end <= start:
        return _unwrap_rows(text)
    if (bracket := text.rfind("[", 0, start)) >= 0 and not text[bracket + 1 : start].strip():
        closing = text.find("]", end)
        if closing >= 0 and not text[end + 1 : closing].strip():
            start, end = bracket, closing  # a list of objects: [{...}, {...}]
    value = _parse(text[start : end + 1])
    if not (isinstance(value, dict) or isinstance(value, list) and all(isinstance(v, dict) for v in value)):
        return _unwrap_rows(text)
    return text[:start] + "".join(_json_lines(value)) + text[end + 1 :]


def _unwrap_rows(text: str) -> str:
    """A reply that holds a JSON list of lists ('[["span", "new"], ...]'): it replaced by the rows of a table."""
    opening, end = _ROWS_OPEN.search(text), text.rfind("]") + 1
    if not opening or not text[: end - 1].rstrip().endswith("]"):
        return text
    value = _parse(text[opening.start() : end])
    if (
        not isinstance(value, list)
        or not value
        or not all(isinstance(v, list) and len(v) > 1 and _plain(v) for v in value)
    ):
        return text
    return text[: opening.start()] + "".join(_json_lines(value)) + text[end:]


def _line(raw: str) -> Line | None:
    if ("---" in raw or "===" in raw) and _TABLE_RULE.fullmatch(raw):
        return None
    quoted = ">" in raw and (mark := _QUOTE_MARK.match(raw)) is not None
    if quoted:
        raw = raw[mark.end() :]
    literal = "\\" in raw and _ESCAPED_EMPHASIS.search(raw) is not None
    if literal:
        raw = _ESCAPED_EMPHASIS.sub(lambda m: m[1].translate(_LITERAL), raw)
    if "\\" in raw:
        raw = _ESCAPED_MARK.sub("", raw)  # "\\- \\(1971\\)": a list item, "(1971)"
    kind, values = "text", ()
    if "<" in raw and (tag := _TAG_ALONE.match(raw)):  # "<new>" over nested tags is their heading; "</new>" ends it
        return None if tag[1] or tag[2].lower() in _LAYOUT_TAGS else Line(tag[2], "heading")
    if raw.startswith(_FIELD):
        kind, raw = "field", raw[1:]
        if _VALUES in raw:
            key, _, listed = raw.partition(": ")
            values = tuple(v.strip() for v in listed.split(_VALUES)[1:])
            raw = f"{key}: {', '.join(values)}"
    elif heading := _HEADING.match(raw) or _SECTION.match(raw) or _ARTICLE.match(raw):
        kind, raw = "heading", raw[heading.end() :]
    elif item := _ITEM.match(raw) or _ENUMERATOR.match(raw):
        kind, raw = "item", raw[item.end() :]
    elif raw.lstrip().startswith("|"):
        kind, raw = "row", " | ".join(cell.strip() for cell in raw.strip().strip("|").split("|"))
    elif "\t" in raw.strip() and len(cells := [cell.strip() for cell in raw.split("\t") if cell.strip()]) > 1:
        kind, raw = "row", " | ".join(cells)  # a row of tab-separated values
    emphasis = tuple(_emphasis(raw))
    # (each substitution only where it has something to do: this runs on every line of every reply)
    text = _EMPHASIS.sub("", raw) if any(mark in raw for mark in "*_~") else raw
    text = (_BLANKS.sub(" ", text) if "  " in text or "\t" in text else text).strip()
    if kind == "text" and (heading := _HEADING.match(text)):  # "**## Answer**" once emphasis is gone
        kind, text = "heading", text[heading.end() :]
    if literal:
        text = text.translate(_LITERAL_BACK)
    return Line(text, kind, values, emphasis, quoted) if text else None


def _emphasis(raw: str) -> list[tuple[str, str]]:
    """The emphasised runs of a line, in order (bold first where a run is both)."""
    if "*" not in raw and "_" not in raw:  # most lines: nothing to search (this runs on every line of every reply)
        return []
    bold = [(m.start(), "bold", m[1] or m[2]) for m in _BOLD.finditer(raw)]
    plain = _BOLD.sub(lambda m: " " * len(m[0]), raw)  # italic marks are searched outside bold runs
    italic = [(m.start(), "italic", m[1] or m[2]) for m in _ITALIC.finditer(plain)]
    runs = sorted(bold + italic)
    return [(mark, _BLANKS.sub(" ", _EMPHASIS.sub("", run)).strip()) for _, mark, run in runs if run.strip()]


def read_reply(reply: object, fold: bool = True) -> Reading:
    """The reading of any input (a non-string reads as an empty reply). `fold=False` keeps the reply's own
    characters (no NFKC, quotes as written), for a family that reads text out of the reply (a translation);
    refusals and abstentions are found on the quotes folded all the same."""
    if not isinstance(reply, str):
        return Reading((), False, False, ())
    if len(reply) > MAX_CHARS:
        reply = reply[-MAX_CHARS:]
    if "．" in reply:
        reply = _WIDE_NUMBER.sub(r"\1. ", reply)
    if _CIRCLED.search(reply):
        reply = _CIRCLED.sub(r"\1- ", reply)
    reply = decoded(reply)  # (before NFKC, which would change the characters it reads the codec from)
    text, unfinished = after_reasoning(_as_read(unicodedata.normalize("NFKC", reply)) if fold else reply)
    if unfinished:
        return Reading((), True, False, ())
    if "diff" in text or "patch" in text:
        text = _fenced(text, _DIFF_FENCE, _applied)
    if "csv" in text:
        text = _fenced(text, _CSV_FENCE, _csv_rows)
    if "│" in text or "┃" in text or "║" in text:
        text = _box_rows(text)
    text = _FENCE.sub("", text)
    if (closers := _json_closers(text)) is None:
        return Reading((), True, False, ())
    text = text.rstrip() + closers if closers else text
    text = _unwrap_json(text)  # JSON before quotes are folded: a curly quote may sit in a value
    if ":" in text or "=" in text or "," in text or "(" in text:
        text = _as_data(text)
    if "<" in text:
        text = _LINE_TAG.sub(lambda m: "\n- " if m[0].lower().startswith("<li") else "\n", text)
        text = _TAG.sub(lambda m: _field(m[1], m[2]), _INLINE_TAG.sub("", text))
    text = text.translate(_INVISIBLE)
    if "." in text and len(_CLAUSE.findall(text)) > 1:  # clauses under numbered titles: "2. Findings" / "2.1 ..."
        text = _CLAUSE.sub(r"\1- ", _TITLE.sub("## ", text))
    if "](" in text:
        text = _LINK.sub(r"\1", text)  # a markdown link reads as its text
    lines = _once(tuple(line for raw in (text.translate(QUOTES) if fold else text).split("\n") if (line := _line(raw))))
    joined = "\n".join(line.text for line in lines).translate(QUOTES)
    return Reading(lines, False, _REFUSAL.search(joined) is not None, abstention_ends(joined))


def _as_data(text: str) -> str:
    """`text` with each paragraph or line that is data (`data_text`) as its field lines or table rows."""
    out, at = [], 0
    for gap in [*PARAGRAPH.finditer(text), None]:
        paragraph = text[at : gap.start() if gap else len(text)]
        if len(paragraph) <= MAX_DOCUMENT and (value := document(paragraph)) is not None:
            out.append("".join(_data_lines(value)))
        else:
            out.append(
                "\n".join(
                    "".join(_data_lines(v)) if (v := _line_data(line)) is not None else line
                    for line in paragraph.split("\n")
                )
            )
        if gap:
            out.append(gap[0])
            at = gap.end()
    return "".join(out)


def _line_data(line: str) -> object | None:
    return line_value(line) if "=" in line or "(" in line or line.lstrip()[:1] in "[{'\"" else None


def _data_lines(value: object) -> list[str]:
    """A value's field lines; a plain sequence (a printed tuple) is one table row."""
    if isinstance(value, list | tuple) and value and _plain(list(value)):
        return [f"\n{_row(value)}\n"]
    return _json_lines(list(value) if isinstance(value, tuple) else value)


def _fenced(text: str, fence: re.Pattern[str], read: Callable[[str], str]) -> str:
    """`text` with the body of each block that `fence` opens read by `read`."""
    out, at = [], 0
    for opening in fence.finditer(text):
        if opening.start() < at:
            continue
        close = _FENCE.search(text, opening.end())
        end = close.start() if close else len(text)
        out += [text[at : opening.end()], "\n", read(text[opening.end() : end]), "\n"]
        at = end
    return "".join(out) + text[at:]


def _applied(diff: str) -> str:
    """A diff applied: its removed lines ("- Verdict: correct") gone, its added ones ("+ Verdict: incorrect")
    kept without their mark, what stays as it was kept."""
    out = []
    for line in diff.split("\n"):
        if line.startswith("+") and not line.startswith("+++"):
            out.append(line[1:])
        elif not line.startswith(("-", "@@")) and line.strip():
            out.append(line[1:] if line.startswith(" ") else line)
    return "\n".join(out)


def _csv_rows(block: str) -> str:
    """CSV as table rows ("| a | b |"), its quoted cells whole; as written where it is no CSV."""
    try:
        return "\n".join(_row(row) for row in csv.reader(block.strip().split("\n")) if row)
    except csv.Error:
        return block


def _box_rows(text: str) -> str:
    """A table drawn with box-drawing characters as table rows ("| a | b |"), its rules gone; a row whose cells all
    go on in small letters after a row whose text has not ended is that row's text wrapped in its cells
    ("│ Please turn off your phones │ Koncerto metu prašome išjungti │" / "│ during the concert. │ telefonus. │")."""
    out: list[str] = []
    row: list[str] | None = None  # the row being read, while no rule has closed it
    for line in text.split("\n"):
        if line.strip() and _BOX_RULE.fullmatch(line):
            row = None
            continue
        if not _BOX_BAR.match(line.lstrip()):
            out.append(line)
            row = None
            continue
        cells = [cell.strip() for cell in _BOX_BAR.split(line.strip())[1:]]
        if len(cells) > 1 and not cells[-1]:
            cells.pop()  # the bar closing the row (a row drawn without it keeps its last cell)
        if row is not None and _wraps(row, cells):
            row[:] = [f"{a} {b}".strip() for a, b in zip(row, cells, strict=True)]
            out[-1] = _row(row)
            continue
        row = cells
        out.append(_row(cells))
    return "\n".join(out)


def _wraps(row: list[str], cells: list[str]) -> bool:
    """Whether `cells` go on with the text of `row`: as many cells, each empty or opening with a small letter, and a
    cell of `row` whose text has not ended."""
    going_on = [cell for cell in cells if cell]
    return (
        len(cells) == len(row)
        and bool(going_on)
        and all(cell[0].islower() for cell in going_on)
        and any(cell and cell[-1] not in TERMINALS for cell in row)
    )


def _once(lines: tuple[Line, ...]) -> tuple[Line, ...]:
    """The lines of a repetition loop said once: a line (or a sentence within one) repeated right after itself is
    one statement, and a last line that only begins the repeated line before it is the loop cut off."""
    kept: list[Line] = []
    repeated = False
    for line in lines:
        if len(line.text) > 80 and line.text.find(line.text[:20], 1) > 0:
            line = replace(line, text=_said_once(line.text))
        if kept and line.text == kept[-1].text:
            repeated = True
        elif not (repeated and line is lines[-1] and kept[-1].text.startswith(line.text)):
            kept.append(line)
            repeated = False
    return tuple(kept)


def _said_once(text: str) -> str:
    """`text` with each sentence repeated right after itself said once, as `_once` does with lines."""
    sentences = _SENTENCE_SPLIT.split(text)
    kept, repeated = sentences[:1], False
    for index, sentence in enumerate(sentences[1:], 1):
        if sentence == kept[-1]:
            repeated = True
        elif not (repeated and index == len(sentences) - 1 and kept[-1].startswith(sentence)):
            kept.append(sentence)
            repeated = False
    return " ".join(kept)


def ascii_digits(text: str) -> str:
    """`text` with every script's digits as ASCII digits ("٤" -> "4", "२०१२" -> "2012", "፬" -> "4")."""
    return _DIGIT.sub(lambda m: str(unicodedata.digit(m[0])), text)


def _one_script(word: regex.Match[str]) -> str:
    """A word of mixed Latin, Cyrillic and Greek letters in the one script all its letters can be read in (each
    other letter a look-alike of one of that script's), the script of most of its letters first; else as written."""
    text = word[0]
    if not (_LATIN.search(text) and _CYRILLIC_GREEK.search(text)):
        return text
    counts = sorted(((len(pattern.findall(text)), script, pattern) for script, pattern in _SCRIPT_OF), reverse=True)
    for _, script, pattern in counts:
        if all(ord(c) in _TO_SCRIPT[script] for c in pattern.sub("", text) if c.isalpha()):
            return text.translate(_TO_SCRIPT[script])
    return text


def _as_read(text: str) -> str:
    """Noise a reader reads through: look-alike letters of another script inside a word, and "0" or "1" between
    letters ("Sc0re" is "Score", "a11" stays)."""
    if _LATIN.search(text) and _CYRILLIC_GREEK.search(text):
        text = _WORD.sub(_one_script, text)
    if _MISREAD_DIGIT.search(text):
        text = _MISREAD_DIGIT.sub(lambda m: "o" if m[0] == "0" else "l", text)
    return text


def _undictated(text: str) -> str:
    """Dictated punctuation as the marks it names, and a speaker's fillers before a pause gone."""
    text = _FILLER.sub("", text)
    quotes = 0
    if "quote" in text.lower():
        text, quotes = _DICTATED_QUOTE.subn(r'"\1"', text)
    named = _DICTATED_MARK.findall(text)
    if named and (quotes or len(named) > 1 or _DICTATED_END.search(text, max(0, len(text) - 30))):
        text = _DICTATED_MARK.sub(lambda m: _DICTATED[" ".join(m[1].lower().split())], text)
    return text


def _unlooped(text: str) -> str:
    """Each line written as one piece again and again as that piece once ("Score: 3 Score: 3 Score: 3")."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if len(line) <= _LOOP_LINE and (loop := _LOOP.match(line)) and not _WORD_LOOP.fullmatch(loop["piece"]):
            lines[i] = loop["piece"]
    return "\n".join(lines)


def abstention_ends(text: str) -> tuple[int, ...]:
    """End offsets of the statements in `text` that refuse or say they cannot tell (for a family that reads a
    text derived from a `Reading` with the offsets kept)."""
    return tuple(m.end() for m in _ABSTAIN.finditer(text))
