"""Run the Hub dataset builders in hub_datasets/ and publish what they write.

Each `hub_datasets/<name>/build.py` defines `SPEC` (a DatasetSpec) and `build(raw, out) -> counts`, which
writes the dataset under the data root `out` in the layout the tasks read; `README.md` beside it is the
dataset card, copied to `<out>/<hub id>/README.md`, and `eval.yaml`, where there is one, the benchmark's declaration
of its tasks for the Hub's eval results, copied beside the card.
"""

from __future__ import annotations

import importlib.util
import shutil
import sys
import tempfile
from functools import cache
from pathlib import Path
from types import ModuleType

from lm_eval_xling.config import hub_datasets_dir
from lm_eval_xling.data import DatasetError, SourceMissing


@cache  # `build` and `data build` look builders up repeatedly; load each script once per process
def builders() -> dict[str, ModuleType]:
    """Every builder module, by dataset folder name (loaded by path: hub_datasets/ ships as data)."""
    found = {}
    for script in sorted(hub_datasets_dir().glob("*/build.py")):
        name = script.parent.name
        spec = importlib.util.spec_from_file_location(f"lm_eval_xling_hub_{name}", script)
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # dataclasses look their module up there
        spec.loader.exec_module(module)
        found[name] = module
    return found


def build(name: str, raw: Path, out: Path) -> dict[str, int]:
    """Build one dataset into the data root `out`, with its card; return record counts per file.

    The dataset is written to a temporary folder inside `out` and moved into place only when complete, so a
    failing build leaves the previous copy (or nothing) behind, never half of one."""
    if name not in builders():
        raise DatasetError(f"unknown dataset {name!r}: expected one of {sorted(builders())}")
    module = builders()[name]
    hub_id = module.SPEC.hub_id
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=out, prefix=f".building-{name}-") as tmp:
        staging = Path(tmp)
        try:
            counts = module.build(raw, staging)
        except SourceMissing:
            raise
        except OSError as err:  # a file missing or unreadable inside a present source
            raise DatasetError(f"{hub_id}: cannot read raw file {err.filename}: {err.strerror}") from None
        if not (card := staging / hub_id / "README.md").is_file():  # a builder may write its card with its counts
            shutil.copyfile(hub_datasets_dir() / name / "README.md", card)
        if (declaration := hub_datasets_dir() / name / "eval.yaml").is_file():
            shutil.copyfile(declaration, staging / hub_id / "eval.yaml")
        target = out / hub_id
        target.parent.mkdir(parents=True, exist_ok=True)
        if target.exists():
            target.rename(staging / "previous")  # removed with the temporary folder
        (staging / hub_id).rename(target)
    return counts


def push_to_hub(name: str, root: Path, repo_id: str | None = None) -> str:
    """Upload a built dataset folder (data files and card) to the Hub; returns the repo id."""
    from huggingface_hub import HfApi

    spec = builders()[name].SPEC
    repo_id = repo_id or spec.hub_id
    api = HfApi()
    api.create_repo(repo_id, repo_type="dataset", exist_ok=True)
    api.upload_folder(repo_id=repo_id, repo_type="dataset", folder_path=root / spec.hub_id)
    return repo_id
