"""A judge's verdict as a careful reader reads it, on the shared `Reading` of its reply (replies.py).

Binary (correct / incorrect): what the judge states, not the words of the answers it quotes, the gold answer it
names ("the correct answer is Karachi"), an attribute ("a wrong detail") or a hypothetical ("had it said Lahore, it
would be correct"). Negation and qualification are read ("not quite right" is incorrect, "correct, although it
adds a wrong detail" is correct; "partly correct" states no verdict); check marks and crosses are verdicts. An
explicit statement ("Verdict: incorrect", a line that is only a verdict, {"verdict": "correct"}) wins over prose;
among statements of one kind the last wins, so a judge that revises is read at its revision.

Likert (1-5): an explicit score ("Score: 4", "4/5", "I rate it 4", "four out of five", "3.5", "★★★★☆") wins over any
other number; numbers that count things ("3 of 5 clues", "2 out of 3 parts") are no scores; the last explicit
score wins; else a number alone on the last line. A score off the scale ("0", "7/10", "3-4") is no score.
"""

from __future__ import annotations

import re
import unicodedata
from collections import deque
from collections.abc import Callable
from pathlib import Path

from lm_eval_xling.choice_words import alternation, every, negators, read_yaml
from lm_eval_xling.replies import (
    CROSSES,
    PARALLEL,
    TAKEN_BACK,
    TERMINALS,
    TICKS,
    Line,
    ascii_digits,
    own_words,
    read_reply,
    version_lead,
)

# the scores 2-5 as words in the judges' languages ("one" only in English: elsewhere it is also "a")
_WORD_NUMBERS = {
    word: str(n)
    for n, words in enumerate(
        (
            "one",
            "two zwei deux dos due dois duas twee två два dwa dva doi δύο kettő iki dua dalawa mbili biyu दो দুই"
            " இரண்டு రెండు اثنان اثنين دو שתיים 둘 méjì dó दोन ਦੋ બે ಎರಡು രണ്ട്",
            "three drei trois tres tre três drie три trzy tři trei τρία három üç tiga tatlo tatu uku तीन তিন மூன்று"
            " మూడు ثلاثة ثلاث سه שלוש 셋 mẹ́ta trí ਤਿੰਨ ત્રણ ಮೂರು മൂന്ന് تین",
            "four vier quatre cuatro quattro quatro fyra четыре чотири cztery čtyři patru τέσσερα négy dört empat apat"
            " nne huɗu चार চার நான்கு నాలుగు أربعة أربع چهار ארבע 넷 mẹ́rin ceithre ਚਾਰ ચાર ನಾಲ್ಕು നാല് bốn",
            "five fünf funf cinq cinco cinque vijf fem пять пяти п'ять п'яти pięć pět cinci πέντε öt beş lima tano"
            " biyar पांच पाँच पाच পাঁচ ஐந்து ఐదు خمسة خمس پنج חמש 다섯 márùn cúig ਪੰਜ પાંચ ಐದು അഞ്ച് پانچ",
        ),
        start=1,
    )
    for word in words.split()
}
_WORDS = re.compile(
    rf"(?im)(?<![^\W_])({'|'.join(_WORD_NUMBERS)})(?P<half>\s+(?:and\s+(?:a\s+)?half|e\s+mei[oa]|y\s+medio|et\s+demi"
    r"|und\s+ein\s+halb|e\s+mezzo|с\s+половиной|buçuk)\b)?(?![^\W_])"
    # "三分", "打四分", "评分：三" (not "四分之一", a quarter)
    r"|(?:(?<![一-鿿])|(?<=[打给給评評得]))([二三四五])(?=[ \t]*[分点點](?!之)|[ \t。.]*$)"
)
# a score and a half in one word, in the judges' languages ("ढाई" is 2.5, "മൂന്നര" 3.5)
_HALF_WORDS = {
    "डेढ़": "1.5", "दीड": "1.5", "ڈیڑھ": "1.5", "ढाई": "2.5", "अडीच": "2.5", "ڈھائی": "2.5", "ಎರಡೂವರೆ": "2.5",
    "మూడున్నర": "3.5", "മൂന്നര": "3.5",
}  # fmt: skip
_HALF_WORDS = {unicodedata.normalize("NFKC", word): value for word, value in _HALF_WORDS.items()}  # as replies are read
_HALVES = re.compile("|".join(_HALF_WORDS))
# a number before its unit in a script written without spaces: "สี่คะแนน" (Thai), "사점" (Korean); Chinese "两分",
# "三点五分", "三个半"
_UNIT_NUMBERS = {"หนึ่ง": "1", "สอง": "2", "สาม": "3", "สี่": "4", "ห้า": "5", "일": "1", "이": "2", "삼": "3", "사": "4"}
_UNIT_NUMBERS |= {"오": "5", "两": "2", "兩": "2"}
_UNIT_NUMBER = re.compile(
    r"(?:หนึ่ง|สอง|สาม|สี่|ห้า)(?=[ \t]*คะแนน)|(?<![가-힣])[일이삼사오](?=[ \t]*점)|[两兩](?=[ \t]*[分点點])"
)
# a score and its unit in a script written without spaces: "3.5分", "4点", "3점" (not "第3点", the third point)
_POINTS = re.compile(r"(?<![\d第])(?<!\d\.)(?P<n>[1-5](?:\.5)?)[ \t]*[分点點점](?!之)")
_CJK_HALF = re.compile(r"([一二三四五])(?:[点點]五|[个個]半)")
# languages whose negator follows what it negates (Turkic, Indic, Persian, Amharic, Japanese, Korean)
_NEGATOR_LAST = tuple(
    ["tr", "az", "uz", "kk", "ky", "tk", "ug", "tt", "ba", "crh", "sah", "hi", "ur", "bn", "mr", "ne", "pa", "gu"]
    + ["or", "as", "ta", "te", "kn", "ml", "si", "fa", "prs", "ps", "am", "ja", "ko", "my"]
)
# a reply that is only "yes" or "no", to the question whether the answer is correct
_YES_NO = {
    **dict.fromkeys(("yes", "ja", "oui", "sí", "si", "sim", "да", "evet", "ndiyo", "是", "对", "はい", "네"), 1.0),
    **dict.fromkeys(("no", "nein", "non", "não", "нет", "hayır", "hapana", "否", "不对", "いいえ", "아니요"), 0.0),
}
_OPENING = re.compile(r"\s*([^\s.,!;:。，！]+)[ \t]*[.,!;:。，！\n]")  # "No." opening a reply
_ONE_AS_PRONOUN = re.compile(r"(?i)\b(?:the|next|this|that|another|any|each|every|which|no|on)\s+$")
# the judge prompt's first and last headings ("## Question" ... "## Your Judgement (correct/incorrect)")
_PROMPT_START = re.compile(r"(?i)question[ \t]*:?")
_PROMPT_END = re.compile(r"(?i)your[ \t]+judge?ment\b")
_QUOTED = re.compile(r"\"[^\"\n]{0,300}\"")
_PROMPT_WORDING = re.compile(
    r"(?i)\(in\)correct|\b(?:in)?correct\s*(?:/|\bor\b|\bou\b|\boder\b|\bo\b)\s*(?:in)?correct\b|\bcorrect\s+or\s+not\b"
)


