"""Count matrices: every cell holds the mines in its closed neighbourhood, itself included.

`reconstruct` inverts such a matrix with the exact engine (`minestats.inference.constraints`)
and, when the engine's propagation leaves a hard search on a matrix at most
`~minestats.inference.strips.STRIP_WIDTH` cells across, with the row-by-row program of
`minestats.inference.strips`; past ``max_configurations`` both give up, and
`reconstruct` raises `minestats.foundations.validation.SearchBudgetExceeded`, as
`minestats.inference.mine_probabilities` does. The other functions make matrices
(`minestats.io.boards.parse_counts` reads them from text).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from minestats.foundations.board import Board
from minestats.foundations.deprecation import RenamedAttribute, deprecated_names
from minestats.foundations.result import Result
from minestats.foundations.seeds import as_generator
from minestats.foundations.validation import (
    DEFAULT_EXACT_CONFIGURATIONS,
    SearchBudgetExceeded,
    check_constraints,
    check_max_configurations,
)
from minestats.inference.constraints import solve_constraints
from minestats.inference.strips import STRIP_WIDTH, solve_strip
from minestats.mechanics.game import as_layouts, neighbour_counts, neighbour_table

__all__ = ["ENGINE_FIRST", "ReconstructResult", "counts_from_layout", "random_counts",
           "reconstruct"]

ENGINE_FIRST = 10_000
"""The configurations the engine may spend on a strip before the row-by-row program.

