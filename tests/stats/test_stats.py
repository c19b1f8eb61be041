import math
import re
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np
import pandas as pd
import pytest
from scipy.stats import binomtest
from scipy.stats import t as student_t
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import confint_proportions_2indep, proportion_confint

from minestats.foundations.board import Board
from minestats.stats import (
    ConfidenceInterval,
    ProportionResult,
    bonferroni_level,
    click_class,
    click_orbit,
    compare_to_published,
    detectable_deviation,
    difference_from_reference,
    difference_interval,
    effect_spread,
    exact_difference_p_value,
    fixed_total_chi_square,
    format_p_value,
    holm_adjust,
    holm_reject,
    homogeneity_test,
    mcnemar_p_value,
    mean_interval,
    neighbour_correlation,
    paired_difference_interval,
    permutation_test,
    pool_by_click_class,
    pool_by_orbit,
    proportion_interval,
    ratio_interval,
    simultaneous_intervals,
    two_sided_p_values,
    wilson_interval,
    z_scores,
)


def wilson_by_formula(successes, trials, z=1.959963984540054):
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (
        1 + z * z / trials)
    return centre - half, centre + half


@pytest.mark.parametrize(("successes", "trials"), [(0, 10), (2, 2000), (1274, 2000), (7, 7)])
def test_wilson_matches_the_formula(successes, trials):
    low, high = wilson_interval(successes, trials)
    expected_low, expected_high = wilson_by_formula(successes, trials)
    assert low == pytest.approx(max(expected_low, 0), abs=1e-12)
    assert high == pytest.approx(min(expected_high, 1), abs=1e-12)


def test_wilson_ends_exactly_at_zero_and_one():
    assert wilson_interval(20_000, 20_000)[1] == 1.0
    assert wilson_interval(0, 20_000)[0] == 0.0
    low, high = wilson_interval(np.array([0, 7, 9]), 9)
    assert low[0] == 0.0 and high[2] == 1.0 and 0 < low[1] < high[1] < 1


def test_wilson_is_vectorised_and_validates():
    low, high = wilson_interval(np.array([1, 5]), np.array([10, 10]), confidence_level=0.99)
    assert low.shape == (2,) and (low < high).all()
    with pytest.raises(ValueError, match=r"confidence_level \(1.5\)"):
        wilson_interval(1, 10, confidence_level=1.5)
    with pytest.raises(ValueError, match=r"trials \(0\) must be at least 1"):
        wilson_interval(0, 0)
    with pytest.raises(ValueError, match="successes must lie between 0 and trials"):
        wilson_interval(11, 10)


def test_z_scores_and_p_values():
    assert z_scores(30, 100, 0.25) == pytest.approx(0.05 / math.sqrt(0.25 * 0.75 / 100))
    assert z_scores(0, 50, 0.0) == 0.0
    assert z_scores(1, 50, 0.0) == np.inf
    assert two_sided_p_values(0.0) == 1.0
    assert two_sided_p_values(-1.6448536269514722) == pytest.approx(0.1)
    with pytest.raises(ValueError, match="expected proportions must lie in"):
        z_scores(1, 2, 1.5)


def test_holm_steps_down():
    # Sorted p = 0.01, 0.02, 0.03 against 0.05/3, 0.05/2, 0.05/1: all rejected.
    assert holm_reject([0.03, 0.01, 0.02]).tolist() == [True, True, True]
    # 0.01 < 0.05/3 but 0.04 > 0.05/2: Holm stops at the second.
    assert holm_reject([0.01, 0.04, 0.045]).tolist() == [True, False, False]
    assert holm_reject([]).size == 0
    with pytest.raises(ValueError, match=r"alpha \(0\)"):
        holm_reject([0.5], alpha=0)


def test_holm_adjusted_p_values_by_hand():
    # Sorted 0.002, 0.01, 0.03, 0.04 times 4, 3, 2, 1: 0.008, 0.03, 0.06, 0.04, then the
    # running maximum makes the last 0.06; returned in the input's order.
    p = [0.04, 0.002, 0.03, 0.01]
    assert holm_adjust(p) == pytest.approx([0.06, 0.008, 0.06, 0.03])
    # The referee's example: a family of six p-values (the presets' permutation tests as
    # first reported), where the smallest, 0.017, becomes 6 x 0.017 = 0.102. (The bias
    # table now adjusts over all its omnibus tests, a larger family.)
    six = [0.709, 0.854, 0.658, 0.263, 0.534, 0.017]
    assert holm_adjust(six)[5] == pytest.approx(0.102)
    assert holm_adjust([0.9, 0.8]).tolist() == [1.0, 1.0]  # capped at 1
    rng = np.random.default_rng(3)
    many = rng.uniform(0, 0.1, size=(4, 5))
    adjusted = holm_adjust(many)
    assert adjusted.shape == (4, 5)
    assert np.allclose(adjusted.ravel(), multipletests(many.ravel(), method="holm")[1])
    # Rejection at alpha is exactly adjusted p <= alpha.
    assert (holm_reject(many, alpha=0.2) == (adjusted <= 0.2)).all()
    assert holm_adjust([]).size == 0