def _verdict_words(languages: dict, kind: str) -> str:
    """Every language's words that say an answer is correct (`kind` "correct") or is not ("incorrect"), from
    verdict_words.yaml, as one expression (longest first: "nicht richtig" is read before "richtig")."""
    return alternation(tuple(str(w) for words in languages.values() for w in words.get(kind) or ()))


_VERDICT_WORDS = read_yaml(Path(__file__).parent / "verdict_words.yaml")
_POSITIVE, _NEGATIVE = _verdict_words(_VERDICT_WORDS, "correct"), _verdict_words(_VERDICT_WORDS, "incorrect")
# the answer the judge names as correct, in any language: "правильна відповідь — Київ", "Jibu sahihi ni Nairobi"
_GOLD_NAMED = re.compile(
    # (in a script written without spaces, a particle between them: "မှန်ကန်သောအဖြေ")
    rf"(?:{_POSITIVE})(?:[ \t]+|(?<=[^\x00-\u024f])[^\s\d.!?,:;।。！？，：；]{{0,3}}?)(?:{every('answer')})"
    rf"|(?:{every('answer')})[ \t]+(?:[^\W\d_]{{1,4}}[ \t]+)?(?:{_POSITIVE})"
    rf"(?![ \t]*(?:{negators()}|[.!?。！？,，\n]|$))"  # "Jawaban yang benar adalah ...", not "cevabı doğru değil."
)
# a negator of any language right before a verdict word turns it: "nicht falsch", "No es incorrecto", "pas faux"
_NEGATED = re.compile(rf"(?:{negators()})(?:[ \t]+[^\s]{{1,4}})?[ \t]+$")
# a negator after the verdict word, in languages that put it there: "doğru değil", "सही नहीं", "درست نیست"
_NEGATED_AFTER = re.compile(rf"[ \t]*(?:{negators(_NEGATOR_LAST)})")
_CUT_OFF = re.compile(
    r"(?i)\b(?:judge?ment|verdict|decision|evaluation|assessment|score|rating|grade)(?:[ \t]+(?:is|would[ \t]+be)"
    r"|[ \t]*[:：])[ \t]*$"
)  # "... so my judgement is", "Overall score:": cut off where the verdict was to follow
# a verdict line that names both verdicts ("Judgement: correct / incorrect"): a hedge, not the prompt's wording
_BOTH_STATED = re.compile(r"(?i)^[^\n:：]{1,40}[:：][ \t*]*(?:in)?correct[ \t*]*(?:/|\bor\b)[ \t*]*(?:in)?correct\W*$")
# a structured verdict: "is correct: false", "correct: yes" (the shared reader writes JSON keys so)
_BOOLEAN_FIELD = re.compile(
    rf"(?im)^[ \t]*(?:is[ \t]+)?(?P<key>{_NEGATIVE}|{_POSITIVE})[ \t]*:[ \t]*(?P<value>true|false|yes|no|1|0)[ \t]*$"
)
_GOLD_PHRASE = re.compile(rf"(?i)(?<![^\W\d_])(?:{every('answer')})$")  # a verdict phrase ending in "answer"
_COPULA = re.compile(r"(?i)[ \t]*(?:[:=]|(?:is|was|est|était|es|era|ist|war|é|è|ni|to|это|—)(?![^\W\d_]))")
# "Is it correct? No.", "Q: So is it correct?\nA: Yes - ..."
_ASKED = re.compile(rf"(?i)(?P<q>{_NEGATIVE}|{_POSITIVE})\?[ \t\n]*(?:[^\W\d_]{{1,12}}[ \t]*:[ \t]*)?(?P<a>yes|no)\b")
# a 1 or 0 given as the verdict (1 correct, 0 incorrect, as a label would read): after a label ("Verdict: 1"), a dash
# ("Нийса ду — 1. ...") or a sentence's end closing the reply ("... Hakuna noma. 1"), or opening it before a dash
_DIGIT_VERDICT = re.compile(
    r"(?m)(?:(?:^|(?<=[.!?][ \t])|(?<=[。！？]))[^\n:：.!?。！？]{1,30}[:：]|[—–=]|\A)[ \t*]*"
    r"(?<![\d.])(?P<d>[01])(?![.,]?\d)[ \t*]*"
    r"(?=[.!。]?[ \t]*$|[.!。][ \t]|[ \t]*[—–][ \t])"
    r"|(?<=[.!?。！？])[ \t]+(?P<e>[01])[ \t]*[.!]?[ \t]*\Z"
)
_YES_MARKS, _NO_MARKS = TICKS + "👍", CROSSES + "👎"  # a check mark or a thumb as a verdict
_POLAR = re.compile(rf"{_NEGATIVE}|{_POSITIVE}|[{_YES_MARKS}]|[{_NO_MARKS}]")
# a judge that says it cannot judge: no verdict ("I cannot determine whether the answer is correct")
_UNDECIDED = re.compile(
    r"(?i)\b(?:can(?:no|')t|unable\s+to|not\s+(?:able|possible)\s+to|impossible\s+to)\s+(?:\w+\s+)?"
    r"(?:determine|judge|tell|verify|assess|evaluate|decide|say|grade|mark|score|rate|rule)\b"
)
# both verdicts joined as alternatives, in any language: "whether it is correct or wrong", "верен или грешен",
# "richtig oder nicht": the question the judge leaves open, no verdict
_EITHER = re.compile(
    rf"(?i)(?:{_POSITIVE}|{_NEGATIVE})[ \t]+(?:{every('joint')})[ \t]+(?:{_POSITIVE}|{_NEGATIVE}|{negators()})(?!\w)"
)
# what marks a later verdict as a revision of an earlier one, not a contradiction ("Correct... wait ... So, incorrect.")
_REVISION = re.compile(
    r"(?i)\b(?:wait|actually|no|so|thus|therefore|hence|however|but|on\s+second|re-?check|correction|hold\s+on"
    r"|misread|re-?read|reconsider\w*|on\s+reflection|hmm+)\b"
)
_NEGATION = re.compile(r"(?i)(?:\bnot|n't|\bnever|\bhardly|\bno\s+longer)(?:\s+(?:\w+|quite|entirely|fully)){0,3}\s*$")
_BOTH_WAYS = re.compile(rf"(?i)\b(?P<w>{_NEGATIVE}|{_POSITIVE})\s*(?:and|or|/|but\s+also)\s*$")
_PARTIAL = re.compile(r"(?i)\b(?:partially|partly|half|somewhat|mostly|largely|almost|nearly)\s*-?\s*$")
# "the correct answer (is Karachi)", "the right city": a polar word as an attribute of a noun, not a verdict
_ATTRIBUTE = re.compile(
    r"(?i)\s+(?!answer\b(?!\s+(?:is|was|would|should|:)))(?:answer|name|one|entity|city|person|year|response|detail"
    r"|fact|date|place|country|rationale|reasoning|information|claim|part|term|spelling|word|clue|step|idea|choice"
    r"|option|interpretation|identification|connection|link|track|guess)s?\b"
)
_SENTENCE_BREAK = re.compile(r"[.!?。！？\n]")
_LABELLED = re.compile(r"[^\W\d_][^:：\n]{0,30}[:：][ \t]*\S[^\n]{0,60}")  # "Confidence: high": a whole line
_GOLD_NAMING = re.compile(
    r"(?i)\b(?:correct|right|true|actual|accurate)\s+(?:answer|response|name|one|entity|rationale)s?\b"
    r"(?=(?:\s+\w+){0,5}?\s*(?:is|was|are|were|would|should|:|=)(?!\w))"
)
_HYPOTHETICAL = re.compile(
    r"(?i)\b(?:if|had|unless|were\s+it|assuming)\b(?:(?!\b(?:but|so|however|yet|as\s+it\s+stands)\b)[^.;\n]){0,120}$|\b(?:would|could|might)\s+(?:only\s+)?(?:have\s+)?(?:be|been)\s+(?:\w+\s+)?$"
)
_STATEMENT = re.compile(
    r"(?im)(?:^|(?<=[.!?][ \t])(?<![ \t:\-.!?][.!?][ \t])|(?<=,[ \t])(?=(?:so|thus|therefore|hence)\b))[ \t:\-.]*+"
    r"(?:(?:so|thus|therefore|hence|overall|finally|actually|wait),?[ \t]+)?"
    r"(?:(?:final[ \t]+)?(?:judge?ment|verdict|decision|evaluation"
    r"|assessment|grade|result|answer|label|output)[ \t]*(?:is)?[ \t]*[:\-–=]?[ \t]*"
    # the noun "answer" of any language and a small word: "Vastaus on oikein.", "Jibu ni sahihi."
    r"|(?i:" + every("answer") + r")[ \t]+(?:[^\W\d_]{1,4}[ \t]+)?)?"
    # a verdict alone in its sentence (a short copula may follow it), or before a dash or comma
    r"(?P<v>(?:not[ \t]+)?(?:" + _NEGATIVE + "|" + _POSITIVE + r")|[" + _YES_MARKS + _NO_MARKS + "])"
    r"(?:[ \t]?[^\s.!?।。！？]{1,4})?(?:[ \t.!।。！？]*+$|[.!।。！？]+(?=\s)|[。！？]+|[ \t]*[—–,،，][ \t]*)"
    r"|\b(?:judge?ment|verdict|decision|evaluation|assessment)\b\s*(?:is)?\s*[:\-–=]?\s*"
    r"(?P<w>(?:not\s+)?(?:" + _NEGATIVE + "|" + _POSITIVE + r"))\b"
    r"|(?<!not\s)(?<!n't\s)\b(?:judge[sd]?|deem(?:s|ed)?|mark(?:s|ed)?|rule[sd]?|consider(?:s|ed)?|grade[sd]?|rate[sd]?)\s+"
    r"(?:(?:it|this|that|the\s+(?:answer|response))\s+)?(?:as\s+)?(?P<x>(?:not\s+)?(?:"
    + _NEGATIVE
    + "|"
    + _POSITIVE
    + r"))\b"
    # a one-word label of any language and a colon before a verdict: "판정: 오답", "Urteil: falsch" (not "Contestant:
    # True", what a true/false quiz's answer says)
    r"|^[ \t*#]*(?!(?i:contestant|candidate|reference|gold|expected|question|true|correct|right)\b[^\n:：]*[:：][ \t*]*"
    r"(?i:true|false)\b)"
    r"[^\W\d_][^\s\d:：*]{0,20}(?:[ \t][^\s\d:：*]{1,12})?[ \t*]*[:：][ \t*]*(?P<y>" + _NEGATIVE + "|" + _POSITIVE + ")"
)


