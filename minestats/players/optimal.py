r"""Exact optimal play on small boards: the best win probability any player can reach.

The player knows the board size, the mine count and the first-click rule, so before
the first click every *layout* (placement of the mines) has a known probability.
What has been revealed so far leaves an *information state* S: the set of layouts
consistent with it, with their weights. Its value is

- 1 when S holds a single layout (the player knows every cell and opens the rest);
- otherwise the maximum, over the hidden cells c that are not a mine in every
  layout of S, of :math:`\sum_o P(o \mid S) \, V(S_o)`: opening c in a layout
  reveals an *outcome* o, the numbers of all the cells it opens (the flood fill
  through zeros included), or a mine, which loses (value 0); :math:`S_o` holds
  the layouts of S that give o.

The value of the game is the value of the state before the first click under
``uniform`` (where the first click is a move like any other and may lose), and
otherwise the value of opening the protected click in the rule's distribution for
that click; a free click is the best click.

Implementation
--------------
The layouts are enumerated once, with an ``L x N`` int8 table of the number of
every cell in every layout (-1 for a mine). A first-click rule is a weighting of
that table (weight 0 off the distribution), so with a free click one table and one
memo serve every click. A state is the sorted array of its layout indices, and
opening a cell splits it by one column of the table. Values are exact integers:
``win(S) = V(S) W(S)``, with ``W(S)`` the total weight of S, is the weight of the
layouts an optimal player wins, so ``win`` of a single layout is its weight and
``win(S) = max_c sum_o win(S_o)``. States are memoised by the bytes of their index
arrays, with their weights divided by the weights' gcd where these are unequal
(memoising ``win`` divided by that gcd). States of at most 8 layouts are solved in
plain Python, which is faster than numpy at that size.

Pruning, all of it exact:

- *Safe cells.* Opening a cell that is safe in every layout of S never hurts: any
  strategy from S can be played after it, ignoring what it showed, so ``win(S)`` is
  the sum of ``win`` over the parts it splits S into. When such cells split S, all
  of them are opened at once (S is split by their joint numbers) and no other cell
  is considered. This is also why splitting by the number of the opened cell alone
  is enough: in the part where it shows 0 its neighbours are safe, so they are
  opened next, which is the flood fill.
- *Bounds.* Opening c wins at most the weight of the layouts where c is safe, and
  at most the sum of cheap upper bounds of the parts (a part with no safe cell to
  open wins at most the largest safe weight of a cell), and the bound tightens as
  the parts are solved. Cells are tried in decreasing order of their safe weight,
  and a cell is abandoned once its bound cannot beat the best cell so far. Clicks
  likely to open are tried first, and a later first click is abandoned the same way.
- *Symmetry.* With a free first click only one click per orbit of the board's
  symmetries is tried (every click under ``winxp``, whose relocation is not
  symmetric), and states of more than 8 layouts with equal weights are memoised
  under the least of their images by the symmetries.

Limit
-----
A computation enumerates C(N, M) layouts with a free click or under ``uniform``,
and with a given click C(N-1, M) (``safe-click``, ``winxp``) or C(N-k, M)
(``safe-opening``, k the size of the click's closed neighbourhood). More than
`MAX_LAYOUTS` (200 000) is refused with a ValueError, and so are more than
`MAX_LAYOUT_CELLS` cells in all the layouts together; every board of at most 20
cells fits. Time grows with the number of layouts, memory with the states memoised.
CPU times on one core of a busy shared machine (and peak memory of the process):

- 4x4/4: 0.3 s; each 4x4 mine count at most 2.7 s under ``uniform``, 2.3 s under
  ``safe-click``, 0.1 s under ``safe-opening``, 17 s under ``winxp`` with a free
  click (all 16 clicks are tried); 2x8 and 1x16 at most 5 s (``uniform``);
- 4x5/5: 24 s (``uniform``), 21 s (``safe-click``), 90 s (``winxp``); 5x4/6: 73 s;
- 4x5/8: 200 s (1.4 GiB); 4x5/10, the most layouts on 20 cells: 130 s (1.1 GiB);
  2x10/8: 225 s (1.2 GiB); 1x20/10: 100 s (1 GiB).
"""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import combinations

import numpy as np

