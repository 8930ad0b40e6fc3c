"""A task that a YAML names by `class: !function utils.<Name>`: lm-eval hands the `class` key to the task's config
too, which its `TaskConfig` has no field for, so the subclasses of this one drop it first."""

from __future__ import annotations

from typing import Any

from lm_eval.api.task import ConfigurableTask


class YamlClassTask(ConfigurableTask):
    def __init__(self, config: dict[str, Any] | None = None, **kwargs: Any):
        super().__init__(config={k: v for k, v in (config or {}).items() if k != "class"}, **kwargs)
