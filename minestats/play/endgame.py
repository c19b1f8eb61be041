"""The exact end game: once few layouts fit a position, play it perfectly.

When the layouts consistent with what a player sees are few, every one of them is
listed (`consistent_layouts`) and the position is solved by the same exact
recursion as `minestats.play.optimal` (`LayoutSolver`, every layout weighted
alike, as the player assumes): `endgame_move` returns the cells that maximise
the probability of winning from here on, and that probability.

Both steps are bounded: listing gives up past `ENDGAME_LAYOUTS` layouts or
`LISTING_BUDGET` partial configurations, and the search past `SEARCH_BUDGET`
solved states; the caller then guesses by its heuristic instead.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from fractions import Fraction
from itertools import combinations, product
from typing import NamedTuple

import numpy as np

from minestats.inference.probabilities import closed_number_disagrees
from minestats.play.optimal import LayoutSolver, SearchBudgetExceeded
from minestats.solvers.logic import frontier_groups

__all__ = ["CACHE_SIZE", "ENDGAME_LAYOUTS", "LISTING_BUDGET", "SEARCH_BUDGET", "EndgameMove",
           "consistent_layouts", "endgame_move"]

ENDGAME_LAYOUTS = 750
"""Most consistent layouts for which the end game is searched exactly."""
LISTING_BUDGET = 50_000
"""Most partial configurations `consistent_layouts` visits before giving up."""
SEARCH_BUDGET = 20_000
"""Most states the exact search solves before giving up."""
CACHE_SIZE = 20_000
"""Most positions `endgame_move` remembers (per process)."""

_CACHE: OrderedDict = OrderedDict()


class EndgameMove(NamedTuple):
    """The best cells to open (linear indices, safest first) and the exact chance of winning."""

    cells: tuple[int, ...]
    win_probability: Fraction


class _TooMany(Exception):
    """The listing passed its layout limit or its budget."""


def _group_configurations(sizes, starts, members, need, left, free, budget):
    """Mines per group for every consistent configuration: list of (values, mines left over).

    A depth-first search over the groups in order, each given a mine count within the
    bounds its constraints leave (as in `minestats.solvers.logic.enumerate_groups`),
    pruned by the mine count: the mines left over must fit the ``free`` cells.
    """
    groups = len(sizes)
    need = list(need)
    room = [0] * len(need)
    for g in range(groups):
        for k in range(starts[g], starts[g + 1]):
            room[members[k]] += sizes[g]
    capacity = np.append(np.cumsum(np.asarray(sizes)[::-1])[::-1], 0).tolist()
    values = [0] * groups
    found = []
    visited = 0

    def search(g, total):
        nonlocal visited
        if g == groups:
            found.append((tuple(values), left - total))
            return
        if total + capacity[g] < left - free:  # too few mines can still be placed
            return
        mine_constraints = members[starts[g]:starts[g + 1]]
        for c in mine_constraints:
            room[c] -= sizes[g]
        low = max([0, *(need[c] - room[c] for c in mine_constraints)])
        high = min([sizes[g], left - total, *(need[c] for c in mine_constraints)])
        for value in range(low, high + 1):
            visited += 1
            if visited > budget:
                raise _TooMany
            for c in mine_constraints:
                need[c] -= value
            values[g] = value
            search(g + 1, total + value)
            for c in mine_constraints:
                need[c] += value
        for c in mine_constraints:
            room[c] += sizes[g]

    search(0, 0)
    return found


def consistent_layouts(numbers, table, revealed, flagged, width, mines, *,
                       limit=ENDGAME_LAYOUTS, budget=LISTING_BUDGET):
    """Every layout of the unknown cells that fits a position, or None if too many.

    Parameters
    ----------
    numbers : numpy.ndarray of int8, shape (cells,)
        Numbers of the cells (read only where ``revealed``).
    table : numpy.ndarray of int64
        The neighbour table (`minestats.game.neighbour_table`).
    revealed, flagged : numpy.ndarray of bool, shape (cells,)
    width : int
        Board width.
    mines : int
        Total mines, flags included.
    limit : int, optional
        Return None when more layouts than this fit.
    budget : int, optional
        Return None once the search visits more partial configurations.

    Returns
    -------
    unknown : numpy.ndarray of int64
        The unknown cells (neither revealed nor flagged), the columns of ``layouts``.
    layouts : numpy.ndarray of bool, shape (L, len(unknown))
        One row per layout that fits (a mine is True); no rows when none fits.

    Or None, past ``limit`` or ``budget``.

    Examples
    --------
    A 1 in the corner of a 3x2 board with 2 mines: one mine among its 3 neighbours,
    one among the 2 far cells, so 6 layouts.

    >>> from minestats.game import neighbour_table
    >>> numbers = np.array([1, 0, 0, 0, 0, 0], dtype=np.int8)
    >>> revealed = np.array([1, 0, 0, 0, 0, 0], dtype=bool)
    >>> unknown, layouts = consistent_layouts(numbers, neighbour_table(3, 2), revealed,
    ...                                       np.zeros(6, dtype=bool), 3, 2)
    >>> unknown.tolist(), layouts.shape, layouts.sum(axis=0).tolist()
    ([1, 2, 3, 4, 5], (6, 5), [2, 3, 2, 2, 3])
    """
    unknown = np.flatnonzero(~revealed & ~flagged)
    if closed_number_disagrees(numbers, table, revealed, flagged):
        return unknown, np.zeros((0, unknown.size), dtype=bool)
    (frontier, sizes, starts, members, need, _, cell_starts,
     group_cells) = frontier_groups(numbers, table, revealed, flagged, width)
    free = np.flatnonzero(~revealed & ~flagged & ~frontier)
    left = mines - int(flagged.sum())
    sizes_list = sizes.tolist()
    try:
        found = _group_configurations(sizes_list, starts.tolist(), members.tolist(),
                                      need.tolist(), left, free.size, budget)
    except _TooMany:
        return None
    total = sum(math.prod(math.comb(s, v) for s, v in zip(sizes_list, values, strict=True))
                * math.comb(free.size, rest) for values, rest in found)
    if total > limit:
        return None
    column = np.full(revealed.size, -1)
    column[unknown] = np.arange(unknown.size)
    group_columns = [column[group_cells[cell_starts[g]:cell_starts[g + 1]]].tolist()
                     for g in range(len(sizes_list))]
    free_columns = column[free].tolist()
    layouts = np.zeros((total, unknown.size), dtype=bool)
    row = 0
    for values, rest in found:
        choices = [combinations(cells, v) for cells, v in zip(group_columns, values,
                                                               strict=True)]
        for picked in product(*choices, combinations(free_columns, rest)):
            for cells in picked:
                layouts[row, list(cells)] = True
            row += 1
    return unknown, layouts


def _numbers_table(table, flagged, unknown, layouts) -> np.ndarray:
    """``L x U`` int8: each unknown cell's number in each layout, -1 for a mine."""
    column = np.full(flagged.size + 1, -1)
    column[unknown] = np.arange(unknown.size)
    neighbours = table[unknown]
    adjacency = np.zeros((unknown.size, unknown.size), dtype=np.int16)
    rows, slots = np.nonzero(neighbours >= 0)
    targets = column[neighbours[rows, slots]]
    keep = (targets >= 0) & (targets != rows)
    adjacency[targets[keep], rows[keep]] = 1
    flags_around = np.append(flagged, False)[np.where(neighbours >= 0, neighbours,
                                                      flagged.size)].sum(axis=1)
    counts = layouts.astype(np.int16) @ adjacency + flags_around
    counts[layouts] = -1
    return counts.astype(np.int8)


