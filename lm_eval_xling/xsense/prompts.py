"""The xsense prompts, verbatim as the authors' code sends them, and the paper's printed wording as a variant.

An instruction is kept in the three pieces the model translates separately (prefix, suffix, the word "Sentence"),
so the original and the model-translated instruction are recomposed by the same `compose`.

Two renderings (task README, "The authors' code and the paper"):
- the authors' code (the default: what produced the published numbers): every language laid out alike
  (`<prefix> <word> 1: "<s1>" <word> 2: "<s2>" <suffix>`, Chinese too), the word "Sentence" always the instruction
  language's own (their code never uses the model's translation of it), and translation requests that end the
  instruction line with ": " and a line break, then the text: an input as it is, an instruction piece in quotes;
- the paper's wording (tasks `xsense_*_paper_*`, `xsense_translate_paper`): Chinese written without spaces
  (`<prefix>句子1: "<s1>" 句子2: "<s2>" <suffix>`), the instruction's own word for "Sentence" (the model's
  translation in T and I), Table 6's text where it differs from the code's, and every text to translate quoted on the
  instruction line (`Please translate the following text into German: "<text>"`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from lm_eval_xling.errors import UserError


@dataclass(frozen=True)
class Instruction:
    prefix: str
    suffix: str
    sentence: str

    def fields(self) -> dict[str, str]:
        """The pieces as the task's documents carry them (`prefix`, `suffix`, `sentence_word`)."""
        return {"prefix": self.prefix, "suffix": self.suffix, "sentence_word": self.sentence}


# The English instructions are the paper's; German and Chinese ones were written by native speakers. As the
# authors' code has them (their suffixes begin with the space that joins them to the prompt: `compose` adds it).
INSTRUCTIONS = {
    "pawsx": {
        "en": Instruction("Do the following sentences have the same meaning?", 'Please answer with "yes" or "no".',
                          "Sentence"),
        "de": Instruction("Haben die folgenden Sätze die gleiche Bedeutung?", 'Bitte antworte mit "ja" oder "nein".',
                          "Satz"),
        "zh": Instruction("下面的句子有着相同的含义吗？", "请用“是”或者“否”回答。", "句子"),
    },
    "xnli": {
        "en": Instruction(
            "Given the following sentence pair, which one of the following is true: (A) the first sentence entails "
            "the second sentence, (B) the first sentence contradicts the second sentence, or (C) neither of the two?",
            'Please answer with "A", "B", or "C".',
            "Sentence",
        ),
        "de": Instruction(
            "Welche dieser Aussagen trifft auf das folgende Satzpaar zu: (A) der erste Satz impliziert den zweiten "
            "Satz, (B) der erste Satz widerspricht dem zweiten Satz, oder (C) keines von beiden?",
            'Bitte antworte mit "A", "B" oder "C".',
            "Satz",
        ),
        "zh": Instruction(  # the code's prefix has a space before (B) and before (C); the paper prints none
            "对于给出的一对句子，以下哪一个选项是正确的：（A）第一个句子涵盖了第二个句子 "
            "（B）第一个句子与第二个句子矛盾 （C）两者都不？",
            "请用“A”、“B”或“C”来回答。",
            "句子",
        ),
    },
}  # fmt: skip

# The word "Sentence" of each instruction language: the authors' code puts it into every prompt of that language,
# the model-translated instructions of T and I included (their translation of the word is requested, then unused).
SENTENCE = {"en": "Sentence", "de": "Satz", "zh": "句子"}

# Where the paper's text (Table 6) differs from the code's: the code's text -> the paper's. The native Chinese XNLI
# prefix without the code's two spaces; the model's en->de XNLI prefix as printed ("Satzpaars"; the code and the
# released reply have "Satzpaares"). The paper prints every quote curly, the code's straight ones too (around the
# sentences, "yes"/"no"): taken as typesetting, so quotes are not changed.
PAPER_WORDING = {
    INSTRUCTIONS["xnli"]["zh"].prefix: INSTRUCTIONS["xnli"]["zh"].prefix.replace(" ", ""),
    "Angesichts des folgenden Satzpaares, welche der folgenden Aussagen ist wahr: (A) Der erste Satz impliziert den "
    "zweiten Satz, (B) Der erste Satz widerspricht dem zweiten Satz oder (C) Keines von beiden?":
    "Angesichts des folgenden Satzpaars, welche der folgenden Aussagen ist wahr: (A) Der erste Satz impliziert den "
    "zweiten Satz, (B) Der erste Satz widerspricht dem zweiten Satz oder (C) Keines von beiden?",
}  # fmt: skip

# The dataset columns that hold the two input sentences.
INPUT_FIELDS = {"pawsx": ("sentence1", "sentence2"), "xnli": ("premise", "hypothesis")}

# Translation instructions, always in the source language, without the text: the authors' code sends
# `<instruction> \n<text>` (see `translation_prompt`). Theirs: en->de/zh/es, de->en, zh->en, es->en; then ours for the
# languages of NSP and xstorycloze, in the same form: the English ones follow theirs; the Swahili and Hausa ones were
# written by us (not native speakers), in the wording of the NSP authors' own Swahili and Hausa instructions
# ("kwa lugha ya Kiswahili", "a cikin harshen Hausa"); see the task README.
TRANSLATE = {
    ("en", "de"): "Please translate the following text into German:",
    ("en", "zh"): "Please translate the following text into Chinese:",
    ("de", "en"): "Bitte übersetze den folgenden Text ins Englische:",
    ("zh", "en"): "请将下面的文字翻译成英语:",
    ("en", "es"): "Please translate the following text into Spanish:",
    ("en", "sw"): "Please translate the following text into Swahili:",
    ("en", "ha"): "Please translate the following text into Hausa:",
    ("es", "en"): "Por favor, traduzca el siguiente texto al inglés:",
    ("sw", "en"): "Tafadhali tafsiri maandishi yafuatayo kwa lugha ya Kiingereza:",
    ("ha", "en"): "Don Allah ka fassara wannan rubutu zuwa harshen Turanci:",
}

