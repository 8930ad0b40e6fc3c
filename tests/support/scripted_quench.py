"""The evaluated QUENCH model and two judges as registered lm-eval models that reply from tables
(`quench-scripted`): the evaluated model answers the synthetic QUENCH of the conftest, each judge gives a set verdict
per gold answer (or fails), so every score can be computed by hand."""

from __future__ import annotations

import json
import re

import lm_eval.models  # noqa: F401 - lm-eval's own models first: it loads them only into an empty registry
from lm_eval.api.model import LM
from lm_eval.api.registry import register_model

FAIL = object()
# the evaluated model's reply per "question id::variable" (questions of the conftest's synthetic QUENCH)
REPLIES = {
    "X is the river that flows through the city of Y.::X": "The answer is <X Thames>",
    "X is the river that flows through the city of Y.::Y": "The answer is <X Paris>",
    "X wrote the national anthem of India.::X": "The answer is <X Rabindranath Tagore>",
    "The festival X is celebrated with lamps in India.::X": "The answer is <X Holi>",
    "X painted the ceiling of the Sistine Chapel.::X": "",  # no answer at all
    "X is the capital of France and Y its longest river.::X": "The answer is <X Paris>",
    "X is the capital of France and Y its longest river.::Y": "The answer is <X Seine>",
    "X is a dish of rice and lentils from South India.::X": "The answer is <X Pongal>",
}
# judge replies per gold answer (entity prompts) or gold rationale (rationale prompts)
JUDGE_A = {
    "Thames": "correct",
    "London": "incorrect",
    "Rabindranath Tagore": "**Correct**",
    "Diwali": "The correct answer is Diwali, so the contestant's answer is incorrect.",
    "Michelangelo": "incorrect",
    "Paris": "Correct.",
    "Loire": "I cannot tell from this.",  # unparsed
    "Pongal": FAIL,  # the judge fails after retries
    "The clue points to Thames.": "On a scale of 1 to 5, I give it 5",
    "The clue points to Diwali.": "0/5",  # unparsed: not a 1-5 score
}
JUDGE_B = {
    "Thames": "## Judgement\ncorrect",
    "London": "That's not right.",
    "Rabindranath Tagore": "correct",
    "Diwali": "correct",
    "Michelangelo": "incorrect",
    "Paris": "correct",
    "Loire": "incorrect",
    "Pongal": "correct",
}
TABLES = {"a": (JUDGE_A, "Score between 1 to 5: 4"), "b": (JUDGE_B, "3"), "self": ({}, "correct")}
GOLD = re.compile(r"## True (?:Answer|Rationale)\n(.*)\n")


@register_model("quench-scripted")
class ScriptedModel(LM):
    """The evaluated model (`table=model`) or a judge (`table=a|b|self`); judges log every prompt they read."""

    def __init__(self, table: str = "model", model: str = "", record: str = "", **_):
        super().__init__()
        self.table, self.record = table, record

    def _reply(self, prompt: str):
        if self.table == "model":
            if "The rationale is" in prompt:
                return "The rationale is the clue."
            variable = re.search(r"variable (\S+?)[.,] ", prompt)[1]
            return REPLIES[f"{prompt.rsplit(chr(10), 1)[-1]}::{variable}"]
        with open(self.record, "a", encoding="utf-8") as f:
            f.write(json.dumps({"judge": self.table, "prompt": prompt}) + "\n")
        table, default = TABLES[self.table]
        reply = table.get(GOLD.search(prompt)[1], default)
        if reply is FAIL:
            raise ConnectionError("scripted failure")
        return reply

    def generate_until(self, requests, disable_tqdm: bool = False):
        return [self._reply(r.args[0]) for r in requests]

    def loglikelihood(self, requests, disable_tqdm: bool = False):
        raise NotImplementedError

    def loglikelihood_rolling(self, requests, disable_tqdm: bool = False):
        raise NotImplementedError
