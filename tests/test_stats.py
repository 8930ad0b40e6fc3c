"""The one bootstrap module: intervals hold their estimate, and degenerate samples do not break them."""

from __future__ import annotations

import numpy as np
import pytest

from lm_eval_xling.stats import corpus_ci, difference_ci, mcnemar_exact, mean_ci, paired_difference

RNG = np.random.default_rng(7)
X = RNG.random(40)
Y = RNG.random(30) + 0.5


def test_mean_and_difference_intervals_hold_the_estimate():
    low, high = mean_ci(X)
    assert low < X.mean() < high
    low, high = difference_ci(Y, X)
    assert low < Y.mean() - X.mean() < high and low > 0


def test_a_side_with_one_observation_resamples_only_the_other():
    """80 Indic entities can shrink to one under --limit: the interval is the other side's, shifted."""
    low, high = difference_ci(X, [0.25])
    m_low, m_high = mean_ci(X)
    assert (low, high) == pytest.approx((m_low - 0.25, m_high - 0.25))
    low, high = difference_ci([0.25], X)
    assert (low, high) == pytest.approx((0.25 - m_high, 0.25 - m_low))
    assert difference_ci([1.0], [0.0]) == (1.0, 1.0)
    assert np.isnan(mean_ci([])[0])


def test_paired_difference_p_and_seed():
    (low, high), p = paired_difference(X, X + 0.2)
    assert low > 0 and p < 0.05
    assert paired_difference(X, X + 0.2, seed=1) == paired_difference(X, X + 0.2, seed=1)
    assert paired_difference(X, X) == ((0.0, 0.0), 1.0)


def test_corpus_interval_of_a_ratio_of_sums():
    counts = np.stack([RNG.integers(0, 5, 30), RNG.integers(1, 5, 30)], axis=1)
    ratio = counts[:, 0].sum() / counts[:, 1].sum()
    low, high = corpus_ci(counts, lambda summed: summed[..., 0] / summed[..., 1], resamples=2000)
    assert low < ratio < high


def test_mcnemar_exact_on_the_discordant_pairs():
    """1 item right in `a` only and 9 in `b` only (plus concordant ones, which do not count): p = 2 * 11 / 2**10."""
    a = [1] + [0] * 9 + [1] * 5 + [0] * 3
    b = [0] + [1] * 9 + [1] * 5 + [0] * 3
    assert mcnemar_exact(a, b) == pytest.approx(0.021484375)
    assert mcnemar_exact(b, a) == mcnemar_exact(a, b)
    assert mcnemar_exact([1, 0, 1], [1, 0, 1]) == 1.0
    assert mcnemar_exact([], []) == 1.0


def test_mcnemar_exact_refuses_other_than_right_or_wrong():
    with pytest.raises(ValueError, match=r"0 \(wrong\) or 1 \(right\)"):
        mcnemar_exact([0.5, 1], [1, 1])
    with pytest.raises(ValueError, match="same length"):
        mcnemar_exact([0, 1], [1])