def _polarity(word: str) -> float:
    if re.fullmatch(_NEGATIVE, word):  # "not quite", "nicht richtig"
        return 0.0
    negated = word.lower().startswith("not ")
    word = word.lower().removeprefix("not").strip()
    positive = word in _YES_MARKS or re.fullmatch(_POSITIVE, word) is not None
    return float(positive != negated)


def _read(reply: object) -> str | None:
    """The reply's text as read, or None when it gives no verdict: a refusal, reasoning never closed, a reply cut
    off where its verdict was to follow ("... so my judgement is")."""
    reading = read_reply(own_words(reply))
    text = "\n".join(line.text for line in _this_item(reading.lines))
    if reading.unfinished or reading.refusal or _CUT_OFF.search(text) or not text:
        return None
    return text


def _this_item(lines: tuple[Line, ...]) -> tuple[Line, ...]:
    """The lines that judge this item where a base model went on to write the prompt's next item ("## Question"):
    those before it; where the reply opens by echoing the prompt, those after its judgement heading."""
    items = [i for i, line in enumerate(lines) if line.kind == "heading" and _PROMPT_START.fullmatch(line.text)]
    if not items:
        return lines
    if items[0] > 0:
        return lines[: items[0]]
    end = items[1] if len(items) > 1 else len(lines)
    judged = [i for i in range(end) if lines[i].kind == "heading" and _PROMPT_END.match(lines[i].text)]
    return lines[judged[0] + 1 : end] if judged else ()