def test_p_values_print_with_a_floor():
    assert format_p_value(6.35098561567931e-279) == "< 1e-10"
    assert format_p_value(0.0) == "< 1e-10"
    assert format_p_value(1e-10) == "1e-10"
    assert format_p_value(8.688683256214382e-08) == "8.69e-08"
    assert format_p_value(0.854) == "0.854"
    assert format_p_value(1e-5, floor=1e-3) == "< 1e-3"
    assert format_p_value(None) == format_p_value(np.nan) == ""


def test_ratio_interval_is_katz_for_two_proportions():
    for x1, n1, x2, n2 in [(56, 70, 48, 80), (5, 200, 17, 150), (900, 1000, 450, 500)]:
        p1, p2 = x1 / n1, x2 / n2
        low, high = ratio_interval(p1, math.sqrt(p1 * (1 - p1) / n1),
                                   p2, math.sqrt(p2 * (1 - p2) / n2), confidence_level=0.9)
        # Katz by hand, and statsmodels' log interval for the ratio
        spread = NormalDist().inv_cdf(0.95) * math.sqrt(1 / x1 - 1 / n1 + 1 / x2 - 1 / n2)
        assert (low, high) == pytest.approx((p1 / p2 * math.exp(-spread),
                                             p1 / p2 * math.exp(spread)))
        expected = confint_proportions_2indep(x1, n1, x2, n2, compare="ratio", method="log",
                                              alpha=0.1)
        assert (low, high) == pytest.approx(expected)


def test_ratio_interval_edges_and_arrays():
    low, high = ratio_interval([0.4, 0.0, 0.3], [0.02, 0.01, np.nan], 0.2)
    assert np.isnan(low[1:]).all() and np.isnan(high[1:]).all()
    assert low[0] == pytest.approx(2 * math.exp(-1.959963984540054 * 0.05))
    assert ratio_interval(0.3, 0.0, 0.3) == (1.0, 1.0)
    with pytest.raises(ValueError, match="non-negative"):
        ratio_interval(0.3, -0.1, 0.3)


def test_ratio_interval_covers_the_true_ratio():
    # Means of 200 Bernoulli-share observations against a reference sample of 300: the
    # 95% interval of the ratio of means covers the true ratio 1.15 in about 95% of
    # 2,000 simulated pairs (binomial sd of the coverage 0.5%).
    rng = np.random.default_rng(11)
    truth_reference, ratio = 0.36, 1.15
    first = rng.binomial(16, truth_reference * ratio, size=(2000, 200)) / 16
    second = rng.binomial(16, truth_reference, size=(2000, 300)) / 16
    low, high = ratio_interval(first.mean(axis=1), first.std(axis=1, ddof=1) / math.sqrt(200),
                               second.mean(axis=1),
                               second.std(axis=1, ddof=1) / math.sqrt(300))
    coverage = ((low <= ratio) & (ratio <= high)).mean()
    assert 0.93 <= coverage <= 0.97


@pytest.mark.parametrize("level", [0.9, 0.95, 0.99])
def test_mean_interval_is_students_t_interval(level):
    values = np.random.default_rng(3).normal(0.2, 0.05, size=37)
    found = mean_interval(values, confidence_level=level)
    standard_error = values.std(ddof=1) / math.sqrt(values.size)
    low, high = student_t.interval(level, values.size - 1, loc=values.mean(),
                                   scale=standard_error)
    assert found.mean == pytest.approx(values.mean(), abs=1e-15)
    assert found.standard_error == pytest.approx(standard_error, rel=1e-14)
    assert (found.low, found.high) == pytest.approx((low, high), rel=1e-13)


def test_mean_interval_edges():
    assert all(math.isnan(value) for value in mean_interval([]))
    one = mean_interval([0.25])
    assert one.mean == 0.25 and math.isnan(one.standard_error) and math.isnan(one.low)
    with pytest.raises(ValueError, match=r"one-dimensional, not of shape \[2, 2\]"):
        mean_interval(np.zeros((2, 2)))
    with pytest.raises(ValueError, match="confidence_level"):
        mean_interval([1.0, 2.0], confidence_level=1.5)


def test_mean_interval_covers_the_mean():
    # 2,000 samples of 30 skewed shares (binomial 4 of 16): the 95% t interval covers
    # the true mean 0.25 in about 95% of them (binomial sd of the coverage 0.5%).
    rng = np.random.default_rng(12)
    samples = rng.binomial(16, 0.25, size=(2000, 30)) / 16
    covered = [found.low <= 0.25 <= found.high
               for found in map(mean_interval, samples)]
    assert 0.93 <= np.mean(covered) <= 0.97


def test_effect_spread_finds_the_true_spread_beneath_the_noise():
    # 20,000 true effects of sd 0.3, each estimated with noise of its own known sd (0.1
    # to 0.4): the true sd comes back within a few thousandths, the noise sd exactly.
    rng = np.random.default_rng(13)
    truth = rng.normal(0.5, 0.3, size=20_000)
    noise_sd = rng.uniform(0.1, 0.4, size=truth.size)
    found = effect_spread(truth + rng.normal(0, noise_sd), noise_sd**2)
    assert found.true_sd == pytest.approx(0.3, abs=0.01)
    assert found.noise_sd == pytest.approx(math.sqrt(np.mean(noise_sd**2)), rel=1e-12)
    assert found.mean == pytest.approx(0.5, abs=0.01)
    assert found.observed_sd**2 == pytest.approx(found.true_sd**2 + found.noise_sd**2)


