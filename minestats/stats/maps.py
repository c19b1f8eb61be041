"""Maps of many proportions, one per cell: what a test can find, how alike neighbours are.

`detectable_deviation` is the smallest error a Holm-corrected test of every cell
would find; `neighbour_correlation` is Moran's I of the z-scores of cells that share
a side.

A map of rates by first click is pooled two ways: by symmetry orbit (`click_orbit`,
`pool_by_orbit`: cells that a reflection of the board maps onto each other share one
rate under a symmetric rule, which `orbit_test` checks) and by descriptive class
(`click_class`, `pool_by_click_class`: corner, edge beside a corner, edge, interior).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from minestats.foundations.board import Board
from minestats.foundations.validation import DEFAULT_ALPHA, DEFAULT_CONFIDENCE_LEVEL, quoted
from minestats.stats.intervals import wilson_interval
from minestats.stats.significance import homogeneity_test

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["CLICK_CLASSES", "click_class", "click_orbit", "detectable_deviation",
           "neighbour_correlation", "orbit_test", "pool_by_click_class", "pool_by_orbit"]


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
    minestats.stats.significance.z_scores
        The test whose power it gives.
    minestats.stats.multiple.holm_reject
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
        raise ValueError(f"expected ({quoted(expected)}) must lie in [0, 1]")
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
    minestats.stats.significance.z_scores
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


CLICK_CLASSES = ("corner", "edge next to a corner", "edge", "interior")
"""The names `click_class` gives, in the order `pool_by_click_class` lists them."""


def click_class(board: Board, x: int, y: int) -> str:
    """Where a click lies: a corner, an edge cell beside a corner, another edge cell, inside.

    A descriptive grouping, not a symmetry class: ``edge`` holds cells 2 or more steps
    from a corner and ``interior`` cells of every depth, which no symmetry makes equal,
    so a class's homogeneity test asks whether depth matters there. Cells that must be
    equal are those of one `click_orbit`.

    See Also
    --------
    pool_by_click_class : a map's cells pooled by class, each class tested.
    click_orbit : the cells symmetry makes equal.

    Examples
    --------
    >>> from minestats.foundations.board import Board
    >>> [click_class(Board(9, 9, 10), x, 0) for x in (0, 1, 4)] + [
    ...     click_class(Board(9, 9, 10), 4, 4)]
    ['corner', 'edge next to a corner', 'edge', 'interior']
    """
    on_x, on_y = x in (0, board.width - 1), y in (0, board.height - 1)
    if on_x and on_y:
        return "corner"
    if on_x or on_y:
        along = min(y, board.height - 1 - y) if on_x else min(x, board.width - 1 - x)
        return "edge next to a corner" if along == 1 else "edge"
    return "interior"


def click_orbit(board: Board, x: int, y: int) -> tuple[int, int]:
    """Return the symmetry orbit of a click: its distances from the nearest side and end.

    Reflections of the board (and, on a square board, its transposition) map a cell
    to every cell of its orbit; under a rule that they leave unchanged (every rule but
    ``winxp``, which favours the top-left) those cells have one rate, so a difference
    within an orbit is an error of the simulation, not a fact about Minesweeper.

    See Also
    --------
    pool_by_orbit : a map's cells pooled by orbit.
    orbit_test : the test that each orbit's cells share one rate.

    References
    ----------
    M. A. Armstrong, Groups and Symmetry, Springer (1988): orbits of a group action,
    here the group of the board's reflections.

    Examples
    --------
    >>> from minestats.foundations.board import Board
    >>> click_orbit(Board(30, 16, 99), 29, 1), click_orbit(Board(9, 9, 10), 1, 8)
    ((0, 1), (0, 1))
    """
    a, b = min(x, board.width - 1 - x), min(y, board.height - 1 - y)
    return tuple(sorted((a, b))) if board.width == board.height else (a, b)


def pool_by_click_class(board: Board, rows: pd.DataFrame, rate: str, *,
                        confidence_level=DEFAULT_CONFIDENCE_LEVEL) -> pd.DataFrame:
    """One map's cells pooled by `click_class`, each class tested for one common rate.

    ``rows`` has one row per cell (``click_x``, ``click_y``, ``successes``, ``n``).
    Returns one row per class present (cells, pooled n and successes, the pooled
    ``rate`` with its Wilson interval, and Pearson's chi-square test that the class's
    cells share one rate: ``chi2``, ``df``, ``p_value``), then a row ``between
    classes``: every cell pooled, and the test that the classes share one rate, then a
    row ``within symmetry orbits``: `orbit_test`, the check that cells symmetry makes
    equal are (meaningful only under a rule the reflections leave unchanged).

    See Also
    --------
    click_class : the classes.
    minestats.stats.significance.homogeneity_test : the test of each class.
    pool_by_orbit : the pooling symmetry justifies.

    References
    ----------
    A. Agresti, Categorical Data Analysis, 3rd ed., Wiley (2013), chapter 3 (the
    Pearson chi-square test of independence of an r x 2 table).
    E. B. Wilson, "Probable inference, the law of succession, and statistical
    inference", Journal of the American Statistical Association 22 (1927), 209-212.

    Examples
    --------
    >>> import pandas as pd
    >>> from minestats.foundations.board import Board
    >>> rows = pd.DataFrame({"click_x": [0, 1, 2, 1], "click_y": [0, 0, 0, 1],
    ...                      "successes": [60, 40, 38, 20], "n": [100] * 4})
    >>> table = pool_by_click_class(Board(3, 3, 1), rows, "rate")
    >>> for row in table[["cell_class", "cells", "n", "successes"]].values.tolist():
    ...     print(row)
    ['corner', 2, 200, 98]
    ['edge next to a corner', 1, 100, 40]
    ['interior', 1, 100, 20]
    ['between classes', 4, 400, 158]
    ['within symmetry orbits', 4, 400, 158]
    """
    import pandas as pd

    classes = [click_class(board, x, y) for x, y in zip(rows["click_x"], rows["click_y"],
                                                         strict=True)]
    grouped = rows.assign(cell_class=classes).groupby("cell_class", sort=False)
    pooled = []
    for name in CLICK_CLASSES:
        if name not in grouped.groups:
            continue
        cells = grouped.get_group(name)
        test = (homogeneity_test(cells["successes"], cells["n"]) if len(cells) > 1
                else (float("nan"), 0, float("nan")))
        pooled.append({"cell_class": name, "cells": len(cells),
                       "successes": int(cells["successes"].sum()), "n": int(cells["n"].sum()),
                       "chi2": test[0], "df": test[1], "p_value": test[2]})
    table = pd.DataFrame(pooled)
    between = homogeneity_test(table["successes"], table["n"])
    table.loc[len(table)] = {"cell_class": "between classes", "cells": len(rows),
                             "successes": int(table["successes"].sum()),
                             "n": int(table["n"].sum()), "chi2": between.statistic,
                             "df": between.df, "p_value": between.p_value}
    table.loc[len(table)] = {"cell_class": "within symmetry orbits", "cells": len(rows),
                             "successes": int(table["successes"].iloc[-1]),
                             "n": int(table["n"].iloc[-1]),
                             **dict(zip(("chi2", "df", "p_value"),
                                        orbit_test(board, rows), strict=True))}
    table[rate] = table["successes"] / table["n"]
    table["ci_low"], table["ci_high"] = wilson_interval(
        table["successes"].to_numpy(), table["n"].to_numpy(), confidence_level=confidence_level)
    table["confidence_level"] = confidence_level
    return table[["cell_class", "cells", "n", "successes", rate, "ci_low", "ci_high",
                  "confidence_level", "chi2", "df", "p_value"]]


def pool_by_orbit(board: Board, rows: pd.DataFrame, rate: str, *,
                  confidence_level=DEFAULT_CONFIDENCE_LEVEL) -> pd.DataFrame:
    """One map's cells pooled by `click_orbit`, each orbit with its Wilson interval.

    Under a rule every reflection leaves unchanged, the cells of an orbit share one
    rate, so their pooled count estimates it with the games of all of them (the
    check that they do share it is `orbit_test`). ``rows`` has one row per cell
    (``click_x``, ``click_y``, ``successes``, ``n``, ``seed``: the cells of one map,
    whose seeds are children of the map's). Returns one row per orbit, named by its
    cell in the top-left quarter (``orbit_x``, ``orbit_y``): cells, pooled n and
    successes, the pooled ``rate``, its Wilson interval and half-width, and the
    map's seed.

    See Also
    --------
    click_orbit : the orbits.
    orbit_test : the check that an orbit's cells do share one rate.

    References
    ----------
    E. B. Wilson, "Probable inference, the law of succession, and statistical
    inference", Journal of the American Statistical Association 22 (1927), 209-212.

    Examples
    --------
    >>> import pandas as pd
    >>> from minestats.foundations.board import Board
    >>> rows = pd.DataFrame({"click_x": [0, 2, 0, 2], "click_y": [0, 0, 2, 2],
    ...                      "successes": [60, 55, 58, 61], "n": [100] * 4,
    ...                      "seed": [f"42/11/{i}" for i in range(4)]})
    >>> table = pool_by_orbit(Board(3, 3, 1), rows, "rate")
    >>> table[["orbit_x", "orbit_y", "cells", "n", "successes", "rate", "seed"]].values.tolist()
    [[0, 0, 4, 400, 234, 0.585, '42/11']]
    """
    orbits = [click_orbit(board, x, y) for x, y in zip(rows["click_x"], rows["click_y"],
                                                        strict=True)]
    maps = {str(seed).rsplit("/", 1)[0] for seed in rows["seed"]}
    if len(maps) != 1:
        raise ValueError(f"rows come from {len(maps)} maps ({sorted(maps)}), not one")
    table = (rows.assign(orbit_x=[a for a, _ in orbits], orbit_y=[b for _, b in orbits])
             .groupby(["orbit_x", "orbit_y"], as_index=False)
             .agg(cells=("successes", "size"), n=("n", "sum"), successes=("successes", "sum")))
    table[rate] = table["successes"] / table["n"]
    table["ci_low"], table["ci_high"] = wilson_interval(
        table["successes"].to_numpy(), table["n"].to_numpy(), confidence_level=confidence_level)
    table["half_width"] = (table["ci_high"] - table["ci_low"]) / 2
    table["confidence_level"] = confidence_level
    table["seed"] = maps.pop()
    return table


def orbit_test(board: Board, rows: pd.DataFrame) -> tuple[float, int, float]:
    """Chi-square test that the cells of every `click_orbit` share their orbit's rate.

    Each orbit of two or more cells gives Pearson's homogeneity statistic on
    ``cells - 1`` df; the orbits hold disjoint cells drawn from independent seeds,
    so the statistics add to one chi-square on the summed df. Returns
    ``(statistic, df, p_value)``; with no orbit of two cells, ``(0.0, 0, nan)``.

    See Also
    --------
    click_orbit : the orbits.
    minestats.stats.significance.homogeneity_test : each orbit's statistic.

    References
    ----------
    A. Agresti, Categorical Data Analysis, 3rd ed., Wiley (2013), chapter 3 (each
    orbit's Pearson statistic); independent chi-squares add to a chi-square on the
    summed df.

    Examples
    --------
    >>> import pandas as pd
    >>> from minestats.foundations.board import Board
    >>> rows = pd.DataFrame({"click_x": [0, 2, 0, 2], "click_y": [0, 0, 2, 2],
    ...                      "successes": [60, 55, 58, 61], "n": [100] * 4})
    >>> statistic, df, p = orbit_test(Board(3, 3, 1), rows)
    >>> round(statistic, 3), df, round(p, 3)
    (0.865, 3, 0.834)
    """
    from scipy.stats import chi2

    orbits = [click_orbit(board, x, y) for x, y in zip(rows["click_x"], rows["click_y"],
                                                        strict=True)]
    statistic, df = 0.0, 0
    for _, cells in rows.assign(orbit=orbits).groupby("orbit"):
        if len(cells) > 1:
            test = homogeneity_test(cells["successes"], cells["n"])
            statistic, df = statistic + test.statistic, df + test.df
    return statistic, df, float(chi2.sf(statistic, df)) if df else float("nan")
