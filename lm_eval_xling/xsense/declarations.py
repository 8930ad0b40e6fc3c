"""What self-translation consistency needs to know of a task: its declaration.

`lm-eval-xling consistency run` works on any lm-eval task that declares, per language, which task asks it, which
document fields are the inputs the model translates, which fields hold instruction pieces (and their text in each
language that has a native-speaker version), where the answer language is recorded, and whether the languages'
test sets are translations of each other (then the target language's documents are the reference translations,
paired with the source documents by position or by a document field that names the item in every language).
The pipeline has no branch for any particular task: PAWS-X, XNLI, NSP, NSP Global and lm-eval's own xstorycloze
are declarations of this kind. The translated runs are zero-shot (few-shot examples would stay untranslated), so
declare zero-shot tasks.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from lm_eval_xling.errors import UserError
from lm_eval_xling.xsense.prompts import INPUT_FIELDS, INSTRUCTIONS


@dataclass(frozen=True)
class Translatable:
    name: str  # the task family, as tables show it
    tasks: Mapping[str, str]  # language -> the lm-eval task that asks it
    inputs: tuple[str, ...]  # document fields the model translates
    # language -> {document field: text}: the instruction pieces; the source language's are translated, a target
    # language's (a native speaker's) make the I_native run. Empty: the task has no instruction of its own.
    instructions: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    language_field: str | None = None  # document field naming the language whose answer words the task accepts
    parallel: bool = True  # the languages' test sets are translations of each other, item by item
    # document field naming the item in every language (a language may lack some); None: paired by position
    pair_field: str | None = None
    sentences: tuple[str, ...] = ()  # inputs translated sentence by sentence when long
    options: tuple[str, ...] = ()  # inputs that are the answer options: two translated alike make the item invalid
    released: str | None = None  # folder of the paper's released translations (selftrans), where there are some
    translator: str = "xsense_translate"  # the lm-eval task of the translation stage (its requests' wording)

    def task(self, language: str) -> str:
        try:
            return self.tasks[language]
        except KeyError:
            raise UserError(f"{self.name} is declared for {sorted(self.tasks)}, not {language!r}") from None

    def instruction(self, language: str) -> dict[str, str]:
        """The instruction pieces in `language` ({} where there is none)."""
        return dict(self.instructions.get(language, {}))


def _paper(family: str, released: str, wording: str = "") -> Translatable:
    """PAWS-X or XNLI: prompts as the authors' code sends them, or with `wording="paper"` as the paper prints them
    (tasks `xsense_<family>_paper_<language>`, translation requests of `xsense_translate_paper`)."""
    variant = f"_{wording}" if wording else ""
    return Translatable(
        name=family + variant,
        tasks={language: f"xsense_{family}{variant}_{language}" for language in INSTRUCTIONS[family]},
        inputs=INPUT_FIELDS[family],
        instructions={language: text.fields() for language, text in INSTRUCTIONS[family].items()},
        language_field="instruction_language",
        released=released,
        translator=f"xsense_translate{variant}",
    )


def _nsp(split: str) -> Translatable:
    from lm_eval_xling.nsp.tasks import DIRECT_PIECES

    return Translatable(
        name="nsp",
        tasks={"en": f"nsp_english{split}", "sw": f"nsp_swahili{split}", "ha": f"nsp_hausa{split}"},
        inputs=("context", "option_a", "option_b"),
        instructions={"en": DIRECT_PIECES},
        parallel=False,  # each language has its own stories
        sentences=("context",),
        options=("option_a", "option_b"),
    )


def _nsp_global() -> Translatable:
    """NSP's direct task on page-aligned human translations of the same stories: the target language's document
    with the source document's `id` is its reference translation (a language may lack some stories)."""
    from lm_eval_xling.nsp.tasks import DIRECT_PIECES
    from lm_eval_xling.nsp_global.languages import LANGUAGES

    return Translatable(
        name="nsp_global",
        tasks={language: f"nsp_global_{language}" for language in LANGUAGES},
        inputs=("context", "option_a", "option_b"),
        instructions={"en": DIRECT_PIECES},
        pair_field="id",
        # contexts are sent whole, not sentence by sentence as NSP's: the human versions align by page, not by
        # sentence, so only a whole context has its reference translation
        options=("option_a", "option_b"),
    )


# lm-eval's own xstorycloze: the story and its two endings; no instruction; the languages are parallel.
XSTORYCLOZE = Translatable(
    name="xstorycloze",
    tasks={language: f"xstorycloze_{language}" for language in ("en", "es", "sw", "zh")},
    inputs=(*(f"input_sentence_{i}" for i in range(1, 5)), "sentence_quiz1", "sentence_quiz2"),
    options=("sentence_quiz1", "sentence_quiz2"),
)

DECLARATIONS = {
    "xsense_pawsx": _paper("pawsx", "individual_tasks/paws-x"),
    "xsense_xnli": _paper("xnli", "xglue/xnli"),
    "xsense_pawsx_paper": _paper("pawsx", "individual_tasks/paws-x", "paper"),
    "xsense_xnli_paper": _paper("xnli", "xglue/xnli", "paper"),
    "nsp": _nsp(""),
    "nsp_1k": _nsp("_1k"),
    "nsp_global": _nsp_global(),
    "xstorycloze": XSTORYCLOZE,
}


def find(task: str) -> tuple[Translatable, str | None]:
    """The declaration a `--task` names (its key, or one of its tasks) and, for a task, its language."""
    if task in DECLARATIONS:
        return DECLARATIONS[task], None
    for declaration in DECLARATIONS.values():
        for language, name in declaration.tasks.items():
            if name == task:
                return declaration, language
    raise UserError(
        f"no translation declaration for {task!r}; declared: {', '.join(DECLARATIONS)} (or one of their tasks, "
        "e.g. nsp_english_1k, nsp_global_en)"
    )