def test_effect_spread_edges():
    assert effect_spread([0.2, 0.2], [0.1, 0.1]).true_sd == 0.0  # all noise: floored at 0
    one = effect_spread([0.2], [0.01])
    assert one.mean == 0.2 and one.noise_sd == pytest.approx(0.1) and math.isnan(one.true_sd)
    assert all(math.isnan(value) for value in effect_spread([], []))
    with pytest.raises(ValueError, match=r"shapes \[2\] and \[3\]"):
        effect_spread([1.0, 2.0], [0.1, 0.1, 0.1])
    with pytest.raises(ValueError, match="non-negative"):
        effect_spread([1.0, 2.0], [0.1, -0.1])


def test_simultaneous_intervals_are_wilsons_at_the_bonferroni_level():
    rows = pd.DataFrame({"family": ["a"] * 4 + ["b"] * 2, "successes": [3, 5, 8, 1, 40, 44],
                         "n": [10, 10, 10, 10, 50, 50]})
    out = simultaneous_intervals(rows, ["family"], confidence_level=0.9)
    for row in out.itertuples():
        tests = 4 if row.family == "a" else 2
        low, high = proportion_confint(row.successes, row.n, alpha=0.1 / tests,
                                       method="wilson")
        assert row.simultaneous_level == pytest.approx(1 - 0.1 / tests)
        assert (row.simultaneous_ci_low, row.simultaneous_ci_high) == pytest.approx(
            (low, high), abs=1e-12)
    assert "simultaneous_ci_low" not in rows  # a copy, the caller's frame untouched
    whole = simultaneous_intervals(rows)
    assert (whole["simultaneous_level"] == bonferroni_level(0.95, 6)).all()


@dataclass(frozen=True, repr=False)
class Counted(ProportionResult):
    successes: object
    n: int
    label: str = "x"


@pytest.mark.parametrize("method", ["wilson", "beta", "agresti_coull", "normal"])
def test_result_intervals_are_statsmodels_intervals(method):
    result = Counted(successes=37, n=120)
    interval = result.proportion_ci(0.9, method=method)
    expected = proportion_confint(37, 120, alpha=0.1, method=method)
    assert isinstance(interval, ConfidenceInterval)
    assert (interval.low, interval.high) == pytest.approx(expected, abs=1e-15)
    assert result.proportion == 37 / 120 and result.trials == 120


def test_intervals_end_exactly_at_zero_and_one():
    # statsmodels leaves a rounding error at 20000/20000; the result ends at 1 exactly
    assert proportion_confint(20_000, 20_000, method="wilson")[1] < 1.0
    assert proportion_interval(20_000, 20_000).high == 1.0
    assert proportion_interval(0, 5, method="agresti_coull").low == 0.0


def test_result_rows_frames_and_reprs_are_short():
    result = Counted(successes=np.array([3, 4]), n=10)
    assert repr(result) == ("Counted 2 estimates from 0.300 to 0.400 n=10 "
                            "(successes=<array 2>, label='x')")
    row = Counted(successes=3, n=10).to_dict(confidence_level=0.9)
    low, high = proportion_confint(3, 10, alpha=0.1, method="wilson")
    assert row == pytest.approx({"successes": 3, "n": 10, "proportion": 0.3, "ci_low": low,
                                 "ci_high": high, "confidence_level": 0.9})
    assert Counted(successes=3, n=10).to_frame().shape == (1, 6)
    low, high = result.proportion_ci()
    assert low.shape == high.shape == (2,)


def newcombe_paired_by_formula(a, b, c, d, level=0.95):
    """Newcombe (1998) paired method 10, written from the paper with plain floats."""
    z = NormalDist().inv_cdf((1 + level) / 2)
    n = a + b + c + d
    p1, p2 = (a + b) / n, (a + c) / n
    l1, u1 = (min(max(v, 0), 1) for v in wilson_by_formula(a + b, n, z))
    l2, u2 = (min(max(v, 0), 1) for v in wilson_by_formula(a + c, n, z))
    if 0 in (a + b, c + d, a + c, b + d):
        phi = 0.0
    else:
        cross = a * d - b * c
        corrected = cross - n / 2 if cross > n / 2 else (0 if cross >= 0 else cross)
        phi = corrected / math.sqrt((a + b) * (c + d) * (a + c) * (b + d))
    delta = math.sqrt(max(0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2)
                          + (u2 - p2) ** 2))
    epsilon = math.sqrt(max(0, (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2)
                            + (p2 - l2) ** 2))
    return (b - c) / n - delta, (b - c) / n + epsilon


HAND_MADE = [[59, 6], [16, 80]], [[1, 1], [7, 12]], [[10, 0], [0, 5]], [[0, 3], [0, 0]], \
    [[0, 0], [0, 4]], [[5, 0], [9, 1]], [[40, 1], [1, 40]], [[3, 10], [12, 2]], \
    [[1200, 35], [610, 155]], [[2, 1], [1, 2]]