def parse_binary(reply: object) -> float | None:
    """1 correct, 0 incorrect, None when the judge states no verdict (or refuses, or never closes its reasoning), or
    states it in two languages' versions that disagree."""
    if (text := _read(reply)) is None:
        return None
    return _agreed(text, _binary)


_ANY_DIGIT = re.compile(r"\d")


def _agreed(text: str, read: Callable[[str], float | None]) -> float | None:
    """What `read` reads in `text`, unless the reply gives two versions of it that disagree: side by side on its last
    line ("Jibu ni sahihi. / The answer is incorrect.", a table's cells) or in a last part that opens as another
    language's version ("English translation: ...", "🇻🇳 ...")."""
    found = read(text)
    if found is None:
        return None
    line = next((line for line in reversed(text.split("\n")) if _POLAR.search(line) or _ANY_DIGIT.search(line)), "")
    if PARALLEL.search(line):
        sides = {value for part in PARALLEL.split(line) if (value := read(part)) is not None}
        if len(sides) > 1:
            return None
    versions = [m.start() for m in version_lead().finditer(text)]
    if versions and versions[-1] > 0 and (earlier := read(text[: versions[-1]])) is not None:
        later = text[versions[-1] :]
        if earlier != found and not _REVISION.search(later) and not TAKEN_BACK.search(later):
            return None
    return found


