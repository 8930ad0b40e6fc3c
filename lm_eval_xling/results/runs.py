"""What identifies a run: the settings lm-eval records in a results file, not the model's name.

Two results files are of one run configuration when their model, model arguments, generation settings, chat
template, few-shot layout, system instruction and document limit all agree: a rerun of the same configuration
replaces the older results of its tasks, and runs of other tasks merge. Files of different configurations are
different runs, shown side by side and labelled by what differs (`label_runs`). The settings are public (model
paths and secrets redacted by `lm_eval_xling.redact`), so they may be printed and published.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from lm_eval_xling.errors import UserError
from lm_eval_xling.redact import public_name, redact
from lm_eval_xling.results.folders import ResultsFile
from lm_eval_xling.results.logs import model_args_dict

# The settings that make two runs of one model different runs, in the order a label names them.
SETTINGS = ("model", "model_args", "gen_kwargs", "chat_template", "fewshot_as_multiturn", "system_instruction", "limit")


def _text(value: Any) -> str:
    """A setting's value as one short line: dicts as `k=v,k=v` (sorted), None as `none`."""
    if isinstance(value, dict):
        return ",".join(f"{k}={_text(v)}" for k, v in sorted(value.items())) or "none"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return "none" if value in (None, "") else str(value)


def settings(results: ResultsFile) -> dict[str, str]:
    """The public settings of the run that wrote `results` ({SETTINGS name: value}); the model's own name is left
    out of its arguments (it is the `model` setting)."""
    data = results.data
    config = data.get("config") or {}
    args = model_args_dict(config.get("model_args"))
    model = str(data.get("model_name") or args.get("pretrained") or args.get("model") or results.path.parent.name)
    args = {k: v for k, v in args.items() if str(v) != model}
    template = data.get("chat_template_sha") or ("given" if data.get("chat_template") else None)
    system = data.get("system_instruction_sha") or ("given" if data.get("system_instruction") else None)
    return {
        "model": public_name(model),
        "model_args": _text(redact(args, "model_args", [])),
        "gen_kwargs": _text(redact(config.get("gen_kwargs") or {}, "gen_kwargs", [])),
        "chat_template": _text(template and str(template)[:12]),
        "fewshot_as_multiturn": _text(data.get("fewshot_as_multiturn")),
        "system_instruction": _text(system and str(system)[:12]),
        "limit": _text(config.get("limit")),
    }


def run_date(results: ResultsFile) -> str:
    """When lm-eval wrote the results (its `date`, else the file name's stamp), as `YYYY-MM-DD HH:MM` UTC."""
    date = results.data.get("date")
    try:
        return datetime.fromtimestamp(float(date), UTC).strftime("%Y-%m-%d %H:%M")
    except (TypeError, ValueError, OverflowError, OSError):
        return results.stamp[:16].replace("T", " ")


@dataclass
class Run:
    """The results files of one run configuration, oldest first; each task comes from the newest that has it."""

    settings: dict[str, str]
    files: list[ResultsFile] = field(default_factory=list)
    label: str = ""

    def tasks(self) -> dict[str, ResultsFile]:
        """{task or group: the newest results file of this run that has it}."""
        return {task: results for results in self.files for task in results.data["results"]}


def group_runs(files: Iterable[ResultsFile]) -> list[Run]:
    """The results files (oldest first) grouped by run configuration, each run labelled (`label_runs`)."""
    runs: dict[str, Run] = {}
    for results in files:
        found = settings(results)
        runs.setdefault(json.dumps(found, sort_keys=True), Run(found)).files.append(results)
    out = list(runs.values())
    label_runs(out)
    return out


def label_runs(runs: list[Run]) -> None:
    """Label each run by its model, and, where one model has several runs, by the settings in which they differ
    (`SmolLM2 [gen_kwargs temperature=0]`)."""
    for run in runs:
        same_model = [other for other in runs if other.settings["model"] == run.settings["model"]]
        differing = [k for k in SETTINGS[1:] if len({o.settings[k] for o in same_model}) > 1]
        details = "; ".join(f"{k} {run.settings[k]}" for k in differing)
        run.label = f"{run.settings['model']} [{details}]" if details else run.settings["model"]


def one_run(files: list[ResultsFile], folder: Any, what: str) -> Run:
    """The single run the results files of `folder` hold; a UserError listing the runs when there are several."""
    runs = group_runs(files)
    if len(runs) > 1:
        listing = "\n  - ".join(f"{run.label}: {', '.join(r.path.name for r in run.files)}" for run in runs)
        raise UserError(
            f"{folder}: results of {len(runs)} different runs (model or settings differ); {what} needs one run's "
            f"folder:\n  - {listing}"
        )
    return runs[0]
