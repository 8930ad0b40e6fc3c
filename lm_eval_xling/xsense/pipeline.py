"""`lm-eval-xling consistency run`: every stage of the protocol as an lm-eval run, resumable.

Stages, each an `lm_eval` run of the model under test with `--log_samples` into `<output>/<stage>/`:
original (the task in the source language), rerun (the same again with other sampling seeds: the run-to-run
baseline), translate (`xsense_translate` over the instruction pieces and input sentences), then T, I and X (the
source-language task on documents composed from the translations). A stage whose sample log exists is not run
again, so a killed run resumes at the stage it was in (that stage starts over: its requests are sampled, and
lm-eval's request cache does not serve sampled requests). The report (`<output>/consistency.json`) compares
each run with the original.
"""

from __future__ import annotations

import inspect
import json
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lm_eval_xling.data import load_dataset
from lm_eval_xling.samples import latest_samples, read_samples
from lm_eval_xling.xsense import quality, translation
from lm_eval_xling.xsense.consistency import answers, consistency
from lm_eval_xling.xsense.tasks import SPECS

RERUN_SEEDS = "1,1235,1235,1234"  # lm_eval --seed: python, numpy, torch, few-shot (default 0,1234,1234,1234)
RERUN_MODEL_SEED = 1235  # for models that seed their own sampling (API and vLLM models; their default is 1234)
REPORT = "consistency.json"


@dataclass
class Run:
    model: str
    model_args: str
    family: str  # "pawsx" or "xnli"
    source: str
    target: str
    output: Path
    limit: int | None = None
    extra: list[str] = field(default_factory=list)  # passed on to every lm_eval run

    @property
    def task(self) -> str:
        return f"xsense_{self.family}_{self.source}"

    def rerun_model_args(self) -> str:
        """model_args for the rerun: with another sampling seed where the model class takes one (API models send
        it with every request, so `--seed` alone would replay the original run)."""
        from lm_eval.api.registry import get_model

        takes_seed = any(
            "seed" in inspect.signature(cls.__init__).parameters
            for cls in get_model(self.model).__mro__
            if "__init__" in vars(cls)
        )
        if not takes_seed or "seed=" in self.model_args:
            return self.model_args
        return ",".join(filter(None, (self.model_args, f"seed={RERUN_MODEL_SEED}")))

    def stage(
        self, name: str, task: str, metadata: dict | None = None, limited: bool = False, rerun: bool = False
    ) -> Path:
        """Run one stage unless its sample log exists; return the log."""
        out = self.output / name
        if (done := latest_samples(out, task)) is not None:
            print(f"consistency: stage {name} done already ({done}); skipped", flush=True)
            return done
        out.mkdir(parents=True, exist_ok=True)
        model_args = self.rerun_model_args() if rerun else self.model_args
        command = [sys.executable, "-m", "lm_eval", "--model", self.model, "--model_args", model_args]
        command += [*self.extra, "--tasks", task, "--log_samples", "--output_path", str(out)]
        if limited and self.limit is not None:
            command += ["--limit", str(self.limit)]
        if metadata:
            command += ["--metadata", json.dumps(metadata)]
        if rerun:
            command += ["--seed", RERUN_SEEDS]
        print(f"consistency: stage {name}: {' '.join(command)}", flush=True)
        subprocess.run(command, check=True)
        log = latest_samples(out, task)
        if log is None:
            raise RuntimeError(f"stage {name}: lm_eval wrote no sample log under {out}")
        return log


def references(family: str, language: str, doc_ids: list[int]) -> list[dict] | None:
    """The human test set in `language`, indexed like the source test set (the sets are parallel)."""
    test = load_dataset(SPECS[family], language)["test"]
    return [test[i] if i < len(test) else None for i in range(max(doc_ids) + 1)]


def run(plan: Run) -> dict[str, Any]:
    translation.check_direction(plan.source, plan.target)
    original = plan.stage("original", plan.task, limited=True)
    rerun = plan.stage("rerun", plan.task, limited=True, rerun=True)
    docs = {doc_id: sample["doc"] for doc_id, sample in read_samples(original).items()}
    refs = references(plan.family, plan.target, list(docs))
    requests = translation.requests(plan.family, docs, plan.source, plan.target, refs)
    requests_file = translation.write_jsonl(plan.output / "translate" / "requests.jsonl", requests)
    translated = plan.stage("translate", "xsense_translate", metadata={"docs": str(requests_file)})
    composed = translation.conditions(plan.family, docs, translation.read_translations(translated), plan.target)
    logs = {"original": original, "rerun": rerun}
    for condition, records in composed.items():
        docs_file = translation.write_jsonl(plan.output / "datasets" / f"{condition}.jsonl", records)
        logs[condition] = plan.stage(condition, plan.task, metadata={"docs": str(docs_file)})
    report = make_report(plan, logs, translated)
    (plan.output / REPORT).write_text(json.dumps(report, indent=2), encoding="utf-8")
    return report


def make_report(plan: Run, logs: dict[str, Path], translated: Path) -> dict[str, Any]:
    runs = {name: answers(log) for name, log in logs.items()}
    items, language = quality.input_translations(translated)
    bleu = quality.item_bleu(items, language)
    report: dict[str, Any] = {
        "task": plan.family,
        "direction": f"{plan.source}-{plan.target}",
        "logs": {name: str(log) for name, log in logs.items()} | {"translate": str(translated)},
        "accuracy": {name: sum(a.value == a.target for a in run.values()) / len(run) for name, run in runs.items()},
        "consistency": {},
        "translation": quality.quality(items, language),
        "bleu_link": {},
    }
    for name in ("rerun", *translation.CONDITIONS):
        result = consistency(runs["original"], runs[name])
        report["consistency"][name] = result.summary() | {"ci": result.ci}
        if name in ("T", "X"):  # the conditions whose inputs are the model's translations
            report["bleu_link"][name] = quality.bleu_link(bleu, result.per_item)
    return report


def table(reports: list[dict[str, Any]]) -> str:
    """The paper's layout: a row per task and direction, consistency in columns T, I, X (and the rerun baseline)."""
    lines = ["| task | direction | T | I | X | rerun | BLEU |", "|---|---|---:|---:|---:|---:|---:|"]
    for report in reports:
        cells = [f"{report['consistency'][name]['all']:.3f}" for name in (*translation.CONDITIONS, "rerun")]
        bleu = f"{report['translation']['bleu']:.1f}"
        lines.append(f"| {report['task']} | {report['direction']} | {' | '.join(cells)} | {bleu} |")
    return "\n".join(lines)
