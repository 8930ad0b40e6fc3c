"""Translation quality of the model's input translations, and its link to consistency.

Scores compare the model's translations of the input sentences with the human versions of the same test items
in the target language: corpus BLEU and chrF (sacrebleu), ROUGE-1/2/L (rouge_score with a tokenizer that keeps
non-ASCII letters), per-item BLEU (the mean of the item's sentence BLEUs, as the paper), its Pearson correlation with
per-item consistency and with accuracy (Table 3), and consistency on the items translated with BLEU > 50 (Table 7).
"""

from __future__ import annotations

import math
from collections import defaultdict
from typing import Any

from lm_eval_xling.metrics.overlap import corpus_bleu, corpus_chrf, rouge, sentence_bleu
from lm_eval_xling.results.logs import SamplesError, read_samples
from lm_eval_xling.xsense.translation_reply import clean_translation

GOOD_BLEU = 50.0
TRANSLATION_FIELDS = ("target_language", "reference", "key", "text")  # of an xsense_translate document


def input_translations(log) -> tuple[dict[int, list[tuple[str, str]]], str]:
    """{doc_id: [(translation, reference), ...]} of the input sentences in a translation stage's sample log,
    and the target language."""
    items: dict[int, list[tuple[str, str]]] = defaultdict(list)
    language = "en"
    for line_id, sample in read_samples(log).items():
        doc = sample["doc"]
        missing = [f for f in TRANSLATION_FIELDS if f not in doc] if isinstance(doc, dict) else ["(an object)"]
        if missing:
            raise SamplesError(
                f"{log} doc_id {line_id}: field 'doc.{missing[0]}' is missing; not an xsense_translate sample log"
            )
        language = doc["target_language"]
        if doc["reference"] is None:  # an instruction piece, a sentence of a long input, or no human version
            continue
        doc_id = int(doc["key"].split("/", 1)[0])
        items[doc_id].append((clean_translation(sample["resps"][0][0], doc["text"], language), doc["reference"]))
    return dict(items), language


def quality(items: dict[int, list[tuple[str, str]]], language: str) -> dict[str, float]:
    pairs = [pair for doc_pairs in items.values() for pair in doc_pairs]
    hyps, refs = [h for h, _ in pairs], [r for _, r in pairs]
    return {
        "bleu": corpus_bleu(hyps, refs, language),
        "chrf": corpus_chrf(hyps, refs),
        **rouge(hyps, refs, language),
        "sentences": len(pairs),
    }


def item_bleu(items: dict[int, list[tuple[str, str]]], language: str) -> dict[int, float]:
    """Per-item BLEU as the paper computes it: the mean of the sentence BLEU of each input of the item."""
    return {
        doc_id: sum(sentence_bleu(hyp, ref, language) for hyp, ref in pairs) / len(pairs)
        for doc_id, pairs in items.items()
        if pairs
    }


def _pearson(x: list[float], y: list[float]) -> tuple[float, float]:
    """Pearson r and its p-value (scipy); NaN where undefined (fewer than 3 items, or a constant side)."""
    from scipy.stats import pearsonr

    if len(x) < 3 or len(set(x)) < 2 or len(set(y)) < 2:
        return math.nan, math.nan
    result = pearsonr(x, y)
    return float(result.statistic), float(result.pvalue)


def bleu_link(bleu: dict[int, float], same: dict[int, bool], correct: dict[int, bool] | None = None) -> dict[str, Any]:
    """The paper's Table 3 and Table 7 for one condition: Pearson r (and p) of per-item BLEU against per-item
    consistency and, given the condition's per-item correctness, against accuracy; consistency where BLEU > 50."""
    shared = sorted(bleu.keys() & same.keys())
    x = [bleu[i] for i in shared]
    r, p = _pearson(x, [float(same[i]) for i in shared])
    good = [float(same[i]) for i in shared if bleu[i] > GOOD_BLEU]
    link = {
        "pearson_r": r,
        "p_value": p,
        "n": len(shared),
        "consistency_bleu_gt_50": sum(good) / len(good) if good else math.nan,
        "n_bleu_gt_50": len(good),
        "share_bleu_gt_50": len(good) / len(shared) if shared else math.nan,
    }
    if correct is not None:
        scored = [i for i in shared if i in correct]
        r, p = _pearson([bleu[i] for i in scored], [float(correct[i]) for i in scored])
        link |= {"pearson_r_accuracy": r, "p_value_accuracy": p}
    return link
