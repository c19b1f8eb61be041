r"""Closed-form first-click opening probabilities, exact and as float maps.

A click *opens* when it shows 0: the clicked cell and all its neighbours are
mine-free. With N cells, M mines and k the size of the click's closed
neighbourhood:

=================  ======================================================
rule               P(open)
=================  ======================================================
``uniform``        C(N-k, M) / C(N, M)
``safe-click``     C(N-k, M) / C(N-1, M)
``safe-opening``   1
``winxp``          [C(N-k+1, M) - C(N-k-j, M-1-j)] / C(N, M)
=================  ======================================================

where, for ``winxp``, j is the number of cells that come before the click's first
neighbour in row-major order, not counting the click itself. The derivation is in
the Notes of `opening_probability`.
"""

from __future__ import annotations

from fractions import Fraction
from math import prod

import numpy as np

from minestats.foundations.board import Board, resolve_board
from minestats.foundations.validation import check_map_size, quoted, resolve_rule
from minestats.mechanics.rules import check_rule, max_mines

__all__ = ["MAX_FRACTION_TERMS", "opening_probability", "opening_probability_map",
           "winxp_offset"]

MAX_FRACTION_TERMS = 20_000
"""The most factors of an exact `opening_probability` (about 0.3 s and numbers of 80,000
digits): the ``winxp`` value multiplies one per cell before the click's first neighbour,
when it is less than the mine count; past this the float map is the answer."""


def _all_of_kind_exact(kind: int, total: int, cells: int) -> Fraction:
    """P(``cells`` given cells are all of one kind), exactly: `_all_of_kind` as a Fraction.

    A ratio of falling factorials, prod_{i < cells} (kind - i) / (total - i): a few
    factors where the binomials it stands for have millions of digits.
    """
    if cells > kind:
        return Fraction(0)
    return Fraction(prod(range(kind - cells + 1, kind + 1)),
                    prod(range(total - cells + 1, total + 1)))


def winxp_offset(board: Board, click) -> int:
    """Cells before the click's first neighbour in row-major order, the click not counted.

    This is the ``j`` of the ``winxp`` closed form: when the click holds a mine,
    Windows XP moves it into one of these ``j`` cells unless all of them are mines,
    in which case it lands on the first neighbour and the click cannot open.

    Examples
    --------
    >>> from minestats.foundations.board import EXPERT
    >>> winxp_offset(EXPERT, (0, 0)), winxp_offset(EXPERT, (5, 0)), winxp_offset(EXPERT, (5, 1))
    (0, 4, 4)
    >>> winxp_offset(EXPERT, "centre")  # first neighbour (14, 7) has index 224
    224
    """
    board = resolve_board(board)
    index = board.index(click)
    neighbours = board.closed_neighbourhood(click)
    neighbours = neighbours[neighbours != index]
    if neighbours.size == 0:
        raise ValueError(f"click {board.resolve_click(click)} on {board} has no neighbours")
    first = int(neighbours[0])
    return first - 1 if index < first else first


def opening_probability(board: Board, click, *, rule: str) -> Fraction:
    r"""Exact probability that the first click opens, as a `~fractions.Fraction`.

    Parameters
    ----------
    board : Board or str
        A `Board`, a preset name or ``"WxH/M"``.
    click : tuple of int or str
        ``(x, y)``, ``"x,y"``, ``"centre"`` or ``"corner"``.
    rule : {'uniform', 'safe-click', 'safe-opening', 'winxp'}
        How the mines are placed (see `minestats.mechanics.rules`).

    Returns
    -------
    fractions.Fraction
        P(the click and all its neighbours are mine-free after placement).

    Raises
    ------
    ValueError
        If the rule is unknown, the click is off the board, or the rule cannot
        place the board's mines.

    Notes
    -----
    Count the layouts of M mines on N cells; each is equally likely under
    ``uniform`` and ``winxp`` (before relocation), so P = (good layouts) / C(N, M).

    *Derivation for* ``winxp``. Let c be the click, K its closed neighbourhood
    (k cells) and b the first cell of K other than c in row-major order. Skipping c,
    the cells before b number j (`winxp_offset`), and none of them is in K.

    - c mine-free: nothing moves, and the click opens iff all of K is mine-free:
      C(N-k, M) layouts.
    - c holds a mine: it moves to f, the first mine-free cell other than c. The click
      opens iff the k-1 other cells of K are mine-free *and* f is not in K. With K
      free, b is free, so f is at or before b; f lies outside K iff some cell of the
      j before b is free. Layouts with c mined and K \ {c} free number
      C(N-k, M-1); of these, C(N-k-j, M-1-j) have all j earlier cells mined too.

    Adding the cases, with C(N-k, M) + C(N-k, M-1) = C(N-k+1, M),

    .. math:: P = \frac{\binom{N-k+1}{M} - \binom{N-k-j}{M-1-j}}{\binom{N}{M}},

    where the second binomial is 0 when j > M - 1. At the top-left corner j = 0 and
    P equals the ``uniform`` value: a moved mine always lands next to the click.
    A cell with no neighbours (a 1x1 board) opens whenever the rule is feasible.

    Examples
    --------
    >>> from minestats.foundations.board import BEGINNER, EXPERT
    >>> p = opening_probability(BEGINNER, "centre", rule="uniform")
    >>> round(float(p), 4)
    0.2855
    >>> round(float(opening_probability(EXPERT, "centre", rule="safe-click")), 4)
    0.1545
    >>> opening_probability(EXPERT, (0, 0), rule="winxp") == opening_probability(
    ...     EXPERT, (0, 0), rule="uniform")
    True
    """
    board = resolve_board(board)
    x, y = check_rule(board, click, rule)
    rule = resolve_rule(rule)
    n, m = board.cells, board.mines
    k = len(board.closed_neighbourhood((x, y)))
    if rule.protects == "neighbourhood" or m == 0:
        return Fraction(1)
    # The closed forms as products of ratios (see `opening_probability_map`): the same
    # Fractions, from a few small factors instead of binomials of huge boards.
    if rule.protects == "click":
        return _all_of_kind_exact(n - 1 - m, n - 1, k - 1)
    if not rule.relocates:
        return _all_of_kind_exact(n - m, n, k)
    if k == 1:  # relocation on a 1x1 board: feasible only with m == 0, handled above
        return Fraction(1)
    j = winxp_offset(board, (x, y))
    if m > j >= MAX_FRACTION_TERMS:  # with j >= m the second product is 0, no factors
        raise ValueError(f"the exact winxp value of click ({x}, {y}) on {board} is a product "
                         f"of {j + 1:,} factors, more than MAX_FRACTION_TERMS = "
                         f"{MAX_FRACTION_TERMS:,}: opening_probability_map gives it as a float")
    return _all_of_kind_exact(n - m, n, k - 1) * (1 - _all_of_kind_exact(m, n - k + 1, j + 1))


