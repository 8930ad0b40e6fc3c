"""NSP (next-sentence prediction on children's stories): prompts, answer filter and per-document metrics."""

from __future__ import annotations

from typing import Any

import datasets

from lm_eval_xling.data import load_dataset
from lm_eval_xling.parsing.choice import extract_choice
from lm_eval_xling.schemas import NSP

INVALID = "[invalid]"

# The source paper's prompts, verbatim.
_QUESTION = "Given the following story context:\n\n{context}\n\nWhich sentence comes next?\n\nA: {opt_a}\nB: {opt_b}\n"
_DIRECT = "Only reply with a single letter: A or B. Do not say Neither, you have to reply with a single letter."
_COT = "Explain your process step by step and end with your final answer."


def load(subset: str, **_: Any) -> datasets.DatasetDict:
    """custom_dataset hook: one language of lm-eval-xling/nsp (Hub, or LM_EVAL_XLING_DATA)."""
    return load_dataset(NSP, subset)


def _question(doc: dict) -> str:
    return _QUESTION.format(context=doc["context"], opt_a=doc["option_a"], opt_b=doc["option_b"])


def direct_prompt(doc: dict) -> str:
    return _question(doc) + _DIRECT


def cot_prompt(doc: dict) -> str:
    return _question(doc) + _COT


def extract_answers(resps: list[list[str]], docs: list[dict]) -> list[list[str]]:
    """Filter: each raw reply becomes "A", "B" or INVALID."""
    return [[extract_choice(r) or INVALID for r in doc_resps] for doc_resps in resps]


def process_results(doc: dict, results: list[str]) -> dict[str, float]:
    """accuracy (an invalid answer counts as wrong) and the invalid-answer rate."""
    answer = results[0]
    return {"acc": float(answer == doc["label"]), "invalid": float(answer == INVALID)}
