"""Significance tests: exact comparisons, homogeneity, McNemar, z-scores.

`exact_difference_p_value` compares our proportion with a figure from elsewhere
(Fisher's exact test, or an exact binomial test against a fixed value), and
`compare_to_published` gives the whole comparison a table of "ours against
published" prints: the difference, its interval, its z and that exact test;
`homogeneity_test` asks whether several proportions share one rate;
`mcnemar_p_value` is the exact test of a paired 2x2 table; `z_scores` and
`two_sided_p_values` judge many proportions against their expected values at once.
Samples of whole layouts (one 0/1 row of cells per board) are judged by
`fixed_total_chi_square`, against a known uniform placement, and by
`permutation_test`, against another sample.
scipy is imported when first needed.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from minestats.foundations.deprecation import deprecated_names
from minestats.foundations.validation import DEFAULT_CONFIDENCE_LEVEL, check_count, quoted
from minestats.stats.intervals import (
    _check_counts,
    _check_reference,
    _check_table,
    difference_from_reference,
)

__all__ = ["ChiSquareTest", "PermutationTest", "PublishedComparison",
           "compare_to_published", "exact_difference_p_value",
           "fixed_total_chi_square", "homogeneity_test", "mcnemar_p_value", "permutation_test",
           "two_sided_p_values", "z_scores"]


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
    minestats.stats.intervals.difference_from_reference
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


class PublishedComparison(NamedTuple):
    """Our proportion against a published one (`compare_to_published`).

    ``difference`` is ours minus the published proportion; ``low`` and ``high`` its
    interval, made by ``method`` (`minestats.stats.intervals.Difference`); ``z`` the
    difference in standard errors (both proportions' binomial errors, unpooled); and
    ``p_value`` the two-sided exact ``test``, ``'fisher'`` when the published n is
    known, else ``'binomial'``.
    """

    difference: float
    low: float
    high: float
    method: str
    z: float
    p_value: float
    test: str


def compare_to_published(successes, trials, published, published_trials=None, *,
                         confidence_level=DEFAULT_CONFIDENCE_LEVEL) -> PublishedComparison:
    """Compare our proportion with a published figure: difference, interval, z, exact test.

    The one comparison of every "ours against published" table. The interval is
    `minestats.stats.intervals.difference_from_reference` (Newcombe's hybrid score
    interval when the published n is known, else the Wilson interval of ours shifted
    by the figure) and the test `exact_difference_p_value` (Fisher's exact test, or
    the exact binomial test against a fixed figure): exact at any count, and fast at
    the 10^8 games of the largest published runs. ``z`` reports the size of the
    difference in standard errors, ``d / sqrt(p1 (1 - p1) / n1 + p2 (1 - p2) / n2)``
    with the published figure as printed (the second term left out without its n);
    it is not the test.

    Parameters
    ----------
    successes, trials : int
        Our count.
    published : float
        The published proportion, in [0, 1].
    published_trials : int, optional
        Its number of trials, if known; its count is ``round(published *
        published_trials)``.
    confidence_level : float, optional
        Of the interval (default 0.95).

    Returns
    -------
    PublishedComparison
        ``(difference, low, high, method, z, p_value, test)``.

    See Also
    --------
    minestats.stats.intervals.difference_from_reference : the difference and its interval.
    exact_difference_p_value : the exact test.

    References
    ----------
    R. A. Fisher, Statistical Methods for Research Workers, 5th ed., Oliver and Boyd
    (1934), section 21.02.
    R. G. Newcombe, "Interval estimation for the difference between independent
    proportions: comparison of eleven methods", Statistics in Medicine 17 (1998),
    873-890.

    Examples
    --------
    ``best`` on Expert from the safe corner, 409,271 wins in 10^6 games (seed
    42/10/25), against Hill's 41.13 % of 10^7 games:

    >>> row = compare_to_published(409_271, 1_000_000, 0.4113, 10_000_000)
    >>> round(row.difference, 5), round(row.low, 5), round(row.high, 5), row.test
    (-0.00203, -0.00304, -0.00102, 'fisher')
    >>> round(row.z, 2), f"{row.p_value:.1e}"
    (-3.93, '8.4e-05')
    """
    difference = difference_from_reference(successes, trials, published, published_trials,
                                           confidence_level=confidence_level)
    ours = successes / trials
    variance = ours * (1 - ours) / trials
    if published_trials is not None:
        variance += published * (1 - published) / published_trials
    if variance > 0:
        z = difference.difference / float(np.sqrt(variance))
    else:
        z = 0.0 if difference.difference == 0 else float(np.copysign(np.inf,
                                                                   difference.difference))
    p_value = exact_difference_p_value(successes, trials, published, published_trials)
    return PublishedComparison(*difference, z=z, p_value=p_value,
                               test="binomial" if published_trials is None else "fisher")


class ChiSquareTest(NamedTuple):
    """A chi-square statistic, its degrees of freedom and its upper-tail p-value.

    What `homogeneity_test` and `fixed_total_chi_square` return (``Homogeneity``, the
    first's own class before 0.3, is a deprecated name of this one).
    """

    statistic: float
    df: int
    p_value: float


def homogeneity_test(successes, trials) -> ChiSquareTest:
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
    ChiSquareTest
        ``(statistic, df, p_value)``.

    See Also
    --------
    minestats.stats.multiple.holm_adjust
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
    ChiSquareTest(statistic=0.0, df=1, p_value=1.0)
    """
    from scipy.stats import chi2_contingency

    successes, trials = _check_counts(np.atleast_1d(successes), np.atleast_1d(trials))
    if successes.ndim != 1 or successes.size < 2:
        raise ValueError("homogeneity_test needs at least two proportions")
    table = np.column_stack([successes, trials - successes])
    df = successes.size - 1
    if (table.sum(axis=0) == 0).any():
        return ChiSquareTest(0.0, df, 1.0)
    statistic, p_value, dof, _ = chi2_contingency(table, correction=False)
    return ChiSquareTest(float(statistic), int(dof), float(p_value))


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
    minestats.stats.intervals.paired_difference_interval
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
    minestats.stats.significance.two_sided_p_values
        Their p-values.
    minestats.stats.maps.detectable_deviation
        The deviation they detect.

    References
    ----------
    A. Agresti, Categorical Data Analysis, 3rd ed., Wiley (2013), chapter 1 (the
    score statistic of a binomial proportion: its standard error under the null).

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
        raise ValueError(f"expected proportions must lie in [0, 1]; got {quoted(expected)}")
    difference = successes / trials - expected
    spread = np.sqrt(expected * (1 - expected) / trials)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(spread > 0, difference / spread, np.sign(difference) * np.inf)
    return np.where((spread == 0) & (difference == 0), 0.0, z)


def two_sided_p_values(z):
    """Two-sided normal p-values of z-scores.

    See Also
    --------
    minestats.stats.significance.z_scores
        Where the z come from.
    minestats.stats.multiple.holm_adjust
        The adjustment over a family.

    References
    ----------
    A. Agresti, Categorical Data Analysis, 3rd ed., Wiley (2013), chapter 1: twice the
    upper tail of the standard normal beyond ``|z|``.

    Examples
    --------
    >>> round(float(two_sided_p_values(1.959964)), 4)
    0.05
    """
    from scipy.special import ndtr  # scipy.stats.norm.sf(x) is ndtr(-x), to the bit

    return 2 * ndtr(-np.abs(np.asarray(z, dtype=float)))


def fixed_total_chi_square(counts, trials, mines) -> ChiSquareTest:
    """Chi-square test that layouts place a fixed number of mines uniformly on their cells.

    Each of ``trials`` layouts puts ``mines`` mines on ``K`` cells, every set of cells
    equally likely under the null; ``counts`` holds each cell's total over the layouts.
    With ``p = mines / K``, Pearson's sum ``X = sum_k (c_k - n p)^2 / (n p (1 - p))``
    is not chi-square on ``K - 1`` df as it stands: one layout's indicators are drawn
    without replacement, exchangeable with covariance ``p (1 - p) K / (K - 1) (I - J / K)``,
    so by the central limit theorem over layouts ``X (K - 1) / K`` is. The statistic
    returned is the rescaled one.

    Parameters
    ----------
    counts : array_like of int
        Mines seen in each of the ``K`` cells, summed over the layouts.
    trials : int
        Number of layouts, at least 1.
    mines : int
        Mines in each layout, from 1 to ``K - 1``.

    Returns
    -------
    ChiSquareTest
        The rescaled statistic, ``K - 1`` and the upper-tail chi-square p-value.

    See Also
    --------
    minestats.stats.significance.permutation_test
        Two samples of layouts, whatever their distribution.
    minestats.stats.significance.z_scores
        The cells one by one.

    References
    ----------
    K. Pearson, "On the criterion that a given system of deviations from the probable
    in the case of a correlated system of variables is such that it can be reasonably
    supposed to have arisen from random sampling", Philosophical Magazine 50 (1900),
    157-175.

    Examples
    --------
    Every 2-of-4 layout once: the totals are exactly as expected.

    >>> fixed_total_chi_square([3, 3, 3, 3], 6, 2)
    ChiSquareTest(statistic=0.0, df=3, p_value=1.0)

    Ten layouts that favour the first cell: X = (16 + 16) / 2.5 = 12.8, rescaled 9.6.

    >>> test = fixed_total_chi_square([9, 1, 5, 5], 10, 2)
    >>> round(test.statistic, 4), round(test.p_value, 4)
    (9.6, 0.0223)
    """
    from scipy.stats import chi2

    counts = np.asarray(counts, dtype=float)
    cells = counts.size
    if trials < 1 or not 0 < mines < cells:
        raise ValueError(f"trials ({trials}) must be at least 1 and mines ({mines}) between 1 "
                         f"and {cells - 1}, one less than the cells")
    p = mines / cells
    statistic = float(((counts - trials * p) ** 2).sum() / (trials * p * (1 - p)))
    scaled = statistic * (cells - 1) / cells
    return ChiSquareTest(scaled, cells - 1, float(chi2.sf(scaled, cells - 1)))


class PermutationTest(NamedTuple):
    """A permutation test's statistic and p-value, and the per-cell z it is built from."""

    statistic: float
    p_value: float
    permutations: int
    z: np.ndarray


def _two_sample_z(first_counts, n1, total_counts, n2, spread):
    """Two-sample per-cell z for counts of the first sample; rows are permutations."""
    difference = first_counts / n1 - (total_counts - first_counts) / n2
    return np.divide(difference, spread, out=np.zeros_like(difference), where=spread > 0)


PERMUTATION_BLOCK = 100
"""Relabellings drawn and scored together by `permutation_test`."""


def permutation_test(sample, reference, permutations, rng) -> PermutationTest:
    """Permutation test that two samples of 0/1 rows have one distribution.

    The statistic is the sum over cells of the squared two-sample z,
    ``T = sum_k (f1_k - f2_k)^2 / (p_k (1 - p_k) (1 / n1 + 1 / n2))`` with ``p_k`` the
    pooled frequency of cell ``k``. Its null distribution comes from ``permutations``
    random relabellings of the pooled rows, and ``p = (1 + #{T_b >= T}) / (B + 1)``.
    Rows are independent and identically distributed within each sample, so under
    the null they are exchangeable and the test is exact whatever the dependence
    between the cells of one row.

    Parameters
    ----------
    sample, reference : array_like, shape (n1, ...) and (n2, ...)
        One row per trial (a layout, say), cells flattened; 0 or 1.
    permutations : int
        Relabellings, ``B``; the p-value's resolution is ``1 / (B + 1)``.
    rng : numpy.random.Generator
        Draws the relabellings.

    Returns
    -------
    PermutationTest
        ``statistic`` (T), ``p_value``, ``permutations`` and ``z``, the observed
        per-cell two-sample z (0 where a cell never or always holds a mine).

    See Also
    --------
    minestats.stats.significance.fixed_total_chi_square
        One sample against a known uniform placement.

    References
    ----------
    B. V. North, D. Curtis and P. C. Sham, "A note on the calculation of empirical P
    values from Monte Carlo procedures", American Journal of Human Genetics 71 (2002),
    439-441.

    Examples
    --------
    >>> rng = np.random.default_rng(1)
    >>> sample = np.array([[1, 0], [1, 0], [1, 0]])
    >>> reference = np.array([[0, 1], [0, 1], [0, 1]])
    >>> test = permutation_test(sample, reference, 99, rng)
    >>> round(test.statistic, 3), test.p_value < 0.1
    (12.0, True)
    """
    permutations = check_count("permutations", permutations)
    sample, reference = np.asarray(sample), np.asarray(reference)
    n1, n2 = len(sample), len(reference)
    if not n1 or not n2:
        raise ValueError(f"both samples need a row; got {n1} and {n2}")
    pooled = np.concatenate([sample, reference]).reshape(n1 + n2, -1).astype(np.float32)
    total = pooled.sum(axis=0)
    share = total / (n1 + n2)
    spread = np.sqrt(share * (1 - share) * (1 / n1 + 1 / n2))
    z = _two_sample_z(pooled[:n1].sum(axis=0), n1, total, n2, spread)
    observed = float((z ** 2).sum())
    exceed = 0
    for start in range(0, permutations, PERMUTATION_BLOCK):
        choice = np.zeros((min(PERMUTATION_BLOCK, permutations - start), n1 + n2),
                          dtype=np.float32)
        for row in choice:
            row[rng.permutation(n1 + n2)[:n1]] = 1
        exceed += int(((_two_sample_z(choice @ pooled, n1, total, n2, spread) ** 2)
                       .sum(axis=1) >= observed).sum())
    return PermutationTest(observed, (1 + exceed) / (1 + permutations), permutations, z)


__getattr__ = deprecated_names(__name__, {
    "Homogeneity": (ChiSquareTest, "minestats.stats.ChiSquareTest")}, removed_in="0.4")
