"""X-PARADE: the model lists the spans of a target paragraph that are new, or new but inferable, relative to a
source paragraph in another language; its spans are matched back to the target's tokens and scored token by token.
"""

from __future__ import annotations

import json
import logging
from functools import cache
from itertools import groupby
from operator import itemgetter
from pathlib import Path
from typing import Any

import datasets

from lm_eval_xling.data import load_dataset
from lm_eval_xling.xparade.alignment import Aligner, load_encoder, word_spans
from lm_eval_xling.xparade.schema import XPARADE
from lm_eval_xling.xparade.span_f1 import INF, LABELS, METRICS, NEW, SAME, confusion, token_labels
from lm_eval_xling.xparade.spans import read_spans

LANGUAGES = {"en": "English", "es": "Spanish", "hi": "Hindi", "zh": "Chinese"}
_LABEL_CODE = {"same": SAME, "new": NEW, "inf": INF}
NONE = "none"
ONESHOT_CANDIDATES = 2  # the example, and the one shown instead when the example itself is evaluated (_dev tasks)
EXAMPLE_MIN_SHARE = 0.1  # each of same, new and inferable covers at least this share of the example's tokens


def load(subset: str, **_: Any) -> datasets.DatasetDict:
    """custom_dataset hook: one direction of lm-eval-xling/xparade (Hub, or LM_EVAL_XLING_DATA)."""
    return load_dataset(XPARADE, subset)


def load_with_reverse_examples(subset: str, **_: Any) -> datasets.DatasetDict:
    """custom_dataset hook of the `en-*` T tasks: the direction's test split, and as split "example" the reverse
    direction's dev split, whose pairs are English-English once translated and carry gold spans on English text."""
    source, target = subset.split("-")
    return datasets.DatasetDict(test=load(subset)["test"], example=load(f"{target}-{source}")["dev"])


def doc_to_text(doc: dict) -> str:
    source, target = LANGUAGES[doc["source_lang"]], LANGUAGES[doc["target_lang"]]
    return f"Source paragraph ({source}): {doc['source']}\nTarget paragraph ({target}): {doc['target']}\n"


def doc_to_text_translated(doc: dict) -> str:
    """The translate-to-English (T) condition: the non-English paragraph replaced by its stored English machine
    translation (the last of `translations`, the one every language has)."""
    (source_name, source), (target_name, target) = _in_english(doc, "source"), _in_english(doc, "target")
    return f"Source paragraph ({source_name}): {source}\nTarget paragraph ({target_name}): {target}\n"


def _in_english(doc: dict, side: str) -> tuple[str, str]:
    lang = doc[f"{side}_lang"]
    if lang == "en":
        return "English", doc[side]
    return f"English, machine-translated from {LANGUAGES[lang]}", doc["translations"][-1]


def token_offsets(doc: dict) -> list[tuple[int, int]]:
    """(start, end) of every target token in the target paragraph (tokens appear in order, separated by spaces at
    most)."""
    offsets, position = [], 0
    for token in doc["target_tokens"]:
        start = doc["target"].find(token, position)
        if start < 0:
            raise ValueError(f"{doc['id']}: token {token!r} not found in the target paragraph after {position}")
        position = start + len(token)
        offsets.append((start, position))
    return offsets


def gold_spans(doc: dict, label: str) -> list[str]:
    """The gold spans of one label as exact substrings of the target paragraph: maximal runs of consecutive target
    tokens carrying it, cut from the paragraph (so "however, risks" keeps its spacing)."""
    return _gold_spans(doc).get(label, [])


def _gold_spans(doc: dict) -> dict[str, list[str]]:
    """`gold_spans` of every label, from one pass over the tokens."""
    spans: dict[str, list[str]] = {}
    for label, run in groupby(zip(token_offsets(doc), doc["gold"], strict=True), key=itemgetter(1)):
        offsets = [offset for offset, _ in run]
        spans.setdefault(label, []).append(doc["target"][offsets[0][0] : offsets[-1][1]])
    return spans


def _section(name: str, spans: list[str]) -> str:
    return f"{name}:\n" + ("\n".join(f"- {s}" for s in spans) if spans else NONE)


def gold_answer(doc: dict) -> str:
    """The answer in the format the prompt asks for (the one-shot example's answer)."""
    spans = _gold_spans(doc)
    return _section("New", spans.get("new", [])) + "\n" + _section("Inferable", spans.get("inf", []))


