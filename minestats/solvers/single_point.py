"""The single-point solver, compiled with numba, for one game or a whole batch.

Each revealed number is looked at on its own: if its flags plus its hidden
neighbours equal the number, all those hidden neighbours are mines; if its flags
alone equal it, all its hidden neighbours are safe. The mine count is never used.

The kernel keeps, for every cell, the number of its unknown and of its flagged
neighbours, updated as cells are opened or flagged; a number is queued as soon as
its rule can move. One *round* is one pass over the queue that made at least one
move.
Because every move is sound and only adds knowledge, the final state does not depend
on the order of the moves.
"""

from __future__ import annotations

import numpy as np

from minestats.foundations.compiled import compiled
from minestats.mechanics.game import _flood, neighbour_counts, neighbour_table
from minestats.solvers.state import CheckedGame, unsound

__all__ = ["propagate", "propagate_single_point", "single_point_batch"]


@compiled
def _can_move(hidden, flags, number):
    """Whether a revealed number with these unknown and flagged neighbours can move."""
    return (hidden > 0) & ((flags == number) | (flags + hidden == number))


@compiled
def _run(mines, counts, table, revealed, flagged, hidden, flags, queued,
         queues, size, changed, n_changed):
    """Apply the single-point rules until they prove nothing more, on flat arrays.

    ``hidden`` and ``flags`` count every cell's unknown and flagged neighbours as of
    the state before the ``changed[:n_changed]`` cells were opened or flagged;
    ``queues`` has two rows, the generation being worked through and the next one,
    whose first ``size`` entries (row 1) are numbers already queued. The loop makes
    no array views and passes arrays to no function but `_flood`: in numba each
    costs reference counting, which dominated the run time. Where a cell's state
    would choose a branch (queue a neighbour or not, flag a neighbour or not) the
    loop writes the entry anyway and advances its end by the condition, which the
    processor cannot mispredict. So ``queues`` and ``changed`` hold one entry more
    than the board has cells: on a board without mines every cell can be queued at
    once (its counters still count neighbours whose opening is not yet counted), and
    the next write then lands on that spare entry.

    Returns ``(rounds, bad_cell, bad_flag)``: ``bad_cell`` is -1 when every move was
    sound; otherwise the cell the solver would have opened (``bad_flag`` False) or
    flagged (``bad_flag`` True), where it stopped.
    """
    rounds = 0
    now = 0  # row of queues holding the current generation; 1 - now is the next
    taken = 0  # numbers of the current generation already acted on
    pending = 0  # numbers of the current generation
    moved = False
    while True:
        # Update the counters around each changed cell and queue numbers that can move.
        for i in range(n_changed):
            cell = changed[i]
            mine = flagged[cell]
            for t in range(table.shape[1]):
                j = table[cell, t]
                if j < 0:
                    break
                # Without branches on the cell's state: the next entry of the queue is
                # written every time and kept only if the number can move.
                neighbour = j != cell
                hidden[j] -= neighbour
                flags[j] += mine & neighbour
                can_move = revealed[j] & (not queued[j]) & _can_move(hidden[j], flags[j],
                                                                       counts[j])
                queued[j] |= can_move
                queues[1 - now, size] = j
                size += can_move
        n_changed = 0
        if taken == pending:
            if moved:
                rounds += 1
            moved = False
            if size == 0:
                return rounds, -1, False
            now = 1 - now
            pending, taken, size = size, 0, 0
        cell = queues[now, taken]
        taken += 1
        queued[cell] = False
        if not _can_move(hidden[cell], flags[cell], counts[cell]):
            continue
        to_flag = flags[cell] + hidden[cell] == counts[cell]
        moved = True
        for t in range(table.shape[1]):
            j = table[cell, t]
            if j < 0:
                break
            unknown = not (flagged[j] | revealed[j])
            if unknown & (mines[j] != to_flag):
                return rounds, j, to_flag
            if to_flag:
                flagged[j] |= unknown
                changed[n_changed] = j
                n_changed += unknown
            elif unknown:
                n_changed = _flood(j, counts, table, revealed, changed, n_changed)


@compiled
def propagate_single_point(mines, counts, table, revealed, flagged):
    """Apply the single-point rules from any state, compiled: count, queue, run.

    Works on a game's flat arrays, changed in place; returns ``(rounds, cell, flag)``,
    with ``cell`` -1 when every move was sound, else the first cell the rules would
    open (``flag`` False) or flag (``flag`` True) against the layout ``mines``.
    Perfect logic (`minestats.solvers.logic.logic_game`) calls it before each full
    analysis; the compiled player keeps its own plain scan
    (`minestats.players.kernel`).
    """
    cells = mines.size
    hidden = np.zeros(cells, dtype=np.int8)
    flags = np.zeros(cells, dtype=np.int8)
    for cell in range(cells):
        for t in range(table.shape[1]):
            j = table[cell, t]
            if j < 0:
                break
            if j != cell:
                flags[cell] += flagged[j]
                hidden[cell] += not (flagged[j] or revealed[j])
    queued = revealed & (hidden > 0) & ((flags == counts) | (flags + hidden == counts))
    queues = np.zeros((2, cells + 1), dtype=np.int64)
    ready = np.flatnonzero(queued)
    queues[1, : ready.size] = ready
    return _run(mines, counts, table, revealed, flagged, hidden, flags, queued,
                queues, ready.size, np.zeros(cells + 1, dtype=np.int64), 0)


def propagate(state: CheckedGame, *, solver: str = "single-point") -> int:
    """Apply the single-point rules to ``state`` in place until they stall.

    Parameters
    ----------
    state : CheckedGame
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
    >>> state = CheckedGame(layout, "corner")
    >>> propagate(state), state.won
    (2, True)
    """
    rounds, bad, flag = propagate_single_point(
        state.mines, state.numbers, state.table, state.revealed, state.flagged)
    if bad >= 0:
        raise unsound(solver, state.cell(bad), flag=bool(flag))
    return int(rounds)


@compiled
def _batch(layouts, counts, table, start):
    boards, cells = layouts.shape
    solved = np.zeros(boards, dtype=np.bool_)
    lost = np.zeros(boards, dtype=np.bool_)
    bad_cell = np.full(boards, -1, dtype=np.int64)
    bad_flag = np.zeros(boards, dtype=np.bool_)
    revealed = np.empty(cells, dtype=np.bool_)
    flagged = np.empty(cells, dtype=np.bool_)
    queued = np.zeros(cells, dtype=np.bool_)
    hidden = np.empty(cells, dtype=np.int8)
    flags = np.empty(cells, dtype=np.int8)
    queues = np.empty((2, cells + 1), dtype=np.int64)
    changed = np.empty(cells + 1, dtype=np.int64)
    degree = (table >= 0).sum(axis=1) - 1
    for board in range(boards):
        mines = layouts[board]
        if mines[start]:
            lost[board] = True
            continue
        revealed[:] = False
        flagged[:] = False
        hidden[:] = degree
        flags[:] = 0
        found = _flood(start, counts[board], table, revealed, changed)
        _, bad, flag = _run(mines, counts[board], table, revealed, flagged, hidden, flags,
                            queued, queues, 0, changed, found)
        if bad >= 0:
            bad_cell[board] = bad
            bad_flag[board] = flag
            queued[:] = False
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
        flat, counts, neighbour_table(width, height), start)
    wrong = np.flatnonzero(bad_cell >= 0)
    if wrong.size:
        board = int(wrong[0])
        cell = (int(bad_cell[board]) % width, int(bad_cell[board]) // width)
        raise unsound("single-point", cell, flag=bool(bad_flag[board]), board=board)
    return solved, lost
