"""`lm-eval-xling submit`: a leaderboard file from a real `lm_eval --log_samples` run on the tiny random model."""

from __future__ import annotations

import copy
import hashlib
import json
import shutil
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from support.common import run_cli

from lm_eval_xling.errors import UserError
from lm_eval_xling.redact import local_reference
from lm_eval_xling.reports.leaderboard import SCHEMA_PATH, LeaderboardError, build_submission, check_versions, validate

TASKS = ("nsp_english_ll", "nsp_hausa_ll", "nsp_swahili_ll")


@pytest.fixture(scope="session")
def lm_eval_run(tmp_path_factory, tiny_model, data_root) -> Path:
    """lm_eval's own output folder: the group nsp_ll (three loglikelihood tasks), 4 documents each."""
    out = tmp_path_factory.mktemp("lm-eval-out")
    run_cli("lm_eval", "--model", "hf", "--model_args", f"pretrained={tiny_model},dtype=float32", "--device", "cpu",
            "--tasks", "nsp_ll", "--limit", "4", "--log_samples", "--output_path", str(out),
            env={"LM_EVAL_XLING_DATA": str(data_root)})  # fmt: skip
    return out


@pytest.fixture(scope="session")
def task_manager():
    from lm_eval.tasks import TaskManager

    return TaskManager()


@pytest.fixture(scope="session")
def submission(lm_eval_run, task_manager) -> dict:
    return build_submission(lm_eval_run, task_manager, allow_partial=True)[0]


@pytest.fixture
def run_copy(lm_eval_run, tmp_path) -> Path:
    """A copy of the run to tamper with; returns the folder holding results_*.json and the samples files."""
    shutil.copytree(lm_eval_run, tmp_path / "run")
    return next((tmp_path / "run").rglob("results_*.json")).parent


def _results_file(folder: Path) -> tuple[Path, dict]:
    path = next(folder.glob("results_*.json"))
    return path, json.loads(path.read_text(encoding="utf-8"))


