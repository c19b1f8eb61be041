"""Statistics: intervals, z-scores and multiple-comparison corrections for proportions.

Every Monte Carlo proportion carries a Wilson interval: unlike the normal
interval it stays inside [0, 1] and keeps its coverage near p = 0 or 1. A
difference between two proportions measured on the same trials (a paired 2x2
table) carries Newcombe's square-and-add interval for paired data, built from the
two Wilson intervals (`paired_difference_interval`), and McNemar's exact test
(`mcnemar_p_value`); `difference_interval` is the same construction for two
independent samples, to show what the pairing saves. A figure from elsewhere (a
published pass rate, say) is compared by `difference_from_reference` (the difference
with its interval, Newcombe's when the other n is known) and
`exact_difference_p_value` (Fisher's exact test, or an exact binomial test against a
fixed value).

Maps of many proportions (one per click position) have their own tools:
`detectable_deviation` (the smallest error a Holm-corrected test of every cell would
find), `neighbour_correlation` (how alike the z-scores of adjacent cells are) and
`homogeneity_test` (are several cells consistent with one common rate).

A ratio of two independent estimates (a mine frequency against a reference's)
carries the delta-method interval on the log scale (`ratio_interval`; Katz's
interval for two proportions).

Many tests at once are judged by Holm's method (`holm_reject`, `holm_adjust`), and
a p-value is printed with a floor (`format_p_value`, ``P_VALUE_FLOOR``): beyond
about 1e-10 an asymptotic p-value measures the approximation, not the data.

`ProportionResult` is the one base of every result that counts successes out of
``n`` trials (opening simulations, pass rates, no-guess batches, 3BV shares): it
gives them ``proportion``, ``proportion_ci`` (a `ConfidenceInterval`), ``to_frame``
and a short repr. scipy and statsmodels are imported when first needed, so
importing this module is cheap.

Pass-rate curves against mine density (binomial GLMs, the half-pass density) are
the package's other module, `minestats.stats.fits`.
"""

from __future__ import annotations

import dataclasses
import math
from typing import NamedTuple

import numpy as np

from minestats.foundations.result import Result
from minestats.foundations.validation import (
    DEFAULT_ALPHA,
    DEFAULT_CONFIDENCE_LEVEL,
    check_confidence_level,
)

__all__ = ["P_VALUE_FLOOR", "ConfidenceInterval", "Difference", "Homogeneity",
           "ProportionResult", "detectable_deviation", "difference_from_reference",
           "difference_interval", "exact_difference_p_value", "format_p_value", "holm_adjust",
           "holm_reject", "homogeneity_test", "mcnemar_p_value", "neighbour_correlation",
           "paired_difference_interval", "proportion_interval", "ratio_interval",
           "two_sided_p_values", "wilson_interval", "z_scores"]

P_VALUE_FLOOR = 1e-10
"""Smallest p-value `format_p_value` prints; anything below is shown as ``< 1e-10``."""


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
        raise ValueError(f"successes must lie between 0 and trials; got {successes!r}")
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
        Any method of `statsmodels.stats.proportion.proportion_confint`; default
        ``'wilson'``.

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
    from statsmodels.stats.proportion import proportion_confint

    successes, trials = _check_counts(successes, trials)
    level = check_confidence_level(confidence_level)
    low, high = proportion_confint(successes, trials, alpha=1 - level, method=method)
    # The formula's bound at 0 (or n) successes is exactly 0 (or 1); floating point
    # can leave it a rounding error inside, e.g. 0.9999999999999999 for 20000/20000.
    low = np.where(successes == 0, 0.0, low)
    high = np.where(successes == trials, 1.0, high)
    if low.ndim == 0:
        return ConfidenceInterval(float(low), float(high))
    return ConfidenceInterval(low, high)


