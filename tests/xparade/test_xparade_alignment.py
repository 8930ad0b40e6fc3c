"""The alignment baseline's encoder on a real (tiny, random) transformers model: subwords map back to words and a
paragraph aligned with itself leaves no token unaligned."""

from __future__ import annotations

import numpy as np

from lm_eval_xling.xparade.alignment import Aligner, Encoder, word_spans
from lm_eval_xling.xparade.baselines import null_scores, predict


def test_encoder_maps_subwords_to_words(tiny_model):
    encoder = Encoder(str(tiny_model))
    text = "The river flows through the old city."
    spans = word_spans(text)
    vectors, owner = encoder(text, spans)
    assert len(vectors) == len(owner) >= len(spans)
    assert set(owner.tolist()) == set(range(len(spans)))  # every word has a subword, in order
    assert (np.diff(owner) >= 0).all()
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0)
    assert encoder.layer == round(encoder.model.config.num_hidden_layers * 8 / 12)


def test_a_paragraph_aligns_with_itself(tiny_model, tmp_path, monkeypatch):
    monkeypatch.setenv("LM_EVAL_XLING_CACHE", str(tmp_path))
    text = "The river flows through an old city"
    record = {"source": text, "target": text, "target_tokens": text.split(), "id": "x"}
    scores = null_scores(Aligner(Encoder(str(tiny_model))), record)
    assert np.isfinite(scores).all()
    assert predict(scores, float(scores.max())) == [0] * len(scores)  # all SAME at the loosest threshold
