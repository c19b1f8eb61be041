"""Text grids, one row a line: the reader every text format shares, and positions.

`read_grid` reads the rows of any grid (layouts, count matrices and positions,
`minestats.io.boards`); `parse_position` reads a partly revealed board, digits for
open cells, ``?`` unknown, ``F`` flags. They live at the foundation so that
`minestats.inference.mine_probabilities` can take a position's text as well as its
arrays; `minestats.io.boards` exports them beside the other formats.
"""

from __future__ import annotations

import re
import unicodedata

import numpy as np

from minestats.foundations.validation import quoted

__all__ = ["ROW_END", "parse_position", "read_grid"]


ROW_END = re.compile(r"\r\n|\r|\n")
r"""Where a row ends: ``\n``, ``\r\n`` or ``\r``, and nowhere else.

`str.splitlines` would also split at a vertical tab, a form feed, NEL, U+2028 and
U+2029: a row holding one would silently become two, and the position be misread."""


def _refuse_control_characters(line: str, number: int) -> None:
    """Raise ValueError naming line and column of a control character other than a tab."""
    for column, character in enumerate(line, start=1):
        if character != "\t" and unicodedata.category(character) in ("Cc", "Zl", "Zp"):
            raise ValueError(f"line {number}, column {column}: control character "
                             f"U+{ord(character):04X} inside a row")


def read_grid(text: str, read_row, *, what: str) -> list[list]:
    r"""Read the rows of a text grid, one per non-blank line, all of one length.

    Rows end at ``\n``, ``\r\n`` or ``\r`` (`ROW_END`); any other control character
    (a vertical tab, a form feed, NEL, U+2028...) is refused, naming its line and
    column, rather than taken as the end of a row.

    ``read_row(line)`` turns a stripped line into a list of cells or raises
    ValueError; its message is prefixed with the line number (blank lines count).
    ``what`` is the message when there are no rows.

    Examples
    --------
    >>> read_grid("ab\n\ncd\n", list, what="empty")
    [['a', 'b'], ['c', 'd']]
    >>> read_grid("ab\nc\n", list, what="empty")
    Traceback (most recent call last):
    ...
    ValueError: line 2: row has 1 cells, expected 2 like line 1
    >>> read_grid("ab\x0bcd\n", list, what="empty")
    Traceback (most recent call last):
    ...
    ValueError: line 1, column 3: control character U+000B inside a row
    """
    rows, first = [], None
    for number, line in enumerate(ROW_END.split(text), start=1):
        _refuse_control_characters(line, number)
        line = line.strip()
        if not line:
            continue
        try:
            row = read_row(line)
        except ValueError as error:
            raise ValueError(f"line {number}: {error}") from None
        if first is None:
            first = (number, len(row))
        elif len(row) != first[1]:
            raise ValueError(f"line {number}: row has {len(row)} cells, expected {first[1]} "
                             f"like line {first[0]}")
        rows.append(row)
    if not rows:
        raise ValueError(what)
    return rows

def parse_position(text: str) -> tuple[np.ndarray, np.ndarray]:
    r"""Read a partly revealed board: digits for open cells, ``?`` unknown, ``F`` flags.

    Rows are lines (blank lines skipped); spaces between cells are optional.

    Returns
    -------
    numbers : numpy.ndarray of int64, shape (height, width)
        The revealed numbers, -1 on unknown and flagged cells.
    flags : numpy.ndarray of bool
        The flagged cells.

    Raises
    ------
    ValueError
        For a character other than 0-8, ``?`` or ``F``, rows of different lengths or
        no rows; the message names the line.

    Examples
    --------
    >>> numbers, flags = parse_position("1?\n?F\n")
    >>> numbers.tolist(), flags.tolist()
    ([[1, -1], [-1, -1]], [[False, False], [False, True]])
    >>> parse_position("1x")
    Traceback (most recent call last):
    ...
    ValueError: line 1: 'x' is not a number 0-8, '?' (unknown) or 'F' (flag)
    """
    def read_row(line):
        cells = line.replace(" ", "").replace("\t", "")
        for character in cells:
            if character not in "012345678?Ff":
                raise ValueError(f"{quoted(character)} is not a number 0-8, '?' (unknown) or "
                                 "'F' (flag)")
        return list(cells)

    grid = np.array(read_grid(text, read_row, what="no rows: the position is empty"))
    flags = np.isin(grid, ["F", "f"])
    numbers = np.where(np.char.isdigit(grid), grid, "-1").astype(np.int64)
    return numbers, flags
