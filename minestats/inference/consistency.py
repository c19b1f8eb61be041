"""The consistency problem on a partially revealed board.

Revealed numbers count the mines among a cell's 8 neighbours; flags are taken as
mines; the total mine count is optional. `board_consistency` turns the board into
constraints for the exact engine (`minestats.inference.constraints`) and reports whether a
placement fits, how many do, which cells are forced, and one example; or, when the
search passes ``max_configurations``, that it was capped.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from minestats.foundations.board import Board
from minestats.foundations.result import Result
from minestats.foundations.validation import (
    DEFAULT_EXACT_CONFIGURATIONS,
    MAX_MAP_CELLS,
    check_constraints,
    check_max_configurations,
)
from minestats.inference.constraints import solve_constraints
from minestats.mechanics.game import neighbour_table

__all__ = ["BoardConstraints", "ConsistencyResult", "board_consistency", "board_constraints",
           "check_position"]


@dataclass(frozen=True, eq=False)
class ConsistencyResult(Result):
    """The mine placements that fit a partially revealed board.

    Attributes
    ----------
    numbers : numpy.ndarray of int, shape (height, width)
        The revealed numbers (entries at unknown cells are meaningless).
    unknown : numpy.ndarray of bool
        Cells not revealed (flagged cells included).
    flags : numpy.ndarray of bool
        Flagged cells, taken to be mines.
    mines : int or None
        The total mine count, if it was given.
    n_solutions : int or None
        The exact number of placements on the unknown, unflagged cells that fit
        every revealed number (and the total, if given); None when capped.
    forced_safe, forced_mine : numpy.ndarray of bool
        Unknown, unflagged cells that are safe (mined) in every placement; all
        False when there is no placement or the search was capped.
    example : numpy.ndarray of bool or None
        One fitting layout, flags included, or None when there is none or the
        search was capped.
    max_configurations : int
        The search's budget.
    capped : bool
        True when the search gave up at ``max_configurations``: whether any
        placement fits is unknown, and no cell is claimed forced.
    """

    numbers: np.ndarray
    unknown: np.ndarray
    flags: np.ndarray
    mines: int | None
    n_solutions: int | None
    forced_safe: np.ndarray
    forced_mine: np.ndarray
    example: np.ndarray | None
    max_configurations: int = DEFAULT_EXACT_CONFIGURATIONS
    capped: bool = False

    @property
    def consistent(self) -> bool | None:
        """True iff some placement fits; None when the search was capped."""
        return None if self.capped else self.n_solutions > 0

    @property
    def unique(self) -> bool | None:
        """True iff exactly one placement fits; None when the search was capped."""
        return None if self.capped else self.n_solutions == 1

    def to_dict(self) -> dict:
        """Return the scalar results as a table row.

        Examples
        --------
        >>> row = board_consistency([[1, -1]]).to_dict()
        >>> row["consistent"], row["n_solutions"], row["forced_safe"], row["forced_mine"]
        (True, 1, 0, 1)
        >>> row["max_configurations"], row["capped"]
        (500000, False)
        """
        return {"mines": self.mines, "consistent": self.consistent,
                "n_solutions": self.n_solutions, "unique": self.unique,
                "forced_safe": int(self.forced_safe.sum()),
                "forced_mine": int(self.forced_mine.sum()),
                "max_configurations": self.max_configurations, "capped": self.capped}


def _mask(name: str, mask, shape) -> np.ndarray:
    """Return a copy of a boolean mask of the board's shape, or raise ValueError."""
    array = np.array(mask)
    if array.shape != shape:
        raise ValueError(f"{name} has shape {array.shape}; expected {shape} like numbers")
    if array.dtype != np.bool_:
        raise ValueError(f"{name} (dtype {array.dtype}) must be a boolean array")
    return array


class BoardConstraints(NamedTuple):
    """A partly revealed board, checked and turned into constraints for the engine.

    The engine's cells are the unknown, unflagged cells (``open_cells``, flat), in
    board order; each revealed number is one constraint on them, less its flags.
    """

    numbers: np.ndarray
    unknown: np.ndarray
    flags: np.ndarray
    mines: int | None
    open_cells: np.ndarray
    constraints: list
    left: int | None