def wilson_interval(successes, trials, *, confidence_level=DEFAULT_CONFIDENCE_LEVEL):
    """Wilson score interval for a binomial proportion: `proportion_interval`'s default.

    Every Monte Carlo proportion of the library carries this interval; the arguments
    and the returned `ConfidenceInterval` are those of `proportion_interval`.

    See Also
    --------
    minestats.stats.proportion_interval
        The same, by any of statsmodels' methods.
    minestats.stats.difference_interval
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
        raise ValueError(f"table ({shown!r}) must be a 2x2 table of non-negative integer "
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
    minestats.stats.difference_interval
        The same for two independent samples.
    minestats.stats.mcnemar_p_value
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
    minestats.stats.paired_difference_interval
        The same on common trials.
    minestats.stats.difference_from_reference
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
    minestats.stats.difference_interval
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
        raise ValueError(f"reference_trials ({reference_trials!r}) must be a positive integer "
                         "or None")
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
    minestats.stats.exact_difference_p_value
        The exact test of the same comparison.
    minestats.stats.difference_interval
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


def exact_difference_p_value(successes, trials, reference, reference_trials=None) -> float:
    """Two-sided exact p-value that our proportion equals a reference figure.

    With ``reference_trials`` known, the two counts are two independent binomials
    and the test is Fisher's exact test of the 2x2 table (scipy's ``fisher_exact``,
    conditional on the total count; the reference count is
    ``round(reference * reference_trials)``). Boschloo's unconditional test is more
    powerful but maximises over every table, which at n = 200,000 is out of reach;
    Fisher's test keeps its level at any count, which is what a count as small as 2
    needs. Without ``reference_trials`` the reference is a fixed value and the test
    is the exact binomial test of our count against it (scipy's ``binomtest``).

    Parameters
    ----------
    successes, trials : int
        Our count.
    reference : float
        The other proportion, in [0, 1].
    reference_trials : int, optional
        Its number of trials, if known.

    Returns
    -------
    float
        The two-sided p-value.

    See Also
    --------
    minestats.stats.difference_from_reference
        The difference and its interval.

    References
    ----------
    R. A. Fisher, Statistical Methods for Research Workers, 5th ed., Oliver and Boyd
    (1934), section 21.02.

    Examples
    --------
    The Expert single-point pass rate, 230 of 200,000 boards, against the published
    2 of 2,000:

    >>> round(exact_difference_p_value(230, 200_000, 0.001, 2_000), 4)
    1.0
    >>> round(exact_difference_p_value(7, 10, 0.5), 4)
    0.3438
    """
    from scipy import stats as scipy_stats

    _check_counts(successes, trials)
    reference_trials = _check_reference(reference, reference_trials)
    if reference_trials is None:
        return float(scipy_stats.binomtest(int(successes), int(trials), reference).pvalue)
    other = round(reference * reference_trials)
    table = [[int(successes), int(trials - successes)], [other, reference_trials - other]]
    return float(scipy_stats.fisher_exact(table).pvalue)


def detectable_deviation(expected, trials, *, alpha=DEFAULT_ALPHA, tests=1, power=0.8):
    """Smallest deviation from ``expected`` a z-test finds with the given power.

    For a cell whose true proportion is ``p + d`` and which is tested, among
    ``tests`` cells by Holm's method at family-wise level ``alpha``, against ``p``:
    Holm's first step rejects at the Bonferroni level ``alpha / tests``, so a single
    deviating cell is found with probability ``power`` once::

        |d| = (z(1 - alpha / (2 tests)) + z(power)) * sqrt(p (1 - p) / trials)

    with ``z`` the standard normal quantile (the variance under the null, as
    `z_scores` uses). Where ``p`` is 0 or 1 a single contrary trial gives
    ``|z| = inf`` and a rejection, so ``|d|`` is the deviation that shows one with
    probability ``power``: ``1 - (1 - power) ** (1 / trials)``.

    Parameters
    ----------
    expected : float or array_like
        The proportions under the null hypothesis.
    trials : int or array_like
        Trials per cell.
    alpha : float, optional
        Family-wise level, default 0.05.
    tests : int, optional
        Cells in the Holm family, default 1.
    power : float, optional
        Default 0.8.

    Returns
    -------
    float or numpy.ndarray

    See Also
    --------
    minestats.stats.z_scores
        The test whose power it gives.
    minestats.stats.holm_reject
        The step-down method it assumes.

    References
    ----------
    J. Cohen, Statistical Power Analysis for the Behavioral Sciences, 2nd ed., Erlbaum
    (1988), chapter 6.

    S. Holm, "A simple sequentially rejective multiple test procedure", Scandinavian
    Journal of Statistics 6 (1979), 65-70.

    Examples
    --------
    >>> round(float(detectable_deviation(0.5, 10_000)), 4)
    0.014
    >>> round(float(detectable_deviation(0.5, 10_000, tests=480)), 4)
    0.0236
    >>> round(float(detectable_deviation(1.0, 20_000)), 6)
    8e-05
    """
    from scipy import stats as scipy_stats

    if not 0 < alpha < 1 or not 0 < power < 1:
        raise ValueError(f"alpha ({alpha}) and power ({power}) must lie in (0, 1)")
    if tests < 1:
        raise ValueError(f"tests ({tests}) must be at least 1")
    p = np.asarray(expected, dtype=float)
    trials = np.asarray(trials, dtype=float)
    if not np.all((p >= 0) & (p <= 1)):
        raise ValueError(f"expected ({expected!r}) must lie in [0, 1]")
    if not np.all(trials >= 1):
        raise ValueError(f"trials ({trials.min()}) must be at least 1")
    factor = scipy_stats.norm.isf(alpha / (2 * tests)) + scipy_stats.norm.ppf(power)
    normal = factor * np.sqrt(p * (1 - p) / trials)
    degenerate = 1 - (1 - power) ** (1 / trials)
    result = np.where((p == 0) | (p == 1), degenerate, normal)
    return float(result) if result.ndim == 0 else result


def neighbour_correlation(grid, *more) -> float:
    """Pearson correlation between the values of horizontally or vertically adjacent cells.

    Every unordered pair of cells that share a side counts once in each order, so
    the statistic is symmetric: about 0 for independent cells, near 1 for a smooth
    map. Given several maps (``more``), each is first centred on its own mean and
    their pairs are then pooled into one within-map correlation, so maps that differ
    only by a shift (all clicks of one map share its boards, so a map's z-scores can
    move together) do not make independent cells look correlated. Cells that are NaN
    or infinite are left out with their pairs; no varying pair gives NaN.

    Parameters
    ----------
    grid, *more : array_like, two-dimensional
        Maps of values (z-scores, say), of any shapes.

    Returns
    -------
    float

    See Also
    --------
    minestats.stats.z_scores
        The maps it is usually given.

    References
    ----------
    P. A. P. Moran, "Notes on continuous stochastic phenomena", Biometrika 37 (1950),
    17-23.

    Examples
    --------
    Independent values, then a 2x2 moving sum of them (adjacent sums share two of
    their four terms, so the correlation is 1/2):

    >>> noise = np.random.default_rng(0).standard_normal((401, 401))
    >>> abs(neighbour_correlation(noise)) < 0.01
    True
    >>> smooth = noise[:-1, :-1] + noise[1:, :-1] + noise[:-1, 1:] + noise[1:, 1:]
    >>> round(neighbour_correlation(smooth), 2)
    0.5
    >>> round(neighbour_correlation(smooth[:200], smooth[200:]), 2)
    0.5
    >>> round(abs(neighbour_correlation(noise[:200], noise[200:] + 5)), 2)  # a shifted map
    0.0
    """
    firsts, seconds = [], []
    for values in (grid, *more):
        values = np.asarray(values, dtype=float)
        if values.ndim != 2:
            raise ValueError(f"grid must be two-dimensional, not of shape {values.shape}")
        finite = np.isfinite(values)
        if finite.any():
            values = values - values[finite].mean()
        firsts += [values[:, :-1].ravel(), values[:-1, :].ravel()]
        seconds += [values[:, 1:].ravel(), values[1:, :].ravel()]
    first, second = np.concatenate(firsts), np.concatenate(seconds)
    left, right = np.r_[first, second], np.r_[second, first]
    keep = np.isfinite(left) & np.isfinite(right)
    left, right = left[keep], right[keep]
    if left.size < 2 or left.std() == 0:
        return float("nan")
    return float(np.corrcoef(left, right)[0, 1])


class Homogeneity(NamedTuple):
    """Pearson's chi-square test that several proportions are equal."""

    statistic: float
    df: int
    p_value: float


def homogeneity_test(successes, trials) -> Homogeneity:
    """Chi-square test that several binomial proportions share one common value.

    The ``k x 2`` table of successes and failures is tested with Pearson's
    chi-square statistic on ``k - 1`` degrees of freedom (scipy's
    ``chi2_contingency``, without Yates' correction). When every trial succeeded, or
    none did, the proportions agree trivially: statistic 0, p = 1. The normal
    approximation behind the chi-square wants expected counts of about 5 or more.

    Parameters
    ----------
    successes, trials : array_like of int
        One count per proportion, at least two.

    Returns
    -------
    Homogeneity
        ``(statistic, df, p_value)``.

    See Also
    --------
    minestats.stats.holm_adjust
        For the many tests of one family.

    References
    ----------
    A. Agresti, Categorical Data Analysis, 3rd ed., Wiley (2013), section 3.2.

    Examples
    --------
    >>> result = homogeneity_test([20, 30, 25], [50, 50, 50])
    >>> round(result.statistic, 3), result.df, round(result.p_value, 4)
    (4.0, 2, 0.1353)
    >>> homogeneity_test([5, 5], [5, 5])
    Homogeneity(statistic=0.0, df=1, p_value=1.0)
    """
    from scipy.stats import chi2_contingency

    successes, trials = _check_counts(np.atleast_1d(successes), np.atleast_1d(trials))
    if successes.ndim != 1 or successes.size < 2:
        raise ValueError("homogeneity_test needs at least two proportions")
    table = np.column_stack([successes, trials - successes])
    df = successes.size - 1
    if (table.sum(axis=0) == 0).any():
        return Homogeneity(0.0, df, 1.0)
    statistic, p_value, dof, _ = chi2_contingency(table, correction=False)
    return Homogeneity(float(statistic), int(dof), float(p_value))


def mcnemar_p_value(table) -> float:
    """Two-sided p-value of McNemar's exact test that both contenders succeed equally often.

    Only the discordant trials count: under the null hypothesis each is the first
    contender's (``b``) or the second's (``c``) with probability 1/2, so the p-value is
    that of the two-sided binomial test of ``min(b, c)`` out of ``b + c`` (1 when there
    is none), from statsmodels' ``mcnemar(table, exact=True)``.

    Parameters
    ----------
    table : array_like of int, shape (2, 2)
        ``[[a, b], [c, d]]`` as in `paired_difference_interval`.

    See Also
    --------
    minestats.stats.paired_difference_interval
        The interval of the same paired table.

    References
    ----------
    Q. McNemar, "Note on the sampling error of the difference between correlated
    proportions or percentages", Psychometrika 12 (1947), 153-157.

    Examples
    --------
    >>> round(mcnemar_p_value([[59, 6], [16, 80]]), 4)
    0.0525
    >>> mcnemar_p_value([[10, 0], [0, 5]])
    1.0
    """
    from statsmodels.stats.contingency_tables import mcnemar

    a, b, c, d = _check_table(table)
    return float(mcnemar([[a, b], [c, d]], exact=True).pvalue)


def z_scores(successes, trials, expected):
    """Standardised difference between observed and expected proportions.

    ``z = (successes / trials - p) / sqrt(p (1 - p) / trials)``, using the exact ``p``
    (the null hypothesis), not the estimate. Where ``p`` is 0 or 1 the variance is
    zero: z is 0 if the observation matches exactly and +/-inf otherwise.

    See Also
    --------
    minestats.stats.two_sided_p_values
        Their p-values.
    minestats.stats.detectable_deviation
        The deviation they detect.

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

    See Also
    --------
    minestats.stats.z_scores
        Where the z come from.
    minestats.stats.holm_adjust
        The adjustment over a family.

    Examples
    --------
    >>> round(float(two_sided_p_values(1.959964)), 4)
    0.05
    """
    from scipy import stats as scipy_stats

    return 2 * scipy_stats.norm.sf(np.abs(np.asarray(z, dtype=float)))


def _holm(p_values, alpha):
    """Run statsmodels' Holm step-down: (reject, adjusted p), shaped as ``p_values``."""
    from statsmodels.stats.multitest import multipletests

    if not 0 < alpha < 1:
        raise ValueError(f"alpha ({alpha}) must lie strictly between 0 and 1")
    p_values = np.asarray(p_values, dtype=float)
    if p_values.size == 0:
        return np.zeros(p_values.shape, dtype=bool), np.zeros(p_values.shape)
    reject, adjusted = multipletests(p_values.ravel(), alpha=alpha, method="holm")[:2]
    return reject.reshape(p_values.shape), adjusted.reshape(p_values.shape)


def holm_reject(p_values, *, alpha=DEFAULT_ALPHA):
    """Which hypotheses Holm's step-down method rejects at family-wise level ``alpha``.

    Holm's method is valid under any dependence between the tests, such as the
    correlated counts of one all-positions simulation.

    See Also
    --------
    minestats.stats.holm_adjust
        The adjusted p-values themselves.

    References
    ----------
    S. Holm, "A simple sequentially rejective multiple test procedure", Scandinavian
    Journal of Statistics 6 (1979), 65-70.

    Examples
    --------
    >>> holm_reject([0.001, 0.04, 0.3], alpha=0.05).tolist()
    [True, False, False]
    """
    return _holm(p_values, alpha)[0]


def holm_adjust(p_values):
    """Holm-adjusted p-values: reject hypothesis i at family-wise level alpha iff <= alpha.

    With the ``m`` p-values sorted, ``p_(1) <= ... <= p_(m)``, the adjusted value of
    the i-th is ``max_{j <= i} min(1, (m - j + 1) p_(j))`` (statsmodels'
    ``multipletests(method="holm")``), returned in the input's order and shape. The
    family is whatever is passed in: say which when reporting them.

    Parameters
    ----------
    p_values : array_like of float
        The family's p-values, each in [0, 1]; NaN is refused, since it would count
        towards the family's size without being a test.

    Returns
    -------
    numpy.ndarray
        The adjusted p-values.

    See Also
    --------
    minestats.stats.holm_reject
        The verdicts at one level.

    References
    ----------
    S. Holm, "A simple sequentially rejective multiple test procedure", Scandinavian
    Journal of Statistics 6 (1979), 65-70.

    Examples
    --------
    >>> holm_adjust([0.01, 0.04, 0.03]).round(4).tolist()
    [0.03, 0.06, 0.06]
    >>> holm_adjust([0.5, 0.9]).tolist()
    [1.0, 1.0]
    """
    values = np.asarray(p_values, dtype=float)
    if not np.all((values >= 0) & (values <= 1)):
        raise ValueError(f"p_values must lie in [0, 1] (NaN is not a p-value): {p_values!r}")
    return _holm(values, DEFAULT_ALPHA)[1]


def format_p_value(p_value, *, floor=P_VALUE_FLOOR, digits=3) -> str:
    """Format a p-value: ``digits`` significant figures, or ``'< floor'`` below the floor.

    Far-tail p-values of asymptotic tests (``6e-279``) are artefacts of the
    approximation: two valid approximations can differ there by many orders of
    magnitude. Store the number, print ``< 1e-10``. A missing value prints as ``''``.

    Parameters
    ----------
    p_value : float or None
        The p-value; None, NaN and pandas' NA are missing.
    floor : float, optional
        Smallest value printed as a number, default `P_VALUE_FLOOR` (1e-10).
    digits : int, optional
        Significant figures, default 3.

    Returns
    -------
    str

    See Also
    --------
    minestats.stats.holm_adjust
        P-values adjusted over a family, formatted the same way.

    References
    ----------
    R. L. Wasserstein and N. A. Lazar, "The ASA statement on p-values: context, process,
    and purpose", The American Statistician 70 (2016), 129-133.

    Examples
    --------
    >>> format_p_value(6.35e-279), format_p_value(0.0016579), format_p_value(0.854)
    ('< 1e-10', '0.00166', '0.854')
    >>> format_p_value(3.3e-10), format_p_value(float("nan"))
    ('3.3e-10', '')
    """
    import pandas as pd

    if pd.isna(p_value):
        return ""
    if p_value < floor:
        return f"< {floor:.0e}".replace("e-0", "e-")
    return f"{p_value:.{digits}g}"


def _short(value):
    """Return the repr of a field, an array shortened to its shape."""
    if isinstance(value, np.ndarray):
        return f"<array {'x'.join(map(str, value.shape)) or 'scalar'}>"
    return repr(value)


class ProportionResult(Result):
    """Base of the results that count ``successes`` out of ``n`` trials.

    A subclass is a frozen dataclass (``eq=False``: equality and hashing are those of
    `minestats.foundations.result.Result`) with fields (or properties) ``successes`` and
    ``n``; this base adds the proportion, its interval, a table row (``to_dict``,
    which a subclass extends with its inputs), ``to_frame`` and a short repr (arrays
    show their shape only). ``successes`` may be an array (one count per click position,
    say), and then so are the proportion and the interval bounds.

    Examples
    --------
    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True, repr=False, eq=False)
    ... class Coin(ProportionResult):
    ...     successes: int
    ...     n: int
    >>> coin = Coin(successes=1274, n=2000)
    >>> coin
    Coin(successes=1274, n=2000)
    >>> coin.proportion, [round(v, 4) for v in coin.proportion_ci()]
    (0.637, [0.6157, 0.6578])
    >>> coin.to_frame().columns.tolist()
    ['successes', 'n', 'proportion', 'ci_low', 'ci_high', 'confidence_level']
    """

    __slots__ = ()

    @property
    def trials(self):
        """Trials drawn, the denominator of the proportion (the same as ``n``)."""
        return self.n

    @property
    def proportion(self):
        """Share of trials that succeeded, ``successes / n``."""
        return self.successes / self.n

    def proportion_ci(self, confidence_level=DEFAULT_CONFIDENCE_LEVEL,
                      method="wilson") -> ConfidenceInterval:
        """Confidence interval of the proportion (`proportion_interval`), Wilson by default."""
        return proportion_interval(self.successes, self.n, confidence_level=confidence_level,
                                   method=method)

    def to_dict(self, *, confidence_level=DEFAULT_CONFIDENCE_LEVEL) -> dict:
        """Return the counting columns of a table row.

        ``successes``, ``n``, ``proportion``, ``ci_low``, ``ci_high`` (Wilson) and
        ``confidence_level``. The results of the library write their inputs too, and
        name the proportion after what it estimates (``mc``, ``pass_rate``,
        ``success_rate``, ``share``), the columns of their committed result files.
        """
        low, high = self.proportion_ci(confidence_level)
        return {"successes": self.successes, "n": self.n, "proportion": self.proportion,
                "ci_low": low, "ci_high": high, "confidence_level": confidence_level}

    def to_frame(self, *, confidence_level=DEFAULT_CONFIDENCE_LEVEL):
        """Return the result as a one-row `pandas.DataFrame` (`to_dict`)."""
        import pandas as pd

        return pd.DataFrame([self.to_dict(confidence_level=confidence_level)])

    def __repr__(self) -> str:
        shown = ", ".join(f"{field.name}={_short(getattr(self, field.name))}"
                          for field in dataclasses.fields(self) if field.repr)
        return f"{type(self).__name__}({shown})"
