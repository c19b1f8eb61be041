"""Layout counts of one position given that a few of its cells are mines, or one is revealed.

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

The player's outlook of a candidate asks the same of the position with the
candidate revealed and showing each number it can: `reveal_variation` splits and
merges only the components next to it, and `chance_given_reveal` searches that one
again and combines it with the others' counts (`minestats.frontier.engine.combine_components`).

``tests/frontier/test_variations.py`` checks them against brute force and against
`analyse_position` on the varied position.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from minestats.foundations.compiled import compiled
from minestats.frontier.engine import (
    FITS,
    NO_FIT,
    OVER_BUDGET,
    Frontier,
    closed_number_disagrees,
    combine_components,
    component_totals,
    convolve_counts,
    enumerate_groups,
    frontier_groups,
    off_frontier_weights,
)

__all__ = ["FLAGGED", "OFF_FRONTIER", "REVEALED", "Reveal", "VariationBasis", "chance_given_mines",
           "chance_given_reveal", "reveal_variation", "variation_basis"]

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
    ``free`` the unknown cells off the frontier; ``left`` the mines not flagged;
    ``frontier``, ``cell_starts`` and ``group_cells`` as in `Frontier`;
    ``spans[k]`` the mine totals component k can take (its cells + 1), ``combined``
    the layouts per frontier mine total of all components together and
    ``excluded[k]`` those of all but component k (its first
    ``combined.size - spans[k] + 1`` entries).
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
    frontier: np.ndarray
    cell_starts: np.ndarray
    group_cells: np.ndarray
    spans: np.ndarray
    combined: np.ndarray
    excluded: np.ndarray


@compiled
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
    spans, combined, excluded = component_totals(front.sizes, front.component_starts,
                                                 enumeration.layouts)
    return VariationBasis(status, cell_group, front.sizes, front.starts, front.members, front.need,
                          front.component_starts, group_component, enumeration.layouts,
                          enumeration.mined, free, left, front.frontier, front.cell_starts,
                          front.group_cells, spans, combined, excluded)


@compiled
def _convolve_all(layouts, spans, skip):
    """Layouts per frontier mine total of every component but ``skip`` (-1: all of them)."""
    out = np.ones(1)
    for k in range(spans.size):
        if k != skip:
            out = convolve_counts(out, layouts[k, :spans[k]])
    return out


@compiled
def _excluded(basis, k):
    """Return the layouts per frontier mine total of all of the basis's components but ``k``."""
    return basis.excluded[k, :basis.combined.size - basis.spans[k] + 1]


@compiled
def _replaced(basis, k, row, part_mined):
    """Return the basis's ``layouts`` and ``mined`` with component ``k`` counted again."""
    layouts, mined = basis.layouts.copy(), basis.mined.copy()
    first, last = basis.component_starts[k], basis.component_starts[k + 1]
    layouts[k, :] = 0.0
    layouts[k, :row.size] = row
    mined[first:last, :] = 0.0
    mined[first:last, :part_mined.shape[1]] = part_mined
    return layouts, mined


@compiled
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
    # One component searched again (the usual case): the others' counts combined are in
    # the basis. Several: each searched one replaced in copies of the counts.
    chosen = np.flatnonzero(searched)
    single = chosen[0] if chosen.size == 1 else -1
    layouts, mined = basis.layouts, basis.mined
    replaced = chosen.size > 1
    if replaced:
        layouts, mined = layouts.copy(), mined.copy()
    spans = basis.spans.copy()
    row, part_mined = np.ones(1), basis.mined[:0]
    for k in chosen:
        first, last = basis.component_starts[k], basis.component_starts[k + 1]
        part = enumerate_groups(sizes[first:last], basis.starts[first:last + 1],
                                basis.members, need, np.array([0, last - first]), budget)
        if part.visited > budget:
            return OVER_BUDGET, -np.inf
        spans[k] = part.layouts.shape[1]
        if replaced:
            layouts[k, :] = 0.0
            layouts[k, :spans[k]] = part.layouts[0]
            mined[first:last, :] = 0.0
            mined[first:last, :spans[k]] = part.mined
        else:
            row, part_mined = part.layouts[0], part.mined
    if chosen.size == 0:
        combined = basis.combined
    elif single >= 0:
        combined = convolve_counts(_excluded(basis, single), row)
    else:
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
            group_mined = mined[g]
            if k == single:
                others = _excluded(basis, k)
                group_mined = part_mined[g - basis.component_starts[k]]
            elif chosen.size == 0:
                others = _excluded(basis, k)
            else:
                if not replaced:
                    layouts, mined = _replaced(basis, single, row, part_mined)
                    replaced = True
                others = _convolve_all(layouts, spans, k)
                group_mined = mined[g]
            share = 0.0
            for total in range(spans[k]):
                weight = 0.0
                for j in range(others.size):
                    weight += others[j] * ways[total + j]
                share += group_mined[total] * weight
            probability[i] = share / (sizes[g] * solutions)
    return FITS, math.log(solutions) + scale


