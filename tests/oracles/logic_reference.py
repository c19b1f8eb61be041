"""The ``logic`` solver driven from Python, one stall at a time: the compiled solve's reference.

`minestats.solvers.logic.logic_game` runs the whole solve in compiled code; this is the
solve as the library ran it before (a Python loop over the single-point rules, the
subset rules and, at each stall, one search of the frontier's components with the mine
count combined as Python int bitsets). ``tests/solvers/test_solvers.py`` checks that the two
reach the same states, rounds and caps.
"""

import numpy as np

from minestats.foundations.bitsets import sumset
from minestats.frontier.engine import enumerate_groups, frontier_groups
from minestats.solvers.single_point import propagate
from minestats.solvers.state import CheckedGame, Moves
from minestats.solvers.subset import subset_moves

__all__ = ["logic_moves", "reference_logic_solve"]


def _any_between(bits: int, low: int, high: int) -> bool:
    """Tell whether ``bits`` holds some value in ``[low, high]``."""
    low = max(low, 0)
    return high >= low and (bits >> low) & ((1 << (high - low + 1)) - 1) != 0


def logic_moves(state: CheckedGame, *, use_mine_count: bool, max_configurations: int) -> Moves:
    """Every cell that perfect logic proves safe or mined on the current state.

    Parameters
    ----------
    state : CheckedGame
        The game; not changed.
    use_mine_count : bool
        Require placements to use exactly the remaining mines.
    max_configurations : int
        Give up (``capped=True``) once the search has visited more configurations
        than this (partial ones included), summed over the components.

    Returns
    -------
    Moves
        The proven cells (linear indices), or empty sets with ``capped`` True.

    Examples
    --------
    Three hidden cells in the bottom row under numbers 1 1 1 (mine in the middle):
    only the centre placement fits all three numbers.

    >>> import numpy as np
    >>> layout = np.array([[0, 0, 0],
    ...                    [0, 0, 0],
    ...                    [0, 1, 0]], dtype=bool)
    >>> state = CheckedGame(layout, "corner")
    >>> moves = logic_moves(state, use_mine_count=False, max_configurations=100)
    >>> sorted(moves.safe), sorted(moves.mines), moves.capped
    ([6, 8], [7], False)

    With the mine count, cells beyond the frontier are decided too: here the one mine
    must be at the frontier cell 2, so the far cells 3 and 4 are safe.

    >>> state = CheckedGame(np.array([[0, 0, 1, 0, 0]], dtype=bool), "corner")
    >>> moves = logic_moves(state, use_mine_count=True, max_configurations=100)
    >>> sorted(moves.safe), sorted(moves.mines)
    ([3, 4], [2])
    """
    (frontier, sizes, starts, members, need, component_starts, cell_starts,
     group_cells) = frontier_groups(state.numbers, state.table, state.revealed,
                                     state.flagged, state.board.width)
    mine, safe, seen, _, _, visited = enumerate_groups(sizes, starts, members, need,
                                                       component_starts, max_configurations)
    if visited > max_configurations:
        return Moves(frozenset(), frozenset(), capped=True)
    unconstrained = np.flatnonzero(~state.revealed & ~state.flagged & ~frontier).tolist()
    remaining, free = state.remaining_mines, len(unconstrained)
    totals = [np.flatnonzero(row).tolist() for row in seen]
    feasible = seen.copy()
    if use_mine_count:
        lowest = sum(row[0] for row in totals)
        highest = sum(row[-1] for row in totals)
        if lowest < remaining - free or highest > remaining:
            # The count binds: combine the components' totals as bitsets of sums.
            limit = (1 << (remaining + 1)) - 1
            reach = [sum(1 << total for total in row) for row in totals]
            prefix, suffix = [1], [1]
            for bits in reach:
                prefix.append(sumset(prefix[-1], bits) & limit)
            for bits in reversed(reach):
                suffix.append(sumset(suffix[-1], bits) & limit)
            suffix.reverse()
            for k, row in enumerate(totals):
                others = sumset(prefix[k], suffix[k + 1])
                for total in row:
                    feasible[k, total] = _any_between(
                        others, remaining - free - total, remaining - total)

            def reachable(low, high):
                return _any_between(prefix[-1], low, high)
        else:
            # Every combination leaves between 0 and `free` mines for the unconstrained
            # cells, so all are feasible; and for the two windows asked below, which
            # contain one end of [lowest, highest] if they meet it, overlap is exact.
            def reachable(low, high):
                return low <= highest and lowest <= high
    component_of = np.repeat(np.arange(len(totals)), np.diff(component_starts))
    can_mine = (mine & feasible[component_of]).any(axis=1)
    can_safe = (safe & feasible[component_of]).any(axis=1)
    group_sizes = np.diff(cell_starts)
    safe_cells = set(group_cells[np.repeat(~can_mine, group_sizes)].tolist())
    mined = set(group_cells[np.repeat(can_mine & ~can_safe, group_sizes)].tolist())
    if use_mine_count and free:
        if not reachable(remaining - free, remaining - 1):
            safe_cells.update(unconstrained)
        elif not reachable(remaining - free + 1, remaining):
            mined.update(unconstrained)
    return Moves(frozenset(safe_cells), frozenset(mined))


def reference_logic_solve(layout, click, *, use_mine_count=True, max_configurations=200_000):
    """Solve with ``logic`` from Python; return ``(state, rounds, capped)``."""
    state = CheckedGame(layout, click)
    rounds, capped = 0, False
    while not state.lost:
        rounds += propagate(state, solver="logic")
        moves = subset_moves(state, use_mine_count=use_mine_count)
        if not (moves.safe or moves.mines):
            moves = logic_moves(state, use_mine_count=use_mine_count,
                                max_configurations=max_configurations)
        capped = moves.capped
        if capped or not (moves.safe or moves.mines):
            break
        state.open_proven(sorted(moves.safe))
        state.flag_proven(sorted(moves.mines))
        rounds += 1
    return state, rounds, capped
