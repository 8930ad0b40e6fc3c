"""JudgedTask: an lm-eval task whose responses an LLM jury scores once, over all items, after the model answered.

Use it from any task YAML with `class: !function lm_eval_xling.<family>.<YourTask>` where the subclass says what
to ask the judges (`judge_prompts`). Judging happens in `apply_filters`, the one step lm-eval runs per task over
all responses, so the harness batches the judges' requests; the verdicts are stored in each instance's filtered
response as JSON text `{"response": ..., "jury": [...]}` (lm-eval writes filtered responses with `str()`, so JSON
keeps them readable in the sample logs). Without judges in the task metadata `"jury"` is null.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from lm_eval.api.task import ConfigurableTask

from lm_eval_xling.metrics.jury import Jury, VerdictCache, default_cache_path, judges_from_metadata, parse_binary


class JudgedTask(ConfigurableTask):
    parse_verdict = staticmethod(parse_binary)
    max_verdict_tokens = 16

    def __init__(self, config: dict[str, Any] | None = None, **kwargs: Any):
        super().__init__(config={k: v for k, v in (config or {}).items() if k != "class"}, **kwargs)
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
            path = Path(self.config.metadata.get("judge_cache") or default_cache_path())
            jury = Jury(self.judges, VerdictCache(path), evaluated=self.config.metadata)
            prompts = [p for doc_units in units for p in doc_units]
            judged = iter(jury.judge(prompts, self.parse_verdict, self.max_verdict_tokens))
            marks = [[next(judged) for _ in doc_units] for doc_units in units]
        for (inst, key), jury_marks in zip(slots, marks, strict=True):
            judged = {"response": inst.filtered_resps[key], "jury": jury_marks}
            inst.filtered_resps[key] = json.dumps(judged, ensure_ascii=False)
