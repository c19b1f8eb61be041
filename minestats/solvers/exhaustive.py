"""Reference solver: try every placement of mines over all unknown cells.

For each subset of the unknown cells (with the mine count: only those holding
exactly the remaining mines) it checks every revealed number directly; a cell is
proven safe (a mine) iff no consistent placement mines it (leaves it safe). This is
exponential in the number of unknown cells, so it is for tiny boards only, as an
independent check of `minestats.solvers.logic`.
"""

from __future__ import annotations

import numpy as np

from minestats.foundations.compiled import compiled
from minestats.solvers.state import CheckedGame, Moves

__all__ = ["MAX_CELLS", "check_size", "exhaustive_moves"]

MAX_CELLS = 30
"""Largest board (in cells) that the exhaustive solver accepts."""


def check_size(width: int, height: int) -> None:
    """Refuse boards of more than `MAX_CELLS` cells.

    Raises
    ------
    ValueError
        If ``width * height > MAX_CELLS``.

    Examples
    --------
    >>> check_size(6, 5)
    >>> check_size(6, 6)
    Traceback (most recent call last):
    ...
    ValueError: solver 'exhaustive' takes boards of at most 30 cells; this one has 36 (6x6)
    """
    if width * height > MAX_CELLS:
        raise ValueError(
            f"solver 'exhaustive' takes boards of at most {MAX_CELLS} cells; "
            f"this one has {width * height} ({width}x{height})"
        )


@compiled
def _popcount(bits):
    count = 0
    while bits:
        bits &= bits - 1
        count += 1
    return count


@compiled
def _possible(masks, needed, unknown, remaining, use_mine_count):
    """OR of all consistent placements, and OR of their complements, as bitsets."""
    everything = (np.int64(1) << unknown) - 1
    can_mine = np.int64(0)
    can_safe = np.int64(0)
    for placement in range(np.int64(1) << unknown):
        if use_mine_count and _popcount(placement) != remaining:
            continue
        consistent = True
        for i in range(masks.size):
            if _popcount(placement & masks[i]) != needed[i]:
                consistent = False
                break
        if consistent:
            can_mine |= placement
            can_safe |= everything ^ placement
    return can_mine, can_safe


def exhaustive_moves(state: CheckedGame, *, use_mine_count: bool) -> Moves:
    """Every cell proven safe or mined, by trying all placements over the unknown cells.

    Parameters
    ----------
    state : CheckedGame
        The game; not changed.
    use_mine_count : bool
        Only placements of exactly the remaining mines count; otherwise any number.

    Returns
    -------
    Moves
        The proven cells (linear indices).

    Raises
    ------
    ValueError
        If the board has more than `MAX_CELLS` cells.

    Examples
    --------
    >>> layout = np.array([[0, 0, 0],
    ...                    [0, 0, 0],
    ...                    [0, 1, 0]], dtype=bool)
    >>> moves = exhaustive_moves(CheckedGame(layout, "corner"), use_mine_count=False)
    >>> sorted(moves.safe), sorted(moves.mines)
    ([6, 8], [7])
    """
    check_size(state.board.width, state.board.height)
    unknown = state.unknown.tolist()
    bit = {cell: 1 << position for position, cell in enumerate(unknown)}
    masks, needed = [], []
    for index in np.flatnonzero(state.revealed).tolist():
        mask, need = 0, int(state.numbers[index])
        for j in state.table[index].tolist():
            if j < 0:
                break
            if state.flagged[j]:
                need -= 1
            else:
                mask |= bit.get(j, 0)
        masks.append(mask)
        needed.append(need)
    can_mine, can_safe = _possible(
        np.array(masks, dtype=np.int64), np.array(needed, dtype=np.int64),
        len(unknown), state.remaining_mines, use_mine_count)
    safe = frozenset(cell for cell in unknown if not can_mine & bit[cell])
    mines = frozenset(cell for cell in unknown if not can_safe & bit[cell])
    return Moves(safe, mines)
