"""The subset (pair) rule, and the trivial use of the global mine count.

If the unknown cells around number A are a subset of those around number B, then
B's extra cells hold exactly rem(B) - rem(A) mines, where rem is a number minus its
flags. If that is 0 they are all safe; if it equals the number of extra cells they
are all mines (the "1-2-1" pattern). A single number is the case A = {} (its cells
are all safe when rem is 0, all mines when rem equals their count), which the
single-point rules already cover.

With the mine count: no mines left means every unknown cell is safe; as many mines
left as unknown cells means every unknown cell is a mine.
"""

from __future__ import annotations

from collections import defaultdict

from minestats.solvers.state import GameState, Moves

__all__ = ["subset_moves"]


def subset_moves(state: GameState, constraints, *, use_mine_count: bool) -> Moves:
    """Cells proved safe or mined by the subset rule on the current state.

    Parameters
    ----------
    state : GameState
        The game; not changed.
    constraints : list of (cells, mines)
        ``state.constraints()``, computed once per stall by the caller.
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

    >>> import numpy as np
    >>> layout = np.array([[0, 0, 0, 0],
    ...                    [0, 0, 0, 0],
    ...                    [1, 0, 0, 1]], dtype=bool)
    >>> state = GameState(layout, (1, 0))
    >>> moves = subset_moves(state, state.constraints(), use_mine_count=False)
    >>> sorted(moves.safe), sorted(moves.mines)
    ([9, 10], [])
    """
    containing = defaultdict(list)
    for cells, mines in constraints:
        for cell in cells:
            containing[cell].append((frozenset(cells), mines))
    safe, mined = set(), set()
    for cells, mines in constraints:
        small = frozenset(cells)
        for big, big_mines in containing[cells[0]]:
            if len(big) <= len(small) or not small <= big:
                continue
            extra = big - small
            difference = big_mines - mines
            if difference == 0:
                safe |= extra
            elif difference == len(extra):
                mined |= extra
    if use_mine_count:
        unknown = state.unknown.tolist()
        remaining = state.remaining_mines
        if remaining == 0:
            safe.update(unknown)
        elif remaining == len(unknown):
            mined.update(unknown)
    return Moves(frozenset(safe), frozenset(mined))
