"""consistency run: a stage counts as done only with a complete sample log (the rule quench-chain uses), and each
stage's lm_eval runs through the shared child runner."""

from __future__ import annotations

import json
from pathlib import Path

from lm_eval_xling import child
from lm_eval_xling.xsense.pipeline import Run

TASK = "xsense_pawsx_en"


def _write_run(out: Path, stamp: str, lines: int, torn: bool = False, model_args: str = "pretrained=m") -> Path:
    """What lm_eval writes for one run of TASK: a results file counting `lines` samples and the sample log."""
    folder = out / "model"
    folder.mkdir(parents=True, exist_ok=True)
    results = {"results": {TASK: {"acc,standardize": 0.5}}, "n-samples": {TASK: {"original": 9, "effective": lines}}}
    results["config"] = {"model": "hf", "model_args": model_args, "limit": None}
    (folder / f"results_{stamp}.json").write_text(json.dumps(results))
    log = folder / f"samples_{TASK}_{stamp}.jsonl"
    text = "".join(json.dumps({"doc_id": i, "resps": [["yes"]]}) + "\n" for i in range(lines))
    log.write_text(text[:-20] if torn else text)
    return log


def test_a_torn_log_is_run_again(tmp_path, monkeypatch):
    plan = Run("hf", "pretrained=m", "xsense_pawsx", "en", "de", tmp_path)
    _write_run(tmp_path / "original", "2026-01-01T00-00-00", 3, torn=True)  # killed while writing its last line
    commands = []

    def fake_lm_eval(command: list[str]) -> None:
        commands.append(command)
        _write_run(Path(command[command.index("--output_path") + 1]), "2026-01-02T00-00-00", 3)

    monkeypatch.setattr(child, "run_child", fake_lm_eval)  # every stage runs through it
    log = plan.stage("original", TASK)
    assert len(commands) == 1 and log.name == f"samples_{TASK}_2026-01-02T00-00-00.jsonl"
    assert plan.stage("original", TASK) == log and len(commands) == 1  # complete now: done already


def test_a_finished_stage_of_another_model_is_not_taken_for_this_runs(tmp_path, monkeypatch):
    _write_run(tmp_path / "original", "2026-01-01T00-00-00", 3, model_args="pretrained=other")
    commands = []

    def fake_lm_eval(command: list[str]) -> None:
        commands.append(command)
        _write_run(Path(command[command.index("--output_path") + 1]), "2026-01-02T00-00-00", 3)

    monkeypatch.setattr(child, "run_child", fake_lm_eval)
    log = Run("hf", "pretrained=m", "xsense_pawsx", "en", "de", tmp_path).stage("original", TASK)
    assert len(commands) == 1 and log.name.endswith("2026-01-02T00-00-00.jsonl")
