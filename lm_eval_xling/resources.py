"""Where the shipped task YAMLs and dataset builders live, in a wheel and in a source checkout."""

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


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
