"""X-PARADE baselines (lm_eval_xling.xparade_baselines) on the real data, built from the raw X-PARADE files."""

from __future__ import annotations

import json

import numpy as np
import pytest
from conftest import RAW, run_cli

from lm_eval_xling.metrics.span_f1 import INF, NEW, SAME, binary_new_prf
from lm_eval_xling.schemas import XPARADE_DIRECTIONS

pytestmark = pytest.mark.skipif(
    not (RAW / "xparade").is_dir(),
    reason=f"X-PARADE raw data not found at {RAW / 'xparade'} (set LM_EVAL_XLING_RAW)",
)

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
    from lm_eval_xling.builders import build

    root = tmp_path_factory.mktemp("xparade-data")
    build("xparade", RAW, root)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("LM_EVAL_XLING_DATA", str(root))
        yield root


@pytest.fixture(scope="module")
def xb(xparade_data):
    from lm_eval_xling import xparade_baselines

    return xparade_baselines


@pytest.fixture(scope="module")
def results(xb):
    """Every baseline on both splits, computed once (the USE vectors are cached in-process anyway)."""
    return {split: xb.run_baselines(split) for split in ("dev", "test")}


@pytest.mark.parametrize("split", ["dev", "test"])
def test_majority_matches_hand_counts(xb, split):
    majority = xb.baselines(split)["majority"]
    assert set(majority) == set(XPARADE_DIRECTIONS)
    for direction, p in MAJORITY_PRECISION[split].items():
        expected = {"precision": p, "recall": 1.0, "f1": 2 * p / (1 + p)}
        assert majority[direction] == pytest.approx(expected, abs=1e-6), direction


def test_human_star_beats_majority(results):
    for split, result in results.items():
        scores = result.scores
        for direction in XPARADE_DIRECTIONS:
            human = scores["human"][direction]
            assert all(0 < v < 1 for v in human.values()), (split, direction, human)
            # on this data every direction's annotators agree far above the all-NEW baseline
            assert human["f1"] > scores["majority"][direction]["f1"] + 0.1, (split, direction)


def test_human_star_votes_and_skips_single_annotators(xb):
    record = {"target_tokens": ["a", "b", "c"], "annotator_ids": [0, 1, 2]}
    # annotator 0: NEW, INF, SAME; 1: INF, SAME, SAME; 2: NEW, NEW, NEW
    record |= {"annotator_new": [[0], [], [0, 1, 2]], "annotator_inf": [[1], [0], []]}
    single = record | {"annotator_ids": [0], "annotator_new": [[0]], "annotator_inf": [[]]}
    gold, pred = xb.human_star([record, single])
    assert len(gold) == len(pred) == 1  # the single-annotator record is skipped
    assert pred[0] == [NEW, INF, SAME, INF, SAME, SAME, NEW, NEW, NEW]
    # against 0: {INF, NEW} tie -> NEW, {SAME, NEW} -> NEW, {SAME, NEW} -> NEW;
    # against 1: {NEW, NEW} -> NEW, {INF, NEW} -> NEW, {SAME, NEW} -> NEW;
    # against 2: {NEW, INF} -> NEW, {INF, SAME} -> INF, {SAME, SAME} -> SAME
    assert gold[0] == [NEW, NEW, NEW, NEW, NEW, NEW, NEW, INF, SAME]


def test_alignment_threshold_is_dev_argmax(xb, results):
    dev, test = xb.load_records("dev"), xb.load_records("test")
    tuned = results["test"].thresholds
    for direction in XPARADE_DIRECTIONS:
        gold = [xb.gold_labels(r) for r in dev[direction]]
        scores = xb.alignment_scores(dev[direction])
        f1 = [binary_new_prf(gold, [xb.predict(s, t) for s in scores])["f1"] for t in xb.THRESHOLDS]
        best = float(xb.THRESHOLDS[f1.index(max(f1))])
        threshold, predictions = xb.alignment(dev[direction], test[direction])
        assert threshold == best == tuned[direction], direction
        assert [len(p) for p in predictions] == [len(r["target_tokens"]) for r in test[direction]]
        assert {label for p in predictions for label in p} <= {NEW, SAME}


def test_tokenize_keeps_devanagari_words_and_splits_han(xb):
    assert xb.tokenize("हिन्दी भाषा, 12") == ["हिन्दी", "भाषा", ",", "12"]
    assert xb.tokenize("1866年的《大綱》") == ["1866", "年", "的", "年的", "《", "大", "綱", "大綱", "》"]
    # punctuation inside a predicted NEW run is NEW, at its edge SAME
    assert xb.predict(np.array([0.1, np.nan, 0.2, np.nan, 0.9]), 0.5) == [NEW, NEW, NEW, SAME, SAME]


def test_cli_json(xparade_data):
    proc = run_cli("lm-eval-xling", "xparade-baselines", "--split", "dev", "--json",
                   env={"LM_EVAL_XLING_DATA": str(xparade_data)})  # fmt: skip
    scores = json.loads(proc.stdout)
    assert list(scores) == ["majority", "alignment", "human"]
    for by_direction in scores.values():
        assert sorted(by_direction) == sorted(XPARADE_DIRECTIONS)
        for prf in by_direction.values():
            assert set(prf) == {"precision", "recall", "f1"}
            assert all(0 <= v <= 1 for v in prf.values())
