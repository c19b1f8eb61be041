"""Perfect logic over the frontier, split into independent components.

A cell is safe (a mine) iff it is safe (a mine) in every mine placement consistent
with the revealed numbers and, optionally, the total mine count.

- The *frontier* is the unknown cells next to a revealed number; each number gives
  one constraint: its unknown neighbours hold exactly ``rem`` mines.
- Frontier cells that lie in exactly the same constraints form a *group*; all cells
  of a group are alike, so only the number of mines per group is enumerated.
- Groups that share no constraint, directly or through others, form independent
  *components*. Grouping, components and the search order are compiled.
- For each component and each achievable mine total t, a compiled depth-first
  search with interval pruning records which groups can hold a mine and which can
  hold a safe cell.
- With the mine count, total t of one component is feasible iff the other components
  can reach some sum s with ``0 <= remaining - t - s <= unconstrained`` (the rest go
  to the unconstrained cells beyond the frontier); those cells are decided the same
  way from the sums of all components. Sets of sums are Python int bitsets.
- Without the mine count, every consistent component configuration is feasible and
  the unconstrained cells can never be decided.

`logic_game` is the whole solve, compiled: single-point rounds, the subset rules,
then the frontier engine's deductions (`minestats.frontier.engine.analyse_position`),
until none proves anything. ``tests/oracles/logic_reference.py`` keeps the same solve
driven from Python, one stall at a time, and ``tests/solvers/test_solvers.py`` checks that the
two reach the same states, rounds and caps.
"""

from __future__ import annotations

import numpy as np

from minestats.foundations.compiled import compiled
from minestats.frontier.engine import (
    OVER_BUDGET,
    analyse_position,
)
from minestats.mechanics.game import _flood
from minestats.solvers.single_point import propagate_single_point
from minestats.solvers.subset import subset_rules

__all__ = ["logic_batch", "logic_game"]


@compiled
def _apply(mines, numbers, table, revealed, flagged, safe, mined, opened):
    """Open the cells proven safe and flag those proven mined; the first unsound one or -1.

    Returns ``(cell, flag)``: ``cell`` -1 when every move was sound.
    """
    for cell in safe:
        if mines[cell]:
            return cell, False
        _flood(cell, numbers, table, revealed, opened)
    for cell in mined:
        if not mines[cell]:
            return cell, True
        flagged[cell] = True
    return -1, False


@compiled
def logic_game(mines, numbers, table, width, use_mine_count, budget, revealed, flagged):
    """Solve a game with perfect logic from its current state, compiled.

    The moves of `minestats.solvers.api.deduce` for ``logic``, in its order: each
    round applies the single-point rules until they stall
    (`minestats.solvers.single_point.propagate_single_point`), then the subset
    solver's pair and mine-count rules, and only where those prove nothing the
    frontier engine's search (`minestats.frontier.engine.analyse_position`, with
    ``budget``); so each search sees the position `logic_moves` would and gives up
    exactly where it would. The solve stops when a round proves nothing, when the
    search passes ``budget``, or at an unsound move (which would be a bug).

    Parameters
    ----------
    mines : numpy.ndarray of bool, shape (cells,)
        The true layout: read only to check each move, never to choose it.
    numbers : numpy.ndarray of int, shape (cells,)
    table : numpy.ndarray of int64
        The neighbour table.
    width : int
    use_mine_count : bool
    budget : int
        The frontier search's ``max_configurations`` at each stall.
    revealed, flagged : numpy.ndarray of bool, shape (cells,)
        The state after the first click, changed in place.

    Returns
    -------
    rounds : int
        Rounds that made a move, counted as `deduce` counts them.
    capped : bool
        The search passed ``budget`` at the last stall.
    bad_cell : int
        -1, or the first cell a deduction would open (``bad_flag`` False) or flag
        (True) against the layout.
    bad_flag : bool
    """
    cells = mines.size
    total = 0
    for cell in range(cells):
        total += mines[cell]
    probability = np.empty(cells)
    proven_safe = np.empty(cells, dtype=np.int64)
    proven_mine = np.empty(cells, dtype=np.int64)
    opened = np.empty(cells, dtype=np.int64)
    no_run = np.empty(0, dtype=np.int64)
    rounds = 0
    while True:
        moved, bad, flag = propagate_single_point(mines, numbers, table, revealed, flagged)
        rounds += moved
        if bad >= 0:
            return rounds, False, bad, flag
        remaining = total
        for cell in range(cells):
            remaining -= flagged[cell]
        safe, mined = subset_rules(numbers, table, revealed, flagged, width, use_mine_count,
                                   remaining)
        if safe.size + mined.size == 0:
            status, _, n_safe, n_mine = analyse_position(
                numbers, table, revealed, flagged, width, total, budget, use_mine_count,
                False, probability, proven_safe, proven_mine, no_run)
            if status == OVER_BUDGET:
                return rounds, True, -1, False
            if n_safe + n_mine == 0:
                return rounds, False, -1, False
            safe, mined = proven_safe[:n_safe], proven_mine[:n_mine]
        bad, flag = _apply(mines, numbers, table, revealed, flagged, safe, mined, opened)
        if bad >= 0:
            return rounds, False, bad, flag
        rounds += 1


@compiled
def logic_batch(layouts, counts, table, start, width, use_mine_count, budget):
    """Run `logic_game` on every layout of a batch from one click, in one compiled call.

    ``layouts`` and ``counts`` are flat, one row a board. Returns per board whether it
    was solved, capped or lost at the click, and the first unsound move (-1 for none)
    with its kind, as `minestats.solvers.single_point.single_point_batch` does.
    """
    boards, cells = layouts.shape
    solved = np.zeros(boards, dtype=np.bool_)
    capped = np.zeros(boards, dtype=np.bool_)
    lost = np.zeros(boards, dtype=np.bool_)
    bad_cell = np.full(boards, -1, dtype=np.int64)
    bad_flag = np.zeros(boards, dtype=np.bool_)
    revealed = np.empty(cells, dtype=np.bool_)
    flagged = np.empty(cells, dtype=np.bool_)
    opened = np.empty(cells, dtype=np.int64)
    for board in range(boards):
        mines = layouts[board]
        if mines[start]:
            lost[board] = True
            continue
        revealed[:] = False
        flagged[:] = False
        _flood(start, counts[board], table, revealed, opened)
        _, capped[board], bad_cell[board], bad_flag[board] = logic_game(
            mines, counts[board], table, width, use_mine_count, budget, revealed, flagged)
        solved[board] = bad_cell[board] < 0 and revealed.sum() + mines.sum() == cells
    return solved, capped, lost, bad_cell, bad_flag
