"""A loopback OpenAI-compatible judge that knows the right verdict and states it in a different phrasing each time:
plain words, markdown, JSON, a think block, negations, revisions, check marks (entity prompts), and scores written
as digits, words, fractions or stars (rationale prompts); `erring-judge`, the same judge in process, wrong at set
rates per group."""

from __future__ import annotations

import json
import random
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import lm_eval.models  # noqa: F401 - lm-eval's own models first: it loads them only into an empty registry
from lm_eval.api.model import LM
from lm_eval.api.registry import register_model

CORRECT = [
    "correct",
    "**Correct**",
    "The contestant's answer is right.",
    '{"verdict": "correct"}',
    "<think>The gold answer and the given one name the same thing.</think>\n\nCorrect.",
    "✅ Correct",
    "Verdict: correct, although the spelling differs a little.",
    "Incorrect... wait, no: it names the same person. Correct.",
    "This would be judged correct.",
    "Not incorrect: it is the short form of the true answer.",
]
INCORRECT = [
    "incorrect",
    "**Incorrect**",
    "That's not right.",
    '{"verdict": "incorrect"}',
    "<think>Different entity.</think>\nIncorrect.",
    "❌",
    "The correct answer is the true one above, so the contestant's answer is wrong.",
    "Correct? No. On reflection it is incorrect.",
    "This would be judged incorrect.",
    "Not quite right.",
]
SCORES = ["Score: {n}", "I rate it {n}/5.", "{w} out of five.", "**Rating:** {n}", '{{"score": {n}}}', "{stars}"]
WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}
_FIELD = re.compile(r"## (True Answer|True Rationale|Answer Given by contestant|Rationale Given by contestant)\n(.*)\n")


def _read_prompt(prompt: str) -> tuple[str, bool, bool]:
    """(the gold text, whether the contestant's answer holds it, whether the prompt is a rationale's)."""
    fields = dict(_FIELD.findall(prompt))
    gold = fields.get("True Answer") or fields.get("True Rationale") or ""
    given = fields.get("Answer Given by contestant") or fields.get("Rationale Given by contestant") or ""
    return gold, bool(gold) and gold.lower() in given.lower(), "True Rationale" in fields


def verdict(prompt: str, count: int, mistaken: frozenset[str] = frozenset()) -> str:
    """The judge's reply to a prompt: right iff the gold text appears in the contestant's answer, the other way
    round where the gold is one the judge is `mistaken` on."""
    gold, holds, rationale = _read_prompt(prompt)
    right = holds != (gold in mistaken)
    if rationale:
        n = 5 if right else 2
        return SCORES[count % len(SCORES)].format(n=n, w=WORDS[n], stars="★" * n + "☆" * (5 - n))
    return (CORRECT if right else INCORRECT)[count % len(CORRECT)]


class PhrasedJudge:
    """`with PhrasedJudge() as judge:` serves /v1/chat/completions on judge.port; `mistaken`: the gold answers on
    which it gives the wrong verdict."""

    def __init__(self, mistaken: frozenset[str] = frozenset()) -> None:
        self.asked = 0
        lock = threading.Lock()
        judge = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
                prompt = body["messages"][-1]["content"]
                with lock:
                    count, judge.asked = judge.asked, judge.asked + 1
                message = {"role": "assistant", "content": verdict(prompt, count, mistaken)}
                payload = json.dumps({"choices": [{"index": 0, "message": message}]}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> PhrasedJudge:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()


@register_model("erring-judge")
class ErringJudge(LM):
    """The same judge in process (no HTTP), wrong at set rates: on an entity whose answer is right it says correct
    with probability `q1` (sensitivity), on one whose answer is wrong it says incorrect with probability `q0`
    (specificity); `indic_q0` / `indic_q1` for questions about India (default: the same). Whether it errs on a prompt
    is drawn from `seed` and the prompt, so a run is repeatable."""

    def __init__(self, seed: str = "0", q0: str = "1", q1: str = "1", indic_q0: str = "", indic_q1: str = "", **_):
        super().__init__()
        self.seed, self.asked = seed, 0
        self.rates = {False: (float(q0), float(q1)), True: (float(indic_q0 or q0), float(indic_q1 or q1))}

    def _reply(self, prompt: str) -> str:
        gold, right, _ = _read_prompt(prompt)
        q0, q1 = self.rates["India" in prompt]
        errs = random.Random(f"{self.seed}|{prompt}").random() >= (q1 if right else q0)
        self.asked += 1
        return verdict(prompt, self.asked, frozenset({gold}) if errs else frozenset())

    def generate_until(self, requests, disable_tqdm: bool = False) -> list[str]:
        return [self._reply(request.args[0]) for request in requests]

    def loglikelihood(self, requests, disable_tqdm: bool = False):
        raise NotImplementedError("a judge answers generation requests only")

    loglikelihood_rolling = loglikelihood
