"""`lm-eval-xling submit --format hub`: the Hub's `.eval_results/<task>.yaml` entries of a submission, and the
benchmark declarations (`hub_datasets/*/eval.yaml`) whose task ids they name."""

from __future__ import annotations

import copy
import math
import re
from pathlib import Path

import pytest
import yaml

from lm_eval_xling.config import hub_datasets_dir, task_dir
from lm_eval_xling.reports.hub_results import FRAMEWORK, HubResultsError, main_metric, write_hub_results

DOCS = "ab" * 32
REVISION = "5503434ddd753f426f4b38109466949a1217c2bb"


def _submission() -> dict:
    """A submission as `build_submission` returns it (with the `run` block), by hand: a task read from the Hub without
    a pinned revision, one pinned with two filters, one multiple-choice with acc_norm, a group, a task whose main
    metric is not finite, and one read from a local folder."""
    return {
        "config": {"model_name": "local:tiny:0123456789ab", "model_sha": "", "model_dtype": "float32"},
        "results": {
            "nsp_english": {"acc": 0.625, "invalid": 0.125},
            "xsense_xnli_en": {"acc,standardize": 0.4, "invalid,standardize": 0.1, "acc,careful": 0.45},
            "nsp_hausa_ll": {"acc": 0.5, "acc_norm": 0.75},
            "nsp": {"acc": 0.6, "invalid": 0.1},
            "quench": {"rouge_l": math.inf, "bleu": 0.2},
            "nsp_swahili": {"acc": 0.25},
        },
        "model_args": {"pretrained": "local:tiny:0123456789ab"},
        "versions": {"lm_eval": "0.4.13", "lm_eval_xling": "0.1.0", "tasks": {}},
        "datasets": {
            "nsp_english": {
                "dataset_path": "lm-eval-xling/nsp",
                "dataset_name": None,
                "dataset_kwargs": {},
                "docs_sha256": DOCS,
            },  # fmt: skip
            "xsense_xnli_en": {
                "dataset_path": "facebook/xnli",
                "dataset_name": None,
                "dataset_kwargs": {},
                "revision": REVISION,
            },  # fmt: skip
            "nsp_hausa_ll": {
                "dataset_path": "lm-eval-xling/nsp",
                "dataset_name": None,
                "dataset_kwargs": {},
                "docs_sha256": DOCS,
            },  # fmt: skip
            "quench": {
                "dataset_path": "lm-eval-xling/quench",
                "dataset_name": None,
                "dataset_kwargs": {},
                "docs_sha256": DOCS,
            },  # fmt: skip
            "nsp_swahili": {
                "dataset_path": "local:nsp:0123456789ab",
                "dataset_name": None,
                "dataset_kwargs": {},
                "docs_sha256": DOCS,
            },  # fmt: skip
        },
        "ci": {},
        "samples": {},
        "run": {
            "date": "2025-01-15 10:30",
            "partial": False,
            "limit": None,
            "n_samples": {"nsp_english": {"original": 8, "effective": 8}},
        },  # fmt: skip
        "removed": [],
    }


def _read(path: Path) -> dict:
    entries = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert isinstance(entries, list) and len(entries) == 1
    return entries[0]


def test_one_file_per_task_with_the_submissions_values_dataset_and_date(tmp_path):
    submission = _submission()
    written = write_hub_results(submission, tmp_path / ".eval_results")

    # the group, the task with an infinite main metric and the one read from a local folder get none
    names = ["nsp_english.yaml", "nsp_hausa_ll.yaml", "xsense_xnli_en.yaml"]
    assert [p.name for p in written] == names
    assert sorted(p.name for p in (tmp_path / ".eval_results").iterdir()) == names
    entries = {p.stem: _read(p) for p in written}

    assert entries["nsp_english"] == {
        "dataset": {"id": "lm-eval-xling/nsp", "task_id": "nsp_english"},
        "value": 0.625,
        "date": "2025-01-15T10:30:00Z",
        "evaluation_framework": FRAMEWORK,
        "notes": "metric acc; lm-eval-xling 0.1.0 (lm-eval 0.4.13); no dataset revision pinned; documents scored: "
        f"docs_sha256 {DOCS}",
    }
    xnli = entries["xsense_xnli_en"]
    assert xnli["dataset"] == {"id": "facebook/xnli", "task_id": "xsense_xnli_en", "revision": REVISION}
    assert xnli["value"] == submission["results"]["xsense_xnli_en"]["acc,standardize"]  # the first filter's
    assert xnli["notes"].startswith("metric acc, filter standardize;") and "docs_sha256" not in xnli["notes"]
    assert entries["nsp_hausa_ll"]["value"] == 0.5 and entries["nsp_hausa_ll"]["notes"].startswith("metric acc;")

    for path in written:
        text = path.read_text(encoding="utf-8")
        assert "://" not in text and "local:" not in text and not re.search(r"(^|\s)[~/.]+/", text)
        assert "PARTIAL" not in text
    assert "docs_sha256" in (tmp_path / ".eval_results" / "nsp_english.yaml").read_text().split("\n- ")[0]  # header
    assert submission == _submission()  # not modified


