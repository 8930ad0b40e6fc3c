"""NSP Global tasks: NSP's prompts, reader and metrics (lm_eval_xling.nsp.tasks) on lm-eval-xling/nsp_global."""

from __future__ import annotations

from typing import Any

import datasets

from lm_eval_xling.data import load_dataset
from lm_eval_xling.nsp_global.schema import NSP_GLOBAL


def load(subset: str, **_: Any) -> datasets.DatasetDict:
    """custom_dataset hook: one language of lm-eval-xling/nsp_global (Hub, or LM_EVAL_XLING_DATA)."""
    return load_dataset(NSP_GLOBAL, subset)
