"""nsp-factors: the paper's option-order deltas by default, toward-correct on request, Table 2's % improvement."""

from __future__ import annotations

import json

import numpy as np
from test_nsp_factors import _features, _samples, _write

from lm_eval_xling.cli import main
from lm_eval_xling.nsp.factors import analyse, markdown


def _option_a_bias_case(tmp_path):
    """A model right exactly where option A is the less perplexing one, whichever option is correct."""
    rng = np.random.default_rng(21)
    features = _features(rng, language="sw")
    right = [(r["delta_perplexity"] > 0) != (rng.random() < 0.1) for r in features]
    return _samples(tmp_path / "m", "nsp_swahili", features, right), _write(tmp_path / "f.jsonl", features)


def test_paper_deltas_are_option_order_by_default(tmp_path):
    samples, features = _option_a_bias_case(tmp_path)
    (fit,) = analyse([samples], [features]).fits
    assert fit.deltas == "paper"
    top = fit.most_influential
    assert top["factor"] == "delta_perplexity" and top["sign"] == "positive", fit.coefficients
    assert top["effect"] == "questions whose option A is less perplexing than option B are easier"
    assert "option A versus option B" in markdown(analyse([samples], [features]))


def test_toward_correct_deltas_tell_a_different_story(tmp_path):
    """The same answers, deltas signed toward the correct option: the option-A effect washes out."""
    samples, features = _option_a_bias_case(tmp_path)
    (fit,) = analyse([samples], [features], deltas="toward-correct").fits
    assert fit.deltas == "toward-correct"
    assert abs(fit.coefficients["delta_perplexity"].coef) < 0.4


def test_improvement_beside_the_matrix(tmp_path, capsys):
    features = _features(np.random.default_rng(5), n=10)
    direct = [True, True, True, False, False, True, False, True, False, False]  # 5 of 10 right
    cot = [True, False, True, True, False, True, False, True, True, True]  # 7 of 10 right
    folder = tmp_path / "model-x"
    runs = [
        _samples(folder, "nsp_hausa_1k", features, direct),
        _samples(folder, "nsp_hausa_cot_native_1k", features, cot),
    ]
    feature_file = _write(tmp_path / "f.jsonl", features)
    (c,) = analyse(runs, [feature_file]).confusions
    assert (c.direct_accuracy, c.cot_accuracy, c.improvement) == (50.0, 70.0, 20.0)
    assert main(["nsp-factors", *map(str, runs), "--features", str(feature_file)]) == 0
    text = capsys.readouterr().out
    assert "accuracy: direct 50.0%, CoT 70.0%; % improvement (CoT minus direct" in text and ": +20.0" in text
    assert (
        main(["nsp-factors", *map(str, runs), "--features", str(feature_file), "--json", "--deltas", "toward-correct"])
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert data["direct_vs_cot"][0]["improvement"] == 20.0
    assert {fit["deltas"] for fit in data["fits"]} == {"toward-correct"}
