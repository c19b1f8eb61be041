"""What a choice gains, measured honestly: `split_half_gain` and `paired_gap`.

References: a plain-Python re-implementation of the split-half gain, and simulation
(the winner's curse the split removes; the variance of a paired gap).
"""

import numpy as np
import pytest

from minestats.stats import mean_interval, paired_gap, split_half_gain


def plain_split_half_gain(wins_a, wins_b, n):
    """The same estimator, written out with lists."""
    half_a, half_b = n // 2, n - n // 2
    by_a = max(range(len(wins_a)), key=lambda k: (wins_a[k], -k))
    by_b = max(range(len(wins_b)), key=lambda k: (wins_b[k], -k))
    return ((wins_b[by_a] - wins_b[0]) / half_b + (wins_a[by_b] - wins_a[0]) / half_a) / 2


def test_split_half_gain_matches_a_plain_re_implementation():
    rng = np.random.default_rng(1)
    for _ in range(500):
        n = int(rng.integers(2, 40))
        candidates = int(rng.integers(1, 6))
        wins_a = rng.integers(0, n // 2 + 1, candidates).tolist()
        wins_b = rng.integers(0, n - n // 2 + 1, candidates).tolist()
        assert split_half_gain(wins_a, wins_b, n) == pytest.approx(
            plain_split_half_gain(wins_a, wins_b, n), abs=1e-15)


def test_split_half_gain_removes_the_winners_curse():
    """Five candidates of equal true value: choosing and scoring on the same draws
    'gains' clearly; choosing on one half and scoring on the other gains nothing."""
    rng = np.random.default_rng(7)
    n, decisions, value = 100, 4_000, 0.4
    split, naive = [], []
    for _ in range(decisions):
        wins = rng.random((5, n)) < value
        wins_a, wins_b = wins[:, : n // 2].sum(axis=1), wins[:, n // 2:].sum(axis=1)
        split.append(split_half_gain(wins_a, wins_b, n))
        total = wins_a + wins_b
        naive.append((total.max() - total[0]) / n)
    honest, cursed = mean_interval(np.array(split)), mean_interval(np.array(naive))
    assert honest.low < 0 < honest.high
    # the best of five means of 100 draws sits about 1.16 sd (0.049) above the first
    assert cursed.low > 0.03


def test_paired_gap_variance_matches_simulation():
    rng = np.random.default_rng(3)
    n, repeats = 200, 5_000
    this = rng.random((repeats, n)) < 0.45
    reference = np.where(rng.random((repeats, n)) < 0.7, this, rng.random((repeats, n)) < 0.4)
    only_this = (this & ~reference).sum(axis=1)
    only_reference = (~this & reference).sum(axis=1)
    gaps, variances = paired_gap(only_this, only_reference, n)
    observed = gaps.var(ddof=1)
    # a variance from 5,000 repeats has a relative standard error of sqrt(2 / 4,999): 0.02
    assert variances.mean() == pytest.approx(observed, rel=0.06)
    assert gaps.mean() == pytest.approx((this.mean() - reference.mean()), abs=1e-12)


def test_group_folds_hold_out_every_group_once_in_runs_of_consecutive_groups():
    import pandas as pd

    from minestats.stats import group_folds

    frame = pd.DataFrame({"piece": [5, 1, 1, 9, 3, 7, 7, 2], "row": range(8)})
    folds = list(group_folds(frame, "piece", 3))
    tests = [sorted(test["piece"].unique().tolist()) for _, test in folds]
    assert tests == [[1, 2], [3, 5], [7, 9]]
    for train, test in folds:
        assert sorted(train["row"].tolist() + test["row"].tolist()) == list(range(8))
        assert not set(train["piece"]) & set(test["piece"])
    assert len(list(group_folds(frame.iloc[:1], "piece", 3))) == 0  # nothing to train on


def test_least_squares_switch_gains_match_an_ols_reference():
    """The same rule with the model fitted by statsmodels' OLS and the decisions walked
    in plain Python."""
    import pandas as pd
    import statsmodels.api as sm

    from minestats.stats import group_folds, least_squares_switch_gains

    rng = np.random.default_rng(11)
    rows = []
    for piece in range(8):
        for guess in range(15):
            for _ in range(int(rng.integers(1, 4))):
                x1, x2 = rng.normal(), rng.normal()
                rows.append({"piece": piece, "guess": guess, "x1": x1, "x2": x2,
                             "gap": 0.03 * x1 - 0.02 * x2 - 0.01 + rng.normal(0, 0.05)})
    pairs = pd.DataFrame(rows)
    gains, switched = least_squares_switch_gains(pairs, ["x1", "x2"], target="gap",
                                                 decision=["piece", "guess"], group="piece",
                                                 folds=4)
    expected, expected_switched = [], []
    for train, test in group_folds(pairs, "piece", 4):
        fit = sm.OLS(train["gap"], sm.add_constant(train[["x1", "x2"]])).fit()
        predicted = fit.predict(sm.add_constant(test[["x1", "x2"]], has_constant="add"))
        for key in sorted(set(zip(test["piece"], test["guess"], strict=True))):
            rows = test[(test["piece"] == key[0]) & (test["guess"] == key[1])]
            best = predicted[rows.index].idxmax()
            switch = predicted[best] > 0
            expected.append(rows["gap"][best] if switch else 0.0)
            expected_switched.append(bool(switch))
    assert switched.tolist() == expected_switched and 0 < sum(expected_switched) < len(gains)
    np.testing.assert_allclose(gains, expected, rtol=0, atol=1e-12)
