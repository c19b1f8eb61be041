"""The subset (pair) rule, and the trivial use of the global mine count.

If the unknown cells around number A are a subset of those around number B, then
B's extra cells hold exactly rem(B) - rem(A) mines, where rem is a number minus its
flags. If that is 0 they are all safe; if it equals the number of extra cells they
are all mines (the "1-2-1" pattern). A single number is the case A = {} (its cells
are all safe when rem is 0, all mines when rem equals their count), which the
single-point rules, always applied first, already cover.

With the mine count: no mines left means every unknown cell is safe; as many mines
left as unknown cells means every unknown cell is a mine.

The pair rule is compiled. B contains A's first unknown cell, so B is a neighbour
of that cell; and A's cells lie inside B's iff each of them touches B, so no sets
are built.
"""

from __future__ import annotations

import numpy as np

from minestats.foundations.compiled import compiled
from minestats.solvers.state import CheckedGame, Moves

__all__ = ["subset_moves", "subset_rules"]


@compiled
def _touch(first, second, width):
    """Whether two distinct cells are neighbours."""
    return (abs(first % width - second % width) <= 1
            and abs(first // width - second // width) <= 1)


@compiled
def _pair_rule(counts, table, revealed, flagged, width):
    """Safe and mined masks proved by the pair rule; ``table`` is the neighbour table."""
    cells = counts.size
    hidden = np.zeros(cells, dtype=np.int64)
    left = np.zeros(cells, dtype=np.int64)
    first = np.full(cells, -1, dtype=np.int64)
    for cell in range(cells):
        if revealed[cell] and counts[cell] > 0:
            left[cell] = counts[cell]
            for t in range(table.shape[1]):
                j = table[cell, t]
                if j < 0:
                    break
                if flagged[j]:
                    left[cell] -= 1
                elif not revealed[j]:
                    hidden[cell] += 1
                    if first[cell] < 0:
                        first[cell] = j
    safe = np.zeros(cells, dtype=np.bool_)
    mine = np.zeros(cells, dtype=np.bool_)
    for small in range(cells):
        if hidden[small] == 0:
            continue
        for s in range(table.shape[1]):
            big = table[first[small], s]
            if big < 0:
                break
            if hidden[big] <= hidden[small]:
                continue
            inside = True
            for t in range(table.shape[1]):
                j = table[small, t]
                if j < 0:
                    break
                if not (flagged[j] or revealed[j]) and not _touch(j, big, width):
                    inside = False
                    break
            extra_mines = left[big] - left[small]
            if not inside or 0 < extra_mines < hidden[big] - hidden[small]:
                continue
            for t in range(table.shape[1]):
                j = table[big, t]
                if j < 0:
                    break
                if not (flagged[j] or revealed[j]) and not _touch(j, small, width):
                    if extra_mines == 0:
                        safe[j] = True
                    else:
                        mine[j] = True
    return safe, mine


@compiled
def subset_rules(numbers, table, revealed, flagged, width, use_mine_count, remaining):
    """Apply the pair rule and, with the mine count, its trivial use; compiled, flat arrays.

    ``remaining`` is the mines not flagged. Returns the cells proven safe and those
    proven mined, as sorted linear indices (`subset_moves` for a game, and the compiled
    ``logic`` solve, `minestats.solvers.logic.logic_game`, before each search).
    """
    safe, mine = _pair_rule(numbers, table, revealed, flagged, width)
    if use_mine_count:
        unknown = ~revealed & ~flagged
        if remaining == 0:
            safe |= unknown
        elif remaining == unknown.sum():
            mine |= unknown
    return np.flatnonzero(safe), np.flatnonzero(mine)


def subset_moves(state: CheckedGame, *, use_mine_count: bool) -> Moves:
    """Cells proved safe or mined by the subset rule on the current state.

    Parameters
    ----------
    state : CheckedGame
        The game; not changed.
    use_mine_count : bool
        Also apply the trivial global rule (no mines left, or only mines left).

    Returns
    -------
    Moves
        The proven cells (linear indices); both empty when the rule stalls.

    Examples
    --------
    The row y = 1 shows 1 1 1 1 above four hidden cells. The first 1 sees {8, 9}
    and the second {8, 9, 10}, so cell 10 is safe; likewise from the right, cell 9:

    >>> layout = np.array([[0, 0, 0, 0],
    ...                    [0, 0, 0, 0],
    ...                    [1, 0, 0, 1]], dtype=bool)
    >>> state = CheckedGame(layout, (1, 0))
    >>> moves = subset_moves(state, use_mine_count=False)
    >>> sorted(moves.safe), sorted(moves.mines)
    ([9, 10], [])
    """
    safe, mined = subset_rules(state.numbers, state.table, state.revealed, state.flagged,
                               state.board.width, use_mine_count, state.remaining_mines)
    return Moves(frozenset(safe.tolist()), frozenset(mined.tolist()))