from minestats.foundations.board import Board, resolve_board
from minestats.foundations.rules import Rule
from minestats.foundations.validation import SearchBudgetExceeded, resolve_rule
from minestats.mechanics.rules import check_rule

__all__ = ["MAX_LAYOUTS", "MAX_LAYOUT_CELLS", "layout_distribution",
           "optimal_win_probability"]

MAX_LAYOUTS = 200_000
"""Most layouts `optimal_win_probability` enumerates: C(20, 10) = 184 756 fits."""
MAX_LAYOUT_CELLS = 4_000_000
"""Most cells of all the layouts together (layouts times board cells): a board of few
layouts but many cells (``100x100/1``) would take hours and gigabytes."""

_SMALL = 8  # states of at most this many layouts are solved in plain Python


def _cell(board: Board, index: int) -> tuple[int, int]:
    return (index % board.width, index // board.width)


def _kept_free(board: Board, index: int, rule: Rule) -> list[int]:
    """Cells every layout of ``rule`` leaves free for click ``index``, ascending.

    The cells the rule protects and, under a relocating rule, the click itself: once
    a mine under it has moved, the click is free.
    """
    cells = set(rule.protected_cells(board, _cell(board, index)))
    if rule.relocates:
        cells.add(index)
    return sorted(cells)


def _layout_count(board: Board, index: int | None, rule: Rule) -> int:
    """Layouts enumerated for one click (``index``), or for every click (None)."""
    free = 0 if index is None else len(_kept_free(board, index, rule))
    return math.comb(board.cells - free, board.mines)


def _check_size(board: Board, index: int | None, rule: Rule) -> None:
    count = _layout_count(board, index, rule)
    which = "with a free click" if index is None else f"with click {_cell(board, index)}"
    if count > MAX_LAYOUTS:
        raise ValueError(
            f"board {board} has {count} layouts under rule {rule.name!r} {which}, more than "
            f"MAX_LAYOUTS = {MAX_LAYOUTS} that optimal_win_probability can solve"
        )
    if count * board.cells > MAX_LAYOUT_CELLS:
        raise ValueError(
            f"board {board} has {count:,} layouts of {board.cells:,} cells under rule "
            f"{rule.name!r} {which}: {count * board.cells:,} cells in all, more than "
            f"MAX_LAYOUT_CELLS = {MAX_LAYOUT_CELLS:,} that optimal_win_probability holds"
        )


def _enumerate(cells, n: int, m: int) -> np.ndarray:
    """All layouts of ``m`` mines among ``cells`` (of ``n``), ``L x n`` bool, lexicographic."""
    if m == 0:
        return np.zeros((1, n), dtype=bool)
    chosen = np.array(list(combinations(list(cells), m)), dtype=np.int64)
    layouts = np.zeros((len(chosen), n), dtype=bool)
    layouts[np.arange(len(chosen))[:, None], chosen] = True
    return layouts


def _weights(board: Board, layouts: np.ndarray, index: int, rule: Rule) -> np.ndarray:
    """Weight of each layout in the rule's distribution for click ``index`` (0 if impossible).

    A layout is possible when the cells the rule keeps free (`_kept_free`) are. Under a
    relocating rule (``winxp``), a final layout P (its click free) arises from P itself
    and from P - {f} + {click} for each mine f of P whose earlier cells in row-major
    order, the click skipped, are all mines: its weight is 1 + the leading run of mines.
    """
    free = ~layouts[:, _kept_free(board, index, rule)].any(axis=1)
    if not rule.relocates:
        return free.astype(np.int64)
    run = np.cumprod(np.delete(layouts, index, axis=1), axis=1, dtype=np.int64).sum(axis=1)
    return np.where(free, 1 + run, 0)


def layout_distribution(board, *, rule: str = "uniform", click=None):
    """Every layout of a first-click rule with its exact integer weight.

    Parameters
    ----------
    board : Board or str
        A `~minestats.foundations.board.Board`, a preset name or a ``WxH/M`` string.
    rule : {'uniform', 'safe-click', 'safe-opening', 'winxp'}
        How the mines are placed (see `minestats.mechanics.rules`).
    click : tuple of int or str, optional
        The first click; needed by every rule but ``uniform``.

    Returns
    -------
    mines : numpy.ndarray of bool, shape (L, height, width)
        The distinct layouts, each once, in lexicographic order of their mined cells.
    weights : numpy.ndarray of int64, shape (L,)
        How many equally likely placements give each layout. For ``winxp`` they count
        the ``C(N, M)`` placements before relocation: a layout whose mines, in
        row-major order skipping the click, start with a run of r mines has weight
        1 + r. The other rules weigh every layout 1.

    Raises
    ------
    ValueError
        If the board, rule or click is invalid, the rule cannot place the mines, or
        there are more than `MAX_LAYOUTS` layouts.

    Examples
    --------
    >>> mines, weights = layout_distribution("3x1/1", rule="winxp", click=(0, 0))
    >>> mines.astype(int).tolist(), weights.tolist()
    ([[[0, 1, 0]], [[0, 0, 1]]], [2, 1])
    """
    board = resolve_board(board)
    x, y = check_rule(board, (0, 0) if click is None else click, rule)
    rule = resolve_rule(rule)
    if click is None and rule.needs_click:
        raise ValueError(f"rule {rule.name!r} needs a click")
    index = x + y * board.width
    _check_size(board, index, rule)
    pool = np.delete(np.arange(board.cells), _kept_free(board, index, rule))
    layouts = _enumerate(pool.tolist(), board.cells, board.mines)
    weights = _weights(board, layouts, index, rule)
    return layouts.reshape(-1, board.height, board.width), weights


def _numbers(board: Board, layouts: np.ndarray) -> np.ndarray:
    """``L x N`` int8 table: each cell's number in each layout, -1 for a mine."""
    adjacency = np.zeros((board.cells, board.cells), dtype=np.int8)
    for cell, row in enumerate(board.neighbour_table):
        adjacency[row[(row >= 0) & (row != cell)], cell] = 1
    numbers = layouts.astype(np.int8) @ adjacency
    numbers[layouts] = -1
    return numbers


def _symmetries(board: Board) -> list[np.ndarray]:
    """Cell permutations (linear indices) of the board's symmetries, identity first."""
    w, h = board.width, board.height
    x, y = np.meshgrid(np.arange(w), np.arange(h))
    maps = []
    for swap in (False, True) if w == h else (False,):
        a, b = (y, x) if swap else (x, y)
        for flip_a in (False, True):
            for flip_b in (False, True):
                u = w - 1 - a if flip_a else a
                v = h - 1 - b if flip_b else b
                maps.append((u + v * w).ravel())
    return maps


def _layout_images(board: Board, layouts: np.ndarray) -> list[np.ndarray]:
    """Layout permutations of the board symmetries that map ``layouts`` onto itself.

    Entry ``l`` of each array is the index of the image of layout ``l``.
    """
    if board.cells > 62 or len(layouts) < 2:
        return []
    powers = np.int64(1) << np.arange(board.cells, dtype=np.int64)
    codes = layouts.astype(np.int64) @ powers
    order = np.argsort(codes)
    images = []
    for cells in _symmetries(board)[1:]:
        moved = np.zeros_like(layouts)
        moved[:, cells] = layouts
        moved_codes = moved.astype(np.int64) @ powers
        found = np.searchsorted(codes, moved_codes, sorter=order)
        where = order[np.minimum(found, len(order) - 1)]
        if np.array_equal(codes[where], moved_codes):
            images.append(where.astype(np.int32))
    return images


class LayoutSolver:
    """Memoised integer recursion ``win(S) = V(S) W(S)`` over one table of numbers.

    `use` sets the weights of the layouts (0 off the current distribution). The memo
    holds ``win`` divided by the gcd of the state's weights, so states whose weights
    are proportional, in particular equal, share entries across distributions. With
    a ``budget``, solving more than that many states (memo hits not counted) raises
    `~minestats.foundations.validation.SearchBudgetExceeded`.
    """

    def __init__(self, numbers: np.ndarray, images=(), *, budget: int | None = None):
        self.numbers = numbers
        self.budget = math.inf if budget is None else budget
        self.rows = [tuple(row) for row in numbers.tolist()]
        identity = np.arange(len(numbers), dtype=np.int32)
        self.images = np.stack([identity, *images])  # layout permutations, identity first
        self.memo: dict[bytes, int] = {}
        self.bounds: dict[bytes, int] = {}
        self.small: dict[tuple, int] = {}
        self.use(np.ones(len(numbers), dtype=np.int64))

    def use(self, weights: np.ndarray) -> None:
        self.weights = weights
        self.plain_weights = weights.tolist()
        self.unit = bool((weights <= 1).all())

    def weight(self, states: np.ndarray) -> int:
        return int(states.size) if self.unit else int(self.weights[states].sum())

    def canonical(self, states: np.ndarray) -> bytes:
        """Return the least of the state's images under the symmetries, as bytes."""
        size = 4 * states.size
        data = np.sort(self.images[:, states], axis=1).tobytes()
        return min(data[i : i + size] for i in range(0, len(data), size))

    def lookup(self, states: np.ndarray) -> tuple[bytes, int, int | None]:
        """Memo key, weight scale and memoised ``win / scale`` (None) of a state."""
        if not self.unit:
            weights = self.weights[states]
            scale = int(np.gcd.reduce(weights))
            if (weights != weights[0]).any():
                key = states.tobytes() + b"w" + (weights // scale).tobytes()
                return key, scale, self.memo.get(key)
        else:
            scale = 1
        plain = states.tobytes()
        known = self.memo.get(plain)
        if known is not None or len(self.images) == 1:
            return plain, scale, known
        key = self.canonical(states)
        known = self.memo.get(key)
        if known is not None:
            self.memo[plain] = known
        return key, scale, known

    @staticmethod
    def split(states: np.ndarray, keys: np.ndarray) -> list[np.ndarray]:
        """Split ``states`` into groups of equal ``keys`` rows (or values), each still sorted."""
        if keys.ndim == 1:
            order = np.argsort(keys, kind="stable")
            ordered = keys[order]
            changes = ordered[1:] != ordered[:-1]
        else:
            order = np.lexsort(keys.T)
            ordered = keys[order]
            changes = (ordered[1:] != ordered[:-1]).any(axis=1)
        states = states[order]
        cuts = [0, *(np.flatnonzero(changes) + 1).tolist(), states.size]
        return [states[a:b] for a, b in zip(cuts[:-1], cuts[1:], strict=True)]

    def win(self, states: np.ndarray) -> int:
        """``V(S) W(S)`` of the state whose sorted layout indices are ``states``."""
        if states.size <= _SMALL:
            return self.win_small(tuple(states.tolist()))
        key, scale, known = self.lookup(states)
        if known is not None:
            return known * scale
        self.spend()
        rows = self.numbers[states]
        differs = (rows != rows[0]).any(axis=0)
        safe = differs & (rows >= 0).all(axis=0)
        if safe.any():
            result = sum(self.win(part) for part in self.split(states, rows[:, safe]))
        else:
            result = self.best_move(states, rows, np.flatnonzero(differs))
        self.memo[key] = result // scale
        if len(key) == 4 * states.size:
            self.memo[states.tobytes()] = result // scale
        self.bounds.pop(key, None)
        return result

    def spend(self) -> None:
        """Count one state solved against the budget."""
        self.budget -= 1
        if self.budget < 0:
            raise SearchBudgetExceeded

    def upper(self, states: np.ndarray) -> int:
        """Cheap upper bound of ``win``: the weight, or the best safe weight of a cell."""
        if states.size <= _SMALL:
            return self.weight(states)
        key, scale, known = self.lookup(states)
        if known is None:
            known = self.bounds.get(key)
        if known is not None:
            return known * scale
        rows = self.numbers[states]
        differs = (rows != rows[0]).any(axis=0)
        safe_rows = rows[:, differs] >= 0
        if safe_rows.all(axis=0).any():
            bound = self.weight(states)
        elif self.unit:
            bound = int(safe_rows.sum(axis=0).max())
        else:
            bound = int((self.weights[states] @ safe_rows).max())
        self.bounds[key] = bound // scale
        return bound // scale * scale

    def best_move(self, states: np.ndarray, rows: np.ndarray, cells: np.ndarray) -> int:
        """Best ``win`` over the cells to open, tried in decreasing safe weight."""
        total = self.weight(states)
        safe_rows = rows[:, cells] >= 0
        bounds = safe_rows.sum(axis=0) if self.unit else self.weights[states] @ safe_rows
        best = 0
        for j in np.argsort(-bounds, kind="stable").tolist():
            if bounds[j] <= best:
                break
            value = self.open(states, rows[:, cells[j]], best)
            if value is not None and value > best:
                best = value
                if best == total:
                    break
        return best

    def best_openings(self, states: np.ndarray, rows: np.ndarray,
                      cells: np.ndarray) -> tuple[int, list[int]]:
        """Best ``win`` over the cells to open, and every cell that reaches it.

        Cells are tried in decreasing safe weight; a cell whose bound cannot reach
        the best so far is skipped, one that can tie is solved. The cells are listed
        in the order tried (an empty list when no cell wins anything).
        """
        safe_rows = rows[:, cells] >= 0
        bounds = safe_rows.sum(axis=0) if self.unit else self.weights[states] @ safe_rows
        best, chosen = 0, []
        for j in np.argsort(-bounds, kind="stable").tolist():
            if bounds[j] < best or bounds[j] == 0:
                break
            value = self.open(states, rows[:, cells[j]], best - 1)
            if value is None or value < best:
                continue
            if value > best:
                best, chosen = value, []
            chosen.append(int(cells[j]))
        return best, chosen

    def open(self, states: np.ndarray, column: np.ndarray, best: int = -1) -> int | None:
        """``win`` of opening a cell whose numbers are ``column``; None if it is <= best."""
        keep = column >= 0
        if not keep.any():
            return 0
        parts = self.split(states[keep], column[keep])
        bounds = [self.upper(part) for part in parts]
        bound = sum(bounds)
        if bound <= best:
            return None
        value = 0
        for j in np.argsort(bounds, kind="stable")[::-1].tolist():
            part_win = self.win(parts[j])
            value += part_win
            bound -= bounds[j] - part_win
            if bound <= best:
                return None
        return value

    def win_small(self, states: tuple[int, ...]) -> int:
        """`win` of a small state, in plain Python (memoised without symmetry)."""
        weights = self.plain_weights
        if len(states) == 1:
            return weights[states[0]]
        if self.unit:
            key, scale = states, 1
        else:
            mine_weights = [weights[layout] for layout in states]
            scale = math.gcd(*mine_weights)
            if min(mine_weights) == max(mine_weights):
                key = states
            else:
                key = (states, tuple(w // scale for w in mine_weights))
        known = self.small.get(key)
        if known is not None:
            return known * scale
        self.spend()
        rows = [self.rows[layout] for layout in states]
        columns = list(zip(*rows, strict=True))
        lows = [min(column) for column in columns]
        highs = [max(column) for column in columns]
        safe = [c for c, low in enumerate(lows) if 0 <= low != highs[c]]
        if safe:
            groups: dict[tuple[int, ...], list[int]] = {}
            for layout, row in zip(states, rows, strict=True):
                groups.setdefault(tuple([row[c] for c in safe]), []).append(layout)
            result = sum(self.win_small(tuple(group)) for group in groups.values())
        else:
            state_weights = [weights[layout] for layout in states]
            moves = sorted(
                (
                    (sum(w for w, v in zip(state_weights, column, strict=True) if v >= 0), c)
                    for c, column in enumerate(columns)
                    if lows[c] < 0 <= highs[c]
                ),
                reverse=True,
            )
            total = sum(state_weights)
            result = 0
            for bound, c in moves:
                if bound <= result:
                    break
                by_number: dict[int, list[int]] = {}
                for layout, v in zip(states, columns[c], strict=True):
                    if v >= 0:
                        by_number.setdefault(v, []).append(layout)
                value = 0
                for group in by_number.values():
                    part_win = self.win_small(tuple(group))
                    value += part_win
                    bound -= sum(weights[layout] for layout in group) - part_win
                    if bound <= result:
                        break
                else:
                    result = value
                    if result == total:
                        break
        self.small[key] = result // scale
        return result


def _clicks(board: Board, rule: Rule) -> list[int]:
    """Feasible first clicks, one per symmetry orbit (all of them under ``winxp``)."""
    feasible = [
        i for i in range(board.cells)
        if board.mines <= rule.max_mines(board, _cell(board, i))
    ]
    if not rule.symmetric:
        return feasible
    maps = _symmetries(board)
    return [i for i in feasible if min(int(p[i]) for p in maps) == i]


def optimal_win_probability(board, *, rule: str = "uniform", click=None) -> Fraction:
    """Exact probability of winning with perfect play.

    The player knows the mine count and the rule and plays to maximise the
    probability of opening every safe cell; the module docstring gives the
    recursion and its pruning.

    Parameters
    ----------
    board : Board or str
        A `~minestats.foundations.board.Board`, a preset name or a ``WxH/M`` string.
    rule : {'uniform', 'safe-click', 'safe-opening', 'winxp'}
        How the mines are placed (see `minestats.mechanics.rules`). Under ``uniform`` the first
        click may hit a mine.
    click : tuple of int or str, optional
        The first click, ``(x, y)``, ``"x,y"``, ``"centre"`` or ``"corner"``. By
        default it is chosen optimally too: the best value over clicks.

    Returns
    -------
    fractions.Fraction
        The win probability of an optimal player (given the first click, if any).
        When every cell is a mine (``uniform`` only) the game is won before any
        click: the value is 1 with no click given and 0 with one.

    Raises
    ------
    ValueError
        If the board, rule or click is invalid, the rule cannot place the mines (for
        the click, or for any click if none is given), or more than `MAX_LAYOUTS`
        layouts would be needed.

    Notes
    -----
    The number of layouts enumerated is C(N, M) for ``uniform`` or a free click,
    else C(N-1, M) (``safe-click``, ``winxp``) or C(N-k, M) (``safe-opening``, k
    the size of the click's closed neighbourhood); at most `MAX_LAYOUTS` (200 000),
    which every board of at most 20 cells meets. A 16-cell board takes seconds
    (``winxp`` with a free click up to about 20 s: it tries all 16 clicks), a
    20-cell board minutes (``winxp`` with a free click several times longer); the
    module docstring gives measured times.

    Examples
    --------
    >>> optimal_win_probability("3x3/1")
    Fraction(8, 9)
    >>> optimal_win_probability("4x1/1", click="corner")
    Fraction(3, 4)
    >>> optimal_win_probability("3x3/2", rule="safe-click")
    Fraction(6, 7)
    >>> optimal_win_probability("3x3/2", rule="safe-opening", click="centre")
    Traceback (most recent call last):
    ...
    ValueError: mines (2) must be at most 0 for rule 'safe-opening' on 3x3 with click (1, 1)
    """
    board = resolve_board(board)
    if click is not None:
        x, y = check_rule(board, click, rule)
        rule = resolve_rule(rule)
        index = x + y * board.width
        clicks = [index]
        _check_size(board, index, rule)
        pool = np.delete(np.arange(board.cells), _kept_free(board, index, rule))
    else:
        check_rule(board, (0, 0), rule)  # the corner admits the most mines
        rule = resolve_rule(rule)
        clicks = _clicks(board, rule)
        _check_size(board, None, rule)
        pool = np.arange(board.cells)
    if board.mines == 0:
        return Fraction(1)
    layouts = _enumerate(pool.tolist(), board.cells, board.mines)
    if click is None and board.mines == board.cells:
        return Fraction(1)  # every cell a mine (a rule that protects nothing): nothing to open
    solver = LayoutSolver(_numbers(board, layouts), _layout_images(board, layouts))
    # Clicks likely to open come first, so that the best value so far prunes the others.
    distributions = [_weights(board, layouts, index, rule) for index in clicks]
    opens = [
        int(w[solver.numbers[:, i] == 0].sum())
        for i, w in zip(clicks, distributions, strict=True)
    ]
    best = Fraction(-1)
    for j in np.argsort(opens, kind="stable")[::-1].tolist():
        weights = distributions[j]
        solver.use(weights)
        states = np.flatnonzero(weights).astype(np.int32)
        total = int(weights.sum())
        # only a win above best * total matters
        value = solver.open(states, solver.numbers[states, clicks[j]], math.floor(best * total))
        if value is not None and Fraction(value, total) > best:
            best = Fraction(value, total)
    return best
