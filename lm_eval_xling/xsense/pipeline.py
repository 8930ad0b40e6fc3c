"""`lm-eval-xling consistency run`: every stage of the protocol as an lm-eval run, resumable, for any declared task.

Stages, each an `lm_eval` run of the model under test with `--log_samples` into `<output>/<stage>/`:
original (the task in the source language), rerun (the same again with other sampling seeds: the run-to-run
baseline), translate (`xsense_translate` over the instruction pieces and input fields; skipped with the paper's
released translations), round_trip (the input translations translated back, where the declaration's languages have
no parallel test sets to serve as references), then T, I and X (the source-language task on documents composed
from the translations, with the instruction pieces of `<output>/instruction.json`, open to review) and I_native
(the source inputs with the target language's native-speaker instruction, where the declaration has one).
The translated documents go to the task through a task file (`<output>/tasks/<stage>.yaml`: the task itself, its
dataset swapped for the documents' JSONL through lm-eval's own task overrides), so any lm-eval task runs them.
A stage whose sample log is complete (`results.folders.complete_samples`: whole lines, as many as its results file
counts) is not run again, so a killed run resumes at the stage it was in (that stage starts over: its requests are
sampled, and lm-eval's request cache does not serve sampled requests); each stage's `lm_eval` dies with the
command (`child.run_stage`). The report (`<output>/consistency.json`) compares each run with the original.
"""

from __future__ import annotations

import inspect
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from lm_eval_xling.child import lm_eval_command, run_stage
from lm_eval_xling.errors import UserError
from lm_eval_xling.files import parse_json, write_file
from lm_eval_xling.redact import model_args_text, public_name, without_credentials
from lm_eval_xling.results.folders import complete_samples, ran
from lm_eval_xling.results.logs import read_samples
from lm_eval_xling.results.replay import DOCUMENT_KEYS
from lm_eval_xling.xsense import CONSISTENCY_REPORT, quality, selftrans, translation
from lm_eval_xling.xsense.consistency import consistency, read_log, strict
from lm_eval_xling.xsense.declarations import Translatable, find

RERUN_SEEDS = "1,1235,1235,1234"  # lm_eval --seed: python, numpy, torch, few-shot (default 0,1234,1234,1234)
RERUN_MODEL_SEED = 1235  # for models that seed their own sampling (API and vLLM models; their default is 1234)
INSTRUCTION = "instruction.json"  # the translated instruction pieces the T and I runs use: review and correct here
NATIVE = "I_native"  # the paper's Table 9: source inputs with the target language's native-speaker instruction
ROUND_TRIP = "round_trip"


@dataclass
class Run:
    model: str
    model_args: str
    task: str  # what --task names: a declaration (`xsense_pawsx`, `nsp_1k`) or one of its tasks (`nsp_english_1k`)
    source: str
    target: str
    output: Path
    limit: int | None = None
    extra: list[str] = field(default_factory=list)  # passed on to every lm_eval run
    translations: str = "model"  # "model": the model's own; "paper": the paper's released ones (selftrans)
    review_instruction: bool = False  # stop once the translated instruction pieces are written, before T and I
    launcher: str | None = None  # starts each stage's lm_eval (`accelerate launch --num_processes 8`)
    declaration: Translatable | None = None  # found from `task` unless given

    def __post_init__(self) -> None:
        language = None
        if self.declaration is None:
            self.declaration, language = find(self.task)
        if language is not None and language != self.source:
            raise UserError(f"{self.task} asks the task in {language}, but --src is {self.source}")
        self.declaration.task(self.source)
        translation.check_direction(self.source, self.target)

    @property
    def source_task(self) -> str:
        return self.declaration.task(self.source)

    @property
    def include_path(self) -> list[str]:
        """The `--include_path` folders of the extra arguments: in-process task lookups must see those tasks too."""
        out = []
        for i, arg in enumerate(self.extra):
            if arg == "--include_path" and i + 1 < len(self.extra):
                out.append(self.extra[i + 1])
            elif arg.startswith("--include_path="):
                out.append(arg.split("=", 1)[1])
        return out

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

    def task_file(self, name: str, task: str, docs: Path) -> Path:
        """A task file that runs `task` on the documents of `docs` (lm-eval reads a group's task entries as
        overrides of the named task): the same prompt, filters and metrics, the task's own name in the logs."""
        override = {"task": task, "dataset_path": "json", "dataset_kwargs": {"data_files": {"test": str(docs)}},
                    "test_split": "test", "num_fewshot": 0, **dict.fromkeys(DOCUMENT_KEYS)}  # fmt: skip
        path = self.output / "tasks" / f"{name}.yaml"
        write_file(path, yaml.safe_dump({"group": f"consistency_{name}", "task": [override]}))
        return path

    def stage(
        self,
        name: str,
        task: str,
        metadata: dict | None = None,
        limited: bool = False,
        rerun: bool = False,
        docs: Path | None = None,
    ) -> Path:
        """Run one stage unless its sample log exists; return the log. With `docs`, the task runs on them."""
        out = self.output / name
        model_args = self.rerun_model_args() if rerun else self.model_args
        tasks = str(self.task_file(name, task, docs)) if docs is not None else task
        command = [*lm_eval_command(self.launcher), "--model", self.model, "--model_args", model_args]
        command += [*self.extra, "--tasks", tasks, "--log_samples", "--output_path", str(out)]
        if limited and self.limit is not None:
            command += ["--limit", str(self.limit)]
        if metadata:
            command += ["--metadata", json.dumps(metadata)]
        if rerun:
            command += ["--seed", RERUN_SEEDS]
        if (done := complete_samples(out, task, ran(command))) is not None:
            print(f"consistency: stage {name} done already ({done}); skipped", flush=True)
            return done
        out.mkdir(parents=True, exist_ok=True)
        flags = ["", *command[:-1]]
        shown = [model_args_text(a) if flag == "--model_args" else a for flag, a in zip(flags, command, strict=True)]
        print(f"consistency: stage {name}: {without_credentials(' '.join(shown))}", flush=True)  # keys kept back
        run_stage(command, out, f"stage {name}")
        log = complete_samples(out, task, ran(command))
        if log is None:
            raise RuntimeError(f"stage {name}: lm_eval wrote no complete sample log under {out}")
        return log


