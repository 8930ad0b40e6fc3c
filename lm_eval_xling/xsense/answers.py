"""Map a raw model reply of the multi-sense consistency tasks to the dataset label it stands for.

Ohmer et al. score a reply by the template answer it gives: it is accepted when it equals or contains
an answer word of the prompt's *instruction* language, case-insensitive (PAWS-X yes/no, ja/nein, 是/否;
XNLI A/B/C); anything else is invalid and counted under its own label, `INVALID`. So a German
instruction answered with "Yes" is invalid, as in the paper. The rules, first hit wins:

1. Normalise with NFKC (full-width "Ａ" -> "A", "：" -> ":"); words compare case-insensitively
   (ASCII case only, so a dotless "ı" never stands in for "i").
2. Opening answer: after leading quotes, brackets, "*" and punctuation, the reply starts with an
   answer token followed by punctuation, a line end, or (Chinese) 的: "Yes.", '"a"', "(C) neither",
   "Nein, die Sätze ...", "B) The first ...", "是的，...", "不是。". Requiring the break keeps
   "yes or no" and the article in "a man ..." out of this rule.
3. Contained answer: every answer token in the text. Latin tokens stand alone (no non-CJK letter,
   digit or "_" either side; a CJK neighbour is fine, as in "答案是B"); the letters A/B/C count mid-text
   only in upper case, so the article "a" never does. Chinese "不是" reads as no, and the "是" in it
   is not a separate yes. One distinct label -> that label. Several ("yes or no", "A or B") -> the
   token after the last explicit cue ("the answer is X", "Antwort: X", "答案是X", "回答：X",
   "correct option is X"), else invalid.
4. Anything else (empty, refusals, prose without an answer token) is invalid: None.
"""

from __future__ import annotations

import re
import unicodedata

INVALID = "[invalid]"  # the label an invalid reply is counted under

# task -> instruction language -> answer word -> dataset label.
# XNLI labels: 0 entailment, 1 neutral, 2 contradiction; the prompt offers A entailment, B contradiction, C neutral.
_XNLI = {"a": 0, "b": 2, "c": 1}
LABEL_WORDS: dict[str, dict[str, dict[str, int]]] = {
    "pawsx": {"en": {"yes": 1, "no": 0}, "de": {"ja": 1, "nein": 0}, "zh": {"是": 1, "否": 0, "不是": 0}},
    "xnli": {"en": dict(_XNLI), "de": dict(_XNLI), "zh": dict(_XNLI)},
}

# Wrapping around an answer (after NFKC, which turns full-width brackets and punctuation into ASCII).
_EDGE = " \t\r\n\f\v\"'“”‘’„«»()[]「」*.。!:,"
_LATIN = r"[^\W\u2e80-\u9fff]"  # a word character (letter, digit, "_") outside the CJK blocks
_BREAK = r"(?=\s*(?:[^\w\s]|$)|的)"  # what may follow an opening answer
_CUE = (  # "the answer is", "Antwort:", "答案是", "回答：", ... then opening quotes or brackets
    r"(?:(?ai:\b(?:answer|antwort|correct\s+option)(?:\s+(?:is|ist|lautet))?)|(?:答案|回答)[是为]?)"
    r"[\s:]*[\"'“‘„«(\[「*]*"
)


def _token(word: str) -> str:
    """The pattern of one answer word anywhere in a reply."""
    if not word.isascii():
        return re.escape(word)
    core = word.upper() if len(word) == 1 else f"(?ai:{re.escape(word)})"
    return rf"(?<!{_LATIN}){core}(?!{_LATIN})"


def _compile(words: dict[str, int]) -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """Opening-answer, contained-answer and cue patterns (the leftmost match wins, so "不是" hides its "是")."""
    opening = "|".join(re.escape(w) for w in words)
    tokens = "|".join(_token(w) for w in words)
    return (
        re.compile(rf"(?ai:{opening}){_BREAK}", re.MULTILINE),
        re.compile(tokens),
        re.compile(rf"{_CUE}(?P<token>{tokens})"),
    )


_PATTERNS = {(task, lang): _compile(words) for task, langs in LABEL_WORDS.items() for lang, words in langs.items()}


def standardize(response: str, task: str, language: str) -> int | None:
    """The dataset label a raw model reply stands for, or None when it is invalid.

    `language` is that of the prompt's instruction, which fixes the answer vocabulary; an unknown
    task or language raises KeyError.
    """
    words = LABEL_WORDS[task][language]
    opening, token, cue = _PATTERNS[task, language]
    text = unicodedata.normalize("NFKC", response)
    if match := opening.match(text.lstrip(_EDGE)):
        return words[match.group().lower()]
    labels = {words[m.group().lower()] for m in token.finditer(text)}
    if len(labels) > 1:
        cues = [m.group("token") for m in cue.finditer(text)]
        labels = {words[cues[-1].lower()]} if cues else set()
    return labels.pop() if len(labels) == 1 else None
