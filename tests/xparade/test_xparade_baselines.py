"""X-PARADE baselines (lm_eval_xling.xparade.baselines) on the real data, built from the raw X-PARADE files."""

from __future__ import annotations

import json
import sys
import zlib

import numpy as np
import pytest
from support.common import RAW, run_cli

from lm_eval_xling.xparade.schema import XPARADE_DIRECTIONS
from lm_eval_xling.xparade.span_f1 import INF, NEW, SAME

pytestmark = pytest.mark.skipif(
    not (RAW / "xparade").is_dir(),
    reason=f"X-PARADE raw data not found at {RAW / 'xparade'} (set LM_EVAL_XLING_RAW)",
)

# Table 2 of the paper: Krippendorff's alpha, pairwise macro F1 and its std, over both splits
PAPER_AGREEMENT = {"en-es": (0.657, 62.5, 2.9), "es-en": (0.693, 63.4, 3.4), "en-hi": (0.605, 64.9, 1.4),
                   "hi-en": (0.570, 60.4, 1.0), "en-zh": (0.589, 60.0, 3.4), "zh-en": (0.637, 61.3, 4.2)}  # fmt: skip

# Share of NEW tokens per split and direction, counted once from the raw JSON files (adjudicated `labels`, token "0"
# left out) by a separate script: the majority baseline's precision, with recall 1 and F1 = 2P / (1 + P).
MAJORITY_PRECISION = {
    "dev": {
        "en-es": 0.437361,  # 3746 / 8565
        "es-en": 0.513042,  # 4583 / 8933
        "en-hi": 0.348967,  # 3869 / 11087
        "hi-en": 0.359414,  # 3436 / 9560
        "en-zh": 0.331894,  # 2382 / 7177
        "zh-en": 0.474099,  # 4695 / 9903
    },
    "test": {
        "en-es": 0.398545,  # 3286 / 8245
        "es-en": 0.446152,  # 3600 / 8069
        "en-hi": 0.303947,  # 3165 / 10413
        "hi-en": 0.274323,  # 2422 / 8829
        "en-zh": 0.355866,  # 2469 / 6938
        "zh-en": 0.485889,  # 4683 / 9638
    },
}


@pytest.fixture(scope="module")
def xparade_data(tmp_path_factory):
    from lm_eval_xling.data.builders import build

    root = tmp_path_factory.mktemp("xparade-data")
    build("xparade", RAW, root)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("LM_EVAL_XLING_DATA", str(root))
        yield root


@pytest.fixture(scope="module")
def xb(xparade_data):
    from lm_eval_xling.xparade import baselines as xparade_baselines

    return xparade_baselines


@pytest.fixture(scope="module")
def results(xb):
    """Every baseline but the alignment (its encoder is tested on its own below) on both splits, computed once."""
    return {split: xb.run_baselines(split, encoder=xb.NO_ENCODER) for split in ("dev", "test")}


@pytest.mark.parametrize("split", ["dev", "test"])
def test_majority_matches_hand_counts(results, split):
    majority = results[split].scores["majority"]
    assert set(majority) == set(XPARADE_DIRECTIONS)
    for direction, p in MAJORITY_PRECISION[split].items():
        expected = {"precision": p, "recall": 1.0, "f1": 2 * p / (1 + p)}
        assert majority[direction] == pytest.approx(expected, abs=1e-6), direction


@pytest.mark.parametrize("split", ["dev", "test"])
def test_human_star_reproduces_the_papers_rows(xb, results, split):
    scores = results[split].scores["human"]
    for direction, (p, r, f1) in xb.PAPER[split]["human"].items():
        ours = {k: 100 * v for k, v in scores[direction].items()}
        if "hi" in direction:
            # the documented gap: our Hindi F1 is 1-8 points higher, but the paper's shape (P well below R) holds,
            # which only the reading "vote of the others scored against each annotator" gives
            assert ours["recall"] - ours["precision"] > 10 and r - p > 10, (split, direction, ours)
            assert abs(ours["f1"] - f1) < 9, (split, direction, ours)
        else:
            assert abs(ours["f1"] - f1) < 2.5, (split, direction, ours)


def test_agreement_reproduces_table_2(results):
    pytest.importorskip("krippendorff")
    for direction, (alpha, f1, std) in PAPER_AGREEMENT.items():
        ours = results["test"].agreement[direction]
        assert ours["alpha"] == pytest.approx(alpha, abs=0.0015), direction
        assert 100 * ours["pairwise_macro_f1"] == pytest.approx(f1, abs=0.15), direction
        assert 100 * ours["pairwise_std"] == pytest.approx(std, abs=0.15), direction


def test_agreement_without_krippendorff_notes_it(xb, monkeypatch):
    monkeypatch.setitem(sys.modules, "krippendorff", None)
    result = xb.run_baselines("dev", encoder=xb.NO_ENCODER)
    assert all(a["alpha"] is None for a in result.agreement.values())
    assert "Krippendorff's alpha skipped: pip install krippendorff" in result.notes
    assert "alignment skipped: no encoder asked for" in result.notes[0]


# annotator 0: NEW, INF, SAME, SAME; 1: SAME, SAME, NEW, connotation; 2: NEW, SAME, SAME, SAME
RECORD = {"target_tokens": ["a", "b", "c", "d"], "annotator_ids": [0, 1, 2], "annotator_new": [[0], [2], [0]],
          "annotator_inf": [[1], [], []], "annotator_conn": [[], [3], []]}  # fmt: skip


