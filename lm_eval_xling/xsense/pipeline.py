"""`lm-eval-xling consistency run`: every stage of the protocol as an lm-eval run, resumable.

Stages, each an `lm_eval` run of the model under test with `--log_samples` into `<output>/<stage>/`:
original (the task in the source language), rerun (the same again with other sampling seeds: the run-to-run
baseline), translate (`xsense_translate` over the instruction pieces and input sentences; skipped with the paper's
released translations), then T, I and X (the source-language task on documents composed from the translations, with
the instruction pieces of `<output>/instruction.json`, open to review) and I_native (the source inputs with the
target language's native-speaker instruction). A stage whose sample log is complete
(`results.folders.complete_samples`: whole lines, as many as its results file counts) is not run again, so a killed
run resumes at the stage it was in (that stage starts over: its requests are sampled, and lm-eval's request cache
does not serve sampled requests); each stage's `lm_eval` dies with the command (`child.run_child`). The report
(`<output>/consistency.json`) compares each run with the original.
"""

from __future__ import annotations

import inspect
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lm_eval_xling.child import run_child
from lm_eval_xling.data import load_dataset
from lm_eval_xling.results.folders import complete_samples
from lm_eval_xling.results.logs import read_samples
from lm_eval_xling.xsense import quality, selftrans, translation
from lm_eval_xling.xsense.consistency import consistency, read_log, strict
from lm_eval_xling.xsense.prompts import INPUT_FIELDS
from lm_eval_xling.xsense.tasks import SPECS

RERUN_SEEDS = "1,1235,1235,1234"  # lm_eval --seed: python, numpy, torch, few-shot (default 0,1234,1234,1234)
RERUN_MODEL_SEED = 1235  # for models that seed their own sampling (API and vLLM models; their default is 1234)
REPORT = "consistency.json"
INSTRUCTION = "instruction.json"  # the translated instruction pieces the T and I runs use: review and correct here
NATIVE = "I_native"  # the paper's Table 9: source inputs with the target language's native-speaker instruction


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
    translations: str = "model"  # "model": the model's own; "paper": the paper's released ones (selftrans)
    review_instruction: bool = False  # stop once the translated instruction pieces are written, before T and I

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
        if (done := complete_samples(out, task)) is not None:
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
        run_child(command)
        log = complete_samples(out, task)
        if log is None:
            raise RuntimeError(f"stage {name}: lm_eval wrote no complete sample log under {out}")
        return log


def references(family: str, language: str, doc_ids: list[int]) -> list[dict] | None:
    """The human test set in `language`, indexed like the source test set (the sets are parallel)."""
    test = load_dataset(SPECS[family], language)["test"]
    return [test[i] if i < len(test) else None for i in range(max(doc_ids) + 1)]


def translate(plan: Run, docs: dict[int, dict], refs: list[dict] | None) -> tuple[dict[str, str], Path | None]:
    """{request key: translation} from the model's own translation stage, or the paper's released translations;
    and the translation stage's log (None for the paper's)."""
    if plan.translations == "paper":
        return selftrans.translations(plan.family, docs, plan.source, plan.target), None
    requests = translation.requests(plan.family, docs, plan.source, plan.target, refs)
    requests_file = translation.write_jsonl(plan.output / "translate" / "requests.jsonl", requests)
    translated = plan.stage("translate", "xsense_translate", metadata={"docs": str(requests_file)})
    return translation.read_translations(translated), translated