@pytest.mark.parametrize("table", HAND_MADE)
@pytest.mark.parametrize("level", [0.95, 0.99])
def test_paired_interval_is_newcombes_method_10(table, level):
    expected = newcombe_paired_by_formula(*table[0], *table[1], level)
    assert paired_difference_interval(table, confidence_level=level) == pytest.approx(
        expected, abs=1e-12)


def test_paired_interval_on_random_tables():
    rng = np.random.default_rng(20261201)
    for _ in range(300):
        table = rng.multinomial(int(rng.integers(1, 400)), rng.dirichlet([0.5] * 4))
        low, high = paired_difference_interval(table.reshape(2, 2))
        expected = newcombe_paired_by_formula(*table.tolist())
        assert (low, high) == pytest.approx(expected, abs=1e-12)
        (a, b), (c, d) = table.reshape(2, 2)
        n = table.sum()
        assert -1 <= low <= (b - c) / n <= high <= 1 and low < high


def test_paired_interval_published_values():
    # Fagerland, Lydersen and Laake's R package contingencytables, Cavo et al. (2012).
    low, high = paired_difference_interval([[59, 6], [16, 80]])
    assert (round(low, 4), round(high, 4)) == (-0.1186, -0.0046)
    # Newcombe (1998), independent samples, example (a): 56/70 against 48/80.
    low, high = difference_interval(56, 70, 48, 80)
    assert (round(low, 4), round(high, 4)) == (0.0524, 0.3339)


@pytest.mark.parametrize("table", [[[5, 5], [5, 5]], [[3, 4], [5, 7]], [[7, 0], [0, 0]],
                                   [[0, 3], [0, 6]]])
def test_uncorrelated_paired_interval_is_the_independent_one(table):
    # ad - bc between 0 and n/2 (or a zero margin): phi = 0, square-and-add of two
    # independent Wilson intervals, which is statsmodels' "newcomb" interval.
    (a, b), (c, d) = table
    n = a + b + c + d
    assert 0 in (a + b, c + d, a + c, b + d) or 0 <= a * d - b * c <= n / 2
    expected = confint_proportions_2indep(a + b, n, a + c, n, method="newcomb")
    assert paired_difference_interval(table) == pytest.approx(expected, abs=1e-12)
    assert difference_interval(a + b, n, a + c, n) == pytest.approx(expected, abs=1e-15)


def test_positive_correlation_narrows_the_paired_interval():
    # Two solvers on 2,000 boards: the second solves all the first does and 300 more.
    paired = paired_difference_interval([[1200, 0], [300, 500]])
    unpaired = difference_interval(1200, 2000, 1500, 2000)
    assert paired.high - paired.low < 0.7 * (unpaired.high - unpaired.low)
    # Negatively correlated outcomes widen it instead.
    paired = paired_difference_interval([[100, 900], [900, 100]])
    unpaired = difference_interval(1000, 2000, 1000, 2000)
    assert paired.high - paired.low > unpaired.high - unpaired.low


@pytest.mark.parametrize("table", HAND_MADE)
def test_mcnemar_exact_p_value(table):
    assert mcnemar_p_value(table) == mcnemar(table, exact=True).pvalue
    b, c = table[0][1], table[1][0]
    expected = binomtest(b, b + c, 0.5).pvalue if b + c else 1.0
    assert mcnemar_p_value(table) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("table", [[[1, 2], [3]], [[1, 2], [3, -4]], [[0, 0], [0, 0]],
                                   [[1.5, 2], [3, 4]], [[True, 2], [3, 4]], 5,
                                   [[1, 2, 3], [4, 5, 6]]])
def test_bad_tables_are_one_line_value_errors(table):
    for function in (paired_difference_interval, mcnemar_p_value):
        with pytest.raises(ValueError, match=r"must be a 2x2 table") as error:
            function(table)
        assert "\n" not in str(error.value)


def newcombe_by_hand(x1, n1, x2, n2):
    """Newcombe (1998) method 10 from the Wilson bounds, as his paper writes it."""
    p1, p2 = x1 / n1, x2 / n2
    l1, u1 = wilson_by_formula(x1, n1)
    l2, u2 = wilson_by_formula(x2, n2)
    l1, l2, u1, u2 = max(l1, 0), max(l2, 0), min(u1, 1), min(u2, 1)
    d = p1 - p2
    return (d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2),
            d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2))


@pytest.mark.parametrize(("ours", "reference", "reference_n"),
                         [((129457, 200_000), 0.637, 2000), ((230, 200_000), 0.001, 2000),
                          ((81369, 200_000), 0.4004, 10**8), ((56, 70), 0.6, 80)])
def test_difference_from_a_reference_with_n_is_newcombes_interval(ours, reference, reference_n):
    result = difference_from_reference(*ours, reference, reference_n)
    low, high = newcombe_by_hand(*ours, round(reference * reference_n), reference_n)
    assert result.method == "newcombe"
    assert result.difference == pytest.approx(ours[0] / ours[1] - reference, abs=1e-15)
    assert (result.low, result.high) == pytest.approx((low, high), abs=1e-10)
    assert result.low < result.difference < result.high


