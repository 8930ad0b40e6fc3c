"""Recover the answer a QUENCH reply gives for each masked variable (X, Y, ...).

The reply is first read by the shared reply reader (`lm_eval_xling.replies`): what follows any reasoning block
(an unclosed one gives no answer), markdown gone, JSON and tags as "key: value" lines. The format's own
placeholder ("<X answer> = Kolkata") reads as "answer"; a lead that ends its line ("The answer is:") takes the next
line as its answer. Every variable of the question is read, so one variable's label ends another's answer.

Rules, in order (a reply is read line by line; an answer never spans lines, except that a bracket opened
as "<<<X:" may put its answer on the next line):
1. A label is a requested variable standing alone, in one of three forms:
   a. bracketed: "<<<X: a>>>" with 1-3 "<", optional spaces or "**", and ":", "=", "-" or a space (the
      authors' format "<X answer>"); the variable's case does not matter inside brackets ("<<<x: a>>>");
   b. plain (case-sensitive, except "x: a" opening a line): "X: a", "X = a", "X - a", "X -> a", "**X:** a", a
      table row "| X | a |" or a JSON key '"X": "a"', where X opens the line (after indentation, "#", ">", a
      "- "/"1." list marker), follows a ";", ",", "|", "." or " and ", or follows "answer is"/"answers are"/
      "answer:";
   c. "X is a": as (b) but never after "." or "answer is" (so in "X: Paris. Y is the capital", Y is
      prose, not a label);
   d. after its answer: "Homi J. Bhabha (X) and Trombay (Y)", read on a line without labels of the forms above.
2. The answer runs from its label to the next label on the line or the line's end, and stops at the
   first ">"; an answer not closed by ">" also stops at a sentence break (". It ..." after a word of
   3+ lowercase letters or a digit, so "J. K. Rowling" and "St. Louis" survive, nor after a title such as
   "Capt." or "Prof.").
3. Cleaning strips surrounding spaces, quotes, "*", "_", "`", "<", ">", ";", ",", ":" and one trailing
   period (kept after a one-letter abbreviation, as in "D.C."), then hedges and leading phrases ("I think",
   "probably", "It is likely"); nothing alphanumeric left -> no answer. An answer that hedges between
   alternatives ("It could be A or B", "either A or B") or says it cannot answer ("I don't know") is none.
4. Per variable the strongest statement wins, and among equals the last one (CoT replies restate the final
   answer at the end). Strongest first: anything after a "final answer" line or lead; then a statement of
   the requested format ("The answer is ..."); then the label forms, a > b > c.
5. For the variable asked (`asked`, or the one variable requested), the text after the last "answer (to
   this question) is/would be/:/=" is such a format statement even without a label (a leading "<X" of the
   authors' format is dropped), unless a variable letter still stands alone in it; with no label at all, the
   whole reply also counts when it is one line of at most 100 characters.
6. The keys are exactly `variables`, in order; an unanswered variable maps to None. Never raises; no
   pattern has adjacent overlapping quantifiers, so matching stays linear-ish.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Sequence
from difflib import SequenceMatcher
from functools import cache, lru_cache

import regex

from lm_eval_xling.choice_words import alternation, every, negators, pattern, script
from lm_eval_xling.replies import (
    CJK,
    CROSSES,
    EMOJI,
    OTHER_TERMINALS,
    PARALLEL,
    TAKEN_BACK,
    TERMINALS,
    TICKS,
    Line,
    abstention_ends,
    own_words,
    read_reply,
    version_lead,
)

_LINE_START = r"^[ \t>#]*(?:[-*+•][ \t]+|\d+[.)][ \t]+)?\**"
_SEPARATED = r"(?<=[;,|،؛])[ \t]*\**|(?<=[ \t])(?:and|so)[ \t]+\**|^[ \t]*(?i:so|thus|hence|therefore),?[ \t]+\**"
# a sentence's start, a connective or the format's own words before a label: ". So X is", "Answer: The entity X is"
_SENTENCE_START = (
    r"(?:(?<=[.!?][ \t])(?=(?i:so|thus|hence|therefore|then|the[ \t]+(?:entity|variable))\b)"
    r"|(?<=:[ \t])|(?<=:\*\*[ \t]))[* \t]*"
    r"(?i:(?:so|thus|hence|therefore|then),?[ \t]+|the[ \t]+(?:entity|answer|variable)[ \t]+)?\**"
)  # a bare sentence start is not enough: "Y is the capital of France" describes Y
# a field naming the variable and the next one its answer: "variable: X" then "entity: Infosys" (YAML, JSON)
_PAIRED = re.compile(
    r"(?im)^([ \t]*)(?:variable|var)[ \t]*:[ \t]*([^\W_]\w{0,20})[ \t]*\n[ \t]*(?:entity|answer|name|value)"
    r"[ \t]*:[ \t]*"
)
_AFTER_ANSWER = r"(?i:\banswers?\b\**[ \t]*(?:is|are|:)(?!\w)[* \t:]*)"
_ANSWER_FOR = r"(?i:\b(?:answer[ \t]+(?:for|to|of)[ \t]+(?:variable[ \t]+)?|variable[ \t]+))"  # "Answer for X:"
_STRONG_SEP = r"(?:[ \t]*(?:[:=|]|->|→|=>|⇒|⟶)|[ \t]+[-–—](?=[ \t]))\**[ \t]*"
_ANSWER_IS = re.compile(
    # (with the typos of a noisy model: "Teh anser is", "the ans is")
    r"(?i)(?:\b(?:answers?|ans|anser|answr|anwser|awnser|asnwer)\b"
    r"(?:[ \t]+(?:to|for)[ \t]+(?:this|the)[ \t]+(?:question|clue|quiz|variable[ \t]+\w+))?"
    r"[\"']?\**[ \t]*(?:is|would\s+be|:|=)"
    # a stated choice is the format's statement too: "my best guess is Kia", "I'm going with Kia"
    r"|\b(?:my|final)[ \t]+(?:best[ \t]+)?guess[ \t]*(?:is|would[ \t]+be|:)"
    r"|\bif[ \t]+I[ \t]+(?:had|have)[ \t]+to[ \t]+guess[ \t]*[,:]"
    r"|\bI(?:'m|[ \t]+am|'ll|[ \t]+will|'d|[ \t]+would)[ \t]+(?:going[ \t]+with|go[ \t]+with)"
    r"|\bfinal[ \t]*:|\bI[ \t]+lean[ \t]+(?:towards?|to)|\bmy[ \t]+(?:final[ \t]+)?(?:pick|choice)[ \t]*(?:is|:)"
    r"|\b(?:that|it)[ \t]+(?:would|must|has[ \t]+to|should)[ \t]+be)"
    r"(?!\w)[* \t:]*(?:\.{3}|…)?[ \t]*"  # (a pause: "The answer is... Elias Lönnrot!")
)
_PAUSE = r"(?:\.{3}|…)"  # a dramatic pause before the answer
_PLACEHOLDER = re.compile(r"(?i)(?:x[ \t]+|your[ \t]+)?(?:answer|entity|name)")  # the format's "<X answer>" as is
_FINAL = re.compile(r"(?i)\bfinal\s+answers?\b")
# a prompt's next item, as a base model writes it after its answer ("Question: ...", "### Instruction:", the
# question's own closing "Identify Y.")
_NEXT_PROMPT = re.compile(r"(?im)^(?:(?:question|instruction|input|q)[ \t]*:|identify[ \t]+\w{1,3}[ \t]*\.)")
# a line ticked as the choice, and what it says after a label of up to three words
_TICKED = re.compile(
    rf"(?m)^[ \t]*(?:[{TICKS}]|\[[xX]\])[ \t]*(?:[^\s:：]{{1,20}}(?:[ \t][^\s:：]{{1,20}}){{0,2}}[:：])?(.*)$"
)
_KEYED = re.compile(r"(?i)\banswer_(?=[^\W\d_]{1,3}\b)")
# "<<<X:" with its answer on the next line: joined into one line before reading
_BRACKET_BREAK = re.compile(r"(<{1,3}[ \t]*\**[^\W\d_]\w{0,30}\**[ \t]*[:=\-–—])[ \t]*(?:\r?\n[ \t]*)+")
# the format's own placeholder, "<X answer>" whatever the variable asked: it reads as "answer"
_PLACEHOLDER_LEAD = re.compile(r"(?i)<{1,3}[ \t]*x[ \t]+answer[ \t]*>{1,3}")
# the format's placeholder, then the answer after an arrow: "The answer is <X answer> → Nwankwo Kanu"
_FILLED = re.compile(r"(?i)^[ \t]*(?:x[ \t]+|your[ \t]+)?(?:answer|entity|name)[ \t]*(?:→|->|=>|⇒)[ \t]*")
# emoji opening a line: decoration before its lead ("🇰🇭✨ ចម្លើយគឺ ...")
_EMOJI_LEAD = re.compile(rf"(?m)^[ \t]*(?:(?![{TICKS}{CROSSES}])[{EMOJI}\u200d])+[ \t]*")  # (a tick is a choice)
# a boxed answer, the math convention for a final one: "\boxed{Chandrayaan-3}", "$\boxed{\text{Marriott}}$"
_BOXED = re.compile(r"\$*\\boxed\{(?:\\(?:text|textbf|mathrm|mathbf)\{)?([^{}\n]{1,300})\}\}?\$*")
_LATEX_TEXT = re.compile(r"\$*\\(?:text|textbf|mathrm|mathbf)\{([^{}\n]{0,300})\}\$*")
# the format's statement turned round: "QR code is the answer.", "Kia is my final answer"
_ANSWER_AFTER = re.compile(
    r"(?im)(?:^|(?<=[—–:][ \t]))([^\n—–:.]{1,100}?)[ \t]+is[ \t]+(?:the|my)[ \t]+(?:final[ \t]+|correct[ \t]+)?answer"
    r"(?:[ \t]+here)?\b[ \t!]*(?=\.[ \t]|[.!]?$)"
)
# a lead that ends its line ("The answer is:", "Final answer:"): its answer is on the next line
_LEAD_BREAK = re.compile(r"(?im)(\banswer\b[^\n]{0,40}?(?:\bis|:|=)[ \t]*)\n")
_TITLES = frozenset(
    str.split(
        "dr mr mrs ms mx prof capt col gen lt sgt maj brig adm cmdr gov sen rep rev hon st ste mt ft sr jr pt smt "
        "lt.gen maj.gen no vol co inc ltd bros"
    )
)
_TITLE_BEFORE = re.compile(r"([\w.]+)$")
_HEDGE = re.compile(
    r"(?i)^(?:(?:I[ \t]+(?:think|believe|guess|suppose)|I'm[ \t]+(?:fairly|pretty|quite)?[ \t]*(?:sure|confident)"
    r"|in[ \t]+my[ \t]+opinion|most[ \t]+likely|more[ \t]+likely|probably|possibly|perhaps|maybe|likely"
    r"|(?:it|this|that)(?:[ \t]+is|'s)(?:[ \t]+(?:most[ \t]+)?(?:likely|probably|possibly|perhaps))?"
    r"|(?:it|this)[ \t]+(?:should|must|may|might|would)[ \t]+be|that|hmm+|well|okay"
    r"|I(?:'m|[ \t]+am)[ \t]+not[ \t]+(?:sure|certain)[ \t,]*but|I(?:'d|[ \t]+would)[ \t]+(?:say|guess)"
    r"|definitely|certainly|surely|clearly|(?:it[ \t]+)?(?:gotta|has[ \t]+to|must)[ \t]+be)[ \t,:]+)+"
)
_ALTERNATIVES = re.compile(
    r"(?i)^(?:either[ \t]|(?:it|this)?[ \t]*(?:could|might|may)[ \t]+be[ \t]|(?:probably|possibly|perhaps|maybe"
    r"|likely)[ \t]).*[ \t]or[ \t]|\b(?:can(?:not|'t)[ \t]+decide|(?:not[ \t]+sure|unsure)(?![ \t,]*but\b))\b"
)
_STOP = re.compile(rf"[{re.escape(TERMINALS)}\n]")
_FORMAT, _FINAL_BONUS = 5, 10  # strength added to a format statement ("The answer is") and to a final answer
_SENTENCE_END = re.compile(
    r"(?:(?<=[a-zß-ÿ]{2})|(?<=[A-Z]{3})|(?<=\d)|(?<=[^\x00-\u024f\s])|(?<=[)\]\"'”’]))[.!?]+[ \t]+"
    r"(?=[A-Z(\d\"]|[^\x00-\u024f\s\W])"
    rf"|[{re.escape(OTHER_TERMINALS)}][ \t]*"
)
# initials in a script without capitals: two or more short words, each with a full stop ("ए. पी. जे.", "ಕೆ. ವಿ.")
_INITIALS = re.compile(r"(?<![^\s(\[])(?:[^\x00-\u024f\s.()\[\]]{1,4}\.(?:[ \t]+|(?=[^\x00-\u024f\s.()\[\]]))){2,}")
_ABBREVIATION = re.compile(r"(?:^|[\s.])\w\.$")
_ALNUM = re.compile(r"[^\W_]")
_ASKING = re.compile(r"[?？؟]+")
_STOPPED = re.compile(rf"[.!?{re.escape(OTHER_TERMINALS)}]")  # a sentence's end: no transcript of speech
_LETTER = re.compile(r"[^\W\d_]")
_WORD = re.compile(r"[^\W_]+")
_CELL_END = re.compile(r"[ \t]\|[ \t]")  # a table's next cell ("| Y | Raman effect | Announced 1928 |")
# emoji before a name, and from the first after it on ("🏏 Virat Kohli 🏏🔥", "манас 💯 кыргыздын улуу эпосу")
_SYMBOLS = re.compile(rf"^[ \t]*[{EMOJI}\u200d]+[ \t]*|[ \t]*[{EMOJI}\u200d].*$")
_OR = re.compile(r"[ \t>]or[ \t<]")
_TWO_NAMES = re.compile(
    r"^(?:[a-z]{1,3}-)?[A-Z][\w.'-]*(?:[ \t][\w.'-]+){0,3}(?:[ \t]or[ \t]|[ \t]*/[ \t]*)"
    r"(?:[a-z]{1,3}-)?[A-Z][\w.'-]*(?:[ \t][\w.'-]+){0,3}$"
)  # "Kochi or Kozhikode", "Mir Sayyid Ali or Abd al-Samad", "Ibn Battuta or al-Biruni"
# a copula written onto the answer: Japanese (after a quote too: '"はやぶさ2"です'), Korean ("한글입니다")
_JAPANESE_COPULA = re.compile(r"(?<=[\u3040-\u30ff\u4e00-\u9fff\"」』)）])(?:です|でした|だ|である)$")
_KOREAN_COPULA = re.compile(r"(?<=[\uac00-\ud7af])(?:입니다|이다|이에요|예요)$")
# a copula written after the answer, where a name cannot tell it from its own last word: the languages that put
# the copula last (Persian "... بابر است", Tamil "... ஆகும்", Amharic "... ነው", Gujarati "... છે", Urdu and
# romanised Urdu "... hain", Yoruba's focus "... ni", Thai's polite "... ครับ"); read as the answer's last word, and
# (a word of another script than Latin) before what the sentence goes on to say of it ("... বিদ্যাসাগর হলেন সেই ...")
# fmt: off
_COPULAS = (
        "است", "هست", "می‌باشد", "بود", "دی", "ده", "ہے", "ہیں", "تھا", "تھے", "تھی", "है", "हैं", "था", "थे", "थी",
        "आहे", "आहेत", "होता", "होते", "होती", "हो", "हुन्", "छ", "छन्", "হল", "হলো", "হলেন", "হয়", "ছিলেন", "ছিল",
        "છે", "હતા", "હતો", "હતી", "ਹੈ", "ਹਨ", "ਸੀ", "ਸਨ", "ஆகும்", "ஆவார்", "ஆவர்", "ஆவார்கள்", "ಆಗಿದೆ",
        "ಆಗಿದ್ದಾರೆ", "ಆಗಿದ್ದರು", "ആണ്", "ആകുന്നു", "ആയിരുന്നു", "වේ", "ය", "ነው", "ናቸው", "ነበር", "ናት", "እዩ", "እያ",
        "ဖြစ်သည်", "ဖြစ်ပါသည်", "ဖြစ်တယ်", "ဖြစ်ပါတယ်", "არის", "է", "են", "էր", "юм", "hai", "hain", "tha", "thay",
        "thi", "hei", "ne", "ce", "ni", "dha", "da", "new", "аст", "آهي", "छथि", "އެވެ", "ครับ", "ค่ะ",
)
# fmt: on
_TRAILING_COPULA = regex.compile(r"[ \t]+" + alternation(_COPULAS) + r"$")
_INNER_COPULA = regex.compile(
    r"[ \t]+" + alternation(tuple(w for w in _COPULAS if not w.isascii() and len(w) > 1)) + r"[ \t]"
)
# the asked variable opening the answer, with what joins it to the answer: "Jawab: X waa Sayid ...", "Жооп: X —
# ...", "X: ..." (one small word; in a script without capitals no word, which may be the answer's first)
_VARIABLE_LEAD = (
    r"^[ \t]*(?:{names})(?![\p{{L}}\p{{M}}\d])(?:[ \t]*[:：=—–-][ \t]*"
    r"|(?:[ \t]+(?:\p{{Ll}}\p{{M}}*){{1,6}})?[ \t]+)"
)
# a suffix after a name's apostrophe (Turkish, Azerbaijani: "Atatürk'tür", "Ankara'dır")
_NAME_SUFFIX = re.compile(r"(?<=[^\W\d_])['’](?!s$)[a-zçğıöşüə]{1,5}$")  # Turkish "Atatürk'ün"; not "Lord's"
_COPULA_PREFIX = re.compile(r"(?:ngu|ngo|ngi|ng'|yi-?)")  # Zulu, Xhosa, Ndebele, Swati: "nguNelson Mandela"
# "Skënderbeu[1]", "甘肃省【2】", "Kano¹": a citation mark, not the name's
_FOOTNOTE = re.compile(r"(?:\[(?:doc[ \t]*)?\d{1,3}\]|【\d{1,3}】|[¹²³⁴⁵⁶⁷⁸⁹⁰]+)+(?=\W*$)")
# "3. Sachin Tendulkar": the number of a listed option
_OPTION_NUMBER = re.compile(r"^[ \t]*\d{1,2}[.)][ \t]+(?=[^\W\d_])")
_BRACKETED = re.compile(r"\[([^\[\]]+)\]")
_UNKNOWN = (
    r"unknown|unclear|uncertain|not known|not sure|none|n/?a|no idea|undetermined|indeterminate|no one|nobody"
    r"|one of\b.*"  # "one of the two brothers": no name
)
_QUOTED_TITLE = re.compile(r'"([^"\n]*[^\W_][^"\n]*)"[ \t]+(?=[^\W\d_])')
# (no space before it after a word of a script without spaces: "郑和(Zheng He)")
_GLOSS = re.compile(
    rf"(?:[ \t]+|(?<=[{CJK}])|(?=\([^()\n]*[^\x00-\u024f]))(?:\([^()\n]*\)|\[[^\[\]\n]*\])(?=[ \t,.;。]|$)"
)  # "Ganges (Ganga)", "ONE PIECE(ワンピース)"
_SAME_NAME = 0.5  # how alike (difflib's ratio) two spellings of one name are at least
_TWO_SCRIPTS = re.compile(r"[ \t]/[ \t]")  # "Leo Tolstoy / Лев Толстой": one name in two scripts
_SPACED_DASH = re.compile(r"[ \t]+[-–—][ \t]+|[ \t]*—[ \t]*(?=[^\W\d_])")
# a label of one word before a reply's only answer, in any language: "TL;DR: Toussaint Louverture", "ⵜⴰⵔⵉⵔⵉⵜ: ⴷⵉⵀⵢⴰ"
_ANSWER_KEY = re.compile(r"(?i)(?:final[ _]?)?(?:answer|entity|value|name)")
# a data key opening an answer ("answer:" over "value: Garba" in TOML): no part of it
_DATA_KEY = re.compile(r"(?i)^[ \t]*(?:value|text|name|entity|result)[ \t]*:[ \t]*(?=\S)")
_LEAD_LABEL = re.compile(r"^[ \t]*[^\s:：]{1,20}[:：][ \t]+(?=\S)")
# a clause of small-letter words (the first may open the sentence) before a name that ends it, in any language
# written in capitals, two of its words of four letters or more: "el egaba heya Umm Kulthum" (not "Jean de la
# Fontaine", "Gone with the Wind": a name's particles are short)
_NAME_AFTER_CLAUSE = regex.compile(
    r"(?P<clause>\p{L}[\p{L}\p{M}'’]*(?:[ \t]+[\p{Ll}\p{M}\d'’]+)+)[ \t]+"
    r"(?P<name>\p{Lu}[\p{L}\p{M}'’.-]*(?:[ \t]+\p{Lu}[\p{L}\p{M}'’.-]*)*)"
)
_LONG_SMALL_WORD = regex.compile(r"(?<![\p{L}\p{M}])\p{Ll}[\p{Ll}\p{M}]{3,}")
# a closing line that labels its answer in words of any language: "Tali: Sipi Tau", "Kontesta: Papiamentu."
_CLOSING_LABEL = re.compile(
    r"\n[ \t]*(?P<label>[^\W\d_][^\s\d:：]{0,20}(?:[ \t]+[^\s\d:：]{1,20}){0,2})[:：][ \t]+(?P<name>[^\n]+)\Z"
)
_CLAUSE_BREAK = re.compile(r"[;؛]")  # a semicolon ends what is said of one variable
_COMMA = re.compile(r", |،[ \t]*|，")  # ("Fès، not Marrakech", "郑和，明朝的")
_NAME_GOES_ON = re.compile(r",|&|^(?:[A-Z]\.)+$|^(?:Jr|Sr|Inc|Ltd)\b")
# Everything str.isspace() accepts (all below U+3001), so one str.strip() call does the whole job.
_STRIP = "".join(chr(c) for c in range(0x3001) if chr(c).isspace()) + "*_`\"'“”‘’<>;,:|{}→⇒—–!?؛،" + OTHER_TERMINALS


@lru_cache(maxsize=64)
def _compile(variables: tuple[str, ...]) -> tuple[tuple[int, regex.Pattern[str]], ...]:
    """(strength, label pattern): 0 = "X is", 1 = plain or JSON key, 2 = bracketed."""
    names = "|".join(re.escape(v) for v in sorted(variables, key=len, reverse=True))
    var = rf"(?<!\w)(?P<v>{names})(?!\w)\**"
    small = r"(?:\p{Ll}\p{M}*){1,6}"  # a small word: a copula of any language ("X yw", "X huwa", "Y to", "X bolsa")
    return (
        (
            0,
            regex.compile(
                rf"(?:{_LINE_START}|{_SEPARATED}|{_SENTENCE_START}){var}"
                r"[ \t]+is(?:[ \t]+none[ \t]+other[ \t]+than)?(?!\w)[ \t:]*"
            ),
        ),
        # the variable, a small word and a capital, at a clause's start ("Felly, X yw Llywelyn ap Gruffudd", "X
        # huwa Jean de la Valette"), or a word of a script without capitals right after it ("X فردوسی است")
        (
            0,
            regex.compile(
                rf"(?:{_LINE_START}|{_SEPARATED}|(?<=[.!?:：][ \t])|{_SENTENCE_START}){var}"
                rf"[ \t]+(?:{small}[ \t]+(?=\p{{Lu}}|\p{{Lo}})|(?=\p{{Lo}}))"
            ),
        ),
        (
            1,
            regex.compile(
                rf"(?:{_LINE_START}|{_SEPARATED}|(?<=\.)[ \t]+\**|(?<=[:：])[ \t]*\**|{_AFTER_ANSWER}|{_ANSWER_FOR})"
                rf"{var}(?:[ \t]+{small})?{_STRONG_SEP}"  # "X — Alisher Navoiy", "Xulosa: X — ...", "X bolsa — ..."
            ),
        ),
        # "so y = Kurukshetra"
        (1, regex.compile(rf"(?<=[ \t($])(?<!\w)(?P<v>(?i:{names}))(?!\w)\**[ \t]*=(?!=)[ \t]*")),
        (1, regex.compile(rf"{var}[ \t]+(?:refers[ \t]+to|is[ \t]+none[ \t]+other[ \t]+than|stands[ \t]+for)[ \t]+")),
        (1, regex.compile(rf"(?<![\w\"'])[\"'](?P<v>{names})[\"'][ \t]*:[ \t]*")),
        (
            2,
            regex.compile(
                rf"<{{1,3}}[ \t]*\**(?<!\w)(?P<v>(?i:{names}))(?!\w)(?:[ \t]+answer\b)?\**"
                rf"(?:[ \t]*[:=\-–—][ \t]*|[ \t]+)"
            ),
        ),
        (1, regex.compile(rf"^[ \t>#]*(?:[-*+•][ \t]+|\d+[.)][ \t]+)?(?P<v>(?i:{names}))(?!\w)[ \t]*[:=][ \t]*")),
        (1, regex.compile(rf"(?<=[;,|])[ \t]*(?P<v>(?i:{names}))(?!\w)[ \t]*:[ \t]*")),  # "<<<x: A; y: B>>>"
        (1, regex.compile(rf"(?<=[ \t])(?P<v>{names})(?!\w)[ \t]*:[ \t]*")),  # "... vra na Y: Robbeneiland"
        (1, regex.compile(rf"\((?P<v>{names})\)[ \t]*[:=][ \t]*")),  # "Answer for the variable asked (Y): Kalinga"
    )


@lru_cache(maxsize=64)
def _variable_break(variables: tuple[str, ...]) -> re.Pattern[str]:
    """A variable and a few words ending its line with a colon ("Y is dus:"): its answer is on the next line."""
    names = "|".join(re.escape(v) for v in sorted(variables, key=len, reverse=True))
    other = rf"(?!(?<!\w)(?:{names})(?!\w))"  # the words after it name no variable
    return re.compile(rf"(?m)(?<!\w)({names})(?!\w)(?:{other}[^\n:：<>()]){{0,20}}[:：][ \t]*\n(?=[ \t]*[^\W_])")


@lru_cache(maxsize=64)
def _suffix_label(variables: tuple[str, ...]) -> re.Pattern[str]:
    """A label after its answer: "Homi J. Bhabha (X)"."""
    names = "|".join(re.escape(v) for v in sorted(variables, key=len, reverse=True))
    return re.compile(rf"\((?P<v>{names})\)(?![ \t]*[:=])")


@lru_cache(maxsize=64)
def _variable_lead(variable: str) -> regex.Pattern[str]:
    """The variable asked opening what follows "answer:", with its copula ("Jawab: X waa Sayid ...")."""
    return regex.compile(_VARIABLE_LEAD.format(names=regex.escape(variable)))


@lru_cache(maxsize=64)
def _bracket_label(variable: str) -> re.Pattern[str]:
    """A leading "<X " / "<<<x:" (the authors' format, or the variable itself) in an unlabelled answer."""
    names = "X" if variable == "X" else f"X|{re.escape(variable)}"
    return re.compile(rf"^[ \t]*<{{1,3}}[ \t]*\**(?i:{names})(?!\w)\**(?:[ \t]*[:=\-–—][ \t]*|[ \t]+)")


def _first_sentence(segment: str) -> str:
    """`segment` up to its first sentence break that does not follow a title ("Capt. Vikram Batra") nor stand in a
    run of initials ("ఎన్. టి. రామారావు")."""
    initials = iter(_INITIALS.finditer(segment) if "." in segment else ())
    run = next(initials, None)
    for match in _SENTENCE_END.finditer(segment):
        while run and run.end() <= match.start():
            run = next(initials, None)
        if run and run.start() <= match.start():
            continue
        before = _TITLE_BEFORE.search(segment, max(0, match.start() - 12), match.start())
        if not before or before[1].lower() not in _TITLES:
            return segment[: match.start() + 1]
    return segment


def _bare(answer: str) -> str:
    """The name alone, without bracketed glosses ("Ganges (Ganga)", "Sholay (1975)") and without an apposition
    after a comma or a spaced dash ("Jyoti Basu, who served ...", "Dandi, Gujarat", "IKEA — the name stands for
    ..."). A comma stays where more of the name follows it: another comma or "&" ("Earth, Wind & Fire"), an
    abbreviation ("Washington, D.C.")."""
    if _ALNUM.search(bare := _GLOSS.sub("", answer)):
        answer = bare
    if " / " in answer and len(sides := _TWO_SCRIPTS.split(answer)) == 2 and _scripts_differ(*sides):
        answer = sides[0]
    if (dash := _SPACED_DASH.search(answer)) and _ALNUM.search(answer[: dash.start()]):
        answer = answer[: dash.start()]
    if (comma := _COMMA.search(answer)) and _ALNUM.search(head := answer[: comma.start()]):
        rest = answer[comma.end() :]
        answer = head if rest[:1].islower() or not _NAME_GOES_ON.search(rest) else answer
    return answer


def _scripts_differ(a: str, b: str) -> bool:
    first = [next((script(c) for c in side if c.isalpha()), None) for side in (a, b)]
    return None not in first and first[0] != first[1]


def _clean(segment: str) -> str | None:
    """The answer in the text that follows a label, or None when it holds none; a title quoted before what is said
    of it ('"I Am the Walrus" by the Beatles') is the title."""
    closed = segment.find(">")
    segment = segment[:closed] if closed >= 0 else _first_sentence(_OPTION_NUMBER.sub("", segment, count=1))
    segment = _CLAUSE_BREAK.split(segment, 1)[0]  # "X huwa Jean de la Valette; il-belt kapitali Y hija ..."
    segment = _FILLED.sub("", _DATA_KEY.sub("", segment, count=1), count=1)
    if (lead := _answer_noun().match(segment.strip())) and segment.strip()[lead.end() :].strip():
        segment = segment.strip()[lead.end() :]  # "Respuesta (en español): La respuesta es Vasco de Gama"
    if abstention_ends(segment) or _ALTERNATIVES.search(segment):
        return None
    if quoted := _QUOTED_TITLE.match(segment.strip()):
        segment = quoted[1]
    segment = _HEDGE.sub("", _CELL_END.split(segment, 1)[0].strip(_STRIP), count=1).strip(_STRIP)
    if _ALTERNATIVES.match(segment):  # "It's either Coca-Cola or Pepsi"
        return None
    segment = _SYMBOLS.sub("", _bare(segment)).strip(_STRIP)
    segment = _FOOTNOTE.sub("", segment).strip(_STRIP)
    if _TWO_NAMES.match(segment):
        return None
    if segment.endswith(".") and not _ABBREVIATION.search(segment[-3:]):
        segment = segment[:-1].strip(_STRIP)
    segment = segment.removeprefix("the ") if segment.startswith("the ") else segment  # "the Taj Mahal"
    segment = _KOREAN_COPULA.sub("", _JAPANESE_COPULA.sub("", segment)).strip(_STRIP)  # "答えは...です"
    if " " in segment and (
        copula := _TRAILING_COPULA.search(segment, max(0, len(segment) - 40)) or _INNER_COPULA.search(segment)
    ):
        segment = segment[: copula.start()].strip(_STRIP)
    if (prefix := _COPULA_PREFIX.match(segment)) and segment[prefix.end() : prefix.end() + 1].isupper():
        segment = segment[prefix.end() :]  # "nguShaka": the copula written onto the name
    if segment[:1].isupper():
        segment = _NAME_SUFFIX.sub("", segment)
    if bracketed := _BRACKETED.fullmatch(segment):  # the format's "[answer]" filled in: "[Bismillah Khan]"
        segment = bracketed[1].strip(_STRIP)
    if not _ALNUM.search(segment) or _PLACEHOLDER.fullmatch(segment) or _no_answer().fullmatch(segment):
        return None
    return None if segment in _COPULAS else segment  # "... उत्तर गलत हो": the copula, no name


@cache
def _hedge_lead() -> re.Pattern[str]:
    """A stated best guess as a line's lead, in any language: "Most likely: TCS", "Je pense : ..."."""
    return re.compile(rf"(?im)^[ \t]*(?:{every('hedge')})[ \t]*[:：]")


@cache
def _no_answer() -> re.Pattern[str]:
    """An answer slot filled with a statement that there is none: "unknown", "not sure", "I don't know" in any
    language (the choice words' doubts)."""
    return re.compile(rf"(?i:{_UNKNOWN})|{every('doubt')}")


@cache
def _spoken_noun() -> regex.Pattern[str]:
    """The format's statement in a transcript of speech (a line without a sentence's end, often without capitals):
    a noun for "answer" of any language after any words, then what joins it to the answer as in `_answer_noun`, or
    nothing before the next word ("um so cevap galata saray", "yang mainin itu jawabannya dalang")."""
    return regex.compile(
        rf"(?<![\p{{L}}\p{{M}}]){pattern('answer')}[^\s:：(]*"
        r"(?:[ \t]*[:：—–=]|(?:[ \t]+[\p{Latin}\p{Cyrillic}\p{Greek}]{1,4}|[ \t]+\p{Lo}{1,3})(?=[ \t])|(?=[ \t]))[ \t]*"
    )


@cache
def _answer_noun() -> regex.Pattern[str]:
    """The format's statement in the reply's language: a noun for "answer" of any language (the choice words)
    among a sentence's first words (or characters, in scripts without spaces: "したがって、答えは..."), then what
    joins it to the answer: a colon or dash ("उत्तर है: शाहजहाँ"), one or two small words before a capital or a word
    of a script without capitals ("Amsar ita ce Kano", "Ìdáhùn náà ni Ilé-Ifẹ̀", "jawabannya adalah Wayang Kulit",
    "الإجابة هي ابن رشد"), else one short word ("La respuesta es dhokla"), the Chinese or Japanese particle
    ("答案是...", "答えは...です"), or nothing before a capital ("Cevap Mustafa Kemal Atatürk'tür") or, where the
    noun opens its sentence, before a word of a script without capitals ("ഉത്തരം വള്ളത്തോള്‍ നാരായണ മേനോന്‍")."""
    start = r"(?:^|(?<=[.!?।。,،][ \t])|(?<=[。，]))"  # a sentence's or a clause's start
    noun = rf"{pattern('answer')}[^\s:：(]*"
    # a small word: up to six small letters, or three of a script without capitals, and no negator ("उत्तर नहीं पता")
    small = (
        rf"[ \t]+(?!(?:{negators()})(?![\p{{L}}\p{{M}}]))"
        r"(?:(?:\p{Ll}\p{M}*){1,6}|(?:(?!\p{Ethiopic})\p{Lo}\p{M}*){1,3})"  # (Ethiopic: a copula follows the name)
    )
    return regex.compile(
        rf"(?:{start}(?:(?:[^\s.!?।。]+[ \t]+){{0,3}}?|[\u3040-\u30ff\u4e00-\u9fff、，,]{{0,8}}?){noun}"
        r"(?:[ \t]*\([^()\n]{1,20}\))?"  # "उत्तर (Answer):"
        r"(?:[ \t]*[:：—–፡፥፦=]|[ \t]+-(?=[ \t])|(?:[ \t]+[^\s:：.!?।。]{1,12}){1,3}[ \t]*[:：՝]"  # "Eyano ya solo:"
        rf"|(?:{small}){{1,2}}?(?={_PAUSE}?[ \t]+(?:\p{{Lu}}|\p{{Lo}}|\d|\"))"
        r"|[ \t]+[\p{Latin}\p{Cyrillic}\p{Greek}]{1,4}(?=[ \t:：])[ \t]*[:：—–]?"
        r"|(?<=[\u4e00-\u9fff])[是为]|(?<=[\u3040-\u30ff\u4e00-\u9fff])は"
        r"|(?=[ \t]+\p{Lu}))"
        rf"|{start}{noun}(?=[ \t]+\p{{Lo}})"  # the noun opening its sentence: "ഉത്തരം വള്ളത്തോള്‍ ..."
        # further into its sentence before a colon: "Dat ass also och meng Äntwert: Robert Schuman."
        rf"|{start}(?:[^\s.!?।。:：]+[ \t]+){{4,6}}?{noun}[ \t]*[:：])[ \t]*{_PAUSE}?[ \t]*"
    )


def _line_answer(line: str, variable: str, alone: re.Pattern[str]) -> tuple[str, str] | None:
    """(lead, answer) of a line's last "answer is ..." statement for the variable asked (not a lead that names a
    variable: "Answer for Y: Lord's")."""
    closers = [i for i, c in enumerate(line) if c == ">"]
    leads = list(_ANSWER_IS.finditer(line)) or list(_answer_noun().finditer(line))
    if not leads and not _STOPPED.search(line):
        leads = list(_spoken_noun().finditer(line))
    for match in reversed(leads):
        if any(name != variable for name in alone.findall(match[0])):
            continue
        # the answer stops at the first ">" (see _clean): slice no further, or many leads cost quadratic time
        after = bisect_left(closers, match.end())
        stop = closers[after] + 1 if after < len(closers) else len(line)
        lead = _bracket_label(variable).sub("", line[match.end() : stop], count=1)
        if answer := _clean(_variable_lead(variable).sub("", lead, count=1)):
            return _words(line[: match.end()]), answer
    return None


def _format_answer(text: str, variable: str, alone: re.Pattern[str]) -> tuple[int, str, int] | None:
    """Rule 5: (strength, answer, line index) of the last "answer is ..." statement, for the variable asked
    (`alone`: any variable standing alone); the answer is "" where the line before it states another answer in the
    same words ("Final answer: Daugava" / "Final answer: Gauja")."""
    lines = text.splitlines()
    for index in range(len(lines) - 1, -1, -1):
        if stated := _line_answer(lines[index], variable, alone):
            lead, answer = stated
            if alone.search(answer):
                return None
            if _versions_disagree(lines, index, answer, variable, alone):
                return _FORMAT, "", index  # "La respuesta es Inglaterra | The answer is Argentina"
            before = next((line for line in reversed(lines[:index]) if line.strip()), "")
            other = _line_answer(before, variable, alone)
            if other and other[0] == lead and _words(other[1]) != _words(answer):
                return _FORMAT, "", index  # no answer, and none to look for elsewhere
            final = any(_FINAL.search(earlier) for earlier in lines[:index]) or _FINAL.search(lines[index])
            return _FORMAT + (_FINAL_BONUS if final else 0), answer, index
    return None


def _versions_disagree(lines: list[str], index: int, answer: str, variable: str, alone: re.Pattern[str]) -> bool:
    """Whether the reply gives the answer in two languages' versions that name different entities (`_other_entity`):
    side by side on its line (" | ", " / "), or on a line that opens another language's version and before it."""
    said = [answer]
    if PARALLEL.search(lines[index]):
        said += [s[1] for part in PARALLEL.split(lines[index]) if (s := _line_answer(part, variable, alone))]
    if version_lead().match(lines[index]):
        earlier = next((s for line in reversed(lines[:index]) if (s := _line_answer(line, variable, alone))), None)
        said += [earlier[1]] if earlier else []
    return any(_other_entity(a, b) for a in said for b in said)


def _other_entity(a: str, b: str) -> bool:
    """Whether two names written in one script name different entities: less alike than a name's spellings in two
    languages ("Sakkwato" / "Sokoto" are one city, "Inglaterra" / "Argentina" are not); names in two scripts are
    taken for one name written twice ("永乐" / "Yongle")."""
    a, b = _words(a).lower(), _words(b).lower()
    return bool(a and b) and not _scripts_differ(a, b) and SequenceMatcher(None, a, b).ratio() < _SAME_NAME


def _whole_reply(text: str, variables: tuple[str, ...]) -> str | None:
    """Rule 5: a short one-line reply with no label is the answer."""
    reply = text.strip()
    names = "|".join(re.escape(v) for v in variables)
    if (
        len(reply) <= 100
        and len(reply.splitlines()) == 1
        and not re.search(rf"(?<!\w)(?:{names})(?!\w)", reply)
        and not _ANSWER_IS.search(reply)  # the format stated, with nothing readable as its answer
        and not re.search(every("answer"), reply)  # talk about the answer ("I don't know the answer to this")
        and len(_ASKING.findall(reply)) < 2  # questions: "maybe Sony? or Panasonic??"
    ):
        if turn := TAKEN_BACK.search(reply):  # "Chandrayaan-1... wait, no, that went to the Moon. Mangalyaan."
            reply = _SENTENCE_END.split(reply[turn.end() :])[-1]
        answer = _clean(_LEAD_LABEL.sub("", reply, count=1))
        named = _NAME_AFTER_CLAUSE.fullmatch(answer) if answer else None
        return named["name"] if named and len(_LONG_SMALL_WORD.findall(named["clause"])) >= 2 else answer
    return None


def _named_first(text: str, alone: re.Pattern[str]) -> str | None:
    """A tutor's answer first: a first line of a few words, not a lead, that the explanation after it names again
    ("Shah Jahan" / "Justification: ... was Shah Jahan ...")."""
    head, _, rest = text.strip().partition("\n")
    name = _clean(head) if rest else None
    if not name or len(name) > 60 or len(name.split()) > 6 or head.rstrip().endswith(":") or alone.search(name):
        return None
    return name if re.search(rf"(?<!\w){re.escape(name.casefold())}(?!\w)", rest.casefold()) else None


def _closing_label(text: str, alone: re.Pattern[str]) -> str | None:
    """A name of a few words on the reply's last line, after a label of up to three words that names no variable."""
    text = text.rstrip()
    closing = _CLOSING_LABEL.match(text, text.rfind("\n"))
    if not closing or alone.search(closing["label"]) or not (name := _clean(closing["name"])) or alone.search(name):
        return None
    return name if len(name.split()) <= 6 and _LETTER.search(name) else None  # ("confidence: 0.5" is no name)


def _opening_name(text: str, alone: re.Pattern[str]) -> str | None:
    """A name of a few words that opens the reply as a sentence of its own ("Višegrad.", "манас 💯 ..."): its
    longer words capitalised, where the reply writes capitals at all ("Imos por partes." is no name)."""
    head = _first_sentence(text.strip().partition("\n")[0])
    name = _clean(head) if head.rstrip()[-1:] in TERMINALS or _SYMBOLS.search(head) else None
    if not name or len(name.split()) > 4 or alone.search(name):
        return None
    cased = text != text.lower()
    return None if cased and any(len(word) > 3 and word.islower() for word in name.split()) else name


def _first(pattern: re.Pattern[str], line: str) -> float:
    """Where `pattern` first starts in `line` (infinity when it does not)."""
    match = pattern.search(line)
    return match.start() if match else float("inf")


def _suffixed(line: str, variables: tuple[str, ...]) -> list[tuple[str, str]]:
    """Rule 1d: (variable, answer) of the answers labelled after them on a line ("A (X) and B (Y)")."""
    out, start = [], 0
    lead = _ANSWER_IS.search(line)
    for match in _suffix_label(variables).finditer(line):
        begin = max(start, lead.end()) if lead and lead.end() <= match.start() else start
        answer = re.sub(r"^[ \t]*(?:[,;]|and\b)[ \t]*", "", line[begin : match.start()])
        if cleaned := _clean(answer):
            out.append((match["v"], cleaned))
        start = match.end()
    return out


def _offered(line: str, labels: list[tuple[int, re.Match[str]]]) -> set[str]:
    """The variables a line labels twice with "or" between: alternatives offered, no answer chosen."""
    return {
        b["v"].lower()
        for (_, a), (_, b) in zip(labels, labels[1:], strict=False)
        if a["v"].lower() == b["v"].lower() and _OR.search(line, a.end(), b.start())
    }


def _words(text: str) -> str:
    return " ".join(text.split()).casefold()


def _word_run(text: str) -> str:
    """The words of `text`, case folded, one space between them ("Delhi, and" -> "delhi and")."""
    return " ".join(_WORD.findall(text.casefold()))


def _next_item(text: str, question: str | None) -> int | None:
    """Where a prompt's next item starts, as a base model writes it: a "Question:" whose question is not the one
    asked (the one asked is the prompt restated), after an answer statement when the question is not known."""
    asked = _words(question)[:60] if isinstance(question, str) else ""
    for turn in _NEXT_PROMPT.finditer(text):
        if not asked:
            return turn.start() if _ANSWER_IS.search(text, 0, turn.start()) else None
        end = text.find("\n", turn.end())
        line = _words(text[turn.end() : end if end >= 0 else None])
        if not (line and (asked.startswith(line[:60]) or line.startswith(asked))):
            return turn.start()
    return None


def _offered_values(line: Line) -> str:
    """A line as read; a data field giving its one answer several values ("answer: [Accra, Kumasi]") offers them as
    alternatives."""
    if line.kind == "field" and len(line.values) > 1 and _ANSWER_KEY.fullmatch(line.text.partition(": ")[0]):
        return f"{line.text.partition(': ')[0]}: either {' or '.join(line.values)}"
    return line.text


def _read(text: str, question: str | None, variables: tuple[str, ...]) -> tuple[str, list[str]] | None:
    """The reply as the shared reader reads it, up to a next item it writes itself, with placeholders and
    line-ending leads mended, and its bold runs; None when an unclosed reasoning block gave no answer."""
    reading = read_reply(own_words(text))
    if reading.unfinished:
        return None
    text = _EMOJI_LEAD.sub("", "\n".join(map(_offered_values, reading.lines)))
    text = _LATEX_TEXT.sub(r"\1", text) if "\\" in text else text
    if (turn := _next_item(text, question)) is not None:
        text = text[:turn]  # a base model that wrote the next question itself
    text = _BOXED.sub(r"\nFinal answer: \1\n", text) if "boxed" in text else text
    text = _KEYED.sub("answer for ", text)  # "answer_X: Kapil Dev" (YAML keys)
    text = _variable_break(variables).sub(r"\1: ", text)  # "Y is dus:" / "Taj Mahal"
    text = _hedge_lead().sub("Answer: ", _PAIRED.sub(r"\1\2: ", text))  # "Most likely: TCS", "variable: X / entity:"
    text = _LEAD_BREAK.sub(r"\1 ", _PLACEHOLDER_LEAD.sub("answer", _ANSWER_AFTER.sub(r"The answer is \1", text)))
    return text, [run for line in reading.lines for mark, run in line.emphasis if mark == "bold"]


def parse_variables(
    text: object, variables: object, asked: str | None = None, question: str | None = None
) -> dict[str, str | None]:
    """Map each variable to the answer the reply gives for it, or None when the reply gives none; any input is
    taken (a variable that is not a non-blank string is never answered, and is a key only if hashable). `asked`
    is the variable the prompt asked for (rule 5); by default the only variable, if there is one. `question` is
    the question asked: a "Question:" the reply writes with another question is a next item, not an answer."""
    variables = list(variables) if isinstance(variables, Sequence) and not isinstance(variables, str) else []
    result: dict[str, str | None] = {v: None for v in variables if isinstance(v, str)}
    wanted = tuple(dict.fromkeys(v for v in variables if isinstance(v, str) and v.strip()))
    if not isinstance(text, str) or not wanted or (read := _read(text, question, wanted)) is None:
        return result
    text, bold = read
    reply, text = text, _BRACKET_BREAK.sub(r"\1 ", text)
    patterns = _compile(wanted)
    alone = re.compile(rf"(?<!\w)(?:{'|'.join(re.escape(v) for v in wanted)})(?!\w)")
    canonical = {v.lower(): v for v in reversed(wanted)} | {v: v for v in wanted}
    best: dict[str, tuple[int, str]] = {}
    named: dict[str, str] = {}  # answers labelled by the variable's own name (not the format's "<X answer>")
    final = False
    asked_words = f" {_word_run(question)} " if isinstance(question, str) else ""  # (its entities are masked)
    said_at: dict[str, int] = {}  # the line of each variable's answer
    for at, line in enumerate(text.splitlines()):
        if not line or line.isspace():
            continue
        found = sorted(((m.start(), s, m) for s, p in patterns for m in p.finditer(line)), key=lambda f: f[0])
        labels: list[tuple[int, re.Match[str]]] = []
        for start, strength, match in found:
            if not labels or start >= labels[-1][1].end():  # a lead ("answer is") may cover a later label
                labels.append((strength, match))
        final_at, stated_at = _first(_FINAL, line), _first(_ANSWER_IS, line)
        offered = _offered(line, labels)  # "<<<X: A>>> or <<<X: B>>>": no answer for X on this line
        for variable in offered:
            best.pop(canonical[variable], None)
        for i, (strength, match) in enumerate(labels):
            if match["v"].lower() in offered:
                continue
            stop = labels[i + 1][1].start() if i + 1 < len(labels) else len(line)
            answer = _clean(line[match.end() : stop])
            if strength == 0 and answer and (alone.search(answer) or f" {_word_run(answer)} " in asked_words):
                answer = None  # "X is the state whose capital is Y", "X ruled Delhi": a description, the question's
            final = final or final_at < match.end()
            bracketed = strength == 2
            strength += _FINAL_BONUS if final else _FORMAT if stated_at < match.end() or bracketed else 0
            variable = canonical[match["v"]] if match["v"] in canonical else canonical[match["v"].lower()]
            if answer and strength >= best.get(variable, (-1, ""))[0]:
                best[variable], said_at[variable] = (strength, answer), at
                if not bracketed:
                    named[variable] = answer.casefold()
        if not labels:
            bonus = _FINAL_BONUS if final or final_at < len(line) else _FORMAT if stated_at < len(line) else 0
            for variable, answer in _suffixed(line, wanted):
                if 1 + bonus >= best.get(variable, (-1, ""))[0]:
                    best[variable] = (1 + bonus, answer)
        final = final or bool(_FINAL.search(line))
    target = asked if asked in wanted else wanted[0] if len(wanted) == 1 else None
    if target is not None:
        stated = _format_answer(text, target, alone)
        others = {answer for v, answer in named.items() if v != target}
        if stated and stated[1].casefold() in others:  # the format's slot filled with another variable's answer
            stated = None
        if stated and not stated[1]:
            best.pop(target, None)  # two statements of the answer that contradict each other
        elif stated and stated[0] >= best.get(target, (-1, ""))[0] and said_at.get(target, -1) <= stated[2]:
            best[target] = stated[:2]  # (a statement of the variable's own after it is the later word: "Korekta: Y to")
        elif target not in best and len(ticked := _TICKED.findall(text)) == 1 and (named := _clean(ticked[0])):
            best[target] = (-1, named)  # the one option ticked: "❌ NO: Simón Bolívar" / "✅ SÍ: José de San Martín"
        elif target not in best and len(set(bold)) == 1 and (named := _clean(_LEAD_LABEL.sub("", bold[0], count=1))):
            best[target] = (-1, named)  # the one name the reply sets in bold: "**Jaipur**\n\nThe old city ..."
        elif target not in best and (closing := _closing_label(text, alone)):
            best[target] = (-1, closing)
        elif target not in best and (first := _named_first(text, alone)):
            best[target] = (-1, first)
        elif target not in best and best and (first := _opening_name(reply, alone)):
            best[target] = (-1, first)  # "Višegrad. X je Ivo Andrić, ...": the one asked first, the others labelled
        elif not best and (whole := _whole_reply(reply, wanted)):
            best[target] = (-1, whole)
        if target in best and (doubts := abstention_ends(text)):
            end = _STOP.search(text, doubts[-1])
            if text.rfind(best[target][1]) < (end.end() if end else len(text)):
                del best[target]  # "The answer is Pune. ... I can't decide between Pune and Nagpur."
    for variable, (_, answer) in best.items():
        result[variable] = answer
    return result


# "The rationale is ...", "Rationale: ...", a "Rationale" heading: a lead of the rationale format, any case
_RATIONALE = re.compile(
    r"(?i)\brationale\b(?:[ \t]+(?:is|would[ \t]+be))?[ \t]*(?::[ \t]*|(?<=is)[ \t]+|(?<=be)[ \t]+|$)"
)


def read_rationale(reply: object) -> str:
    """The rationale a reply states: from its last rationale lead ("The rationale is", "Rationale:", a
    "Rationale" heading; any case) to the end, as the shared reader reads it (markdown gone, lines joined by
    spaces); without a lead, all the reply; "" where it refuses or gives no answer."""
    reading = read_reply(reply)
    lines = [line.text for line in reading.lines]
    if reading.unfinished or not lines:
        return ""
    start, at = 0, 0
    for index, text in enumerate(lines):
        for match in _RATIONALE.finditer(text):
            start, at = index, match.end()
    found = start or at
    rationale = " ".join([lines[start][at:], *lines[start + 1 :]]).strip(_STRIP)
    if not found and (reading.refusal or reading.abstains):
        return ""
    return rationale
