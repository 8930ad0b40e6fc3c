"""The jury against a real OpenAI-compatible server (llama-cpp-python, embedded GGUF) on loopback.

End to end through `lm_eval` (two server judges behind a counting proxy plus one hf judge), the cached re-run,
credentials kept out of every output, and faults injected between the jury and the server.
"""

from __future__ import annotations

import json
import math
import threading
import uuid

import pytest
from support.common import run_cli
from support.fault_proxy import FaultProxy
from support.llama_server import LlamaServer

from lm_eval_xling.metrics.jury import Judge, Jury, VerdictCache
from lm_eval_xling.metrics.verdicts import parse_binary

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server():
    from lm_eval_xling.embedded import gguf_path

    with LlamaServer(gguf_path()) as running:
        yield running


def server_judge(name: str, port: int, **extra: str) -> dict:
    args = {
        "model": name,
        "base_url": f"http://127.0.0.1:{port}/v1/chat/completions",
        "num_concurrent": "1",
        "max_retries": "3",
        "tokenized_requests": "False",
        **extra,
    }
    return {"model": "local-chat-completions", "model_args": ",".join(f"{k}={v}" for k, v in args.items())}


def _results(out):
    return json.loads(next(out.rglob("results_*.json")).read_text())["results"]


def test_quench_judged_end_to_end_then_served_from_cache(tmp_path, server, tiny_model, local_data):
    from lm_eval_xling.embedded import model_dir

    planted = f"sk-planted-{uuid.uuid4().hex}"
    with FaultProxy(server.port) as proxy:
        meta = {
            "judges": [
                server_judge("judge-a", proxy.port),
                server_judge("judge-b", proxy.port),
                {"model": "hf", "model_args": f"pretrained={tiny_model},dtype=float32", "name": "tiny_hf"},
                {"model": "hf", "model_args": f"pretrained={model_dir()}", "name": "self"},  # the evaluated model
            ],
            "judge_cache": str(tmp_path / "judge_cache.sqlite"),
            "judge_exclude_self": True,  # the paper let models judge themselves; this run tests the option
            "judge_max_tokens": 64,  # a verdict fits; the default 512 lets the small judge ramble for minutes
        }

        def run(out):
            return run_cli(
                "lm_eval", "--model", "hf", "--model_args", f"pretrained={model_dir()}",
                "--tasks", "quench_indic,quench_rationale_gold", "--limit", "2", "--batch_size", "4",
                "--apply_chat_template", "--gen_kwargs", "max_gen_toks=48", "--log_samples",
                "--output_path", str(out), "--metadata", json.dumps(meta),
                "--use_cache", str(tmp_path / "model_cache"),  # the re-run's replies come from lm-eval's cache
                env={"OPENAI_API_KEY": planted},
            )  # fmt: skip

        first = run(tmp_path / "first")
        proxy.wait_idle()
        judged = proxy.forwarded_ok
        second = run(tmp_path / "second")
        proxy.wait_idle()
        assert proxy.forwarded_ok == judged  # the re-run sent nothing to the server
    assert judged > 0
    assert "jury: 0 judge requests sent" in second.stderr
    assert "jury: 0 judge requests sent" not in first.stderr

    results = _results(tmp_path / "first")
    for task in ("quench_indic", "quench_rationale_gold"):
        metrics = results[task]
        for name in ("judge_judge_a", "judge_judge_b", "judge_tiny_hf", "jury_mean", "jury_majority", "jury_kappa"):
            assert f"{name},extract" in metrics, (task, name)
        assert metrics["jury_failures,extract"] == 0
        assert math.isnan(metrics["judge_self,extract"])
        before, again = metrics["judge_judge_a,extract"], _results(tmp_path / "second")[task]["judge_judge_a,extract"]
        assert before == again or math.isnan(before) and math.isnan(again)
    assert 0 <= results["quench_indic"]["judge_judge_a,extract"] <= 100  # verdicts were read (rationales ramble)
    # every judged unit in the sample logs carries each judge's verdict or an explicit mark
    for log in (tmp_path / "first").rglob("samples_*.jsonl"):
        for line in log.read_text().splitlines():
            marks = json.loads(json.loads(line)["filtered_resps"][0])["jury"]
            for unit in marks:
                assert set(unit) == {"judge_a", "judge_b", "tiny_hf", "self"}
                assert "skipped" in unit["self"]  # judge_exclude_self: a model does not judge its own outputs
                assert all(r.keys() & {"reply", "error", "note", "skipped"} for r in unit.values())
                assert all("verdict" in r for r in unit.values())

    written = [p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()]
    assert not any(planted.encode() in data for data in written)
    assert planted not in first.stdout + first.stderr + second.stdout + second.stderr


