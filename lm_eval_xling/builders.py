"""Run the Hub dataset builders in hub_datasets/ and publish what they write.

Each `hub_datasets/<name>/build.py` defines `SPEC` (a DatasetSpec) and `build(raw, out) -> counts`, which
writes the dataset under the data root `out` in the layout the tasks read; `README.md` beside it is the
dataset card, copied to `<out>/<hub id>/README.md`.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
from functools import cache
from pathlib import Path
from types import ModuleType

from lm_eval_xling.resources import hub_datasets_dir

RAW_ENV = "LM_EVAL_XLING_RAW"


def raw_root() -> Path:
    """The raw benchmark sources: $LM_EVAL_XLING_RAW, else ../shared/data (relative to the working dir)."""
    return Path(os.environ.get(RAW_ENV, "../shared/data")).expanduser()


@cache  # `build` and `data build` look builders up repeatedly; load each script once per process
def builders() -> dict[str, ModuleType]:
    """Every builder module, by dataset folder name (loaded by path: hub_datasets/ ships as data)."""
    found = {}
    for script in sorted(hub_datasets_dir().glob("*/build.py")):
        name = script.parent.name
        spec = importlib.util.spec_from_file_location(f"lm_eval_xling_hub_{name}", script)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        found[name] = module
    return found


def build(name: str, raw: Path, out: Path) -> dict[str, int]:
    """Build one dataset into the data root `out`, with its card; return record counts per file."""
    module = builders()[name]
    counts = module.build(raw, out)
    card = hub_datasets_dir() / name / "README.md"
    shutil.copyfile(card, out / module.SPEC.hub_id / "README.md")
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
