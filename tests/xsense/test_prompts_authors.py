"""The xsense prompts against the authors' code (issue 26): every task, language and condition, every translation
request, rendered by the package and by a small renderer of our own written from our reading of the authors'
`utils/load_task.py:format_data` and `translate.py`; and the paper's printed wording under its own names.

The instruction texts below are the prompt strings the authors' code sends (`utils/task_config.py`: their suffixes
carry the joining space), hard-coded so that no test needs ../shared; the one test that reads the paper's released
translations skips where they are absent.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from lm_eval.tasks._yaml_loader import load_yaml

from lm_eval_xling.xsense import prompts, selftrans, translation
from lm_eval_xling.xsense.declarations import DECLARATIONS, find
from lm_eval_xling.xsense.prompts import INSTRUCTIONS
from lm_eval_xling.xsense.tasks import (
    pawsx_prompt,
    pawsx_prompt_paper,
    with_instruction,
    xnli_prompt,
    xnli_prompt_paper,
)

TASK_DIR = Path(__file__).resolve().parents[2] / "task_yamls" / "xsense"
FAMILIES = ("pawsx", "xnli")
LANGUAGES = ("en", "de", "zh")
DIRECTIONS = (("en", "de"), ("en", "zh"), ("de", "en"), ("zh", "en"))  # the paper's
PROMPT = {"pawsx": pawsx_prompt, "xnli": xnli_prompt}
PAPER_PROMPT = {"pawsx": pawsx_prompt_paper, "xnli": xnli_prompt_paper}

# --- the authors' prompts, as we read their code --------------------------------------------------------------------

_XNLI_EN = (
    "Given the following sentence pair, which one of the following is true: (A) the first sentence entails the second "
    "sentence, (B) the first sentence contradicts the second sentence, or (C) neither of the two?"
)
_XNLI_DE = (
    "Welche dieser Aussagen trifft auf das folgende Satzpaar zu: (A) der erste Satz impliziert den zweiten Satz, (B) "
    "der erste Satz widerspricht dem zweiten Satz, oder (C) keines von beiden?"
)
# (family, instruction version) -> (prefix, suffix): the native instructions, then the model's translations that
# the authors entered by hand for the T and I runs (`<target>_from_<source>`).
AUTHORS = {
    ("pawsx", "en"): ("Do the following sentences have the same meaning?", ' Please answer with "yes" or "no".'),
    ("pawsx", "de"): ("Haben die folgenden Sätze die gleiche Bedeutung?", ' Bitte antworte mit "ja" oder "nein".'),
    ("pawsx", "zh"): ("下面的句子有着相同的含义吗？", " 请用“是”或者“否”回答。"),
    ("xnli", "en"): (_XNLI_EN, ' Please answer with "A", "B", or "C".'),
    ("xnli", "de"): (_XNLI_DE, ' Bitte antworte mit "A", "B" oder "C".'),
    ("xnli", "zh"): (
        "对于给出的一对句子，以下哪一个选项是正确的：（A）第一个句子涵盖了第二个句子 "
        "（B）第一个句子与第二个句子矛盾 （C）两者都不？",
        " 请用“A”、“B”或“C”来回答。",
    ),
    ("pawsx", "de_from_en"): ("Haben die folgenden Sätze die gleiche Bedeutung?",
                              ' Bitte antworten Sie mit "Ja" oder "Nein".'),
    ("pawsx", "zh_from_en"): ("以下句子的意思相同吗？", " 请用“是”或“不是”回答。"),
    ("pawsx", "en_from_de"): ("Do the following sentences have the same meaning?",
                              " Please respond with 'yes' or 'no'."),
    ("pawsx", "en_from_zh"): ("Does the following sentence have the same meaning?",
                              " Please answer with 'yes' or 'no'."),
    ("xnli", "de_from_en"): (
        "Angesichts des folgenden Satzpaares, welche der folgenden Aussagen ist wahr: (A) Der erste Satz impliziert "
        "den zweiten Satz, (B) Der erste Satz widerspricht dem zweiten Satz oder (C) Keines von beiden?",
        ' Bitte antworten Sie mit "A", "B" oder "C".',
    ),
    ("xnli", "zh_from_en"): (
        "给定以下句子对，哪一个是正确的：（A）第一句蕴含第二句，（B）第一句与第二句相矛盾，还是（C）两者都不是？",
        ' 请用"A"、"B"或"C"回答。',
    ),
    ("xnli", "en_from_de"): (
        "Which of these statements applies to the following pair of sentences: (A) the first sentence implies the "
        "second sentence, (B) the first sentence contradicts the second sentence, or (C) neither of the above?",
        ' Please reply with "A", "B", or "C".',
    ),
    ("xnli", "en_from_zh"): (
        "For a given pair of sentences, which of the following options is correct: (A) The first sentence covers the "
        "second sentence. (B) The first sentence contradicts the second sentence. (C) Neither of them?",
        ' Please answer with "A", "B", or "C".',
    ),
}  # fmt: skip
# Their word for "Sentence" is fixed per instruction language, for the model-translated instructions too.
AUTHORS_WORD = {"en": "Sentence", "de": "Satz", "zh": "句子"}
# Their translation instruction: a line in the source language naming the target, then ": " and a line break.
AUTHORS_ASK = {
    "en": "Please translate the following text into {}",
    "de": "Bitte übersetze den folgenden Text ins {}",
    "zh": "请将下面的文字翻译成{}",
    "es": "Por favor, traduzca el siguiente texto al {}",
}
AUTHORS_NAMES = {"en": {"de": "German", "zh": "Chinese", "es": "Spanish"}, "de": {"en": "Englische"},
                 "zh": {"en": "英语"}, "es": {"en": "inglés"}}  # fmt: skip
AUTHORS_DIRECTIONS = [(s, t) for s, names in AUTHORS_NAMES.items() for t in names]


def authors_prompt(version: tuple[str, str], word_language: str, first: str, second: str) -> str:
    """Their task prompt: the prefix, each sentence after a space, its word and number, in double quotes, then the
    suffix (which starts with its own space)."""
    prefix, suffix = AUTHORS[version]
    word = AUTHORS_WORD[word_language]
    return prefix + "".join(f' {word} {n}: "{s}"' for n, s in ((1, first), (2, second))) + suffix


def authors_request(text: str, source: str, target: str, piece: bool) -> str:
    """Their translation request: an instruction piece is quoted, a task input is sent as it is."""
    ask = AUTHORS_ASK[source].format(AUTHORS_NAMES[source][target]) + ": \n"
    return ask + (f'"{text}"' if piece else text)


def pieces(version: tuple[str, str], word: str) -> dict[str, str]:
    """Instruction pieces as a T/I document carries them (the suffix without the joining space)."""
    prefix, suffix = AUTHORS[version]
    return {"prefix": prefix, "suffix": suffix.lstrip(" "), "sentence_word": word}


SOURCE = {  # two inputs per language, one document each
    "en": ("The bridge was built in 1905.", 'He said "no" twice.'),
    "de": ("Die Brücke wurde 1905 gebaut.", 'Er sagte zweimal "nein".'),
    "zh": ("这座桥建于1905年。", "他说了两次“不”。"),
}


def document(family: str, language: str, inputs: tuple[str, str], instruction_language: str) -> dict:
    """A task document as `tasks.load` builds it: the inputs with the native instruction of `instruction_language`."""
    record = dict(zip(prompts.INPUT_FIELDS[family], inputs, strict=True)) | {"label": 0}
    return with_instruction(record, INSTRUCTIONS[family][instruction_language], instruction_language)


# --- the default: the authors' code ---------------------------------------------------------------------------------


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_native_instructions_are_the_authors(family, language):
    prefix, suffix = AUTHORS[family, language]
    instruction = INSTRUCTIONS[family][language]
    assert (instruction.prefix, " " + instruction.suffix, instruction.sentence) == (
        prefix,
        suffix,
        AUTHORS_WORD[language],
    )


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_original_prompts_are_the_authors(family, language):
    doc = document(family, language, SOURCE[language], language)
    assert PROMPT[family](doc) == authors_prompt((family, language), language, *SOURCE[language])


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize(("source", "target"), DIRECTIONS)
def test_translated_conditions_are_the_authors(family, source, target):
    """T, I and X (and Table 9's I_native) from one source document, with the pieces the authors used for T and I;
    the model's word for "Sentence" ("The sentence.", as zh->en XNLI gave it) is not used, as in their code."""
    declaration = DECLARATIONS[f"xsense_{family}"]
    docs = {0: document(family, source, SOURCE[source], source)}
    translated = dict(zip(declaration.inputs, (f"[{target}] {s}" for s in SOURCE[source]), strict=True))
    version = (family, f"{target}_from_{source}")
    composed = translation.conditions(declaration, docs, {0: translated}, pieces(version, "The sentence."), target)
    t, i, x = (PROMPT[family](composed[name][0]) for name in ("T", "I", "X"))
    assert t == authors_prompt(version, target, *translated.values())
    assert i == authors_prompt(version, target, *SOURCE[source])
    assert x == authors_prompt((family, source), source, *translated.values())
    native = translation.native_instruction(declaration, docs, target)[0]
    assert PROMPT[family](native) == authors_prompt((family, target), target, *SOURCE[source])


def _released(family: str) -> Path:
    return selftrans.folder("instruction", DECLARATIONS[f"xsense_{family}"].released, "en", "de").parents[1]


@pytest.mark.skipif(
    not all(_released(f).is_dir() for f in FAMILIES),
    reason="the paper's released translations are not in the raw data folder (LM_EVAL_XLING_RAW, ../shared/data)",
)
@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize(("source", "target"), DIRECTIONS)
def test_t_and_i_on_the_released_translations_are_the_authors(family, source, target):
    """`--translations paper`: the released replies to the instruction pieces, cleaned, give the T and I prompts the
    authors sent (their hand-entered pieces)."""
    declaration = DECLARATIONS[f"xsense_{family}"]
    replies = selftrans.instruction(declaration.released, source, target)
    asked = dict(zip(declaration.instruction(source), replies, strict=True)) | {"instruction_language": target}
    doc = document(family, source, SOURCE[source], source) | asked
    assert PROMPT[family](doc) == authors_prompt((family, f"{target}_from_{source}"), target, *SOURCE[source])


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize(("source", "target"), DIRECTIONS)
def test_translation_requests_are_the_authors(family, source, target):
    declaration = DECLARATIONS[f"xsense_{family}"]
    docs = {0: document(family, source, SOURCE[source], source)}
    requests = translation.requests(declaration, docs, source, target, references=None)
    prefix, suffix = AUTHORS[family, source]
    expected = [authors_request(text, source, target, piece=True) for text in (prefix, suffix, AUTHORS_WORD[source])]
    expected += [authors_request(text, source, target, piece=False) for text in SOURCE[source]]
    assert [prompts.request_prompt(r) for r in requests] == expected
    back = translation.round_trip(requests, {r["key"]: f"[{target}]" for r in requests})
    assert [prompts.request_prompt(r) for r in back] == [authors_request(f"[{target}]", target, source, False)] * 2


@pytest.mark.parametrize(("source", "target"), AUTHORS_DIRECTIONS)
def test_every_direction_of_the_authors_is_theirs(source, target):
    """Every direction the authors' code can ask that the package has (en<->es too: xstorycloze)."""
    text = "Un texto."
    request = {"key": "0/input_sentence_1", "text": text, "source_language": source, "target_language": target}
    assert prompts.request_prompt(request) == authors_request(text, source, target, piece=False)
    assert prompts.translation_prompt(text, source, target, piece=True) == authors_request(text, source, target, True)


def test_the_default_tasks_render_the_authors_prompts():
    """The YAMLs wire the renderers: xsense_translate sends the authors' requests."""
    translate = load_yaml(TASK_DIR / "xsense_translate.yaml")
    assert translate["doc_to_text"] is prompts.request_prompt
    for family in FAMILIES:
        for language in LANGUAGES:
            config = load_yaml(TASK_DIR / f"xsense_{family}_{language}.yaml")
            doc = document(family, language, SOURCE[language], language)
            assert config["doc_to_text"](doc) == authors_prompt((family, language), language, *SOURCE[language])


# --- the paper's wording, under its own names -----------------------------------------------------------------------

PAPER = {  # Table 6, the quotes straight (the paper prints every quote curly, the code's straight ones too)
    ("pawsx", "en"): (
        'Do the following sentences have the same meaning? Sentence 1: "{}" Sentence 2: "{}" '
        'Please answer with "yes" or "no".'
    ),
    ("pawsx", "zh"): '下面的句子有着相同的含义吗？句子1: "{}" 句子2: "{}" 请用“是”或者“否”回答。',
    ("xnli", "de"): _XNLI_DE + ' Satz 1: "{}" Satz 2: "{}" Bitte antworte mit "A", "B" oder "C".',
    ("xnli", "zh"): (
        "对于给出的一对句子，以下哪一个选项是正确的：（A）第一个句子涵盖了第二个句子"
        "（B）第一个句子与第二个句子矛盾（C）两者都不？"
        '句子1: "{}" 句子2: "{}" 请用“A”、“B”或“C”来回答。'
    ),
    ("xnli", "de_from_en"): (
        "Angesichts des folgenden Satzpaars, welche der folgenden Aussagen ist wahr: (A) Der erste Satz impliziert "
        "den zweiten Satz, (B) Der erste Satz widerspricht dem zweiten Satz oder (C) Keines von beiden? "
        'Satz 1: "{}" Satz 2: "{}" Bitte antworten Sie mit "A", "B" oder "C".'
    ),
    ("pawsx", "zh_from_en"): '以下句子的意思相同吗？句子1: "{}" 句子2: "{}" 请用“是”或“不是”回答。',
}  # fmt: skip


@pytest.mark.parametrize(("family", "language"), [k for k in PAPER if "_" not in k[1]])
def test_paper_variant_renders_the_papers_native_prompts(family, language):
    doc = document(family, language, SOURCE[language], language)
    assert PAPER_PROMPT[family](doc) == PAPER[family, language].format(*SOURCE[language])
    config = load_yaml(TASK_DIR / f"xsense_{family}_paper_{language}.yaml")
    assert config["task"] == f"xsense_{family}_paper_{language}" and config["doc_to_text"](doc) == PAPER_PROMPT[family](
        doc
    )


@pytest.mark.parametrize(("family", "version"), [k for k in PAPER if "_" in k[1]])
def test_paper_variant_renders_table_6_for_i(family, version):
    """I en->de XNLI as Table 6 prints it ("Satzpaars"), I en->zh PAWS-X in the Chinese layout; the instruction's
    own word for "Sentence" (the one in instruction.json)."""
    target = version.split("_")[0]
    doc = document(family, "en", SOURCE["en"], "en") | pieces((family, version), AUTHORS_WORD[target])
    doc["instruction_language"] = target
    assert PAPER_PROMPT[family](doc) == PAPER[family, version].format(*SOURCE["en"])
    broken = doc | {"sentence_word": "The sentence."}  # as zh->en XNLI translated it: the paper variant keeps it
    assert "The sentence." in PAPER_PROMPT[family](broken) and "The sentence." not in PROMPT[family](broken)


PAPER_ASK = {  # Appendix C
    ("en", "de"): "Please translate the following text into German:",
    ("en", "zh"): "Please translate the following text into Chinese:",
    ("de", "en"): "Bitte übersetze den folgenden Text ins Englische:",
    ("zh", "en"): "请将下面的文字翻译成英语:",
}


@pytest.mark.parametrize(("source", "target"), DIRECTIONS)
def test_paper_variant_quotes_every_text_on_the_instruction_line(source, target):
    """Appendix C: `Please translate the following text into German: "[text]"`."""
    line = PAPER_ASK[source, target]
    docs = {0: document("pawsx", source, SOURCE[source], source)}
    requests = translation.requests(DECLARATIONS["xsense_pawsx_paper"], docs, source, target, references=None)
    texts = [*INSTRUCTIONS["pawsx"][source].fields().values(), *SOURCE[source]]
    assert [prompts.request_prompt_paper(r) for r in requests] == [f'{line} "{text}"' for text in texts]
    config = load_yaml(TASK_DIR / "xsense_translate_paper.yaml")
    assert config["task"] == "xsense_translate_paper" and config["doc_to_text"] is prompts.request_prompt_paper


def test_paper_variant_is_declared_for_consistency_runs():
    for family in FAMILIES:
        declaration = DECLARATIONS[f"xsense_{family}_paper"]
        assert declaration.translator == "xsense_translate_paper"
        assert declaration.tasks == {lang: f"xsense_{family}_paper_{lang}" for lang in LANGUAGES}
        assert DECLARATIONS[f"xsense_{family}"].translator == "xsense_translate"
        assert find(f"xsense_{family}_paper_zh") == (declaration, "zh")
        group = load_yaml(TASK_DIR / f"_xsense_{family}_paper.yaml")
        assert group["group"] == f"xsense_{family}_paper" and group["task"] == list(declaration.tasks.values())