def _binary(text: str) -> float | None:
    if "0" in text or "1" in text:
        text = _DIGIT_VERDICT.sub(_digit_as_word, text)
    last_line = text.strip().rsplit("\n", 1)[-1]
    if (yes_no := _YES_NO.get(last_line.strip(" .!。！").casefold())) is not None:
        return yes_no  # "Yes" alone, or after an echo of the question: the answer is correct
    if _BOTH_STATED.match(last_line.strip()):
        return None
    text = _PROMPT_WORDING.sub(" ", _QUOTED.sub(_unquoted_verdict, text))
    if fields := list(_BOOLEAN_FIELD.finditer(text)):  # {"is_correct": false, "reason": "..."}
        return float((fields[-1]["value"].lower() in ("true", "yes", "1")) == (_polarity(fields[-1]["key"]) == 1.0))
    undecided = [m.end() for m in _UNDECIDED.finditer(text)] + [m.end() for m in re.finditer(every("doubt"), text)]
    undecided += [m.end() for m in _EITHER.finditer(text)]
    undecided.sort()
    statements = [m for m in _STATEMENT.finditer(text) if not _names_gold(text, m)]
    if (asked := deque(_ASKED.finditer(text), maxlen=1)) and (
        not statements or asked[0].start() > statements[-1].start()
    ):
        return float((_YES_NO[asked[0]["a"].casefold()] == 1.0) == (_polarity(asked[0]["q"]) == 1.0))  # "correct? No."
    cleaned = _without_gold(text)
    if statements:
        last = statements[-1]
        if undecided and undecided[-1] > last.start():
            return None
        verdict = _polarity(_word(last))
        if len(statements) > 1:  # two verdicts, the later no revision of the earlier: "Correct. Incorrect."
            before = statements[-2]
            between = text[before.end() : last.start(_group(last))]
            if _polarity(_word(before)) != verdict and not _REVISION.search(between) and len(between.strip()) < 20:
                return None
        later = text[last.end() :]  # prose that takes the statement back: "Correct. Actually, wait ... incorrect."
        if (revision := TAKEN_BACK.search(later)) and not _unfinished(text):
            prose = _last_verdict(_without_gold(later[revision.end() :]))
            if prose is not False:
                return prose
        return verdict
    if _unfinished(text):
        return None
    if undecided:  # "I can't say it is incorrect: ... So yes, it's correct." reads the sentences after the doubt
        end = _SENTENCE_BREAK.search(text, undecided[-1])
        later = _last_verdict(_without_gold(text[end.end() :])) if end else False
        return later if later is not False else None
    # the last verdict word that is no attribute of the answer it names; where naming is all the judge says
    # ("Réponse juste : ...", "matches the true answer") and it states no doubt, that naming is its verdict
    found = _last_verdict(cleaned)
    if found is False and not re.search(every("doubt"), text):
        found = _last_verdict(text)
    if found is False:  # "No. The true answer is 1945": the opening word answers the question asked
        found = _YES_NO.get(opening[1].casefold()) if (opening := _OPENING.match(text)) else None
    return found if found is not False else None


def _digit_as_word(match: re.Match[str]) -> str:
    digit = match["d"] or match["e"]
    word = "correct" if digit == "1" else "incorrect"
    start = match.start("d" if match["d"] else "e") - match.start()
    return match[0][:start] + (word if match["d"] else f"{word}.") + match[0][start + 1 :]


def _unquoted_verdict(quote: re.Match[str]) -> str:
    """A quoted verdict word is the judge's verdict in quotes (`Urteil: „correct“`); any other quote (an answer
    named, the prompt's wording) is no verdict of the judge's and is dropped."""
    inner = quote[0][1:-1].strip(" .!。")
    return f" {inner} " if _POLAR.fullmatch(inner) else " "


def _without_gold(text: str) -> str:
    """`text` without the gold answer it names ("the correct answer is Karachi", "Jibu sahihi ni Nairobi")."""
    return _GOLD_NAMED.sub(" ", _GOLD_NAMING.sub(" ", text))


def _word(statement: re.Match[str]) -> str:
    return statement["v"] or statement["w"] or statement["x"] or statement["y"]


def _names_gold(text: str, statement: re.Match[str]) -> bool:
    """Whether a statement's verdict word names the gold answer, with the answer after it ("Prawidłowa odpowiedź to
    Kopernik", "Doğru cevap Ankara'dır")."""
    named = _GOLD_NAMED.match(text, statement.start(_group(statement)))
    return named is not None and bool(text[named.end() : named.end() + 40].split("\n")[0].strip(" .。!"))


def _group(statement: re.Match[str]) -> str:
    return next(name for name in "vwxy" if statement[name])


def _unfinished(text: str) -> bool:
    """A reply cut off inside a sentence (it ends on a letter or a comma after its last sentence's end) whose cut
    sentence states no verdict: what it says before is no verdict a careful reader takes."""
    stripped = text.rstrip()
    last = stripped[-1:]
    if not last or not (unicodedata.category(last)[0] in "LM" or last in ",、，") or "\u0e00" <= last <= "\u17ff":
        return False
    tail = _SENTENCE_BREAK.split(stripped)[-1]
    return tail != stripped and _POLAR.search(tail) is None and not _LABELLED.fullmatch(tail.strip())


def _last_verdict(text: str) -> float | None | bool:
    """1.0 or 0.0 from the last verdict word of `text` as its context reads it, None for a partial or two-way one,
    False where there is none."""
    for match in reversed(list(_POLAR.finditer(text))):
        end = _SENTENCE_BREAK.search(text, match.end())
        if end and end[0] in "?？":
            continue  # asked, not stated: "Should the year alone count as correct, or the whole date?"
        before = text[max(0, match.start() - 120) : match.start()]
        if _ATTRIBUTE.match(text, match.end()) or _HYPOTHETICAL.search(before) or _GOLD_PHRASE.search(match[0]) and (
            _COPULA.match(text, match.end())
        ):  # fmt: skip
            continue  # "la bonne réponse est « Marseille »": a verdict phrase naming the gold answer
        both = _BOTH_WAYS.search(before[-30:])
        if _PARTIAL.search(before[-20:]) or both and _polarity(both["w"]) != _polarity(match[0]):
            return None  # "partly correct", "correct / incorrect" (not "Correcto / Correct": one verdict twice)
        negated = _NEGATION.search(before[-40:]) is not None or _NEGATED.search(before[-40:]) is not None
        negated = negated != (_NEGATED_AFTER.match(text, match.end()) is not None)
        return float((_polarity(match[0]) == 1.0) != negated)
    return False


