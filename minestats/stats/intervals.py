"""Confidence intervals for proportions, their differences and their ratios.

Every Monte Carlo proportion carries a Wilson interval (`wilson_interval`; other
methods by `proportion_interval`): unlike the normal interval it stays inside [0, 1]
and keeps its coverage near p = 0 or 1. A difference between two proportions
measured on the same trials (a paired 2x2 table) carries Newcombe's square-and-add
interval for paired data (`paired_difference_interval`); `difference_interval` is the
same construction for two independent samples, to show what the pairing saves. A
figure from elsewhere is compared by `difference_from_reference`, a ratio of two
independent estimates carries the delta-method interval on the log scale
(`ratio_interval`), and a mean of independent observations Student's t interval
(`mean_interval`).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from minestats.foundations.validation import (
    DEFAULT_CONFIDENCE_LEVEL,
    check_confidence_level,
    quoted,
)

__all__ = ["PROPORTION_METHODS", "ConfidenceInterval", "Difference", "MeanInterval",
           "difference_from_reference", "difference_interval", "mean_interval",
           "paired_difference_interval", "proportion_interval", "ratio_interval",
           "wilson_interval"]

PROPORTION_METHODS = ("wilson", "agresti_coull", "beta", "jeffreys", "normal", "binom_test")
"""The interval methods `proportion_interval` takes: those of statsmodels'
``proportion_confint`` (``beta`` is Clopper-Pearson)."""

class ConfidenceInterval(NamedTuple):
    """Bounds of a confidence interval; floats, or arrays for many proportions at once.

    Examples
    --------
    >>> interval = wilson_interval(1274, 2000)
    >>> round(interval.low, 4), round(interval.high, 4)
    (0.6157, 0.6578)
    >>> low, high = interval
    """

    low: float | np.ndarray
    high: float | np.ndarray


def _check_counts(successes, trials):
    successes = np.asarray(successes)
    trials = np.asarray(trials)
    if np.any(trials < 1):
        raise ValueError(f"trials ({trials.min()}) must be at least 1")
    if np.any(successes < 0) or np.any(successes > trials):
        raise ValueError(f"successes must lie between 0 and trials; got {quoted(successes)}")
    return successes, trials


def proportion_interval(successes, trials, *, confidence_level=DEFAULT_CONFIDENCE_LEVEL,
                        method="wilson") -> ConfidenceInterval:
    """Confidence interval of a binomial proportion (statsmodels), inside [0, 1].

    Parameters
    ----------
    successes, trials : int or array_like of int
        Counts; broadcast together.
    confidence_level : float, optional
        Coverage of the interval, default 0.95.
    method : str, optional
        One of `PROPORTION_METHODS`, the methods of
        `statsmodels.stats.proportion.proportion_confint`; default ``'wilson'``.

    Returns
    -------
    ConfidenceInterval
        ``(low, high)``: floats for scalar counts, else arrays. At 0 successes the
        low bound is exactly 0 and at ``trials`` successes the high bound exactly 1.

    See Also
    --------
    minestats.wilson_interval
        The interval every proportion of the library carries.

    References
    ----------
    L. D. Brown, T. T. Cai and A. DasGupta, "Interval estimation for a binomial
    proportion", Statistical Science 16 (2001), 101-133.

    Examples
    --------
    >>> proportion_interval(1274, 2000, method="beta").low > 0.61
    True
    >>> proportion_interval(0, 10, method="normal")
    ConfidenceInterval(low=0.0, high=0.0)
    """
    successes, trials = _check_counts(successes, trials)
    level = check_confidence_level(confidence_level)
    if method not in PROPORTION_METHODS:
        raise ValueError(f"method ({quoted(method)}) must be one of "
                         f"{', '.join(PROPORTION_METHODS)}")
    if method == "wilson":
        low, high = _wilson(successes, trials, 1 - level)
    else:
        from statsmodels.stats.proportion import proportion_confint

        low, high = proportion_confint(successes, trials, alpha=1 - level, method=method)
    # The formula's bound at 0 (or n) successes is exactly 0 (or 1); floating point
    # can leave it a rounding error inside, e.g. 0.9999999999999999 for 20000/20000.
    low = np.where(successes == 0, 0.0, low)
    high = np.where(successes == trials, 1.0, high)
    if low.ndim == 0:
        return ConfidenceInterval(float(low), float(high))
    return ConfidenceInterval(low, high)


def _wilson(successes, trials, alpha):
    """Wilson's bounds, computed as statsmodels' ``proportion_confint`` computes them.

    The same operations in the same order, and the critical value from the same
    ``ndtri`` (`scipy.stats.norm.isf` is ``-ndtri``), so every bound equals statsmodels'
    to the last bit (a test checks it) without importing statsmodels and scipy.stats,
    which would double the start-up of a short run.
    """
    from scipy.special import ndtri

    share = successes / trials
    crit = -ndtri(alpha / 2.0)
    crit2 = crit**2
    denom = 1 + crit2 / trials
    center = (share + crit2 / (2 * trials)) / denom
    dist = crit * np.sqrt(share * (1.0 - share) / trials + crit2 / (4.0 * trials**2))
    dist /= denom
    return np.clip(center - dist, 0, 1), np.clip(center + dist, 0, 1)


def wilson_interval(successes, trials, *, confidence_level=DEFAULT_CONFIDENCE_LEVEL):
    """Wilson score interval for a binomial proportion: `proportion_interval`'s default.

    Every Monte Carlo proportion of the library carries this interval; the arguments
    and the returned `ConfidenceInterval` are those of `proportion_interval`.

    See Also
    --------
    minestats.stats.intervals.proportion_interval
        The same, by any of statsmodels' methods.
    minestats.stats.intervals.difference_interval
        Two such proportions, independent.

    References
    ----------
    E. B. Wilson, "Probable inference, the law of succession, and statistical
    inference", Journal of the American Statistical Association 22 (1927), 209-212.

    L. D. Brown, T. T. Cai and A. DasGupta, "Interval estimation for a binomial
    proportion", Statistical Science 16 (2001), 101-133.

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
    return proportion_interval(successes, trials, confidence_level=confidence_level,
                               method="wilson")


