"""NSP (next-sentence prediction on children's stories): prompts, answer filter and per-document metrics."""

from __future__ import annotations

from typing import Any

import datasets

from lm_eval_xling.choices import read_choice
from lm_eval_xling.data import load_dataset
from lm_eval_xling.metrics import INVALID
from lm_eval_xling.nsp.schema import NSP
from lm_eval_xling.reader_model import ReaderModelTask, split_reading

# The prompts of the authors' scripts, verbatim (the replies behind the paper's Table 2 answer these, not the
# appendix's variant, which puts the two options and the instruction on consecutive lines). The instruction's
# pieces are document fields where a document carries them (a model-translated NSP question, see xsense), else these.
_QUESTION = "{nsp_intro}\n\n{context}\n\n{nsp_question}\n\nA: {opt_a}\n\nB: {opt_b}\n\n"
DIRECT_PIECES = {
    "nsp_intro": "Given the following story context:",
    "nsp_question": "Which sentence comes next?",
    "nsp_answer": (
        "Only reply with a single letter: A or B. Do not say Neither, you have to reply with a single letter."
    ),
}
# Chain-of-thought instruction by reasoning language; the paper reports English reasoning only.
_COT = {
    "en": "First, provide a step-by-step reasoning in English explaining which sentence is a more logical "
    "continuation of the story. After your reasoning, on a new line, state your final answer as only a single "
    "letter: A or B.",
    "sw": "Kwanza, toa sababu hatua kwa hatua kwa lugha ya Kiswahili ukieleza ni sentensi ipi inayoendeleza hadithi "
    "kimantiki zaidi. Baada ya maelezo yako, kwenye mstari mpya, taja jibu lako la mwisho kama herufi moja tu: A au B.",
    "ha": "Da farko, bayar da dalili mataki-mataki a cikin harshen Hausa da ke bayanin wace jumla ce ta fi dacewa "
    "da ci gaban labarin. Bayan ka bayar da dalilinka, a kan sabon layi, bayyana amsarka ta karshe da harafi guda "
    "daya kawai: A ko B.",
}


def load(subset: str, **_: Any) -> datasets.DatasetDict:
    """custom_dataset hook: one language of lm-eval-xling/nsp (Hub, or LM_EVAL_XLING_DATA)."""
    return load_dataset(NSP, subset)


def _piece(doc: dict, name: str) -> str:
    return doc.get(name) or DIRECT_PIECES[name]


def _question(doc: dict) -> str:
    pieces = {name: _piece(doc, name) for name in ("nsp_intro", "nsp_question")}
    return _QUESTION.format(**pieces, context=doc["context"], opt_a=doc["option_a"], opt_b=doc["option_b"])


def direct_prompt(doc: dict) -> str:
    return _question(doc) + _piece(doc, "nsp_answer")


def cot_prompt(doc: dict) -> str:
    """Chain of thought, reasoning in English (the paper's setting for every language)."""
    return _question(doc) + _COT["en"]


def cot_prompt_swahili(doc: dict) -> str:
    """Chain of thought, reasoning in Swahili (the authors' script has it; the paper reports no numbers)."""
    return _question(doc) + _COT["sw"]


def cot_prompt_hausa(doc: dict) -> str:
    """Chain of thought, reasoning in Hausa (the authors' script has it; the paper reports no numbers)."""
    return _question(doc) + _COT["ha"]


def ll_context(doc: dict) -> str:
    """Loglikelihood variant: the story context, scored against each option as its continuation."""
    return doc["context"]


def ll_options(doc: dict) -> list[str]:
    return [doc["option_a"], doc["option_b"]]


def ll_answer(doc: dict) -> int:
    return "AB".index(doc["label"])


def story_language(doc: dict) -> str | None:
    """The language the story is told in: NSP Global's `language`; NSP's ids begin with it ("ha-00042")."""
    return doc.get("language") or str(doc.get("id", "")).split("-")[0] or None


def extract_answers(resps: list[list[str]], docs: list[dict]) -> list[list[str]]:
    """Filter: each raw reply becomes the option it commits to, "A" or "B", or INVALID (choices.read_choice, with
    the story language's words)."""
    return [
        [
            read_choice(r, ("A", "B"), (doc["option_a"], doc["option_b"]), language=story_language(doc)) or INVALID
            for r in doc_resps
        ]
        for doc_resps, doc in zip(resps, docs, strict=True)
    ]


class NSPTask(ReaderModelTask):
    """The generative NSP tasks: with `--metadata '{"reader": ...}'` a reader model reads what the rules left
    invalid (reader_model.py)."""

    def option_texts(self, doc: dict) -> list[str]:
        return [doc["option_a"], doc["option_b"]]


def process_results(doc: dict, results: list[str]) -> dict[str, float]:
    """accuracy (an invalid answer counts as wrong), the invalid-answer rate, and that rate before a reader model
    read the rest (`invalid_rules`; the same without one)."""
    answer, by_model = split_reading(results[0])
    invalid = float(answer == INVALID)
    return {"acc": float(answer == doc["label"]), "invalid": invalid, "invalid_rules": max(invalid, float(by_model))}