_NUMBER = r"(?P<n>\d+(?:\.\d+)?)"
# After "3 out of 5", a noun makes it a count ("3 out of 5 clues"); these words do not.
_NOT_NOUNS = (
    r"(?:because|since|as|for|given|due|but|and|though|although|overall|points?|stars?|here|on|in|with|is|it|this"
    r"|the|from|me|i|fits|seems|works|would|punkt\w*|puntos?|pontos?|punti|balls?|балл\w*|puan|poin|alama|分)\b"
)
# "out of" in the judges' languages: "4 von 5", "4 sur 5", "4 kati ya 5", "٤ من ٥", "4 dari 5", "trí as cúig"
_OUT_OF = (
    r"(?:out\s+of|of|von|de|sur|su|из|kati\s+ya|من|sobre|dari|van(?:\s+de)?|av|na|z|ze|από|מתוך|trên|จาก|از|sa"
    r"|nínú|cikin|as|з|із|n'ime|sou|nga)"
)
_NOUN_NEXT = rf"[ \t]+(?!{_NOT_NOUNS})[^\W\d_]"
_SCALE = re.compile(
    r"(?i)(?:(?:on\s+)?a\s+scale\s+(?:of|from)\s+|between\s+|from\s+)?(?<![\d.])[01]\s*(?:to|-|–|and)\s*(?:5|10)"
    r"(?!\.?\d)(?:\s*scale)?"
)
_RANGE = re.compile(
    r"(?<![\d.])\d(?:\.\d)?\s*(?:-|–|to|\s+or\s+(?:a\s+)?)\s*\d(?:\.\d)?(?![\d.])"
    r"|(?<=[Bb]etween )\d(?:\.\d)?\s+and\s+\d"
)  # "3-4", "a 2 or a 3", "between 2 and 3"
_SCORES = re.compile(
    rf"(?i)(?<![\d.]){_NUMBER}\s*(?:/|{_OUT_OF})\s*(?P<d>\d+)(?!\.?\d)(?!{_NOUN_NEXT})"  # 4/5
    r"|\b(?:score|rating|rate|rated|grade|graded|judge?ment|verdict|give|gives|given|assign|assigned|award|awarded"
    # "give" in the judges' languages: "Le doy un 3", "Je donne 4", "Ich gebe 4", "Даю 3", "3 veriyorum" (after)
    r"|doy|daría|donne|donnerais|attribue|gebe|vergebe|dou|daria|atribuo|do|darei|assegno|даю|ставлю|поставлю"
    r"|memberi|beri|cho|corresponds\s+to|equals|amounts\s+to"
    r"|deserves|earns|merits|go\s+with|settle\s+on|majority|revis(?:e|ed|ing)\s+(?:it\s+)?to|change\s+(?:it\s+)?to|lower\s+(?:it\s+)?to"
    r"|raise\s+(?:it\s+)?to|on\s+reflection|on\s+second\s+thought|actually|make\s+(?:it|that)"
    r"|rather(?!\s+than)|instead(?!\s+of)"
    r"|so|thus|therefore|hence|overall|final(?:ly)?|it's|it\s+is|that's|put\s+(?:it|this)\s+at)\b[^\d\n]{0,25}?"
    r"(?:\n[ \t]*)?"
    r"(?<![\d.,])(?P<m>\d+(?:\.\d+)?)(?!\s*(?:/|out\s+of|of)\s*\d)(?![\d.,]*\d)"
)
_NOT_SCORE_KEY = r"(?:max|min|total|scale|out|confidence|certainty|probability|version|id\b|index|count)"
_SCALE_KEY = re.compile(rf"(?i)[ \t*]*{_NOT_SCORE_KEY}")  # "max_score: 5", "confidence: 4": no score
_RUBRIC_LINE = re.compile(r"(?im)^[ \t*>-]*(?:score|rating|grade|points?)?[ \t]*([1-5])[ \t]*[:=)\-–—][ \t]*[^\d\s].*$")
_RANGE_END = re.compile(r"(?<![\d.])\d(?:\.\d)?\s*(?:-|–|to)\s*$")  # "3-" before a number: the number ends a range
_COUNT = re.compile(rf"(?i)(?<![\d.])\d+(?:\.\d+)?[ \t]*(?:/|{_OUT_OF})[ \t]*(?:the[ \t]+)?\d+(?={_NOUN_NEXT})")
_STARS = re.compile(r"[★☆]{5}")
_LAST_NUMBER = re.compile(rf"(?:^|[.!\n\-–—→]\s*)(?<![\d.]){_NUMBER}\s*[.!]?\s*$")


