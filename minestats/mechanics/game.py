"""Game mechanics: numbers, flood fill, one game that can be lost, openings, islands and 3BV.

A layout is a boolean array of shape ``(height, width)``, True where a mine lies;
a batch of layouts has shape ``(n, height, width)``. Cells are ``(x, y)`` and arrays
are indexed ``[y, x]``.

- A cell's *number* is the count of mines among its (up to 8) neighbours.
- Clicking a safe cell reveals it; if its number is 0 the game keeps revealing
  its neighbours, through every connected zero (*flood fill*).
- An *opening* is an 8-connected region of safe zero cells.
- An *island* is an 8-connected group of safe numbered cells that touch no zero
  cell, so no opening reveals them.
- A `Game` is one game on a known layout: the player opens and flags cells and
  sees only the revealed numbers; opening a mine loses, opening every safe cell wins.
- *3BV* (Bechtel's Board Benchmark Value), the least number of left clicks that
  clears a board, is the number of openings plus the number of safe numbered cells
  that touch no zero cell (one click each).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from minestats.foundations.board import Board
from minestats.foundations.compiled import compiled
from minestats.foundations.deprecation import renamed_parameters

__all__ = ["EXPLODED", "FLAG", "UNKNOWN", "Game", "as_layouts", "bbbv", "islands",
           "neighbour_counts", "neighbour_table", "openings", "reveal"]

_EIGHT_CONNECTED = np.ones((3, 3), dtype=bool)


def as_layouts(mines, *, ndims=(2, 3)) -> np.ndarray:
    """Return ``mines`` as a boolean array, checking its values and dimensions.

    Integer arrays holding only 0 and 1 are accepted and converted.

    Examples
    --------
    >>> as_layouts([[0, 1], [1, 0]], ndims=(2,)).tolist()
    [[False, True], [True, False]]
    >>> as_layouts([[2]])
    Traceback (most recent call last):
    ...
    ValueError: mines (dtype int64) must be a boolean array or hold only 0 and 1
    """
    layout = np.asarray(mines)
    if layout.ndim not in ndims:
        shapes = " or ".join({2: "(height, width)", 3: "(n, height, width)"}[d] for d in ndims)
        raise ValueError(f"mines has shape {layout.shape}; expected {shapes}")
    if layout.dtype != np.bool_:
        if not np.issubdtype(layout.dtype, np.integer) or not np.isin(layout, (0, 1)).all():
            raise ValueError(
                f"mines (dtype {layout.dtype}) must be a boolean array or hold only 0 and 1"
            )
        layout = layout.astype(bool)
    if layout.shape[-1] < 1 or layout.shape[-2] < 1:
        raise ValueError(f"mines has shape {layout.shape}; a board needs at least one cell")
    return layout


@lru_cache(maxsize=64)
def neighbour_table(width: int, height: int) -> np.ndarray:
    """Return the library's one neighbour table, `Board.neighbour_table`, cached per size.

    Row ``i`` lists cell ``i``'s closed neighbourhood (itself included) in ascending
    order, padded with ``-1`` to 9 entries. Every compiled kernel walks this table and
    stops at the first ``-1``; kernels that want only the 8 neighbours skip the cell
    itself.

    Examples
    --------
    >>> neighbour_table(3, 2)[0]
    array([ 0,  1,  3,  4, -1, -1, -1, -1, -1])
    """
    return Board(width, height, 0).neighbour_table


@renamed_parameters({"mines": "layout"}, removed_in="0.4")
def neighbour_counts(layout) -> np.ndarray:
    """Count the mines among each cell's 8 neighbours.

    Parameters
    ----------
    layout : array_like of bool, shape (height, width) or (n, height, width)
        One layout or a batch of layouts.

    Returns
    -------
    numpy.ndarray of int8
        Same shape as ``layout``; mined cells get the count of their neighbours too.

    Examples
    --------
    >>> layout = np.array([[1, 0, 0],
    ...                    [0, 0, 1]], dtype=bool)
    >>> neighbour_counts(layout)
    array([[0, 2, 1],
           [1, 2, 0]], dtype=int8)
    >>> neighbour_counts(np.stack([layout, ~layout])).shape
    (2, 2, 3)
    """
    layout = as_layouts(layout)
    height, width = layout.shape[-2:]
    padding = [(0, 0)] * (layout.ndim - 2) + [(1, 1), (1, 1)]
    padded = np.pad(layout, padding).astype(np.int8)
    counts = -layout.astype(np.int8)
    for dy in range(3):
        for dx in range(3):
            counts += padded[..., dy : dy + height, dx : dx + width]
    return counts


@compiled
def _flood(start, counts, table, revealed, opened, end=0):
    """Reveal ``start`` and flood through zeros, on flat arrays.

    ``counts`` are the numbers (int8, length N), ``table`` the neighbour table,
    ``revealed`` the bool mask updated in place. Newly revealed cells are appended
    to ``opened[end:]`` (that part doubles as the breadth-first queue) and the new
    end is returned; ``end`` itself if ``start`` was already revealed. The caller
    checks ``start`` is safe: the neighbours of a safe zero cell are always safe.
    """
    if revealed[start]:
        return end
    revealed[start] = True
    opened[end] = start
    head, end = end, end + 1
    while head < end:
        cell = opened[head]
        head += 1
        if counts[cell] == 0:
            for t in range(table.shape[1]):
                neighbour = table[cell, t]
                if neighbour < 0:
                    break
                if not revealed[neighbour]:
                    revealed[neighbour] = True
                    opened[end] = neighbour
                    end += 1
    return end


UNKNOWN, FLAG, EXPLODED = -1, -2, -3
"""Codes in `Game.view` for a hidden cell, a flag and the opened mine of a lost game."""


class Game:
    """One game on a known layout: open cells (with flood fill), flag them, win or lose.

    The layout is hidden from the player: what a player may look at is `view` (or the
    flat ``revealed`` and ``flagged`` masks and the ``numbers`` of revealed cells) and
    the mine count ``board.mines``. A game is lost when a mine is opened and won when
    every safe cell is open; after either, no move is accepted.

    Parameters
    ----------
    layout : array_like of bool, shape (height, width)
        The layout; it defines the board (size and mine count).

    Attributes
    ----------
    board : Board
        Size and mine count.
    revealed, flagged : numpy.ndarray of bool, shape (cells,)
        Flat masks of the open and the flagged cells (linear index ``x + y * width``).
    numbers : numpy.ndarray of int8, shape (cells,)
        Every cell's number of neighbouring mines; a player reads it only where
        ``revealed`` is True.
    table : numpy.ndarray of int64
        The neighbour table (`neighbour_table`).

    Examples
    --------
    >>> game = Game([[0, 0, 0, 1, 0],
    ...              [0, 0, 0, 1, 0]])
    >>> game.open((0, 0))
    6
    >>> game.view
    array([[ 0,  0,  2, -1, -1],
           [ 0,  0,  2, -1, -1]], dtype=int8)
    >>> game.open((4, 0)), game.won
    (1, False)
    >>> game.open((4, 1)), game.won
    (1, True)
    >>> game.open((3, 0))
    Traceback (most recent call last):
    ...
    ValueError: cannot open cell (3, 0): the game is won
    >>> lost = Game([[0, 1]])
    >>> lost.open((1, 0)), lost.lost, lost.view
    (0, True, array([[-1, -3]], dtype=int8))
    """

    @renamed_parameters({"mines": "layout"}, removed_in="0.4")
    def __init__(self, layout):
        layout = as_layouts(layout, ndims=(2,))
        height, width = layout.shape
        self.board = Board(width, height, int(layout.sum()))
        self._mines = layout.ravel().copy()
        self.numbers = neighbour_counts(layout).ravel()
        self.table = neighbour_table(width, height)
        self.revealed = np.zeros(self.board.cells, dtype=bool)
        self.flagged = np.zeros(self.board.cells, dtype=bool)
        self.lost = False
        self._queue = np.empty(self.board.cells, dtype=np.int64)

    def cell(self, index: int) -> tuple[int, int]:
        """``(x, y)`` of a linear index."""
        return (int(index) % self.board.width, int(index) // self.board.width)

    def _check_move(self, index: int, move: str) -> None:
        if self.over:
            state = "lost" if self.lost else "won"
            raise ValueError(f"cannot {move} cell {self.cell(index)}: the game is {state}")
        if self.revealed[index]:
            raise ValueError(f"cannot {move} cell {self.cell(index)}: it is already open")

    def open(self, cell) -> int:
        """Open a cell; a zero floods through its neighbours. Return the cells revealed.

        Parameters
        ----------
        cell : tuple of int or str
            ``(x, y)``, ``"x,y"``, ``"centre"`` or ``"corner"``.

        Returns
        -------
        int
            Number of cells newly revealed; 0 if the cell held a mine (the game is lost).

        Raises
        ------
        ValueError
            If the game is over, or the cell is open or flagged.
        """
        return self.open_index(self.board.index(cell))

    def open_index(self, index: int) -> int:
        """`open` by linear index ``x + y * width`` (the fast path for players)."""
        self._check_move(index, "open")
        if self.flagged[index]:
            raise ValueError(f"cannot open cell {self.cell(index)}: it is flagged")
        return self._open(index)

    def _open(self, index: int) -> int:
        """Open a cell without checking the move."""
        if self._mines[index]:
            self.lost = True
            self.revealed[index] = True
            return 0
        return _flood(index, self.numbers, self.table, self.revealed, self._queue)

    def flag(self, cell) -> None:
        """Flag a cell (a player may flag wrongly; only opening a mine loses).

        Raises
        ------
        ValueError
            If the game is over or the cell is open.
        """
        self.flag_index(self.board.index(cell))

    def flag_index(self, index: int) -> None:
        """`flag` by linear index."""
        self._check_move(index, "flag")
        self.flagged[index] = True

    @property
    def won(self) -> bool:
        """True when every safe cell is open (and no mine was)."""
        return (not self.lost
                and int(self.revealed.sum()) == self.board.cells - self.board.mines)

    @property
    def over(self) -> bool:
        """True once the game is won or lost."""
        return self.lost or self.won

    @property
    def unknown(self) -> np.ndarray:
        """Linear indices of the cells neither open nor flagged."""
        return np.flatnonzero(~self.revealed & ~self.flagged)

    @property
    def remaining_mines(self) -> int:
        """Total mines minus flags: what the mine counter shows."""
        return self.board.mines - int(self.flagged.sum())

    @property
    def view(self) -> np.ndarray:
        """What the player sees, shape ``(height, width)``, int8.

        The number (0..8) on open cells, `UNKNOWN` (-1) on hidden cells, `FLAG` (-2)
        on flags and `EXPLODED` (-3) on the mine that lost the game.
        """
        picture = np.where(self.revealed, self.numbers, UNKNOWN).astype(np.int8)
        picture[self.flagged] = FLAG
        picture[self.revealed & self._mines] = EXPLODED
        return picture.reshape(self.board.shape)


@renamed_parameters({"mines": "layout"}, removed_in="0.4")
def reveal(layout, click) -> np.ndarray:
    """Cells revealed by clicking ``click`` on a fresh board, flood fill included.

    Parameters
    ----------
    layout : array_like of bool, shape (height, width)
        The layout.
    click : tuple of int or str
        ``(x, y)``, ``"x,y"``, ``"centre"`` or ``"corner"``.

    Returns
    -------
    numpy.ndarray of bool, shape (height, width)
        True where a cell is revealed. A click on a mine reveals only that mine
        (the game is lost); a click on a numbered cell reveals only that cell.

    Examples
    --------
    >>> layout = np.array([[0, 0, 0, 0],
    ...                    [0, 0, 0, 0],
    ...                    [0, 0, 0, 1]], dtype=bool)
    >>> reveal(layout, "corner").astype(int)
    array([[1, 1, 1, 1],
           [1, 1, 1, 1],
           [1, 1, 1, 0]])
    >>> reveal(layout, (2, 2)).astype(int)
    array([[0, 0, 0, 0],
           [0, 0, 0, 0],
           [0, 0, 1, 0]])
    """
    layout = as_layouts(layout, ndims=(2,))
    height, width = layout.shape
    x, y = Board(width, height, 0).resolve_click(click)
    revealed = np.zeros(layout.size, dtype=bool)
    start = x + y * width
    if layout[y, x]:
        revealed[start] = True
    else:
        counts = neighbour_counts(layout).ravel()
        _flood(start, counts, neighbour_table(width, height), revealed,
               np.empty(layout.size, dtype=np.int64))
    return revealed.reshape(height, width)


def _zero_cells(layout: np.ndarray) -> np.ndarray:
    """Safe cells whose number is 0."""
    return ~layout & (neighbour_counts(layout) == 0)


def _lone_cells(layout: np.ndarray) -> np.ndarray:
    """Safe numbered cells that touch no zero cell (each needs its own click)."""
    from scipy import ndimage  # on first use: it takes a quarter second to import

    touched = ndimage.binary_dilation(_zero_cells(layout), structure=_EIGHT_CONNECTED)
    return ~layout & ~touched


@renamed_parameters({"mines": "layout"}, removed_in="0.4")
def openings(layout) -> tuple[np.ndarray, int]:
    """Label the openings: the 8-connected regions of safe zero cells.

    Parameters
    ----------
    layout : array_like of bool, shape (height, width)

    Returns
    -------
    labels : numpy.ndarray of int, shape (height, width)
        ``1..count`` on the zero cells of each opening, 0 elsewhere (the numbered
        border an opening reveals is not labelled).
    count : int
        Number of openings.

    Examples
    --------
    >>> layout = np.array([[0, 0, 0, 1, 0, 0, 0],
    ...                    [0, 0, 0, 1, 0, 0, 0]], dtype=bool)
    >>> labels, count = openings(layout)
    >>> count
    2
    >>> labels
    array([[1, 1, 0, 0, 0, 2, 2],
           [1, 1, 0, 0, 0, 2, 2]], dtype=int32)
    """
    layout = as_layouts(layout, ndims=(2,))
    from scipy import ndimage

    labels, count = ndimage.label(_zero_cells(layout), structure=_EIGHT_CONNECTED)
    return labels, int(count)


@renamed_parameters({"mines": "layout"}, removed_in="0.4")
def islands(layout) -> tuple[np.ndarray, int]:
    """Label the islands: 8-connected groups of safe numbered cells touching no zero cell.

    Parameters
    ----------
    layout : array_like of bool, shape (height, width)

    Returns
    -------
    labels : numpy.ndarray of int, shape (height, width)
        ``1..count`` on the cells of each island, 0 elsewhere.
    count : int
        Number of islands.

    Examples
    --------
    Cells 1 and 2 show 1 and touch no zero; cell 4 shows 1 but touches the zero at 5:

    >>> layout = np.array([[1, 0, 0, 1, 0, 0, 0]], dtype=bool)
    >>> labels, count = islands(layout)
    >>> count
    1
    >>> labels
    array([[0, 1, 1, 0, 0, 0, 0]], dtype=int32)
    """
    layout = as_layouts(layout, ndims=(2,))
    from scipy import ndimage

    labels, count = ndimage.label(_lone_cells(layout), structure=_EIGHT_CONNECTED)
    return labels, int(count)


@compiled
def _bbbv_batch(layouts, counts, table):
    """3BV of each flat layout: flood-fill every unrevealed zero, then count the rest."""
    boards, cells = layouts.shape
    values = np.zeros(boards, dtype=np.int64)
    revealed = np.zeros(cells, dtype=np.bool_)
    queue = np.empty(cells, dtype=np.int64)
    for board in range(boards):
        revealed[:] = False
        clicks = 0
        for cell in range(cells):
            if not layouts[board, cell] and counts[board, cell] == 0 and not revealed[cell]:
                _flood(cell, counts[board], table, revealed, queue)
                clicks += 1
        for cell in range(cells):
            if not layouts[board, cell] and not revealed[cell]:
                clicks += 1
        values[board] = clicks
    return values


@renamed_parameters({"mines": "layout"}, removed_in="0.4")
def bbbv(layout):
    """3BV: the least number of left clicks that clears the board.

    3BV is the number of openings plus the number of safe numbered cells that touch
    no zero cell. Mines need no click.

    Parameters
    ----------
    layout : array_like of bool, shape (height, width) or (n, height, width)
        One layout, or a batch of layouts of the same size.

    Returns
    -------
    int or numpy.ndarray of int64
        An int for one layout, an array of shape ``(n,)`` for a batch. A batch is
        computed by a compiled kernel (one flood fill per opening); one layout by
        `scipy.ndimage.label`.

    Examples
    --------
    One opening on the left (its zeros and their numbered border), one on the right,
    and the safe cells next to the mine column are all in one of them:

    >>> layout = np.array([[0, 0, 0, 1, 0, 0, 0],
    ...                    [0, 0, 0, 1, 0, 0, 0]], dtype=bool)
    >>> bbbv(layout)
    2
    >>> bbbv(np.stack([layout, np.zeros((2, 7), dtype=bool)]))
    array([2, 1])
    """
    layout = as_layouts(layout)
    if layout.ndim == 2:
        return openings(layout)[1] + int(_lone_cells(layout).sum())
    boards, height, width = layout.shape
    flat = layout.reshape(boards, height * width)
    counts = neighbour_counts(layout).reshape(boards, height * width)
    return _bbbv_batch(flat, counts, neighbour_table(width, height))