# NSP Global's languages (their English names): English requests into each, in the form of the authors' en->de, for
# `consistency run --task nsp_global_en --tgt <lang>` (the human translations are the references there).
NSP_GLOBAL_NAMES = {
    "adx": "Amdo Tibetan", "aeb": "Tunisian Arabic", "am": "Amharic", "ar": "Arabic", "bn": "Bengali",
    "bo": "Tibetan", "ca": "Catalan", "ckb": "Central Kurdish", "da": "Danish", "dje": "Zarma", "el": "Greek",
    "eo": "Esperanto", "fa": "Persian", "ff": "Fula", "fr": "French", "ga": "Irish", "gu": "Gujarati",
    "guz": "Ekegusii", "hi": "Hindi", "ht": "Haitian Creole", "hu": "Hungarian", "it": "Italian", "ja": "Japanese",
    "jam": "Jamaican Patois", "kam": "Kamba", "khg": "Khams Tibetan", "ki": "Kikuyu", "kln": "Kalenjin", "km": "Khmer",
    "ko": "Korean", "kr": "Kanuri", "la": "Latin", "lg": "Luganda", "lko": "Olukhayo", "lt": "Lithuanian",
    "mas": "Maasai", "mfe": "Mauritian Creole", "mg": "Malagasy", "mnw": "Mon", "my": "Burmese",
    "nb": "Norwegian Bokmål", "ne": "Nepali", "nl": "Dutch", "nn": "Norwegian Nynorsk", "om": "Oromo",
    "pa": "Punjabi", "pcm": "Nigerian Pidgin", "pl": "Polish", "prs": "Dari", "ps": "Pashto", "rki": "Rakhine",
    "ro": "Romanian", "ru": "Russian", "saq": "Samburu", "se": "Northern Sami", "so": "Somali", "sv": "Swedish",
    "tet": "Tetum", "tl": "Tagalog", "tr": "Turkish", "tuv": "Turkana", "uk": "Ukrainian", "ur": "Urdu",
    "vi": "Vietnamese", "yo": "Yoruba", "yue": "Cantonese",
}  # fmt: skip
for _code, _name in NSP_GLOBAL_NAMES.items():
    TRANSLATE.setdefault(("en", _code), f"Please translate the following text into {_name}:")


def directions() -> str:
    """The directions with a translation instruction, by source language: "de->en; en->am, ar, ...; ..."."""
    targets: dict[str, list[str]] = {}
    for source, target in sorted(TRANSLATE):
        targets.setdefault(source, []).append(target)
    return "; ".join(f"{source}->{', '.join(found)}" for source, found in targets.items())


# Instruction pieces the authors keep with the space that joins them to the prompt, and send for translation so.
JOINED = ("suffix",)
PIECE = "instruction/"  # the request key of an instruction piece: `instruction/<field>`


def compose(instruction: Instruction, first: str, second: str, language: str) -> str:
    """The task prompt as the authors' code builds it, in every language alike, with the word "Sentence" of
    `language` (the instruction's own where the language has none here)."""
    word = SENTENCE.get(language, instruction.sentence)
    return f'{instruction.prefix} {word} 1: "{first}" {word} 2: "{second}" {instruction.suffix}'


def compose_paper(instruction: Instruction, first: str, second: str, language: str) -> str:
    """The task prompt as the paper prints it (Table 6): Chinese writes no space after the prefix nor between "句子"
    and the number; the instruction's own word for "Sentence"; Table 6's text where the code's differs."""
    instruction = replace(
        instruction,
        prefix=PAPER_WORDING.get(instruction.prefix, instruction.prefix),
        suffix=PAPER_WORDING.get(instruction.suffix, instruction.suffix),
    )
    gap = "" if language == "zh" else " "
    word = instruction.sentence
    return f'{instruction.prefix}{gap}{word}{gap}1: "{first}" {word}{gap}2: "{second}" {instruction.suffix}'


def _instruction_line(source: str, target: str) -> str:
    try:
        return TRANSLATE[source, target]
    except KeyError:
        raise UserError(f"no translation instruction for {source}->{target}; directions: {directions()}") from None


def translation_prompt(text: str, source: str, target: str, piece: bool = False) -> str:
    """The authors' translation request: the instruction line ending in ": " and a line break, then `text`, in
    quotes where it is an instruction `piece`."""
    return f"{_instruction_line(source, target)} \n" + (f'"{text}"' if piece else text)


def translation_prompt_paper(text: str, source: str, target: str) -> str:
    """The paper's translation request (its Appendix C): `text` in quotes on the instruction line."""
    return f'{_instruction_line(source, target)} "{text}"'


# --- prompts of documents: the translation requests of `xsense_translate(_paper)`, the `xsense_*_paper_*` tasks ---


def request_prompt(doc: dict[str, Any]) -> str:
    """doc_to_text of xsense_translate: a request of the translation stage as the authors' code sends it."""
    key, text = doc["key"], doc["text"]
    if key in {PIECE + name for name in JOINED}:
        text = " " + text
    return translation_prompt(text, doc["source_language"], doc["target_language"], piece=key.startswith(PIECE))


def request_prompt_paper(doc: dict[str, Any]) -> str:
    """doc_to_text of xsense_translate_paper."""
    return translation_prompt_paper(doc["text"], doc["source_language"], doc["target_language"])