def task_docs(task: str, include_path: list[str]) -> list[dict]:
    """The evaluation documents of an lm-eval task, as lm-eval builds them."""
    from lm_eval.tasks import TaskManager

    return list(TaskManager(include_path=include_path or None).load([task])["tasks"][task].eval_docs)


def references(plan: Run, docs: dict[int, dict]) -> dict[int, dict] | None:
    """The target language's test documents that translate the source documents, under the source documents' ids,
    where the declaration's test sets are parallel (they are the human translations); None where they are not.
    Paired by the declaration's `pair_field` (a source document without a counterpart gets none) or by position."""
    declaration = plan.declaration
    if not declaration.parallel:
        return None
    task = declaration.task(plan.target)
    targets = task_docs(task, plan.include_path)
    key = declaration.pair_field
    if key is None:
        missing = [i for i in docs if i >= len(targets)]
        if missing:
            raise UserError(f"{task} has {len(targets)} documents, no {missing[0]}")
        return {i: targets[i] for i in docs}
    by_key: dict[Any, dict] = {}
    for position, doc in enumerate(targets):
        value = _pair_value(task, position, doc, key)
        if value in by_key:
            raise UserError(f"{task} document {position}: {key} {value!r} again; expected one document per item")
        by_key[value] = doc
    pairs = {i: _pair_value(plan.source_task, i, doc, key) for i, doc in docs.items()}
    refs = {i: by_key[value] for i, value in pairs.items() if value in by_key}
    if len(refs) < len(docs):
        print(
            f"consistency: {len(docs) - len(refs)} of {len(docs)} documents have no {key} in {task}: no reference "
            "translation, left out of the translation quality",
            flush=True,
        )
    return refs


def _pair_value(task: str, doc_id: int, doc: dict, key: str) -> Any:
    try:
        return doc[key]
    except KeyError:
        raise UserError(f"{task} document {doc_id}: no field {key!r} (the declaration pairs languages by it)") from None


def translation_stage(plan: Run, name: str, requests: list[dict]) -> tuple[dict[str, str], Path]:
    """Run the declaration's translation task (`xsense_translate`) over `requests`; {request key: translation} and
    the stage's log."""
    requests_file = translation.write_jsonl(plan.output / name / "requests.jsonl", requests)
    log = plan.stage(name, plan.declaration.translator, metadata={"docs": str(requests_file)})
    return translation.read_translations(log), log


def translate(
    plan: Run, docs: dict[int, dict], refs: dict[int, dict] | None
) -> tuple[dict[str, str], list[dict] | None, Path | None]:
    """{request key: translation} from the model's own translation stage, or the paper's released translations;
    the requests and the translation stage's log (None for the paper's)."""
    if plan.translations == "paper":
        return selftrans.translations(plan.declaration, docs, plan.source, plan.target), None, None
    requests = translation.requests(plan.declaration, docs, plan.source, plan.target, refs)
    texts, log = translation_stage(plan, "translate", requests)
    return texts, requests, log