def test_human_star_binary_vote_ties_go_to_new(xb):
    gold, pred = xb.human_star([RECORD, RECORD | {"annotator_ids": [0], "annotator_new": [[0]],
                                                  "annotator_inf": [[]], "annotator_conn": [[]]}])  # fmt: skip
    assert len(gold) == len(pred) == 1  # a single annotator has no one to be compared with
    # each annotator is the reference (NEW or not), the vote of the two others the prediction (1 of 2 NEW: NEW)
    assert gold[0] == [NEW, SAME, SAME, SAME, SAME, SAME, NEW, SAME, NEW, SAME, SAME, SAME]
    assert pred[0] == [NEW, SAME, NEW, SAME, NEW, SAME, SAME, SAME, NEW, SAME, NEW, SAME]
    literal, _ = xb.human_star([RECORD], vote_is_prediction=False)
    assert literal[0] == pred[0]


def test_human_star_three_way_adjudicates_the_others(xb):
    gold, pred = xb.human_star([RECORD], three_way=True)
    assert gold[0] == [NEW, INF, SAME, SAME, SAME, SAME, NEW, INF, NEW, SAME, SAME, SAME]
    # against 0: token b {SAME, SAME} SAME; token d {INF (connotation), SAME}: a lone INF among SAME -> SAME
    # against 1: token b {INF, SAME} -> SAME (lone INF); against 2: token b {INF, SAME} -> SAME, d {SAME, INF} -> SAME
    assert pred[0] == [NEW, SAME, NEW, SAME, NEW, SAME, SAME, SAME, NEW, SAME, NEW, SAME]
    # an INF beside a NEW (not all others SAME) stays INF; a NEW/SAME tie is NEW
    assert xb.adjudicate(np.array([[INF, SAME, NEW], [NEW, NEW, SAME]])).tolist() == [INF, NEW, NEW]
    assert xb.adjudicate(np.array([[INF], [INF], [SAME]])).tolist() == [INF]


def test_word_spans_keep_devanagari_words_and_split_han():
    from lm_eval_xling.xparade.alignment import word_spans

    text = "हिन्दी भाषा, 12 年的《大綱》"
    assert [text[s:e] for s, e in word_spans(text)] == ["हिन्दी", "भाषा", ",", "12", "年", "的", "《", "大", "綱", "》"]


def test_argmax_and_itermax_links():
    from lm_eval_xling.xparade.alignment import link_entropies

    sim = np.array([[0.9, 0.1, 0.2], [0.8, 0.3, 0.1], [0.1, 0.2, 0.7]])
    links, entropy = link_entropies(sim, "argmax")
    assert np.argwhere(links).tolist() == [[0, 0], [2, 2]]  # row 1's best (column 0) prefers row 0
    links, _ = link_entropies(sim, "itermax")
    assert np.argwhere(links).tolist() == [[0, 0], [1, 0], [2, 2]]  # a second round for the unaligned row 1
    assert entropy.shape == sim.shape and (entropy >= 0).all() and (entropy <= 1 + 1e-9).all()


class WordVectors:
    """A stand-in encoder: one fixed random vector per word, so only identical words align."""

    name, layer = "word-vectors", 0

    def __call__(self, text, spans):
        vectors = [np.random.default_rng(zlib.crc32(text[s:e].encode())).normal(size=16) for s, e in spans]
        vectors = np.array(vectors).reshape(len(spans), 16)
        return vectors / np.linalg.norm(vectors, axis=1, keepdims=True), np.arange(len(spans))


class NoVectors(WordVectors):
    def __call__(self, text, spans):
        raise AssertionError("encoded again")


def test_alignment_marks_words_without_a_counterpart_new(xb, monkeypatch, tmp_path):
    monkeypatch.setenv("LM_EVAL_XLING_CACHE", str(tmp_path))
    record = {"source": "the cat sat", "target": "the cat sat quietly", "id": "x",
              "target_tokens": ["the", "cat", "sat", "quietly"], "gold": ["same", "same", "same", "new"]}  # fmt: skip
    aligner = xb.Aligner(WordVectors())
    scores = xb.null_scores(aligner, record)
    assert np.isfinite(scores[:3]).all() and np.isinf(scores[3])
    percentile, threshold = xb.tune_threshold([xb.gold_labels(record)], [scores])
    assert xb.predict(scores, threshold) == [SAME, SAME, SAME, NEW]
    assert [json.loads(f.read_text()) for f in aligner.cache_folder.iterdir()]  # a second run reads them back
    assert xb.null_scores(xb.Aligner(NoVectors()), record).tolist() == scores.tolist()  # nothing encoded again


def test_missing_encoder_skips_alignment_with_a_note(xb):
    encoder, note = xb.load_encoder("/nonexistent/encoder")
    assert encoder is None and "/nonexistent/encoder not available" in note


def test_cli(xparade_data):
    env = {"LM_EVAL_XLING_DATA": str(xparade_data)}
    proc = run_cli("lm-eval-xling", "xparade-baselines", "--split", "dev", "--json", "--align-encoder", "none", env=env)
    scores = json.loads(proc.stdout)
    assert list(scores) == ["majority", "human", "human_3way", "human_inf"]
    for by_direction in scores.values():
        assert sorted(by_direction) == sorted(XPARADE_DIRECTIONS)
        for prf in by_direction.values():
            assert set(prf) == {"precision", "recall", "f1"}
            assert all(0 <= v <= 1 for v in prf.values())
    table = run_cli("lm-eval-xling", "xparade-baselines", "--align-encoder", "/nonexistent", env=env).stdout
    assert "| majority (binary) | es-en | 44.6 | 100.0 | 61.7 " in table  # test split, beside the paper's row
    assert "| 44.6 / 100.0 / 61.7 |" in table
    assert "note: alignment skipped: /nonexistent not available" in table