def test_difference_from_a_fixed_reference_is_the_shifted_wilson_interval():
    result = difference_from_reference(1274, 2000, 0.6)
    low, high = wilson_by_formula(1274, 2000)
    assert result.method == "wilson-fixed"
    assert (result.low, result.high) == pytest.approx((low - 0.6, high - 0.6), abs=1e-12)
    with pytest.raises(ValueError, match="reference"):
        difference_from_reference(1, 2, 1.5)


def test_exact_p_on_the_expert_single_point_case():
    from scipy.stats import fisher_exact

    # 230 of our 200,000 boards against the published 2 of 2,000.
    expected = fisher_exact([[230, 200_000 - 230], [2, 1998]]).pvalue
    assert exact_difference_p_value(230, 200_000, 0.001, 2000) == pytest.approx(expected,
                                                                                 abs=1e-12)
    assert exact_difference_p_value(230, 200_000, 0.001, 2000) > 0.5
    # Far apart: 0 of 2,000 against 30 of 2,000 is rejected.
    assert exact_difference_p_value(0, 2000, 0.015, 2000) < 1e-6
    # A fixed reference: the exact binomial test.
    assert exact_difference_p_value(230, 200_000, 0.001) == pytest.approx(
        binomtest(230, 200_000, 0.001).pvalue, abs=1e-12)


def fisher_by_enumeration(a, n1, c, n2):
    """Fisher's two-sided p of [[a, n1 - a], [c, n2 - c]]: every table with the margins."""
    total = a + c
    weight = {k: math.comb(n1, k) * math.comb(n2, total - k)
              for k in range(max(0, total - n2), min(n1, total) + 1)}
    observed = weight[a]
    # tables as likely as the observed one, up to float noise, count as extreme
    extreme = sum(w for w in weight.values() if w <= observed * (1 + 1e-7))
    return extreme / sum(weight.values())


def binomial_by_enumeration(k, n, p):
    """The exact binomial two-sided p: every count no likelier than ``k``."""
    mass = [math.comb(n, j) * p**j * (1 - p) ** (n - j) for j in range(n + 1)]
    return min(1.0, sum(m for m in mass if m <= mass[k] * (1 + 1e-7)))


@pytest.mark.parametrize(("ours", "trials", "published", "published_trials"),
                         [(7, 20, 0.6, 10), (30, 40, 0.5, 60), (0, 15, 0.2, 25),
                          (12, 12, 0.9, 30)])
def test_compare_to_published_is_newcombe_fisher_and_the_unpooled_z(ours, trials, published,
                                                                    published_trials):
    row = compare_to_published(ours, trials, published, published_trials)
    other = round(published * published_trials)
    assert row.p_value == pytest.approx(fisher_by_enumeration(ours, trials, other,
                                                              published_trials), rel=1e-9)
    assert row.test == "fisher"
    low, high = confint_proportions_2indep(ours, trials, other, published_trials,
                                           method="newcomb", compare="diff")
    assert (row.low, row.high) == pytest.approx((low, high), abs=1e-12)
    assert row.difference == pytest.approx(ours / trials - other / published_trials)
    p1 = ours / trials
    spread = math.sqrt(p1 * (1 - p1) / trials + published * (1 - published) / published_trials)
    assert row.z == pytest.approx(row.difference / spread)


def test_compare_to_published_without_its_n_is_the_binomial_test_of_a_fixed_figure():
    row = compare_to_published(7, 20, 0.6)
    assert row.test == "binomial" and row.method == "wilson-fixed"
    assert row.p_value == pytest.approx(binomial_by_enumeration(7, 20, 0.6), rel=1e-9)
    assert row.z == pytest.approx((0.35 - 0.6) / math.sqrt(0.35 * 0.65 / 20))
    low, high = wilson_interval(7, 20)
    assert (row.low, row.high) == pytest.approx((low - 0.6, high - 0.6))
    assert compare_to_published(20, 20, 1.0).z == 0.0  # no spread and no difference


def test_detectable_deviation_by_formula():
    z = NormalDist().inv_cdf
    # Holm's first step over 256 cells at 5%, 80% power, p = 0.2, n = 1e6.
    by_hand = (z(1 - 0.05 / 512) + z(0.8)) * math.sqrt(0.2 * 0.8 / 1e6)
    assert detectable_deviation(0.2, 1_000_000, tests=256) == pytest.approx(by_hand, rel=1e-9)
    # At that deviation a single Bonferroni-level z-test has 80% power (the far tail aside).
    shift = by_hand / math.sqrt(0.2 * 0.8 / 1e6)
    assert 1 - NormalDist().cdf(z(1 - 0.05 / 512) - shift) == pytest.approx(0.8, abs=1e-9)
    both = detectable_deviation([0.0, 0.5, 1.0], 20_000, tests=4)
    assert both[0] == both[2] == pytest.approx(1 - 0.2 ** (1 / 20_000))
    assert both[1] > both[0]