class Reveal(NamedTuple):
    """A position with one more cell revealed, its number not yet set (`reveal_variation`).

    ``front`` is the frontier of the position with ``cell`` revealed: first the
    components the cell does not touch, as in the basis, with their counts already
    in ``layouts`` and ``mined``; then, from group ``first`` on (none when ``first``
    is the number of groups), one component that is searched again: the components
    that hold the cell or one of its unknown neighbours, merged by the cell's number,
    each of their groups split into the cells beside the cell and the others, and
    the neighbours that were off the frontier as a group of their own. The cell's
    number is the constraint ``constraint`` (-1 when the cell has no unknown
    neighbour, ``hidden`` of them), which needs the number less ``flags``.
    ``opened``, ``flagged``, ``left`` and ``free`` describe the position with the cell
    revealed as for `minestats.frontier.engine.combine_components`.
    """

    cell: int
    flags: int
    hidden: int
    constraint: int
    first: int
    front: Frontier
    layouts: np.ndarray
    mined: np.ndarray
    opened: np.ndarray
    flagged: np.ndarray
    left: int
    free: int


@compiled
def reveal_variation(basis, table, cell):
    """Prepare the position of ``basis`` with ``cell`` revealed, for `chance_given_reveal`.

    Parameters
    ----------
    basis : VariationBasis
        The position (`variation_basis`), with status `FITS`.
    table : numpy.ndarray of int64
        The neighbour table.
    cell : int
        An unknown cell of the position.

    Returns
    -------
    Reveal
    """
    cell_group, group_component = basis.cell_group, basis.group_component
    components, groups = basis.component_starts.size - 1, basis.sizes.size
    cells = cell_group.size
    beside = np.zeros(cells, dtype=np.bool_)
    merged = np.zeros(components, dtype=np.bool_)
    flags = hidden = outside = 0
    for t in range(table.shape[1]):
        j = table[cell, t]
        if j < 0:
            break
        g = cell_group[j]
        if j == cell or g == REVEALED:
            continue
        if g == FLAGGED:
            flags += 1
            continue
        beside[j] = True
        hidden += 1
        if g == OFF_FRONTIER:
            outside += 1
        else:
            merged[group_component[g]] = True
    own = cell_group[cell]
    if own >= 0:
        merged[group_component[own]] = True
    constraint = basis.need.size if hidden else -1
    most = 2 * groups + 1  # a merged group splits in two; the new neighbours make one more
    sizes = np.empty(most, dtype=np.int64)
    starts = np.zeros(most + 1, dtype=np.int64)
    members = np.empty(2 * basis.members.size + most, dtype=np.int64)
    cell_starts = np.zeros(most + 1, dtype=np.int64)
    group_cells = np.empty(basis.group_cells.size + outside, dtype=np.int64)
    component_starts = np.zeros(components + 2, dtype=np.int64)
    width = basis.layouts.shape[1] + outside
    layouts = np.zeros((components + 1, width))
    mined = np.zeros((most, width))
    added = filled = placed = kept = 0
    for k in range(components):  # the components the cell leaves alone, copied
        if merged[k]:
            continue
        for g in range(basis.component_starts[k], basis.component_starts[k + 1]):
            sizes[added] = basis.sizes[g]
            for m in range(basis.starts[g], basis.starts[g + 1]):
                members[filled] = basis.members[m]
                filled += 1
            starts[added + 1] = filled
            for i in range(basis.cell_starts[g], basis.cell_starts[g + 1]):
                group_cells[placed] = basis.group_cells[i]
                placed += 1
            cell_starts[added + 1] = placed
            mined[added, :basis.mined.shape[1]] = basis.mined[g]
            added += 1
        layouts[kept, :basis.layouts.shape[1]] = basis.layouts[k]
        kept += 1
        component_starts[kept] = added
    first = added
    for g in range(groups):  # the groups of the merged components, split by the cell
        if not merged[group_component[g]]:
            continue
        for next_to_cell in (False, True):
            count = 0
            for i in range(basis.cell_starts[g], basis.cell_starts[g + 1]):
                j = basis.group_cells[i]
                if j != cell and beside[j] == next_to_cell:
                    group_cells[placed] = j
                    placed += 1
                    count += 1
            if next_to_cell and count == 0:
                continue
            # The part away from the cell is kept even when empty: it carries the group's
            # numbers, which may have had no other unknown neighbour than the cell.
            sizes[added] = count
            for m in range(basis.starts[g], basis.starts[g + 1]):
                members[filled] = basis.members[m]
                filled += 1
            if next_to_cell:
                members[filled] = constraint
                filled += 1
            starts[added + 1] = filled
            cell_starts[added + 1] = placed
            added += 1
    if outside:
        for j in range(cells):
            if beside[j] and cell_group[j] == OFF_FRONTIER:
                group_cells[placed] = j
                placed += 1
        sizes[added] = outside
        members[filled] = constraint
        filled += 1
        starts[added + 1] = filled
        cell_starts[added + 1] = placed
        added += 1
    if added > first:
        kept += 1
        component_starts[kept] = added
    need = np.zeros(basis.need.size + 1, dtype=np.int64)
    need[:basis.need.size] = basis.need
    frontier = basis.frontier.copy()
    frontier[cell] = False
    frontier |= beside
    front = Frontier(frontier, sizes[:added], starts[:added + 1], members[:filled], need,
                     component_starts[:kept + 1], cell_starts[:added + 1], group_cells[:placed])
    opened = cell_group == REVEALED
    opened[cell] = True
    free = basis.free - outside - (1 if own == OFF_FRONTIER else 0)
    return Reveal(cell, flags, hidden, constraint, first, front, layouts[:kept], mined[:added],
                  opened, cell_group == FLAGGED, basis.left, free)