def oneshot_docs(docs: Any) -> list[dict]:
    """fewshot process_docs hook: the dev pairs the one-shot example is taken from, best first. As in the paper
    (section 5.3) the example has both new and inferable spans, and same ones: each label on at least
    EXAMPLE_MIN_SHARE of its tokens (a single inferable token teaches little); among those, the shortest pair
    (source + target characters, then id) keeps the prompt short."""

    def balanced(doc: dict) -> bool:
        return all(doc["gold"].count(label) >= EXAMPLE_MIN_SHARE * len(doc["gold"]) for label in _LABEL_CODE)

    eligible = [d for d in docs if d["gold"] and balanced(d)]
    return sorted(eligible, key=lambda d: (len(d["source"]) + len(d["target"]), d["id"]))[:ONESHOT_CANDIDATES]


def _spans_json(reply: object, tokens: list[str]) -> str:
    new, inf, readable = read_spans(reply, tokens)
    return json.dumps({"new": new, "inf": inf, "unreadable": not readable}, ensure_ascii=False)


def extract_spans(resps: list[list[str]], docs: list[dict]) -> list[list[str]]:
    """Filter: each reply -> JSON of its new and inferable spans as matched against the target's tokens (where a
    line reads more than one way, see `spans.resolve`) and whether any list was found; readable in the logs."""
    return [[_spans_json(r, doc.get("target_tokens") or []) for r in rs] for rs, doc in zip(resps, docs, strict=True)]


def extract_spans_on_translation(resps: list[list[str]], docs: list[dict]) -> list[list[str]]:
    """`extract_spans` of the `en-*` T tasks, whose spans are copied from the target's English translation."""
    out = []
    for rs, doc in zip(resps, docs, strict=True):
        translation = doc["translations"][-1]
        words = [translation[s:e] for s, e in word_spans(translation)]
        out.append([_spans_json(r, words) for r in rs])
    return out


# the confusion matrix (the paper's Table 8) as token counts "confusion_<gold>_<predicted>", summed over the split
CONFUSION = tuple(f"confusion_{g}_{p}" for g in LABELS for p in LABELS)


def process_results(doc: dict, results: list[str]) -> dict[str, Any]:
    """Per document: (gold labels, predicted labels) for every span-F1 metric, the confusion counts, and (unmatched,
    all) span counts."""
    spans = json.loads(results[0])
    predicted, unmatched = token_labels(doc["target_tokens"], spans["new"], spans["inf"])
    return _scores(doc, predicted.tolist(), len(unmatched), spans)


def process_results_translated_target(doc: dict, results: list[str]) -> dict[str, Any]:
    """`process_results` of the `en-*` T tasks: the spans are matched to the words of the target's English
    translation, then every target token takes the labels of the translation words aligned with it (SimAlign
    itermax, as the paper maps spans back): NEW if one of them is NEW, else INF if one is INF, else SAME (also when
    it is aligned with nothing)."""
    spans = json.loads(results[0])
    translation = doc["translations"][-1]
    words = word_spans(translation)
    on_words, unmatched = token_labels([translation[s:e] for s, e in words], spans["new"], spans["inf"])
    predicted = [SAME] * len(doc["target_tokens"])
    for t, w, _ in span_mapper().links(doc["target"], token_offsets(doc), translation, words):
        if on_words[w] == NEW or (on_words[w] == INF and predicted[t] == SAME):
            predicted[t] = int(on_words[w])
    return _scores(doc, predicted, len(unmatched), spans)


@cache
def span_mapper() -> Aligner:
    """The aligner of the `en-*` T tasks (SimAlign's default encoder, else the embedded model), loaded once per
    process; the log says which encoder it is."""
    encoder, note = load_encoder()
    if encoder is None:
        raise RuntimeError(f"xparade T tasks: no encoder to align the translation with the target ({note})")
    logging.getLogger(__name__).warning(
        "xparade: spans on the English translation mapped to target tokens by SimAlign itermax over %s%s",
        Path(encoder.name).name,
        f" ({note})" if note else "",
    )
    return Aligner(encoder, "itermax")


def _scores(doc: dict, predicted: list[int], unmatched: int, spans: dict[str, Any]) -> dict[str, Any]:
    gold = [_LABEL_CODE[g] for g in doc["gold"]]
    counts = confusion([gold], [predicted]).ravel().tolist()
    return {
        **{m: (gold, predicted) for m in METRICS},
        **dict(zip(CONFUSION, counts, strict=True)),
        "unmatched_span_rate": (unmatched, len(spans["new"]) + len(spans["inf"])),
        "unreadable": float(spans["unreadable"]),
    }


def token_count(items: list[int]) -> int:
    """Aggregation of a confusion cell: its tokens over the split."""
    return int(sum(items))


def unmatched_span_rate(items: list[tuple[int, int]]) -> float:
    """Share of the model's spans, over the whole split, that matched no target tokens."""
    total = sum(n for _, n in items)
    return sum(u for u, _ in items) / total if total else 0.0
