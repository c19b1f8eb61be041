"""Many tests at once: Holm's step-down method.

`holm_reject` says which hypotheses Holm's method rejects at a family-wise level,
`holm_adjust` gives the adjusted p-values that make the same decisions at any level.
An estimate picked from many (the lowest cell of a map, say) gets the interval of
`bonferroni_level`, which holds for all of them together; `simultaneous_intervals`
gives every row of a table the Wilson interval at that level.
"""

from __future__ import annotations

import numpy as np

from minestats.foundations.validation import (
    DEFAULT_ALPHA,
    DEFAULT_CONFIDENCE_LEVEL,
    check_confidence_level,
    check_count,
    quoted,
)
from minestats.stats.intervals import wilson_interval

__all__ = ["bonferroni_level", "holm_adjust", "holm_reject", "simultaneous_intervals"]


def _holm(p_values, alpha):
    """Run Holm's step-down: (reject, adjusted p), shaped as ``p_values``.

    The steps of statsmodels' ``multipletests(method="holm")`` in its order (a test
    checks every decision and adjusted value equal to it), without importing
    statsmodels, which would double the start-up of a short run: sorted by p, the
    i-th of ``m`` is rejected while every p up to it is at most ``alpha / (m - i)``
    (i from 0); its adjusted value is the running maximum of ``(m - i) p``, at most 1.
    """
    if not 0 < alpha < 1:
        raise ValueError(f"alpha ({alpha}) must lie strictly between 0 and 1")
    try:
        values = np.asarray(p_values, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"p_values ({quoted(p_values)}) must be numbers in [0, 1]") from None
    if not np.all((values >= 0) & (values <= 1)):
        raise ValueError(f"p_values must lie in [0, 1] (NaN is not a p-value): "
                         f"{quoted(p_values)}")
    p_values = values
    if p_values.size == 0:
        return np.zeros(p_values.shape, dtype=bool), np.zeros(p_values.shape)
    flat = p_values.ravel()
    order = np.argsort(flat)
    ranked = np.take(flat, order)
    steps = np.arange(ranked.size, 0, -1)
    kept = ranked > alpha / steps
    first_kept = np.flatnonzero(kept)
    kept[first_kept.min() if first_kept.size else ranked.size:] = True
    adjusted = np.maximum.accumulate(ranked * steps)
    adjusted[adjusted > 1] = 1
    reject = np.empty(flat.size, dtype=bool)
    reject[order] = ~kept
    unsorted = np.empty_like(adjusted)
    unsorted[order] = adjusted
    return reject.reshape(p_values.shape), unsorted.reshape(p_values.shape)


def holm_reject(p_values, *, alpha=DEFAULT_ALPHA):
    """Which hypotheses Holm's step-down method rejects at family-wise level ``alpha``.

    Holm's method is valid under any dependence between the tests, such as the
    correlated counts of one all-positions simulation.

    See Also
    --------
    minestats.stats.multiple.holm_adjust
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
    minestats.stats.multiple.holm_reject
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
    return _holm(p_values, DEFAULT_ALPHA)[1]


def bonferroni_level(confidence_level, tests) -> float:
    """Confidence level at which each of ``tests`` intervals must hold for all to hold.

    By Bonferroni's inequality, intervals at ``1 - (1 - confidence_level) / tests``
    each hold together with probability at least ``confidence_level``, under any
    dependence between them. So the interval of an estimate picked for being the
    lowest or highest of ``tests`` (which is no ordinary estimate) is computed at
    this level.

    Parameters
    ----------
    confidence_level : float
        The family's level, in (0, 1).
    tests : int
        Number of estimates the picked one was chosen from, at least 1.

    Returns
    -------
    float

    See Also
    --------
    minestats.stats.multiple.holm_reject
        Holm's step-down tests, at the same family-wise level.

    References
    ----------
    O. J. Dunn, "Multiple comparisons among means", Journal of the American Statistical
    Association 56 (1961), 52-64.

    Examples
    --------
    The lowest of 81 cells, at 95% for the whole map:

    >>> round(bonferroni_level(0.95, 81), 6)
    0.999383
    """
    confidence_level = check_confidence_level(confidence_level)
    return 1 - (1 - confidence_level) / check_count("tests", tests)


def simultaneous_intervals(frame, by=(), *,
                           confidence_level=DEFAULT_CONFIDENCE_LEVEL):
    """Return ``frame`` with Wilson intervals that hold together over each group's rows.

    The rows that share the columns ``by`` (all rows, with none) form a family of
    ``m`` estimates; each gets the Wilson interval of its ``successes`` and ``n`` at
    confidence ``1 - (1 - level) / m`` (`bonferroni_level`), so that all
    ``m`` hold together with probability at least ``level``: the intervals to read
    when a row is picked from its family, as the best click of a map is. Added as
    ``simultaneous_ci_low``, ``simultaneous_ci_high`` and ``simultaneous_level``.

    Parameters
    ----------
    frame : pandas.DataFrame
        One estimate a row, with columns ``successes`` and ``n``.
    by : sequence of str, optional
        The columns whose values name a family (default: one family of every row).
    confidence_level : float, optional
        Coverage of each family's intervals together, default 0.95.

    Returns
    -------
    pandas.DataFrame
        A copy of ``frame`` with the three columns added.

    References
    ----------
    E. B. Wilson, "Probable inference, the law of succession, and statistical
    inference", JASA 22 (1927), 209-212; C. E. Bonferroni, "Teoria statistica delle
    classi e calcolo delle probabilita" (1936).

    Examples
    --------
    >>> import pandas as pd
    >>> rows = pd.DataFrame({"rule": ["a", "a", "b"], "successes": [40, 60, 50],
    ...                      "n": [100, 100, 100]})
    >>> out = simultaneous_intervals(rows, ["rule"])
    >>> out["simultaneous_level"].round(4).tolist()
    [0.975, 0.975, 0.95]
    >>> bool(out.loc[2, "simultaneous_ci_low"] > out.loc[0, "simultaneous_ci_low"] - 0.1)
    True
    """
    frame = frame.copy()
    families = frame.groupby(list(by), sort=False) if len(by) else [(None, frame)]
    for _, rows in families:
        level = bonferroni_level(confidence_level, len(rows))
        low, high = wilson_interval(rows["successes"].to_numpy(int), rows["n"].to_numpy(int),
                                    confidence_level=level)
        frame.loc[rows.index, "simultaneous_ci_low"] = low
        frame.loc[rows.index, "simultaneous_ci_high"] = high
        frame.loc[rows.index, "simultaneous_level"] = level
    return frame
