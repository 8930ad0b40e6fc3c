"""Our tasks are found by an unmodified lm-eval: CLI listing, validation, simple_evaluate, wheel installs."""

from __future__ import annotations

import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest
from support.common import REPO, run_cli

LANGUAGES = ("english", "swahili", "hausa")
NSP_TASKS = [f"nsp_{lang}{variant}" for lang in LANGUAGES for variant in ("", "_cot", "_ll", "_1k", "_cot_1k")]
NSP_GROUPS = ["nsp", "nsp_cot", "nsp_ll"]


def test_lm_eval_ls_lists_all_nsp_tasks_and_groups():
    out = run_cli("lm_eval", "ls", "tasks").stdout
    listed = {cell.strip() for line in out.splitlines() for cell in line.split("|")}
    assert len(NSP_TASKS) == 15
    assert set(NSP_TASKS + NSP_GROUPS + ["nsp_1k"]) <= listed


def test_lm_eval_validate_passes_on_the_groups():
    proc = run_cli("lm-eval", "validate", "--tasks", "nsp,nsp_cot,nsp_ll,nsp_1k")
    assert "All tasks found and valid" in proc.stdout + proc.stderr


def test_simple_evaluate_runs_our_task_without_include_path(local_data):
    import lm_eval

    results = lm_eval.simple_evaluate(model="dummy", tasks=["nsp_hausa"], limit=3, log_samples=True)
    assert set(results["results"]["nsp_hausa"]) >= {"acc,extract", "invalid,extract"}
    assert [s["doc"]["id"] for s in results["samples"]["nsp_hausa"]] == [
        "ha-00000",
        "ha-00001",
        "ha-00002",
    ]


def test_user_include_path_keeps_working_and_wins_over_ours(tmp_path):
    from lm_eval.tasks import TaskManager

    (tmp_path / "mine.yaml").write_text(
        "task: nsp_hausa\ndataset_path: someone/else\noutput_type: generate_until\n"
        "doc_to_text: q\ndoc_to_target: a\ntest_split: test\n"
    )
    (tmp_path / "other.yaml").write_text(
        "task: my_private_task\ndataset_path: someone/else\noutput_type: generate_until\n"
        "doc_to_text: q\ndoc_to_target: a\ntest_split: test\n"
    )
    index = TaskManager(include_path=str(tmp_path)).task_index
    assert index["nsp_hausa"].yaml_path == tmp_path / "mine.yaml"
    assert index["my_private_task"].yaml_path == tmp_path / "other.yaml"
    assert index["nsp_english"].yaml_path.name == "nsp_english.yaml"
    assert "nsp_english" not in TaskManager(include_defaults=False, include_path=str(tmp_path)).task_index


def test_lm_evals_own_task_index_is_parsed_once_then_read_from_the_cache(tmp_path, monkeypatch):
    from lm_eval.tasks import TaskManager, _index

    from lm_eval_xling.config import task_dir

    monkeypatch.setenv("LM_EVAL_XLING_CACHE", str(tmp_path))
    first = TaskManager().task_index
    assert len(list((tmp_path / "lm-eval-task-index").glob("*.pickle"))) == 1
    parsed, parse = [], _index.load_yaml
    monkeypatch.setattr(_index, "load_yaml", lambda path, **kw: parsed.append(Path(path)) or parse(path, **kw))
    second = TaskManager().task_index
    assert second.keys() == first.keys() and len(second) > 10_000
    assert second["xnli_en"].cfg == first["xnli_en"].cfg and second["nsp_hausa"].cfg == first["nsp_hausa"].cfg
    assert parsed and all(task_dir() in p.parents for p in parsed)  # only our folder was parsed again


def test_an_unwritable_cache_folder_only_loses_the_cache(tmp_path, monkeypatch):
    from lm_eval.tasks import TaskManager

    (tmp_path / "file").write_text("")
    monkeypatch.setenv("LM_EVAL_XLING_CACHE", str(tmp_path / "file" / "cache"))  # under a file: mkdir fails
    assert "nsp_hausa" in TaskManager().task_index


def test_hook_steps_aside_once_lm_eval_reads_task_entry_points(tmp_path):
    import types

    import lm_eval.tasks.manager

    from lm_eval_xling._autoinclude import _reads_task_entry_points

    assert not _reads_task_entry_points(lm_eval.tasks.manager)
    (tmp_path / "manager.py").write_text('paths = entry_points(group="lm_eval.tasks")\n')
    assert _reads_task_entry_points(types.SimpleNamespace(__file__=str(tmp_path / "manager.py")))


@pytest.mark.slow
def test_regular_wheel_install_finds_tasks_and_builds_data(tmp_path, synthetic_raw):
    """`pip install .` (a real wheel, not editable) ships task_yamls/, hub_datasets/ and the hook."""
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", tmp_path / "dist", REPO],
        check=True,
    )
    wheel = next((tmp_path / "dist").glob("lm_eval_xling-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert "lm_eval_xling_autoinclude.pth" in names
    assert "lm_eval_xling/task_yamls/nsp/nsp_hausa.yaml" in names
    assert "lm_eval_xling/hub_datasets/nsp/build.py" in names

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", venv], check=True)
    python = venv / "bin" / "python"
    # Borrow this environment's dependencies (lm-eval, datasets...) without its lm_eval_xling: the
    # new venv's own site-packages, holding the wheel, comes first on sys.path.
    child_site = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    parent_site = sysconfig.get_path("purelib")
    (Path(child_site) / "zz_parent_env.pth").write_text(f"import site; site.addsitedir({parent_site!r})\n")
    subprocess.run([python, "-m", "pip", "install", "-q", "--no-deps", wheel], check=True)
    site = subprocess.run(
        [python, "-c", "import lm_eval_xling, sys; print(lm_eval_xling.__file__)"],
        capture_output=True, text=True, check=True, cwd=tmp_path,
    ).stdout  # fmt: skip
    assert str(venv) in site  # the wheel's copy, not the checkout's

    listed = subprocess.run(
        [python, "-m", "lm_eval", "ls", "tasks"],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
    ).stdout
    assert "nsp_hausa_cot_1k" in listed and str(venv) in listed

    built = subprocess.run(
        [venv / "bin" / "lm-eval-xling", "data", "build", "--raw", synthetic_raw, "--out", tmp_path / "d"],
        capture_output=True, text=True, check=True, cwd=tmp_path,
    )  # fmt: skip
    assert "nsp\tha/test\t" in built.stdout
    assert (tmp_path / "d" / "lm-eval-xling" / "nsp" / "ha" / "test.parquet").is_file()
