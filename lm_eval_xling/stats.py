"""Every statistic of lm-eval-xling: percentile-bootstrap intervals over documents, for a mean, a difference of
means (paired or not) with its p-value, and corpus-level metrics. One implementation (`scipy.stats.bootstrap`,
percentile method, numpy's default_rng), one default: 10,000 resamples, 95%, seed 0. Beside them, the exact McNemar
test of paired right/wrong outcomes (`scipy.stats.binomtest`)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

RESAMPLES = 10_000
LEVEL = 0.95
_CELLS = 4_000_000  # resampled values held at once (scipy's `batch`), to bound memory on large inputs

Interval = tuple[float, float]


def _percentile_interval(
    data: tuple[np.ndarray, ...], statistic: Callable, paired: bool, resamples: int, seed: int, level: float = LEVEL
):
    from scipy.stats import bootstrap

    return bootstrap(
        data,
        statistic,
        paired=paired,
        vectorized=True,
        n_resamples=resamples,
        batch=max(1, _CELLS // max(len(x) for x in data)),
        method="percentile",
        confidence_level=level,
        random_state=np.random.default_rng(seed),
    )


def _constant(x: np.ndarray) -> bool:
    """True when every resample of `x` has the same mean (also for n < 2)."""
    return len(x) < 2 or bool(np.all(x == x[0]))


def mean_ci(values: Sequence[float] | np.ndarray, resamples: int = RESAMPLES, seed: int = 0) -> Interval:
    """95% interval of the mean of per-document values; NaN where there are none."""
    x = np.asarray(values, dtype=float)
    if not len(x):
        return math.nan, math.nan
    if _constant(x):
        return float(x[0]), float(x[0])
    ci = _percentile_interval((x,), lambda s, axis=-1: np.mean(s, axis=axis), False, resamples, seed)
    return float(ci.confidence_interval.low), float(ci.confidence_interval.high)


def difference_ci(high: np.ndarray, low: np.ndarray, resamples: int = RESAMPLES, seed: int = 0) -> Interval:
    """95% interval of mean(high) - mean(low) for two independent samples (each side resampled on its own)."""
    high, low = np.asarray(high, dtype=float), np.asarray(low, dtype=float)
    if _constant(low):  # (also a single observation) only the other side varies
        lo, hi = mean_ci(high, resamples, seed)
        return lo - float(np.mean(low)), hi - float(np.mean(low))
    if _constant(high):
        lo, hi = mean_ci(low, resamples, seed)
        return float(np.mean(high)) - hi, float(np.mean(high)) - lo
    ci = _percentile_interval(
        (high, low), lambda a, b, axis=-1: np.mean(a, axis=axis) - np.mean(b, axis=axis), False, resamples, seed
    )
    return float(ci.confidence_interval.low), float(ci.confidence_interval.high)


def paired_difference(
    a: np.ndarray, b: np.ndarray, resamples: int = RESAMPLES, seed: int = 0
) -> tuple[Interval, float]:
    """(95% interval of mean(b - a), two-sided p-value) from a paired bootstrap over documents.

    p is twice the share of resampled differences on the other side of 0 from the observed one, read from the very
    resamples the interval comes from (a bootstrap test: p < 0.05 where the interval excludes 0, up to quantile
    interpolation)."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    differences = b - a
    diff = float(np.mean(differences))
    if _constant(differences):
        return (diff, diff), 1.0 if diff == 0 else 0.0
    result = _percentile_interval((a, b), lambda x, y, axis=-1: np.mean(y - x, axis=axis), True, resamples, seed)
    resampled = result.bootstrap_distribution
    if diff == 0:
        p = 1.0
    else:
        other_side = np.mean(resampled <= 0) if diff > 0 else np.mean(resampled >= 0)
        p = min(1.0, 2 * float(other_side))
    return (float(result.confidence_interval.low), float(result.confidence_interval.high)), p


def corpus_ci(
    counts: np.ndarray,
    statistic: Callable[[np.ndarray], np.ndarray],
    resamples: int = RESAMPLES,
    seed: int = 0,
    level: float = LEVEL,
) -> Interval:
    """Interval of a corpus-level metric computed from summed per-document counts (`counts`: one row per document,
    any shape per row), resampling documents: `statistic` maps summed counts (resamples, *row shape) to values."""
    if not len(counts):
        raise ValueError("no documents to resample")
    if not 0 < level < 1 or resamples < 1:
        raise ValueError("need 0 < level < 1 and resamples >= 1")
    counts = np.asarray(counts, dtype=np.float64)

    def resampled_statistic(index: np.ndarray, axis: int = -1) -> np.ndarray:
        # scipy resamples the document indices; each resample's counts are summed over its documents
        batch = np.atleast_2d(index)
        values = statistic(counts[batch].sum(axis=1))
        return values if index.ndim > 1 else values[0]

    result = _percentile_interval((np.arange(len(counts)),), resampled_statistic, False, resamples, seed, level)
    return float(result.confidence_interval.low), float(result.confidence_interval.high)


def mcnemar_exact(a: Sequence[float] | np.ndarray, b: Sequence[float] | np.ndarray) -> float:
    """Two-sided p-value of the exact McNemar test of paired 0/1 outcomes: a binomial test (p = 1/2) of the items
    right in `a` only among the discordant ones; 1.0 when there are none."""
    from scipy.stats import binomtest

    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if a.shape != b.shape or a.ndim != 1:
        raise ValueError(f"need two 1-d samples of the same length, got shapes {a.shape} and {b.shape}")
    if not np.isin(a, (0, 1)).all() or not np.isin(b, (0, 1)).all():
        raise ValueError("McNemar's test needs outcomes of 0 (wrong) or 1 (right)")
    only_a, only_b = int(np.sum((a == 1) & (b == 0))), int(np.sum((a == 0) & (b == 1)))
    if only_a + only_b == 0:
        return 1.0
    return float(binomtest(only_a, only_a + only_b, 0.5).pvalue)
