"""The single-point solver, compiled with numba, for one game or a whole batch.

Each revealed number is looked at on its own: if its flags plus its hidden
neighbours equal the number, all those hidden neighbours are mines; if its flags
alone equal it, all its hidden neighbours are safe. The mine count is never used.

The kernel keeps a work list: only numbers next to a cell that changed are looked at
again. One *round* is one pass over the work list that made at least one move.
Because every move is sound and only adds knowledge, the final state does not depend
on the order of the moves.
"""

from __future__ import annotations

import numba
import numpy as np

from minestats.game import _flood, _neighbour_table, neighbour_counts
from minestats.solvers.state import GameState, unsound

__all__ = ["propagate", "single_point_batch"]


@numba.njit(cache=True, inline="always")
def _push_around(cell, counts, table, revealed, queue, queued, size):
    """Queue the revealed numbers in ``cell``'s closed neighbourhood; return the new size."""
    for t in range(table.shape[1]):
        j = table[cell, t]
        if j < 0:
            break
        if revealed[j] and counts[j] > 0 and not queued[j]:
            queued[j] = True
            queue[size] = j
            size += 1
    return size


@numba.njit(cache=True)
def _propagate(mines, counts, table, revealed, flagged, work):
    """Apply the single-point rules until they prove nothing more, on flat arrays.

    ``work`` is scratch space of shape ``(3, cells)`` (int64). Returns
    ``(rounds, bad_cell, bad_flag)``: ``bad_cell`` is -1 when every move was sound;
    otherwise the cell the solver would have opened (``bad_flag`` False) or flagged
    (``bad_flag`` True), where it stopped.
    """
    cells = mines.size
    width = table.shape[1]
    current, upcoming, opened = work[0], work[1], work[2]
    queued = np.zeros(cells, dtype=np.bool_)
    size = 0
    for cell in range(cells):
        if revealed[cell] and counts[cell] > 0:
            current[size] = cell
            size += 1
    rounds = 0
    while size > 0:
        upcoming_size = 0
        moved = False
        for k in range(size):
            cell = current[k]
            hidden = 0
            flags = 0
            for t in range(width):
                j = table[cell, t]
                if j < 0:
                    break
                if flagged[j]:
                    flags += 1
                elif not revealed[j]:
                    hidden += 1
            if hidden == 0:
                continue
            if flags + hidden == counts[cell]:
                for t in range(width):
                    j = table[cell, t]
                    if j < 0:
                        break
                    if not flagged[j] and not revealed[j]:
                        if not mines[j]:
                            return rounds, j, True
                        flagged[j] = True
                        upcoming_size = _push_around(
                            j, counts, table, revealed, upcoming, queued, upcoming_size)
                moved = True
            elif flags == counts[cell]:
                for t in range(width):
                    j = table[cell, t]
                    if j < 0:
                        break
                    if not flagged[j] and not revealed[j]:
                        if mines[j]:
                            return rounds, j, False
                        found = _flood(j, counts, table, revealed, opened)
                        for f in range(found):
                            upcoming_size = _push_around(
                                opened[f], counts, table, revealed, upcoming, queued,
                                upcoming_size)
                moved = True
        for k in range(upcoming_size):
            queued[upcoming[k]] = False
        current, upcoming = upcoming, current
        size = upcoming_size
        if moved:
            rounds += 1
    return rounds, -1, False


def propagate(state: GameState, *, solver: str = "single-point") -> int:
    """Apply the single-point rules to ``state`` in place until they stall.

    Parameters
    ----------
    state : GameState
        The game; its ``revealed`` and ``flagged`` masks are updated.
    solver : str, optional
        Name of the calling solver, used in the error message.

    Returns
    -------
    int
        Number of rounds that made a move.

    Raises
    ------
    RuntimeError
        If a move would be unsound (a bug, or a state whose flags are wrong).

    Examples
    --------
    The click opens the top two rows; (2, 1) shows 2 with two hidden neighbours, so
    both are flagged (round 1); then (0, 1) shows 1 and touches a flag, so (0, 2) is
    opened (round 2):

    >>> layout = np.array([[0, 0, 0],
    ...                    [0, 0, 0],
    ...                    [0, 1, 1]], dtype=bool)
    >>> state = GameState(layout, "corner")
    >>> propagate(state), state.solved
    (2, True)
    """
    work = np.empty((3, state.board.cells), dtype=np.int64)
    rounds, bad, flag = _propagate(
        state.mines, state.counts, state.table, state.revealed, state.flagged, work)
    if bad >= 0:
        raise unsound(solver, state.cell(bad), flag=bool(flag))
    return int(rounds)


@numba.njit(cache=True)
def _batch(layouts, counts, table, start):
    boards, cells = layouts.shape
    solved = np.zeros(boards, dtype=np.bool_)
    lost = np.zeros(boards, dtype=np.bool_)
    bad_cell = np.full(boards, -1, dtype=np.int64)
    bad_flag = np.zeros(boards, dtype=np.bool_)
    revealed = np.empty(cells, dtype=np.bool_)
    flagged = np.empty(cells, dtype=np.bool_)
    work = np.empty((3, cells), dtype=np.int64)
    for board in range(boards):
        mines = layouts[board]
        if mines[start]:
            lost[board] = True
            continue
        revealed[:] = False
        flagged[:] = False
        _flood(start, counts[board], table, revealed, work[0])
        _, bad, flag = _propagate(mines, counts[board], table, revealed, flagged, work)
        if bad >= 0:
            bad_cell[board] = bad
            bad_flag[board] = flag
            continue
        solved[board] = revealed.sum() + mines.sum() == cells
    return solved, lost, bad_cell, bad_flag


def single_point_batch(layouts: np.ndarray, start: int) -> tuple[np.ndarray, np.ndarray]:
    """Run the single-point solver on every layout of a batch, from one click.

    Parameters
    ----------
    layouts : numpy.ndarray of bool, shape (n, height, width)
        Validated layouts, all of one size.
    start : int
        Linear index of the first click.

    Returns
    -------
    solved, lost : numpy.ndarray of bool, shape (n,)
        Whether each board was finished, and whether its first click hit a mine.

    Raises
    ------
    RuntimeError
        If a move would be unsound (a bug), naming the board and the cell.

    Examples
    --------
    >>> solvable = [[0, 0, 0], [0, 0, 0], [0, 1, 1]]
    >>> lost = [[1, 0, 0], [0, 0, 0], [0, 0, 0]]
    >>> stuck = [[0, 0, 0], [0, 0, 0], [1, 0, 1]]
    >>> single_point_batch(np.array([solvable, lost, stuck], dtype=bool), 0)
    (array([ True, False, False]), array([False,  True, False]))
    """
    boards, height, width = layouts.shape
    flat = layouts.reshape(boards, height * width)
    counts = neighbour_counts(layouts).reshape(boards, height * width)
    solved, lost, bad_cell, bad_flag = _batch(
        flat, counts, _neighbour_table(width, height), start)
    wrong = np.flatnonzero(bad_cell >= 0)
    if wrong.size:
        board = int(wrong[0])
        cell = (int(bad_cell[board]) % width, int(bad_cell[board]) // width)
        raise unsound("single-point", cell, flag=bool(bad_flag[board]), board=board)
    return solved, lost
