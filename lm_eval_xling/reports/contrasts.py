"""What the cross-lingual gap report shows per family, declared by the family itself (`REPORT` in
`lm_eval_xling/<family>/__init__.py`), so that the report knows no task names."""

from __future__ import annotations

import importlib
import importlib.util
import re
from collections.abc import Collection
from dataclasses import dataclass
from functools import cache
from typing import Any

from lm_eval_xling.config import task_dir


@dataclass(frozen=True)
class Contrast:
    """A high- vs low-resource comparison between tasks whose names differ in one `_`-separated part
    (nsp_english_cot vs nsp_hausa_cot: high "english", low "hausa")."""

    kind: str
    high: str
    low: str
    metrics: tuple[str, ...] | None = None  # compare only these metrics (None: every shared mean metric)

    def low_task(self, task: str) -> str | None:
        """The low-resource counterpart of `task`, or None when `task` is not a high-resource task of this kind."""
        return _swap_part(task, self.high, self.low)

    def high_task(self, task: str) -> str | None:
        """The high-resource counterpart of `task` (nsp_hausa_cot -> nsp_english_cot), or None when `task` is not a
        low-resource task of this kind."""
        return _swap_part(task, self.low, self.high)


def _swap_part(task: str, old: str, new: str) -> str | None:
    """`task` with its first `_`-separated part(s) `old` replaced by `new`; None when it has no such part."""
    pattern = rf"(?<![^_]){re.escape(old)}(?![^_])"
    return re.sub(pattern, new, task, count=1) if re.search(pattern, task) else None


@dataclass(frozen=True)
class ParallelLanguages:
    """Tasks `<prefix>_<language>[_<variant>]` that ask the same items in every language, told apart by the document
    field `pair_field`: each is compared item by item with the `reference` language's task of the same variant."""

    reference: str
    pair_field: str
    variants: tuple[str, ...] = ()  # task name suffixes that are not part of the language ("ll": nsp_global_sw_ll)


@dataclass(frozen=True)
class ReportFamily:
    """One family's section of the report: its tasks (by name prefix: a task is the family's with the longest prefix
    its name matches), title and contrasts."""

    prefix: str
    title: str
    contrasts: tuple[Contrast, ...] = ()
    own_deltas: str | None = None  # label of the tasks' own "<metric>_delta" results, when they report some
    # "module:function" turning a corpus-level metric's logged per-document values into one number per document
    # (`function(metric, values, task_config) -> list[float] | None`), so that it can be paired and resampled
    per_document: str | None = None
    parallel: ParallelLanguages | None = None  # the tasks differ by language only: paired with the reference's

    def matches(self, task: str) -> bool:
        """Whether the task's name is the prefix or starts with prefix + "_" (a longer prefix may still own it)."""
        return task == self.prefix or task.startswith(self.prefix + "_")

    def has(self, task: str) -> bool:
        """Whether the task is this family's: the declared family with the longest matching prefix."""
        return family_of(task) == self

    def language(self, task: str) -> tuple[str, str]:
        """(language, variant) of a task of a parallel-language family: nsp_global_sw_ll -> ("sw", "ll")."""
        rest = task.removeprefix(self.prefix + "_")
        for variant in self.parallel.variants:
            if rest.endswith("_" + variant):
                return rest.removesuffix("_" + variant), variant
        return rest, ""

    def reference_task(self, task: str) -> str:
        """The reference language's task of the same variant (nsp_global_sw_ll -> nsp_global_en_ll)."""
        variant = self.language(task)[1]
        return "_".join(part for part in (self.prefix, self.parallel.reference, variant) if part)

    def reference_of(self, task: str, tasks: Collection[str]) -> str | None:
        """The task among `tasks` whose reader coverage and accuracy `task`'s are set against: the reference
        language's task of the same variant (a parallel family's `reference`, else the high-resource side of a
        contrast; a reference task is its own). Where the reference language has no task of that variant (nsp_hausa_
        cot_native: no nsp_english_cot_native ships, English's CoT is already in English), its task without the
        variant's part, the rightmost such part first. None when the family declares no reference for `task` or the
        run lacks the reference task."""
        if self.parallel is not None:
            reference = self.reference_task(task)
            return reference if reference in tasks else None
        if any(contrast.low_task(task) is not None for contrast in self.contrasts):
            return task
        for contrast in self.contrasts:
            if (counterpart := contrast.high_task(task)) is None:
                continue
            if counterpart in tasks:
                return counterpart
            if counterpart in shipped_tasks():
                continue  # the variant exists in the reference language, but this run did not run it
            parts = counterpart.split("_")
            fixed = len(self.prefix.split("_"))  # the family's prefix and the reference language stay
            for i in reversed(range(fixed, len(parts))):
                shorter = "_".join(parts[:i] + parts[i + 1 :])
                if parts[i] not in contrast.high.split("_") and shorter in tasks:
                    return shorter
        return None

    def document_values(self, metric: str, values: list[Any], config: dict[str, Any]) -> list[float] | None:
        """One number per document of a metric whose logged values are not numbers, where the family can tell
        (NaN: the document has none); None where it cannot."""
        if self.per_document is None:
            return None
        module, _, name = self.per_document.partition(":")
        return getattr(importlib.import_module(module), name)(metric, values, config)


@cache
def families() -> tuple[ReportFamily, ...]:
    """The declaration of every family (a task_yamls/ folder whose package declares `REPORT`), by prefix."""
    found = []
    for folder in sorted(p for p in task_dir().iterdir() if p.is_dir()):
        if importlib.util.find_spec(f"lm_eval_xling.{folder.name}") is None:
            continue
        declared = getattr(importlib.import_module(f"lm_eval_xling.{folder.name}"), "REPORT", None)
        if isinstance(declared, ReportFamily):
            found.append(declared)
    return tuple(found)


@cache
def shipped_tasks() -> frozenset[str]:
    """The names of the tasks task_yamls/ ships (each task's YAML file is named after it; `_` files are groups and
    templates)."""
    return frozenset(path.stem for path in task_dir().glob("*/*.yaml") if not path.name.startswith("_"))


def family_of(task: str) -> ReportFamily | None:
    """The family of the longest prefix the task's name matches (nsp_global_en: NSP Global, not NSP)."""
    return max((f for f in families() if f.matches(task)), key=lambda f: len(f.prefix), default=None)