def test_the_files_are_what_huggingface_hub_parses_as_eval_results(tmp_path):
    hub = pytest.importorskip("huggingface_hub")
    if not hasattr(hub, "parse_eval_result_entries"):
        pytest.skip("huggingface_hub without the .eval_results parser")
    for path in write_hub_results(_submission(), tmp_path):
        (entry,) = hub.parse_eval_result_entries(yaml.safe_load(path.read_text(encoding="utf-8")))
        assert entry.task_id == path.stem and entry.date == "2025-01-15T10:30:00Z" and entry.source_url is None


def test_values_are_exact_and_never_non_finite(tmp_path):
    submission = _submission()
    value = 0.1 + 0.2  # 0.30000000000000004: written so that it reads back as the same float
    submission["results"]["nsp_english"]["acc"] = value
    submission["results"]["nsp_hausa_ll"]["acc"] = math.nan
    written = {p.stem: _read(p) for p in write_hub_results(submission, tmp_path)}
    assert written["nsp_english"]["value"] == value
    assert "nsp_hausa_ll" not in written  # not replaced by its acc_norm: a leaderboard ranks one metric


@pytest.mark.parametrize(
    "change, expected",
    [
        ({"partial": True, "limit": 4}, "PARTIAL RUN, not comparable with full runs (limit 4)"),
        ({"partial": True}, "PARTIAL RUN, not comparable with full runs"),
        ({"n_samples": {"nsp_english": {"original": 8, "effective": 3}}}, "(3 of 8 documents)"),
    ],
)
def test_a_partial_run_is_marked_in_every_entry(tmp_path, change, expected):
    submission = _submission()
    submission["run"].update(change)
    written = write_hub_results(submission, tmp_path)
    notes = {p.stem: _read(p)["notes"] for p in written}
    assert expected in notes["nsp_english"] and notes["nsp_english"].startswith("PARTIAL RUN")
    if "partial" in change:
        assert all(n.startswith("PARTIAL RUN") for n in notes.values())
    assert all("# A PARTIAL run" in p.read_text() for p in written if notes[p.stem].startswith("PARTIAL"))


def test_partial_flags_outside_the_run_block_count_too(tmp_path):
    submission = _submission()
    del submission["run"]
    submission["partial"] = True
    submission["datasets"]["nsp_english"]["limit"] = 0.5
    notes = {p.stem: _read(p)["notes"] for p in write_hub_results(submission, tmp_path)}
    assert notes["nsp_english"].startswith("PARTIAL RUN, not comparable with full runs (limit 0.5)")
    assert notes["xsense_xnli_en"].startswith("PARTIAL RUN")
    assert "date" not in _read(tmp_path / "nsp_english.yaml")  # no date known: the Hub uses the commit's


@pytest.mark.parametrize(
    "given, expected",
    [
        ("2026-02-04", "2026-02-04"),
        ("2026-02-04T09:15:00+02:00", "2026-02-04T07:15:00Z"),
        ("2026-02-04T09:15:00Z", "2026-02-04T09:15:00Z"),
    ],  # fmt: skip
)
def test_the_date_argument_overrides_the_runs(tmp_path, given, expected):
    for path in write_hub_results(_submission(), tmp_path, date=given):
        assert _read(path)["date"] == expected
        assert f'date: "{expected}"' in path.read_text() or f"date: '{expected}'" in path.read_text()  # a string


def test_a_date_that_is_no_iso_date_is_refused(tmp_path):
    with pytest.raises(HubResultsError, match="'last tuesday' is not an ISO-8601"):
        write_hub_results(_submission(), tmp_path, date="last tuesday")
    submission = _submission()
    submission["run"]["date"] = "15/01/2025"
    with pytest.raises(HubResultsError, match=r"submission run\.date: '15/01/2025'"):
        write_hub_results(submission, tmp_path)


