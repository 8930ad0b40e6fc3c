"""Map a raw model reply of the multi-sense consistency tasks to the dataset label it stands for.

Ohmer et al. score a reply by the template answer it gives: it is accepted when it equals or contains
an answer word of the prompt's *instruction* language, case-insensitive (PAWS-X yes/no, ja/nein, 是/否;
XNLI A/B/C); anything else is invalid and counted under its own label, `INVALID`. So a German
instruction answered with "Yes" is invalid, as in the paper. The rules, first hit wins:

0. The reply is read by the shared reply reader (replies.py): only what follows a closed reasoning block (a block
   that never closes gave no answer: invalid), JSON values as "key: value" lines, markdown gone, quotes and
   full-width forms folded (NFKC: "Ａ" -> "A", "：" -> ":").
1. Words compare case-insensitively (ASCII case only, so a dotless "ı" never stands in for "i").
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
   label -> that label. Several ("yes or no", "A or B") or none -> the token after the last explicit cue ("the
   answer is X", "Antwort: X", "Die Antwort lautet: (b)", "答案是X", "回答：X", "correct option is X") unless an
   alternative follows it ("whether the answer is yes or no"), else invalid.
5. Anything else (empty, refusals, prose without an answer token) is invalid: None.

`read_answer` is the better-founded variant (the `careful` filter): the shared choice reader's last explicit
commitment (choices.py), so a reply that revises ("Yes. Wait, ... so the answer is no.") is read at its revision
and one that names an option by its text ("Neither of the two.") is read; a reply with no answer word is read by
its meaning phrase ("They do not have the same meaning."), when it has one meaning only.
"""

from __future__ import annotations

import re
import unicodedata

from lm_eval_xling.choices import choice_of
from lm_eval_xling.replies import Reading, after_reasoning, read_reply

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
    small = "".join(w for w in words if len(w) == 1 and w.isascii())  # after a cue, "(b)" names option B too
    cued = f"{tokens}|(?<![^\\W\\d_])[{small}](?![^\\W\\d_])" if small else tokens
    return (
        re.compile(rf"(?ai:{opening}){_BREAK}", re.MULTILINE),
        re.compile(tokens),
        re.compile(rf"{_CUE}(?P<token>{cued}){_ALTERNATIVE}"),
    )


_PATTERNS = {(task, lang): _compile(words) for task, langs in LABEL_WORDS.items() for lang, words in langs.items()}


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
    reading = read_reply(response)
    if reading.unfinished:
        return None
    # the opening answer, as the authors read it: on the reply as written (after its reasoning), markup included
    written = after_reasoning(unicodedata.normalize("NFKC", response))[0]
    text = reading.text
    for opened in (written, text):
        if match := opening.match(opened.lstrip(_EDGE)):
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
    if len(labels) != 1:
        cues = [m.group("token") for m in cue.finditer(text)]
        labels = {words[cues[-1].lower()]} if cues else set()
    return labels.pop() if len(labels) == 1 else None


# The options' own wording in each instruction language (XNLI), for replies that name an option by its text.
XNLI_OPTION_TEXTS = {
    "en": ("the first sentence entails the second sentence", "the first sentence contradicts the second sentence",
           "neither of the two"),
    "de": ("der erste Satz impliziert den zweiten Satz", "der erste Satz widerspricht dem zweiten Satz",
           "keines von beiden"),
    "zh": ("第一个句子涵盖了第二个句子", "第一个句子与第二个句子矛盾", "两者都不"),
}  # fmt: skip
# PAWS-X meaning phrases of the careful reading: (label 0 phrases, label 1 phrases); the negated ones first.
_MEANINGS = {
    "en": (
        r"(?i:\b(?:do|does|did)\s*(?:not|n't)\s+(?:have|mean|convey|express|share)\s+the\s+same\b"
        r"|\bdifferent\s+meanings?\b|\bmean\s+different\s+things\b|\bnot\s+(?:the\s+same|paraphrases)\b)",
        r"(?i:\b(?:have|has|mean|convey|express|share)\s+(?:exactly\s+)?the\s+same\s+(?:meaning|thing)\b"
        r"|\bno\s+(?:real\s+|significant\s+)?difference\b|\bare\s+paraphrases\b)",
    ),
    "de": (
        r"(?i:\bnicht\s+(?:die\s+)?(?:gleiche|selbe|dieselbe)\s+Bedeutung|\bunterschiedliche\s+Bedeutung"
        r"|\bbedeuten\s+nicht\s+dasselbe|\bbedeuten\s+(?:etwas\s+)?(?:anderes|Verschiedenes))",
        r"(?i:\b(?:die\s+)?(?:gleiche|selbe|dieselbe)\s+Bedeutung|\bbedeuten\s+dasselbe"
        r"|\bkein(?:en|erlei)?\s+(?:Bedeutungsu|u)nterschied)",
    ),
    "zh": (
        r"(?:意思|含义|意义)(?:是)?(?:不同|不一样|不相同)|是不同的|有(?:区别|差别)",
        r"(?:意思|含义|意义)(?:是)?(?:相同|一样|一致)|没有(?:任何)?(?:区别|差别|不同)",
    ),
}


def read_answer(response: object, task: str, language: str) -> int | None:
    """The careful reading: the dataset label of the reply's last explicit commitment (or of its one meaning
    phrase, when it commits to no answer word), else None."""
    key = (task, language)
    if not isinstance(response, str) or not all(isinstance(k, str) for k in key) or key not in _PATTERNS:
        return None
    words = LABEL_WORDS[task][language]
    reading = read_reply(response)
    if task == "xnli":
        letter = choice_of(reading, ("A", "B", "C"), XNLI_OPTION_TEXTS.get(language, ()), language=language)
        return None if letter is None else words[letter.lower()]
    by_label = {label: [w for w in words if words[w] == label] for label in sorted(set(words.values()))}
    names = [ws[0] for ws in by_label.values()]
    word = choice_of(reading, names, aliases=[ws[1:] for ws in by_label.values()], language=language)
    if word is not None:
        return words[word]
    return _meaning(reading, language)


def _meaning(reading: Reading, language: str) -> int | None:
    if reading.unfinished or reading.refusal or reading.abstains or language not in _MEANINGS:
        return None
    different, same = _MEANINGS[language]
    text, negative = re.subn(different, " ", reading.text)
    positive = len(re.findall(same, text))
    if bool(negative) == bool(positive):
        return None
    return 0 if negative else 1
