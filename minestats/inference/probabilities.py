"""Exact mine probabilities of every unknown cell of a partly revealed board.

The probability that an unknown cell holds a mine is the share of the layouts
consistent with every revealed number, every flag and (if given) the total mine
count that put a mine there. The engines count them (which one answers is said
below): frontier cells are grouped into independent components, each component's
solutions are counted per number of mines it holds, the components are combined by
convolution over mine counts, and each combination is weighted by
C(cells off the frontier, mines left over), which also gives the probability of
every cell off the frontier. Exact counts are Python ints, so the probabilities are
exact fractions.

Under Windows XP's first-click rule (``rule="winxp"``) the layouts that fit are not
alike, and `mine_probabilities` weighs them (`winxp_weight`). Let c be the first
click and order the other cells row-major. Windows XP draws M mines uniformly over
all cells; a mine on c moves to the first cell of that order without a mine. A
final layout L (no mine on c) therefore comes either straight from the draw, or
from the draw L' = L - {m} + {c} for a cell m that is the first mine-free cell of
L' in the order: every cell before m is a mine of L' (so of L, which agrees with
L' there), and m is a mine of L. So m is one of the r(L) mines of L's leading run
(the mines before the first safe cell, c skipped), and P(L) is proportional to
1 + r(L). Counting each layout 1 + r(L) times is counting it once for each r from 0
to r(L) such that the first r cells are all mines; so the weighted count is
N_0 + N_1 + ..., where N_r counts the layouts that fit with the first r cells
flagged, and every probability is the same mixture of the flagged positions'
probabilities, with weights N_r. ``tests/inference/test_probabilities.py`` checks it against
enumerating the rule's own draws and relocation.

Which engine answers: the floats of `mine_probabilities` come from the compiled
frontier engine (`minestats.frontier.engine.analyse`, the search the ``logic`` solver
and the player use too), in floating point: they agree with the exact fractions to
about 1e-15, not to the last bit (0.19999999999999998 for 1/5 can happen). With
``exact=True`` the same compiled search counts the layouts, exactly while its counts
stay below 2**53 (checked), and they are combined in Python ints, so each float is
the exact fraction rounded once; `exact_probabilities` gives those floats alone, and
the pure-Python exact engine (`minestats.inference.constraints`) takes over without a mine
count or past either limit. `position_probabilities` is the player's form of the
float path, on a game's flat arrays. ``tests/inference/test_probabilities.py`` checks every path
against brute force and against each other.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from math import comb
from typing import NamedTuple

import numpy as np

from minestats.foundations.board import Board
from minestats.foundations.deprecation import deprecated_names
from minestats.foundations.grids import parse_position
from minestats.foundations.result import Result
from minestats.foundations.validation import (
    DEFAULT_EXACT_CONFIGURATIONS,
    SearchBudgetExceeded,
    check_max_configurations,
    resolve_rule,
)
from minestats.frontier.engine import (
    NO_FIT,
    OVER_BUDGET,
    analyse,
    closed_number_disagrees,
    enumerate_groups,
    frontier_groups,
)
from minestats.inference.consistency import board_constraints, check_position
from minestats.inference.constraints import count_mined
from minestats.mechanics.game import neighbour_table
from minestats.mechanics.rules import winxp_order

__all__ = ["NO_LAYOUT_FITS", "MineProbabilities", "PositionProbabilities",
           "exact_probabilities",
           "mine_probabilities", "position_probabilities", "winxp_counts"]

NO_LAYOUT_FITS = "no layout fits these numbers, flags and mine count"
"""The one message of a position that no layout fits, whichever engine found it."""


class _PendingCount(NamedTuple):
    """A checked position whose exact layout count is taken when first asked for.

    The float path finds the probabilities with the compiled engine, which counts in
    floats; `MineProbabilities.n_solutions` promises an exact int, so it comes from the
    exact engine, once, on the first read.
    """

    numbers: np.ndarray
    unknown: np.ndarray
    flags: np.ndarray
    mines: int

    def count(self) -> int:
        return _probabilities(self.numbers, unknown=self.unknown, flags=self.flags,
                              mines=self.mines, exact=False,
                              max_configurations=None).n_solutions


@dataclass(frozen=True, eq=False)
class MineProbabilities(Result):
    """Mine probabilities of a partly revealed board.

    Attributes
    ----------
    probability : numpy.ndarray of float64, shape (height, width)
        P(mine) on every unknown cell, 1.0 on flags, NaN on revealed cells.
    fractions : numpy.ndarray of object or None
        The same as `fractions.Fraction` (None on revealed cells), when asked for with
        ``exact=True``; else None.
    n_solutions : int
        The exact number of layouts of the unknown, unflagged cells that fit. The
        float path counts them with the exact engine when this is first read.
    mines : int or None
        The total mine count, if it was given.
    """

    probability: np.ndarray
    fractions: np.ndarray | None
    layout_count: int | _PendingCount = field(repr=False, compare=False)
    mines: int | None

    @cached_property
    def n_solutions(self) -> int:
        """The exact number of layouts that fit (counted on first read by the float path)."""
        if isinstance(self.layout_count, _PendingCount):
            return self.layout_count.count()
        return self.layout_count

    def _compared(self):
        return [*super()._compared(), self.n_solutions]

    def __repr__(self) -> str:
        shape = "x".join(map(str, self.probability.shape[::-1]))
        return (f"MineProbabilities(board={shape}, mines={self.mines}, "
                f"n_solutions={self.n_solutions})")

    def _repr_html_(self) -> str:
        """Return the board for Jupyter (`minestats.inference.html.board_html`).

        The numbers are not part of the result: open cells are left blank.
        """
        from minestats.inference.html import board_html

        return board_html(None, self.probability, caption=repr(self))

    def to_dict(self) -> dict:
        """Return one table row: the board's size, the mine count and the layouts that fit.

        ``unknown`` counts the cells not revealed (flags included) and
        ``lowest_probability`` is the mine probability of the safest of them.

        Examples
        --------
        >>> mine_probabilities([[1, -1, -1]], mines=1).to_dict()
        {'width': 3, 'height': 1, 'mines': 1, 'n_solutions': 1, 'unknown': 2, \
'lowest_probability': 0.0}
        """
        unknown = ~np.isnan(self.probability)
        height, width = self.probability.shape
        return {"width": width, "height": height, "mines": self.mines,
                "n_solutions": self.n_solutions, "unknown": int(unknown.sum()),
                "lowest_probability": float(self.probability[unknown].min())
                if unknown.any() else None}

    def safest(self) -> np.ndarray:
        """Return the unknown, unflagged cells of lowest mine probability as ``(x, y)`` rows.

        Examples
        --------
        >>> mine_probabilities([[1, -1, -1]], mines=1).safest().tolist()
        [[2, 0]]
        """
        probability = np.where(np.isnan(self.probability), np.inf, self.probability)
        return np.argwhere(probability == probability.min())[:, ::-1]


def mine_probabilities(numbers, *, unknown=None, flags=None, mines=None, exact=False,
                       max_configurations=DEFAULT_EXACT_CONFIGURATIONS, rule=None,
                       click=None) -> MineProbabilities:
    """Exact probability that each unknown cell of a partly revealed board is a mine.

    Parameters
    ----------
    numbers : array_like of int, shape (height, width), or str
        Revealed numbers (mines among the 8 neighbours, 0..8); -1 marks an unknown
        cell unless ``unknown`` is given. Or the position's text, one row a line
        (`minestats.parse_position`: digits, ``?`` unknown, ``F`` a flag), which
        holds its flags too.
    unknown : array_like of bool, optional
        The unknown cells; their entries in ``numbers`` are ignored.
    flags : array_like of bool, optional
        Flagged cells, all unknown; they are taken to be mines.
    mines : int, optional
        The total number of mines, flags included. Without it every layout of the
        unknown cells that fits the numbers counts once, whatever its mine count, so
        cells off the frontier are mines with probability 1/2.
    exact : bool, optional
        Also return the probabilities as `fractions.Fraction`.
    max_configurations : int or None, optional
        The search's budget, as in `board_consistency`
        (`minestats.foundations.validation.DEFAULT_EXACT_CONFIGURATIONS`, 500,000: a few seconds
        and well under 1 GB); None for no cap (for ``winxp``, per flagged position).
    rule : {None, 'uniform', 'safe-click', 'safe-opening', 'winxp'}, optional
        The first-click rule the board was dealt by. Under every rule but ``winxp``
        each layout that fits is equally likely (None, the default); under ``winxp``
        a layout weighs 1 + the mines of its leading run (see the module notes),
        which needs ``click`` and ``mines``.
    click : tuple of int, optional
        The first click ``(x, y)``, for ``winxp``: a revealed cell.

    Returns
    -------
    MineProbabilities
        Under ``winxp``, ``n_solutions`` still counts the layouts that fit (each
        once); the probabilities weigh them.

    Raises
    ------
    ValueError
        For bad input (as `board_consistency`), or when no layout fits.
    minestats.foundations.validation.SearchBudgetExceeded
        When the search passes ``max_configurations`` (crafted positions can need
        more than any machine has; positions from play need a tiny share of it).

    Examples
    --------
    A 1 in the corner of a 3x3 board with 2 mines in all: one mine is next to the 1
    (each of its 3 neighbours with probability 1/3), the other among the 5 far cells
    (1/5 each).

    >>> numbers = [[1, -1, -1],
    ...            [-1, -1, -1],
    ...            [-1, -1, -1]]
    >>> result = mine_probabilities(numbers, mines=2, exact=True)
    >>> result.n_solutions
    15
    >>> print(result.fractions)
    [[None Fraction(1, 3) Fraction(1, 5)]
     [Fraction(1, 3) Fraction(1, 3) Fraction(1, 5)]
     [Fraction(1, 5) Fraction(1, 5) Fraction(1, 5)]]
    >>> mine_probabilities([[2, -1]], mines=1)
    Traceback (most recent call last):
    ...
    ValueError: no layout fits these numbers, flags and mine count

    The position may be given as its text; here the flag is the 1's mine:

    >>> mine_probabilities("1F?", mines=1).probability.tolist()
    [[nan, 1.0, 0.0]]

    Windows XP clicked at (2, 0) of a 3x2 board with one mine: the 1 leaves (1, 0),
    (1, 1) and (2, 1) alike under a uniform deal, but a mine drawn on the click
    moved to (0, 0), the first cell of the row-major order, which the 1 rules out,
    so no layout here has a leading run and they stay alike; clicked at (1, 1), the
    mine under the click would have gone to (0, 0), which doubles its weight.

    >>> print(mine_probabilities([[-1, -1, 1], [-1, -1, -1]], mines=1, exact=True,
    ...                          rule="winxp", click=(2, 0)).fractions[0])
    [Fraction(0, 1) Fraction(1, 3) None]
    >>> print(mine_probabilities([[-1, -1, -1], [-1, 1, -1]], mines=1, exact=True,
    ...                          rule="winxp", click=(1, 1)).fractions[0])
    [Fraction(1, 3) Fraction(1, 6) Fraction(1, 6)]
    """
    if isinstance(numbers, str):
        if unknown is not None or flags is not None:
            raise ValueError("a position given as text holds its unknown cells and flags: "
                             "give neither unknown nor flags with it")
        numbers, flags = parse_position(numbers)
    if not isinstance(exact, bool | np.bool_):
        raise ValueError(f"exact ({exact!r}) must be True or False")
    if max_configurations is not None:
        max_configurations = check_max_configurations(max_configurations)
    if rule is not None and resolve_rule(rule).relocates:
        return _winxp_probabilities(numbers, unknown=unknown, flags=flags, mines=mines,
                                    exact=exact, max_configurations=max_configurations,
                                    click=click)
    if not exact and mines is not None:
        fast = _compiled_probabilities(numbers, unknown=unknown, flags=flags, mines=mines,
                                       max_configurations=max_configurations)
        if fast is not None:
            return fast
    return _probabilities(numbers, unknown=unknown, flags=flags, mines=mines, exact=exact,
                          max_configurations=max_configurations)


_UNLIMITED = 2**62
"""The compiled search's budget when the caller sets none (its counter is an int64)."""


