"""An optional reader model for the replies the rule-based readers leave invalid (off by default).

`--metadata '{"reader": {"model": "local-chat-completions", "model_args": "model=m,base_url=..."}}'` (any lm-eval
model, built and batched by the jury's machinery: cached verdict by verdict, retried, asked once more with a format
reminder) is shown each such reply with the options and asked which one the reply commits to, or "none". Its answer
is read by the same choice reader. A reply it reads is logged as "<letter> (reader model)" in the sample's
filtered response, so the sample log says which replies it read, and the results keep `invalid_rules` (before the
reader) beside `invalid` (after).
"""

from __future__ import annotations

from pathlib import Path

from lm_eval_xling.choices import read_choice
from lm_eval_xling.config import judge_cache_path
from lm_eval_xling.metrics import INVALID
from lm_eval_xling.metrics.jury import Judge, Jury, VerdictCache
from lm_eval_xling.task_class import YamlClassTask

READ_BY_MODEL = " (reader model)"
PROMPT = """Below are the options of a question and a reply that answers it. Which option does the reply commit to \
as its final answer? If it commits to none of them, hedges between them, or is cut off before answering, the answer \
is none. Answer with one word: {choices} or none.

Options:
{options}

Reply:
<<<
{reply}
>>>"""
REMINDER = "Answer with one word only: {choices} or none."


def split_reading(answer: object) -> tuple[object, bool]:
    """(the option, whether the reader model read it) from a filtered response."""
    if isinstance(answer, str) and answer.endswith(READ_BY_MODEL):
        return answer.removesuffix(READ_BY_MODEL), True
    return answer, False


class ReaderModelTask(YamlClassTask):
    """A task whose filter reads a choice of `options`; `option_texts` gives a document's option texts."""

    options: tuple[str, ...] = ("A", "B")

    def option_texts(self, doc: dict) -> list[str]:
        raise NotImplementedError

    def apply_filters(self) -> None:
        super().apply_filters()
        spec = (self.config.metadata or {}).get("reader")
        if not spec:
            return
        reader = Judge.from_spec(spec)
        slots = [
            (inst, key) for inst in self._instances for key, value in inst.filtered_resps.items() if value == INVALID
        ]
        if not slots:
            return
        choices = ", ".join(self.options)
        prompts = [self._prompt(inst.doc, inst.resps[0], choices) for inst, _ in slots]
        path = Path(self.config.metadata.get("judge_cache") or judge_cache_path())
        jury = Jury([reader], VerdictCache(path))
        records = jury.judge(prompts, self._parse, max_tokens=16, reminder=REMINDER.format(choices=choices))
        for (inst, key), record in zip(slots, records, strict=True):
            if (index := record[reader.name].get("verdict")) is not None:
                inst.filtered_resps[key] = self.options[int(index)] + READ_BY_MODEL

    def _prompt(self, doc: dict, reply: object, choices: str) -> str:
        options = "\n".join(f"{c}: {t}" for c, t in zip(self.options, self.option_texts(doc), strict=True))
        return PROMPT.format(choices=choices, options=options, reply=reply if isinstance(reply, str) else "")

    def _parse(self, reply: str) -> float | None:
        letter = read_choice(reply, self.options)
        return None if letter is None else float(self.options.index(letter))
