"""Layout counts of one position given that a few of its unknown cells are mines.

The player's 50/50 outlook (`minestats.players.fifty_fifty`) asks, at one position,
for dozens of small sets of cells: how many layouts mine them all, and what the mine
probability of one or two other cells is then. Analysing the position again with
the set flagged (`minestats.frontier.engine.analyse_position`) builds its frontier and
enumerates every component each time, though a set touches one or two of the
position's independent components. `variation_basis` enumerates the position
once; `chance_given_mines` re-enumerates only the components that hold a cell of the
set, with those cells taken out of their groups, reuses the counts of the others,
and combines them with the cells off the frontier as `analyse_position` does
(log-scaled binomial weights). The layouts count alike: Windows XP's weighing
(`analyse_position`'s ``run``) is not applied.

``tests/test_variations.py`` checks both against brute force and against
`analyse_position` with the set flagged.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numba
import numpy as np

from minestats.frontier.engine import (
    FITS,
    NO_FIT,
    OVER_BUDGET,
    closed_number_disagrees,
    enumerate_groups,
    frontier_groups,
    off_frontier_weights,
)

__all__ = ["FLAGGED", "OFF_FRONTIER", "REVEALED", "VariationBasis", "chance_given_mines",
           "variation_basis"]

REVEALED = -3
"""``cell_group`` of a revealed cell."""
FLAGGED = -2
"""``cell_group`` of a flagged cell."""
OFF_FRONTIER = -1
"""``cell_group`` of an unknown cell off the frontier."""


class VariationBasis(NamedTuple):
    """A position enumerated once, for `chance_given_mines` (`variation_basis`).

    ``status`` is `FITS`, `NO_FIT` or `OVER_BUDGET` (then nothing else is filled);
    ``cell_group[cell]`` the group of a frontier cell, else `OFF_FRONTIER`, `FLAGGED` or
    `REVEALED`;
    ``sizes``, ``starts``, ``members``, ``need`` and ``component_starts`` as in
    `minestats.frontier.engine.Frontier`; ``group_component[g]`` the component of
    group g; ``layouts`` and ``mined`` as in `minestats.frontier.engine.Enumeration`;
    ``free`` the unknown cells off the frontier; ``left`` the mines not flagged.
    """

    status: int
    cell_group: np.ndarray
    sizes: np.ndarray
    starts: np.ndarray
    members: np.ndarray
    need: np.ndarray
    component_starts: np.ndarray
    group_component: np.ndarray
    layouts: np.ndarray
    mined: np.ndarray
    free: int
    left: int


@numba.njit(cache=True)
def variation_basis(numbers, table, revealed, flagged, width, mines, budget):
    """Enumerate a position once, for `chance_given_mines`.

    Parameters
    ----------
    numbers : numpy.ndarray of int8, shape (cells,)
        Numbers of the cells (read only where ``revealed``).
    table : numpy.ndarray of int64
        The neighbour table (`minestats.mechanics.game.neighbour_table`).
    revealed, flagged : numpy.ndarray of bool, shape (cells,)
    width, mines : int
        Board width and total mines, flags included.
    budget : int
        Give up (status `OVER_BUDGET`) once the search visits more configurations.

    Returns
    -------
    VariationBasis
    """
    cells = revealed.size
    cell_group = np.full(cells, OFF_FRONTIER, dtype=np.int64)
    left = mines
    for cell in range(cells):
        if revealed[cell]:
            cell_group[cell] = REVEALED
        elif flagged[cell]:
            cell_group[cell] = FLAGGED
            left -= 1
    front = frontier_groups(numbers, table, revealed, flagged, width)
    status = NO_FIT if closed_number_disagrees(numbers, table, revealed, flagged) else FITS
    enumeration = enumerate_groups(front.sizes, front.starts, front.members, front.need,
                                   front.component_starts, budget)
    if enumeration.visited > budget:
        status = OVER_BUDGET
    groups = front.sizes.size
    group_component = np.empty(groups, dtype=np.int64)
    for k in range(front.component_starts.size - 1):
        group_component[front.component_starts[k]:front.component_starts[k + 1]] = k
    for g in range(groups):
        for j in range(front.cell_starts[g], front.cell_starts[g + 1]):
            cell_group[front.group_cells[j]] = g
    free = 0
    for cell in range(cells):
        if cell_group[cell] == OFF_FRONTIER:
            free += 1
    return VariationBasis(status, cell_group, front.sizes, front.starts, front.members, front.need,
                      front.component_starts, group_component, enumeration.layouts,
                      enumeration.mined, free, left)


@numba.njit(cache=True)
def _convolve_all(layouts, spans, skip):
    """Layouts per frontier mine total of every component but ``skip`` (-1: all of them)."""
    out = np.ones(1)
    for k in range(spans.size):
        if k == skip:
            continue
        row = layouts[k, :spans[k]]
        wider = np.zeros(out.size + row.size - 1)
        for a in range(out.size):
            if out[a] != 0.0:
                for b in range(row.size):
                    wider[a + b] += out[a] * row[b]
        out = wider
    return out


@numba.njit(cache=True)
def chance_given_mines(basis, given, targets, probability, budget):
    """Count the layouts that mine every cell of ``given``, and P(mine) of ``targets`` then.

    Parameters
    ----------
    basis : VariationBasis
        The position (`variation_basis`); its status is returned unless `FITS`.
    given : numpy.ndarray of int64
        Distinct cells (a flag is a mine already; a revealed cell mines no layout).
    targets : numpy.ndarray of int64
        Cells whose mine probability is wanted.
    probability : numpy.ndarray of float64, shape (targets.size,)
        Filled with P(mine) of each target given the mines (1 on a cell of ``given`` or
        a flag, NaN on a revealed cell); NaN throughout when no layout fits.
    budget : int
        The search budget of each component searched again.

    Returns
    -------
    status : int
        `FITS`, `NO_FIT` or `OVER_BUDGET` (then ``probability`` is NaN).
    log_solutions : float
        Natural log of the number of layouts that fit and mine ``given``; -inf unless
        `FITS`.

    Examples
    --------
    A 1 in the corner of a 3x2 board with 2 mines (3 * 2 layouts): given a mine at
    its neighbour 1, the other two neighbours are safe and one of the far cells 2
    and 5 is the second mine, in 2 layouts.

    >>> from minestats.mechanics.game import neighbour_table
    >>> numbers = np.array([1, 0, 0, 0, 0, 0], dtype=np.int8)
    >>> revealed = np.array([1, 0, 0, 0, 0, 0], dtype=bool)
    >>> basis = variation_basis(numbers, neighbour_table(3, 2), revealed,
    ...                           np.zeros(6, bool), 3, 2, 1000)
    >>> probability = np.empty(3)
    >>> status, log_solutions = chance_given_mines(basis, np.array([1]), np.array([3, 4, 5]),
    ...                                            probability, 1000)
    >>> status == FITS, round(math.exp(log_solutions)), probability.tolist()
    (True, 2, [0.0, 0.0, 0.5])
    """
    probability[:] = np.nan
    if basis.status != FITS:
        return basis.status, -np.inf
    cell_group, group_component = basis.cell_group, basis.group_component
    components = basis.component_starts.size - 1
    sizes, need = basis.sizes.copy(), basis.need.copy()
    searched = np.zeros(components, dtype=np.bool_)
    free, left = basis.free, basis.left
    for cell in given:
        g = cell_group[cell]
        if g == REVEALED:  # safe in every layout
            return NO_FIT, -np.inf
        if g == FLAGGED:  # mined already
            continue
        left -= 1
        if g == OFF_FRONTIER:
            free -= 1
            continue
        sizes[g] -= 1
        for k in range(basis.starts[g], basis.starts[g + 1]):
            need[basis.members[k]] -= 1
        searched[group_component[g]] = True
    if left < 0:
        return NO_FIT, -np.inf
    layouts, mined = basis.layouts, basis.mined
    if searched.any():
        layouts, mined = layouts.copy(), mined.copy()
        for k in range(components):
            if not searched[k]:
                continue
            first, last = basis.component_starts[k], basis.component_starts[k + 1]
            part = enumerate_groups(sizes[first:last], basis.starts[first:last + 1],
                                    basis.members, need, np.array([0, last - first]), budget)
            if part.visited > budget:
                return OVER_BUDGET, -np.inf
            width = part.layouts.shape[1]
            layouts[k, :] = 0.0
            layouts[k, :width] = part.layouts[0]
            mined[first:last, :] = 0.0
            mined[first:last, :width] = part.mined
    spans = np.empty(components, dtype=np.int64)
    for k in range(components):
        first, last = basis.component_starts[k], basis.component_starts[k + 1]
        spans[k] = sizes[first:last].sum() + 1
    combined = _convolve_all(layouts, spans, -1)
    ways, scale = off_frontier_weights(combined, left, free)
    if scale == -np.inf:
        return NO_FIT, -np.inf
    solutions = 0.0
    for total in range(combined.size):
        solutions += combined[total] * ways[total]
    for i in range(targets.size):
        cell = targets[i]
        g = cell_group[cell]
        if g == REVEALED:
            continue
        taken = g == FLAGGED
        for j in given:
            taken |= j == cell
        if taken:
            probability[i] = 1.0
        elif g == OFF_FRONTIER:
            share = 0.0
            for total in range(combined.size):
                if left - total > 0:
                    share += combined[total] * ways[total] * (left - total) / free
            probability[i] = share / solutions
        else:
            k = group_component[g]
            others = _convolve_all(layouts, spans, k)
            share = 0.0
            for total in range(spans[k]):
                weight = 0.0
                for j in range(others.size):
                    weight += others[j] * ways[total + j]
                share += mined[g, total] * weight
            probability[i] = share / (sizes[g] * solutions)
    return FITS, math.log(solutions) + scale
