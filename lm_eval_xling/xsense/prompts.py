"""The paper's prompts, verbatim: task instructions in pieces (per language) and translation instructions.

An instruction is kept in the three pieces the model translates separately (prefix, suffix, the word
"Sentence"), so the original and the model-translated instruction are recomposed by the same `compose`.
"""

from __future__ import annotations

from dataclasses import dataclass

from lm_eval_xling.errors import UserError


@dataclass(frozen=True)
class Instruction:
    prefix: str
    suffix: str
    sentence: str

    def fields(self) -> dict[str, str]:
        """The pieces as the task's documents carry them (`prefix`, `suffix`, `sentence_word`)."""
        return {"prefix": self.prefix, "suffix": self.suffix, "sentence_word": self.sentence}


# The English instructions are the paper's; German and Chinese ones were written by native speakers.
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
        "zh": Instruction(
            "对于给出的一对句子，以下哪一个选项是正确的：（A）第一个句子涵盖了第二个句子（B）第一个句子与第二个句子矛盾（C）两者都不？",
            "请用“A”、“B”或“C”来回答。",
            "句子",
        ),
    },
}  # fmt: skip

# The dataset columns that hold the two input sentences.
INPUT_FIELDS = {"pawsx": ("sentence1", "sentence2"), "xnli": ("premise", "hypothesis")}

# Translation instructions, always in the source language. The paper's four, then ours for the languages of NSP
# and xstorycloze: the English ones follow the paper's; the Spanish, Swahili and Hausa ones were written by us (not
# native speakers), in the wording of the NSP authors' own Swahili and Hausa instructions ("kwa lugha ya Kiswahili",
# "a cikin harshen Hausa"), and checked by asking the embedded model to translate them (task README).
TRANSLATE = {
    ("en", "de"): 'Please translate the following text into German: "{text}"',
    ("en", "zh"): 'Please translate the following text into Chinese: "{text}"',
    ("de", "en"): 'Bitte übersetze den folgenden Text ins Englische: "{text}"',
    ("zh", "en"): '请将下面的文字翻译成英语: "{text}"',
    ("en", "es"): 'Please translate the following text into Spanish: "{text}"',
    ("en", "sw"): 'Please translate the following text into Swahili: "{text}"',
    ("en", "ha"): 'Please translate the following text into Hausa: "{text}"',
    ("es", "en"): 'Por favor, traduce el siguiente texto al inglés: "{text}"',
    ("sw", "en"): 'Tafadhali tafsiri maandishi yafuatayo kwa lugha ya Kiingereza: "{text}"',
    ("ha", "en"): 'Don Allah ka fassara wannan rubutu zuwa harshen Turanci: "{text}"',
}


def compose(instruction: Instruction, first: str, second: str, language: str) -> str:
    """The task prompt; Chinese writes no space after the prefix nor between "句子" and the number."""
    gap = "" if language == "zh" else " "
    word = instruction.sentence
    return f'{instruction.prefix}{gap}{word}{gap}1: "{first}" {word}{gap}2: "{second}" {instruction.suffix}'


def translation_prompt(text: str, source: str, target: str) -> str:
    try:
        template = TRANSLATE[source, target]
    except KeyError:
        raise UserError(f"no translation instruction for {source}->{target}; directions: {sorted(TRANSLATE)}") from None
    return template.format(text=text)