def test_score_judges_a_predict_only_run_after_the_fact(tmp_path, server, local_data):
    from lm_eval_xling.embedded import model_dir

    out = tmp_path / "out"
    run_cli(
        "lm_eval", "--model", "hf", "--model_args", f"pretrained={model_dir()}", "--apply_chat_template",
        "--tasks", "quench_indic", "--limit", "3", "--gen_kwargs", "max_gen_toks=48", "--batch_size", "3",
        "--predict_only", "--log_samples", "--output_path", str(out),
        "--metadata", json.dumps({"judge_max_tokens": 16}),  # score judges with the run's metadata
    )  # fmt: skip
    log = next(out.rglob("samples_quench_indic_*.jsonl"))
    judges = json.dumps([server_judge("late-judge", server.port)])
    scored = json.loads(
        run_cli(
            "lm-eval-xling",
            "score",
            str(log),
            "--judges",
            judges,
            "--json",
            env={"LM_EVAL_XLING_JUDGE_CACHE": str(tmp_path / "c.sqlite")},
        ).stdout  # fmt: skip
    )["quench_indic"]
    assert 0 <= scored["judge_late_judge,extract"] <= 100
    assert scored["jury_failures,extract"] == 0
    assert len(VerdictCache(tmp_path / "c.sqlite")) > 0  # the judge was really asked


def _jury(proxy_port: int, cache_path, **extra) -> Jury:
    judge = Judge.from_spec(server_judge("faulty", proxy_port, **extra))
    return Jury([judge], VerdictCache(cache_path))


PROMPTS = [
    f"Is {city} the capital of France? Answer correct or incorrect." for city in ("Paris", "Lyon", "Nice", "Metz")
]


def test_faults_are_retried_and_nothing_is_judged_twice(tmp_path, server):
    with FaultProxy(server.port, hang_s=17) as proxy:
        proxy.faults.extend(["500", "429", "garbage", "timeout", "500"])
        jury = _jury(proxy.port, tmp_path / "c.sqlite", timeout="15")
        units = jury.judge(PROMPTS, parse_binary, max_tokens=8)
        assert proxy.injected == 5
        assert all("reply" in u["faulty"] or "error" in u["faulty"] for u in units)
        judged = sum("reply" in u["faulty"] for u in units)
        proxy.wait_idle()
        assert proxy.forwarded_ok == judged  # every verdict delivered was kept: none asked for twice
        again = _jury(proxy.port, tmp_path / "c.sqlite", timeout="15").judge(PROMPTS, parse_binary, max_tokens=8)
        assert all("reply" in u["faulty"] for u in again)
        proxy.wait_idle()
        assert proxy.forwarded_ok == len(PROMPTS)  # the re-run asked only for what was missing


def test_a_reply_without_content_is_a_failure_never_cached(tmp_path, server):
    with FaultProxy(server.port) as proxy:
        proxy.faults.extend(["null"])
        units = _jury(proxy.port, tmp_path / "c.sqlite", timeout="15").judge(PROMPTS[:1], parse_binary, max_tokens=8)
        assert "error" in units[0]["faulty"] and proxy.injected == 1
        assert len(VerdictCache(tmp_path / "c.sqlite")) == 0
        again = _jury(proxy.port, tmp_path / "c.sqlite", timeout="15").judge(PROMPTS[:1], parse_binary, max_tokens=8)
        assert "reply" in again[0]["faulty"] and proxy.forwarded_ok == 1  # the judge, fixed, is asked again


def test_server_killed_mid_run_then_restarted_resumes(tmp_path, server):
    with FaultProxy(server.port) as proxy:
        restarting = threading.Timer(1.0, server.start)

        def kill_once_then_restart(count: int) -> None:
            # Forwards that fail while the server is down leave the count at 1: kill and restart only once.
            if count == 1 and restarting.ident is None:
                server.stop()
                restarting.start()

        proxy.on_forward = kill_once_then_restart
        units = _jury(proxy.port, tmp_path / "c.sqlite", timeout="15").judge(PROMPTS, parse_binary, max_tokens=8)
        assert all("reply" in u["faulty"] or "error" in u["faulty"] for u in units)
        proxy.on_forward = None
        restarting.join()
        server.wait_ready(60)
        again = _jury(proxy.port, tmp_path / "c.sqlite", timeout="15").judge(PROMPTS, parse_binary, max_tokens=8)
        assert all("reply" in u["faulty"] for u in again)
        assert proxy.forwarded_ok == len(PROMPTS)
