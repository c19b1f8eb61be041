import math
from dataclasses import dataclass

import numpy as np
import pytest
from statsmodels.stats.proportion import proportion_confint

from minestats.stats import (
    ConfidenceInterval,
    ProportionResult,
    holm_reject,
    proportion_interval,
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
    assert repr(result) == "Counted(successes=<array 2>, n=10, label='x')"
    row = Counted(successes=3, n=10).to_dict(confidence_level=0.9)
    low, high = proportion_confint(3, 10, alpha=0.1, method="wilson")
    assert row == pytest.approx({"successes": 3, "n": 10, "proportion": 0.3, "ci_low": low,
                                 "ci_high": high, "confidence_level": 0.9})
    assert Counted(successes=3, n=10).to_frame().shape == (1, 6)
    low, high = result.proportion_ci()
    assert low.shape == high.shape == (2,)