def test_submit_writes_the_template_layout_with_the_runs_numbers(lm_eval_run, tmp_path):
    out = tmp_path / "submission.json"
    proc = run_cli("lm-eval-xling", "submit", "--allow_partial", str(lm_eval_run), "--out", str(out))
    assert proc.stdout.strip() == str(out)
    written = json.loads(out.read_text(encoding="utf-8"))

    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    assert list(Draft202012Validator(schema).iter_errors(written)) == []

    folder = next(lm_eval_run.rglob("results_*.json")).parent
    _, raw = _results_file(folder)
    local_model = local_reference(raw["model_name"])  # the tiny model is a local folder: no path in a public file
    assert written["config"] == {"model_name": local_model, "model_sha": "", "model_dtype": "float32"}
    assert written["model_args"] == raw["config"]["model_args"] | {"pretrained": local_model}
    assert set(written["results"]) == {*TASKS, "nsp_ll"}
    for name, entry in raw["results"].items():  # one filter ("none"): metric names without it, stderr left out
        assert written["results"][name] == {"acc": entry["acc,none"], "acc_norm": entry["acc_norm,none"]}
        for metric, score in written["results"][name].items():
            stderr = entry[f"{metric}_stderr,none"]
            assert written["ci"][name][metric] == pytest.approx([score - 1.96 * stderr, score + 1.96 * stderr])
    assert written["versions"]["lm_eval"] == raw["lm_eval_version"] == "0.4.13"
    assert written["versions"]["tasks"] == raw["versions"]

    assert set(written["samples"]) == set(written["datasets"]) == set(TASKS)
    for task in TASKS:
        path = folder / written["samples"][task]["file"]
        assert path.name.startswith(f"samples_{task}_")
        assert written["samples"][task]["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
        doc_hashes = {}
        for line in path.read_text(encoding="utf-8").splitlines():
            sample = json.loads(line)
            doc_hashes[sample["doc_id"]] = sample["doc_hash"]
        assert len(doc_hashes) == 4
        expected = hashlib.sha256("\n".join(sorted(doc_hashes.values())).encode()).hexdigest()
        dataset = written["datasets"][task]
        assert dataset == {
            "dataset_path": "lm-eval-xling/nsp",
            "dataset_name": None,
            "dataset_kwargs": raw["configs"][task]["dataset_kwargs"],
            "docs_sha256": expected,
        }


def test_the_built_submission_is_valid(submission):
    validate(submission)


def _set(path: str, value):
    def change(doc):
        *parents, last = path.split("/")
        for key in parents:
            doc = doc[key]
        doc[last] = value

    return change


def _delete(path: str):
    def change(doc):
        *parents, last = path.split("/")
        for key in parents:
            doc = doc[key]
        del doc[last]

    return change


@pytest.mark.parametrize(
    ("tamper", "named"),
    [
        (_set("results/nsp_hausa_ll/acc", "0.25"), "results/nsp_hausa_ll/acc"),
        (_set("results/nsp_hausa_ll/acc", True), "results/nsp_hausa_ll/acc"),
        (_set("samples/nsp_english_ll/sha256", "z" * 64), "samples/nsp_english_ll/sha256"),
        (_set("samples/nsp_english_ll/sha256", "abc123"), "samples/nsp_english_ll/sha256"),
        (_set("datasets/nsp_hausa_ll/docs_sha256", "A" * 64), "datasets/nsp_hausa_ll/docs_sha256"),
        (_delete("config/model_name"), "'model_name' is a required property"),
        (_set("config/model_sha", "not-a-sha"), "config/model_sha"),
        (_set("ci/nsp_ll/acc", [0.1, 0.2, 0.3]), "ci/nsp_ll/acc"),
        (_delete("datasets/nsp_swahili_ll/docs_sha256"), "datasets/nsp_swahili_ll"),
        (_delete("versions"), "'versions' is a required property"),
        (_set("results", {}), "results"),
        (_set("extra", 1), "'extra' was unexpected"),
    ],
)
def test_validate_rejects_a_tampered_file(submission, tamper, named):
    tampered = copy.deepcopy(submission)
    tamper(tampered)
    with pytest.raises(LeaderboardError, match="not a valid leaderboard submission") as err:
        validate(tampered)
    assert named in str(err.value)


def test_a_missing_samples_file_is_refused(run_copy):
    next(run_copy.glob("samples_nsp_hausa_ll_*.jsonl")).unlink()
    proc = run_cli("lm-eval-xling", "submit", "--allow_partial", str(run_copy), check=False)
    assert proc.returncode != 0
    assert "nsp_hausa_ll: no samples file samples_nsp_hausa_ll_" in proc.stderr
    assert "nsp_english_ll" not in proc.stderr
    assert not (run_copy / "leaderboard.json").exists()


def test_a_subtask_without_results_is_refused(run_copy, task_manager):
    path, raw = _results_file(run_copy)
    del raw["results"]["nsp_swahili_ll"]
    path.write_text(json.dumps(raw), encoding="utf-8")
    with pytest.raises(LeaderboardError, match=r"nsp_swahili_ll: listed in results_.*\.json .* no results entry"):
        build_submission(run_copy, task_manager, allow_partial=True)


def test_results_of_another_task_version_are_refused(run_copy, task_manager):
    path, raw = _results_file(run_copy)
    raw["versions"]["nsp_english_ll"] = 0.5
    path.write_text(json.dumps(raw), encoding="utf-8")
    with pytest.raises(LeaderboardError) as err:
        build_submission(run_copy, task_manager, allow_partial=True)
    message = str(err.value)
    assert "nsp_english_ll: results were produced with task version 0.5, but the task is now at version 1.0" in message
    assert "nsp_hausa_ll" not in message


def test_tasks_the_task_manager_does_not_know_are_noted_not_checked(task_manager):
    problems, notes = check_versions({"no_such_task_anywhere": 3, "nsp_hausa_ll": "1.0"}, task_manager)
    assert problems == []
    assert notes == ["no_such_task_anywhere: not known to lm-eval's TaskManager here; its version 3 was not checked"]


def test_a_newer_run_replaces_its_tasks_and_runs_of_other_tasks_merge(run_copy, task_manager):
    path, raw = _results_file(run_copy)
    stamp = "2999-01-01T00-00-00.000000"
    newer = copy.deepcopy(raw)
    newer["results"] = {"nsp_english_ll": raw["results"]["nsp_english_ll"] | {"acc,none": 0.99}}
    newer["configs"] = {"nsp_english_ll": raw["configs"]["nsp_english_ll"]}
    newer["configs"]["nsp_english_ll"]["dataset_kwargs"]["revision"] = "v1.2"
    newer["versions"] = {"nsp_english_ll": 1.0}
    newer["group_subtasks"] = {}
    path.with_name(f"results_{stamp}.json").write_text(json.dumps(newer), encoding="utf-8")
    log = next(run_copy.glob("samples_nsp_english_ll_*.jsonl"))
    shutil.copy(log, run_copy / f"samples_nsp_english_ll_{stamp}.jsonl")

    merged, notes = build_submission(run_copy, task_manager, allow_partial=True)
    validate(merged)
    assert merged["results"]["nsp_english_ll"]["acc"] == 0.99
    assert merged["results"]["nsp_hausa_ll"]["acc"] == raw["results"]["nsp_hausa_ll"]["acc,none"]
    assert merged["samples"]["nsp_english_ll"]["file"] == f"samples_nsp_english_ll_{stamp}.jsonl"
    assert merged["samples"]["nsp_hausa_ll"]["file"].startswith(f"samples_nsp_hausa_ll_{path.stem[8:]}")
    assert merged["datasets"]["nsp_english_ll"]["revision"] == "v1.2"
    assert "docs_sha256" not in merged["datasets"]["nsp_english_ll"]
    assert any("merged 2 results files" in note for note in notes)


def test_results_of_two_models_are_refused(run_copy, task_manager):
    other = run_copy.parent / "other-model"
    shutil.copytree(run_copy, other)
    path, raw = _results_file(other)
    raw["model_name"] = "someone/else"
    raw["config"]["model_args"] |= {"api_key": PLANTED["api_key"]}
    path.write_text(json.dumps(raw), encoding="utf-8")
    with pytest.raises(UserError, match="results of 2 different runs") as err:
        build_submission(run_copy.parent, task_manager, allow_partial=True)
    assert "- someone/else: results_" in str(err.value)
    assert PLANTED["api_key"] not in str(err.value)  # the listing of the runs names no credential


PLANTED = {
    "auth_token": "hf_PlantedAuthToken0123456789abcdef",
    "api_key": "sk-planted-api-key-0123456789",
    "base_url": "http://gpu-node-17.corp.internal:8000/v1/completions",
    "tokenizer": "/home/alice/tokenizers/planted-tokenizer",
    "pretrained": "/home/alice/checkpoints/planted-model",
}


def test_submit_publishes_no_credential_host_or_local_path(run_copy, tmp_path):
    path, raw = _results_file(run_copy)
    raw["config"]["model_args"] |= PLANTED
    raw["model_name"] = PLANTED["pretrained"]
    raw["configs"]["nsp_hausa_ll"]["dataset_kwargs"] |= {"token": "hf_PlantedDatasetToken0123456789ab"}
    path.write_text(json.dumps(raw), encoding="utf-8")
    out = tmp_path / "leaderboard.json"
    proc = run_cli("lm-eval-xling", "submit", "--allow_partial", str(run_copy), "--out", str(out))
    text = out.read_text(encoding="utf-8")
    for planted in [*PLANTED.values(), "hf_PlantedDatasetToken", "gpu-node-17", "corp.internal", "/home/alice"]:
        assert planted not in text
        assert planted not in proc.stdout + proc.stderr
    written = json.loads(text)
    assert written["config"]["model_name"] == local_reference(PLANTED["pretrained"])
    assert written["config"]["model_name"].startswith("local:planted-model:")
    assert hashlib.sha256(PLANTED["pretrained"].encode()).hexdigest()[:12] not in text  # not reversible by a guess
    assert written["model_args"] == {
        "pretrained": written["config"]["model_name"],
        "dtype": "float32",
        "tokenizer": local_reference(PLANTED["tokenizer"]),
    }
    assert written["removed"] == [
        f"config.model_name: local path, replaced by {written['config']['model_name']}",
        f"model_args.pretrained: local path, replaced by {written['config']['model_name']}",
        "model_args.auth_token: credential, dropped",
        "model_args.api_key: credential, dropped",
        "model_args.base_url: URL (names a host), dropped",
        f"model_args.tokenizer: local path, replaced by {local_reference(PLANTED['tokenizer'])}",
        "datasets.nsp_hausa_ll.dataset_kwargs.token: credential, dropped",
    ]
    assert "model_args.auth_token: credential, dropped" in proc.stderr


def test_a_log_of_another_task_is_refused(run_copy):
    hausa = next(run_copy.glob("samples_nsp_hausa_ll_*.jsonl"))
    shutil.copy(next(run_copy.glob("samples_nsp_english_ll_*.jsonl")), hausa)
    proc = run_cli("lm-eval-xling", "submit", "--allow_partial", str(run_copy), check=False)
    assert proc.returncode == 2
    assert f"nsp_hausa_ll: {hausa}: not the sample log results_" in proc.stderr
    assert "task_hashes.nsp_hausa_ll" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert not (run_copy / "leaderboard.json").exists()


def test_a_limited_run_is_refused_unless_allowed_and_then_marked_partial(lm_eval_run, tmp_path):
    out = tmp_path / "leaderboard.json"
    proc = run_cli("lm-eval-xling", "submit", str(lm_eval_run), "--out", str(out), check=False)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "a partial run (limit 4; documents evaluated: nsp_english_ll 4 of" in proc.stderr
    assert "--allow_partial" in proc.stderr and not out.exists()

    run_cli("lm-eval-xling", "submit", str(lm_eval_run), "--out", str(out), "--allow_partial")
    run = json.loads(out.read_text(encoding="utf-8"))["run"]
    assert run["partial"] is True and run["limit"] == 4
    assert run["n_samples"]["nsp_hausa_ll"]["effective"] == 4 < run["n_samples"]["nsp_hausa_ll"]["original"]


def test_the_submission_records_how_the_numbers_were_made(run_copy, task_manager):
    path, raw = _results_file(run_copy)
    raw["config"]["gen_kwargs"] = {"temperature": 0, "max_gen_toks": 64}
    raw["config"]["model_args"] |= {"enable_thinking": False}
    raw |= {"chat_template": "{{ messages }}", "chat_template_sha": "a" * 64, "fewshot_as_multiturn": True}
    raw["configs"]["nsp_hausa_ll"]["metadata"] |= {"bertscore_note": "offline stand-in"}
    path.write_text(json.dumps(raw), encoding="utf-8")
    run = build_submission(run_copy, task_manager, allow_partial=True)[0]["run"]
    assert run["gen_kwargs"] == {"temperature": 0, "max_gen_toks": 64}
    assert (run["apply_chat_template"], run["chat_template_sha256"]) == (True, "a" * 64)
    assert run["fewshot_as_multiturn"] is True and run["system_instruction_sha256"] is None
    assert run["thinking"] == {"enable_thinking": False}
    assert run["num_fewshot"] == dict.fromkeys(TASKS, 0)
    assert run["notes"] == {"nsp_hausa_ll": {"bertscore_note": "offline stand-in"}}


def test_a_nan_metric_is_listed_as_removed_and_a_share_out_of_range_is_refused(run_copy, task_manager):
    path, raw = _results_file(run_copy)
    raw["results"]["nsp_hausa_ll"]["acc_norm,none"] = float("nan")
    path.write_text(json.dumps(raw), encoding="utf-8")
    submission = build_submission(run_copy, task_manager, allow_partial=True)[0]
    assert "acc_norm" not in submission["results"]["nsp_hausa_ll"]
    assert "results.nsp_hausa_ll.acc_norm,none: nan is NaN: nothing to average" in "\n".join(submission["removed"])

    raw["results"]["nsp_hausa_ll"]["acc,none"] = 7.5
    path.write_text(json.dumps(raw), encoding="utf-8")
    with pytest.raises(LeaderboardError, match=rf"nsp_hausa_ll: metric acc,none is 7.5, outside \[0, 1\].*{path}"):
        build_submission(run_copy, task_manager, allow_partial=True)


def test_a_count_below_zero_or_not_whole_is_refused(run_copy, task_manager):
    path, raw = _results_file(run_copy)
    for value, shown in ((-3, "-3.0"), (1.5, "1.5")):
        raw["results"]["nsp_hausa_ll"]["jury_failures,none"] = value
        path.write_text(json.dumps(raw), encoding="utf-8")
        with pytest.raises(LeaderboardError, match=rf"jury_failures,none is {shown}, not a count.*{path}"):
            build_submission(run_copy, task_manager, allow_partial=True)


def test_responses_hash_changes_when_a_reply_is_edited(run_copy, task_manager):
    before = build_submission(run_copy, task_manager, allow_partial=True)[0]["samples"]["nsp_hausa_ll"]
    log = next(run_copy.glob("samples_nsp_hausa_ll_*.jsonl"))
    lines = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    lines[0]["resps"][0][0][0] = "-0.001"  # a loglikelihood made up; the doc, prompt and target hashes still match
    log.write_text("".join(json.dumps(line, indent=1).replace("\n", "") + "\n" for line in lines), encoding="utf-8")
    after = build_submission(run_copy, task_manager, allow_partial=True)[0]["samples"]["nsp_hausa_ll"]
    assert after["responses_sha256"] != before["responses_sha256"]


def test_a_figure_the_task_reports_with_its_interval_is_published_with_it(run_copy, task_manager):
    """QUENCH reports a corrected accuracy beside its own interval (`<metric>_ci_low/_ci_high`, no stderr): the
    submission's `ci` is that interval, never null."""
    path, raw = _results_file(run_copy)
    raw["results"]["nsp_hausa_ll"] |= {"jury_lee,none": 61.0, "jury_lee_ci_low,none": 48.5, "jury_lee_ci_high,none": 72}
    path.write_text(json.dumps(raw), encoding="utf-8")
    submission = build_submission(run_copy, task_manager, allow_partial=True)[0]
    assert submission["results"]["nsp_hausa_ll"]["jury_lee"] == 61.0
    assert submission["ci"]["nsp_hausa_ll"]["jury_lee"] == [48.5, 72]