_FIVE_FIRST = re.compile(
    r"(?<![\d.])(5)(?:-?[^\s\d]{1,3}(?=[ \t]))?[ \t]*(?:点|點|점|分)?[ \t]*"
    r"(?:üzerinden|में[ \t]+से|মধ্যে|中|만점에|満点中)[ \t、,，]*(\d(?:\.5)?)(?!\.?\d)"
)  # "5 üzerinden 3", "5 में से 3", "5点中3点", "5점 만점에 2점"
# "4 分（满分 5 分）": a score, then its scale in brackets
_UNIT = r"[ \t]*[分点點점][ \t]*"
_SCORE_THEN_SCALE = re.compile(
    rf"(?<![\d.])(\d(?:\.5)?){_UNIT}[（(][ \t]*(?:满分|滿分|満点|만점)[ \t]*5(?:{_UNIT})?[）)]"
)
_HALF_COMMA = re.compile(r"(?<![\d,.])([0-5]),5(?![\d,])")
# scores written other ways, put as "Score: N": boxed, a half sign, stars ("\boxed{4}", "2½", "3 stars", "⭐⭐⭐⭐")
_AS_SCORE = (
    (re.compile(r"\\boxed\{[ \t]*(\d+(?:\.\d+)?)[ \t]*\}"), r"Score: \1"),
    # a score, a word or two, then the scale's 5 closing the statement: "4 kubva pa5", "3 na 5" (from 2: "1 to 5"
    # is the scale)
    (
        re.compile(
            r"(?<![\d.])([2-5](?:\.5)?)[ \t]+(?:[^\W\d_]{1,8}[ \t]+)?[^\W\d_]{1,8}[ \t]*5(?=[ \t]*[.!。)]?[ \t]*$)",
            re.M,
        ),
        r"\1/5",
    ),
    (_SCORE_THEN_SCALE, r"Score: \1"),
    (re.compile(r"(?<![\d.])(\d)[ \t]*(?:½|1⁄2)"), r"\1.5"),
    (re.compile(r"(?i)(?<![\d.])(\d(?:\.5)?)[ \t]*stars?\b"), r"Score: \1"),
    (re.compile(r"(?<![\d.])(\d(?:\.5)?)[ \t]*[分점](?![之钟鐘])"), r"Score: \1"),  # "打4分", "4점을 줍니다"
    (re.compile(r"(?m)^[ \t*]*(?=\d(?:\.5)?[ \t*]*\.?[ \t]*$)"), "Score: "),  # a number alone on its line
    (re.compile(r"⭐{1,5}"), lambda m: f"Score: {len(m[0])}"),
    (re.compile(r"(★{1,4})[ \t]*(?:½|1⁄2)☆{0,4}"), lambda m: f"Score: {len(m[1])}.5"),  # "★★★★½"
    # a label of up to three words in any language before the number ("Bewertung: 4", "评分：4分", "अंक: 2।",
    # "Jemi bal: 5 (bäşden bäş)"), a number opening
    # the reply before a dash or colon ("3 — The rationale ...")
    (
        re.compile(
            rf"(?m)(?:^|(?<=[.!?][ \t])|(?<=[。！？]))[ \t*#]*(?!(?i:{_NOT_SCORE_KEY}))"
            r"[^\W\d_][^\s\d:：៖*]{0,20}(?:[ \t]+[^\s\d:：៖*]{1,20}){0,2}"
            r"[ \t*]*[:：៖][ \t*]*"
            r"(?=\d(?:\.5)?(?:[ \t]*(?:$|[^\w\s]|分|点|點|점)|[ \t]+[^\W\d_]{1,8}[ \t]*[.!。]?[ \t]*$))"
        ),
        "Score: ",
    ),
    (re.compile(r"\A[ \t*]*(?=\d(?:\.5)?[ \t*]*(?:[-–—:][ \t]|[分点點][ \t]*[。.]|\.?[ \t]*\n))"), "Score: "),
)


def _as_digits(match: re.Match[str]) -> str:
    if match[1] and match[1].lower() == "one" and _ONE_AS_PRONOUN.search(match.string, 0, match.start()):
        return match[0]  # "grade the next one"
    if match[3]:
        return str("一二三四五".index(match[3]) + 1)
    return _WORD_NUMBERS[match[1].lower()] + (".5" if match["half"] else "")


def _as_scores(text: str) -> str:
    """The text with scores written in words or other signs put as digits ("four and a half", "\\boxed{4}")."""
    text = ascii_digits(text)  # "٤" is 4
    text = _HALF_COMMA.sub(r"\1.5", text)  # "2,5/5"
    text = _HALVES.sub(lambda m: _HALF_WORDS[m[0]], text)
    text = _UNIT_NUMBER.sub(lambda m: _UNIT_NUMBERS[m[0]], text)
    text = _CJK_HALF.sub(lambda m: f"{'一二三四五'.index(m[1]) + 1}.5", text)
    text = _WORDS.sub(_as_digits, text)
    text = _FIVE_FIRST.sub(r"Score: \2", text)
    for pattern, score in _AS_SCORE:
        text = pattern.sub(score, text)
    return text


