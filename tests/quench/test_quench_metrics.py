"""QUENCH overlap metrics equal the authors' functions on the same inputs: NLTK `sentence_bleu([ref], hyp,
weights=(0.5, 0.5))` on strings (characters), the `rouge` package's ROUGE-L with their 2PR/(P+R), and bert-score.

The NLTK and `rouge` comparisons skip where those packages are absent (checked with nltk 3.10.4 and rouge 1.0.1:
`pip install --target DIR nltk rouge` and DIR on PYTHONPATH after the checkout)."""

from __future__ import annotations

import math

import pytest

from lm_eval_xling.metrics.overlap import bertscore_f1, char_bigram_bleu, default_bertscore_model, rouge_l_summary_level

# (prediction, reference): answers and rationales as a model and the dataset write them
PAIRS = [
    ("Karachi", "Karachi"),
    ("Karachi, Pakistan", "Karachi"),
    ("Lahore", "Karachi"),
    ("Rabindranath Tagore", "Tagore"),
    ("R. N. Tagore", "Rabindranath Tagore"),
    ("The Drigh Road Aerodrome", "Drigh Road"),
    ("", ""),
    ("", "Karachi"),
    ("Karachi", ""),
    ("x", "Karachi"),
    ("...", "The clue points to Karachi."),
    (
        "The question describes an airport built for airships in 1929. That airport is in Karachi. Hence Karachi.",
        "The airship hangar clue points to the Drigh Road aerodrome. It was in Karachi.",
    ),
    (
        "the clue points to karachi because the airship base was there",
        "The clue points to Karachi. The airship base was there.",
    ),
    ("Diwali is the festival of lights. Lamps are lit. Diwali", "Lamps are lit on Diwali, the festival of lights."),
]


def _authors_bleu(prediction: str, reference: str) -> float:
    """Their get_bleu_score for one pair: the empty cases, else NLTK on the raw strings."""
    from nltk.translate.bleu_score import sentence_bleu

    if not prediction or not reference:
        return 100.0 if not prediction and not reference else 0.0
    return 100 * sentence_bleu([reference], prediction, weights=(0.5, 0.5))


def _authors_rouge_l(prediction: str, reference: str) -> float:
    """Their get_rouge_scores for one pair: the empty cases, else the package's P and R as 2PR/(P+R)."""
    from rouge import Rouge

    if not prediction or not reference:
        return 100.0 if not prediction and not reference else 0.0
    scores = Rouge(metrics=["rouge-l"]).get_scores(prediction, reference)[0]["rouge-l"]
    p, r = scores["p"], scores["r"]
    return 100 * 2 * p * r / (p + r) if p + r else 0.0


@pytest.mark.parametrize(("prediction", "reference"), PAIRS)
def test_bleu_equals_nltk_on_characters(prediction, reference):
    pytest.importorskip("nltk", reason="nltk absent: pip install --target DIR nltk and put DIR on PYTHONPATH")
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # NLTK warns on zero bigram overlap
        assert char_bigram_bleu(prediction, reference) == pytest.approx(_authors_bleu(prediction, reference), abs=1e-9)


@pytest.mark.parametrize(("prediction", "reference"), [p for p in PAIRS if p[0].strip(".") and p[1].strip(".")])
def test_rouge_l_equals_the_rouge_package(prediction, reference):
    pytest.importorskip("rouge", reason="rouge absent: pip install --target DIR rouge and put DIR on PYTHONPATH")
    got = rouge_l_summary_level(prediction, reference)
    assert got == pytest.approx(_authors_rouge_l(prediction, reference), abs=1e-6)


def test_metric_values_without_the_reference_packages():
    """Values a reader can check by hand: the authors' BLEU is character-level, their ROUGE-L case-sensitive."""
    assert char_bigram_bleu("Karachi", "Karachi") == pytest.approx(100.0)
    # "Karachi, Pakistan": 7 of 17 characters and 6 of 16 bigrams match, no brevity penalty
    assert char_bigram_bleu("Karachi, Pakistan", "Karachi") == pytest.approx(100 * math.sqrt(7 / 17 * 6 / 16))
    assert char_bigram_bleu("", "") == 100.0 and char_bigram_bleu("", "Karachi") == 0.0
    assert rouge_l_summary_level("karachi", "Karachi") == 0.0
    assert rouge_l_summary_level("...", "The clue.") == 0.0  # the package raises on a text without a sentence
    assert rouge_l_summary_level("Lamps are lit", "Lamps are lit on Diwali") == pytest.approx(100 * 2 * 0.6 / 1.6)


@pytest.mark.slow
def test_bertscore_equals_bert_score_with_the_authors_empty_rule():
    """bert-score called once on all pairs as their `load_metric('bertscore')` did, with the same model and layer;
    empty predictions score 0 as their get_bert_score sets them (empty-empty pairs left out: bert-score cannot embed
    them under transformers 5)."""
    from bert_score import BERTScorer

    model = default_bertscore_model()
    pairs = [p for p in PAIRS if p[1]]
    ours = bertscore_f1([p for p, _ in pairs], [r for _, r in pairs], model=model, layers=6)
    scorer = BERTScorer(model_type=model, num_layers=6, lang="en")
    kept = [i for i, (p, _) in enumerate(pairs) if p]
    _, _, f1 = scorer.score([pairs[i][0] for i in kept], [pairs[i][1] for i in kept])
    expected = [0.0] * len(pairs)
    for i, value in zip(kept, f1.tolist(), strict=True):
        expected[i] = 100 * value
    assert ours == pytest.approx(expected, abs=1e-4)


def test_bertscore_stand_in_is_named_in_the_task_metadata(monkeypatch):
    from lm_eval_xling.quench import tasks as quench

    monkeypatch.setattr(quench, "_in_hf_cache", lambda repo: False)
    meta: dict = {}
    setting = quench._bertscore_setting(meta)
    if setting["model"] == "roberta-large":
        pytest.skip("the MiniLM stand-in package is not installed")
    assert setting["layers"] == 6 and "not the paper's roberta-large (layer 17)" in meta["bertscore_note"]
    monkeypatch.setattr(quench, "_in_hf_cache", lambda repo: True)
    assert quench._bertscore_setting({}) == {"model": "roberta-large", "layers": 17}