def _check_table(table) -> tuple[int, int, int, int]:
    """Return the four counts ``(a, b, c, d)`` of a paired 2x2 table ``[[a, b], [c, d]]``."""
    counts = np.asarray(table, dtype=object)
    cells = counts.ravel().tolist()
    if counts.shape != (2, 2) or not all(
            isinstance(cell, int | np.integer) and not isinstance(cell, bool) and cell >= 0
            for cell in cells) or sum(cells) == 0:
        shown = counts.tolist() if counts.ndim else table
        raise ValueError(f"table ({quoted(shown)}) must be a 2x2 table of non-negative integer "
                         "counts, not all zero")
    return tuple(int(cell) for cell in cells)


def paired_difference_interval(table, *, confidence_level=DEFAULT_CONFIDENCE_LEVEL
                               ) -> ConfidenceInterval:
    """Newcombe's interval for the difference of two proportions measured on the same trials.

    Each of ``n`` trials gives two outcomes, the first and the second contender's;
    ``table`` counts the trials by outcome pair, as statsmodels' ``mcnemar`` reads it::

                        second succeeds   second fails
        first succeeds        a                b
        first fails           c                d

    The difference is ``p1 - p2 = (b - c) / n`` with ``p1 = (a + b) / n`` and
    ``p2 = (a + c) / n``. The interval is method 10 of Newcombe (1998), "Improved
    confidence intervals for the difference between binomial proportions based on
    paired data", Statistics in Medicine 17, 2635-2650: the square-and-add
    combination of the Wilson intervals ``(l1, u1)`` of ``p1`` and ``(l2, u2)`` of
    ``p2``, with the correlation of the two estimates::

        L = (b - c) / n - sqrt((p1 - l1)^2 - 2 phi (p1 - l1)(u2 - p2) + (u2 - p2)^2)
        U = (b - c) / n + sqrt((u1 - p1)^2 - 2 phi (u1 - p1)(p2 - l2) + (p2 - l2)^2)

    where ``phi = C / sqrt((a+b)(c+d)(a+c)(b+d))`` (0 if a margin is 0) and ``C`` is
    ``ad - bc`` moved towards 0 by ``n / 2`` when positive (``ad - bc - n/2`` above
    ``n/2``, 0 between 0 and ``n/2``, ``ad - bc`` below 0). It stays inside [-1, 1],
    is never degenerate, needs no root finding, and Newcombe found its coverage close
    to nominal. With ``phi = 0`` it is `difference_interval`, Newcombe's
    interval for two independent samples: the positive correlation of two solvers
    run on the same boards is what makes the paired interval narrower.

    Parameters
    ----------
    table : array_like of int, shape (2, 2)
        ``[[a, b], [c, d]]``: both succeed, first only, second only, neither.
    confidence_level : float, optional
        Coverage of the interval, default 0.95.

    Returns
    -------
    ConfidenceInterval
        Bounds of ``p1 - p2``.

    See Also
    --------
    minestats.stats.intervals.difference_interval
        The same for two independent samples.
    minestats.stats.significance.mcnemar_p_value
        The test that goes with it.

    References
    ----------
    R. G. Newcombe, "Improved confidence intervals for the difference between binomial
    proportions based on paired data", Statistics in Medicine 17 (1998), 2635-2650.

    Examples
    --------
    Complete response before and after consolidation therapy (Cavo et al., 2012), the
    example of Fagerland, Lydersen and Laake's R package ``contingencytables``
    (``Newcombe_square_and_add_CI_paired_2x2``): -0.0621 (95% CI -0.1186 to -0.0046).

    >>> low, high = paired_difference_interval([[59, 6], [16, 80]])
    >>> round(low, 4), round(high, 4)
    (-0.1186, -0.0046)
    >>> paired_difference_interval([[1, 2], [3, -4]])
    Traceback (most recent call last):
    ...
    ValueError: table ([[1, 2], [3, -4]]) must be a 2x2 table of non-negative integer counts, \
not all zero
    """
    a, b, c, d = _check_table(table)
    level = check_confidence_level(confidence_level)
    n = a + b + c + d
    p1, p2 = (a + b) / n, (a + c) / n
    low1, high1 = wilson_interval(a + b, n, confidence_level=level)
    low2, high2 = wilson_interval(a + c, n, confidence_level=level)
    margins = (a + b) * (c + d) * (a + c) * (b + d)
    cross = a * d - b * c  # Python ints: exact at any n
    if margins == 0 or 0 <= 2 * cross <= n:
        phi = 0.0
    else:
        phi = (cross - n / 2 if cross > 0 else cross) / math.sqrt(margins)
    below = (p1 - low1) ** 2 - 2 * phi * (p1 - low1) * (high2 - p2) + (high2 - p2) ** 2
    above = (high1 - p1) ** 2 - 2 * phi * (high1 - p1) * (p2 - low2) + (p2 - low2) ** 2
    difference = (b - c) / n
    return ConfidenceInterval(difference - math.sqrt(max(below, 0.0)),
                              difference + math.sqrt(max(above, 0.0)))


