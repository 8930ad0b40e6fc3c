"""The translation in a model's reply to a translation request, on the shared reply reader.

Every text sent is one line of one or a few sentences; models wrap the translation in preambles ("Sure, here it
is —", "Here is the translation:", on its own line or before the translation on the same line), labels ("German:
...", "翻译如下：“...”", "Target (FR):", "### Translation"), code fences, an "Original: ... / Translation: ..." pair
or a two-column table, a sentence that names it at its end ('The translation of "..." into German is "..."', "In
Spanish, this is **...**"), quotes of any script, romanisation in brackets or on a labelled line, notes and
back-translations after it, alternatives with a stated choice ("I'd recommend the formal version") and corrections
("Actually, more precisely: ..."). What is returned is the translation as the model wrote it (its own characters,
not normalised): the line the reply labels a translation or recommends (else the first that is neither preamble,
label, aside nor the original), with the next lines while the translation has fewer sentences than the source,
without a same-line label, quotes around all of it or a trailing note. A refusal, talk about translating, the
source given back, a reply cut off before its end or one that never gets to a translation gives "".
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from lm_eval_xling.choice_words import alternation, every, language_names, negators, script, scripts
from lm_eval_xling.replies import (
    CJK,
    CROSSES,
    EMOJI,
    OTHER_TERMINALS,
    PARAGRAPH,
    TERMINALS,
    TICKS,
    Line,
    after_reasoning,
    read_reply,
)

# words a label is made of: "German translation", "Translation (formal)", "Option 1", "Original (English)", "译文"
_LABEL_WORDS = re.compile(
    r"(?i)(?:translation|translated|übersetzung|traducción|traduccion|traduction|tradução|traduzione|vertaling|перевод"
    r"|terjemahan|çeviri|अनुवाद|ترجمة|翻訳|번역|tafsiri|fassara|翻译如下|翻译|译文|中文|英文|英语|"
    r"德语|西班牙语|english|german|deutsch|chinese|spanish|español|swahili|kiswahili|hausa|englisch|chinesisch|"
    r"spanisch|simplified|traditional|option|version|variant|alternative|opción|here's|here’s|here|is|the|it|in|into|"
    r"text|original|source|target|literal|"
    r"formal|informal|final|answer|\d|[()\[\]/,.&-]|\s)+"
)
_COURTESY_LEAD = re.compile(r"(?i)^(?:sure|of course|certainly|okay|ok|absolutely|great)[!,.]*\s+")
_SHORT_LABEL = re.compile(
    r"(?:[^\W\d_][^\s:：()，,。.!?！？、]{0,24}(?:[ \t][^\W\d_][^\s:：()，,。.!?！？、]{0,24}){0,2}"
    r"|[A-Za-z]{2,3}[ \t]*(?:→|->)[ \t]*[A-Za-z]{2,3})"
    r"(?:[ \t]*\([^()\n]{1,20}\))?"
)  # "Hindi", "தமிழ்", "ZH", "EN → HA", "Target (FR)", "Bengali (বাংলা)"
# what stands before a colon in any language, where the source has none: a label or a frame of a few words without a
# sentence's end ("Polite (a stranger, a colleague)", "Written / formal", "En wolof, on dirait ", "2/3 In Maltese")
_FRAME = re.compile(r"[^.!?。！？\n\"“”„«»「」]{1,40}")
_ARROW = re.compile(r"[ \t]*(?:→|->|⇒|=>)[ \t]*")
_LEAD_SYMBOLS = re.compile(rf"^[{EMOJI}→⇒>•·\s]+")  # "🇩🇪 ", "→ "
_ONLY_TAG = re.compile(r"^</?[A-Za-z][\w-]*[^<>\n]{0,200}>$")
# "<translation lang="en">": as "<translation>"
_ATTRIBUTES = re.compile(r"<([A-Za-z][\w-]{0,30})[ \t][^<>\n]{0,200}>")
# what marks a revision: "Correction:", "Better: ...", "Actually, more precisely: ...", "more idiomatic would be:"
# the noun "translation" in the languages the tasks use (a closed class of one word: what a label or a sentence naming
# the translation is made of, "Перевод:", "ترجمهٔ فارسی این جمله ...", "の日本語訳は")
_TRANSLATION_WORD = alternation(
    (
        "translation",
        "translated",
        "übersetzung",
        "traducción",
        "traduccion",
        "traduction",
        "tradução",
        "traduzione",
        "traducere",
        "vertaling",
        "översättning",
        "oversættelse",
        "oversettelse",
        "käännös",
        "fordítás",
        "tłumaczeni*",
        "překlad*",
        "preklad*",
        "переклад*",
        "перевод*",
        "превод*",
        "μετάφραση",
        "תרגום",
        "tafsiri",
        "fassara",
        "ìtúmọ̀",
        "terjemahan",
        "salin",
        "pagsasalin",
        "bản dịch",
        "çeviri*",
        "tərcümə*",
        "tarjima*",
        "аударма*",
        "котормо*",
        "орчуулга",
        "თარგმან*",
        "թարգմանությ*",
        "अनुवाद*",
        "भाषांतर*",
        "অনুবাদ*",
        "ਅਨੁਵਾਦ*",
        "અનુવાદ*",
        "ଅନୁବାଦ*",
        "మొழిపెయర్పు",
        "అనువాద*",
        "ಅನುವಾದ*",
        "വിവർത്തന*",
        "மொழிபெயர்ப்பு*",
        "පරිවර්තන*",
        "ترجمة",
        "الترجمة",
        "ترجمه*",
        "ترجمہ*",
        "ژباړه*",
        "وەرگێڕان*",
        "ትርጉም*",
        "tarjumaad*",
        "ukuhumusha",
        "คำแปล",
        "ການແປ",
        "ការបកប្រែ",
        "ဘာသာပြန်",
        "翻訳",
        "訳",
        "翻译",
        "译文",
        "번역",
    )
)
# a translation called right in any language: "Richtige Übersetzung:", "الترجمة الصحيحة:" (the choice words' "correct")
_RIGHT_TRANSLATION = (
    rf"(?i:(?:{every('correct')})[ \t]+{_TRANSLATION_WORD}|{_TRANSLATION_WORD}[ \t]+(?:{every('correct')}))"
)
_REVISING = (
    r"(?:(?i:correction|corrected|correct(?:ed)?[ \t]+(?:translation|version)|better|improved|revised|actually|wait"
    r"|oops|final|(?:or[ \t]+)?more[ \t]+\w+|closer|scratch[ \t]+that|on[ \t]+second[ \t]+thoughts?|update|edit)"
    rf"|{_RIGHT_TRANSLATION})"
)
_REVISION = re.compile(rf"^{_REVISING}\b")
# a revision stated inside a later line: "Wait, it says "bought", so the correct translation is: ..."
_RETRACTED = re.compile(
    r"(?:(?i:\b(?:wait|oops|actually|correction|correct(?:ed)?[ \t]+(?:translation|version)|revised|final)\b)"
    rf"|{_RIGHT_TRANSLATION})[^:：\n]{{0,100}}[:：][ \t]*"
)
_GAP = 500  # characters between one candidate and the next that a search looks through
_REVISIONS = 3  # the last revisions looked after for a translation (a search each: their number keeps it linear)
_BOXED = re.compile(r"\$*\\boxed\{(?:\\text\{)?([^{}\n]{1,1000})\}\}?\$*")  # "$$\boxed{\text{Wissen ist Macht.}}$$"
_FENCE = re.compile(r"^[ \t]*(?:```|~~~)")
_NOT_A_WORD = re.compile(r"[\W_]+")
_QUESTION = re.compile(r"[?？؟;՞፧]\s*$")  # a question's mark in any script (Greek's ";", Arabic's "؟")
# lines that are no translation: romanisation, a back-translation, a gloss ("Pinyin: ...", "Literally: ...")
_ASIDE = re.compile(
    r"(?i)^[(（]?(?:pinyin|romaji|r[oō]maji|romani[sz]ation|transliteration|transcription|pronunciation"
    r"|back[- ]?translation|literally|literal translation|gloss|furigana)\b"
)
_TRANSLATION_LABEL = re.compile(_TRANSLATION_WORD)
# vowels with a macron or caron: pinyin, romaji, IAST ("Běijīng", "Tōkyō"); a line that also has a letter those
# never write ("Přečtěte": "ř", "č") is Czech, Latvian, ... and no romanisation
_CJK = re.compile(f"[{CJK}]")
_TONE_MARKED = re.compile(r"[āēīōūǎěǐǒǔǖǘǚǜĀĒĪŌŪǍĚǏǑǓ]")
_NOT_PINYIN = re.compile(r"[^\x00-\x7füÜāáǎàēéěèīíǐìōóǒòūúǔùǖǘǚǜĀÁǍÀĒÉĚÈĪÍǏÌŌÓǑÒŪÚǓÙ\W\d_]")
# a Latin-script aside in brackets after text in another script: romanisation ("你好（Nǐ hǎo）", "... — (meharbānī)")
_ROMANISED = re.compile(
    r"(?<=[^\x00-\u024f\s])([?!.。？！]?)[ \t]*(?:[—–][ \t]*)?[(（][\x00-\u024f\u1e00-\u1eff\s'’]{5,}[)）]"
)
# a statement that names the translation inside a sentence, at its end: 'The translation ... is "..."', 'In
# Spanish, this is **...**', 'En español: «...»'
_NAMED = re.compile(r"(?i)(?:[:：]|\b(?:is|be|means|reads|as|es|ist|est|é|è)\b)[ \t]*$")
# a source that quotes: its translation quotes too ("Sie sagte: „...“"), its lead and quotes are no label nor wrapping
_QUOTED_SPEECH = re.compile(r"[\"“”„«»「」『』]")
_TICKED = re.compile(rf"^[ \t]*(?:[{TICKS}]|\[[xX]\])")  # a choice marked: "✅ It reint hjoed wer."
_TICK = "✅"  # the label of a line ticked as the choice
_TICK_AFTER = re.compile(f"[ \t]*[{TICKS}]")  # a tick after the text: "Kedu aha gị? ✔️ thats the one u want"
_LETTERED = re.compile(r"^[ \t]*\(?([a-hA-H])\)[ \t]+(?=\S)")  # "(b) Tinotenda ...": an option's letter
_LEGEND = re.compile(f"^[ \t]*[{TICKS}{CROSSES}]\ufe0f?[ \t]*[=:]")  # "✔️ = my recommendation": what a mark means
_CROSSED = re.compile(f"^[ \t]*(?:[{CROSSES}]|~~)")  # an option rejected
# "学生们正在认真听老师讲课。 ✅", '"Ixrob ħafna ilma." ☀️💧 #Malti #Translation'
_TRAILING_EMOJI = re.compile(rf"(?:[ \t]*(?:[{EMOJI}\u200d]|#[^\W\d_][\w-]*))+[ \t]*$")
_TAIL = 300  # characters of a translation's end searched for emoji and hashtags
_OPTION_NOTE = re.compile(r"[ \t][—–-][ \t]|[ \t][(（]")
_FINAL = re.compile(r"(?i)\bfinal\b|最终|endgültig")
_LABELLED_QUOTE = re.compile(r"[:：][ \t]*[\"“„«「『]")
_CLOSING = {'"': '"', "“": "”", "„": "“", "«": "»", "「": "」", "『": "』", "'": "'", "״": "״"}
_AFTER_QUOTE = re.compile(  # what may follow a quote that ends a sentence: a copula, then the sentence's end
    rf"[ \t]*(?P<copula>[^\s\"'“”„«»「」『』.!?。{re.escape(OTHER_TERMINALS)}]{{1,16}})?[ \t]*"
    rf"(?P<stop>[.!?。{re.escape(OTHER_TERMINALS)}]*)[ \t]*$"
)
# what the model says to the user about translating, not a translation ("Please provide the text you'd like me to
# translate", "I'm sorry, but I don't have enough knowledge of Hausa to provide a reliable translation")
_META = re.compile(r"(?i)\btranslat\w*\b")
_PERSON = re.compile(r"(?i)\b(?:I|I'm|I'd|you|you'd|me|my)\b")
_REVISED = re.compile(rf"\b{_REVISING}\b[^:：\n]{{0,200}}[:：][ \t]*")
# an alternative's label ("Option 2:", "Formal (Sie):", "Casual:", "Literal:"), and a stated choice between them
_OPTION = re.compile(
    r"(?i)^#|^(?:option|version|variant|alternative|opción|variante)?[ \t]*(?:\d|[ab]\b|[c-h]$)"
    r"|^(?:[^\W\d_]+[ \t]*\()?(?:formal|informal|casual|polite|literal|natural|idiomatic|neutral|colloquial|standard)\b"
)  # "Option 2", "b", "Formal", "Krama (polite)"
_CHOICE = re.compile(
    r"(?i)\b(?:recommend\w*|prefer\w*|suggest\w*|go with|more natural|most natural|sounds better|is better|best"
    r"|better (?:choice|option|fit)|would use|I'd use|use the|choose|pick)\b"
)
# a label over alternatives: "Two possible renderings:", "Options:"
_OFFERS = re.compile(
    r"(?i)\b(?:options?|alternatives?|renderings?|versions?|variants?|ways|choices|candidates|possible)\b"
)
_ORDINALS = (("first|former|1st", "1|a"), ("second|latter|2nd", "2|b"), ("third|3rd", "3|c"))  # words, numbers
# a field of data that is no translation: a language code or pair ("ln", "en-sw"), a number, a flag
_METADATA = re.compile(
    r"(?i)[a-z]{1,3}(?:[ \t]*(?:[-_>→]|->)[ \t]*[a-z]{2,3})?|[\d.,%/ :-]+|true|false|yes|no|none|null"
)
# a field naming the choice among the fields before it, by key or by position: "selected=candidate_2", "preferred:
# second"
_CHOICE_KEY = re.compile(r"(?i)(?:chosen|selected|preferred|pick|picked|choice|best|use|final[ \t]+choice)")
_SENTENCE_STOP = re.compile(rf"[{re.escape(TERMINALS)}]['\"”’»」』)]*$")
_LATIN_LETTER = re.compile(r"[A-Za-zÀ-ɏ]")
_NOT_LATIN = re.compile(r"[^A-Za-zÀ-ɏ]+")  # (a run of text without a Latin letter)
_TRAILING_PAUSE = re.compile(r"\s+(?:\.{2,}|…)[\s.…]*$")
_ECHO_MIN = 12  # a source this long, echoed whole in a line, is no word the translation keeps
_ECHO_SEPARATOR = re.compile(r"^[\s=→⇒:|/\-–—]*(?:[^\W\d_]{1,20}[ \t]*[:：][ \t]*)?")
_ORIGINAL = re.compile(r"(?i)^(?:original|source|quelltext|原文)\b")
_COLON = re.compile(r"[:：]|(?<=[^\W\d_])=(?=[^\s=])")  # "Translation:", "translation=..."
_ALNUM = re.compile(r"[^\W_]")
_LETTER = re.compile(r"[^\W\d_]")
_LABEL_MAX = 40  # characters before a colon that can still be a label
# a line that only announces what follows: "Sure, here it is —", "Of course.", "好的。", "Here is the translation"
_COURTESY = re.compile(
    r"(?i)^(?:(?:sure|of course|certainly|absolutely|okay|ok|yes|hi|hello|hey|hallo|claro|natürlich|gerne|klar"
    r"|here(?:'s| is| are)|below is)\b|你好|好的|当然|没问题|以下|这是)[^\n]{0,70}$"  # (CJK: no word boundary after)
)
_NOTE = re.compile(
    r"(?i)\s*(?:\((?:lit(?:erally|\.)?|note|i\.e\.|or|also|formal|informal|in english|translation)\b[^)]*\)"
    r"|(?<=[.!?。！？])\s*\([^()]*[.!?]\)"  # a sentence of its own in brackets: a back-translation
    r"|\s*\([ \t]*\d{1,3}(?:[.,]\d+)?[ \t]*%[ \t]*\)"  # a weight: "(70%)"
    r"|(?<=[.!?。！？\"”»」])\s*(?:note|n\.b\.|literally|i used|i translated|i chose|i kept|this translation|"
    r"the word|alternatively|注|注意|说明|nota|hinweis|anmerkung)\b.*)\s*$"
)
# a remark in brackets after the translation's end, where the source has none: "Maaloo taa'aa. (polite / plural; ...)"
# citation marks closing the translation: "[1]", "[doc 2]", "【1】", "¹", "^2"
_CITATIONS = re.compile(r"(?:[ \t]*(?:\[(?:doc[ \t]*)?\d{1,3}\]|【[^】\n]{1,12}】|[¹²³⁴⁵⁶⁷⁸⁹⁰]+|\^\d{1,3}))+[ \t]*$")
_REMARK = re.compile(r"(?<=[.!?。！？।])[ \t]*(?:\([^()\n]*\)|（[^（）\n]*）)[ \t]*$")
_BRACKETED_LINE = re.compile(r"\([^()\n]*\)[.。]?|（[^（）\n]*）[.。]?")  # a line that is an aside in brackets
# what follows a quote opening the line, making it a note on the quote: a dash, a bracket, another sentence
_AFTER_QUOTED = re.compile(r"[ \t]*(?:[—–(（]|-[ \t])|(?<=[.!?。！？][\"'”’»」』])[ \t]+\S")
# a sentence's end: ".", "!", "?" before a space; every other script's terminal anywhere ("。", "！", "।", "።")
_SENTENCE_END = re.compile(rf"(?:[.!?]+[\"'”’»」』)]*(?=\s|$)|[{re.escape(OTHER_TERMINALS)}]+[\"'”’»」』)]*)")
_QUOTES = {
    '"': '"',
    "'": "'",
    "“": "”",
    "„": "“",
    "‘": "’",
    "«": "»",
    "「": "」",
    "『": "』",
    "»": "«",
    "‚": "‘",
    "״": "״",
}
_TRANSLATOR_REFUSAL = re.compile(r"(?i)\b(?:translat\w*|help|assist|request|confident)\b|not (?:confident|sure) enough")


def _sentences(text: str) -> int:
    return max(1, len(_SENTENCE_END.findall(text.strip())))


def _letters(text: str) -> str:
    return _NOT_A_WORD.sub("", text.casefold())


def same_text(a: str, b: str) -> bool:
    """Whether two texts are the same ignoring case, spaces and punctuation."""
    return _letters(a) == _letters(b)


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


def _quoted_first(text: str) -> str:
    """A quote opening the line with a note after it ('"How are you?" — informal', '"I like tea." 'Pasand hai' ko
    ...'): the quote."""
    if len(text) < 2 or text[0] not in _QUOTES or (end := _partner(text)) <= 0 or end == len(text) - 1:
        return text
    return text[: end + 1] if _AFTER_QUOTED.match(text, end + 1) else text


def _unquote(text: str) -> str:
    """`text` without quotes around all of it; quotes that close inside it ('"Ja" oder "Nein"') stay."""
    for _ in range(2):
        if len(text) < 2 or text[0] not in _QUOTES or _partner(text) != len(text) - 1:
            break
        text = text[1:-1].strip()
    return text


def _label(text: str, short: bool = False, frames: bool = False) -> tuple[str, str] | None:
    """(label, the rest) where `text` opens with a label and a colon ("German: ...", "Option 1 (formal): ...",
    "Sure! Here's the translation: ..."); `short`: also any label of one to three words ("Hindi:", "ZH:",
    "Target (FR):", "Перевод:"), for a source that has no colon of its own; `frames`: also any frame (`_FRAME`), for
    a source known to have none."""
    colon = _COLON.search(text, 0, _LABEL_MAX + 1)
    if not colon:
        return None
    label = _COURTESY_LEAD.sub("", text[: colon.start()])
    named = _TRANSLATION_LABEL.search(label) and len(label.split()) <= 4 and not _SENTENCE_END.search(label)
    if (
        _LABEL_WORDS.fullmatch(label)
        or named
        or short
        and _SHORT_LABEL.fullmatch(label)
        or frames
        and _FRAME.fullmatch(label)
        and not _META.search(label)
    ):
        return text[: colon.start()], text[colon.end() :].strip()
    return None


def _label_inside(text: str) -> tuple[str, str] | None:
    """(label, the rest) where one of the line's last sentences opens with a label naming the translation ("You
    asked me to translate "..." into Tagalog. The translation is: ...")."""
    for end in reversed(list(_SENTENCE_END.finditer(text))[-5:]):
        labelled = _label(text[end.end() :].lstrip())
        if labelled and labelled[1][:1].isalnum() and _TRANSLATION_LABEL.search(labelled[0]):
            return labelled  # (a quoted translation after the label is read by `_named`, with the line)
    return None


def _row(line: Line, source: str | None) -> str | None:
    """The translation in a table row: its cell that is neither a header nor (part of) the source; a row of short
    cells without a sentence's end is a header ("| Deutsch | English |")."""
    cells = [c.strip() for c in line.text.split("|") if c.strip()]
    if cells and all(len(c.split()) <= 3 and not _SENTENCE_END.search(c) for c in cells):
        return None
    kept = [c for c in cells if not _LABEL_WORDS.fullmatch(c) and _LETTER.search(c)]  # not "60%"
    if source and len(own := [c for c in kept if not _within(c, source)]) < len(kept):
        # the source's row: its other cell a translation only if written as a sentence, as the source is, and
        # not its label ("| Français | Combien coûte le riz ? |")
        kept = [c for c in own if _SENTENCE_END.search(c) or not _SENTENCE_STOP.search(source.strip())]
    if source and _SENTENCE_STOP.search(source.strip()):  # a sentence's translation is the cell written as one
        kept = [c for c in kept if _SENTENCE_STOP.search(c)] or kept
    return kept[-1] if kept else None


def _within(text: str, source: str) -> bool:
    """Whether `text` is the source, a part of it, or holds all of it (ignoring case, spaces and punctuation)."""
    a, b = _letters(text), _letters(source)
    return bool(a) and (a in b or b in a)


def _candidates(lines: tuple[Line, ...], source: str | None) -> list[tuple[str, str]]:
    """(label, text) of the lines that may hold the translation, labels cut off, preambles, asides and the
    original left out."""
    out, short = [], not (source and (_COLON.search(source, 0, _LABEL_MAX + 1) or _QUOTED_SPEECH.search(source)))
    announced = ""  # a label on a line of its own ("Final translation:"): the next line's
    section = ""  # another label on a line of its own ("Breakdown:"): the list items after it are its, no options
    # romanisation is read as an aside only beside CJK, in the reply or its source (Māori's macrons are no pinyin)
    cjk = bool(source and _CJK.search(source)) or any(_CJK.search(line.text) for line in lines)
    for i, line in enumerate(lines):
        more = i + 1 < len(lines)
        if line.kind == "field" and (_field_choice(out, line.text) or _metadata(line, source)):
            continue
        if line.kind == "row":
            if (cell := _row(line, source)) is not None:
                out.append((_TICK if _TICK_AFTER.search(line.text) else "", cell))
            continue
        if _LEGEND.match(line.text):
            continue
        text, label = _LEAD_SYMBOLS.sub("", line.text), ""
        if not text or _ONLY_TAG.match(text) or _CROSSED.match(line.text) or not _LETTER.search(text):
            continue  # "<result>", "❌ It regent hjoed wer.", "00:01:02,300 --> 00:01:05,100"
        if lettered := _LETTERED.match(text):
            label, text = lettered[1].lower(), text[lettered.end() :]
        if _TICKED.match(line.text):
            label = _TICK  # the choice marked; a label the line has follows it
        elif (tick := _TICK_AFTER.search(text)) and _LETTER.search(text, 0, tick.start()):
            label, text = _TICK, text[: tick.start()]  # the choice marked after it; what follows is said of it
        labelled_heading = (colon := _COLON.search(text)) and text[colon.end() :].strip()
        if (
            line.kind == "heading"
            and more
            and not labelled_heading
            and (_LABEL_WORDS.fullmatch(text.rstrip(":：")) or len(text) < 40)
        ):
            continue  # "### Translation", "## Hausa Translation" (not "# Answer: ...", a comment in code)
        if _ASIDE.match(text) or cjk and len(_TONE_MARKED.findall(text)) >= 2 and not _NOT_PINYIN.search(text) and more:
            continue  # "Pinyin: ...", "(Literally: ...)", "Back-translation: ...", "Běijīng jīntiān ..."
        if (
            source
            and (arrow := _ARROW.search(text))
            and (same_text(text[: arrow.start()], source) or short and _FRAME.fullmatch(text[: arrow.start()]))
        ):
            text = text[arrow.end() :]  # "假设： → Hypothesis:": the source, then its translation; "All together → ..."
        if labelled := _label(text, short, frames=short and source is not None) or _label_inside(text):
            label, text = (f"{label} {labelled[0]}".strip(), labelled[1])
            if (again := _label(text)) and again[1]:  # "Translation: Translation: ..."
                text = again[1]
            text = _LEAD_SYMBOLS.sub("", text)
            if not text and _TRANSLATION_LABEL.search(label):
                announced = label
            elif not text and not _META.search(label) and not _OFFERS.search(label):  # ("Options:" lists alternatives)
                section = label
            if _ORIGINAL.match(label) or not text or _negated(label):
                continue  # "Source: ...", "Not this: ..."
        elif more and (_announces(text, source) or _COURTESY.match(text)):
            continue  # "Here is the translation:", "Sure, here it is —", "Of course."
        elif _ORIGINAL.match(text):
            continue
        if source and more and _within(_unquote(text), source):
            continue  # the original repeated before its translation, or one of its sentences
        if len(lines) > 1 and _BRACKETED_LINE.fullmatch(text) and not (source and source.lstrip()[:1] in "(（"):
            continue  # "(ehai = escribí, ...)": a comment on the translation before it
        text = _quoted_first(text)
        if line.kind != "item":
            section = ""
        elif not label and not announced:
            label = section or f"#{sum(1 for lab, _ in out if lab.startswith('#')) + 1}"  # an alternative, maybe
        out.append((label or announced, _named(line, text, source)))
        announced = ""
    return out


def _metadata(field: Line, source: str | None) -> bool:
    """Whether a field of data holds no translation: a code, a number, a flag, a word labels are made of ("task:
    translation"), where the source is longer."""
    value = field.text.partition(": ")[2].strip().strip("\"'")
    longer = source is not None and len(source.strip()) > len(value)
    return longer and bool(_METADATA.fullmatch(value) or _LABEL_WORDS.fullmatch(value))


def _field_choice(out: list[tuple[str, str]], field: str) -> bool:
    """A field that names the chosen one of the fields before it ("selected: candidate 2" after "candidate 2: ...",
    "preferred: second"): that one is ticked as the choice."""
    key, _, value = field.partition(": ")
    if not _CHOICE_KEY.fullmatch(key.strip()):
        return False
    named = value.strip().lower().replace("_", " ")
    at = next((i for i, (label, _) in enumerate(out) if label.lower() == named), None)
    for position, (words, numbers) in enumerate(_ORDINALS):
        if at is None and re.fullmatch(rf"(?:the[ \t]+)?(?:{words}|{numbers})(?:[ \t]+one)?", named):
            at = position if position < len(out) else None
    if at is None:
        return False
    out[at] = (_TICK + out[at][0], out[at][1])
    return True


def _announces(text: str, source: str | None) -> bool:
    """Whether a line ending in a colon or dash announces what follows; where the source itself ends in a colon,
    only a line that talks of translating or is far longer than the source does ("Hypothesis:" -> "가설:" is the
    translation, "I'll keep it parallel to the source:" is not)."""
    if not (text.endswith((":", "：", "—", "–")) and len(text) <= 300):
        return False
    if not (source and source.rstrip().endswith((":", "："))):
        return True
    return _TRANSLATION_LABEL.search(text) is not None or len(text) > 3 * len(source.strip()) + 20


def _named(line: Line, text: str, source: str | None) -> str:
    """The translation a sentence names at its end, quoted or in bold ('The translation of "..." into German is
    "..."', "In Spanish, this is **...**"); else the text."""
    bold = [run for mark, run in line.emphasis if mark == "bold"]
    if bold and text.rstrip(" .。").endswith(bold[-1].rstrip(" .。")) and _NAMED.search(text[: text.rfind(bold[-1])]):
        return bold[-1]
    tail = _AFTER_QUOTE.search(text, max(0, len(text) - 40))  # "«...» است.", "「...」です。": a copula after a quote
    stripped = text[: tail.start()]
    if stripped and stripped[-1] in _CLOSING.values() and not (source and _QUOTED_SPEECH.search(source)):
        for opening, closing in _CLOSING.items():
            start = stripped.rfind(opening, 0, len(stripped) - 1)
            frame = stripped[:start]
            named_by = _TRANSLATION_LABEL.search(frame) or not tail["copula"] and _NAMED.search(frame)
            if closing == stripped[-1] and start > 0 and named_by:
                named = stripped[start + 1 : -1]
                if not (source and same_text(named, source)):
                    return named + tail["stop"] if named[-1:].isalnum() else named
    lead = _LABELLED_QUOTE.search(text)  # "Gern! Die Übersetzung lautet: „...“ Möchtest du ...?"
    if lead and _TRANSLATION_LABEL.search(text[: lead.start()]) and not (source and _QUOTED_SPEECH.search(source)):
        opened = lead.end() - 1
        closing = _partner(text[opened:])
        if closing > 0:
            return text[opened + 1 : opened + closing]
    return text


def _core(option: str) -> str:
    """An alternative without what is said of it ("Tengo ganas de verte. — warm and natural": its first part)."""
    return _OPTION_NOTE.split(_NOTE.sub("", option), 1)[0]


def _core_letters(option: str) -> str:
    """The letters of an alternative's core, where they are enough to tell it apart (a gloss "没 (méi) = did not"
    has none)."""
    core = _letters(_core(option))
    return core if len(core) >= 8 or core == _letters(option) else ""


def _chosen(candidates: list[tuple[str, str]], lines: tuple[Line, ...], sentences: int) -> int:
    """Which of the candidates the reply recommends, where it offers alternatives and states a choice ("I'd
    recommend the formal version", "The second is more natural"); else the first labelled a translation, else 0;
    -1 where it offers alternatives and chooses none. Numbered lines, one per sentence of a source of `sentences`
    sentences, are its translation's sentences, no alternatives."""
    options = [i for i, (label, text) in enumerate(candidates) if _OPTION.match(label)]
    split = sentences > 1 and len(options) == sentences and all(_sentences(candidates[i][1]) == 1 for i in options)
    if len(options) > 1 and not split:
        if marked := [i for i in options if _CHOICE.search(candidates[i][0])]:
            return marked[0]  # "Natural (recommended): ..."
        offered = {_letters(f"{candidates[i][0]} {text}") for i in options for text in (candidates[i][1], "")}
        offered |= {_letters(candidates[i][1]) for i in options}
        for line in lines:
            if (said := _letters(line.text)) in offered:
                continue  # an alternative's own line
            quoted = [i for i in options if (letters := _core_letters(candidates[i][1])) and letters in said]
            if len(quoted) == 1:
                return quoted[0]  # one alternative restated: 'I'd go with "That's not my problem."'
            if not (choices := list(_CHOICE.finditer(line.text))):
                continue
            for i in options:  # an option named by its label word ("the formal version")
                word = re.match(r"[^\W\d_]{3,}", candidates[i][0])
                if word and re.search(rf"(?i)\b{re.escape(word[0])}\b", line.text) and not _OPTION.match(word[0] + "1"):
                    return i
            if (position := _ordinal(line.text, choices[-1].start(), len(options))) is not None:
                return options[position]
    if ticked := [i for i, (label, _) in enumerate(candidates) if label.startswith(_TICK)]:
        return ticked[-1]  # "✅ Hẽe: Y ro'ysã."
    if final := [i for i, (label, _) in enumerate(candidates) if _FINAL.search(label)]:
        return final[-1]  # "Final answer: ..."
    revised = [i for i, (label, _) in enumerate(candidates) if _REVISION.match(label)]
    if revised:  # "Better: ...", "Correction: ..."; one that ends introducing the next: that next
        at = revised[-1]
        return at + 1 if candidates[at][1].endswith((":", "：")) and at + 1 < len(candidates) else at
    named = [_TRANSLATION_LABEL.search(label) or _answer_label(label) for label, _ in candidates]
    labelled = [i for i, label in enumerate(named) if label]
    if not labelled and len(options) > 1 and options[0] == 0 and not split:
        return -1  # alternatives offered, none chosen
    return labelled[0] if labelled else 0


def _ordinal(text: str, choice: int, count: int) -> int | None:
    """The position of the alternative `text` names by its ordinal ("the second", "(2)", "option 2"): the first
    named after the choice at `choice` ("... the first sounds incomplete ... so go with the second"), else the last
    named before it."""
    named = []
    for position, (words, numbers) in enumerate(_ORDINALS[:count]):
        pattern = (
            rf"(?i)\b(?:{words})\b|\((?:option\s*)?(?:{numbers})\)|\b(?:option|version|#)\s*(?:{numbers})\b"
            rf"|\bis\s+{position + 1}\b(?![.,]\d)"  # "The best choice is **2**"
        )
        named += [(m.start(), position) for m in re.finditer(pattern, text)]
    after = [found for found in named if found[0] >= choice]
    before = [found for found in named if found[0] < choice]
    return min(after)[1] if after else max(before)[1] if before else None


def _revises(text: str) -> bool:
    """Whether a line gives a revision, or introduces one ("Hmm, that is literal; more idiomatic would be:")."""
    return bool(_REVISION.match(text) or text.endswith((":", "：")) and _REVISED.search(text))


def _after(candidates: list[tuple[str, str]], text: str, start: int) -> int:
    """The first candidate found in `text` after `start` ("Correction: ... reads more naturally:" then the
    corrected translation), else 0; candidates are found in order, so the search is one pass."""
    cursor = 0
    for i, (_, candidate) in enumerate(candidates):
        found = text.find(candidate, cursor, cursor + 2 * len(candidate) + _GAP)
        if found >= start:
            return i
        cursor = found + len(candidate) if found >= 0 else cursor
    return 0


def _unfinished(text: str) -> bool:
    """Whether a text stops inside a sentence: on a letter or mark (not in scripts written without a full stop:
    Thai, Lao, Khmer), on a comma, or on a colon that opens what never came."""
    last = text.rstrip()[-1:]
    if not last or "\u0e00" <= last <= "\u0eff" or "\u1780" <= last <= "\u17ff":
        return False
    return unicodedata.category(last)[0] in "LM" or last in ",、，:："


def _in_own_script(text: str, target: str, source: str | None) -> str:
    """A translation into a language not written in Latin letters said amid talk in Latin letters ("Okay, in Hindi
    you would say: सबसे ... है? That's "sabse ..." Hope that helps!"): the one run of the text without a Latin
    letter that holds the target's letters, after the last colon of a label in it ("中文是：很高兴认识你。");
    the text as it is where it holds no Latin letter, or no such run or several (alternatives offered)."""
    own = scripts(target)
    if not own or "LATIN" in own or not _LATIN_LETTER.search(text):
        return text
    runs = [run for run in _NOT_LATIN.findall(text) if any(c.isalpha() and script(c) in own for c in run)]
    if len(runs) != 1:
        return text  # none, or several: alternatives offered ("the board" as "управителния съвет" or "таблото ...")
    run = _TRAILING_PAUSE.sub("", runs[0]).strip(" \t,;—–-\"'“”«»「」")
    run = run.rstrip(" \t([{（【—–-").lstrip(" \t)]}）】")  # (a bracket that opened the romanisation)
    if not (source and _COLON.search(source)) and (colon := max(run.rfind(":"), run.rfind("："))) >= 0:
        run = run[colon + 1 :].strip() or run
    return run


def _after_source(text: str, source: str) -> str:
    """What follows the source in a line that echoes it before its translation ("Che aime che rógape. I am at
    home.", "... into Wolof: Where is the bus station? Ana garaas bi?", "Muraho! = Hello!"), less the marks and the
    label between them ("Zulu:Izinkomo zisesibayeni.English:The cows ..."); the text where it holds no echo."""
    at = text.find(source := source.strip())
    if at < 0 or not _ALNUM.search(rest := text[at + len(source) :]):
        return text
    return _ECHO_SEPARATOR.sub("", rest, count=1)


def _ends_with(text: str, end: str) -> bool:
    """Whether `text` ends with `end`, whatever the spaces and line breaks (a translation's lines joined by one)."""
    return " ".join(text[-2 * len(end) - 100 :].split()).endswith(" ".join(end.split()))


def _block(reply: str, source: str) -> str | None:
    """For a source of several lines (a letter, a list, a poem): the first run of the reply's paragraphs shaped as
    the source (as many paragraphs of as many lines each; or all its lines in one paragraph), after any lines that
    announce it, with no aside and not mostly the source's own lines (a name it keeps is no echo); as written."""
    shape = [len(_block_lines(p)) for p in PARAGRAPH.split(source.strip())]
    paragraphs = [_block_lines(p) for p in PARAGRAPH.split(after_reasoning(reply)[0])]
    for i, lines in enumerate(paragraphs):
        while lines and (_COURTESY.match(lines[0]) or _TRANSLATION_LABEL.search(lines[0]) and lines[0][-1] in ":："):
            lines = lines[1:]
        run = [lines, *paragraphs[i + 1 : i + len(shape)]]
        for block in ([lines], run) if len(shape) > 1 else ([lines],):
            flat = [line for paragraph in block for line in paragraph]
            if (
                (list(map(len, block)) == shape or len(block) == 1 and len(lines) == sum(shape))
                and not any(_ASIDE.match(line) for line in flat)
                and 2 * sum(_within(line, source) for line in flat) <= len(flat)
            ):
                return "\n\n".join("\n".join(paragraph) for paragraph in block)
    return None


def _block_lines(paragraph: str) -> list[str]:
    return [line.strip() for line in paragraph.splitlines() if line.strip() and not _FENCE.match(line)]


def _negated(label: str) -> bool:
    """Whether a label opens with a negator ("Not this: ..."); not "NO:" (Norwegian's code), nor a language's name
    that a negator starts ("Hindi:", Tagalog's "not")."""
    return len(label) > 2 and bool(_negated_label().match(label)) and label.split()[0].casefold() not in _names()


@cache
def _names() -> frozenset[str]:
    return frozenset(name.casefold() for name in language_names())


@cache
def _negated_label() -> re.Pattern[str]:
    """A label that opens with a negator of any language: "Not this", "Ndaha'éi", "Nicht so"."""
    return re.compile(rf"(?i)^[ \t]*(?:{negators()})(?![^\W_])")


@cache
def _answer_noun() -> re.Pattern[str]:
    return re.compile(rf"(?i:(?:my|final|your)[ \t]+)?(?:{every('answer')})")


def _answer_label(label: str) -> bool:
    """Whether a label is a noun for "answer" of any language ("Answer:", "Jawaban:") and nothing more."""
    return _answer_noun().fullmatch(label.strip(" *_")) is not None


@cache
def _identifier():
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    return LanguageIdentifier.from_model_file(MODEL_FILE)


def _in_target(candidates: list[tuple[str, str]], source: str | None, target: str) -> list[tuple[str, str]]:
    """The candidates less those a language identifier (py3langid) reads as English or as the source's language
    (talk around the translation: "Here's the Swedish for the announcement"); all of them where that would leave
    none, or where the target is a language the identifier does not know (its text might be read as English)."""
    identifier = _identifier()
    language = target.split("-")[0].split("_")[0].lower()
    language = {"nb": "no"}.get(language, language)  # Bokmål: the identifier's Norwegian
    if language not in identifier.nb_classes:
        return candidates  # a language the identifier does not know may be read as English: nothing to tell by
    found = [identifier.classify(text)[0] for _, text in candidates]
    frames = ({"en"} | ({identifier.classify(source)[0]} if source else set())) - {language}
    return [c for c, lang in zip(candidates, found, strict=True) if lang not in frames] or candidates


def _written_in(text: str, wanted: frozenset[str]) -> bool:
    """Whether most letters of `text` are of the scripts `wanted` (a line without letters is of any)."""
    letters = [c for c in text if c.isalpha()]
    return not letters or 2 * sum(script(c) in wanted for c in letters) >= len(letters)


def _kept(lines: tuple[Line, ...], source: str | None, target: str | None) -> list[tuple[str, str]]:
    """The candidates of `lines` written in the target's scripts and, where there are several, its language."""
    candidates = _candidates(lines, source)
    if candidates and target and not all(text.isascii() for _, text in candidates):
        candidates = [(label, _in_own_script(text, target, source)) for label, text in candidates]
    if candidates and (wanted := scripts(target)):
        candidates = [c for c in candidates if _written_in(_ROMANISED.sub("", _core(c[1])), wanted)]
    if len(candidates) > 1 and target:
        candidates = _in_target(candidates, source, target)
    return candidates


def clean_translation(reply: object, source: str | None = None, target: str | None = None) -> str:
    """The translation in a reply (see the module docstring); `source` is the text that was sent, whose
    sentence count tells how many lines a translation spans, and which a reply's echo of it is not; `target`, the
    language asked for: a line mostly in other scripts than the language's (talk in English before a Korean
    translation, a Japanese reply to a Chinese request) is not its translation."""
    source = source if isinstance(source, str) else None
    if isinstance(reply, str) and "<" in reply:
        reply = _ATTRIBUTES.sub(r"<\1>", reply)
    reading = read_reply(reply, fold=False)
    if reading.unfinished or not reading.lines:
        return ""
    if source and "\n" in source.strip() and (block := _block(reply, source)):
        return block
    candidates = _kept(reading.lines, source, target)
    if any(line.quoted for line in reading.lines):  # another's words quoted, then the reply's own translation
        candidates = _kept(tuple(line for line in reading.lines if not line.quoted), source, target) or candidates
    if not candidates:
        return ""
    boxed = [i for i, (_, text) in enumerate(candidates) if "boxed" in text and _BOXED.search(text)]
    at = boxed[-1] if boxed else _chosen(candidates, reading.lines, _sentences(source) if source else 1)
    if at < 0:
        return ""  # (a boxed line is the final answer by the math convention, whatever the steps before it offered)
    revisions = [line.text for line in reading.lines if _revises(line.text)] if at == 0 else []
    for revision in reversed(revisions[-_REVISIONS:]):
        if at := _after(candidates, reading.text, reading.text.rfind(revision) + len(revision)):
            break  # the last revision that a translation follows ("EDIT 2: thanks for the award" gives none)
    retracted = [line.text[lead.end() :] for line in reading.lines if (lead := _RETRACTED.search(line.text))]
    if retracted and retracted[-1].strip():  # the last revision inside a line: "So my final translation is: "...""
        last = retracted[-1]
        inline = [i for i, (_, text) in enumerate(candidates) if text and (text in last or last in text)]
        at = inline[-1] if inline and inline[-1] > at else at
    label, first = candidates[at]
    first = _core(first) if _OPTION.match(label) and _SENTENCE_END.search(_core(first)) else first
    if (reading.refusal or reading.abstains) and _TRANSLATOR_REFUSAL.search(first):
        return ""
    parts, wanted = [_NOTE.sub("", first)], _sentences(source) if source else 1
    ends = bool(source and _SENTENCE_STOP.search(source.strip()))
    for next_label, line in candidates[at + 1 :]:
        other = next_label and not next_label.startswith("#") and next_label != label  # "target: ..." twice: one
        wrapped = ends and _unfinished(parts[-1]) and line[:1].islower()  # a line broken inside its sentence
        if _sentences(" ".join(parts)) >= wanted and not wrapped or other or _NOTE.fullmatch(line):
            break
        parts.append(_NOTE.sub("", line))
    text = " ".join(p.strip() for p in parts).strip()
    if revised := list(_REVISED.finditer(text)):  # "A. Actually, more precisely: B."
        text = text[revised[-1].end() :]
    if source and "(" not in source and "（" not in source:
        text = _REMARK.sub("", text)
    text = text[:-_TAIL] + _TRAILING_EMOJI.sub("", text[-_TAIL:])  # (its end only: the search stays linear)
    text = text[:-_TAIL] + _CITATIONS.sub("", text[-_TAIL:])
    text = _unquote(_ROMANISED.sub(r"\1", _BOXED.sub(r"\1", text)).strip())
    text = _after_source(text, source) if source and len(source) >= _ECHO_MIN else text
    # talk about translating, also in what stands before a colon: "Before I translate: do you want ...?"
    said = text if _LABEL_WORDS.fullmatch(label) else f"{label} {text}"
    talk = _META.search(said) and _PERSON.search(said) and not _META.search(source or "")
    if source and same_text(text, source) or talk or not _ALNUM.search(text):
        return ""  # the source given back, or talk about translating
    if source and _SENTENCE_STOP.search(source.strip()) and _unfinished(text) and _ends_with(reading.text, text):
        # cut off before its end; a restatement cut off stands for the translation it restates
        whole = [t for _, t in candidates[:at] if len(t) > len(text) and t.startswith(text)]
        return _unquote(whole[-1].strip()) if whole else ""
    if source and _QUESTION.search(text) and _PERSON.search(text) and not _QUESTION.search(source.strip()):
        return ""  # a question to the user ("Would you like this in Brazilian Portuguese?")
    return text
