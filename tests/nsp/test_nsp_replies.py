"""NSP scoring on the real replies behind the paper's Table 2 (English; ../shared/data/nsp/replies).

The replies CSV holds, per question of the English 1000 subset, each model's direct reply and its CoT reply as
the authors' extractor split it into reasoning and answer. The whole CoT reply is reasoning + "\\n" + answer
unless the reasoning already ends with that letter (the authors' fallback kept the whole reply as reasoning).
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest
from lm_eval.api.model import LM
from lm_eval.api.registry import register_model
from support.common import RAW

from lm_eval_xling.choices import read_choice as extract_choice
from lm_eval_xling.nsp import tasks as nsp

REPLIES = RAW / "nsp" / "replies" / "NSP_QUESTIONS_WITH_ANSWERS_EN_1000_COT.csv"
MODELS = ("gpt", "gemini", "llama")
# The paper's Table 2, English, 1000-question subset: accuracy % (direct, CoT).
TABLE_2 = {"gpt": (82.5, 83.0), "gemini": (82.7, 80.2), "llama": (82.6, 82.3)}

needs_replies = pytest.mark.skipif(not REPLIES.is_file(), reason=f"real NSP replies not found at {REPLIES}")


def whole_cot_reply(reasoning: str, answer: str) -> str:
    """The CoT reply the model wrote, rebuilt from the authors' (reasoning, answer) split."""
    if re.search(rf"\b{answer}\b[\"']?$", reasoning.strip(), re.IGNORECASE):
        return reasoning
    return f"{reasoning}\n{answer}"


def read_replies() -> list[dict[str, str]]:
    with REPLIES.open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def _doc(row: dict[str, str]) -> dict[str, str]:
    return {"context": row["context"], "option_a": row["option_A"], "option_b": row["option_B"]}


@register_model("nsp-stored-replies")
class StoredRepliesLM(LM):
    """Answers each NSP prompt with the reply a paper model (model_args model=gpt|gemini|llama) stored for it."""

    def __init__(self, model: str = "gpt", **_: object) -> None:
        super().__init__()
        self._replies = {}
        for row in read_replies():
            doc = _doc(row)
            self._replies[nsp.direct_prompt(doc)] = row[f"{model}_answer"]
            cot = whole_cot_reply(row[f"{model}_reasoning_COT"], row[f"{model}_answer_COT"])
            self._replies[nsp.cot_prompt(doc)] = cot

    def generate_until(self, requests) -> list[str]:
        return [self._replies[req.args[0]] for req in requests]

    def loglikelihood(self, requests):
        raise NotImplementedError("stored replies answer generation tasks only")

    loglikelihood_rolling = loglikelihood


@needs_replies
def test_extraction_agrees_with_the_authors_on_every_cot_reply() -> None:
    """>= 99.5% of the 3000 CoT replies read as the authors' answer column, and never the opposite letter."""
    agree = opposite = 0
    rows = read_replies()
    for row in rows:
        for model in MODELS:
            authors = row[f"{model}_answer_COT"]
            ours = extract_choice(whole_cot_reply(row[f"{model}_reasoning_COT"], authors))
            agree += ours == authors
            opposite += ours not in (None, authors)
    assert opposite == 0
    assert agree / (len(rows) * len(MODELS)) >= 0.995


@pytest.fixture(scope="module")
def english_1k(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data root holding the paper's English 1000 subset (as both splits: only test_1k is evaluated)."""
    from lm_eval_xling.data import write_split
    from lm_eval_xling.data.builders import builders
    from lm_eval_xling.nsp.schema import NSP

    root = tmp_path_factory.mktemp("nsp_data")
    records = builders()["nsp"].read_paper_subset(RAW / "nsp" / "nsp_en_1000.csv", "en")
    for split in NSP.splits:
        write_split(root, NSP, "en", split, records)
    return root


@needs_replies
@pytest.mark.parametrize("model", MODELS)
def test_replayed_replies_give_table_2(model: str, english_1k: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Through lm_eval, the stored replies score the paper's English direct (+-0.5 pt) and CoT (+-1 pt) values."""
    from lm_eval import simple_evaluate

    monkeypatch.setenv("LM_EVAL_XLING_DATA", str(english_1k))
    out = simple_evaluate(
        model="nsp-stored-replies",
        model_args=f"model={model}",
        tasks=["nsp_english_1k", "nsp_english_cot_1k"],
        bootstrap_iters=0,
    )
    direct, cot = TABLE_2[model]
    results = out["results"]
    assert results["nsp_english_1k"]["acc,extract"] * 100 == pytest.approx(direct, abs=0.5)
    assert results["nsp_english_cot_1k"]["acc,extract"] * 100 == pytest.approx(cot, abs=1.0)
    assert results["nsp_english_cot_1k"]["invalid,extract"] <= 0.005
