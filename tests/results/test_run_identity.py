"""A resumable command takes a finished stage for its own only when the same model, model_args, limit and seed ran it
(issue 38: `consistency run` reported another model's numbers); what lm_eval writes under our commands holds no key."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lm_eval_xling.redact import strip_credentials, without_credentials
from lm_eval_xling.results.folders import ResultsFile, ran, results_written

KEY = "sk-live-0123456789abcdefghij"
COMMAND = ["python", "-m", "lm_eval", "--model", "local-chat-completions", "--model_args",
           f"model=m,base_url=http://127.0.0.1:8000/v1,api_key={KEY}", "--limit", "5"]  # fmt: skip
LOGGED = {"model": "local-chat-completions", "model_args": "model=m,base_url=http://127.0.0.1:8000/v1", "limit": 5.0}
LOGGED |= {"random_seed": 0, "numpy_seed": 1234, "torch_seed": 1234, "fewshot_seed": 1234}


def _results(**config) -> ResultsFile:
    return ResultsFile(Path("results_x.json"), {"config": LOGGED | config})


def test_the_same_run_is_recognised_with_its_key_stripped_or_rotated() -> None:
    assert ran(COMMAND)(_results())
    rotated = LOGGED["model_args"] + ",api_key=sk-other-0123456789abcdefghij"
    assert ran(COMMAND)(_results(model_args=rotated))


@pytest.mark.parametrize(
    "changed",
    [
        {"model_args": "model=other,base_url=http://127.0.0.1:8000/v1"},
        {"limit": 50.0},
        {"limit": None},
        {"model": "hf"},
        {"random_seed": 1},
    ],  # fmt: skip
)
def test_another_model_limit_or_seed_is_another_run(changed: dict) -> None:
    assert not ran(COMMAND)(_results(**changed))


def test_seeds_given_on_the_command_line_are_compared() -> None:
    rerun = [*COMMAND, "--seed", "1,1235,1235,1234"]
    assert not ran(rerun)(_results())
    assert ran(rerun)(_results(random_seed=1, numpy_seed=1235, torch_seed=1235, fewshot_seed=1234))


def test_results_written_under_our_commands_keep_no_credential(tmp_path: Path) -> None:
    path = tmp_path / "model" / "results_2026.json"
    path.parent.mkdir()
    judge = {"model": "local-chat-completions", "model_args": "model=j,api_key=abc123,base_url=http://u:pw@10.1.2.3/v1"}
    data = {"config": {"model_args": COMMAND[6]}, "configs": {"quench": {"metadata": {"judges": [judge]}}}}
    path.write_text(json.dumps(data), encoding="utf-8")
    strip_credentials(results_written(tmp_path, since=0))
    text = path.read_text(encoding="utf-8")
    assert "sk-live" not in text and "abc123" not in text and "pw@" not in text
    assert json.loads(text)["config"]["model_args"] == "model=m,base_url=http://127.0.0.1:8000/v1"
    assert without_credentials({"hf_token": "hf_abc", "token": True}) == {"token": True}  # a flag is no credential