# a score alone in the reply's last sentence, short: a few words naming it before, at most a copula after ("ውጤቱ 5
# ነው።", "மதிப்பெண் 3 ஆகும்.", "評価は4です。", "Baho: 5 ball.")
_TERMINAL = f"[{re.escape(TERMINALS)}]"
_LAST_SENTENCE_MAX = 120  # characters of the reply's end it is looked for in (keeps the search linear)
# a transcript of speech, no sentence ever ended: its score among its last three words
_ANY_TERMINAL = re.compile(rf"{_TERMINAL}(?!\d)")  # (not a decimal point)
_SPOKEN_SCORE = re.compile(r"(?<![\d.,])(?P<n>[1-5](?:\.5)?)(?![\d.,]*\d)(?:[ \t]*[^\d\s]+){0,2}[ \t]*$")
_SPOKEN_TAIL = 80
_RANGE_REACH = 12  # characters before a score that a range around it spans ("a 2 or a 3")
# a score on a line of its own after a label of any language and a colon or dash, a unit after it at most
_LABELLED_SCORE = re.compile(
    rf"(?m)^[ \t*#]*(?!(?i:{_NOT_SCORE_KEY}))(?P<label>[^\W\d_][^\d\s:：\-–—]*(?:[ \t]+[^\W\d_][^\d\s:：\-–—]*){{0,2}})"
    rf"[ \t*]*[:：\-–—][ \t*]*(?<![\d.])(?P<n>[1-5](?:\.5)?)(?![\d.,]*\d)[ \t]*[^\W\d_]{{0,12}}[ \t]*(?:{_TERMINAL}|$)"
)
_LAST_SENTENCE_SCORE = re.compile(
    rf"(?:^|{_TERMINAL}|\n)[ \t]*(?P<before>[^\d\s{re.escape(TERMINALS)}]+(?:[ \t]+[^\d\s{re.escape(TERMINALS)}]+)"
    rf"{{0,2}})[ \t]*(?<![\d.])(?P<n>[1-5](?:\.5)?)(?![\d.,]*\d)[ \t]*(?P<after>[^\d\s{re.escape(TERMINALS)}]{{0,12}})"
    rf"[ \t]*{_TERMINAL}*[ \t]*$"
)


def parse_likert(reply: object) -> float | None:
    """A 1-5 score (halves allowed), or None when the judge states none or one off the scale, or states it in two
    languages' versions that disagree."""
    if (text := _read(reply)) is None:
        return None
    return _agreed(text, _likert)


def _likert(text: str) -> float | None:
    text = _without_rubric(text)
    labelled = deque(_LABELLED_SCORE.finditer(ascii_digits(text)), maxlen=2)  # (the labels as written)
    if len(labelled) == 2 and _contradicts(ascii_digits(text), *labelled):
        return None  # "Score: 2\nScore: 4": two scores, neither taken back
    text = _COUNT.sub(" ", _SCALE.sub(" ", _as_scores(text)))
    found = [(m.start(), m) for m in _SCORES.finditer(text) if not _conditional(text, m) and not _denied(m)]
    found += [(m.start(), m) for m in _STARS.finditer(text)]
    found += [(m.start(), m) for m in _POINTS.finditer(text)]
    last = _LAST_NUMBER.search(text)  # a revision after the stated score: "Score: 5 - no, too generous. 4."
    if last and not _SCALE_KEY.match(text, text.rfind("\n", 0, last.start()) + 1):  # not "max_score: 5"
        found.append((last.start("n"), last))
    found.sort(key=lambda f: f[0])
    alone = _LAST_SENTENCE_SCORE.search(text, max(0, len(text) - _LAST_SENTENCE_MAX))
    if alone and found and found[-1][0] < alone.start("n"):
        found = [] if TAKEN_BACK.search(text, found[-1][0], alone.start()) else found
    if alone and not found:
        return _on_scale(float(alone["n"]))  # none stated before, or one taken back: "EDIT: ... Lowering it to 3."
    if found:
        match = found[-1][1]
        if match.re is _STARS:
            return float(match[0].count("★")) or None
        if match.re is _SCORES and match["d"] is not None and match["d"] != "5":
            return None
        number = "n" if match["n"] is not None else "m"
        if _RANGE.match(text, match.start(number)) or _RANGE_END.search(text, 0, match.start(number)):
            return None
        return _on_scale(float(match[number]))
    if labelled:
        return _on_scale(float(labelled[-1]["n"]))  # "Baho: 5 ball. Izoh ...", "အမှတ် - ၄။ ..."
    if not _ANY_TERMINAL.search(text) and (spoken := _SPOKEN_SCORE.search(text, max(0, len(text) - _SPOKEN_TAIL))):
        if _RANGE.search(text, max(0, spoken.start("n") - _RANGE_REACH), spoken.end("n")):
            return None  # "3 or 4"
        return _on_scale(float(spoken["n"]))  # a transcript: "... నేను 3.5 ఇస్తాను", "... ให้4คะแนนครับ"
    return None


def _contradicts(text: str, first: re.Match[str], second: re.Match[str]) -> bool:
    """Whether two labelled scores state different scores under one label, one right after the other."""
    adjacent = not text[first.end() : second.start()].strip()
    return adjacent and first["label"] == second["label"] and first["n"] != second["n"]


def _without_rubric(text: str) -> str:
    """The text without the scale it quotes: three or more lines describing scores ("Score 1: completely wrong")."""
    described = list(_RUBRIC_LINE.finditer(text))
    if len({m[1] for m in described}) < 3:
        return text
    return _RUBRIC_LINE.sub("", text)


def _denied(score: re.Match[str]) -> bool:
    """A score the judge denies on its way to it: "It's not quite a 5", "it doesn't deserve a 5"."""
    return score["m"] is not None and _NEGATION.search(score[0][: score.start("m") - score.start()]) is not None


def _conditional(text: str, score: re.Match[str]) -> bool:
    """A score given only under a condition: "if it had named the treaty, I would give it a 5"."""
    before = text[max(0, score.start() - 120) : score.start()]
    return (
        _HYPOTHETICAL.search(before) is not None or re.match(r"\s+(?:if|had|unless)\b", text[score.end() :]) is not None
    )


def _on_scale(value: float) -> float | None:
    return value if 1 <= value <= 5 and value * 2 == int(value * 2) else None
