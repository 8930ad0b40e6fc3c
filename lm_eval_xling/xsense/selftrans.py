"""The paper's released model-internal translations (gpt-3.5-turbo-0301, temperature 0.25, top_p 1, 2048 tokens).

They let the T, I and X runs of a new model use the paper's translations instead of the model's own, so Table 1
can be checked against a new model's answers without its translations. Read in place from the raw data folder
(`selftrans/` under $LM_EVAL_XLING_RAW, default ../shared/data), never shipped: the authors' repository stores
them as pickles; the data folder holds them as JSON(L):
`translations_gpt-turbo-0301/{task,instruction}/<collection>/<task>/temp-0.25_topp-1.0_maxt-2048/<tgt>_from_<src>/`
with `dataset.jsonl` (the source test set's rows, input fields translated) and `responses.json` (the raw replies
to the three instruction pieces: prefix, suffix, the word "Sentence").
"""

from __future__ import annotations

import json
from pathlib import Path

from lm_eval_xling.config import raw_root
from lm_eval_xling.data import jsonl_lines
from lm_eval_xling.errors import UserError
from lm_eval_xling.results.logs import SamplesError
from lm_eval_xling.xsense.declarations import Translatable
from lm_eval_xling.xsense.translation_reply import clean_translation

FOLDER = "selftrans/translations_gpt-turbo-0301"
_SETTINGS = "temp-0.25_topp-1.0_maxt-2048"


def folder(kind: str, released: str, source: str, target: str) -> Path:
    """The released folder of one direction; `kind` is "task" (inputs) or "instruction", `released` a
    declaration's folder (`individual_tasks/paws-x`, `xglue/xnli`)."""
    return raw_root() / FOLDER / kind / released / _SETTINGS / f"{target}_from_{source}"


def _read(path: Path) -> Path:
    if not path.is_file():
        raise SamplesError(f"the paper's translations are not at {path} (set LM_EVAL_XLING_RAW to the data folder)")
    return path


def inputs(released: str, source: str, target: str) -> list[dict]:
    """The released translated test set, in the order of the source test set."""
    return [row for _, row in jsonl_lines(_read(folder("task", released, source, target) / "dataset.jsonl"))]


def instruction(released: str, source: str, target: str) -> list[str]:
    """The released replies to the instruction pieces (prefix, suffix, the word "Sentence"), cleaned as the
    model's own are (quotes around a reply removed)."""
    replies = json.loads(_read(folder("instruction", released, source, target) / "responses.json").read_text("utf-8"))
    return [clean_translation(reply, target=target) for reply in replies]


def translations(declaration: Translatable, docs: dict[int, dict], source: str, target: str) -> dict[str, str]:
    """{request key: translation} in the translation stage's layout (`instruction/<field>`, `<doc_id>/<field>`)."""
    if declaration.released is None:
        raise UserError(f"the paper released no translations of {declaration.name}; use --translations model")
    rows = inputs(declaration.released, source, target)
    pieces = zip(declaration.instruction(source), instruction(declaration.released, source, target), strict=True)
    out = {f"instruction/{name}": text for name, text in pieces}
    for doc_id in docs:
        if doc_id >= len(rows):
            raise SamplesError(f"the paper's {target}_from_{source} translations have {len(rows)} rows, no {doc_id}")
        out |= {f"{doc_id}/{field}": rows[doc_id][field] for field in declaration.inputs}
    return out