def endgame_move(numbers, table, revealed, flagged, width, mines, *,
                 limit=ENDGAME_LAYOUTS, budget=SEARCH_BUDGET) -> EndgameMove | None:
    """Return the cells an optimal player may open next, when few enough layouts fit.

    Every layout that fits the position is taken as equally likely (true under the
    ``uniform``, ``safe-click`` and ``safe-opening`` rules once the first click is
    open). Cells are compared by their exact win probability; every cell of the
    highest is returned, the safest first, so that a caller can break ties by its
    own rule. Answers are memoised per position (at most `CACHE_SIZE` of them, the
    least recently used dropped first), which makes small boards, whose games
    meet the same positions again and again, many times faster; the answer does
    not depend on what was memoised before.

    Parameters
    ----------
    numbers, table, revealed, flagged, width, mines
        The position, as for `consistent_layouts`.
    limit : int, optional
        Most layouts to search (`ENDGAME_LAYOUTS`).
    budget : int, optional
        Most states the search may solve (`SEARCH_BUDGET`).

    Returns
    -------
    EndgameMove or None
        None when more than ``limit`` layouts fit, the listing or the search passes
        its budget, no layout fits, or nothing is left to open.

    Examples
    --------
    A 1 in the corner of a 3x2 board with 2 mines. The best line wins 1/3 of the
    time, starting from (1, 0), (1, 1), (2, 0) or (2, 1); opening (0, 1) first
    does worse.

    >>> from minestats.game import neighbour_table
    >>> numbers = np.array([1, 0, 0, 0, 0, 0], dtype=np.int8)
    >>> revealed = np.array([1, 0, 0, 0, 0, 0], dtype=bool)
    >>> move = endgame_move(numbers, neighbour_table(3, 2), revealed,
    ...                     np.zeros(6, dtype=bool), 3, 2)
    >>> move.win_probability, sorted(move.cells)
    (Fraction(1, 3), [1, 2, 4, 5])
    """
    key = (np.where(revealed, numbers, -1).astype(np.int8).tobytes(), flagged.tobytes(),
           width, mines, limit, budget)
    if key in _CACHE:
        _CACHE.move_to_end(key)
        return _CACHE[key]
    move = _solve_endgame(numbers, table, revealed, flagged, width, mines, limit=limit,
                          budget=budget)
    _CACHE[key] = move
    if len(_CACHE) > CACHE_SIZE:
        _CACHE.popitem(last=False)
    return move


def _solve_endgame(numbers, table, revealed, flagged, width, mines, *, limit, budget):
    listed = consistent_layouts(numbers, table, revealed, flagged, width, mines,
                                limit=limit)
    if listed is None:
        return None
    unknown, layouts = listed
    if len(layouts) == 0 or unknown.size == 0:
        return None
    counts = _numbers_table(table, flagged, unknown, layouts)
    if len(layouts) == 1:  # nothing uncertain: any safe cell wins
        safe = np.flatnonzero(counts[0] >= 0)
        return EndgameMove(tuple(unknown[safe].tolist()), Fraction(1)) if safe.size else None
    solver = LayoutSolver(counts, budget=budget)
    states = np.arange(len(layouts), dtype=np.int32)
    differs = np.flatnonzero((counts != counts[0]).any(axis=0))
    try:
        wins, columns = solver.best_openings(states, counts, differs)
    except SearchBudgetExceeded:
        return None
    if not columns:
        return None
    return EndgameMove(tuple(unknown[columns].tolist()), Fraction(wins, len(layouts)))