def check_position(numbers, *, unknown=None, flags=None, mines=None):
    """Check a partly revealed board; return it as read-only arrays.

    Returns
    -------
    numbers : numpy.ndarray of int, shape (height, width)
    unknown, flags : numpy.ndarray of bool, shape (height, width)
    mines : int or None

    Raises
    ------
    ValueError
        As `board_consistency`, naming the bad value.

    Examples
    --------
    >>> numbers, unknown, flags, mines = check_position([[1, -1]], mines=1)
    >>> unknown.tolist(), flags.tolist(), mines
    ([[False, True]], [[False, False]], 1)
    >>> check_position([[9, -1]])
    Traceback (most recent call last):
    ...
    ValueError: revealed number at cell (0, 0) (9) must be in 0..8; mark unknown cells with -1
    """
    array = np.array(numbers)
    if array.ndim != 2 or 0 in array.shape or not np.issubdtype(array.dtype, np.integer):
        raise ValueError(f"numbers (shape {array.shape}, dtype {array.dtype}) must be a 2-D "
                         "integer array with at least one cell")
    if array.size > MAX_MAP_CELLS:
        raise ValueError(f"numbers (shape {array.shape}) has {array.size:,} cells, more than "
                         f"MAX_MAP_CELLS = {MAX_MAP_CELLS:,}")
    hidden = _mask("unknown", array == -1 if unknown is None else unknown, array.shape)
    flagged = _mask("flags", np.zeros(array.shape, bool) if flags is None else flags,
                    array.shape)
    bad = np.argwhere(~hidden & ((array < 0) | (array > 8)))
    if bad.size:
        y, x = bad[0].tolist()
        raise ValueError(f"revealed number at cell ({x}, {y}) ({array[y, x]}) must be in 0..8; "
                         "mark unknown cells with -1")
    bad = np.argwhere(flagged & ~hidden)
    if bad.size:
        y, x = bad[0].tolist()
        raise ValueError(f"flag at cell ({x}, {y}) lies on a revealed cell")
    if mines is not None:
        height, width = array.shape
        Board(width, height, mines)  # validates the total
        mines = int(mines)
    return array, hidden, flagged, mines


def board_constraints(numbers, *, unknown=None, flags=None, mines=None) -> BoardConstraints:
    """Check a partly revealed board and build its constraints (see `board_consistency`).

    Examples
    --------
    >>> problem = board_constraints([[1, -1, -1]], mines=1)
    >>> problem.constraints, problem.left
    ([((0,), 1)], 1)
    """
    array, hidden, flagged, mines = check_position(numbers, unknown=unknown, flags=flags,
                                                   mines=mines)
    height, width = array.shape
    cells = width * height
    open_cells = (hidden & ~flagged).ravel()
    local = np.append(np.cumsum(open_cells) - 1, -1)  # engine index; -1 for the padding
    revealed = np.flatnonzero(~hidden.ravel())
    rows = neighbour_table(width, height)[revealed]
    rows = np.where((rows >= 0) & (rows != revealed[:, None]), rows, cells)  # 8 neighbours
    inside = np.append(open_cells, False)[rows]
    need = array.ravel()[revealed] - np.append(flagged.ravel(), False)[rows].sum(axis=1)
    # A number with no unknown neighbours left constrains nothing if it is met; if it is
    # not, it stays as an empty constraint that the engine finds impossible.
    keep = inside.any(axis=1) | (need != 0)
    check_constraints(int(keep.sum()), f"the revealed numbers ({width}x{height})")
    engine_cells = local[rows]
    constraints = [(tuple(members[row_inside].tolist()), mines_needed)
                   for members, row_inside, mines_needed in zip(
                       engine_cells[keep], inside[keep], need[keep].tolist(), strict=True)]
    left = None if mines is None else mines - int(flagged.sum())
    return BoardConstraints(array, hidden, flagged, mines, open_cells, constraints, left)


