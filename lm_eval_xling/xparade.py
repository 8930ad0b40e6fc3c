"""X-PARADE: the model lists the spans of a target paragraph that are new, or new but inferable, relative to a
source paragraph in another language; its spans are matched back to the target's tokens and scored token by token.
"""

from __future__ import annotations

import json
import re
from typing import Any

import datasets

from lm_eval_xling.data import load_dataset
from lm_eval_xling.metrics.span_f1 import INF, NEW, SAME, token_labels
from lm_eval_xling.schemas import XPARADE

LANGUAGES = {"en": "English", "es": "Spanish", "hi": "Hindi", "zh": "Chinese"}
_LABEL_CODE = {"same": SAME, "new": NEW, "inf": INF}
NONE = "none"
# A section header: "New:", "**New information:**", "Inferable:", "New (inferable):" ...
_HEADER = re.compile(r"^[\s>#*_-]*(new|inferable|new\s*\(inferable\))(?:\s+information)?[*_\s]*:[*_]*\s*(.*)$", re.I)
_BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+")


def load(subset: str, **_: Any) -> datasets.DatasetDict:
    """custom_dataset hook: one direction of lm-eval-xling/xparade (Hub, or LM_EVAL_XLING_DATA)."""
    return load_dataset(XPARADE, subset)


def doc_to_text(doc: dict) -> str:
    source, target = LANGUAGES[doc["source_lang"]], LANGUAGES[doc["target_lang"]]
    return f"Source paragraph ({source}): {doc['source']}\nTarget paragraph ({target}): {doc['target']}\n"


def _runs(doc: dict, label: str) -> list[str]:
    """The gold spans of one label: maximal runs of consecutive target tokens carrying it."""
    joiner = "" if doc["target_lang"] == "zh" else " "
    spans, run = [], []
    for token, gold in zip(doc["target_tokens"], doc["gold"], strict=True):
        if gold == label:
            run.append(token)
        elif run:
            spans.append(joiner.join(run))
            run = []
    return spans + ([joiner.join(run)] if run else [])


def _section(name: str, spans: list[str]) -> str:
    return f"{name}:\n" + ("\n".join(f"- {s}" for s in spans) if spans else NONE)


def gold_answer(doc: dict) -> str:
    """The answer in the format the prompt asks for (the one-shot example's answer)."""
    return _section("New", _runs(doc, "new")) + "\n" + _section("Inferable", _runs(doc, "inf"))


def parse_span_lists(reply: str) -> dict[str, list[str]]:
    """{"new": [...], "inf": [...]} from a reply with "New:" and "Inferable:" sections (bullets or one per line)."""
    spans: dict[str, list[str]] = {"new": [], "inf": []}
    current = None
    for line in reply.splitlines():
        if header := _HEADER.match(line):
            current = "new" if header[1].lower() == "new" else "inf"
            line = header[2]
        if current is None:
            continue
        text = _BULLET.sub("", line).strip().strip("\"'“”「」*").strip()
        if text and text.lower().rstrip(".") != NONE:
            spans[current].append(text)
    return spans


def extract_spans(resps: list[list[str]], docs: list[dict]) -> list[list[str]]:
    """Filter: each reply -> JSON of its new/inferable span lists (readable in the sample logs)."""
    return [[json.dumps(parse_span_lists(r), ensure_ascii=False) for r in rs] for rs in resps]


METRICS = (
    "new_precision", "new_recall", "new_f1", "inf_precision", "inf_recall", "inf_f1", "same_f1", "macro_f1",
)  # fmt: skip


def process_results(doc: dict, results: list[str]) -> dict[str, Any]:
    """Per document: (gold labels, predicted labels) for every span-F1 metric, and (unmatched, all) span counts."""
    spans = json.loads(results[0])
    predicted, unmatched = token_labels(doc["target_tokens"], spans["new"], spans["inf"])
    pair = ([_LABEL_CODE[g] for g in doc["gold"]], predicted.tolist())
    return {
        **{m: pair for m in METRICS},
        "unmatched_span_rate": (len(unmatched), len(spans["new"]) + len(spans["inf"])),
    }


def unmatched_span_rate(items: list[tuple[int, int]]) -> float:
    """Share of the model's spans, over the whole split, that matched no target tokens."""
    total = sum(n for _, n in items)
    return sum(u for u, _ in items) / total if total else 0.0