Propagation settles random matrices with (next to) no search, faster than the
program's first row of ``2**w`` patterns; the crafted matrices that defeat it need
hundreds of thousands.
"""


def counts_from_layout(layout) -> np.ndarray:
    """Count the mines in every cell's closed neighbourhood, the cell itself included.

    Parameters
    ----------
    layout : array_like of bool, shape (height, width)
        A layout (0/1 integers are accepted).

    Returns
    -------
    numpy.ndarray of int64, shape (height, width)
        Values 0..9; this is the count matrix that `reconstruct` inverts.

    Examples
    --------
    >>> counts_from_layout([[1, 0, 0],
    ...                     [0, 0, 1]])
    array([[1, 2, 1],
           [1, 2, 1]])
    """
    layout = as_layouts(layout, ndims=(2,))
    return neighbour_counts(layout).astype(np.int64) + layout


def random_counts(width: int, height: int, p: float, *, seed=None):
    """Draw a layout with each cell a mine independently with probability ``p``.

    Parameters
    ----------
    width, height : int
        Board size, both at least 1.
    p : float
        Per-cell mine probability, in [0, 1].
    seed : numpy.random.Generator, int, str, numpy.random.SeedSequence or None, optional
        Random source or seed (`minestats.foundations.seeds.as_generator`).

    Returns
    -------
    counts : numpy.ndarray of int64, shape (height, width)
        The count matrix of the layout (`counts_from_layout`).
    layout : numpy.ndarray of bool, shape (height, width)
        The hidden layout.

    Examples
    --------
    >>> counts, layout = random_counts(4, 3, 0.25, seed=1)
    >>> counts.shape, bool((counts == counts_from_layout(layout)).all())
    ((3, 4), True)
    """
    board = Board(width, height, 0)
    if not 0 <= p <= 1:
        raise ValueError(f"p ({p!r}) must be a probability in [0, 1]")
    layout = as_generator(seed).random(board.shape) < p
    return counts_from_layout(layout), layout


def _as_counts(counts) -> np.ndarray:
    """Return ``counts`` as a 2-D int64 array of values 0..9, or raise ValueError."""
    try:
        array = np.asarray(counts)
    except ValueError:  # rows of different lengths
        raise ValueError("counts must be a rectangular grid: its rows differ in length"
                         ) from None
    if array.ndim != 2 or 0 in array.shape:
        raise ValueError(f"counts has shape {array.shape}; expected (height, width), "
                         "both at least 1")
    if not np.issubdtype(array.dtype, np.integer):
        raise ValueError(f"counts (dtype {array.dtype}) must hold integers")
    bad = np.argwhere((array < 0) | (array > 9))
    if bad.size:
        y, x = bad[0].tolist()
        raise ValueError(f"counts[{y}, {x}] ({array[y, x]}) must be in 0..9")
    return array.astype(np.int64)


@dataclass(frozen=True, eq=False)
class ReconstructResult(Result):
    """The layouts whose closed-neighbourhood counts equal a count matrix.

    Attributes
    ----------
    counts : numpy.ndarray of int, shape (height, width)
        The input.
    layout : numpy.ndarray of bool, shape (height, width), or None
        One solution, or None when there is none.
    n_solutions : int
        The exact number of solutions.
    max_configurations : int
        The search's budget.
    """

    counts: np.ndarray
    layout: np.ndarray | None
    n_solutions: int
    max_configurations: int = DEFAULT_EXACT_CONFIGURATIONS
    mines = RenamedAttribute("layout", removed_in="0.4")

    @property
    def unique(self) -> bool:
        """True iff exactly one layout fits."""
        return self.n_solutions == 1

    def to_dict(self) -> dict:
        """Return the size, the budget and the scalar results as a table row.

        Examples
        --------
        >>> reconstruct([[1, 1, 1]]).to_dict()
        {'width': 3, 'height': 1, 'n_solutions': 1, 'unique': True, \
'max_configurations': 500000}
        """
        height, width = self.counts.shape
        return {"width": width, "height": height, "n_solutions": self.n_solutions,
                "unique": self.unique, "max_configurations": self.max_configurations}

    def to_text(self) -> str:
        """Write the solution as rows of ``X`` (mine) and ``_`` (safe), ``-1`` if none.

        Examples
        --------
        >>> print(reconstruct([[1, 1], [1, 1]]).to_text())
        X _
        _ _
        >>> reconstruct([[9]]).to_text()
        '-1'
        """
        if self.layout is None:
            return "-1"
        return "\n".join(" ".join("X" if mine else "_" for mine in row)
                         for row in self.layout.tolist())


def _search(array: np.ndarray, max_configurations: int) -> tuple[int, np.ndarray | None]:
    """Count the layouts behind a checked matrix and find one; past the budget, raise."""
    height, width = array.shape
    check_constraints(array.size, f"the counts ({width}x{height})")
    strip = min(height, width) <= STRIP_WIDTH
    table = neighbour_table(width, height)
    constraints = [(tuple(row[row >= 0].tolist()), need)
                   for row, need in zip(table, array.ravel().tolist(), strict=True)]
    outcome = solve_constraints(
        constraints, width * height,
        max_configurations=min(max_configurations, ENGINE_FIRST) if strip else max_configurations)
    if not outcome.capped:
        return outcome.count, (None if outcome.example is None
                               else outcome.example.reshape(height, width))
    if not strip:
        raise SearchBudgetExceeded
    return solve_strip(array, max_configurations=max_configurations)


def reconstruct(counts, *,
                max_configurations=DEFAULT_EXACT_CONFIGURATIONS) -> ReconstructResult:
    """Find the layouts whose closed-neighbourhood counts (self included) equal ``counts``.

    The exact engine (`minestats.inference.constraints`) settles random matrices by
    propagation, with next to no search. On a matrix at most
    `~minestats.inference.strips.STRIP_WIDTH` (17) cells across it may spend
    `ENGINE_FIRST` configurations; past them the row-by-row program
    (`minestats.inference.strips`) takes over, with the whole budget, and counts
    such strips exactly at any length.

    Parameters
    ----------
    counts : array_like of int, shape (height, width)
        Each cell's number of mines among itself and its up-to-8 neighbours (0..9).
    max_configurations : int, optional
        The search's budget: past it the search gives up and raises.
        The default (`minestats.foundations.validation.DEFAULT_EXACT_CONFIGURATIONS`, 500,000)
        bounds each search to a few seconds and about 130 MB; random matrices
        need less than a hundredth of it.

    Returns
    -------
    ReconstructResult
        One solution (None if there is none), the exact number of solutions and
        whether it is unique.

    Raises
    ------
    ValueError
        If ``counts`` is not a 2-D integer array with values 0..9, or
        ``max_configurations`` is not a positive integer of at most 10**15.
    minestats.foundations.validation.SearchBudgetExceeded
        When the search passes ``max_configurations``: the number of solutions is then
        unknown (it may be 0, 1 or more).

    Examples
    --------
    A 2x2 board: every cell sees all four, so a 1 everywhere fits any one mine.

    >>> result = reconstruct([[1, 1], [1, 1]])
    >>> result.n_solutions, result.unique
    (4, False)
    >>> result = reconstruct([[1, 1, 0], [1, 1, 0]])
    >>> result.n_solutions, result.unique, result.layout.astype(int).tolist()
    (2, False, [[1, 0, 0], [0, 0, 0]])
    >>> print(reconstruct([[1, 1, 1], [1, 1, 1], [0, 0, 0]]).to_text())
    _ X _
    _ _ _
    _ _ _

    Mines in every third column with a random phase per row defeat the engine's
    propagation; past the budget the search says so instead of counting on:

    >>> x = np.arange(32)
    >>> phase = np.random.default_rng(0).integers(3, size=32)
    >>> crafted = counts_from_layout(x % 3 == phase[:, None])
    >>> try:
    ...     reconstruct(crafted, max_configurations=10_000)
    ... except SearchBudgetExceeded as error:
    ...     print(error)
    the reconstruction search passed max_configurations = 10_000 configurations
    """
    array = _as_counts(counts)
    max_configurations = check_max_configurations(max_configurations)
    try:
        count, layout = _search(array, max_configurations)
    except SearchBudgetExceeded:
        raise SearchBudgetExceeded(f"the reconstruction search passed max_configurations = "
                                   f"{max_configurations:_} configurations") from None
    return ReconstructResult(array, None if layout is None else layout, count,
                             max_configurations)


__getattr__ = deprecated_names(__name__, {
    "counts_from_mines": (counts_from_layout, "minestats.inference.counts_from_layout")},
    removed_in="0.4")