def difference_interval(successes1, trials1, successes2, trials2, *,
                        confidence_level=DEFAULT_CONFIDENCE_LEVEL) -> ConfidenceInterval:
    """Newcombe's interval for ``p1 - p2`` from two independent samples (statsmodels).

    Method 10 of Newcombe (1998), "Interval estimation for the difference between
    independent proportions", Statistics in Medicine 17, 873-890: the square-and-add
    combination of the two Wilson intervals, computed by statsmodels'
    ``confint_proportions_2indep(method="newcomb")``. It is the interval
    `paired_difference_interval` gives when the two outcomes are uncorrelated, so the
    ratio of their widths shows what running both contenders on the same trials saves.

    See Also
    --------
    minestats.stats.intervals.paired_difference_interval
        The same on common trials.
    minestats.stats.intervals.difference_from_reference
        Against a published figure.

    References
    ----------
    R. G. Newcombe, "Interval estimation for the difference between independent
    proportions: comparison of eleven methods", Statistics in Medicine 17 (1998),
    873-890.

    Examples
    --------
    Newcombe's example (a), 56/70 against 48/80: 0.0524 to 0.3339. Arrays of counts
    give arrays of bounds, one interval per element.

    >>> [round(v, 4) for v in difference_interval(56, 70, 48, 80)]
    [0.0524, 0.3339]
    >>> difference_interval(np.array([56, 0]), 70, np.array([48, 0]), 80).low.round(4)
    array([ 0.0524, -0.0458])
    """
    from statsmodels.stats.proportion import confint_proportions_2indep

    for successes, trials in ((successes1, trials1), (successes2, trials2)):
        _check_counts(successes, trials)
    level = check_confidence_level(confidence_level)
    low, high = confint_proportions_2indep(successes1, trials1, successes2, trials2,
                                           method="newcomb", compare="diff", alpha=1 - level)
    if np.ndim(low) == 0:
        return ConfidenceInterval(float(low), float(high))
    return ConfidenceInterval(np.asarray(low, dtype=float), np.asarray(high, dtype=float))


class MeanInterval(NamedTuple):
    """A mean, its standard error and its confidence interval (`mean_interval`)."""

    mean: float
    standard_error: float
    low: float
    high: float


