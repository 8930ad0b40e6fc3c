"""Which option a reply commits to: its last explicit commitment, or None (invalid). Shared by the families whose
answer is one of a few options named by letters or words (NSP; xsense's careful reading: A/B/C, yes/no, ja/nein, 是/否).

On the `Reading` of a reply (replies.py), every mention of an option becomes one placeholder character: a capital
option letter standing alone ("B", "(A)", "Option B"), a small one when bracketed, quoted, named ("option a") or
ending a statement ("the answer is a."), its position ("the first one", "chaguo la pili", "jumla ta biyu", "第二个"),
an answer word standing alone ("nein", "否") and, when the task gives them, the option's own text. A commitment is
then one of:

- a cue and a mention: "the answer is B", "Final: B", "I choose B", "\\boxed{B}", "Jibu: B", "Amsar ita ce B",
  "答案是B"; after a weak cue ("so", "therefore", "I think") the mention must end its phrase ("So, A man ..." is
  prose);
- a mention and a verdict: "B is correct", "B is the more logical continuation", "B clearly fits the scene better",
  "B ndiyo sahihi", "B ce ta fi dacewa", "B: ✓" (not in a clause opened by "if", "although", "while", ...);
- a line that is only a mention ("B", "**Option A**", a reply that is exactly one option's sentence), unless lines
  name several options that way (an enumeration);
- a reply that opens with a mention and a separator ("B. The dog ran home.") while no other line opens with
  another option's label (an echo of the options, "A: ..." then "B: ...", commits to nothing);
- where none of these is found, a short reply whose last statement names one option, in whatever words
  ("Gbólóhùn B ló yẹ, nítorí pé ...", "Câu đúng là câu B, vì ..."), no other option named but to be taken back.

Headings never commit by a bare mention ("### Option A"), a mention that is negated ("not A", "rather than A",
"A is wrong") or offered with another ("A or B") is no commitment to one option, and the letter "A" is read by
the same rules as every other letter: "A clearly fits" commits like "B clearly fits", "A boy ran home" does not.
The last commitment wins; one that names two options, or a statement after it that the reply cannot tell (or a
refusal), makes the reply invalid. Nothing is guessed from a letter merely mentioned.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache, partial
from itertools import accumulate

from lm_eval_xling import choice_words
from lm_eval_xling.replies import CROSSES, TICKS, Reading, abstention_ends, read_reply

# Option i named by its letter or position becomes the private-use character chr(_BASE + i), named by its own text
# chr(_TEXT + i): a line that only quotes an option's text is no verdict, unless it is the whole reply.
_BASE, _TEXT = 0xE000, 0xE080
_M = "[\ue000-\ue0ff]"  # any mention
_L = "[\ue000-\ue07f]"  # a mention by letter or position
_LETTERISH = r"[^\W\u2e80-\u9fff\u3000-\u30ff\uac00-\ud7af]"  # a word character outside CJK scripts
_NAMER = (
    r"(?:option|choice|sentence|answer|letter|alternative|candidate|chaguo|sentensi|jibu|jumla|jimla|za[ɓb]i|amsa"
    r"|Satz|Option|Antwort|选项|句子|答案)"
)
_ORDINALS = {
    0: r"first|1st|kwanza|farko|erste[rn]?|第一(?:个|项|句)?",
    1: r"second|2nd|pili|biyu|zweite[rn]?|第二(?:个|项|句)?",
    2: r"third|3rd|tatu|uku|dritte[rn]?|第三(?:个|项|句)?",
}  # (the position patterns also read "the former" and "the latter")
# What joins mentions into one statement about several options ("A or B", "A, B"). A reading is single-spaced, so
# every joint is one of these strings, and a mention that follows one is never where a statement starts (each chain
# of mentions is read once: "B or B or ..." stays linear).
# (Arabic script's "and" is written joined to the next word: "A وB")
_JOINTS = (",", ", ", " ,", "/", " / ", "&", " & ", "+", " + ", " and ", " or ", " na ", " au ", " da ", " ko ",
           " und ", " oder ", "和", "或", "与", " و ", " و", " ו")  # fmt: skip
# Words that negate or set aside the mention after them (a reading is single-spaced: one lookbehind per word).
_NEGATORS = (
    "not", "never", "nor", "rather than", "instead of", "over", "than", "unlike", "except", "vs", "vs.", "versus",
    "against", "eliminate", "eliminates", "reject", "rejects", "exclude", "excludes", "si", "sio", "siyo", "ba",
    "nicht", "kein", "n't",
)  # fmt: skip
_NOT_NEGATED = (
    "".join(rf"(?<!(?i:\b{re.escape(w)}) )(?<!(?i:\b{re.escape(w)}))" for w in _NEGATORS)
    + "(?<!不是)(?<!而非)"
    + "".join(f"(?<!{mark})(?<!{mark} )" for mark in CROSSES)
)
_NEGATED_AFTER = (
    r"[ \t]*[)\]\"']?[ \t]*(?:(?:is|are|was|seems|does|do|did|would\s+be|appears\s+to\s+be|remains|ni|sio|ist)\s+)?"
    r"(?:not\b|never\b|n't\b|isn't\b|doesn't\b|wasn't\b|cannot\b|can't\b|incorrect|wrong|unlikely|less\b|false\b"
    r"|implausible|illogical|inconsistent|irrelevant|unrelated|fails|disrupts|breaks|lacks|haifai|si\b|sio\b"
    rf"|siyo\b|ba\b|falsch|nicht\b|不|错|[{CROSSES}])"
)
# Cues after which a mention is the answer; weak ones need the mention to end its phrase. A bare noun ("option")
# names a mention and is no cue: "answer" and its kin cue with a verb or a colon, or after "final", "correct", "my".
_NOUNS = (
    r"(?:answer|choice|option|selection|selected|chosen|pick|prediction|verdict|decision|response|reply"
    r"|continuation|sentence|label|result|output|conclusion)s?"
)
_VERBS = (
    r"\s+(?:is|would\s+be|will\s+be|must\s+be|should\s+be|seems\s+to\s+be|appears\s+to\s+be|here\s+is|remains"
    r"|then\s+is|lautet|ist|ni|ita\s+ce|ce|ne)\b|\s*(?::|=|->|→)"
)
_STRONG_CUES = (
    r"\b(?:(?:final|correct|right|best|my|our|logical)\s+(?:\w+\s+)?" + _NOUNS + r"(?:" + _VERBS + r")?"
    r"|" + _NOUNS + r"(?:" + _VERBS + r"))\s*(?:[:=\-–—→]|->)?",
    r"\bfinal\s*:",
    r"\b(?:would|should|must|will)\s+(?:pick|choose|select|go\s+with|opt\s+for)\b",
    r"\b(?:going|go|went|sticking|stick)\s+with\b|\b(?:my\s+)?(?:pick|vote)\s*:",
    r"\b(?:réponse|respuesta|risposta|resposta)(?:\s+(?:finale?|correcta|corretta))?\s*:",
    r"\bza[ɓb]i\w*\s*:",
    r"\b(?:one|sentence|option|continuation)\s+(?:that|which)\s+(?:best\s+)?(?:follows|fits|comes\s+next|continues"
    r"|makes\s+(?:the\s+)?(?:most\s+)?sense)(?:\s+\w+){0,3}?\s+is\b",
    r"\b(?:I|we)(?:\s+would|\s+will|'d|'ll|\s+therefore|\s+still|\s+now|\s+must|\s+should|\s+shall)?"
    r"\s+(?:(?:have\s+to|must|definitely|confidently)\s+)?(?:choose|chose|pick|picked|select|selected|go\s+with"
    r"|opt\s+for|vote\s+for|settle\s+on|answer|stick\s+with|stay\s+with|change\s+(?:my\s+answer\s+)?to|switch\s+to)\b",
    r"\bit(?:'s|\s+is|\s+must\s+be|\s+should\s+be|\s+has\s+to\s+be)\s+(?:clearly\s+|definitely\s+)?(?=\W*" + _M + ")",
    r"\\boxed\{(?:\\text(?:bf)?\{)?",
    rf"[{TICKS}]\ufe0f?(?![ \t]*$)",  # "✅ A" (not a mark ending a table's row: the next row is not its option)
    r"\bjibu\b(?:\s+\w+){0,3}?\s*(?:\bni\b|:)",
    r"\b(?:nachagua|nimechagua|ninachagua|chaguo\s+langu\s+ni)\b",
    r"\bamsa\w*(?:\s+\w+){0,3}?\s*(?:\bita\s+ce\b|\bshi\s+ne\b|\bce\b|\bne\b|:)",
    r"\b(?:na|zan)\s+za[ɓb]i\b",
    r"\b(?:Antwort|Lösung)(?:\s+(?:lautet|ist))?\s*:?|\bich\s+wähle\b",
    r"(?:正确|我的)?(?:答案|回答)(?:应该)?(?:是|为|：|:)|我(?:会)?选(?:择)?|应该选|应选|选",
)
_WEAK_CUES = (
    r"\b(?:actually|wait|correction|rather|instead|I\s+mean|on\s+second\s+thought)\b[,.!:]*(?:\s+no\b[,.!]*)?",
    r"\b(?:clearly|definitely|certainly|obviously|surely|bila\s+shaka|hakika|ba\s+shakka|tabbas|eindeutig)\b,?",
    r"\b(?:therefore|thus|hence|so|overall|consequently|in\s+conclusion|in\s+summary|conclusion|to\s+conclude"
    r"|kwa\s+hiyo|kwa\s+hivyo|hivyo|basi|saboda\s+haka|don\s+haka|also|daher|因此|所以)\b,?"
    r"(?:\s+(?:it's|it\s+is|the\s+answer\s+is|option|sentence))?",
    r"\bI\s+(?:would\s+|'d\s+)?(?:believe|think|say|conclude|prefer|guess|suppose)\b(?:\s+(?:that|it's|it\s+is))?",
    r"\bich\s+(?:würde\s+sagen|denke|glaube|meine)\b|我(?:认为|觉得|的答案是)",
)
_PHRASE_END = r"(?=\s*[)\]}\"']?\s*(?:[.!,;:)،؛，、。！]|$|\n|\s-|\s—|\s\())"
_QUALITY = (
    r"(?:(?:the|a|an)\s+)?(?:(?:most|more|much|far|clearly|definitely|obviously|the|best|better|correct|right"
    r"|logical|natural|only)\s+){0,3}"
    r"(?:correct|right|best|better|answer|(?:more|most)\s+(?:\w+\s+)?(?:logical|likely|plausible|coherent|natural"
    r"|appropriate|sensible|consistent|reasonable|suitable|fitting|probable|fluent)(?!\s+to\s)"  # not "likely to occur"
    r"|logical\s+(?:next|choice"
    r"|continuation|answer|option|sentence)|continuation|(?:\w+\s+)?next\s+(?:sentence|step|line|event|part|one)"
    r"|one\s+that\s+(?:follows|fits|comes)"
    r"|(?:better|best|correct|right|logical|natural)\s+(?:fit|choice|option|answer|continuation|sentence))\b"
)
_VERDICT_VERBS = (
    r"(?:makes?\s+(?:the\s+)?(?:most|more)\s+sense|fits?\s+(?:\w+\s+){0,3}?(?:best|better|most|well)"
    r"|fits?\s+(?:the\s+)?(?:story|context|scene|narrative)|comes?\s+next|is\s+next|follows(?:\s+(?:\w+\s+)?"
    r"(?:logically|naturally|best|directly|on|better))?\s*(?:[.!,;]|$)|flows\s+(?:\w+\s+)?(?:naturally|logically"
    r"|better|best|smoothly)|continues\s+(?:the\s+)?(?:story|narrative|context))"
)
_PREDICATES = (
    r"\s*[)\]\"']?\s*(?:(?:is|seems|would\s+be|appears(?:\s+to\s+be)?|remains|must\s+be|should\s+be)\s+)"
    r"(?:(?:clearly|definitely|also|therefore|thus|still|indeed|certainly|obviously)\s+)?" + _QUALITY,
    r"\s*[)\]\"']?\s*(?:(?:clearly|definitely|also|therefore|thus|still|indeed|certainly|obviously|better|best)\s+)?"
    + _VERDICT_VERBS,
    rf"\s*[)\]\"']?\s*(?:[:=\-–—|]\s*)?[{TICKS}]",
    r"\s*[)\]\"']?\s*[:=\-–—]\s*(?:correct|right|yes)\b\s*(?:[.!,;(]|$)",
    r"\s*[)\]\"']?\s+(?:does|do|it\s+is|is\s+it|wins)\s*(?:[.!,;]|$)",  # "B does.", "Option B it is."
    r"\s*(?:ndiyo|ndio|ni\s+(?:sahihi|bora|jibu|sentensi))\b",
    r"\s*(?:(?:ita\s+)?(?:ce|ne)\s+(?:ta\s+fi|mafi|amsa|daidai)|ya\s+fi|ta\s+fi|shi\s+ne|ce\s+daidai)\b",
    r"\s+(?:ce|ne)(?=\s*(?:[.!,;]|$))",  # Hausa "B ce." ("it is B")
    r"\s*(?:是正确|正确|更(?:合理|符合|合适|自然|好)|最(?:合理|符合|合适|好))",
    r"\s*(?:ist\s+(?:richtig|korrekt|die\s+(?:richtige|korrekte)\s+Antwort)|passt\s+(?:besser|am\s+besten))",
)
_MODAL = re.compile(r"(?i:\b(?:would|could|might|may)\b)")
_CONDITIONAL = re.compile(
    r"(?i:\b(?:if|unless|although|though|while|whereas|even|whether|kama|ingawa|idan|ko\s+da\s+yake|wenn|obwohl"
    r"|falls))\b|如果|虽然|假如"
)
_SUPPOSING = re.compile(
    r"(?i:\b(?:were|had|assume|assuming|suppose|supposing|meant|imagine|imagining|pretend|würde|wäre|hätte"
    r"|angenommen)\b)|假如|假设"
)
_FORCED_CHOICE = re.compile(
    r"(?i:\bif\s+(?:I|we)\s+(?:had|have|must|were\s+forced)\s+to\b|\bif\s+(?:forced|pressed|I\s+must)\b)"
)
_LIST_ITEM = re.compile(r"[ \t]*\(?(?:\d{1,2}|[A-Za-z])[.)][ \t]+")  # "1. ", "B) ", "(a) "
# (full stops, commas and question marks of the tasks' scripts: Ethiopic, Arabic, Devanagari, Burmese, Khmer, CJK)
_CLAUSE_MARKS = ".!?;,:。！？，；：、።፣፤፧؟،؛۔।॥။၊។៕—–։՝"
_CLAUSE_START = re.compile(rf"(?!(?<=\d)[.,]\d)[{_CLAUSE_MARKS}\n]")  # (not a decimal point: "1.5")
_SENTENCE_START = re.compile(r"(?!(?<=\d)\.\d)[.!?;\n。！？።፧؟۔।॥။។៕։]+")  # ("B... oya": one stop)


@dataclass(frozen=True)
class _Patterns:
    lettered: bool  # some option is named by a letter
    mentions: tuple[tuple[re.Pattern[str], str], ...]
    strong: re.Pattern[str]
    weak: re.Pattern[str]
    praised: re.Pattern[str]
    praised_in_words: re.Pattern[str]  # praise in the language lists' words: no modal, no condition in its sentence
    lone: re.Pattern[str]
    label: re.Pattern[str]
    field: re.Pattern[str]
    labelled: re.Pattern[str]  # "<any label>: B", "Javob: B) -4": a label and a colon before one option
    final: re.Pattern[str]  # the letter ending the reply's last statement ("Waa B.", "C'est B.", "Bです", "B'dir")
    restated: re.Pattern[str]  # a last line that only restates an option ("**C) Yalnız III**", "Jibu: <B's text>")
    far: re.Pattern[str]  # an answer noun a few words before a mention that ends its phrase ("Jibu sahihi ni A.")
    contrast: re.Pattern[str]  # an answer noun before one option taken back and another ("is not A but B")
    hedged: re.Pattern[str]  # a hedge that still commits ("probably B", "Watakila A,")
    joined: re.Pattern[str]  # a joint ending a text ("Madrid, or ")
    answer: re.Pattern[str]  # every language's nouns for "answer"
    correct: re.Pattern[str]  # every language's words for "correct"
    # the reply language's and English's words that commit (every language's together collide in a whole sentence:
    # Dutch "past", "fits", in "the past tense")
    answer_own: re.Pattern[str]
    correct_own: re.Pattern[str]
    hedge_own: re.Pattern[str]
    negation: re.Pattern[str]  # the language's negators ("not", "değil", "emas", "不是")
    wrong: re.Pattern[str]  # the language's words that reject an option ("incorrect", "yanlış", "noto'g'ri")
    conditional: re.Pattern[str]
    doubt: re.Pattern[str]


# a one-letter word written joined to the next in Arabic and Hebrew script ("B وC": "and C"; "הB")
_PROCLITIC = r"(?<=(?<!\w)[\u0648\u0641\u0628\u0644\u0643\u05d5\u05d4\u05d1\u05dc\u05de\u05e9])"


def _letter_mentions(c: str, mark: str) -> list[tuple[str, str]]:
    """How a reply names the option lettered `c` (an ASCII capital)."""
    low, own_text = c.lower(), chr(ord(mark) - _BASE + _TEXT)
    return [
        (rf"(?<=[(\[\"'])[{c}{low}](?=[)\]\"'])", mark),  # (A) "b" [a]; not LaTeX's "{a}"
        (rf"(?i:\b(?P<n>{_NAMER}))[ \t]+\(?[{c}{low}](?!{_LETTERISH})", rf"\g<n> {mark}"),
        # "B", "B'dir", "Bです", "C-dir"; not "A's", "A-level" nor the abbreviation in "E. coli"
        # (a suffix after a hyphen: "C-dir", "B-ге"; not "A-level"), nor an article before another option's text
        # ("A palindrome": the text of B)
        (
            rf"(?:(?<!{_LETTERISH})|{_PROCLITIC})(?<!['’-]){c}(?!{_LETTERISH})(?!['’][sS]\b)(?!-(?![^\W\d_]{{1,4}}(?![^\W\d_]))\w)"
            rf"(?!\.[ \t]?[a-z])(?![ \t]+(?!{own_text})[\ue080-\ue0ff])",
            mark,
        ),
        # after a copula or class prefix and a hyphen ("ngu-C", "yi-B"), or a Nguni copula written joined ("nguA")
        (rf"(?<![^\W\d_])(?P<p>[A-Za-z][a-z]{{1,2}}-|(?i:ng[ui]|yi))-?{c}(?!{_LETTERISH})(?!['’-])", rf"\g<p>{mark}"),
        (rf"(?:{_COPULAS})[ \t]*{low}(?={_PHRASE_END})", " " + mark),
        (rf"^[ \t\"'(\[{{]*{low}(?=[ \t\"')\]}}.!]*$)", mark),  # a line that is only "b"
        (rf"(?<!{_LETTERISH}){low}(?!{_LETTERISH})(?=(?i:{'|'.join(_PREDICATES)}))", mark),
    ]


def _position_mention(i: int, mark: str) -> list[tuple[str, str]]:
    """How a reply names the i-th option by its position ("the second one", "chaguo la pili", "第二个")."""
    ordinal = _ORDINALS.get(i)
    if ordinal is None:
        return []
    position = (
        rf"(?i:\b(?:the )?(?:{ordinal}) (?:one|option|sentence|choice|alternative|continuation)\b"
        rf"|\bthe (?:{ordinal})(?= ?[.!]? ?$)|\bthe {('former', 'latter', 'third')[i]}\b"
        rf"|\bthe (?:one|option|sentence|choice) (?:listed|given|shown|presented|mentioned|written) (?:{ordinal})\b"
        rf"|\b(?:option|sentence|choice) (?:number )?{i + 1}\b(?!\.\d)"
        rf"|\b(?:chaguo|sentensi|jibu|jumla|jimla|za[ɓb]i|amsa) (?:la|ya|ta|na) (?:{ordinal})\b"
        rf"|\b(?:der|die|das) (?:{ordinal}) (?:Satz|Option)\b)|(?:{ordinal})(?:个|项|句)(?:选项|句子)?"
    )  # a reading is single-spaced: " " never crosses a line
    return [(position, mark)]


_CJK = r"[\u3400-\u9fff]"
# the decimal digits of every script, by value ("2", "۲", "२", "២")
_DIGITS = {
    value: [
        chr(c)
        for c in range(0x30, 0x10000)
        if unicodedata.category(chr(c)) == "Nd" and unicodedata.digit(chr(c)) == value
    ]
    for value in range(1, 10)
}
# the rest of a word after a stem or a noun: an inflection or a combining mark ("variantı", Persian "گزینهٔ")
_ENDING = r"[^\s\ue000-\ue0ff.,:;!?()\[\]\"'«»。，：；！？]{0,4}"
_WORD = r"[^\s.!?;:,。！？，；：،؛۔।॥။။።()\[\]\ue000-\ue0ff]{1,30}"  # one word of any script
_UNSPACED = r"\u0e00-\u0fff\u1000-\u109f\u1780-\u17ff\u3040-\u30ff\u3400-\u9fff"
_UNSPACED_CHAR = f"[{_UNSPACED}]"  # scripts without spaces
_SPACED_WORD = rf"[^\s{_CLAUSE_MARKS}()\[\]\ue000-\ue0ff{_UNSPACED}]{{1,30}}"
# one word after a letter ending a statement; in a script without spaces a few characters (a particle: "Bです")
_PARTICLE = rf"(?:{_UNSPACED_CHAR}{{1,4}}(?!{_UNSPACED_CHAR})|{_SPACED_WORD})"


def _word_mention(word: str, mark: str) -> tuple[str, str]:
    """A word that names an option ("yes", "nein", "否"): standing alone; a Chinese one also after "答案是" and
    before "的" ("是的")."""
    if not re.search(_CJK, word):
        return rf"(?<!{_LETTERISH})(?i:{re.escape(word)})(?!{_LETTERISH})", mark
    after_cue = "".join(f"|(?<={cue})" for cue in ("答案是", "答案为", "回答是", "应该是", "选择"))
    return rf"(?:(?<!{_CJK}){after_cue}){re.escape(word)}(?:(?!{_CJK})|(?=的))", mark


@lru_cache(maxsize=64)
def _compile(names: tuple[tuple[str, ...], ...], language: str | None = None) -> _Patterns:
    """`names[i]` are the names of option i: one ASCII capital letter (then also its position), or words;
    `language` picks the word lists (choice_words: its own and English; None: English's)."""
    by_length: list[tuple[str, int]] = sorted(
        ((name, i) for i, option in enumerate(names) for name in option), key=lambda n: -len(n[0])
    )
    mentions: list[tuple[str, str]] = []
    # positions read first ("the second sentence", "A doua variantă": the second option, not a letter)
    positions: list[tuple[str, str]] = []
    ordinals: list[tuple[str, str]] = []
    for name, i in by_length:  # longer names first: "不是" is read before its "是"
        mark = chr(_BASE + i)
        if _is_letter(name):
            mentions += _letter_mentions(name, mark)
            positions += _position_mention(i, mark)
            # "ikinci variant", "variant ikkinchi", "второй вариант" in any language's words
            position, option = choice_words.ordinal(i), choice_words.pattern("option")
            number = f"[{''.join(_DIGITS[i + 1])}]" if i + 1 in _DIGITS else "(?!)"
            # ... and its number in any script ("opsi ke-1", "گزینهٔ ۲"): one pattern, one pass of the noun's trie
            numbered = rf"(?:(?i:ke|no|nr)[-.]?[ \t]?|№[ \t]?|#)?{number}(?![\d.,]\d|\d)"
            ordinals.append((rf"{position}[ \t]+{option}|{option}{_ENDING}[ \t]+(?:{position}|{numbered})", mark))
            if i == len(names) - 1:
                mentions.append((r"(?i:\bthe last (?:one|option|choice|alternative|sentence)\b)", mark))
        else:
            mentions.append(_word_mention(name, mark))
    # the options a statement names ("A or B", "A yoki B", "A 或 B": one statement about both)
    words_joining = (
        *(j for j in _JOINTS if j.startswith(" ") and j.strip().isalpha()),
        *(f" {w} " for w in choice_words.entries("joint", language) if not w.endswith("*")),
    )
    joints = (*_JOINTS, *words_joining, *("," + w for w in words_joining))  # "A or B", "A, or B", "A, ir B"
    joint = "(?:" + "|".join(re.escape(j) for j in sorted(set(joints), key=len, reverse=True)) + ")"
    joining = rf"(?i:(?:{'|'.join(re.escape(w.strip()) for w in words_joining)})(?!\w))"  # ("maybe X or B": two)
    chain_start = "".join(rf"(?<!{_M}{re.escape(j)})" for j in sorted(set(joints)))
    group = rf"(?={_M}){_NOT_NEGATED}{chain_start}(?P<g>{_M}(?:{joint}{_M})*+)(?!{_NEGATED_AFTER})"
    words = {kind: choice_words.pattern(kind, language) for kind in choice_words.KINDS}
    namer = rf"(?i:{_NAMER}|{words['option']})"
    named = rf"(?i:(?:the\s+)?{namer}{_ENDING}\s+)?"
    # an option praised in any language's words ("B to'g'ri", "A дұрыс", "B variantı doğrudur", "Bが正しい"), or
    # called the answer ("A variantidagi ifoda eng to'g'ri javobdir", "B is my final answer")
    praise = (
        rf"(?:[ \t]*[)\].:\-–—]?(?:[ \t]*{_WORD}){{0,2}}?[ \t]*{words['correct']}(?:[ \t]+{_WORD})?"
        rf"|(?:[ \t]+{_WORD}){{0,4}}?[ \t]+{words['answer']})(?={_PHRASE_END})"
    )
    predicates = "|".join(_PREDICATES)
    gap = r"[ \t\"'(\[{*:\-–—=>]*+(?:\n[ \t\"'(\[{*:\-–—=>]*+)?"  # at most into the next line
    lines = re.MULTILINE  # the patterns read a whole reading: "^" and "$" are a line's ends
    return _Patterns(
        lettered=any(_is_letter(name) for option in names for name in option),
        mentions=tuple((re.compile(pattern, lines), mark) for pattern, mark in positions + ordinals + mentions),
        strong=re.compile(
            rf"(?:(?i:{'|'.join(_STRONG_CUES)})|{words['answer']}{_UNSPACED_CHAR}{{0,4}}?[ \t]*(?:[:=\-–—→՝]|->)?)"
            rf"{gap}{named}{group}",
            lines,
        ),
        # a hedge that still commits: "probably B", "Watakila A, domin ...", "Tarii B ta'uu mala", "可能是B"
        hedged=re.compile(
            rf"{words['hedge']}{_UNSPACED_CHAR}{{0,6}}?,?(?:[ \t]+(?!{words['negation']}|{joining}){_WORD}){{0,3}}?"
            rf"{gap}{named}{group}"
            rf"(?=(?:['’-][^\W\d_]{{1,4}})?(?:[ \t]+{_WORD}){{0,2}}[ \t]*[,，、.!;]|{_PHRASE_END})",  # ("a B-t kell")
            lines,
        ),
        far=re.compile(
            rf"{words['answer']}(?:[ \t]+(?!{words['negation']}){_WORD}){{1,3}}?[ \t]*[:=\-–—→]?[ \t]*{named}{group}"
            rf"(?=[ \t)\]}}\"'*]*(?:['’-]?{_WORD}|[ \t]+{_WORD})?[ \t\"')\]}}*]*(?:[.!,;:)(。！।॥။።۔،؛，、–—]|$))",
            lines,
        ),
        # "The answer is not A but B", "La respuesta no es A sino B", "Cevap A değil, B'dir", "መልስ A ሳይሆን B ነው"
        contrast=re.compile(
            rf"{words['answer']}(?:[ \t]+(?!{words['negation']}){_WORD}){{0,3}}?[ \t]*[:=\-–—→]?[ \t]*"
            rf"(?:{words['negation']}(?:[ \t]+{_WORD})?[ \t]+{_M}|{_M}[ \t,]*{words['negation']})"
            rf"[ \t,]*(?:(?!{words['negation']}){_WORD}[ \t]+)?{group}"
            rf"(?=[ \t)\]}}\"'*]*(?:['’-]?{_WORD}|[ \t]+{_WORD})?[ \t\"')\]}}*]*"
            rf"(?:[.!,;:)(。！।॥။።۔،؛，、–—፤]|$))",
            lines,
        ),
        weak=re.compile(
            rf"(?i:(?:{'|'.join(_WEAK_CUES)})){gap}{named}{group}(?:{_PHRASE_END}|(?=(?i:{predicates})))", lines
        ),
        # a predicate on the mention's line (checked first: the group's look-behinds are the costly part)
        praised=re.compile(rf"(?={_M}(?![ \t]*$)){group}(?i:(?:{predicates}))", lines),
        praised_in_words=re.compile(rf"(?={_M}(?![ \t]*$)){group}{praise}", lines),
        # a line, or a line's last sentence, that is only a mention by letter or position
        lone=re.compile(
            rf"(?:^|[ \t][–—-][ \t])[ \t\"'(\[{{]*+(?P<n>{namer}[ \t]*[:\-]?[ \t]*[(\[]?)?(?P<g>{_L})"
            r"[ \t\"')\]}]*+(?:[.!]+(?=\s)|[.!。]*$)"
            # a sentence of its own inside a line ("A is not right. B. The trader returns."), unless the line labels
            # several options so ("... in children. C. <a name> is ... D. <a name> is ...": reasons, one per option)
            rf"|(?<=[.!?;。])[ \t]*[ \t\"'(\[{{]*+(?P<m>{namer}[ \t]*[:\-]?[ \t]*[(\[]?)?(?P<k>{_L})"
            r"[ \t\"')\]}]*+(?:[.!]+(?=\s)|[.!。]*$)"
            # "→ B", "...: nein." ending a line
            rf"|(?:→|->|=>|:)[ \t]*[\"'(\[{{]*(?P<h>{_L})[\"')\]}}]*[ \t]*[.!。]*$",
            lines,
        ),
        # a line that opens with an option's label ("B.", "A: ...", "Option B:", "(a) ...")
        label=re.compile(
            rf"^[\s\"'(\[{{]*(?P<n>(?i:{_NAMER})\s*)?(?P<g>{_L}(?:{joint}{_L})*+)(?:[\"')\]}}]|\s*(?:[.:,\-–—。，：۔።।]|$)|\s+\()"
        ),
        field=re.compile(rf"^[^:\n]{{0,40}}:\s*[\"'(\[]*(?P<g>{_M}(?:{joint}{_M})*+)[\"')\]]*\s*[.!]?$"),
        labelled=re.compile(
            rf"^(?P<label>[^\n:：፦\ue000-\ue0ff\d]{{1,40}}?)[ \t]*[:：፦][ \t]*[\"'(\[{{`]*{group}"
            rf"(?P<rest>[ \t]*(?:[)\].:,(\-–—][^\n]*)?|(?P<clause>[ \t]+[^\n]*))$",
            lines,
        ),
        final=re.compile(
            rf"{group}(?:['’-][^\W\d_]{{1,12}})?[ \t)\]}}\"'*:]*+(?:{_PARTICLE}[ \t\"')\]}}*]*+)?"
            rf"(?:[–—][ \t]*+(?P<own>[\ue080-\ue0ff])[ \t]*+(?:\([^()\n]{{0,60}}\)[ \t]*+)?)?"
            r"(?:[.!。！।॥။။።۔։]++[ \t]*+\Z|(?P<bare>\Z))"
        ),
        restated=re.compile(
            rf"\A[ \t\"'(\[{{*]*+(?P<label>[^\n:：\ue000-\ue0ff \t\"'(\[{{*][^\n:：\ue000-\ue0ff]{{0,39}}[:：][ \t]*+)?"
            rf"[\"'(\[{{*]*+(?P<g>{_M})[ \t\"')\]}}*.:]*+(?:\([^\n]*\))?[ \t.!。]*+\Z"
        ),
        joined=re.compile(rf"(?:{joint})[ \t]*\Z"),
        answer=re.compile(words["answer"]),
        correct=re.compile(words["correct"]),
        answer_own=re.compile(choice_words.pattern("answer", language, own=True)),
        correct_own=re.compile(choice_words.pattern("correct", language, own=True)),
        hedge_own=re.compile(choice_words.pattern("hedge", language, own=True)),
        negation=re.compile(words["negation"]),
        wrong=re.compile(words["wrong"]),
        conditional=re.compile(words["conditional"]),
        doubt=re.compile(words["doubt"]),
    )


def _fold(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split()).strip(" .!?\"'")


# a label a source stored in every option's text ("a.\tLassa fever"): the presentation's, so any letter's label
# before the rest is that option's text ("B. Lassa fever" where the options were given in another order)
_STORED_LABEL = re.compile(r"[(\[]?[a-z][.)\]][ \t]*")
_ASIDE = re.compile(r"[ \t]*\([^()]*\)\Z")  # an aside in brackets ending a text


def _mark_texts(text: str, texts: Sequence[str]) -> str:
    """An option's own text (at least 8 characters, or 3 in a CJK script) becomes its text mention, with the rest of
    its last word where a few letters remain (an ending or a variant spelling: "Sumqayıtdır", "pneumoniae"); longer
    texts first, so an option whose text holds another's ("yalnız II" in "yalnız II və III") is read as itself; a
    text is also named without the aside in brackets that ends it."""
    folded_texts = [(_fold(option) if isinstance(option, str) else "", i) for i, option in enumerate(texts)]
    labelled = len(texts) > 1 and all(_STORED_LABEL.match(folded) for folded, _ in folded_texts)
    # and without an aside in brackets that ends it ("Noka ya Orange (Gariep)" named "Noka ya Orange")
    folded_texts += [(bare, i) for folded, i in folded_texts if (bare := _ASIDE.sub("", folded)) != folded]
    for folded, i in sorted(folded_texts, key=lambda t: -len(t[0])):
        if len(folded) >= (3 if re.search(_CJK, folded) else 8):
            ending = r"(?:[^\W\d_]{1,4}(?![^\W\d_]))?" if folded[-1:].isalpha() and not re.search(_CJK, folded) else ""
            label = _STORED_LABEL.match(folded).end() if labelled else 0
            words = " ".join(map(re.escape, folded[label:].split()))
            text = re.sub(
                f"(?i){f'(?-i:{_STORED_LABEL.pattern})' if label else ''}{words}{ending}", chr(_TEXT + i), text
            )
    return text


def _shouted(line: str) -> bool:
    """Every letter of the line a capital: not a line of a script without capitals ("...是H2O，所以正确答案是B。")."""
    return all(c.isupper() for c in line if c.isalpha())


# What a small letter ending a statement may follow to be an option ("the answer is a.", "jibu ni b.").
_COPULAS = (
    "|".join(rf"(?<=\b{w} )" for w in ("is", "be", "ni", "ce", "ne", "ist", "lautet", "choose", "pick")) + "|(?<=:)"
)
# an all-caps line, unless it opens with an option's label ("B. HIV 2": the label stays a label)
_CAPS = re.compile(r"^(?=[^\n]*?[A-Z]{2})([ \t\"'(\[{]*[A-Z][.):][ \t]+)?([^a-z\n]*)$", re.MULTILINE)
_SAME_TWICE = re.compile(rf"({_M})[ \t,:(\"'\-–—)]*({_M})")


# Option letters written in another script, standing alone (not a name's initial: "А. Байтұрсынов"): a look-alike
# of a Latin capital (Cyrillic "В", Greek "Β", an emoji "🅱") or its transliteration (Cyrillic "Б", "Д"), or a
# script's own letters in their order (Greek "Γ" "Δ", Arabic "أ ب ج د" with Persian and Urdu's "الف", Hebrew
# "א ב ג ד", Devanagari "क ख ग घ", Thai "ก ข ค ง", Ethiopic "ሀ ለ ሐ መ", Burmese "က ခ ဂ ဃ", the other Indic and
# Southeast Asian scripts, Georgian, Armenian). Cyrillic "В" is B, though third in its alphabet, and "Г" is no
# option: models that answer Latin letters in Cyrillic write "Б)" and "Д)" for B and D (real4's Kazakh and Tatar
# replies); but followed by the text of the option at its place in the alphabet, "В" and "Г" are C and D.
_OTHER_LETTERS = {
    **{chr(0x1F170 + i): chr(0x41 + i) for i in range(26)},  # 🅰 🅱 ...
    **dict(zip("АБВСДЕΑΒΓΔΕ", "ABBCDEABCDE", strict=True)),
    **{
        letter: chr(0x41 + i)
        for alphabet in (
            "أبجده",
            "אבגדה",
            "कखगघङ",
            "কখগঘঙ",
            "აბგდე",
            "ԱԲԳԴԵ",
            "กขคงจ",
            "ກຂຄງຈ",
            "કખગઘઙ",
            "ੳਅੲਸਹ",
            "କଖଗଘଙ",
            "កខគឃង",
            "ကခဂဃင",
            "ሀለሐመሠ",
            "அஆஇஈஉ",
            "అఆఇఈఉ",
            "ಅಆಇಈಉ",
            "അആഇഈഉ",
        )
        for i, letter in enumerate(alphabet)
    },
    "ا": "A",
}
_OTHER_LETTER = re.compile(
    rf"(?<![^\s(\[{{\"'*:：\-–—])(?:الف|[Г{''.join(_OTHER_LETTERS)}]\ufe0f?)(?=[\s.,;:!?)\]}}\"'*।॥؟،。：۔።၊။។·]|$)"
)
_CYRILLIC_ORDER = "АБВГДЕ"
_TEXT_AFTER = re.compile(r"[ \t]*[.):\]]?[ \t]*([\ue080-\ue0ff])")  # "В) <the third option's text>"


_NO_MARKS = dict.fromkeys(range(0xE000, 0xE100), "\ufffd")


def _latin_letter(text: str, letter: re.Match[str]) -> str:
    """The Latin letter for another script's, unless it is a name's initial ("А. Байтұрсынов")."""
    if (
        re.match(r"\.[ \t]*(?=\w)(?!\d)", text[letter.end() : letter.end() + 3])
        and text[letter.end() : letter.end() + 8].lstrip(". \t")[:1].isupper()
    ):
        return letter[0]
    # a Cyrillic letter in its alphabet's order where the option's own text follows it ("В) Угљен-диоксид": C)
    if (after := _TEXT_AFTER.match(text, letter.end())) and _CYRILLIC_ORDER.find(letter[0]) == _index(after[1]):
        return chr(0x41 + _index(after[1]))
    return "A" if letter[0] == "الف" else _OTHER_LETTERS.get(letter[0][0], letter[0])


def _mark(text: str, patterns: _Patterns, texts: Sequence[str]) -> str:
    """The text with every option mention replaced by its mark (its lines kept)."""
    text = text.translate(_NO_MARKS)  # the reply's own private-use characters are no marks
    text = _CAPS.sub(lambda m: m[0] if m[1] or not _shouted(m[0]) else m[0].lower(), text)  # read as any line
    text = _mark_texts(text, texts)  # (before other scripts' letters: "D) Б гына дөрес" quotes D's text)
    if patterns.lettered:
        text = _OTHER_LETTER.sub(partial(_latin_letter, text), text)
    for pattern, mark in patterns.mentions:
        text = pattern.sub(mark, text)
    return _mark_short_texts(text, texts)


def _mark_short_texts(text: str, texts: Sequence[str]) -> str:
    """An option's text too short to be marked anywhere ("1945", "Tallinn", "True") is marked where it can only be
    the option: after its own letter ("B – Tallinn", "C: Brasília", "A (Glomma)"), before it in brackets ("1945
    (A)"), boxed ("\\boxed{5}"), ending the reply, maybe before a copula ("So the prime number is 29.", "राजधानी
    मुंबई आहे."), unless the last sentence names another option too ("... ó sì rọ́pò Èkó.": it replaced Lagos),
    opening it ("False. This is a popular myth ...", "Simba ndiye ...") or as a line's label ("Dolphin: mammal ✓")."""
    lowered = text.casefold()
    folded_texts = [_fold(option) if isinstance(option, str) else "" for option in texts]
    body = lowered.rstrip(" \t.!。！।॥။።۔։")
    last = body[_opening(_SENTENCE_START, body, len(body)) :]  # the last sentence
    for i, folded in enumerate(folded_texts):
        if not folded or chr(_TEXT + i) in text or folded not in lowered:
            continue
        letter, mark = re.escape(chr(_BASE + i)), chr(_TEXT + i)
        word = rf"(?<![^\W_])(?i:{re.escape(folded)})(?![^\W_])"
        others = any(
            j != i and re.search(f"[{chr(_BASE + j)}{chr(_TEXT + j)}]|(?<![^\\W_]){re.escape(other)}(?![^\\W_])", last)
            for j, other in enumerate(folded_texts)
            if other
        )
        ending = (
            "(?!)" if others else rf"(?<=[ \t:=]){word}(?=(?:[ \t]+[^\s.!?,;:]{{1,6}})?[ \t]*[.!。！।॥။።۔։]?[ \t]*\Z)"
        )
        text = re.sub(
            rf"(?P<before>{letter}[ \t]*(?:[)\].:：,՝–—]|[ \t]-)?[ \t]*[(\[]?){word}"
            rf"|{word}(?=[ \t]?[(\[]{letter}[)\]])|(?<=\\boxed\{{){word}(?=\}})"
            rf"|{ending}|\A{word}(?=[ \t]*(?:[.:{TICKS}]|[–—][ \t]|[^\W\d_]))"
            rf"|(?<=\n){word}(?=[ \t]*[:：{TICKS}{CROSSES}])",
            partial(_before_and, mark),
            text,
        )
    return text


def _before_and(mark: str, match: re.Match[str]) -> str:
    return (match["before"] or "") + mark


# a reply's first sentence that is one option's text, maybe after an article ("False. ...", "A palindrome — ...")
_OPENER = re.compile(r"[ \t\"'(\[{*]*(?:[^\W\d_]{1,3}[ \t]+)?([\ue080-\ue0ff])[ \t\"')\]}*]*(?:[.!]|[–—:][ \t])")


def _merge(text: str) -> tuple[str, list[int]]:
    """One option named twice in a row ("Option B ("<its text>")") is one mention, by its first mark; a label's
    colon stays ("Option A: <its text>. ..." still labels a discussion). Also where, in the merged text, a letter
    was followed by its option's own text ("D) <D's text>": the option cited in full)."""
    cited, shrunk = [], 0

    def merged(m: re.Match[str]) -> str:
        nonlocal shrunk
        if _index(m[1]) != _index(m[2]):
            return m[0]
        if ord(m[1]) < _TEXT <= ord(m[2]) and re.search(r"[.:)\]–—]", m[0]):
            cited.append(m.start() - shrunk)
        opens_line = not text[text.rfind("\n", 0, m.start()) + 1 : m.start()].strip(" \t\"'([{*")
        sep = re.search(r"[):.\]]", m[0]) if opens_line else None  # "B) <its text>" opening a line stays a label
        out = m[1] + (sep[0] if sep else ":" * (":" in m[0]))
        shrunk += len(m[0]) - len(out)
        return out

    return _SAME_TWICE.sub(merged, text), cited


def _labels(line: str, label: re.Match[str]) -> bool:
    """Whether a line that opens with an option goes on with something, if only an ellipsis ("c) ..."): it labels
    what follows."""
    rest = line[label.end() :].strip(" :!")
    return bool(rest.strip(".")) or rest.startswith("..")


def _index(mark: str) -> int:
    return (ord(mark) - _BASE) % (_TEXT - _BASE)


def _options(group: str) -> frozenset[int]:
    return frozenset(_index(ch) for ch in group if _BASE <= ord(ch) < _BASE + 0x100)


def _opening(boundary: re.Pattern[str], text: str, at: int) -> int:
    """Where the clause or sentence (by `boundary`) holding offset `at` begins, looking back 200 characters."""
    bounds = list(boundary.finditer(text, max(0, at - 200), at))
    return bounds[-1].end() if bounds else max(0, at - 200)


def _conditional(patterns: _Patterns, text: str, start: int, end: int) -> bool:
    return (
        _CONDITIONAL.search(text, start, end) is not None or patterns.conditional.search(text, start, end) is not None
    )


def _holds_as_verdict(patterns: _Patterns, text: str, verdict: re.Match[str]) -> bool:
    """Whether a verdict holds: not in a clause opened by "if", "although", "while", ..., nor a modal one ("B would
    fit") in a sentence that has such a clause (a concession or a hypothetical, not a commitment)."""
    at = verdict.start()
    if _conditional(patterns, text, _opening(_CLAUSE_START, text, at), at):
        return False
    sentence = _opening(_SENTENCE_START, text, at)
    return _MODAL.search(verdict[0]) is None or not _conditional(patterns, text, sentence, at)


def _supposed(patterns: _Patterns, text: str, at: int) -> bool:
    """A cue in a sentence that supposes what is not the case ("If the story were a fantasy, I would pick B";
    "If we assume ..., the answer is A"), unless the supposition is only being made to choose ("if I had to pick")."""
    start = _opening(_SENTENCE_START, text, at)
    before = text[start:at]
    return (
        _conditional(patterns, text, start, at)
        and _SUPPOSING.search(before) is not None
        and _FORCED_CHOICE.search(before) is None
    )


# At most three words ending a clause, read backwards (a match from the mention back is linear; a search for a
# pattern ending at the mention would try every start).
_WORDS_BACK = re.compile(rf"[ \t\"'(\[*]*(?:[^\s{_CLAUSE_MARKS}—–]+[ \t]*){{0,3}}")


def _words_before(text: str, at: int) -> str:
    window = text[max(0, at - 80) : at][::-1]
    return window[: _WORDS_BACK.match(window).end()][::-1]


# the rest of a clause after a mention, to the next mention; a dash or colon opens a description, not a predicate
_WORDS_AFTER = re.compile(rf"\A[ \t)\]\"'*]*[^{_CLAUSE_MARKS}\n—–{_M[1:-1]}]{{0,60}}")


def _negated(patterns: _Patterns, text: str, start: int, end: int) -> bool:
    """A mention (text[start:end]) with a negator among the three words before it in its clause ("not A"), or a
    negator or a word that rejects in the rest of its clause after it ("A değil", "B variantı noto'g'ri", "A emas");
    a word that rejects before it may qualify the answer ("the incorrect statement is C"). Or a mention taken back
    after an ellipsis ("B... oya, ndisubiyeko.")."""
    after = _WORDS_AFTER.match(text[end : end + 60])[0]
    return bool(
        patterns.negation.search(_words_before(text, start))
        or patterns.negation.search(after)
        or patterns.wrong.search(after)
        or _retracted(patterns, text, end)
    )


_ELLIPSIS_THEN = re.compile(r"[ \t\"')\]*]*(?:\.{2,}|…)[ \t]*([^\s,.!?;:]{1,30})(?![^\s,.!?;:])")


def _retracted(patterns: _Patterns, text: str, end: int) -> bool:
    """Whether the mention ending at `end` trails off into a negator ("B... oya", "A… Не, чакайте")."""
    return bool((m := _ELLIPSIS_THEN.match(text, end)) and patterns.negation.fullmatch(m[1].casefold()))


def _opens_list(patterns: _Patterns, lines: list[str], index: int) -> bool:
    """Whether line `index` and the next open with different options' labels: a cue before them introduces a
    list ("Other options:\nA. ...\nC. ..."), not an answer."""
    if index + 1 >= len(lines):
        return False
    here, after = patterns.label.match(lines[index]), patterns.label.match(lines[index + 1])
    return bool(here and after and _options(here["g"]) != _options(after["g"]))


_INLINE_LABEL = re.compile(rf"[.!?;。][ \t]*({_L})[.)][ \t]")


def _inline_labels(line: str) -> set[int]:
    """The options a line labels inside it, each after a sentence ("... in children. C. ...")."""
    return {_index(m[1]) for m in _INLINE_LABEL.finditer(line)}


_ASKED = re.compile(rf"^(?P<label>[^\n:：?？\d{_M[1:-1]}]{{1,40}})[:：][^\n?？{_M[1:-1]}]*[?？]")


_LABEL_START = re.compile(r"(?:^|(?<=[.!?。]))[ \t]*(?=[^\W\d_]{1,20}[:：])")  # "...javob A.Savol: ..."


def _new_questions(patterns: _Patterns, lines: list[str], starts: list[int], texts: Sequence[str]) -> Iterator[int]:
    """Where the reply asks a question (its own, when it comes after an answer): a line ending in "?" followed by
    lines labelled with different options (from the label that opens its sentence: "... javob A.Savol: ...?"); a
    line followed by such lines that quote none of the task's options ("Суаль: ...\nA) 16\nB) 18"); a labelled line
    that asks without naming an option ("Follow-up question: ...?", "追问：...？"; "Does A fit?" checks an answer).
    What comes from there on answers another question."""
    folded = [_fold(t) for t in texts]
    for i, line in enumerate(lines):
        if _opens_list(patterns, lines, i + 1) and (
            line.rstrip(" *").endswith(("?", "？")) or folded and _new_options(patterns, lines[i + 1 : i + 11], folded)
        ):
            label = _LABEL_START.search(line)
            yield starts[i] + (label.end() if label else 0)
        elif (
            (asked := _ASKED.match(line))
            and len(asked["label"].split()) <= 3
            and not re.search(patterns.answer, asked["label"])
        ):
            yield starts[i]


def _new_options(patterns: _Patterns, lines: list[str], folded: list[str]) -> bool:
    """Whether the labelled lines opening `lines` (a few) are a new question's options: short, none quoting the task's
    option of its label ("B) <B's text>"), none judging ("A. - This is wrong": a reason per option)."""
    items = 0
    for line in lines:
        if not (label := patterns.label.match(line)) or len(options := _options(label["g"])) != 1:
            break
        (index,) = options
        rest = line[label.end() :].strip(" .:)")
        if (
            len(rest.split()) > 8
            or chr(_TEXT + index) in rest[:2]
            or index < len(folded)
            and folded[index]
            and _fold(rest).startswith(folded[index])
            or any(p.search(rest) for p in (patterns.negation, patterns.wrong, patterns.correct))
        ):
            return False
        items += 1
    return items > 1


def commitments(
    reading: Reading, names: tuple[tuple[str, ...], ...], texts: Sequence[str] = (), language: str | None = None
) -> list[tuple[int, frozenset]]:
    """The commitments of a reading in order, as (offset, the option indices it names), the last one checked (the
    earlier ones only as far as needed: what counts is the last); a statement after it that the reply cannot tell
    is a final commitment to nothing."""
    if not reading.lines:
        return []
    patterns = _compile(names, language)
    kinds = [line.kind for line in reading.lines]
    raw = _mark(reading.text, patterns, texts)
    text, cited = _merge(raw)
    raw_lines, lines = raw.split("\n"), text.split("\n")
    starts = list(accumulate((len(line) + 1 for line in lines[:-1]), initial=0))
    labelled_lines = [
        (i, m) for i, line in enumerate(raw_lines) if (m := patterns.label.match(line)) and _labels(line, m)
    ]
    labels = {i for _, m in labelled_lines for i in _options(m["g"])}
    enumeration = len(labels) > 1  # lines open with different options' labels: an enumeration or an echo

    def line_of(at: int) -> int:
        return bisect_right(starts, at) - 1

    def read(match: re.Match[str], group: str = "g") -> tuple[int, frozenset]:
        return match.start(group), _options(match[group])

    def cued(match: re.Match[str]) -> bool:
        at = match.start()
        if _supposed(patterns, text, at) or patterns.negation.search(_words_before(text, at)):
            return False
        line = line_of(match.start("g"))
        return line == line_of(at) or not _opens_list(patterns, raw_lines, line)

    def praised_in_words(match: re.Match[str]) -> bool:
        at = match.start()
        return not (
            _MODAL.search(match[0])
            or _supposed(patterns, text, at)
            or _conditional(patterns, text, _opening(_SENTENCE_START, text, at), at)
        )

    # (offset, options, a check to run if it is ever the last one)
    found: list[tuple[int, frozenset, Callable[[], bool] | None]] = []
    rejections = []  # cues led by a word that rejects ("Incorrect option: B", "yanlış olan seçenek C")
    wrong_ends = [m.end() for m in patterns.wrong.finditer(text)]  # (most replies have none: no check per cue)

    def rejecting(at: int) -> bool:
        near = bisect_right(wrong_ends, at) > bisect_right(wrong_ends, at - 80)
        return near and patterns.wrong.search(_words_before(text, at)) is not None

    for pattern in (patterns.strong, patterns.weak, patterns.far, patterns.hedged):
        for m in pattern.finditer(text):
            if pattern is patterns.hedged and patterns.joined.search(text, max(0, m.start() - 12), m.start()):
                continue  # "Madrid, or maybe Barcelona": one more option offered, not chosen
            # (a word that rejects before the cue, or in it: "Respuesta incorrecta: A")
            rejected = rejecting(m.start()) or bisect_right(wrong_ends, m.start("g")) > bisect_right(
                wrong_ends, m.start()
            )
            (rejections if rejected else found).append((*read(m), partial(cued, m)))
    contrasted = {read(m)[0] for m in patterns.contrast.finditer(text) if cued(m)}  # (taken back before it: kept)
    found += [(at, _options(text[at]), None) for at in contrasted]
    verdicts = [(*read(m), partial(_holds_as_verdict, patterns, text, m)) for m in patterns.praised.finditer(text)]
    verdicts += [(*read(m), partial(praised_in_words, m)) for m in patterns.praised_in_words.finditer(text)]
    found += verdicts
    # verdicts that open their lines ("B is correct, as ...", "C is correct, as ..."): one per option judged
    opening_verdicts = [v for v in verdicts if not text[starts[line_of(v[0])] : v[0]].strip(" \t\"'([{*")]
    named_lone: list[tuple[int, frozenset]] = []  # "Option A" alone on a line: a verdict, or an enumeration's label
    listed: list[tuple[int, frozenset]] = []  # an option alone after a list marker ("- yes", "B. no"): the same
    plain: list[tuple[int, frozenset]] = []
    for m in patterns.lone.finditer(text):
        group = "g" if m["g"] else "k" if m["k"] else "h"
        index = line_of(m.start(group))
        if group == "k" and len(_inline_labels(lines[index])) > 1:
            continue
        item = _LIST_ITEM.match(lines[index])  # a marker the reading kept (a letter: it may name an option)
        if group != "h" and (kinds[index] == "item" or (item and m.start(group) >= starts[index] + item.end())):
            listed.append(read(m, group))
            continue
        at_start = m.start(group) == starts[index] + len(lines[index]) - len(lines[index].lstrip(" \"'([{"))
        if (
            at_start
            and enumeration
            and (label := patterns.label.match(raw_lines[index]))
            and _labels(raw_lines[index], label)
        ):
            continue
        if group == "h" and rejecting(m.start()):
            rejections.append((*read(m, group), None))  # "Incorrect option: B"
            continue
        at, sentence = m.start(group), _opening(_SENTENCE_START, text, m.start(group))
        if _conditional(patterns, text, sentence, at) and not _FORCED_CHOICE.search(text, sentence, at):
            continue  # "Если вопрос о наземных животных — A, если обо всех — B."
        (named_lone if m["n"] or m["m"] else plain).append(read(m, group))
    plain += [
        (starts[i] + m.start("g"), _options(m["g"]))
        for i, line in enumerate(lines)
        if kinds[i] == "field" and (m := patterns.field.match(line))
    ]
    plain += _checked_row(lines, kinds, starts)
    labelled, rejected_labels = _labelled(patterns, lines, kinds, starts)
    plain += labelled
    rejections += [(*f, None) for f in rejected_labels]
    plain += _closing(patterns, text, lines, raw_lines, kinds, starts, enumeration, labelled_lines)
    found += [(at, _options(text[at]), partial(_cited, patterns, text, at, starts[line_of(at)])) for at in cited]
    if len(frozenset().union(*(g for _, g in named_lone))) <= 1:
        plain += named_lone
    listing = set()  # list items that enumerate the options ("- yes" / "- no"): no mention on them commits
    if len(frozenset().union(*(g for _, g in listed))) <= 1:
        plain += listed
    else:
        listing = {line_of(at) for at, _ in listed}
    if raw_lines and kinds:
        first = raw_lines[0]
        quoted = {_index(ch) for ch in first if ord(ch) >= _TEXT}
        if (
            (m := patterns.label.match(first))
            and not m["n"]
            and quoted <= _options(m["g"])
            and not _opens_list(patterns, raw_lines, 0)
        ):
            # "B. <why>", "A: <its text>" (then a rationale, whatever it lists); not "A: <B's text>", "Option A:
            # ..." (a discussion's label), nor an echo of the options ("A: ..." then "B: ...")
            plain.append((0, _options(m["g"])))
    whole = _fold(reading.text)
    same = [i for i, option in enumerate(texts) if whole and _fold(option) == whole]
    if len(same) == 1:
        plain.append((0, frozenset(same)))  # a reply that is one option's text, however short ("4", "Jupiter")
    alone = [re.fullmatch(rf"[\s\"'(\[{{*]*({_M})[\s\"')\]}}.!*]*", line) for line in lines[:2]]
    if alone[0] and (len(alone) == 1 or not alone[1]):
        plain.append((0, _options(alone[0][1])))  # a reply that opens with one option's text alone (not an echo)
    elif (opener := _OPENER.match(lines[0])) and not any(_OPENER.match(line) for line in lines[1:]):
        plain.append((opener.start(1), _options(opener[1])))  # "False. This is a myth ...", "A <B's text> — ..."
    found += [(*f, None) for f in plain]

    def holds(commitment: tuple) -> bool:
        at, options, check = commitment
        if kinds[line_of(at)] == "heading" or line_of(at) in listing or (check is not None and not check()):
            return False
        return len(options) != 1 or at in contrasted or not _negated(patterns, text, at, at + 1)

    # a short reply naming one option is its answer when nothing else commits; a rejection when nothing else does
    # ("The wrong one is C")
    for stage in (found, None, rejections):  # (the short-reply rule only where nothing before it commits)
        candidates = _sole_option(patterns, text, texts, kinds, line_of, language) if stage is None else stage
        found = sorted(candidates, key=lambda f: f[0])
        first = next((f for f in found if holds(f)), None)
        # the answer to the question asked, not to one the reply invents after it (a restated question comes first)
        question = first and next((q for q in _new_questions(patterns, raw_lines, starts, texts) if q > first[0]), None)
        if question is not None:
            found = [f for f in found if f[0] < question]
        while found and not holds(found[-1]):
            found.pop()
        if found:
            break
    ends = [*abstention_ends(text), *(m.end() for m in patterns.doubt.finditer(text))]
    result = [(at, options) for at, options, _ in found]
    if result and (other := _joined_by_a_word(patterns, text, result[-1][0])):
        result.append((result[-1][0], result[-1][1] | other))  # "nii A kui ka B", "tanto la A como la B": both
    if found and found[-1] in opening_verdicts:  # several options judged correct, one per line: no single answer
        judged = frozenset().union(*(v[1] for v in opening_verdicts if holds(v)))
        if len(judged) > 1:
            result.append((found[-1][0], judged))
    if result and any(end > result[-1][0] for end in ends):
        result.append((len(text), frozenset()))
    return result


# A short reply: at most three sentences and 50 words, finished by a full stop of any script.
_SHORT_SENTENCES, _SHORT_WORDS, _ANSWER_FIRST_WORDS = 3, 50, 4
# two mentions one or two short words apart: joined in any language ("A û B", "nii A kui ka B", "la A como la B")
_NEAR_JOINT = re.compile(rf"(?=({_M})[ \t]+(?:[^\W\d_]{{1,4}}[ \t]+){{1,2}}({_M}))")


def _joined_by_a_word(patterns: _Patterns, text: str, at: int) -> frozenset[int]:
    """Another option that the mention at `at` is joined to by a short word or two, neither taken back."""
    for m in _NEAR_JOINT.finditer(text, max(0, at - 30)):
        if m.start() > at:
            break
        ends = (m.start(1), m.start(2))
        taken_back = (not _KEPT.match(text, e) or _negated(patterns, text, e, e + 1) for e in ends)  # "A over B"
        if at in ends and _index(m[1]) != _index(m[2]) and not any(taken_back):
            return _options(m[1] + m[2])
    return frozenset()


# scripts whose writers end a sentence or part a clause with a space (Thai, Lao, Khmer)
_SPACE_PARTED = r"\u0e00-\u0eff\u1780-\u17ff"
_FINISHED = re.compile(
    rf"(?:[.!。！।॥။።۔։][ \t\"'”’»)\]}}*]*|[{_SPACE_PARTED}]|[\u2600-\u27bf\U0001f300-\U0001faff]\ufe0f?)\Z"
)
_KEPT = re.compile(rf"{_NOT_NEGATED}{_M}(?!{_NEGATED_AFTER})")  # a mention no negator next to it takes back
# A sentence's first word that may be an article ("A week has ...", Hungarian "A pókoknak ...", Galician "A capital
# ..."), in the languages whose article is a capital letter; unknown language: any
_ARTICLE = re.compile(rf"(?:(?<=[.!?;\n])|(?<=[.!?;][ \t])|\A){_L}[ \t]+[^\W\d_]")
_LETTER_ARTICLES = frozenset({"en", "pt", "gl", "hu", "ro", None})
# a mention at most three words before its clause ends ("B болушу керек.", "ngu-B,", "B ló tẹ̀lé e,", "C啦，"): a
# statement of the option, not a description of it ("Sentence A is in the past tense, like the rest of the story.")
_ENDS_CLAUSE = re.compile(
    rf"{_M}(?:-[^\W\d_]{{1,4}})?[ \t)\]}}\"'”’»*]*(?:{_PARTICLE}[ \t)\]}}\"'”’»*]*){{0,3}}"
    rf"(?:[{_CLAUSE_MARKS}]|\Z|(?<=[{_SPACE_PARTED}])[ \t]+(?=[{_SPACE_PARTED}]))"
)


def _sole_option(
    patterns: _Patterns,
    text: str,
    texts: Sequence[str],
    kinds: list[str],
    line_of: Callable[[int], int],
    language: str | None,
) -> list[tuple[int, frozenset, None]]:
    """A short reply whose last statement names one option, in whatever words, where no other option is named but
    to be taken back ("Gbólóhùn B ló tẹ̀lé e, nítorí pé ...", "Câu tiếp theo hợp lý là câu B, vì ...", "UMars (C)
    ibizwa ...", "Mujhe lagta hai B sahi hai, kyunki ... . A doesn't really make sense."): the option named by its
    text, by a letter ending its clause, or in a sentence with a word of the reply's language that commits (answer,
    correct, a hedge that commits). Not where the reply asks, nor where the sentence sets a condition or speaks of
    what would be, nor under a heading that names an option, nor where another option's text stands in the
    statement or a sentence without a rejection follows ("Option B mentions the moon. Let me reread the story."),
    unless the answer came first in a few words or with a word that commits ("D ni. Ọjọ́ méje ló wà ...", "B ni
    ìdáhùn tó tọ́. Bọ́lá láyọ̀ ..."). A letter opening a sentence before a word is no mention in a language whose
    article it may be ("A week has")."""
    if len(text) > 600 or len(text.split()) > _SHORT_WORDS or re.search(r"[?？؟]", text) or not _FINISHED.search(text):
        return []
    bounds = [0, *(m.end() for m in _SENTENCE_START.finditer(text.rstrip(" \t\"'”’»)]}*.!。！।॥။።۔։"))), len(text)]
    if len(bounds) - 1 > _SHORT_SENTENCES:
        return []
    sentences = [text[a:b] for a, b in zip(bounds, bounds[1:], strict=False)]
    articles = choice_words.base_language(language) in _LETTER_ARTICLES  # (every letter alike: "B week has" too)
    kept_in = []  # per sentence: the mentions it keeps (None: it takes back what it names)
    for sentence, first in zip(sentences, bounds, strict=False):
        rejects = (
            re.search(r"n['’]t\b", sentence) or patterns.negation.search(sentence) or patterns.wrong.search(sentence)
        )
        mentions = [first + m.start() for m in re.finditer(_M, sentence)]
        kept = [
            at
            for at in mentions
            if not rejects
            and _KEPT.match(text, at)
            and not _retracted(patterns, text, at + 1)
            and not (articles and _ARTICLE.match(text, at))
        ]
        kept_in.append(kept if kept or not mentions else None)
    stating = max((i for i, kept in enumerate(kept_in) if kept), default=None)
    # an answer first, in a few words, then its reasons ("D ni. Ọjọ́ méje ló wà ...", "A variantı. Avtobus ..."); else
    # a later sentence that names nothing, or names an option it keeps: the reply goes on
    first = (
        stating == 0
        and (
            len(sentences[0].split()) <= _ANSWER_FIRST_WORDS
            or any(p.search(sentences[0]) for p in (patterns.answer_own, patterns.correct_own, patterns.hedge_own))
        )
        and not re.search(rf"{_M}[ \t]*[:：]", sentences[0])  # ("Option A: <its text>. ..." labels a discussion)
    )
    if stating is None or not all(kept is None or first and not kept for kept in kept_in[stating + 1 :]):
        return []
    named = [at for kept in kept_in if kept for at in kept]
    options = {_index(text[at]) for at in named}
    sentence, start = sentences[stating], bounds[stating]
    if (
        len(options) != 1
        or any(kinds[line_of(at)] == "heading" for at in named)  # ("### Option A\n...": a discussion's section)
        or _MODAL.search(sentence)
        or _conditional(patterns, text, start, start + len(sentence))
    ):
        return []
    ours = [at for at in named if at >= start]
    in_words = any(p.search(sentence) for p in (patterns.answer_own, patterns.correct_own, patterns.hedge_own))
    by_text = any(ord(text[at]) >= _TEXT for at in ours)
    # (a clause ending with the letter states it; but before reasons, in a script without spaces, a few characters
    # hold a whole clause: "我先看看A。然后 ..." looks at A first, so there the text or a word that commits must say it)
    reasons = any(kept == [] for kept in kept_in[stating + 1 :])
    ends_clause = any(_ENDS_CLAUSE.match(text, at) for at in ours) and not (
        reasons and re.search(_UNSPACED_CHAR, sentence)
    )
    if not (in_words or by_text or ends_clause):
        return []
    # another option's text too short to be marked, named all the same in it ("... Bakı, Gəncə və Sumqayıtdır.")
    lowered = sentence.casefold()
    for i, option in enumerate(texts):
        folded = _fold(option) if isinstance(option, str) and i not in options else ""
        if folded and re.search(rf"(?<![^\W_]){re.escape(folded)}", lowered):
            return []
    return [(ours[-1], frozenset(options), None)]


def _cited(patterns: _Patterns, text: str, at: int, line_start: int) -> bool:
    """Whether an option cited in full ("D) <D's text>") inside a sentence states the answer ("Transantarktida
    tog'lari **D) And** tog'ining davomi hisoblanadi."): not as the label a line opens with (an enumeration's), the
    only option in its sentence, which neither negates, rejects, asks, supposes nor sets a condition."""
    line = text[line_start : text.find("\n", at) % (len(text) + 1)]
    if (label := patterns.label.match(line)) and line_start + label.start("g") == at:
        return False
    start = _opening(_SENTENCE_START, text, at)
    end = m.start() if (m := _SENTENCE_START.search(text, at + 1, at + 400)) else min(len(text), at + 400)
    sentence = text[start:end]
    return (
        _options(re.sub(rf"[^{_M[1:-1]}]", "", sentence)) == _options(text[at])
        and "?" not in text[end : end + 1]
        and not patterns.negation.search(sentence)
        and not patterns.wrong.search(sentence)
        and _MODAL.search(sentence) is None
        and not _conditional(patterns, text, start, at)
        and not _supposed(patterns, text, at)
    )


_ROW_LABEL = re.compile(rf"[ \t*]*({_L})[ \t*.)]*(?:\||\Z)")
_ITEM_LABEL = re.compile(rf"[ \t*(]*({_M})")
_CHECK = re.compile(f"[{TICKS}]")


def _checked_row(lines: list[str], kinds: list[str], starts: list[int]) -> list[tuple[int, frozenset]]:
    """A table or a list whose lines open with the options and where one option's line alone holds a check mark
    ("| C | 北京 | ✓ |", "- Dolphin: mammal ✓"): that option."""
    label = {"row": _ROW_LABEL, "item": _ITEM_LABEL}
    checked = [
        (starts[i] + m.start(1), _options(m[1]))
        for i, line in enumerate(lines)
        if kinds[i] in label and (m := label[kinds[i]].match(line)) and _CHECK.search(line, m.end())
    ]
    return checked if len({options for _, options in checked}) == 1 else []


def _labelled(
    patterns: _Patterns, lines: list[str], kinds: list[str], starts: list[int]
) -> tuple[list[tuple[int, frozenset]], list[tuple[int, frozenset]]]:
    """Lines "<label>: B" (or a heading over "B ...") whose label names no option, holds no digit (a step, a
    question's number) nor a negator, and is not given to different options on several lines (an enumeration); the
    rest of the line may go on with the option's text or a reason, but not reject it; on the last line, also a short
    statement about the option alone ("Konklusjon: B er den mest naturlige fortsettelsen."). Those whose label
    rejects ("Incorrect option: B") apart."""
    candidates = [(i, line, starts[i]) for i, line in enumerate(lines) if kinds[i] in ("text", "item", "field")]
    # a heading is the label of the line under it ("## Odgovor" / "**C) Tihi ocean**")
    candidates += [
        (i + 1, f"{heading}: {lines[i + 1]}", starts[i + 1] - len(heading) - 2)
        for i, line in enumerate(lines[:-1])
        if kinds[i] == "heading"
        and kinds[i + 1] in ("text", "item")
        and (heading := line.rstrip(" \t:："))
        and not _opens_list(patterns, lines, i + 1)  # ("### Şimdi seçenekleri kontrol edelim:" over "- A) ...")
    ]
    hits = [
        (i, m, start)
        for i, line, start in candidates
        if (m := patterns.labelled.match(line))
        and len(m["label"].split()) <= 4
        and not patterns.negation.search(m["label"])
        and not patterns.negation.search(m["rest"])
        and not patterns.wrong.search(m["rest"])
        and (not m["clause"] or i == len(lines) - 1 and _statement(patterns, m["clause"]))
    ]
    given: dict[str, set] = {}
    for _, m, _ in hits:
        given.setdefault(m["label"].strip(" *\"'").casefold(), set()).update(_options(m["g"]))
    plain, rejected = [], []
    for _, m, start in hits:
        if len(given[m["label"].strip(" *\"'").casefold()]) == 1:
            found = (start + m.start("g"), _options(m["g"]))
            (rejected if patterns.wrong.search(m["label"]) else plain).append(found)
    return plain, rejected


def _statement(patterns: _Patterns, clause: str) -> bool:
    """Whether the words after a labelled option state something of it alone: one finished statement of at most eight
    words, naming no other option, neither asked, supposed nor modal."""
    return (
        len(clause.split()) <= 8
        and re.search(rf"{_M}|[?？]", clause) is None
        and re.search(r"[.!。！।॥။።۔]\W*\Z", clause[-20:]) is not None
        and _MODAL.search(clause) is None
        and not _conditional(patterns, clause, 0, len(clause))
    )


def _closing(
    patterns: _Patterns,
    text: str,
    lines: list[str],
    raw_lines: list[str],
    kinds: list[str],
    starts: list[int],
    enumeration: bool,
    labelled_lines: list,
) -> list:
    """The reply's last line as a commitment: a finished statement of at most 12 words that ends with the option,
    followed only by a copula, suffix or particle and its full stop, no other option in its clause ("Waa B.",
    "C'est la A.", "B değil, A'dır.", "Aです。", "A ነው።"; not "The girl in A", which trails off), or
    a line that only restates one option ("C) Yalnız III", "Answer: <B's text>"). An enumeration's own last label
    ("D) <D's text>" closing an echo of the options) is not one, unless that option was labelled before it too."""
    index = len(lines) - 1
    line = lines[index]
    if kinds[index] == "heading":
        return []
    raw_line = raw_lines[index]
    if (
        enumeration
        and (label := patterns.label.match(raw_line))
        and _labels(raw_line, label)
        and sum(_options(m["g"]) == _options(label["g"]) for _, m in labelled_lines) < 2
    ):
        return []
    found = []
    if (m := patterns.restated.match(line)) and not (
        m["label"] and (patterns.negation.search(m["label"]) or patterns.wrong.search(m["label"]))
    ):
        found.append((starts[index] + m.start("g"), _options(m["g"])))
    m = patterns.final.search(line)
    if m and kinds[index] == "item" and index and kinds[index - 1] == "item":
        before = _options(re.sub(rf"[^{_M[1:-1]}]", "", lines[index - 1]))
        if before and before != _options(m["g"]):
            m = None  # the last of a list's items, each naming another option ("- Lipaz (b) sindirir."): references
    if (
        m
        and (m["bare"] is None or index == 0 and len(line.split()) <= 4)
        and (m["own"] is None or _options(m["own"]) == _options(m["g"]))
    ):
        at = starts[index] + m.start("g")
        start = _opening(_SENTENCE_START, text, at)
        sentence = text[start:at]
        forced = _FORCED_CHOICE.search(sentence)
        clause = text[_opening(_CLAUSE_START, text, at) : at]
        if (
            len(sentence[forced.start() if forced else 0 :].split()) <= 12
            and "?" not in sentence
            and not patterns.negation.search(clause)
            # no other option in its clause (by text: in its sentence, "A: <B's text>." commits to nothing)
            and not re.search(
                _M, text[_opening(_CLAUSE_START if ord(m["g"][0]) < _TEXT else _SENTENCE_START, text, at) : at]
            )
            and (
                not _conditional(patterns, text, start, at) or forced
            )  # "Neither is perfect, but if I had to choose, B."
        ):
            found.append((at, _options(m["g"])))
    return found


def read_choice(
    reply: object,
    options: Sequence[str] = ("A", "B"),
    texts: Sequence[str] = (),
    aliases: Sequence[Sequence[str]] = (),
    language: str | None = None,
) -> str | None:
    """The option a reply commits to, or None (no commitment, two at once, a statement after the last one that it
    cannot tell, a refusal, reasoning that never closed, any input that is not text).

    `options` name the options: ASCII capital letters (also named by position) or words ("yes", "nein", "否");
    `texts` are the options' own texts; `aliases[i]` are more words for option i ("不是" for "否")."""
    return choice_of(read_reply(reply), options, texts, aliases, language)


def choice_of(
    reading: Reading,
    options: Sequence[str] = ("A", "B"),
    texts: Sequence[str] = (),
    aliases: Sequence[Sequence[str]] = (),
    language: str | None = None,
) -> str | None:
    """`read_choice` on a reply already read (for a family that reads the same reading in other ways too)."""
    names = _names(options, aliases)
    if names is None:
        return None
    if reading.unfinished or reading.refusal:
        return None
    texts = [t if isinstance(t, str) else "" for t in texts] if isinstance(texts, list | tuple) else []
    found = commitments(reading, names, texts, language)
    if not found or len(found[-1][1]) != 1:
        return None
    (index,) = found[-1][1]
    return options[index]


def _names(options: object, aliases: object) -> tuple[tuple[str, ...], ...] | None:
    """Each option's names, or None when `options` is not a sequence of distinct non-empty names."""
    if not isinstance(options, list | tuple) or not options or not all(isinstance(o, str) and o for o in options):
        return None
    aliases = aliases if isinstance(aliases, list | tuple) else ()
    names = tuple(
        (o, *(a for a in (aliases[i] if i < len(aliases) and isinstance(aliases[i], list | tuple) else ()) if a))
        for i, o in enumerate(options)
    )
    flat = [n for option in names for n in option]
    if len(set(flat)) != len(flat) or not all(isinstance(n, str) and n.strip() for n in flat):
        return None
    return names


def _is_letter(c: object) -> bool:
    return isinstance(c, str) and len(c) == 1 and c.isascii() and c.isalpha() and c.isupper()
