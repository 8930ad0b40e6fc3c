"""Hooks of the xsense task YAMLs: datasets, prompts, answer standardisation and scores.

Each document carries the instruction it is asked with (`prefix`, `suffix`, `sentence_word`,
`instruction_language`): the native one for the original tasks, the model's own translation in a translated run
(`lm-eval-xling consistency run` gives the task those documents), so one task definition serves both.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import datasets

from lm_eval_xling.data import DatasetSpec, Field, jsonl_lines, load_dataset
from lm_eval_xling.errors import UserError
from lm_eval_xling.metrics import INVALID
from lm_eval_xling.metrics.overlap import corpus_bleu, corpus_chrf
from lm_eval_xling.xsense.answers import LABEL_WORDS, read_answer, standardize
from lm_eval_xling.xsense.prompts import INPUT_FIELDS, INSTRUCTIONS, Instruction, compose, compose_paper
from lm_eval_xling.xsense.schema import PAWSX, XNLI
from lm_eval_xling.xsense.translation_reply import clean_translation

SPECS = {"pawsx": PAWSX, "xnli": XNLI}
TRANSLATION_REQUEST = {
    "key": Field(str),
    "source_language": Field(str),
    "target_language": Field(str),
    "text": Field(str),
    "reference": Field(str, nullable=True),  # the human version in the target language, for inputs
}


def with_instruction(record: dict[str, Any], instruction: Instruction, language: str) -> dict[str, Any]:
    return record | instruction.fields() | {"instruction_language": language}


def read_docs(path: Path, fields: dict[str, Field]) -> list[dict[str, Any]]:
    """Records of a JSONL docs file, checked against `fields`; errors name the file, line and field."""
    spec = DatasetSpec(hub_id=str(path), subsets=(), splits=(), fields=fields)
    records = []
    for number, record in jsonl_lines(path):
        spec.check_record(record, "line", number)
        records.append(record)
    return records


def load(family: str, subset: str, **_: Any) -> datasets.DatasetDict:
    """custom_dataset hook: one language of PAWS-X/XNLI with its native instruction."""
    test = load_dataset(SPECS[family], subset)["test"]
    instruction = INSTRUCTIONS[family][subset]
    return datasets.DatasetDict({"test": test.map(lambda r: with_instruction(r, instruction, subset))})


def prompt(doc: dict[str, Any], family: str, render: Callable[..., str] = compose) -> str:
    """The document's prompt, laid out by `render` (`compose`: the authors' code; `compose_paper`: the paper)."""
    instruction = Instruction(doc["prefix"], doc["suffix"], doc["sentence_word"])
    first, second = (doc[name] for name in INPUT_FIELDS[family])
    return render(instruction, first, second, doc["instruction_language"])


def pawsx_prompt(doc: dict[str, Any]) -> str:
    return prompt(doc, "pawsx")


def xnli_prompt(doc: dict[str, Any]) -> str:
    return prompt(doc, "xnli")


def pawsx_prompt_paper(doc: dict[str, Any]) -> str:
    return prompt(doc, "pawsx", compose_paper)


def xnli_prompt_paper(doc: dict[str, Any]) -> str:
    return prompt(doc, "xnli", compose_paper)


def answer_languages(doc: dict[str, Any], family: str) -> list[str]:
    """The languages whose answer words a reply may use: the instruction's, then any other whose words its suffix
    quotes. The template answer is what the instruction asks for, and a model-translated suffix may keep the
    source words ('Bitte antworten Sie mit "yes" oder "no".'), as some of the paper's translations did."""
    first = doc["instruction_language"]
    suffix = doc["suffix"].casefold()
    quoted = [
        language
        for language, words in LABEL_WORDS[family].items()
        if language != first and any(re.search(rf"(?<!\w){re.escape(word)}(?!\w)", suffix) for word in words)
    ]
    return [first, *quoted]


def _answers(family: str, resps: list[list[str]], docs: list[dict], reader=standardize) -> list[list[int | str]]:
    """Each reply as the label `reader` reads in the first of its answer languages that gives one, else INVALID."""
    out = []
    for doc_resps, doc in zip(resps, docs, strict=True):
        languages = answer_languages(doc, family)
        labels = [
            next((x for lang in languages if (x := reader(r, family, lang)) is not None), INVALID) for r in doc_resps
        ]
        out.append(labels)
    return out


def pawsx_answers(resps: list[list[str]], docs: list[dict]) -> list[list[int | str]]:
    """Filter: each raw reply becomes the dataset label it stands for (1 paraphrase, 0 not) or INVALID."""
    return _answers("pawsx", resps, docs)


def xnli_answers(resps: list[list[str]], docs: list[dict]) -> list[list[int | str]]:
    """Filter: each raw reply becomes 0 entailment (A), 2 contradiction (B), 1 neutral (C) or INVALID."""
    return _answers("xnli", resps, docs)


def pawsx_answers_careful(resps: list[list[str]], docs: list[dict]) -> list[list[int | str]]:
    """Filter `careful`: the label of each reply's last explicit commitment (answers.read_answer), or INVALID."""
    return _answers("pawsx", resps, docs, read_answer)


def xnli_answers_careful(resps: list[list[str]], docs: list[dict]) -> list[list[int | str]]:
    """Filter `careful`: the label of each reply's last explicit commitment (answers.read_answer), or INVALID."""
    return _answers("xnli", resps, docs, read_answer)


def process_results(doc: dict[str, Any], results: list[Any]) -> dict[str, float]:
    """accuracy (an invalid answer counts as wrong) and the invalid-answer rate."""
    answer = results[0]
    return {"acc": float(answer == doc["label"]), "invalid": float(answer == INVALID)}


# --- the translation stage -----------------------------------------------------------------------------------


def load_translation_requests(docs: str | None = None, **_: Any) -> datasets.DatasetDict:
    """custom_dataset hook of xsense_translate: the texts to translate, from `--metadata '{"docs": ...}'`."""
    if not docs:
        raise UserError('xsense_translate needs --metadata \'{"docs": "<requests .jsonl>"}\' (see consistency run)')
    records = read_docs(Path(docs), TRANSLATION_REQUEST)
    return datasets.DatasetDict({"test": datasets.Dataset.from_list(records)})


def clean_translations(resps: list[list[str]], docs: list[dict]) -> list[list[str]]:
    """Filter form of `clean_translation`, with each request's source text and target language."""
    return [
        [clean_translation(r, doc.get("text"), doc.get("target_language")) for r in rs]
        for rs, doc in zip(resps, docs, strict=True)
    ]


def translation_results(doc: dict[str, Any], results: list[str]) -> dict[str, tuple]:
    item = (results[0], doc["reference"], doc["target_language"])
    return {"bleu": item, "chrf": item}


def _scored(items: list[tuple]) -> tuple[list[str], list[str], str]:
    pairs = [(hyp, ref) for hyp, ref, _ in items if ref is not None]
    language = items[0][2] if items else "en"
    return [h for h, _ in pairs], [r for _, r in pairs], language


def bleu(items: list[tuple]) -> float:
    """Corpus BLEU of the translated inputs against the human versions (instruction pieces have none)."""
    hyps, refs, language = _scored(items)
    return corpus_bleu(hyps, refs, language) if hyps else float("nan")


def chrf(items: list[tuple]) -> float:
    hyps, refs, _ = _scored(items)
    return corpus_chrf(hyps, refs) if hyps else float("nan")
