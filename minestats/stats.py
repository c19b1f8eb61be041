"""Intervals, z-scores and multiple-comparison corrections for Monte Carlo proportions.

Every Monte Carlo proportion carries a Wilson interval: unlike the normal
interval it stays inside [0, 1] and keeps its coverage near p = 0 or 1.
"""

from __future__ import annotations

import numpy as np
from scipy import stats as scipy_stats
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportion_confint

__all__ = ["holm_reject", "two_sided_p_values", "wilson_interval", "z_scores"]


def _check_counts(successes, trials):
    successes = np.asarray(successes)
    trials = np.asarray(trials)
    if np.any(trials < 1):
        raise ValueError(f"trials ({trials.min()}) must be at least 1")
    if np.any(successes < 0) or np.any(successes > trials):
        raise ValueError(f"successes must lie between 0 and trials; got {successes!r}")
    return successes, trials


def _check_level(confidence_level: float) -> float:
    if not 0 < confidence_level < 1:
        raise ValueError(
            f"confidence_level ({confidence_level}) must lie strictly between 0 and 1")
    return float(confidence_level)


def wilson_interval(successes, trials, *, confidence_level=0.95):
    """Wilson score interval for a binomial proportion (statsmodels).

    Parameters
    ----------
    successes, trials : int or array_like of int
        Counts; broadcast together.
    confidence_level : float, optional
        Coverage of the interval, default 0.95.

    Returns
    -------
    low, high : float or numpy.ndarray
        Interval bounds, inside [0, 1].

    Examples
    --------
    >>> low, high = wilson_interval(2, 2000)
    >>> bool(0 < low < 0.001 < high)
    True
    >>> [round(float(v), 4) for v in wilson_interval(1274, 2000)]
    [0.6157, 0.6578]
    >>> wilson_interval(20_000, 20_000)[1]
    1.0
    """
    successes, trials = _check_counts(successes, trials)
    level = _check_level(confidence_level)
    low, high = proportion_confint(successes, trials, alpha=1 - level, method="wilson")
    # The formula's bound at 0 (or n) successes is exactly 0 (or 1); floating point
    # can leave it a rounding error inside, e.g. 0.9999999999999999 for 20000/20000.
    low = np.where(successes == 0, 0.0, low)
    high = np.where(successes == trials, 1.0, high)
    if low.ndim == 0:
        return float(low), float(high)
    return low, high


def z_scores(successes, trials, expected):
    """Standardised difference between observed and expected proportions.

    ``z = (successes / trials - p) / sqrt(p (1 - p) / trials)``, using the exact ``p``
    (the null hypothesis), not the estimate. Where ``p`` is 0 or 1 the variance is
    zero: z is 0 if the observation matches exactly and +/-inf otherwise.

    Examples
    --------
    >>> round(float(z_scores(60, 100, 0.5)), 12)
    2.0
    >>> z_scores([100, 99], 100, 1.0).tolist()
    [0.0, -inf]
    """
    successes, trials = _check_counts(successes, trials)
    expected = np.asarray(expected, dtype=float)
    if np.any((expected < 0) | (expected > 1)):
        raise ValueError(f"expected proportions must lie in [0, 1]; got {expected!r}")
    difference = successes / trials - expected
    spread = np.sqrt(expected * (1 - expected) / trials)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(spread > 0, difference / spread, np.sign(difference) * np.inf)
    return np.where((spread == 0) & (difference == 0), 0.0, z)


def two_sided_p_values(z):
    """Two-sided normal p-values of z-scores.

    Examples
    --------
    >>> round(float(two_sided_p_values(1.959964)), 4)
    0.05
    """
    return 2 * scipy_stats.norm.sf(np.abs(np.asarray(z, dtype=float)))


def holm_reject(p_values, *, alpha=0.05):
    """Which hypotheses Holm's step-down method rejects at family-wise level ``alpha``.

    Holm's method is valid under any dependence between the tests, such as the
    correlated counts of one all-positions simulation.

    Examples
    --------
    >>> holm_reject([0.001, 0.04, 0.3], alpha=0.05).tolist()
    [True, False, False]
    """
    if not 0 < alpha < 1:
        raise ValueError(f"alpha ({alpha}) must lie strictly between 0 and 1")
    p_values = np.asarray(p_values, dtype=float)
    if p_values.size == 0:
        return np.zeros(p_values.shape, dtype=bool)
    reject = multipletests(p_values.ravel(), alpha=alpha, method="holm")[0]
    return reject.reshape(p_values.shape)
