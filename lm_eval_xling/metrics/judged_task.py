"""JudgedTask: an lm-eval task whose responses an LLM jury scores once, over all items, after the model answered.

A family subclasses it with what to ask the judges (`judge_prompts`); its YAML names the subclass through the
family's by-path hook file, `class: !function utils.<YourTask>` (lm-eval 0.4.x resolves `!function` only by file
path, so a dotted `lm_eval_xling...` name cannot be loaded). Judging happens in `apply_filters`, the one step
lm-eval runs per task over all responses, so the harness batches the judges' requests; the verdicts are stored in
each instance's filtered response as JSON text `{"response": ..., "jury": [...]}` (lm-eval writes filtered
responses with `str()`, so JSON keeps them readable in the sample logs). Without judges in the task metadata
`"jury"` is null.

Metadata: `judges`, `judge_cache`, `judge_exclude_self` (skip a judge that is the evaluated model; the paper let
models judge themselves), `judge_max_tokens` (default 512: judges that reason first need room for the verdict
at the end).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from lm_eval_xling.config import judge_cache_path
from lm_eval_xling.metrics.jury import Jury, VerdictCache, judges_from_metadata
from lm_eval_xling.metrics.verdicts import parse_binary
from lm_eval_xling.task_class import YamlClassTask


class JudgedTask(YamlClassTask):
    parse_verdict = staticmethod(parse_binary)
    # asked once more, after the prompt, of a judge whose verdict could not be read
    verdict_reminder = "Reply with one word only: correct or incorrect."
    max_verdict_tokens = 512

    def __init__(self, config: dict[str, Any] | None = None, **kwargs: Any):
        super().__init__(config, **kwargs)
        self.judges = judges_from_metadata(self.config.metadata)

    def judge_prompts(self, doc: dict, response: Any) -> list[str | None]:
        """One judge prompt per judged unit of `doc`; None for a unit that needs no judge (scored as wrong)."""
        raise NotImplementedError

    def apply_filters(self) -> None:
        super().apply_filters()
        slots = [(inst, key) for inst in self._instances for key in inst.filtered_resps]
        units = [self.judge_prompts(inst.doc, inst.filtered_resps[key]) for inst, key in slots]
        marks: list[list | None] = [None] * len(slots)
        if self.judges:
            path = Path(self.config.metadata.get("judge_cache") or judge_cache_path())
            meta = self.config.metadata
            jury = Jury(self.judges, VerdictCache(path), meta, exclude_self=bool(meta.get("judge_exclude_self")))
            prompts = [p for doc_units in units for p in doc_units]
            max_tokens = int(meta.get("judge_max_tokens", self.max_verdict_tokens))
            logged = self._logged_replies()
            judged = iter(jury.judge(prompts, self.parse_verdict, max_tokens, self.verdict_reminder, logged))
            marks = [[next(judged) for _ in doc_units] for doc_units in units]
        for (inst, key), jury_marks in zip(slots, marks, strict=True):
            judged = {"response": inst.filtered_resps[key], "jury": jury_marks}
            inst.filtered_resps[key] = json.dumps(judged, ensure_ascii=False)

    def _logged_replies(self) -> dict[str, dict[str, str]]:
        """{judge prompt: {judge name: reply}} from the log `score` is re-scoring (`logged_verdicts`): each logged
        unit's prompt is rebuilt from the logged response, so a unit whose answer now reads differently is asked."""
        logged, known = _LOGGED.get(), {}
        for inst in self._instances if logged else ():
            for text in logged.get(inst.doc_id, ()):
                try:
                    entry = json.loads(text)
                    units = zip(self.judge_prompts(inst.doc, entry["response"]), entry["jury"] or (), strict=False)
                except (ValueError, TypeError, KeyError, AttributeError):
                    continue  # not a judged response as this task logs it
                for prompt, unit in units:
                    for name, record in unit.items() if prompt is not None and isinstance(unit, dict) else ():
                        if isinstance(record, dict) and isinstance(record.get("reply"), str):
                            known.setdefault(prompt, {})[name] = record["reply"]
        return known


# the judge replies of the log being re-scored, by document (see `logged_verdicts`)
_LOGGED: ContextVar[dict[int, list[str]] | None] = ContextVar("logged_verdicts", default=None)


@contextmanager
def logged_verdicts(samples: dict[int, dict[str, Any]]) -> Iterator[None]:
    """Within it, a judged task re-scoring `samples` (a run's log, by doc_id) reads each judge's logged reply to a
    unit instead of asking the judge again; only units the log holds no reply for are asked."""
    token = _LOGGED.set(
        {doc_id: [r for r in s.get("filtered_resps") or () if isinstance(r, str)] for doc_id, s in samples.items()}
    )
    try:
        yield
    finally:
        _LOGGED.reset(token)
