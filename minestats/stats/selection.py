"""Choosing the best of several candidates from noisy counts: what a choice gains.

A decision offers candidates, each valued by its wins on common random draws (the same
layouts for every candidate). Picking the candidate with the most wins on those draws
overstates its value (the winner's curse); `split_half_gain` measures the gain of a
choice honestly by choosing on one half of the draws and scoring on the other.
`paired_gap` gives one candidate's gap to a reference on the common draws with its
sampling variance, the input of `minestats.stats.effect_spread`.

References
----------
.. [1] Efron, B., & Tibshirani, R. J. (1993). An Introduction to the Bootstrap,
   chapter 17 (cross-validation: fit on one part, assess on another).
.. [2] McNemar, Q. (1947). Note on the sampling error of the difference between
   correlated proportions or percentages. Psychometrika, 12(2), 153-157.
"""

from __future__ import annotations

import numpy as np

__all__ = ["paired_gap", "split_half_gain"]


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
    - gap^2) / n, as for the paired difference of McNemar's test [2]_.

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
