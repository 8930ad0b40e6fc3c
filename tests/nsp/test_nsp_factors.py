"""NSP decision factors on synthetic runs whose answer is known: the factor found, its sign, the CoT table, the CLI."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import numpy as np
import pytest

from lm_eval_xling.cli import main
from lm_eval_xling.nsp.factors import FACTORS, analyse, markdown
from lm_eval_xling.redact import local_reference

N = 400
PNG = b"\x89PNG\r\n\x1a\n"


def _features(rng: np.random.Generator, n: int = N, language: str = "en") -> list[dict]:
    rows = []
    for i in range(n):
        sim_a, sim_b = rng.uniform(0, 1, 2)
        ppl_a, ppl_b = rng.uniform(5, 50, 2)
        rows.append({
            "id": f"{language}-{i:05d}",
            "context_length": int(rng.integers(3, 11)),
            "distractor_distance": int(rng.integers(2, 11)),
            "distractor_length": int(rng.integers(3, 25)),
            "sim_a": sim_a, "sim_b": sim_b, "ppl_a": ppl_a, "ppl_b": ppl_b,
            "delta_semantic_similarity": sim_a - sim_b, "delta_perplexity": ppl_b - ppl_a,
            "label": "A" if rng.random() < 0.5 else "B",
        })  # fmt: skip
    return rows


def _write(path: Path, rows: list[dict]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _samples(folder: Path, task: str, features: list[dict], correct: list[bool]) -> Path:
    """An lm-eval --log_samples file: one line per document and filter, acc/invalid as per-document values."""
    lines = []
    for doc_id, (row, right) in enumerate(zip(features, correct, strict=True)):
        answer = row["label"] if right else {"A": "B", "B": "A"}[row["label"]]
        doc = {"id": row["id"], "context": "...", "option_a": "a", "option_b": "b", "label": row["label"]}
        lines.append({
            "doc_id": doc_id, "doc": doc, "target": row["label"], "arguments": {}, "resps": [[answer]],
            "filtered_resps": [answer], "filter": "extract", "metrics": ["acc", "invalid"],
            "acc": float(right), "invalid": 0.0,
        })  # fmt: skip
    return _write(folder / f"samples_{task}_2025-01-01T00-00-00.000000.jsonl", lines)


def _distance_case(tmp_path: Path) -> tuple[Path, Path]:
    rng = np.random.default_rng(7)
    features = _features(rng)
    distance = np.array([r["distractor_distance"] for r in features], dtype=float)
    z = (distance - distance.mean()) / distance.std()
    right = rng.random(N) < 1 / (1 + np.exp(-(0.3 + 1.2 * z)))
    feature_file = _write(tmp_path / "features_en.jsonl", features)
    return _samples(tmp_path / "runs" / "org__model-a", "nsp_english", features, list(right)), feature_file


def test_noisy_distance_effect_is_found(tmp_path):
    samples, features = _distance_case(tmp_path)
    report = analyse([samples], [features])
    (fit,) = report.fits
    assert (fit.model, fit.language, fit.variant, fit.n) == ("org__model-a", "english", "direct", N)
    assert fit.method.startswith("logit (maximum likelihood)") and not fit.notes
    top = fit.most_influential
    assert top["factor"] == "distractor_distance" and top["sign"] == "positive" and top["significant"]
    assert top["effect"] == "farther distractors are easier"
    coef = fit.coefficients["distractor_distance"]
    assert coef.ci_low > 0 and 0.7 < coef.coef < 1.8 and coef.p < 1e-6
    for name in set(FACTORS) - {"distractor_distance"}:  # independent noise: small next to the real effect
        assert abs(fit.coefficients[name].coef) < 0.4
    text = markdown(report)
    assert "most influential factor: **distractor_distance** (positive" in text
    assert "farther distractors are easier" in text


def test_perfect_separation_falls_back_and_finds_length(tmp_path):
    rng = np.random.default_rng(11)
    features = _features(rng, language="sw")
    right = [r["distractor_length"] <= 13 for r in features]  # longer distractors: always wrong
    samples = _samples(tmp_path / "m", "nsp_swahili_cot", features, right)
    (fit,) = analyse([samples], [_write(tmp_path / "f.jsonl", features)]).fits
    assert fit.variant == "cot" and fit.method.startswith("L2-regularised")
    assert any("separation" in note for note in fit.notes)
    top = fit.most_influential
    assert top["factor"] == "distractor_length" and top["sign"] == "negative"
    assert top["effect"] == "longer distractors are harder" and fit.coefficients["distractor_length"].ci_high < 0


def test_deltas_are_signed_toward_the_correct_option(tmp_path):
    """A model that follows the lower-perplexity option: its accuracy rises with the signed delta_perplexity."""
    rng = np.random.default_rng(3)
    features = _features(rng, language="ha")
    right = [(r["delta_perplexity"] > 0) == (r["label"] == "A") for r in features]  # picks the lower-ppl option
    noisy = [r != (rng.random() < 0.15) for r in right]
    samples = _samples(tmp_path / "m", "nsp_hausa_ll", features, noisy)
    (fit,) = analyse([samples], [_write(tmp_path / "f.jsonl", features)], deltas="toward-correct").fits
    top = fit.most_influential
    assert top["factor"] == "delta_perplexity" and top["sign"] == "positive", fit.coefficients
    zone = fit.ambiguity["delta_perplexity"]
    assert zone["error_inside"] > zone["error_outside"]


def test_direct_vs_cot_confusion_matches_hand_counts(tmp_path):
    features = _features(np.random.default_rng(5), n=10)
    direct = [True, True, True, False, False, True, False, True, False, False]
    cot = [True, False, True, True, False, False, False, True, True, False]
    # hand count: both right ids 0,2,7 = 3; direct only 1,5 = 2; CoT only 3,8 = 2; both wrong 4,6,9 = 3
    folder = tmp_path / "model-x"
    runs = [_samples(folder, "nsp_english_1k", features, direct), _samples(folder, "nsp_english_cot_1k", features, cot)]
    (c,) = analyse(runs, [_write(tmp_path / "f.jsonl", features)]).confusions
    assert (c.both_right, c.direct_only, c.cot_only, c.both_wrong) == (3, 2, 2, 3)
    assert (c.model, c.language, c.direct_task) == ("model-x", "english", "nsp_english_1k")
    assert c.cot_task == "nsp_english_cot_1k"


def test_cli_writes_report_plots_and_json(tmp_path, capsys):
    samples, features = _distance_case(tmp_path)
    cot = _samples(samples.parent, "nsp_english_cot", json_rows(features), [True] * 200 + [False] * 200)
    out = tmp_path / "out"
    assert main(["nsp-factors", str(samples), str(cot), "--features", str(features), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert printed.strip() == (out / "factors.md").read_text(encoding="utf-8").strip()
    assert "direct vs CoT" in printed and "farther distractors are easier" in printed
    pngs = sorted(out.glob("*.png"))
    assert [p.name for p in pngs] == [
        "direct_vs_cot_org__model-a_nsp_english_nsp_english_cot.png",
        "errors_org__model-a_nsp_english.png",
        "errors_org__model-a_nsp_english_cot.png",
    ]
    assert all(p.read_bytes().startswith(PNG) for p in pngs)

    assert main(["nsp-factors", str(samples), "--features", str(features), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    coefficients = data["fits"][0]["coefficients"]
    assert set(coefficients) == set(FACTORS)
    assert coefficients["distractor_distance"]["coef"] > 0 and coefficients["distractor_distance"]["significant"]
    assert data["fits"][0]["most_influential"]["factor"] == "distractor_distance"


def test_unjoinable_input_names_the_file(tmp_path):
    samples, _ = _distance_case(tmp_path)
    other = _write(tmp_path / "other.jsonl", _features(np.random.default_rng(1), n=5, language="ha"))
    with pytest.raises(SystemExit, match=r"nsp-factors: .*samples_nsp_english.*none of its question ids"):
        main(["nsp-factors", str(samples), "--features", str(other)])


def json_rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_a_local_models_report_and_plot_names_show_only_its_public_name(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("LM_EVAL_XLING_CACHE", str(tmp_path / "cache"))
    features = _features(np.random.default_rng(9), n=40)
    right = [i % 3 != 0 for i in range(40)]
    folder = tmp_path / "runs" / "__home__alice__models__qwen"  # lm-eval's folder for pretrained=/home/alice/...
    samples = _samples(folder, "nsp_english", features, right)
    out = tmp_path / "out"
    feature_file = _write(tmp_path / "f.jsonl", features)
    assert main(["nsp-factors", str(samples), "--features", str(feature_file), "--out", str(out), "--json"]) == 0
    printed = capsys.readouterr().out
    public = local_reference("/home/alice/models/qwen")
    text = (out / "factors.md").read_text(encoding="utf-8")
    assert f"## {public} / nsp_english (english, direct)" in text
    assert [p.name for p in out.glob("*.png")] == [f"errors_{public.replace(':', '_')}_nsp_english.png"]
    for output in (text, printed):
        assert "alice" not in output and str(tmp_path) not in output


def test_nan_feature_is_explained_and_shown_as_na(tmp_path):
    rng = np.random.default_rng(13)
    features = _features(rng, n=200)
    for row in features[:3]:
        row["delta_perplexity"] = math.nan
    features[3]["delta_perplexity"] = math.inf
    right = [r["distractor_distance"] > 4 or rng.random() < 0.3 for r in features]
    samples = _samples(tmp_path / "m", "nsp_english", features, right)
    report = analyse([samples], [_write(tmp_path / "f.jsonl", features)])
    (fit,) = report.fits
    assert fit.left_out == {"delta_perplexity": "n/a: 3 NaN and 1 infinite values among 200 questions"}
    assert set(fit.coefficients) == set(FACTORS) - {"delta_perplexity"}
    text = markdown(report)
    assert (
        "| delta_perplexity | n/a | n/a | n/a | n/a: 3 NaN and 1 infinite values among 200 questions; "
        "left out of the regression |" in text
    )
    assert "constant" not in text and not re.search(r"\b(nan|inf)\b", text)
    assert "zone of ambiguity of delta_perplexity" in text  # over the questions whose value is finite


def test_features_file_holding_an_id_twice_is_refused(tmp_path):
    features = _features(np.random.default_rng(2), n=6)
    samples = _samples(tmp_path / "m", "nsp_english", features, [True, False] * 3)
    twice = _write(tmp_path / "f.jsonl", [*features[:4], features[1], *features[4:]])
    with pytest.raises(SystemExit, match=r"nsp-factors: .*f\.jsonl:5: id 'en-00001' again \(first on line 2\)"):
        main(["nsp-factors", str(samples), "--features", str(twice)])