def reviewed_instruction(plan: Run, texts: dict[str, str]) -> dict[str, str]:
    """The translated instruction pieces as `<output>/instruction.json` holds them: written from the translations
    the first time, read back (with the user's corrections) on every later run."""
    path = plan.output / INSTRUCTION
    if not path.is_file():
        pieces = {piece: texts[f"instruction/{piece}"] for piece in translation.PIECES}
        path.write_text(json.dumps(pieces, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    pieces = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(pieces, dict) or set(pieces) != set(translation.PIECES):
        raise ValueError(f"{path}: expected an object with exactly the keys {list(translation.PIECES)}")
    return pieces


def run(plan: Run) -> dict[str, Any] | None:
    """Every stage, then the report; None when `plan.review_instruction` stops before the T and I stages."""
    translation.check_direction(plan.source, plan.target)
    original = plan.stage("original", plan.task, limited=True)
    rerun = plan.stage("rerun", plan.task, limited=True, rerun=True)
    docs = {doc_id: sample["doc"] for doc_id, sample in read_samples(original).items()}
    refs = references(plan.family, plan.target, list(docs))
    texts, translated = translate(plan, docs, refs)
    pieces = reviewed_instruction(plan, texts)
    if plan.review_instruction:
        print(f"consistency: translated instruction pieces in {plan.output / INSTRUCTION} (edit, then run again):")
        print(json.dumps(pieces, ensure_ascii=False, indent=2))
        return None
    texts |= {f"instruction/{piece}": text for piece, text in pieces.items()}
    composed = translation.conditions(plan.family, docs, texts, plan.target)
    composed[NATIVE] = translation.native_instruction(plan.family, docs, plan.target)
    logs = {"original": original, "rerun": rerun}
    for condition, records in composed.items():
        docs_file = translation.write_jsonl(plan.output / "datasets" / f"{condition}.jsonl", records)
        logs[condition] = plan.stage(condition, plan.task, metadata={"docs": str(docs_file)})
    items = {i: [(texts[f"{i}/{field}"], refs[i][field]) for field in INPUT_FIELDS[plan.family]] for i in docs}
    report = make_report(plan, logs, items) | {"instruction": pieces, "translations": plan.translations}
    if translated is not None:
        report["logs"]["translate"] = str(translated)
    (plan.output / REPORT).write_text(
        json.dumps(report, indent=2, ensure_ascii=False, allow_nan=False), encoding="utf-8"
    )
    return report


def make_report(plan: Run, logs: dict[str, Path], items: dict[int, list[tuple[str, str]]]) -> dict[str, Any]:
    """Accuracy of every run, consistency of the rerun and each condition with the original, translation quality of
    the inputs (`items`: {doc_id: [(translation, human reference), ...]}) and its link to consistency and accuracy."""
    runs = {name: read_log(log).answers for name, log in logs.items()}
    bleu = quality.item_bleu(items, plan.target)
    report: dict[str, Any] = {
        "task": plan.family,
        "direction": f"{plan.source}-{plan.target}",
        "logs": {name: str(log) for name, log in logs.items()},
        "accuracy": {name: sum(a.correct for a in run.values()) / len(run) for name, run in runs.items()},
        "consistency": {},
        "translation": quality.quality(items, plan.target),
        "bleu_link": {},
    }
    for name in ("rerun", *translation.CONDITIONS, NATIVE):
        result = consistency(runs["original"], runs[name])
        report["consistency"][name] = result.summary() | {"ci": result.ci}
        if name in ("T", "X"):  # the conditions whose inputs are the model's translations
            correct = {i: answer.correct for i, answer in runs[name].items()}
            report["bleu_link"][name] = quality.bleu_link(bleu, result.per_item, correct)
    return strict(report)


def _cell(value: float | None, spec: str) -> str:
    """A table cell; "-" for a share that is undefined (null in the report)."""
    return "-" if value is None else format(value, spec)


def table(reports: list[dict[str, Any]]) -> str:
    """The paper's layout: a row per task and direction, consistency in columns T, I, X (and the rerun baseline)."""
    lines = ["| task | direction | T | I | X | rerun | BLEU |", "|---|---|---:|---:|---:|---:|---:|"]
    for report in reports:
        cells = [_cell(report["consistency"][name]["all"], ".3f") for name in (*translation.CONDITIONS, "rerun")]
        bleu = _cell(report["translation"]["bleu"], ".1f")
        lines.append(f"| {report['task']} | {report['direction']} | {' | '.join(cells)} | {bleu} |")
    return "\n".join(lines)