def test_neighbour_correlation_on_synthetic_maps():
    rng = np.random.default_rng(1)
    noise = rng.standard_normal((301, 301))
    assert abs(neighbour_correlation(noise)) < 0.01
    # A horizontal moving sum of two: adjacent in a row share one of two terms (rho = 1/2),
    # adjacent in a column share none (rho = 0): the mean over both kinds of pair is 1/4.
    rows = noise[:, :-1] + noise[:, 1:]
    assert neighbour_correlation(rows) == pytest.approx(0.25, abs=0.01)
    # A 2x2 moving sum: every pair of neighbours shares two of its four terms (rho = 1/2).
    blocks = noise[:-1, :-1] + noise[1:, :-1] + noise[:-1, 1:] + noise[1:, 1:]
    assert neighbour_correlation(blocks) == pytest.approx(0.5, abs=0.01)
    # The separable filter (1, w) x (1, w): rho = w / (1 + w^2) along either axis.
    weighted = noise[:-1, :-1] + 0.5 * (noise[1:, :-1] + noise[:-1, 1:]) + 0.25 * noise[1:, 1:]
    assert neighbour_correlation(weighted) == pytest.approx(0.4, abs=0.01)
    assert math.isnan(neighbour_correlation(np.zeros((3, 3))))
    with_nan = noise.copy()
    with_nan[0, 0] = np.nan
    assert abs(neighbour_correlation(with_nan)) < 0.01
    with pytest.raises(ValueError, match="two-dimensional"):
        neighbour_correlation(np.zeros(4))


def test_homogeneity_matches_a_hand_table():
    from scipy.stats import chi2

    successes, trials = np.array([20, 30, 25]), np.array([50, 50, 50])
    pooled = successes.sum() / trials.sum()
    expected = np.column_stack([trials * pooled, trials * (1 - pooled)])
    observed = np.column_stack([successes, trials - successes])
    statistic = ((observed - expected) ** 2 / expected).sum()
    result = homogeneity_test(successes, trials)
    assert result.statistic == pytest.approx(statistic, rel=1e-12) == pytest.approx(4.0)
    assert result.df == 2
    assert result.p_value == pytest.approx(chi2.sf(statistic, 2), rel=1e-12)
    # Two proportions: no Yates correction, so the statistic is the square of the pooled z.
    two = homogeneity_test([40, 55], [100, 100])
    pooled = 95 / 200
    z_value = (0.40 - 0.55) / math.sqrt(pooled * (1 - pooled) * (2 / 100))
    assert two.statistic == pytest.approx(z_value ** 2, rel=1e-12)
    assert homogeneity_test([0, 0, 0], [3, 4, 5]) == (0.0, 2, 1.0)
    with pytest.raises(ValueError, match="two proportions"):
        homogeneity_test([1], [2])


def test_neighbour_correlation_pools_maps_of_any_shape():
    rng = np.random.default_rng(2)
    noise = rng.standard_normal((200, 301))
    blocks = noise[:-1, :-1] + noise[1:, :-1] + noise[:-1, 1:] + noise[1:, 1:]
    assert neighbour_correlation(blocks[:, :100], blocks[:50, 100:]) == pytest.approx(
        0.5, abs=0.02)
    # Each map is centred on its own mean first: a map shifted by a constant (all its
    # cells sharing one offset, as the clicks of one opening map share its boards) adds
    # no correlation between independent cells. Uncentred, the 12 pairs of a constant
    # map at 100 would carry as much spread as the 119,000 pairs of noise and pool to 1/2.
    assert abs(neighbour_correlation(noise, np.full((3, 3), 100.0))) < 0.01
    assert abs(neighbour_correlation(noise[:100], noise[100:] + 3.0)) < 0.01


