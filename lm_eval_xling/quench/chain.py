"""The chained QUENCH run (`quench-chain`): the entity run, then the predicted-rationale run on its own replies.

A stage is done only when its folder holds a complete sample log of that exact task, model and model_args (and, for
the rationale stage, that entity log): the results file of the same run names them and counts as many samples as the
log has whole lines. Stopping the chain (Ctrl-C, SIGTERM) stops the running `lm_eval` too."""

from __future__ import annotations

import json
from pathlib import Path

from lm_eval_xling.child import lm_eval_command, run_child
from lm_eval_xling.errors import UserError
from lm_eval_xling.results.folders import ResultsFile, complete_samples
from lm_eval_xling.results.logs import model_args_dict


def run_chain(
    model: str, model_args: str, task: str, output_path: Path, judges: list | None, extra: list[str],
    launcher: str | None = None,
) -> int:  # fmt: skip
    """Entity run, then the predicted-rationale run (CoT after a CoT entity task) on the entity run's own replies,
    each `lm_eval` started through `launcher` where one is given (`child.lm_eval_command`)."""
    metadata = {"judges": judges} if judges else {}
    rationale_task = "quench_rationale_pred_cot" if task.endswith("_cot") else "quench_rationale_pred"

    def stage(name: str, out: Path, meta: dict) -> Path:
        if (done := complete_log(out, name, model, model_args, meta.get("predictions"))) is not None:
            print(f"{name}: done already ({done}); skipped")
            return done
        command = [*lm_eval_command(launcher), "--model", model, "--model_args", model_args]
        command += [*extra, "--log_samples", "--tasks", name, "--output_path", str(out)]
        run_child(command + (["--metadata", json.dumps(meta)] if meta else []))
        if (done := complete_log(out, name, model, model_args, meta.get("predictions"))) is None:
            raise UserError(f"{name}: lm_eval finished without a complete sample log under {out}")
        return done

    entity_log = stage(task, output_path / "entity", metadata)
    stage(rationale_task, output_path / "rationale", metadata | {"predictions": str(entity_log)})
    return 0


def complete_log(out: Path, task: str, model: str, model_args: str, predictions: str | None = None) -> Path | None:
    """The newest complete sample log of `task` under `out` from a run of `model` with `model_args` (and
    `predictions`, for a rationale task), or None."""

    def same_run(results: ResultsFile) -> bool:
        config = results.data.get("config", {})
        if config.get("model") != model or model_args_dict(config.get("model_args")) != model_args_dict(model_args):
            return False
        logged = results.data.get("configs", {}).get(task, {}).get("metadata", {})
        return not predictions or logged.get("predictions") == predictions

    return complete_samples(out, task, same_run)