def mean_interval(values, *, confidence_level=DEFAULT_CONFIDENCE_LEVEL) -> MeanInterval:
    """Mean of independent observations with Student's t interval.

    With ``n`` observations of sample standard deviation ``s`` (``ddof=1``), the
    standard error is ``s / sqrt(n)`` and the interval ``mean -/+ t se``, ``t`` the
    ``(1 + level) / 2`` quantile of Student's t with ``n - 1`` degrees of freedom:
    exact for normal observations, and close for a mean of many bounded ones (a
    board's share of mined cells, the gain of a decision) by the central limit theorem.

    Parameters
    ----------
    values : array_like
        The observations, one dimension; independent and identically distributed.
    confidence_level : float, optional
        Coverage of the interval, default 0.95.

    Returns
    -------
    MeanInterval
        ``mean``, ``standard_error``, ``low`` and ``high``: nan for the standard error
        and bounds with fewer than two observations, and a nan mean with none.

    See Also
    --------
    minestats.stats.intervals.ratio_interval
        The ratio of two such means.

    References
    ----------
    "Student" (W. S. Gosset), "The probable error of a mean", Biometrika 6 (1908), 1-25.

    Examples
    --------
    As ``scipy.stats.t.interval(0.95, n - 1, mean, sem)`` gives it:

    >>> found = mean_interval([0.21, 0.18, 0.25, 0.20, 0.23])
    >>> round(found.mean, 4), round(found.low, 4), round(found.high, 4)
    (0.214, 0.1805, 0.2475)
    >>> mean_interval([0.5]).mean, mean_interval([0.5]).high
    (0.5, nan)
    """
    from scipy import stats as scipy_stats

    level = check_confidence_level(confidence_level)
    values = np.asarray(values, dtype=float)
    if values.ndim != 1:
        raise ValueError(f"values must be one-dimensional, not of shape {list(values.shape)}")
    n = values.size
    mean = float(values.mean()) if n else math.nan
    if n < 2:
        return MeanInterval(mean, math.nan, math.nan, math.nan)
    standard_error = float(values.std(ddof=1) / np.sqrt(n))
    half = float(scipy_stats.t.ppf((1 + level) / 2, n - 1)) * standard_error
    return MeanInterval(mean, standard_error, mean - half, mean + half)


def ratio_interval(estimate1, standard_error1, estimate2, standard_error2=0.0, *,
                   confidence_level=DEFAULT_CONFIDENCE_LEVEL) -> ConfidenceInterval:
    """Interval for the ratio of two independent positive estimates, on the log scale.

    The delta method gives ``log(e1 / e2)`` the standard error
    ``s = sqrt((se1 / e1)^2 + (se2 / e2)^2)``; the interval is
    ``(e1 / e2) exp(-/+ z s)`` with ``z`` the normal quantile of the level. It stays
    positive, and is asymmetric as a ratio's sampling distribution is. With a known
    denominator (``se2 = 0``) it is the interval of ``e1`` on the log scale divided by
    ``e2``. For two binomial proportions (``se^2 = p (1 - p) / n``) it is Katz's
    interval for a risk ratio, ``exp(+/- z sqrt(1/x1 - 1/n1 + 1/x2 - 1/n2))``: Katz,
    Baptista, Azen and Pike (1978), Biometrics 34, 469-474.

    Parameters
    ----------
    estimate1, standard_error1 : float or array_like
        The numerator (a mean over independent observations, say) and its standard
        error.
    estimate2, standard_error2 : float or array_like
        The denominator and its standard error; 0 (the default) for a known value.
    confidence_level : float, optional
        Coverage of the interval, default 0.95.

    Returns
    -------
    ConfidenceInterval
        Bounds of ``e1 / e2``: floats for scalar inputs, else arrays; nan where an
        estimate is not positive or a standard error not finite (no interval exists).

    See Also
    --------
    minestats.stats.intervals.difference_interval
        The difference of two proportions, not their ratio.

    References
    ----------
    D. Katz, J. Baptista, S. P. Azen and M. C. Pike, "Obtaining confidence intervals for
    the risk ratio in cohort studies", Biometrics 34 (1978), 469-474.

    Examples
    --------
    Katz's interval for 56/70 against 48/80, as statsmodels'
    ``confint_proportions_2indep(..., compare="ratio", method="log")`` gives it:

    >>> p1, p2 = 56 / 70, 48 / 80
    >>> low, high = ratio_interval(p1, (p1 * (1 - p1) / 70) ** 0.5,
    ...                            p2, (p2 * (1 - p2) / 80) ** 0.5)
    >>> round(low, 4), round(high, 4)
    (1.0766, 1.6512)
    >>> [round(v, 4) for v in ratio_interval(0.5, 0.01, 0.25)]   # known denominator
    [1.9231, 2.08]
    """
    from scipy import stats as scipy_stats

    level = check_confidence_level(confidence_level)
    e1, s1, e2, s2 = np.broadcast_arrays(*(np.asarray(value, dtype=float) for value in
                                           (estimate1, standard_error1, estimate2,
                                            standard_error2)))
    if np.any(s1 < 0) or np.any(s2 < 0):
        raise ValueError("standard errors must be non-negative")
    valid = (e1 > 0) & (e2 > 0) & np.isfinite(s1) & np.isfinite(s2)
    z = float(scipy_stats.norm.ppf((1 + level) / 2))
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        ratio = e1 / e2
        spread = np.sqrt((s1 / e1) ** 2 + (s2 / e2) ** 2)
        low = np.where(valid, ratio * np.exp(-z * spread), np.nan)
        high = np.where(valid, ratio * np.exp(z * spread), np.nan)
    if low.ndim == 0:
        return ConfidenceInterval(float(low), float(high))
    return ConfidenceInterval(low, high)


