"""quench-chain: stages are keyed by task, model and model_args (and the entity log they read); a torn log is redone;
stopping the chain stops its lm_eval child."""

from __future__ import annotations

import shutil

from support.common import run_cli

from lm_eval_xling.quench.chain import complete_log
from lm_eval_xling.results.folders import ran


def _of(args: str):
    return ran(["--model", "hf", "--model_args", args, "--limit", "2"])


def _chain(model, out):
    args = ["lm-eval-xling", "quench-chain", "--model_args", f"pretrained={model},dtype=float32",
            "--task", "quench_indic", "--output_path", str(out),
            "--limit", "2", "--gen_kwargs", "max_gen_toks=4"]  # fmt: skip
    return run_cli(*args).stdout


def test_two_models_keep_their_own_stages_and_a_torn_log_is_redone(tmp_path, tiny_model, local_data):
    other = tmp_path / "other-model"
    shutil.copytree(tiny_model, other)
    out = tmp_path / "chain"
    assert "done already" not in _chain(tiny_model, out)
    assert "done already" not in _chain(other, out)  # another model in the same folder runs its own stages
    assert _chain(other, out).count("done already") == 2
    for model in (tiny_model, other):
        args = f"pretrained={model},dtype=float32"
        entity = complete_log(out / "entity", "quench_indic", _of(args))
        assert entity is not None and entity.parent.name.endswith(model.name)  # lm-eval's folder for this model
        assert complete_log(out / "rationale", "quench_rationale_pred", _of(args), str(entity)) is not None

    args = f"pretrained={tiny_model},dtype=float32"
    entity = complete_log(out / "entity", "quench_indic", _of(args))
    entity.write_text(entity.read_text()[:-40])  # a run killed while writing its last line
    assert complete_log(out / "entity", "quench_indic", _of(args)) is None
    again = _chain(tiny_model, out)
    assert "done already" not in again  # the entity stage and the rationale stage on its new log both run
    assert complete_log(out / "entity", "quench_indic", _of(args)) not in (None, entity)
