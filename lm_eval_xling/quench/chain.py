"""The chained QUENCH run (`quench-chain`): the entity run, then the predicted-rationale run on its own replies.

A stage is done only when its folder holds a complete sample log of that exact task, model, model_args, limit and
seed (`results.folders.ran`; for the rationale stage, also of that entity log): the results file of the same run
names them and counts as many samples as the log has whole lines. Stopping the chain (Ctrl-C, SIGTERM) stops the
running `lm_eval` too."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from lm_eval_xling.child import lm_eval_command, run_stage
from lm_eval_xling.errors import UserError
from lm_eval_xling.results.folders import ResultsFile, complete_samples, ran


def run_chain(
    model: str, model_args: str, task: str, output_path: Path, judges: list | None, extra: list[str],
    launcher: str | None = None,
) -> int:  # fmt: skip
    """Entity run, then the predicted-rationale run (CoT after a CoT entity task) on the entity run's own replies,
    each `lm_eval` started through `launcher` where one is given (`child.lm_eval_command`)."""
    metadata = {"judges": judges} if judges else {}
    rationale_task = "quench_rationale_pred_cot" if task.endswith("_cot") else "quench_rationale_pred"

    def stage(name: str, out: Path, meta: dict) -> Path:
        command = [*lm_eval_command(launcher), "--model", model, "--model_args", model_args]
        command += [*extra, "--log_samples", "--tasks", name, "--output_path", str(out)]
        command += ["--metadata", json.dumps(meta)] if meta else []
        if (done := complete_log(out, name, ran(command), meta.get("predictions"))) is not None:
            print(f"{name}: done already ({done}); skipped")
            return done
        run_stage(command, out, name)
        if (done := complete_log(out, name, ran(command), meta.get("predictions"))) is None:
            raise UserError(f"{name}: lm_eval finished without a complete sample log under {out}")
        return done

    entity_log = stage(task, output_path / "entity", metadata)
    stage(rationale_task, output_path / "rationale", metadata | {"predictions": str(entity_log)})
    return 0


def complete_log(
    out: Path, task: str, same_run: Callable[[ResultsFile], bool], predictions: str | None = None
) -> Path | None:
    """The newest complete sample log of `task` under `out` from a run that `same_run` accepts (`folders.ran`:
    this model, model_args, limit and seed) and, for a rationale task, of `predictions`; or None."""

    def of_this_run(results: ResultsFile) -> bool:
        logged = results.data.get("configs", {}).get(task, {}).get("metadata", {})
        return same_run(results) and (not predictions or logged.get("predictions") == predictions)

    return complete_samples(out, task, of_this_run)