def reviewed_instruction(plan: Run, texts: dict[str, str]) -> dict[str, str]:
    """The translated instruction pieces as `<output>/instruction.json` holds them: written from the translations
    the first time, read back (with the user's corrections) on every later run; {} for a task without any."""
    fields = list(plan.declaration.instruction(plan.source))
    if not fields:
        return {}
    path = plan.output / INSTRUCTION
    if not path.is_file():
        pieces = {name: texts[f"instruction/{name}"] for name in fields}
        write_file(path, json.dumps(pieces, ensure_ascii=False, indent=2) + "\n")
    try:
        pieces = parse_json(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise UserError(f"{path}: not readable as JSON ({err}); delete it to have it written again") from None
    if not isinstance(pieces, dict) or set(pieces) != set(fields):
        raise UserError(
            f"{path}: expected an object with exactly the keys {fields}; delete it to have it written again"
        )
    if bad := [name for name, text in pieces.items() if not isinstance(text, str)]:
        raise UserError(f"{path}: field {bad[0]!r} is {type(pieces[bad[0]]).__name__}; expected the text to translate")
    return pieces


def quality_items(
    plan: Run, docs: dict[int, dict], inputs: dict[int, dict[str, str]], refs: dict[int, dict] | None,
    texts: dict[str, str], requests: list[dict] | None,
) -> tuple[dict[int, list[tuple[str, str]]], str, str] | None:  # fmt: skip
    """({doc_id: [(hypothesis, reference), ...]}, its language, "human" or "round_trip") for translation quality:
    the translated inputs against the human versions (of the documents that have one), or else the round trip (the
    model's translations translated back) against the source texts; None where neither exists (the paper's
    translations of a non-parallel task)."""
    if refs is not None:
        items = {i: [(inputs[i][name], refs[i][name]) for name in plan.declaration.inputs] for i in docs if i in refs}
        return items, plan.target, "human"
    if requests is None:
        return None
    back, _ = translation_stage(plan, ROUND_TRIP, translation.round_trip(requests, texts))
    items: dict[int, list[tuple[str, str]]] = {i: [] for i in docs}
    for request in requests:
        if not request["key"].startswith("instruction/"):
            items[int(request["key"].split("/", 1)[0])].append((back[request["key"]], request["text"]))
    return items, plan.source, ROUND_TRIP


def run(plan: Run) -> dict[str, Any] | None:
    """Every stage, then the report; None when `plan.review_instruction` stops before the T and I stages."""
    declaration = plan.declaration
    original = plan.stage("original", plan.source_task, limited=True)
    rerun = plan.stage("rerun", plan.source_task, limited=True, rerun=True)
    docs = {doc_id: sample["doc"] for doc_id, sample in read_samples(original).items()}
    refs = references(plan, docs)
    texts, requests, translated = translate(plan, docs, refs)
    pieces = reviewed_instruction(plan, texts)
    if plan.review_instruction:
        if not pieces:
            print(f"consistency: {declaration.name} has no instruction pieces to review; running on", flush=True)
        else:
            print(f"consistency: translated instruction pieces in {plan.output / INSTRUCTION} (edit, then run again):")
            print(json.dumps(pieces, ensure_ascii=False, indent=2))
            return None
    inputs = translation.inputs(declaration, docs, texts, plan.target)
    composed = translation.conditions(declaration, docs, inputs, pieces, plan.target)
    if (native := translation.native_instruction(declaration, docs, plan.target)) is not None:
        composed[NATIVE] = native
    logs = {"original": original, "rerun": rerun}
    for condition, records in composed.items():
        docs_file = translation.write_jsonl(plan.output / "datasets" / f"{condition}.jsonl", records)
        logs[condition] = plan.stage(condition, plan.source_task, docs=docs_file)
    scored = quality_items(plan, docs, inputs, refs, texts, requests)
    collapsed = translation.collapsed(declaration, docs, inputs)
    report = make_report(plan, logs, scored, collapsed) | {"instruction": pieces, "translations": plan.translations}
    if translated is not None:
        report["logs"]["translate"] = recorded(plan.output, translated)
    text = json.dumps(report, indent=2, ensure_ascii=False, allow_nan=False)
    write_file(plan.output / CONSISTENCY_REPORT, text)
    return report


def recorded(output: Path, log: Path) -> str:
    """A stage's log as the report records it: relative to the run folder, lm-eval's folder for a local model
    (`__home__me__model`) as `redact.public_name` names the model, so that the report names no local path."""
    return "/".join(public_name(part) for part in log.relative_to(output).parts)


def make_report(
    plan: Run,
    logs: dict[str, Path],
    scored: tuple[dict[int, list[tuple[str, str]]], str, str] | None,
    collapsed: list[int],
) -> dict[str, Any]:
    """Accuracy of every run, consistency of the rerun and each condition with the original (items whose options
    collapsed left out of T and X), translation quality (`scored`, see `quality_items`; the items without a
    reference counted in `no_reference`) and its link to consistency and accuracy."""
    runs = {name: read_log(log).answers for name, log in logs.items()}
    items, language, reference = scored if scored is not None else ({}, plan.target, None)
    unscored = sorted(runs["original"].keys() - items.keys())  # no reference translation
    bleu = quality.item_bleu(items, language)
    report: dict[str, Any] = {
        "task": plan.declaration.name,
        "direction": f"{plan.source}-{plan.target}",
        "logs": {name: recorded(plan.output, log) for name, log in logs.items()},
        "accuracy": {name: sum(a.correct for a in run.values()) / len(run) for name, run in runs.items()},
        "consistency": {},
        "translation": (quality.quality(items, language) if items else {})
        | {"reference": reference, "no_reference": {"n": len(unscored), "doc_ids": unscored}},
        "collapsed": {"n": len(collapsed), "share": len(collapsed) / len(runs["original"]), "doc_ids": collapsed},
        "bleu_link": {},
    }
    for name, answers in runs.items():
        if name == "original":
            continue
        if name in translation.INPUT_CONDITIONS:
            answers = {i: answer for i, answer in answers.items() if i not in collapsed}
            if not answers:  # every item collapsed: nothing left to compare
                report["consistency"][name] = {"all": None, "correct": None, "incorrect": None, "n": 0, "ci": None}
                continue
        result = consistency(runs["original"], answers)
        report["consistency"][name] = result.summary() | {"ci": result.ci}
        if name in translation.INPUT_CONDITIONS and bleu:
            correct = {i: answer.correct for i, answer in answers.items()}
            report["bleu_link"][name] = quality.bleu_link(bleu, result.per_item, correct)
    return strict(report)


REPORT_FIELDS = {"task": str, "direction": str, "accuracy": dict, "consistency": dict, "translation": dict}


def _expect(path: Path, what: str, value: Any, kind: type) -> None:
    if not isinstance(value, kind):
        expected = "an object" if kind is dict else "a string"
        raise UserError(f"{path}: {what}: expected {expected}, got {value!r:.40}")


def read_report(folder: Path) -> dict[str, Any]:
    """The consistency.json of a `consistency run` folder; UserError naming the file where it is torn or not one."""
    path = folder / CONSISTENCY_REPORT
    try:
        report = parse_json(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise UserError(f"{path}: not readable as JSON ({err}); `consistency run` again rewrites it") from None
    _expect(path, "the report", report, dict)
    for name, kind in REPORT_FIELDS.items():
        _expect(path, f"field {name!r}", report.get(name), kind)
    for name, run in report["consistency"].items():
        _expect(path, f"field 'consistency.{name}'", run, dict)
    return report


def _cell(value: Any, spec: str, reason: str) -> str:
    """A table cell: the number, or `n/a (<reason>)` where it is undefined (null in the report, or not finite)."""
    if isinstance(value, (int, float)) and math.isfinite(value):
        return format(value, spec)
    return f"n/a ({reason})"


def table(reports: list[dict[str, Any]]) -> str:
    """The paper's layout, a row per task and direction: consistency in columns T, I, X and the rerun baseline,
    beside the original's accuracy, translation quality (BLEU against the human translations, or chrF of the
    round trip where there are none) and the items whose options collapsed in translation. "-": the run or score
    does not exist for the task; "n/a (reason)": it exists but is undefined."""
    lines = [
        "| task | direction | accuracy | T | I | X | rerun | BLEU | round-trip chrF | collapsed |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for report in reports:
        runs = report["consistency"]
        cells = [
            _cell(runs[name].get("all"), ".3f", "no item in both runs") if name in runs else "-"
            for name in (*translation.CONDITIONS, "rerun")
        ]
        quality_ = report["translation"]
        round_trip = quality_.get("reference") == ROUND_TRIP
        bleu = "-" if round_trip else _cell(quality_.get("bleu"), ".1f", "no reference translations")
        chrf = _cell(quality_.get("chrf"), ".1f", "no round trip") if round_trip else "-"
        collapsed = report.get("collapsed", {}).get("n", 0)
        accuracy = _cell(report["accuracy"].get("original"), ".3f", "no original run")
        lines.append(
            f"| {report['task']} | {report['direction']} | {accuracy} | {' | '.join(cells)} | {bleu} | {chrf} | "
            f"{collapsed} |"
        )
    return "\n".join(lines)
