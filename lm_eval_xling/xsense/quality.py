"""Translation quality of the model's input translations, and its link to consistency.

Scores compare the model's translations of the input sentences with the human versions of the same test items
in the target language: corpus BLEU and chrF (sacrebleu), ROUGE-1/2/L (rouge_score with a tokenizer that keeps
non-ASCII letters), per-item sentence BLEU, its Pearson correlation with per-item consistency, and consistency on
the items translated with BLEU > 50.
"""

from __future__ import annotations

import math
from collections import defaultdict
from typing import Any

from lm_eval_xling.metrics.overlap import corpus_bleu, corpus_chrf, rouge, sentence_bleu
from lm_eval_xling.samples import read_samples
from lm_eval_xling.xsense.tasks import clean_translation

GOOD_BLEU = 50.0


def input_translations(log) -> tuple[dict[int, list[tuple[str, str]]], str]:
    """{doc_id: [(translation, reference), ...]} of the input sentences in a translation stage's sample log,
    and the target language."""
    items: dict[int, list[tuple[str, str]]] = defaultdict(list)
    language = "en"
    for sample in read_samples(log).values():
        doc = sample["doc"]
        language = doc["target_language"]
        if doc["reference"] is None:  # an instruction piece
            continue
        doc_id = int(doc["key"].split("/", 1)[0])
        items[doc_id].append((clean_translation(sample["resps"][0][0]), doc["reference"]))
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
    """Sentence BLEU of each item's inputs, joined (both sentences of a pair together)."""
    return {
        doc_id: sentence_bleu(" ".join(h for h, _ in pairs), " ".join(r for _, r in pairs), language)
        for doc_id, pairs in items.items()
    }


def bleu_link(bleu: dict[int, float], same: dict[int, bool]) -> dict[str, Any]:
    """Pearson r (and p) of per-item BLEU against per-item consistency, and consistency where BLEU > 50."""
    from scipy.stats import pearsonr

    shared = sorted(bleu.keys() & same.keys())
    x = [bleu[i] for i in shared]
    y = [float(same[i]) for i in shared]
    r = p = math.nan
    if len(shared) >= 3 and len(set(x)) > 1 and len(set(y)) > 1:
        result = pearsonr(x, y)
        r, p = float(result.statistic), float(result.pvalue)
    good = [float(same[i]) for i in shared if bleu[i] > GOOD_BLEU]
    return {
        "pearson_r": r,
        "p_value": p,
        "n": len(shared),
        "consistency_bleu_gt_50": sum(good) / len(good) if good else math.nan,
        "n_bleu_gt_50": len(good),
    }