def _compiled_probabilities(numbers, *, unknown, flags, mines, max_configurations):
    """`mine_probabilities` as floats, from the compiled frontier engine (`analyse`).

    The same search the ``logic`` solver and the player run; None when it passes
    ``max_configurations``, and the caller goes on to the exact engine. The layout
    count is left to the exact engine, taken when `MineProbabilities.n_solutions` is
    first read.
    """
    array, hidden, flagged, mines = check_position(numbers, unknown=unknown, flags=flags,
                                                   mines=mines)
    height, width = array.shape
    revealed = ~hidden.ravel()
    analysis = analyse(np.where(revealed, array.ravel(), 0).astype(np.int8),
                       neighbour_table(width, height), revealed, flagged.ravel(), width,
                       mines, use_mine_count=True,
                       budget=_UNLIMITED if max_configurations is None else max_configurations)
    if analysis.status == OVER_BUDGET:
        return None
    if analysis.status == NO_FIT:
        raise ValueError(NO_LAYOUT_FITS)
    return MineProbabilities(analysis.probability.reshape(array.shape), None,
                             _PendingCount(array, hidden, flagged, mines), mines)


def exact_probabilities(numbers, *, unknown=None, flags=None, mines=None,
                        max_configurations=DEFAULT_EXACT_CONFIGURATIONS):
    """`mine_probabilities` from the exact engine alone: floats from big-integer counts.

    Each float is the exact fraction rounded once, so two positions with the same
    fractions get the same floats; the player's way out past its compiled budget
    (`minestats.players.weighing`) relies on that to play the same games.

    Examples
    --------
    >>> exact_probabilities([[1, -1, -1]], mines=1).probability.tolist()
    [[nan, 1.0, 0.0]]
    """
    return _probabilities(numbers, unknown=unknown, flags=flags, mines=mines, exact=False,
                          max_configurations=max_configurations)


