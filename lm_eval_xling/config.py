"""Every setting of lm-eval-xling (environment variables) and the folders the package ships or caches in.

| variable | what | default |
|---|---|---|
| LM_EVAL_XLING_DATA | a local copy of the Hub datasets that every task reads instead of the Hub | unset: see below |
| LM_EVAL_XLING_RAW | the raw benchmark sources the dataset builders read | ../shared/data |
| LM_EVAL_XLING_CACHE | converted models and the main job's data | $XDG_CACHE_HOME/lm-eval-xling |
| LM_EVAL_XLING_JUDGE_CACHE | the SQLite cache of judge verdicts | <cache>/judge_cache.sqlite |

Unset, LM_EVAL_XLING_DATA falls back to the cache folder's `data` (where `lm-eval-xling data build` writes by default)
for a dataset built there, else to the Hub.
"""

from __future__ import annotations

import os
from pathlib import Path

DATA_ENV = "LM_EVAL_XLING_DATA"
RAW_ENV = "LM_EVAL_XLING_RAW"
CACHE_ENV = "LM_EVAL_XLING_CACHE"
JUDGE_CACHE_ENV = "LM_EVAL_XLING_JUDGE_CACHE"

_PACKAGE = Path(__file__).resolve().parent


def local_root() -> Path | None:
    """The directory named by LM_EVAL_XLING_DATA, or None when tasks load from the Hub."""
    value = os.environ.get(DATA_ENV)
    return Path(value).expanduser() if value else None


def raw_root() -> Path:
    """The raw benchmark sources: $LM_EVAL_XLING_RAW, else ../shared/data (relative to the working dir)."""
    return Path(os.environ.get(RAW_ENV, "../shared/data")).expanduser()


def cache_dir() -> Path:
    """Where lm-eval-xling keeps converted models and locally built data."""
    default = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "lm-eval-xling"
    return Path(os.environ.get(CACHE_ENV, default))


def built_root() -> Path:
    """Where `lm-eval-xling data build` and the main job build the datasets by default; a task finds a dataset here
    with no setting."""
    return cache_dir() / "data"


def judge_cache_path() -> Path:
    """The SQLite file of cached judge verdicts."""
    return Path(os.environ.get(JUDGE_CACHE_ENV, cache_dir() / "judge_cache.sqlite"))


def _shipped(name: str) -> Path:
    # A wheel places the folder inside the package; an editable install reads it from the checkout.
    for base in (_PACKAGE, _PACKAGE.parent):
        if (base / name).is_dir():
            return base / name
    raise FileNotFoundError(f"lm-eval-xling is installed without its {name}/ folder (looked in {_PACKAGE})")


def task_dir() -> Path:
    """The folder of lm-eval task YAMLs (one subfolder per benchmark)."""
    return _shipped("task_yamls")


def hub_datasets_dir() -> Path:
    """The folder of Hub dataset builders (one subfolder per dataset, each with build.py and README.md)."""
    return _shipped("hub_datasets")
