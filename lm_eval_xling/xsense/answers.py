"""Map a raw model reply of the multi-sense consistency tasks to the dataset label it stands for.

Ohmer et al. score a reply by the template answer it gives: it is accepted when it equals or contains
an answer word of the prompt's *instruction* language, case-insensitive (PAWS-X yes/no, ja/nein, 是/否;
XNLI A/B/C); anything else is invalid and counted under its own label, `INVALID`. So a German
instruction answered with "Yes" is invalid, as in the paper. The rules, first hit wins:

0. Reasoning: a reasoning model's `<think>...</think>` (also `<thinking>`, `<reasoning>`) is dropped and only
   what follows its close is judged; a reply whose reasoning never closes gave no answer (invalid).
1. Normalise with NFKC (full-width "Ａ" -> "A", "：" -> ":"); words compare case-insensitively
   (ASCII case only, so a dotless "ı" never stands in for "i").
2. Opening answer: after leading quotes, brackets, "*" and punctuation, the reply starts with an
   answer token followed by punctuation, a line end, or (Chinese) 的: "Yes.", '"a"', "(C) neither",
   "Nein, die Sätze ...", "B) The first ...", "是的，...", "不是。". Requiring the break keeps
   "yes or no" and the article in "a man ..." out of this rule.
3. Meaning phrases (PAWS-X) that a reader takes as the answer although they hold no answer word, or hold one in
   another sense: "no difference (in meaning)", "kein Unterschied", "没有区别" -> yes; the copula in
   "意思是不同的" -> no. Their words are not read again as answer tokens.
4. Contained answer: every answer token in the text. Latin tokens stand alone (no non-CJK letter,
   digit or "_" either side; a CJK neighbour is fine, as in "答案是B"); the letters A/B/C count mid-text
   only in upper case, so the article "a" never does, and a sentence-initial "A" followed by a noun ("A man is
   ...") is the article too. Chinese "不是" reads as no, and the "是" in it is not a separate yes. One distinct
   label -> that label. Several ("yes or no", "A or B") -> the token after the last explicit cue ("the answer is
   X", "Antwort: X", "答案是X", "回答：X", "correct option is X") unless an alternative follows it ("whether the
   answer is yes or no"), else invalid.
5. Anything else (empty, refusals, prose without an answer token) is invalid: None.
"""

from __future__ import annotations

import re
import unicodedata

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
    r"(?:(?ai:\b(?:answer|antwort|correct\s+option)(?:\s+(?:is|ist|lautet))?|\bI(?:\s+would|'d)\s+say)|(?:答案|回答)[是为]?+)"
    r"[\s:]*[\"'“‘„«(\[「*]*"
)


_ALTERNATIVE = r"(?![\s\"'”’»)\]」*]*(?:(?ai:or|oder)\b|或|还是|/))"  # "yes or no" after a cue is no answer
# A sentence-initial capital "A" before a word that is no verb is the article ("A man is playing ..."), not option A.
_ARTICLE = re.compile(
    r"A\s+(?!(?:is|was|would|seems|because|since|as|and|or|fits|applies|best|must|should|could|might|describes"
    r"|correctly|wäre|ist|weil|trifft|passt|oder|und|bzw)\b)[^\W\d_A-Z]"
)
_SENTENCE_END = tuple(".!?:\n。！？")
# Meaning phrases (PAWS-X): what a reader takes as the answer, with or without (another sense of) an answer word.
_PHRASES = {
    ("pawsx", "en"): [(r"(?ai:\bno\s+(?:real\s+|significant\s+)?difference\b)", 1)],
    ("pawsx", "de"): [(r"(?ai:\bkein(?:en|erlei)?\s+(?:Bedeutungsu|u)nterschied)", 1)],
    ("pawsx", "zh"): [(r"没有(?:任何)?(?:区别|差别|不同)", 1), (r"是(?:不同|不一样|不相同|有区别)", 0)],
}
_PHRASE_PATTERNS = {key: [(re.compile(p), label) for p, label in phrases] for key, phrases in _PHRASES.items()}
_REASONING_TAGS = ("think", "thinking", "reasoning")


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
        re.compile(rf"{_CUE}(?P<token>{tokens}){_ALTERNATIVE}"),
    )


_PATTERNS = {(task, lang): _compile(words) for task, langs in LABEL_WORDS.items() for lang, words in langs.items()}


def after_reasoning(reply: object) -> str:
    """What follows a reasoning model's closed reasoning block; "" when the block never closes or `reply` is no
    string."""
    if not isinstance(reply, str):
        return ""
    lower = reply.lower()
    close = max(((lower.rfind(f"</{tag}>"), tag) for tag in _REASONING_TAGS), default=(-1, ""))
    if close[0] >= 0:
        return reply[close[0] + len(close[1]) + 3 :]
    return "" if any(f"<{tag}>" in lower for tag in _REASONING_TAGS) else reply


def _is_article(text: str, start: int) -> bool:
    """Whether the "A" at `start` opens a sentence as the indefinite article."""
    before = text[max(0, start - 8) : start].rstrip(" \t\"'“‘*(")
    return (not before or before.endswith(_SENTENCE_END)) and _ARTICLE.match(text, start) is not None


def standardize(response: object, task: str, language: str) -> int | None:
    """The dataset label a raw model reply stands for, or None when it is invalid (also for a non-string, and
    for a task or language without answer words: a log's document may hold anything).

    `language` is that of the prompt's instruction, which fixes the answer vocabulary.
    """
    key = (task, language)
    if not isinstance(response, str) or not all(isinstance(k, str) for k in key) or key not in _PATTERNS:
        return None
    words = LABEL_WORDS[task][language]
    opening, token, cue = _PATTERNS[key]
    text = unicodedata.normalize("NFKC", after_reasoning(response))
    if match := opening.match(text.lstrip(_EDGE)):
        return words[match.group().lower()]
    labels = set()
    for phrase, label in _PHRASE_PATTERNS.get((task, language), ()):
        text, hits = phrase.subn(" ", text)
        labels |= {label} if hits else set()
    labels |= {
        words[m.group().lower()]
        for m in token.finditer(text)
        if not (m.group() == "A" and _is_article(text, m.start()))
    }
    if len(labels) > 1:
        cues = [m.group("token") for m in cue.finditer(text)]
        labels = {words[cues[-1].lower()]} if cues else set()
    return labels.pop() if len(labels) == 1 else None
