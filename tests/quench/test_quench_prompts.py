"""Every QUENCH prompt (the six model-facing stages and the two judge prompts) against the authors' own scripts.

The authors' strings are read from their files with `ast` (nothing of theirs is copied here) and put together the
way their scripts do: `Closed_Source_Inference.py` sends preamble + stage instruction + "\\n" + question as one user
message; `Open_Weight_Inference_via_Groq.py` sends the preamble as a system message and instruction + " " + question
as the user message. Ours is one text, so it may differ from either only in whitespace (their CoT concatenation
leaves "answer.  Let's think step by step.The question"); the judge prompts must be identical.
"""

from __future__ import annotations

import ast
import difflib
import json
import os
from pathlib import Path

import pytest
from support.common import RAW

from lm_eval_xling.quench import tasks as quench

REFERENCE = Path(os.environ.get("LM_EVAL_XLING_REFERENCE", RAW.parent / "reference")) / "authors_code" / "quench"
pytestmark = pytest.mark.skipif(
    not REFERENCE.is_dir(), reason=f"the QUENCH authors' code not found at {REFERENCE} (set LM_EVAL_XLING_REFERENCE)"
)

DOCS = [
    {
        "variable": "X",
        "question": "X is the river through Y.",
        "answer": "Thames",
        "prediction": "The answer is <X Thames>",
    },
    {"variable": "Y", "question": "X is the river through Y.", "answer": "London", "prediction": "Y: {London}\nsure"},
    {"variable": "Z", "question": "Name Z, the 'city of lakes'.", "answer": "Bhopal", "prediction": ""},
]


def _strings(source: str) -> dict[str, list[str]]:
    """Every string constant assigned (=, +=) to each name, in file order."""
    found: dict[str, list[str]] = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Assign | ast.AugAssign) and isinstance(node.value, ast.Constant):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name) and isinstance(node.value.value, str):
                    found.setdefault(target.id, []).append(node.value.value)
    return found


@pytest.fixture(scope="module")
def closed():
    return _strings((REFERENCE / "LLM_Inference" / "Closed_Source_Inference.py").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def groq():
    return _strings((REFERENCE / "LLM_Inference" / "Open_Weight_Inference_via_Groq.py").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def judges():
    notebook = json.loads((REFERENCE / "Evaluation" / "Eval_via_LLM.ipynb").read_text(encoding="utf-8"))
    code = "\n".join("".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "code")
    return _strings(code)


STAGES = [  # (our prompt function, the authors' instruction variable, its arguments, CoT)
    (quench.entity_prompt, "answer_pred_preprompt", lambda d: [d["variable"]], False),
    (quench.entity_cot_prompt, "answer_pred_preprompt", lambda d: [d["variable"]], True),
    (quench.rationale_gold_prompt, "gold_rationale_preprompt", lambda d: [d["variable"], d["answer"]], False),
    (quench.rationale_gold_cot_prompt, "gold_rationale_preprompt", lambda d: [d["variable"], d["answer"]], True),
    (quench.rationale_pred_prompt, "pred_rationale_preprompt", lambda d: [d["variable"], d["prediction"]], False),
    (quench.rationale_pred_cot_prompt, "pred_rationale_preprompt", lambda d: [d["variable"], d["prediction"]], True),
]


def _whitespace_only(ours: str, theirs: str) -> None:
    changed = [op for op in difflib.ndiff([ours], [theirs]) if op[0] in "+-"]
    assert "".join(ours.split()) == "".join(theirs.split()), "\n".join(changed)


@pytest.mark.parametrize(("ours", "name", "args", "cot"), STAGES)
@pytest.mark.parametrize("doc", DOCS)
def test_stage_prompts_differ_from_the_authors_only_in_whitespace(closed, groq, doc, ours, name, args, cot):
    cot_phrase = groq["cot_addition"][0]
    preamble = closed["preprompt"][-2] + (closed["preprompt"][-1] if cot else "")  # "" first, then the quizmaster
    instruction = closed[name][0].format(*args(doc))
    _whitespace_only(ours(doc), preamble + instruction + "\n" + doc["question"])
    system = groq["sys_prompt"][0] + (cot_phrase if cot else "")
    _whitespace_only(ours(doc), system + " " + groq[name][0].format(*args(doc)) + " " + doc["question"])
    assert groq[name][0] == closed[name][0]


def test_cot_phrase_closes_the_preamble(closed):
    prompt = quench.entity_cot_prompt(DOCS[0])
    assert prompt.index(closed["preprompt"][-1].strip()) < prompt.index("The question can have")
    assert prompt.count("step by step") == 1


@pytest.mark.parametrize(
    ("ours", "name", "slot"),
    [
        (quench.ENTITY_JUDGE_PROMPT, "prompt_for_variable_predictions", "<answer_given_by_contestant>"),
        (quench.RATIONALE_JUDGE_PROMPT, "prompt_for_rationale_predictions", "<rationale_given_by_contestant>"),
    ],
)
def test_judge_prompts_are_the_authors(judges, ours, name, slot):
    theirs = judges[name][0]
    assert ours == theirs
    filled = quench.judge_prompt(ours, "Q <true_answer>?", "Gold", "The answer is <X Gold>")
    expected = theirs.replace("<question>", "Q <true_answer>?").replace("<true_answer>", "Gold")
    assert filled == expected.replace(slot, "The answer is <X Gold>")
