"""A game in progress on a known layout, as the solvers see and change it.

The solvers see only what a player sees: the revealed numbers, their own flags and
the total mine count. The true layout is kept here only to check every move as it
is made: opening a mine or flagging a safe cell is a solver bug and raises.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np

from minestats.board import Board
from minestats.game import _flood, _neighbour_table, neighbour_counts

__all__ = ["GameState", "Moves", "unsound"]


class Moves(NamedTuple):
    """Cells a deduction step proved safe and proved mined (linear indices).

    ``capped`` is True when the step gave up because its enumeration cap was hit.
    """

    safe: frozenset
    mines: frozenset
    capped: bool = False


def unsound(solver: str, cell: tuple[int, int], *, flag: bool, board=None) -> RuntimeError:
    """Build the error for an unsound move: opening a mine, or flagging a safe cell.

    Examples
    --------
    >>> unsound("logic", (3, 4), flag=True)
    RuntimeError("solver 'logic' would flag cell (3, 4), which is safe")
    """
    move, truth = ("flag", "safe") if flag else ("open", "a mine")
    where = "" if board is None else f" on board {board} of the batch"
    return RuntimeError(f"solver {solver!r} would {move} cell {cell}{where}, which is {truth}")


@lru_cache(maxsize=64)
def _open_neighbour_table(width: int, height: int) -> np.ndarray:
    """Each cell's up-to-8 neighbours (itself left out), padded with the index ``cells``."""
    cells = width * height
    table = _neighbour_table(width, height)
    around = np.full((cells, 8), cells, dtype=np.int64)
    for index, row in enumerate(table):
        neighbours = row[(row >= 0) & (row != index)]
        around[index, : neighbours.size] = neighbours
    around.setflags(write=False)
    return around


class GameState:
    """The board after a first click: revealed cells, flags, numbers.

    Parameters
    ----------
    layout : numpy.ndarray of bool, shape (height, width)
        The true layout (already validated).
    click : tuple of int or str
        The first click, resolved like `Board.resolve_click`.

    Attributes
    ----------
    board : Board
        Size and mine count of the layout.
    click : tuple of int
        The resolved first click ``(x, y)``.
    lost : bool
        True if the first click hit a mine (then only that cell is revealed).
    revealed, flagged : numpy.ndarray of bool, shape (cells,)
        Flat masks, updated in place by `open` and `flag`.
    around : numpy.ndarray of int, shape (cells, 8)
        Each cell's neighbours in ascending order, padded with ``cells``.

    Examples
    --------
    >>> layout = np.array([[0, 0, 0, 1]], dtype=bool)
    >>> state = GameState(layout, "corner")
    >>> state.revealed.astype(int), state.unknown
    (array([1, 1, 1, 0]), array([3]))
    >>> state.flag([3], solver="demo")
    >>> state.solved, state.remaining_mines
    (True, 0)
    """

    def __init__(self, layout: np.ndarray, click):
        height, width = layout.shape
        self.board = Board(width, height, int(layout.sum()))
        self.click = self.board.resolve_click(click)
        self.mines = layout.ravel()
        self.counts = neighbour_counts(layout).ravel()
        self.table = _neighbour_table(width, height)
        self.around = _open_neighbour_table(width, height)
        self.revealed = np.zeros(self.board.cells, dtype=bool)
        self.flagged = np.zeros(self.board.cells, dtype=bool)
        self._queue = np.empty(self.board.cells, dtype=np.int64)
        start = self.board.index(self.click)
        self.lost = bool(self.mines[start])
        if self.lost:
            self.revealed[start] = True
        else:
            _flood(start, self.counts, self.table, self.revealed, self._queue)

    def cell(self, index: int) -> tuple[int, int]:
        """``(x, y)`` of a linear index."""
        return (int(index) % self.board.width, int(index) // self.board.width)

    def open(self, cells, *, solver: str) -> None:
        """Open cells proved safe, flood-filling through zeros.

        Raises
        ------
        RuntimeError
            If a cell holds a mine: the solver made an unsound deduction.
        """
        for index in cells:
            if self.mines[index]:
                raise unsound(solver, self.cell(index), flag=False)
            _flood(index, self.counts, self.table, self.revealed, self._queue)

    def flag(self, cells, *, solver: str) -> None:
        """Flag cells proved to be mines.

        Raises
        ------
        RuntimeError
            If a cell is safe: the solver made an unsound deduction.
        """
        for index in cells:
            if not self.mines[index]:
                raise unsound(solver, self.cell(index), flag=True)
            self.flagged[index] = True

    @property
    def unknown(self) -> np.ndarray:
        """Linear indices of the cells neither revealed nor flagged."""
        return np.flatnonzero(~self.revealed & ~self.flagged)

    @property
    def remaining_mines(self) -> int:
        """Total mines minus flags: the mines among the unknown cells."""
        return self.board.mines - int(self.flagged.sum())

    @property
    def solved(self) -> bool:
        """True when every safe cell is revealed."""
        return not self.lost and int(self.revealed.sum()) == self.board.cells - self.board.mines