def test_main_metric_prefers_declared_headline_metrics_then_the_tasks_first():
    assert main_metric({"invalid": 0.1, "acc": 0.5}) == "acc"
    assert main_metric({"acc_norm": 0.6, "acc": 0.5}) == "acc"  # the papers' NSP loglikelihood number
    assert main_metric({"same_precision": 0.1, "macro_f1": 0.4, "new_f1": 0.3}) == "macro_f1"
    assert main_metric({"bleu": 0.1, "rouge_l": 0.2, "jury_mean": 0.9}) == "rouge_l"
    assert main_metric({"rouge1": 0.3, "rougeL": 0.2}) == "rougeL"
    assert main_metric({"brier": 0.3, "ece": 0.1}) == "brier"
    assert main_metric({}) is None


def test_a_submission_without_hub_datasets_writes_nothing(tmp_path):
    submission = copy.deepcopy(_submission())
    for entry in submission["datasets"].values():
        entry["dataset_path"] = None
    assert write_hub_results(submission, tmp_path / "out") == []
    assert not (tmp_path / "out").exists()


# ---- the benchmark declarations: hub_datasets/<name>/eval.yaml


@pytest.fixture(scope="module")
def task_manager():
    from lm_eval.tasks import TaskManager

    return TaskManager()


def _cards() -> list[Path]:
    return sorted(hub_datasets_dir().glob("*/README.md"))


def test_every_dataset_card_has_an_eval_declaration_beside_it():
    assert _cards()
    for card in _cards():
        assert (card.parent / "eval.yaml").is_file(), f"{card.parent.name}: no eval.yaml beside its card"
        assert "eval.yaml" in card.read_text(encoding="utf-8"), f"{card}: no section on its eval.yaml"


@pytest.mark.parametrize("folder", [c.parent.name for c in _cards()])
def test_eval_declaration_lists_existing_tasks_of_its_dataset(folder, task_manager):
    from lm_eval_xling.data.builders import builders

    task_index = task_manager.task_index
    hub_id = builders()[folder].SPEC.hub_id
    declaration = yaml.safe_load((hub_datasets_dir() / folder / "eval.yaml").read_text(encoding="utf-8"))
    assert set(declaration) == {"name", "description", "evaluation_framework", "tasks"}
    assert declaration["evaluation_framework"] == FRAMEWORK
    assert isinstance(declaration["name"], str) and declaration["name"].strip()
    assert "lm_eval --model hf" in declaration["description"] and "--tasks <task id>" in declaration["description"]
    ids = [task["id"] for task in declaration["tasks"]]
    assert len(ids) == len(set(ids)), f"{folder}/eval.yaml: a task id twice"
    for task in declaration["tasks"]:
        assert set(task) == {"id", "config", "split"}, task
        entry = task_index.get(task["id"])
        assert entry is not None, f"{folder}/eval.yaml: {task['id']} is no lm-eval task"
        cfg = entry.cfg or {}
        assert cfg.get("dataset_path") == hub_id, task
        kwargs = cfg.get("dataset_kwargs") or {}
        assert (kwargs.get("subset") or cfg.get("dataset_name") or "default") == task["config"], task
        assert cfg.get("test_split") == task["split"], task

    ours_dir = task_dir().resolve()
    ours = {
        name
        for name, entry in task_index.items()
        if (entry.cfg or {}).get("dataset_path") == hub_id and Path(entry.yaml_path).resolve().is_relative_to(ours_dir)
    }
    assert set(ids) == ours, f"{folder}/eval.yaml: undeclared tasks {sorted(ours - set(ids))}"


def test_declared_tasks_are_in_lm_evals_task_list(task_manager):
    all_tasks = set(task_manager.all_tasks)
    for path in hub_datasets_dir().glob("*/eval.yaml"):
        for task in yaml.safe_load(path.read_text(encoding="utf-8"))["tasks"]:
            assert task["id"] in all_tasks, f"{path}: {task['id']}"


def test_a_built_dataset_carries_its_eval_declaration_beside_its_card(data_root):
    """`data build` copies each benchmark's eval.yaml into the dataset folder it publishes (`data push` uploads it)."""
    from lm_eval_xling.data.builders import builders

    built = [name for name, module in builders().items() if (data_root / module.SPEC.hub_id / "README.md").is_file()]
    assert "nsp" in built
    for name in built:
        folder = data_root / builders()[name].SPEC.hub_id
        assert (folder / "eval.yaml").read_bytes() == (hub_datasets_dir() / name / "eval.yaml").read_bytes(), name
