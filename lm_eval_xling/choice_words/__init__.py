"""The closed-class words the choice reader needs, one YAML file per language beside this module (README.md says what
each list is for). Everything else the reader knows is structure; a language without a file reads by structure and
English alone."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from functools import cache, lru_cache
from pathlib import Path

import yaml

KINDS = ("answer", "option", "correct", "hedge", "wrong", "negation", "joint", "conditional", "doubt")  # "ordinals"
COMMITTING = ("answer", "option", "correct", "hedge")
_FOLDER = Path(__file__).parent
# Scripts written without spaces between words: their entries match anywhere, not at a word's start.
_UNSPACED = re.compile(r"[\u0e00-\u0fff\u1000-\u109f\u1780-\u17ff\u2e80-\u9fff\u3040-\u30ff\uac00-\ud7af\uf900-\ufaff]")


def read_yaml(path: Path) -> dict:
    """A word file, read with libyaml where it is installed (all files in 0.1 s, not 0.7); {} where it is absent."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    return yaml.load(path.read_text(encoding="utf-8"), Loader=loader) if path.is_file() else {}


@cache
def _file(code: str) -> dict:
    return read_yaml(_FOLDER / f"{code}.yaml")


@cache
def languages() -> tuple[str, ...]:
    """The languages that have a file."""
    return tuple(sorted(path.stem for path in _FOLDER.glob("*.yaml")))


@cache
def language_names() -> tuple[str, ...]:
    """The English names of the languages that have a file ("Spanish", "Hausa")."""
    return tuple(str(name) for code in languages() if (name := _file(code).get("name")))


# A macrolanguage's or another standard's code for the language a file holds (ISO 639-1 "ku" is Kurdish, whose file
# is Kurmanji's, "kmr"; "no" is Norwegian Bokmål; "fil" is Filipino, written as Tagalog).
_SAME_LANGUAGE = {"ku": "kmr", "no": "nb", "fil": "tl", "fa-af": "prs", "zh-yue": "yue"}


def base_language(language: str | None) -> str | None:
    """ "kk-Latn" -> "kk", "ku" -> "kmr" (the code of its file); None stays None (every language)."""
    if not isinstance(language, str) or not language:
        return None
    code = language.replace("_", "-").lower()
    return _SAME_LANGUAGE.get(code) or _SAME_LANGUAGE.get(code.split("-")[0]) or code.split("-")[0]


def script(character: str) -> str:
    """The script of a letter as Unicode's character names give it ("LATIN", "CJK", "DEVANAGARI"); Japanese's two
    syllabaries are one, "KANA" (a line may be all katakana)."""
    name = unicodedata.name(character, "").split(" ", 1)[0]
    return "KANA" if name in ("HIRAGANA", "KATAKANA") else name


# ISO 15924 script subtags ("sr-Latn", "bn-Latn", "zh-Hans") as Unicode's script names
_SUBTAGS = {
    "latn": "LATIN", "cyrl": "CYRILLIC", "arab": "ARABIC", "deva": "DEVANAGARI", "beng": "BENGALI", "ethi": "ETHIOPIC",
    "grek": "GREEK", "hebr": "HEBREW", "hans": "CJK", "hant": "CJK", "hani": "CJK", "thaa": "THAANA",
    "geor": "GEORGIAN", "armn": "ARMENIAN", "tfng": "TIFINAGH", "guru": "GURMUKHI", "gujr": "GUJARATI",
    "taml": "TAMIL", "telu": "TELUGU", "knda": "KANNADA", "mlym": "MALAYALAM", "sinh": "SINHALA", "thai": "THAI",
    "laoo": "LAO", "khmr": "KHMER", "mymr": "MYANMAR", "hang": "HANGUL", "orya": "ORIYA",
}  # fmt: skip


@cache
def scripts(language: str | None) -> frozenset[str]:
    """The scripts a language is written in: the one its script subtag names ("sr-Latn"), else those read off its
    own word file (each script of at least a tenth of its letters: Japanese is CJK and KANA); empty for a language
    without a file."""
    subtags = str(language or "").replace("_", "-").lower().split("-")[1:]
    if named := [_SUBTAGS[tag] for tag in subtags if tag in _SUBTAGS]:
        return frozenset(named)
    words = [str(w) for kind in KINDS for w in _file(base_language(language) or "").get(kind) or ()]
    letters = Counter(script(c) for word in words for c in word if c.isalpha())
    total = sum(letters.values())
    return frozenset(name for name, n in letters.items() if n >= total / 10)