@pytest.mark.parametrize(
    ("call", "match"),
    [(lambda: difference_from_reference(5, 10, 0.5, 0), "reference_trials \\(0\\)"),
     (lambda: difference_from_reference(5, 10, 0.5, 2.5), "reference_trials \\(2.5\\)"),
     (lambda: exact_difference_p_value(5, 10, 0.5, -3), "reference_trials \\(-3\\)"),
     (lambda: exact_difference_p_value(5, 10, 1.5), "reference \\(1.5\\)"),
     (lambda: detectable_deviation(1.2, 100), "expected"),
     (lambda: detectable_deviation(0.5, 0), "trials \\(0.0\\)"),
     (lambda: holm_adjust([0.01, float("nan")]), "NaN is not a p-value")],
)
def test_new_statistics_refuse_bad_input_in_one_line(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_format_p_value_treats_pandas_missing_values_as_missing():
    import pandas as pd

    assert format_p_value(pd.NA) == format_p_value(None) == format_p_value(float("nan")) == ""


def test_the_rescaled_chi_square_has_the_mean_of_its_df_exactly():
    """Every triple of 2-of-4 layouts, equally likely: E[X (K - 1) / K] = K - 1 exactly."""
    from fractions import Fraction
    from itertools import combinations, product

    from scipy.stats import chi2

    cells, mines, trials = 4, 2, 3
    layouts = [np.isin(np.arange(cells), chosen).astype(int)
               for chosen in combinations(range(cells), mines)]
    total, count = Fraction(0), 0
    for triple in product(layouts, repeat=trials):
        counts = np.sum(triple, axis=0)
        p = Fraction(mines, cells)
        pearson = sum((Fraction(int(c)) - trials * p) ** 2 for c in counts) / (
            trials * p * (1 - p))
        test = fixed_total_chi_square(counts, trials, mines)
        assert test.statistic == pytest.approx(float(pearson * (cells - 1) / cells))
        assert test.df == cells - 1
        assert test.p_value == pytest.approx(chi2.sf(test.statistic, cells - 1))
        total, count = total + pearson * (cells - 1) / cells, count + 1
    assert total / count == cells - 1


@pytest.mark.parametrize(("counts", "trials", "mines", "message"), [
    ([1, 1], 0, 1, "trials (0)"), ([1, 1], 1, 2, "mines (2)"), ([1, 1], 1, 0, "mines (0)")])
def test_the_rescaled_chi_square_refuses_impossible_layouts(counts, trials, mines, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        fixed_total_chi_square(counts, trials, mines)


def test_permutation_p_values_by_hand():
    rng = np.random.default_rng(0)
    # One board each, mirrored: every relabelling gives the observed statistic, so p = 1.
    mirrored = permutation_test(np.array([[1, 0]]), np.array([[0, 1]]), 19, rng)
    assert mirrored.p_value == 1.0 and mirrored.permutations == 19
    # Ten boards each, fully separated: only the 2 of C(20, 10) = 184,756 relabellings that
    # separate them again reach the statistic, so none of 19 does and p = 1 / 20.
    sample, reference = np.tile([1, 0], (10, 1)), np.tile([0, 1], (10, 1))
    separated = permutation_test(sample, reference, 19, rng)
    assert separated.p_value == 1 / 20
    assert separated.statistic == pytest.approx(2 * 20)  # z^2 = 20 in each cell
    assert separated.z.tolist() == pytest.approx([20 ** 0.5, -(20 ** 0.5)])


def test_permutation_relabellings_are_drawn_in_blocks_as_one_stream():
    """250 relabellings in blocks of 100 use the stream as 250 single draws would."""
    from minestats.stats import significance

    rng = np.random.default_rng(5)
    sample, reference = rng.integers(0, 2, (6, 3)), rng.integers(0, 2, (9, 3))
    blocked = permutation_test(sample, reference, 250, np.random.default_rng(3))
    original = significance.PERMUTATION_BLOCK
    try:
        significance.PERMUTATION_BLOCK = 1
        single = permutation_test(sample, reference, 250, np.random.default_rng(3))
    finally:
        significance.PERMUTATION_BLOCK = original
    assert blocked.p_value == single.p_value and blocked.statistic == single.statistic


@pytest.mark.parametrize(("permutations", "message"), [(0, "permutations (0)"),
                                                       (1.5, "permutations (1.5)")])
def test_the_permutation_test_refuses_a_bad_count(permutations, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        permutation_test([[1]], [[0]], permutations, np.random.default_rng(0))


def test_click_classes_and_pooling_by_hand():
    from scipy.stats import chi2_contingency

    board = Board(5, 4, 3)
    names = [[click_class(board, x, y) for x in range(5)] for y in range(4)]
    assert names[0] == ["corner", "edge next to a corner", "edge", "edge next to a corner",
                        "corner"]
    assert names[1] == ["edge next to a corner"] + ["interior"] * 3 + ["edge next to a corner"]
    assert names[3] == names[0] and names[2] == names[1]
    ys, xs = np.indices(board.shape)
    successes = np.arange(20) % 7
    rows = pd.DataFrame({"click_x": xs.ravel(), "click_y": ys.ravel(),
                         "successes": successes, "n": 10, "seed": "s"})
    pooled = pool_by_click_class(board, rows, "rate").set_index("cell_class")
    assert list(pooled["cells"]) == [4, 8, 2, 6, 20, 20]
    interior = successes[np.array(names).ravel() == "interior"]
    assert pooled.loc["interior", "successes"] == interior.sum()
    statistic, p_value, df, _ = chi2_contingency(np.column_stack([interior, 10 - interior]),
                                                 correction=False)
    assert pooled.loc["interior", "chi2"] == pytest.approx(statistic)
    assert pooled.loc["interior", "p_value"] == pytest.approx(p_value)
    assert pooled.loc["interior", "df"] == df == 5
    table = pooled.iloc[:-2][["successes", "n"]].to_numpy()
    statistic, p_value, _, _ = chi2_contingency(
        np.column_stack([table[:, 0], table[:, 1] - table[:, 0]]), correction=False)
    assert pooled.loc["between classes", "p_value"] == pytest.approx(p_value)
    # Orbits of a 5x4 board: reflections only (not square), (a, b) = distances to the
    # nearest side: 6 orbits of 4 or 2 cells; their chi-squares add up.
    orbits = [[click_orbit(board, x, y) for x in range(5)] for y in range(4)]
    assert orbits[0] == [(0, 0), (1, 0), (2, 0), (1, 0), (0, 0)]
    assert orbits[3] == orbits[0] and orbits[2] == orbits[1] == [(0, 1), (1, 1), (2, 1),
                                                                 (1, 1), (0, 1)]
    assert click_orbit(Board(4, 4, 2), 3, 1) == click_orbit(Board(4, 4, 2), 1, 0)
    flat = np.array([f"{a},{b}" for row in orbits for a, b in row])
    total, df = 0.0, 0
    for orbit in np.unique(flat):
        members = successes[flat == orbit]
        if len(members) > 1:
            statistic, _, dof, _ = chi2_contingency(np.column_stack([members, 10 - members]),
                                                    correction=False)
            total, df = total + statistic, df + dof
    assert df == 20 - 6 and pooled.loc["within symmetry orbits", "df"] == df
    assert pooled.loc["within symmetry orbits", "chi2"] == pytest.approx(total)


def test_bonferroni_level_matches_statsmodels_at_the_divided_alpha():
    level = bonferroni_level(0.95, 20)
    assert level == pytest.approx(1 - 0.05 / 20)
    assert wilson_interval(6, 10, confidence_level=level) == pytest.approx(
        proportion_confint(6, 10, alpha=0.05 / 20, method="wilson"))
    with pytest.raises(ValueError, match=re.escape("tests (0)")):
        bonferroni_level(0.95, 0)


def test_pool_by_orbit_adds_the_cells_of_each_orbit():
    board = Board(5, 4, 3)
    ys, xs = np.indices(board.shape)
    successes = np.arange(20) % 7
    rows = pd.DataFrame({"click_x": xs.ravel(), "click_y": ys.ravel(),
                         "successes": successes, "n": 10,
                         "seed": [f"42/3/{i}" for i in range(20)]})
    pooled = pool_by_orbit(board, rows, "rate").set_index(["orbit_x", "orbit_y"])
    corners = successes[[0, 4, 15, 19]]
    assert pooled.loc[(0, 0), "cells"] == 4 and pooled.loc[(0, 0), "n"] == 40
    assert pooled.loc[(0, 0), "successes"] == corners.sum()
    low, high = proportion_confint(corners.sum(), 40, alpha=0.05, method="wilson")
    assert (pooled.loc[(0, 0), "ci_low"], pooled.loc[(0, 0), "ci_high"]) == pytest.approx(
        (low, high))
    assert pooled["cells"].sum() == 20 and set(pooled["seed"]) == {"42/3"}
    with pytest.raises(ValueError, match="from 2 maps"):
        pool_by_orbit(board, rows.assign(seed=["42/3/0"] * 10 + ["42/4/0"] * 10), "rate")


# --- the library's own Wilson, Holm and normal tail: the references' bits, not close -----

def test_wilson_bounds_are_statsmodels_to_the_last_bit():
    rng = np.random.default_rng(11)
    for level in (0.95, 0.99, 0.9, 0.5, 1 - 0.05 / 480):
        trials = np.concatenate([rng.integers(1, 3_000_000_000, size=5_000),
                                 rng.integers(1, 60, size=1_000)])
        successes = (rng.random(trials.size) * (trials + 1)).astype(np.int64).clip(0, trials)
        successes[:3], successes[3:6] = 0, trials[3:6]
        low, high = proportion_interval(successes, trials, confidence_level=level)
        expected = proportion_confint(successes, trials, alpha=1 - level, method="wilson")
        assert np.array_equal(low, np.where(successes == 0, 0.0, expected[0]))
        assert np.array_equal(high, np.where(successes == trials, 1.0, expected[1]))
        for k, n in ((1, 3), (786, 1000), (230, 200_000)):
            one = proportion_interval(k, n, confidence_level=level)
            assert tuple(one) == proportion_confint(k, n, alpha=1 - level, method="wilson")


def test_holm_makes_statsmodels_decisions_and_adjusted_values_to_the_last_bit():
    rng = np.random.default_rng(12)
    for trial in range(400):
        p = rng.random(int(rng.integers(1, 500))) ** rng.uniform(0.2, 8)
        if trial % 5 == 0:
            p[: p.size // 3] = p[0]  # ties
        if trial % 7 == 0:
            p[0], p[-1] = 0.0, 1.0
        for alpha in (0.05, 0.01):
            reject, adjusted = multipletests(p, alpha=alpha, method="holm")[:2]
            assert np.array_equal(holm_reject(p, alpha=alpha), reject)
            assert np.array_equal(holm_adjust(p), adjusted)


def test_two_sided_p_values_are_scipys_normal_tail_to_the_last_bit():
    from scipy.stats import norm

    z = np.concatenate([np.random.default_rng(13).normal(0, 3, 50_000),
                        [0.0, -0.0, 40.0, -40.0, np.inf, -np.inf]])
    assert np.array_equal(two_sided_p_values(z), 2 * norm.sf(np.abs(z)))
    assert two_sided_p_values(1.5) == 2 * norm.sf(1.5)


def test_the_old_name_of_a_chi_square_result_still_works_and_warns():
    import minestats.stats as stats
    import minestats.stats.significance as significance

    for module in (stats, significance):
        with pytest.warns(DeprecationWarning, match=r"Homogeneity is deprecated and will be "
                                                    r"removed in 0\.4: use minestats\.stats\."
                                                    r"ChiSquareTest"):
            assert module.Homogeneity is stats.ChiSquareTest
    assert isinstance(stats.homogeneity_test([20, 30], [50, 50]), stats.ChiSquareTest)
    with pytest.raises(AttributeError, match="has no attribute 'Homogenity'"):
        stats.Homogenity  # noqa: B018
