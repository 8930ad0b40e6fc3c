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
            judged = iter(jury.judge(prompts, self.parse_verdict, max_tokens, self.verdict_reminder))
            marks = [[next(judged) for _ in doc_units] for doc_units in units]
        for (inst, key), jury_marks in zip(slots, marks, strict=True):
            judged = {"response": inst.filtered_resps[key], "jury": jury_marks}
            inst.filtered_resps[key] = json.dumps(judged, ensure_ascii=False)