def entries(kind: str, language: str | None = None, own: bool = False) -> tuple[str, ...]:
    """The `kind` entries the reader uses for a reply in `language` (None: not known). The words that make a
    commitment (answer, option, correct) are every language's: a model may answer a Uyghur question in Uzbek or
    Turkish. The words that take one back (negation, wrong, joint, conditional, doubt) are the language's own and
    English's: all languages' together would clash ("ni" negates in Spanish and is the copula of "Jibu ni B").
    `own`: the language's own and English's whatever the kind."""
    every = kind in COMMITTING and not own
    codes = languages() if every else tuple(dict.fromkeys(("en", base_language(language) or "en")))
    found = (str(e).strip() for code in codes for e in _file(code).get(kind) or () if str(e).strip())
    return tuple(sorted(set(found)))


@cache
def every(kind: str) -> str:
    """A regular expression for every language's `kind` words (for a reader that looks at one or two words beside
    another word only, where languages' words cannot clash)."""
    return alternation(tuple(str(e).strip() for code in languages() for e in _file(code).get(kind) or ()))


@lru_cache(maxsize=512)
def pattern(kind: str, language: str | None = None, own: bool = False) -> str:
    """A regular expression (case-insensitive) for the `kind` words (see `entries`)."""
    return alternation(entries(kind, language, own))


@lru_cache(maxsize=16)
def ordinal(position: int) -> str:
    """A regular expression for every language's words naming the option at `position` (0: "first")."""
    lists = (_file(code).get("ordinals") or [] for code in languages())
    words = (str(e).strip() for ordinals in lists if position < len(ordinals) for e in ordinals[position])
    return alternation(tuple(word for word in words if word))


@lru_cache(maxsize=16)
def negators(codes: tuple[str, ...] | None = None) -> str:
    """A regular expression for the negators of the languages `codes` (None: every language's), without Latin
    particles of one or two letters but "no" and "ne", which are other words in other languages (Spanish "ni" is
    Swahili's copula: "Jibu ni sahihi"); with `codes` given, without English's."""
    words = {str(w).strip() for code in codes or languages() for w in entries("negation", code, own=True)}
    english = set(entries("negation", "en", own=True)) if codes else set()
    return alternation(tuple(w for w in words - english if not re.fullmatch(r"[a-z]{1,2}\*?", w) or w in ("no", "ne")))


def alternation(words: tuple[str, ...]) -> str:
    """Entries as one expression: an entry starts a word ("cevap*" also starts a longer one, an entry without "*"
    ends one too); entries of scripts without spaces match anywhere. They are joined as a trie: one pass over the
    text however many languages there are."""
    spaced, unspaced = {}, {}
    for entry in words:
        stem = entry.endswith("*")
        word = unicodedata.normalize("NFKC", entry.rstrip("*")).casefold()  # as replies are read
        if word:
            (unspaced if _UNSPACED.match(word) else spaced)[word] = stem or spaced.get(word, False)
    parts = []
    if spaced:  # the lookahead lets re skip to a possible first letter
        parts.append(r"(?=[^\W_])(?<![^\W_])" + _trie(spaced, r"(?![^\W_])"))
    if unspaced:
        parts.append(_trie(unspaced, ""))
    return "(?i:" + "|".join(parts) + ")" if parts else "(?!)"


def _trie(words: dict[str, bool], end: str) -> str:
    """Words (each True when a stem) as one regular expression sharing their prefixes."""
    root: dict = {}
    for word, stem in words.items():
        node = root
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = node.get("", False) or stem

    def build(node: dict) -> str:
        branches = [re.escape(ch) + build(child) for ch, child in sorted(node.items()) if ch]
        if "" in node:
            branches.append(r"[^\W_]*" if node[""] else end)
        return branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"

    return build(root)