def _all_of_kind(kind: int, total: int, cells: np.ndarray) -> np.ndarray:
    """P(``cells`` given cells are all of one kind), elementwise over ``cells``.

    ``total`` cells of which ``kind`` are of that kind (mine-free, or mined), in
    uniformly random order: prod_{i < cells} (kind - i) / (total - i), a ratio of
    binomials written as a product so that it stays accurate for large boards.
    """
    longest = int(cells.max(initial=0))
    steps = np.arange(longest)
    factors = np.clip(kind - steps, 0, None) / (total - steps)
    products = np.concatenate(([1.0], np.cumprod(factors)))
    return products[cells]


def opening_probability_map(board: Board, *, rule: str) -> np.ndarray:
    """Compute the opening probability of every click position as a float map.

    Computed as products of ratios, never as differences of large binomials, so it
    agrees with `opening_probability` to about 1e-15 on boards of any size.

    Parameters
    ----------
    board : Board or str
        A `Board`, a preset name or ``"WxH/M"``.
    rule : {'uniform', 'safe-click', 'safe-opening', 'winxp'}

    Returns
    -------
    numpy.ndarray
        ``map[y, x]`` is the probability that clicking ``(x, y)`` first opens.

    Raises
    ------
    ValueError
        If the rule is unknown or cannot place the mines for some click.

    Notes
    -----
    With M mines on N cells, ``uniform`` is prod_{i<k} (N-M-i)/(N-i) and ``safe-click``
    is the same product over the k-1 neighbours with N-1 cells. For ``winxp``,
    dividing the closed form of `opening_probability` by C(N-k+1, M) gives

    P = [C(N-k+1, M) / C(N, M)] * (1 - prod_{i<=j} (M-i)/(N-k+1-i)),

    the first factor being the ``uniform`` product over k-1 cells; the second is
    1 - P(j+1 given cells are all mines) and never cancels badly.

    Examples
    --------
    >>> from minestats.foundations.board import BEGINNER
    >>> grid = opening_probability_map(BEGINNER, rule="uniform")
    >>> grid.shape, round(float(grid[4, 4]), 4), round(float(grid[0, 0]), 4)
    ((9, 9), 0.2855, 0.584)
    """
    board = resolve_board(board)
    check_map_size(board)
    rule = resolve_rule(rule)
    fewest = min(max_mines(board, click, rule) for click in ((0, 0), board.centre))
    if board.mines > fewest:  # the centre leaves the fewest cells free, the corner the most
        raise ValueError(f"mines ({board.mines}) must be at most {fewest} for a map of every "
                         f"click under rule {quoted(rule.name)} on {board.width}x{board.height}")
    n, m = board.cells, board.mines
    k = board.neighbourhood_sizes
    if rule.protects == "neighbourhood":
        return np.ones(board.shape)
    if rule.protects == "click":
        return _all_of_kind(n - 1 - m, n - 1, k - 1)
    if not rule.relocates:
        return _all_of_kind(n - m, n, k)
    # relocated as Windows XP does
    if n == 1:
        return np.ones(board.shape)
    result = _all_of_kind(n - m, n, k - 1)
    offsets = np.array([[winxp_offset(board, (x, y)) for x in range(board.width)]
                        for y in range(board.height)])
    for size in np.unique(k):
        where = k == size
        all_mined = _all_of_kind(m, n - int(size) + 1, offsets[where] + 1)
        result[where] *= 1.0 - all_mined
    return result

