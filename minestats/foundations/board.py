"""Boards, presets, click positions and neighbourhoods.

A board is ``width x height`` cells holding ``mines`` mines, written ``30x16/99``.
A cell is ``(x, y)``: ``x`` the column and ``y`` the row, 0-based from the top-left.
Arrays are indexed ``[y, x]`` with shape ``(height, width)``; the linear index of a
cell is ``x + y * width`` (row-major order).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from minestats.foundations.result import read_only
from minestats.foundations.validation import PRESET_SIZES, quoted

__all__ = [
    "BEGINNER",
    "CLASSIC_BEGINNER",
    "EXPERT",
    "INTERMEDIATE",
    "MAX_CELLS",
    "PRESETS",
    "Board",
    "resolve_board",
]

MAX_CELLS = 4_000_000
"""The most cells a board may have (2000x2000): the work on one board takes about 300
bytes a cell (solving a 2000x2000 board 1.2 GB, generating one 1.5 GB), and a bigger one
would pass 2 GB."""
_BOARD_PATTERN = re.compile(r"^\s*(\d+)\s*x\s*(\d+)\s*/\s*(\d+)\s*$", re.IGNORECASE)
_CLICK_PATTERN = re.compile(r"^\s*(-?\d+)\s*,\s*(-?\d+)\s*$")


@dataclass(frozen=True)
class Board:
    """A Minesweeper board: its size and its number of mines.

    Parameters
    ----------
    width, height : int
        Number of columns and rows; both at least 1.
    mines : int
        Number of mines, from 0 to ``width * height``.

    Raises
    ------
    ValueError
        If a size is not a positive integer or ``mines`` is out of range.

    Examples
    --------
    >>> board = Board(30, 16, 99)
    >>> board
    Board(30x16/99)
    >>> board.cells, round(board.density, 4)
    (480, 0.2062)
    >>> board.centre
    (15, 8)
    >>> Board.parse("9x9/10") == BEGINNER
    True
    """

    width: int
    height: int
    mines: int

    def __post_init__(self):
        for name in ("width", "height", "mines"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | np.integer):
                raise ValueError(f"{name} ({quoted(value)}) must be an integer")
            object.__setattr__(self, name, int(value))
        if self.width < 1:
            raise ValueError(f"width ({self.width}) must be at least 1")
        if self.height < 1:
            raise ValueError(f"height ({self.height}) must be at least 1")
        if self.cells > MAX_CELLS:
            raise ValueError(
                f"{self.width}x{self.height} has {self.cells:,} cells, more than "
                f"MAX_CELLS = {MAX_CELLS:,} (its work arrays would not fit in memory)"
            )
        if not 0 <= self.mines <= self.cells:
            raise ValueError(
                f"mines ({self.mines}) must be between 0 and {self.cells} "
                f"on a {self.width}x{self.height} board"
            )

    def __repr__(self) -> str:
        return f"Board({self})"

    def __str__(self) -> str:
        return f"{self.width}x{self.height}/{self.mines}"

    @classmethod
    def parse(cls, text: str) -> Board:
        """Read a board written ``WxH/M``, for example ``"30x16/99"``.

        Examples
        --------
        >>> Board.parse("16x16/40")
        Board(16x16/40)
        """
        match = _BOARD_PATTERN.match(str(text))
        if match is None:
            raise ValueError(f"board {quoted(text)} is not of the form WxH/M, e.g. '30x16/99'")
        return cls(*(int(group) for group in match.groups()))

    @property
    def cells(self) -> int:
        """Number of cells, ``width * height``."""
        return self.width * self.height

    @property
    def shape(self) -> tuple[int, int]:
        """Array shape ``(height, width)`` of a layout on this board."""
        return (self.height, self.width)

    @property
    def density(self) -> float:
        """Mines per cell."""
        return self.mines / self.cells

    @property
    def centre(self) -> tuple[int, int]:
        """The centre cell ``(width // 2, height // 2)``."""
        return (self.width // 2, self.height // 2)

    def resolve_click(self, click) -> tuple[int, int]:
        """Return a click given as ``(x, y)``, ``"x,y"``, ``"centre"`` or ``"corner"``.

        ``"corner"`` is the top-left cell ``(0, 0)``; ``"center"`` is accepted too.

        Raises
        ------
        ValueError
            If the click is malformed or lies off the board.

        Examples
        --------
        >>> EXPERT.resolve_click("centre"), EXPERT.resolve_click("3,4")
        ((15, 8), (3, 4))
        """
        if isinstance(click, str):
            name = click.strip().lower()
            if name in ("centre", "center"):
                return self.centre
            if name == "corner":
                return (0, 0)
            match = _CLICK_PATTERN.match(name)
            if match is None:
                raise ValueError(f"click {quoted(click)} must be 'x,y', 'centre' or 'corner'")
            click = (int(match.group(1)), int(match.group(2)))
        try:
            x, y = click
        except (TypeError, ValueError):
            raise ValueError(f"click {quoted(click)} must be a pair (x, y)") from None
        if isinstance(x, bool) or isinstance(y, bool) or not all(
            isinstance(v, int | np.integer) for v in (x, y)
        ):
            raise ValueError(f"click {quoted(click)} must hold two integers")
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise ValueError(
                f"click ({x}, {y}) is off the {self.width}x{self.height} board "
                f"(x in 0..{self.width - 1}, y in 0..{self.height - 1})"
            )
        return (int(x), int(y))

    def index(self, click) -> int:
        """Linear (row-major) index ``x + y * width`` of a click.

        Examples
        --------
        >>> EXPERT.index((2, 1))
        32
        """
        x, y = self.resolve_click(click)
        return x + y * self.width

    def closed_neighbourhood(self, click) -> np.ndarray:
        """Linear indices of a cell and its up-to-8 neighbours, in ascending order.

        Examples
        --------
        >>> BEGINNER.closed_neighbourhood((0, 0))
        array([ 0,  1,  9, 10])
        """
        x, y = self.resolve_click(click)
        xs = np.arange(max(x - 1, 0), min(x + 2, self.width))
        ys = np.arange(max(y - 1, 0), min(y + 2, self.height))
        return (xs[None, :] + ys[:, None] * self.width).ravel()

    @cached_property
    def neighbourhood_sizes(self) -> np.ndarray:
        """Size k of every cell's closed neighbourhood, shape ``(height, width)``.

        k is 9 inside, 6 on an edge and 4 in a corner (fewer on boards one cell wide).

        Examples
        --------
        >>> Board(4, 3, 0).neighbourhood_sizes
        array([[4, 6, 6, 4],
               [6, 9, 9, 6],
               [4, 6, 6, 4]])
        """
        along_x = np.minimum(np.arange(self.width) + 2, self.width) - np.maximum(
            np.arange(self.width) - 1, 0
        )
        along_y = np.minimum(np.arange(self.height) + 2, self.height) - np.maximum(
            np.arange(self.height) - 1, 0
        )
        sizes = along_y[:, None] * along_x[None, :]
        return read_only(sizes)

    @cached_property
    def neighbour_table(self) -> np.ndarray:
        """Closed neighbourhoods of all cells as one padded table.

        Row ``i`` lists the linear indices of cell ``i``'s closed neighbourhood in
        ascending order, padded with ``-1`` to 9 entries; shape ``(cells, 9)``.
        Compiled kernels use it to avoid recomputing neighbourhoods.

        Examples
        --------
        >>> Board(2, 2, 0).neighbour_table[0]
        array([ 0,  1,  2,  3, -1, -1, -1, -1, -1])
        """
        # The 9 offsets in ascending linear order; invalid ones (off the board) are moved
        # to the end of each row by a stable sort, which keeps the valid ones ascending.
        ys, xs = np.divmod(np.arange(self.cells, dtype=np.int64), self.width)
        table = np.full((self.cells, 9), -1, dtype=np.int64)
        inside = np.zeros((self.cells, 9), dtype=bool)
        for k, (dy, dx) in enumerate((dy, dx) for dy in (-1, 0, 1) for dx in (-1, 0, 1)):
            inside[:, k] = ((0 <= xs + dx) & (xs + dx < self.width)
                            & (0 <= ys + dy) & (ys + dy < self.height))
            table[inside[:, k], k] = (xs + dx + (ys + dy) * self.width)[inside[:, k]]
        table = np.take_along_axis(table, np.argsort(~inside, axis=1, kind="stable"), axis=1)
        return read_only(table)


PRESETS = {name: Board(*size) for name, size in PRESET_SIZES.items()}
"""The preset boards by name (sizes in `minestats.foundations.validation.PRESET_SIZES`)."""

BEGINNER = PRESETS["beginner"]
"""Beginner: 9x9 with 10 mines."""
INTERMEDIATE = PRESETS["intermediate"]
"""Intermediate: 16x16 with 40 mines."""
EXPERT = PRESETS["expert"]
"""Expert: 30 columns, 16 rows, 99 mines."""
CLASSIC_BEGINNER = PRESETS["classic-beginner"]
"""The pre-2000 Windows Beginner: 8x8 with 10 mines (many published tables use it)."""


def resolve_board(board) -> Board:
    """Accept a `Board`, a preset name or a ``WxH/M`` string and return a `Board`.

    Examples
    --------
    >>> resolve_board("expert"), resolve_board("8x8/10")
    (Board(30x16/99), Board(8x8/10))
    """
    if isinstance(board, Board):
        return board
    if isinstance(board, str):
        preset = PRESETS.get(board.strip().lower())
        if preset is not None:
            return preset
        if _BOARD_PATTERN.match(board) is None:
            names = ", ".join(PRESETS)
            raise ValueError(
                f"board {quoted(board)} is neither a preset ({names}) nor of the form WxH/M"
            )
        try:
            return Board.parse(board)
        except ValueError as error:
            raise ValueError(f"board {quoted(board)}: {error}") from None
    raise ValueError(f"board {quoted(board)} must be a Board, a preset name or a 'WxH/M' string")