def board_consistency(numbers, *, unknown=None, flags=None, mines=None,
                      max_configurations=DEFAULT_EXACT_CONFIGURATIONS) -> ConsistencyResult:
    """Count the mine placements that fit a partially revealed board; find forced cells.

    Parameters
    ----------
    numbers : array_like of int, shape (height, width)
        Revealed numbers (mines among the 8 neighbours, 0..8); -1 marks an unknown
        cell unless ``unknown`` is given.
    unknown : array_like of bool, optional
        The unknown cells; their entries in ``numbers`` are ignored.
    flags : array_like of bool, optional
        Flagged cells, all unknown; they are taken to be mines.
    mines : int, optional
        The total number of mines (flags included). Without it, cells beyond the
        frontier are free and never forced.
    max_configurations : int, optional
        The search's budget (`minestats.inference.constraints`): past it the result is
        ``capped``, with no count, no forced cells and no example. The default
        (`minestats.foundations.validation.DEFAULT_EXACT_CONFIGURATIONS`, 500,000) bounds the
        search to a few seconds and about 130 MB; the positions of real games
        need less than a hundredth of it.

    Returns
    -------
    ConsistencyResult
        The exact number of placements, the forced cells and one example; or
        ``capped``.

    Raises
    ------
    ValueError
        If a revealed number is outside 0..8, a flag lies on a revealed cell, the
        shapes differ, ``mines`` is not an integer in ``0..cells`` or
        ``max_configurations`` is not a positive integer of at most 10**15.

    Examples
    --------
    A 1 in the corner of a 3x3 board, everything else hidden. Without the mine
    count any of its 3 neighbours can be the mine and the 5 far cells are free:
    3 * 2**5 placements, nothing forced.

    >>> numbers = [[1, -1, -1],
    ...            [-1, -1, -1],
    ...            [-1, -1, -1]]
    >>> result = board_consistency(numbers)
    >>> result.n_solutions, bool(result.forced_safe.any() or result.forced_mine.any())
    (96, False)

    With one mine in all, it must be next to the 1: the far cells are safe.

    >>> result = board_consistency(numbers, mines=1)
    >>> result.n_solutions
    3
    >>> result.forced_safe.astype(int)
    array([[0, 0, 1],
           [0, 0, 1],
           [1, 1, 1]])

    A 2 in a corner with a flag on one neighbour, 2 mines in all: one of the two
    other neighbours holds the second mine.

    >>> flags = np.zeros((3, 3), dtype=bool)
    >>> flags[0, 1] = True
    >>> numbers[0][0] = 2
    >>> result = board_consistency(numbers, flags=flags, mines=2)
    >>> result.n_solutions, result.example.astype(int).tolist()
    (2, [[0, 1, 0], [1, 0, 0], [0, 0, 0]])

    A search that passes its budget says so, and claims nothing:

    >>> result = board_consistency(numbers, flags=flags, mines=2, max_configurations=1)
    >>> result.capped, result.n_solutions, result.consistent, bool(result.forced_safe.any())
    (True, None, None, False)
    """
    problem = board_constraints(numbers, unknown=unknown, flags=flags, mines=mines)
    max_configurations = check_max_configurations(max_configurations)
    array, hidden, flagged, mines, open_cells, constraints, left = problem
    outcome = solve_constraints(constraints, int(open_cells.sum()), mines=left,
                                max_configurations=max_configurations)
    forced_safe = np.zeros(array.size, dtype=bool)
    forced_mine = np.zeros(array.size, dtype=bool)
    example = None
    if outcome.count:
        forced_safe[open_cells] = ~outcome.can_mine
        forced_mine[open_cells] = ~outcome.can_safe
        example = flagged.ravel().copy()
        example[open_cells] = outcome.example
        example = example.reshape(array.shape)
    return ConsistencyResult(array, hidden, flagged, mines, outcome.count,
                             forced_safe.reshape(array.shape),
                             forced_mine.reshape(array.shape),
                             None if example is None else example,
                             max_configurations, outcome.capped)
