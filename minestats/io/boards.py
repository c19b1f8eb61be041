"""Layouts as text grids and as MBF bytes, both ways; positions and count matrices as text.

Text grid
    one line per row, ``*`` for a mine and ``.`` for a safe cell; blank lines and
    surrounding whitespace are ignored.
MBF
    the compact binary board format of Minesweeper Arbiter and tools that read it:
    byte 0 the width, byte 1 the height (1..255 each), bytes 2-3 the number of
    mines (unsigned, big-endian), then two bytes ``x, y`` per mine.

Count matrix
    one line per row of integers 0..9 separated by white space
    (`parse_counts`; `minestats.inference.reconstruct` inverts them).
Position
    digits 0-8 for open cells, ``?`` unknown, ``F`` flags (`parse_position`, defined
    in `minestats.foundations.grids`, where the inference reads it too).

Functions here convert between bool layouts (``[y, x]``, shape ``(height, width)``)
and ``str``/``bytes``; reading and writing files is left to the caller.
"""

from __future__ import annotations

import numpy as np

from minestats.foundations.grids import parse_position, read_grid
from minestats.mechanics.game import as_layouts

__all__ = ["MBF_MAX_SIDE", "check_mbf_size", "format_text", "from_mbf", "parse_counts",
           "parse_position", "parse_text", "read_grid", "to_mbf"]

MBF_MAX_SIDE = 255
"""The widest and tallest board MBF holds: each side is one byte of its header."""


def format_text(mines) -> str:
    """Write a layout as rows of ``*`` (mine) and ``.`` (safe).

    Examples
    --------
    >>> print(format_text([[1, 0, 0], [0, 0, 1]]))
    *..
    ..*
    """
    layout = as_layouts(mines, ndims=(2,))
    return "\n".join("".join("*" if cell else "." for cell in row) for row in layout)


def parse_text(text: str) -> np.ndarray:
    r"""Read a layout written as rows of ``*`` and ``.``.

    Raises
    ------
    ValueError
        On an empty grid, a character other than ``*`` and ``.``, or rows of
        different lengths, naming the line.

    Examples
    --------
    >>> parse_text("*..\n..*\n").astype(int).tolist()
    [[1, 0, 0], [0, 0, 1]]
    >>> parse_text("*..\n.*")
    Traceback (most recent call last):
    ...
    ValueError: line 2: row has 2 cells, expected 3 like line 1
    """
    def read_row(line):
        bad = sorted(set(line) - {"*", "."})
        if bad:
            raise ValueError(f"unexpected character {bad[0]!r}; use '*' for a mine and "
                             "'.' for a safe cell")
        return [cell == "*" for cell in line]

    return np.array(read_grid(text, read_row, what="the board is empty: no rows of '*' "
                                                    "and '.'"), dtype=bool)


def check_mbf_size(width: int, height: int) -> None:
    """Raise ValueError, naming the size, when MBF cannot hold a ``width`` x ``height`` board.

    Examples
    --------
    >>> check_mbf_size(30, 16)
    >>> check_mbf_size(300, 300)
    Traceback (most recent call last):
    ...
    ValueError: MBF holds boards up to 255x255; got 300x300
    """
    if width > MBF_MAX_SIDE or height > MBF_MAX_SIDE:
        raise ValueError(f"MBF holds boards up to {MBF_MAX_SIDE}x{MBF_MAX_SIDE}; "
                         f"got {width}x{height}")


def to_mbf(mines) -> bytes:
    """Encode a layout as MBF bytes.

    Examples
    --------
    >>> to_mbf([[1, 0, 0], [0, 0, 1]]).hex()
    '0302000200000201'
    """
    layout = as_layouts(mines, ndims=(2,))
    height, width = layout.shape
    check_mbf_size(width, height)
    ys, xs = np.nonzero(layout)
    header = bytes([width, height]) + len(xs).to_bytes(2, "big")
    return header + bytes(np.column_stack([xs, ys]).astype(np.uint8).ravel())


def from_mbf(data: bytes) -> np.ndarray:
    """Decode MBF bytes into a layout.

    Raises
    ------
    ValueError
        If the data is too short or too long for its mine count, a size is 0, a
        mine lies off the board or a cell holds two mines.

    Examples
    --------
    >>> from_mbf(bytes.fromhex("0302000200000201")).astype(int).tolist()
    [[1, 0, 0], [0, 0, 1]]
    """
    data = bytes(data)
    if len(data) < 4:
        raise ValueError(f"MBF data of {len(data)} bytes is shorter than its 4-byte header")
    width, height, count = data[0], data[1], int.from_bytes(data[2:4], "big")
    if width == 0 or height == 0:
        raise ValueError(f"MBF board size {width}x{height} must be at least 1x1")
    if len(data) != 4 + 2 * count:
        raise ValueError(f"MBF header says {count} mine{'' if count == 1 else 's'} "
                         f"({4 + 2 * count} bytes) but the data has {len(data)} bytes")
    layout = np.zeros((height, width), dtype=bool)
    for index in range(count):
        x, y = data[4 + 2 * index], data[5 + 2 * index]
        if x >= width or y >= height:
            raise ValueError(f"MBF mine {index} at ({x}, {y}) is off the {width}x{height} board")
        if layout[y, x]:
            raise ValueError(f"MBF mine {index} at ({x}, {y}) repeats an earlier mine")
        layout[y, x] = True
    return layout


def parse_counts(text: str) -> np.ndarray:
    r"""Read a count matrix written as whitespace-separated rows of digits 0..9.

    Blank lines are skipped; line numbers in errors count them.

    Raises
    ------
    ValueError
        If there are no rows, a value is not an integer in 0..9, or rows differ in
        length; the message names the line.

    Examples
    --------
    >>> parse_counts("1 2 1\n1 2 1\n")
    array([[1, 2, 1],
           [1, 2, 1]])
    >>> parse_counts("1 2 1\n1 2\n")
    Traceback (most recent call last):
    ...
    ValueError: line 2: row has 2 cells, expected 3 like line 1
    """
    def read_row(line):
        row = []
        for word in line.split():
            try:
                value = int(word)
            except ValueError:
                raise ValueError(f"{word!r} is not an integer") from None
            if not 0 <= value <= 9:
                raise ValueError(f"value {value} is outside 0..9")
            row.append(value)
        return row

    rows = read_grid(text, read_row, what="no rows of counts: the input is empty")
    return np.array(rows, dtype=np.int64)