_EXACT_FLOATS = 2**53
"""Below this, the compiled search's float counts (sums and products of integers) are exact."""


def _convolve(first, second):
    """Layouts per mine total of two independent parts, as Python ints."""
    return np.convolve(np.asarray(first, dtype=object), np.asarray(second, dtype=object))


def _compiled_counts(numbers, *, unknown, flags, mines, max_configurations):
    """Exact layout counts from the compiled frontier search, combined in Python ints.

    The compiled search (`enumerate_groups`) counts each component's layouts and each
    group's mines per mine total in floats; where every count is below 2**53 those
    floats are the exact integers, and the components, the cells off the frontier and
    the binomial weights are then combined here in Python ints. Returns None (the
    caller goes on to the pure-Python engine) past the search's budget or when a count
    is too large to be exact in a float.

    Returns
    -------
    total : int
        The layouts that fit (0 when none does).
    mined : list of (numpy.ndarray, int)
        Board cells (flat) and the layouts that mine each of them, one entry per group
        of alike cells and one for the cells off the frontier.
    flagged : numpy.ndarray of bool, shape (height, width)
    """
    array, hidden, flagged, mines = check_position(numbers, unknown=unknown, flags=flags,
                                                   mines=mines)
    height, width = array.shape
    revealed = ~hidden.ravel()
    shown = np.where(revealed, array.ravel(), 0).astype(np.int8)
    table = neighbour_table(width, height)
    if closed_number_disagrees(shown, table, revealed, flagged.ravel()):
        return 0, [], flagged
    front = frontier_groups(shown, table, revealed, flagged.ravel(), width)
    search = enumerate_groups(front.sizes, front.starts, front.members, front.need,
                              front.component_starts,
                              _UNLIMITED if max_configurations is None else max_configurations)
    if search.visited > (_UNLIMITED if max_configurations is None else max_configurations):
        return None
    if (search.layouts.size and search.layouts.max() >= _EXACT_FLOATS) or (
            search.mined.size and search.mined.max() >= _EXACT_FLOATS):
        return None
    left = mines - int(flagged.sum())
    off = np.flatnonzero(hidden.ravel() & ~flagged.ravel() & ~front.frontier)
    free = off.size
    starts = front.component_starts
    spans = [int(front.sizes[starts[k]:starts[k + 1]].sum()) + 1 for k in range(starts.size - 1)]
    parts = [[int(count) for count in search.layouts[k, :span]] for k, span in enumerate(spans)]
    prefix = [np.ones(1, dtype=object)]
    for part in parts:
        prefix.append(_convolve(prefix[-1], part))
    combined = prefix[-1]
    ways = np.array([comb(free, left - t) if 0 <= left - t <= free else 0
                     for t in range(combined.size)], dtype=object)
    total = int(np.dot(combined, ways))
    if total == 0:
        return 0, [], flagged
    mined = []
    if free:
        mined.append((off, sum(int(combined[t]) * comb(free - 1, left - t - 1)
                               for t in range(combined.size) if 1 <= left - t <= free)))
    suffix = np.ones(1, dtype=object)
    for k in range(len(parts) - 1, -1, -1):
        others = _convolve(prefix[k], suffix)
        weight = [np.dot(others, ways[t:t + others.size]) for t in range(spans[k])]
        for g in range(starts[k], starts[k + 1]):
            cells = front.group_cells[front.cell_starts[g]:front.cell_starts[g + 1]]
            if cells.size:
                count = sum(int(search.mined[g, t]) * weight[t] for t in range(spans[k])
                            if search.mined[g, t])
                mined.append((cells, count // cells.size))
        suffix = _convolve(suffix, parts[k])
    return total, mined, flagged


def _probabilities(numbers, *, unknown, flags, mines, exact, max_configurations):
    """`mine_probabilities` with every layout alike."""
    if mines is not None:
        counted = _compiled_counts(numbers, unknown=unknown, flags=flags, mines=mines,
                                   max_configurations=max_configurations)
        if counted is not None:
            return _from_counts(*counted, shape=np.shape(numbers), mines=mines, exact=exact)
    problem = board_constraints(numbers, unknown=unknown, flags=flags, mines=mines)
    open_cells = problem.open_cells
    try:
        count, classes = count_mined(problem.constraints, int(open_cells.sum()),
                                     mines=problem.left, max_configurations=max_configurations)
    except SearchBudgetExceeded:
        raise SearchBudgetExceeded(f"the probability search passed max_configurations = "
                           f"{max_configurations:_} configurations") from None
    if count == 0:
        raise ValueError(NO_LAYOUT_FITS)
    shape = problem.numbers.shape
    cells = np.flatnonzero(open_cells)  # engine cell i is board cell cells[i]
    probability = np.full(open_cells.size, np.nan)
    probability[problem.flags.ravel()] = 1.0
    fractions = None
    if exact:
        fractions = np.full(open_cells.size, None, dtype=object)
        fractions[problem.flags.ravel()] = Fraction(1)
    for members, mined in classes:  # one division per class of alike cells
        probability[cells[members]] = mined / count  # int / int rounds correctly
        if exact:
            fractions[cells[members]] = Fraction(mined, count)
    if exact:
        fractions = fractions.reshape(shape)
    return MineProbabilities(probability.reshape(shape), fractions, count,
                             problem.mines)


def _from_counts(total, mined, flagged, *, shape, mines, exact):
    """`MineProbabilities` from exact counts: one division per class of alike cells."""
    if total == 0:
        raise ValueError(NO_LAYOUT_FITS)
    probability = np.full(flagged.size, np.nan)
    probability[flagged.ravel()] = 1.0
    fractions = None
    if exact:
        fractions = np.full(flagged.size, None, dtype=object)
        fractions[flagged.ravel()] = Fraction(1)
    for cells, count in mined:
        probability[cells] = count / total  # int / int rounds correctly
        if exact:
            fractions[cells] = Fraction(count, total)
    if exact:
        fractions = fractions.reshape(shape)
    return MineProbabilities(probability.reshape(shape), fractions, total, int(mines))


def _winxp_probabilities(numbers, *, unknown, flags, mines, exact, max_configurations, click):
    """Return `mine_probabilities` under ``winxp`` (from `winxp_counts`)."""
    total, mined, layouts, problem = winxp_counts(
        numbers, unknown=unknown, flags=flags, mines=mines,
        max_configurations=max_configurations, click=click)
    fractions = np.full(mined.shape, None, dtype=object)
    probability = np.full(mined.shape, np.nan)
    for (row, column), value in np.ndenumerate(mined):
        if value is not None:
            fractions[row, column] = Fraction(value, total)
            probability[row, column] = value / total  # int / int rounds correctly
    return MineProbabilities(probability, fractions if exact else None,
                             layouts, problem.mines)


def winxp_counts(numbers, *, unknown=None, flags=None, mines,
                 max_configurations=DEFAULT_EXACT_CONFIGURATIONS, click):
    """Weighed layout counts of a position dealt by Windows XP's rule, exactly.

    The mixture of the positions with the first r cells of
    `minestats.mechanics.rules.winxp_order` flagged, each counted by its layouts (see the
    module notes).

    Returns
    -------
    total : int
        The layouts that fit, each counted 1 + the mines of its leading run times.
    mined : numpy.ndarray of object, shape (height, width)
        Per cell, the same weighed count of the layouts that mine it (None on
        revealed cells).
    layouts : int
        The layouts that fit, each once.
    problem : BoardConstraints
        The position as the engine reads it.

    Raises
    ------
    ValueError
        For bad input, without ``mines`` or ``click``, or when no layout fits.

    Examples
    --------
    >>> total, mined, layouts, _ = winxp_counts([[-1, -1, -1], [-1, 1, -1]], mines=1,
    ...                                         click=(1, 1))
    >>> total, mined[0].tolist(), layouts
    (6, [2, 1, 1], 5)
    """
    if mines is None:
        raise ValueError("rule 'winxp' needs mines: the total number of mines")
    if click is None:
        raise ValueError("rule 'winxp' needs click: the first click (x, y)")
    array = np.asarray(numbers)
    problem = board_constraints(array, unknown=unknown, flags=flags, mines=mines)
    hidden = array == -1 if unknown is None else np.asarray(unknown, dtype=bool)
    height, width = array.shape
    x, y = Board(width, height, int(mines)).resolve_click(click)
    if hidden[y, x]:
        raise ValueError(f"click ({x}, {y}) must be a revealed cell: the first click is safe")
    flagged = problem.flags.copy()
    counts = []  # per r: (layouts that fit with the first r cells mined, their mine counts)
    for r, cell in enumerate([None, *winxp_order(array.size, x + y * width).tolist()]):
        if r:
            row, column = divmod(cell, width)
            if not hidden[row, column]:
                break  # revealed: no layout has a longer leading run
            flagged[row, column] = True
        try:
            part = _probabilities(array, unknown=unknown, flags=flagged, mines=mines,
                                  exact=True, max_configurations=max_configurations)
        except ValueError:  # no layout has this cell mined as well
            if r == 0:
                raise
            break
        counts.append((part.n_solutions, np.vectorize(
            lambda f, n=part.n_solutions: None if f is None else int(f * n),
            otypes=[object])(part.fractions)))
    mined = np.full(array.shape, None, dtype=object)
    for (row, column), value in np.ndenumerate(counts[0][1]):
        if value is not None:
            mined[row, column] = sum(cell_counts[row, column] for _, cell_counts in counts)
    return sum(n for n, _ in counts), mined, counts[0][0], problem


class PositionProbabilities(NamedTuple):
    """Mine probabilities of a game position, flat, for a player.

    ``probability`` is NaN on open cells and 1 on flags; ``log_solutions`` is the
    natural log of the number of layouts that fit (``-inf`` when none does).
    """

    probability: np.ndarray
    log_solutions: float


def position_probabilities(numbers, table, revealed, flagged, width, mines, *,
                           budget) -> PositionProbabilities | None:
    """Mine probabilities of a position in flat arrays, fast, as floats.

    Parameters
    ----------
    numbers : numpy.ndarray of int8, shape (cells,)
        Numbers of the cells (read only where ``revealed``).
    table : numpy.ndarray of int64
        The neighbour table (`minestats.mechanics.game.neighbour_table`).
    revealed, flagged : numpy.ndarray of bool, shape (cells,)
    width : int
        Board width.
    mines : int
        Total mines, flags included.
    budget : int
        Give up (return None) once the frontier search visits more configurations.

    Returns
    -------
    PositionProbabilities or None

    Examples
    --------
    A 1 in the corner of a 3x2 board with 2 mines: one mine among its 3 neighbours,
    one among the 2 far cells; 3 * 2 layouts.

    >>> from minestats.mechanics.game import neighbour_table
    >>> numbers = np.array([1, 0, 0, 0, 0, 0], dtype=np.int8)
    >>> revealed = np.array([1, 0, 0, 0, 0, 0], dtype=bool)
    >>> position = position_probabilities(numbers, neighbour_table(3, 2), revealed,
    ...                                   ~revealed & False, 3, 2, budget=1000)
    >>> np.round(position.probability, 4)
    array([   nan, 0.3333, 0.5   , 0.3333, 0.3333, 0.5   ])
    >>> round(float(np.exp(position.log_solutions)))
    6
    """
    result = analyse(numbers, table, revealed, flagged, width, mines, budget=budget)
    if result.status == OVER_BUDGET:
        return None
    return PositionProbabilities(result.probability, result.log_solutions)


__getattr__ = deprecated_names(__name__, {
    "Position": (PositionProbabilities,
                 "minestats.inference.probabilities.PositionProbabilities")},
    removed_in="0.4")