@compiled
def chance_given_reveal(reveal, value, probability, budget):
    """Count the layouts in which the cell of ``reveal`` shows ``value``, and P(mine) then.

    The layouts of the position with the cell revealed and showing ``value``: only
    the component the cell touches is searched again (`reveal_variation`). The
    same numbers as `minestats.frontier.engine.analyse_position` on that position
    (the layouts counted alike).

    Parameters
    ----------
    reveal : Reveal
        The position with the cell revealed (`reveal_variation`); each call overwrites
        its number and the counts of its searched component.
    value : int
        The number the cell shows.
    probability : numpy.ndarray of float64, shape (cells,)
        Filled with P(mine) of every cell (NaN on revealed cells, 1 on flags) when
        layouts fit.
    budget : int
        The search budget of the component searched again.

    Returns
    -------
    status : int
        `FITS`, `NO_FIT` or `OVER_BUDGET`.
    log_solutions : float
        Natural log of the number of layouts that fit with the cell showing ``value``;
        -inf unless `FITS`.

    Examples
    --------
    A 1 in the corner of a 3x2 board with 2 mines (6 layouts: its mine at 1, 3 or 4,
    the other at 2 or 5). Opening the far cell 5 shows 2 when the other mine is at 2
    and the 1's at 1 or 4 (2 layouts): then 1 and 4 are even, 2 is a mine, 3 is safe.

    >>> from minestats.mechanics.game import neighbour_table
    >>> numbers = np.array([1, 0, 0, 0, 0, 0], dtype=np.int8)
    >>> revealed = np.array([1, 0, 0, 0, 0, 0], dtype=bool)
    >>> table = neighbour_table(3, 2)
    >>> basis = variation_basis(numbers, table, revealed, np.zeros(6, bool), 3, 2, 1000)
    >>> reveal = reveal_variation(basis, table, 5)
    >>> probability = np.empty(6)
    >>> status, log_solutions = chance_given_reveal(reveal, 2, probability, 1000)
    >>> status == FITS, round(math.exp(log_solutions)), probability.tolist()
    (True, 2, [nan, 0.5, 1.0, 0.0, 0.5, nan])
    """
    front = reveal.front
    number = value - reveal.flags
    if number < 0 or number > reveal.hidden:
        probability[:] = np.nan
        return NO_FIT, -np.inf
    if reveal.constraint >= 0:
        front.need[reveal.constraint] = number
    groups, first = front.sizes.size, reveal.first
    layouts, mined = reveal.layouts, reveal.mined
    if first < groups:
        part = enumerate_groups(front.sizes[first:], front.starts[first:], front.members,
                                front.need, np.array([0, groups - first]), budget)
        if part.visited > budget:
            probability[:] = np.nan
            return OVER_BUDGET, -np.inf
        width = part.layouts.shape[1]
        layouts[-1, :] = 0.0
        layouts[-1, :width] = part.layouts[0]
        mined[first:, :] = 0.0
        mined[first:, :width] = part.mined
    return combine_components(front, reveal.opened, reveal.flagged, reveal.left, reveal.free,
                              layouts, mined, np.empty(0, dtype=np.int64), probability)