class Difference(NamedTuple):
    """A difference of proportions ``ours - reference`` with its interval and how it was made.

    ``method`` is ``'newcombe'`` (the reference has a known n: Newcombe's hybrid score
    interval for two independent proportions) or ``'wilson-fixed'`` (the reference is
    a fixed value: the Wilson interval of ours, shifted by it).
    """

    difference: float
    low: float
    high: float
    method: str


def _check_reference(reference, reference_trials) -> int | None:
    """Check a reference proportion and its optional n; return the n as an int or None."""
    if not 0 <= reference <= 1:
        raise ValueError(f"reference ({reference}) must lie in [0, 1]")
    if reference_trials is None:
        return None
    if (isinstance(reference_trials, bool)
            or not isinstance(reference_trials, int | np.integer) or reference_trials < 1):
        raise ValueError(f"reference_trials ({quoted(reference_trials)}) must be a positive "
                         "integer or None")
    return int(reference_trials)


def difference_from_reference(successes, trials, reference, reference_trials=None, *,
                              confidence_level=DEFAULT_CONFIDENCE_LEVEL) -> Difference:
    """Our proportion minus a reference figure (a published one, say), with its interval.

    When the reference came from ``reference_trials`` independent trials, its count
    is taken as ``round(reference * reference_trials)`` and the interval is
    Newcombe's hybrid score interval for two independent proportions
    (`difference_interval`, method 10 of Newcombe 1998). When its n is unknown
    (``reference_trials=None``) it is treated as a fixed value ``r``, without error:
    the interval is the Wilson interval of ours minus ``r``, ``(l - r, u - r)``. The
    ``method`` field of the result says which.

    Parameters
    ----------
    successes, trials : int
        Our count.
    reference : float
        The other proportion, in [0, 1].
    reference_trials : int, optional
        Its number of trials, if known.
    confidence_level : float, optional
        Default 0.95.

    Returns
    -------
    Difference
        ``(difference, low, high, method)``.

    See Also
    --------
    minestats.stats.significance.exact_difference_p_value
        The exact test of the same comparison.
    minestats.stats.intervals.difference_interval
        The interval it uses when the reference n is known.

    References
    ----------
    R. G. Newcombe, "Interval estimation for the difference between independent
    proportions: comparison of eleven methods", Statistics in Medicine 17 (1998),
    873-890.

    Examples
    --------
    Newcombe's example (a), 56/70 against 48/80 = 0.6:

    >>> d = difference_from_reference(56, 70, 0.6, 80)
    >>> round(d.difference, 4), round(d.low, 4), round(d.high, 4), d.method
    (0.2, 0.0524, 0.3339, 'newcombe')
    >>> d = difference_from_reference(56, 70, 0.6)
    >>> round(d.low, 4), round(d.high, 4), d.method
    (0.0918, 0.277, 'wilson-fixed')
    """
    _check_counts(successes, trials)
    reference_trials = _check_reference(reference, reference_trials)
    level = check_confidence_level(confidence_level)
    if reference_trials is None:
        low, high = wilson_interval(successes, trials, confidence_level=level)
        return Difference(successes / trials - reference, float(low - reference),
                          float(high - reference), "wilson-fixed")
    reference_successes = round(reference * reference_trials)
    low, high = difference_interval(successes, trials, reference_successes, reference_trials,
                                    confidence_level=level)
    return Difference(successes / trials - reference_successes / reference_trials, low, high,
                      "newcombe")
