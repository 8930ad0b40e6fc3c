"""Every family gives the same numbers on 1 or 2 data-parallel processes (lm-eval's own data parallelism, started by
`lm-eval-xling run --launcher`), with every document logged once.

HFLM splits documents among processes only across GPUs; here the processes are CPU ones, so the run uses
`hf-cpu-dp` (tests/support/cpu_data_parallel.py: HFLM taking rank and world size from its accelerator, as HFLM does
on GPUs) under `torchrun --nproc_per_node 2`: the evaluator's data-parallel path (requests split by rank, padded,
gathered, aggregated on rank 0) is the one a GPU node runs."""

from __future__ import annotations

import json
import math
import os
from collections import Counter
from pathlib import Path

import pytest
from support.common import REPO, run_cli
from support.phrased_judge import PhrasedJudge

# one task of every family (QUENCH judged by a loopback judge: each process asks it, through one verdict cache)
TASKS = "nsp_english,nsp_english_ll,nsp_global_sw,quench_indic,xparade_en_es,xsense_pawsx_en,ynq_english"
LIMIT = "4"
# xsense samples (temperature 0.25, the authors' setting): each process draws from its own random stream, so sampled
# replies agree across process counts in distribution only; greedy decoding makes every family comparable digit for
# digit
GREEDY = "max_gen_toks=16,do_sample=False"
SITE = REPO / "tests" / "support" / "data_parallel"
# the processes find `hf-cpu-dp` (SITE's sitecustomize) and accelerate takes them for CPU processes
ENV = {"PYTHONPATH": os.pathsep.join([str(SITE), str(REPO / "tests")]), "ACCELERATE_USE_CPU": "true"}


def _run(out: Path, tiny_model: Path, judge_port: int, launcher: str | None) -> tuple[dict, str]:
    """(the results file, stderr) of `lm-eval-xling run` on every family's task."""
    judge = {
        "model": "local-chat-completions",
        "model_args": f"model=phrased,base_url=http://127.0.0.1:{judge_port}/v1/chat/completions,num_concurrent=2,"
        "max_retries=1,tokenized_requests=False",
        "name": "phrased",
    }
    metadata = {"judges": [judge], "judge_cache": str(out / "judge_cache.sqlite")}
    proc = run_cli(
        "lm-eval-xling", "run", *(["--launcher", launcher] if launcher else []), "--model", "hf-cpu-dp",
        "--model_args", f"pretrained={tiny_model}", "--device", "cpu", "--tasks", TASKS, "--limit", LIMIT,
        "--batch_size", "1", "--gen_kwargs", GREEDY, "--metadata", json.dumps(metadata),
        "--output_path", str(out), "--log_samples",
        env=ENV,
    )  # fmt: skip
    [results] = out.rglob("results_*.json")
    return json.loads(results.read_text(encoding="utf-8")), proc.stderr


def _numbers(metrics: dict) -> dict[str, float]:
    return {k: v for k, v in metrics.items() if isinstance(v, (int, float)) and not isinstance(v, bool)}


def _logged(out: Path) -> dict[str, Counter]:
    """{task: Counter of (doc_id, filter)} over every sample log."""
    logged = {}
    for path in out.rglob("samples_*.jsonl"):
        lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        logged[path.name.removeprefix("samples_").rsplit("_", 1)[0]] = Counter(
            (s["doc_id"], s["filter"]) for s in lines
        )
    return logged


@pytest.mark.usefixtures("local_data")
def test_two_data_parallel_processes_give_the_one_process_numbers(tmp_path, tiny_model):
    with PhrasedJudge() as judge:
        one, one_err = _run(tmp_path / "one", tiny_model, judge.port, None)
        two, two_err = _run(tmp_path / "two", tiny_model, judge.port, "torchrun --nproc_per_node 2")
    assert "hf-cpu-dp: rank" not in one_err
    assert "hf-cpu-dp: rank 0 of 2" in two_err and "hf-cpu-dp: rank 1 of 2" in two_err  # the documents were split
    assert set(one["results"]) == set(two["results"]) >= set(TASKS.split(","))
    for task, metrics in one["results"].items():
        expected, got = _numbers(metrics), _numbers(two["results"][task])
        assert set(got) == set(expected), task
        for metric, value in expected.items():
            same = math.isnan(value) and math.isnan(got[metric]) or got[metric] == pytest.approx(value, rel=1e-9)
            assert same, (task, metric, value, got[metric])
    assert one["results"]["quench_indic"]["jury_failures,extract"] == 0
    logged_one, logged_two = _logged(tmp_path / "one"), _logged(tmp_path / "two")
    assert logged_one.keys() == logged_two.keys() == set(TASKS.split(","))
    for task, counts in logged_two.items():
        assert counts == logged_one[task], task  # the same documents, each once per filter
        assert set(counts.values()) == {1}, task


@pytest.mark.usefixtures("local_data")
def test_quench_chain_runs_each_stage_on_two_processes_and_resumes(tmp_path, tiny_model):
    out = tmp_path / "chain"
    args = ["lm-eval-xling", "quench-chain", "--launcher", "torchrun --nproc_per_node 2", "--model", "hf-cpu-dp",
            "--model_args", f"pretrained={tiny_model}", "--device", "cpu", "--task", "quench_indic",
            "--output_path", str(out), "--limit", "3", "--batch_size", "1",
            "--gen_kwargs", "max_gen_toks=4"]  # fmt: skip
    first = run_cli(*args, env=ENV)
    assert first.stderr.count("hf-cpu-dp: rank 1 of 2") == 2  # both stages split their documents
    logged = _logged(out)
    assert set(logged) == {"quench_indic", "quench_rationale_pred"}
    assert all(set(counts.values()) == {1} for counts in logged.values())
    assert run_cli(*args, env=ENV).stdout.count("done already") == 2  # resumed: nothing run again


def test_consistency_stages_start_lm_eval_through_the_launcher(tmp_path, monkeypatch):
    from lm_eval_xling import child
    from lm_eval_xling.xsense import pipeline

    commands = []
    monkeypatch.setattr(child, "run_child", commands.append)
    plan = pipeline.Run(
        "hf", "pretrained=m", "xsense_pawsx", "en", "de", tmp_path, launcher="torchrun --nproc_per_node 2"
    )
    with pytest.raises(RuntimeError, match="wrote no complete sample log"):  # nothing ran: run_child was replaced
        plan.stage("original", "xsense_pawsx_en")
    [command] = commands
    assert Path(command[0]).name == "torchrun" and command[1:5] == ["--nproc_per_node", "2", "-m", "lm_eval"]
    assert command[command.index("--tasks") + 1] == "xsense_pawsx_en"
