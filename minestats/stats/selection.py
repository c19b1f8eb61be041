"""Choosing the best of several candidates from noisy counts: what a choice gains.

A decision offers candidates, each valued by its wins on common random draws (the same
layouts for every candidate). Picking the candidate with the most wins on those draws
overstates its value (the winner's curse); `split_half_gain` measures the gain of a
choice honestly by choosing on one half of the draws and scoring on the other, as
cross-validation fits on one part and assesses on another [1]_.
`paired_gap` gives one candidate's gap to a reference on the common draws with its
sampling variance (the paired difference of McNemar's test [2]_), the input of
`minestats.stats.effect_spread`. `group_folds` and
`least_squares_switch_gains` score a rule that would switch from the reference to
another candidate: fitted on some groups of decisions, scored on the others, so that
the gain it shows was never fitted to.

References
----------
.. [1] Efron, B., & Tibshirani, R. J. (1993). An Introduction to the Bootstrap,
   chapter 17 (cross-validation: fit on one part, assess on another).
.. [2] McNemar, Q. (1947). Note on the sampling error of the difference between
   correlated proportions or percentages. Psychometrika, 12(2), 153-157.
"""

from __future__ import annotations

import numpy as np

__all__ = ["group_folds", "least_squares_switch_gains", "paired_gap", "split_half_gain"]


def split_half_gain(wins_a, wins_b, n: int) -> float:
    """Return the gain in win rate of choosing by one half of the draws, scored on the other.

    Each half picks the candidate with the most wins on it (the first of ties); its win
    rate on the other half, less that of candidate 0 (the reference) there, is the
    gain; the two directions are averaged. Choosing and scoring on separate draws makes
    the gain unbiased for the choice made on half the draws.

    Parameters
    ----------
    wins_a, wins_b : array_like of int
        Each candidate's wins on the first ``n // 2`` draws and on the rest; candidate
        0 is the reference (the choice being improved on).
    n : int
        The draws of both halves together.

    Returns
    -------
    float

    Examples
    --------
    >>> split_half_gain([3, 4], [2, 5], 10)  # half a picks 1 (+3 on b), half b picks 1 (+1 on a)
    0.4
    >>> split_half_gain([3, 3], [2, 2], 10)
    0.0
    """
    a, b = np.asarray(wins_a), np.asarray(wins_b)
    half_a = n // 2
    half_b = n - half_a
    by_a, by_b = int(np.argmax(a)), int(np.argmax(b))
    return float(((b[by_a] - b[0]) / half_b + (a[by_b] - a[0]) / half_a) / 2)


def paired_gap(only_this, only_reference, n):
    """Return a candidate's win-rate gap to a reference on common draws, and its variance.

    On ``n`` common draws the gap is (``only_this`` - ``only_reference``) / n, the draws
    won by one of the two and not the other; its variance is (share of discordant draws
    - gap^2) / n, as for the paired difference of McNemar's test (McNemar, 1947).

    Parameters
    ----------
    only_this, only_reference : array_like of int
        Draws won by the candidate but not the reference, and the other way round.
    n : array_like of int
        Common draws.

    Returns
    -------
    gap, variance : numpy.ndarray or float

    Examples
    --------
    >>> gap, variance = paired_gap(30, 10, 100)
    >>> round(gap, 4), round(variance, 6)
    (0.2, 0.0036)
    """
    gap = (only_this - only_reference) / n
    return gap, ((only_this + only_reference) / n - gap**2) / n


def group_folds(frame, group: str, folds: int):
    """Yield ``(train, test)`` for ``folds`` folds of ``frame``'s groups, each held out once.

    The distinct values of column ``group``, sorted, are cut into ``folds`` runs of
    consecutive values (fewer when there are fewer groups); each run's rows are the
    test part once, the other rows its training part. A fold whose training or test
    part is empty is skipped.

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"piece": [0, 0, 1, 2, 3], "x": range(5)})
    >>> [test["piece"].tolist() for _, test in group_folds(frame, "piece", 2)]
    [[0, 0, 1], [2, 3]]
    """
    values = np.array(sorted(frame[group].unique()))
    for fold in np.array_split(values, min(folds, values.size)):
        train = frame[~frame[group].isin(fold)]
        test = frame[frame[group].isin(fold)]
        if not (train.empty or test.empty):
            yield train, test


def least_squares_switch_gains(pairs, columns, *, target: str, decision, group: str,
                               folds: int) -> tuple[np.ndarray, np.ndarray]:
    """Held-out gains of switching by a least-squares model of each alternative's gap.

    ``pairs`` holds a row per alternative to a decision's reference candidate: its gap
    in value to the reference (column ``target``) and the ``columns`` it is predicted
    from. On each fold of `group_folds` a linear model (with an intercept) of the gap
    is fitted by least squares to the training part; in each test decision (rows
    sharing the ``decision`` columns) the rule switches to the alternative of highest
    predicted gap when that is above 0, and gains its true gap (0 when it keeps the
    reference).

    Returns
    -------
    gains : numpy.ndarray of float
        One per decision, in fold order, then decision order.
    switched : numpy.ndarray of bool
        Whether the rule switched there.

    Examples
    --------
    >>> import pandas as pd
    >>> pairs = pd.DataFrame({"piece": [0, 0, 1, 1, 2, 2], "guess": [0, 0, 0, 0, 0, 0],
    ...                       "safer": [1.0, 0.0, 1.0, 0.0, 1.0, 0.0],
    ...                       "gap": [0.2, -0.1, 0.3, -0.2, 0.1, -0.3]})
    >>> gains, switched = least_squares_switch_gains(
    ...     pairs, ["safer"], target="gap", decision=["piece", "guess"], group="piece",
    ...     folds=3)
    >>> gains.round(2).tolist(), switched.tolist()
    ([0.2, 0.3, 0.1], [True, True, True])
    """
    gains, switched = [], []
    for train, test in group_folds(pairs, group, folds):
        design = np.column_stack([np.ones(len(train)), train[columns].to_numpy(float)])
        beta = np.linalg.lstsq(design, train[target].to_numpy(), rcond=None)[0]
        predicted = np.column_stack([np.ones(len(test)), test[columns].to_numpy(float)]) @ beta
        for _, rows in test.assign(predicted=predicted).groupby(decision, sort=True):
            top = rows["predicted"].idxmax()
            switch = rows["predicted"].loc[top] > 0
            gains.append(rows[target].loc[top] if switch else 0.0)
            switched.append(switch)
    return np.array(gains), np.array(switched, dtype=bool)
