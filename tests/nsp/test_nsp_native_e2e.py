"""End to end: nsp_hausa_cot_native on the embedded model through real lm_eval, re-scored from its sample logs."""

from __future__ import annotations

import json
import re

import pytest
from support.common import run_cli

from lm_eval_xling.config import task_dir

pytestmark = pytest.mark.slow


def test_native_cot_run_is_rescored_identically(tmp_path, local_data):
    from lm_eval_xling.embedded import model_dir

    out = tmp_path / "out"
    run_cli(
        "lm_eval", "--model", "hf", "--model_args", f"pretrained={model_dir()}",
        "--tasks", "nsp_hausa_cot_native", "--limit", "2", "--batch_size", "2", "--apply_chat_template",
        "--gen_kwargs", "max_gen_toks=96", "--log_samples", "--output_path", str(out),
    )  # fmt: skip
    results = json.loads(next(out.rglob("results_*.json")).read_text())
    live = results["results"]["nsp_hausa_cot_native"]
    template = (task_dir() / "nsp" / "_nsp_direct_template_yaml").read_text(encoding="utf-8")
    assert results["versions"]["nsp_hausa_cot_native"] == float(re.search(r"version: (\S+)", template)[1])
    logs = sorted(out.rglob("samples_nsp_hausa_cot_native_*.jsonl"))
    first = json.loads(logs[0].read_text(encoding="utf-8").splitlines()[0])
    prompt = first["arguments"]["gen_args_0"]["arg_0"]
    assert "a cikin harshen Hausa" in prompt and "guda daya kawai: A ko B." in prompt  # reasoning asked in Hausa
    rescored = json.loads(run_cli("lm-eval-xling", "score", *map(str, logs), "--json").stdout)
    for metric in ("acc,extract", "invalid,extract", "invalid_rules,extract"):
        assert rescored["nsp_hausa_cot_native"][metric] == pytest.approx(live[metric]), metric
