"""Board-level samplers: whole layouts drawn by each rule's own placement procedure.

Every sampler draws complete layouts, never only the cells near the click. The
compiled kernels share one drawing step: a partial Fisher-Yates shuffle over the
cells a rule may mine (`minestats.mechanics.rules.placement_cells`), followed for ``winxp``
by the relocation of a mine under the click. Uniform integers are made exactly
(by rejection) from the 53 random bits of ``Generator.random``, so every layout
is equally likely, not merely nearly so.

The kernels are compiled with numba on first use and cached on disk.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from minestats.foundations.board import Board, resolve_board
from minestats.foundations.seeds import as_generator
from minestats.foundations.validation import check_count
from minestats.mechanics.rules import check_rule, placement_cells

__all__ = [
    "MAX_SAMPLE_CELLS",
    "check_sample_size",
    "chunk_games",
    "chunk_layouts",
    "count_openings",
    "count_openings_all_clicks",
    "relocate_mines",
    "sample_mines",
]

MAX_SAMPLE_CELLS = 2**28
"""The most cells (layouts times cells per layout) one call of `sample_mines` draws: 256
MiB of bools, so that a chunk of work stays in bounded memory on every worker."""


def check_sample_size(board: Board, n: int, chunk_size: int | None = None) -> None:
    """Refuse to draw ``n`` layouts at once (``chunk_size`` at a time) past `MAX_SAMPLE_CELLS`.

    Drivers that draw their chunks with `sample_mines` check the chunk before any
    work starts, so a big board with the default chunk size is one line, not a
    worker's MemoryError.

    Examples
    --------
    >>> from minestats.foundations.board import Board
    >>> check_sample_size(Board(30, 16, 99), 10**12, 2_000)
    >>> check_sample_size(Board(1000, 1000, 10), 10**6, 2_000)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: 2,000 layouts of board 1000x1000/10 at once hold 2,000,000,000 cells, more ...
    """
    count = n if chunk_size is None else min(n, check_count("chunk_size", chunk_size))
    if count * board.cells > MAX_SAMPLE_CELLS:
        raise ValueError(f"{count:,} layouts of board {board} at once hold "
                         f"{count * board.cells:,} cells, more than MAX_SAMPLE_CELLS = "
                         f"{MAX_SAMPLE_CELLS:,}: ask for fewer at a time (n or chunk_size)")

_TWO_TO_53 = 9007199254740992.0


@njit(cache=True, inline="always")
def _uniform_below(rng, bound):
    """Exactly uniform integer in ``[0, bound)`` from 53-bit doubles, by rejection."""
    b = np.uint64(bound)
    top = np.uint64(9007199254740992)
    while True:
        x = np.uint64(rng.random() * _TWO_TO_53)
        r = x % b
        if x - r <= top - b:
            return np.int64(r)


@njit(cache=True)
def _draw_cells(rng, allowed, perm, cells):
    """Put ``cells.size`` distinct cells of ``allowed``, uniformly chosen, into ``cells``.

    ``perm`` is any permutation of ``range(allowed.size)``; it is shuffled in place
    and may be reused for the next draw, since a partial Fisher-Yates shuffle picks
    a uniform subset whatever order it starts from.
    """
    total = allowed.size
    for i in range(cells.size):
        j = i + _uniform_below(rng, total - i)
        chosen = perm[j]
        perm[j] = perm[i]
        perm[i] = chosen
        cells[i] = allowed[chosen]


@njit(cache=True)
def _first_free_cell(occupied, cells, skip):
    """Row-major index of the first cell not in ``cells`` and not ``skip``.

    ``occupied`` is an all-False scratch array of the board's size; it is left
    all-False again.
    """
    for cell in cells:
        occupied[cell] = True
    first = 0
    while occupied[first] or first == skip:
        first += 1
    for cell in cells:
        occupied[cell] = False
    return first


@njit(cache=True)
def _draw_layout(rng, allowed, perm, cells, occupied, click, relocate):
    """Draw one layout into ``cells``.

    With ``relocate`` (the ``winxp`` rule) a mine on ``click`` moves to the first
    mine-free cell in row-major order other than the click.
    """
    _draw_cells(rng, allowed, perm, cells)
    if relocate:
        for i in range(cells.size):
            if cells[i] == click:
                cells[i] = _first_free_cell(occupied, cells, click)


@njit(cache=True)
def _sample_kernel(rng, allowed, mines, click, relocate, out):
    perm = np.arange(allowed.size)
    cells = np.empty(mines, dtype=np.int64)
    occupied = np.zeros(out.shape[1], dtype=np.bool_)
    for board in range(out.shape[0]):
        _draw_layout(rng, allowed, perm, cells, occupied, click, relocate)
        for cell in cells:
            out[board, cell] = True


@njit(cache=True)
def _count_kernel(rng, allowed, mines, click, relocate, in_neighbourhood, n):
    perm = np.arange(allowed.size)
    cells = np.empty(mines, dtype=np.int64)
    occupied = np.zeros(in_neighbourhood.size, dtype=np.bool_)
    opened = 0
    for _ in range(n):
        _draw_layout(rng, allowed, perm, cells, occupied, click, relocate)
        clear = True
        for cell in cells:
            if in_neighbourhood[cell]:
                clear = False
        opened += clear
    return opened


@njit(cache=True)
def _block(table, source, stamp, board, blocked, low, high, skip):
    """Count clicks in ``source``'s closed neighbourhood as not opened on this board.

    Only clicks ``t`` with ``low <= t <= high`` and ``t != skip`` are touched;
    ``stamp`` makes sure a click is counted once per board however many mines
    touch it.
    """
    for t in table[source]:
        if t < 0:
            break
        if low <= t <= high and t != skip and stamp[t] != board:
            stamp[t] = board
            blocked[t] += 1


_UNIFORM_DRAW = 0
"""All-clicks mode: one uniform draw over every cell serves every click (``uniform``)."""
_OTHER_CELLS_DRAW = 1
"""All-clicks mode: one draw over N - 1 slots, mapped around each click (``safe-click``)."""
_RELOCATED_DRAW = 3
"""All-clicks mode: the uniform draw, a mine on the click moved as Windows XP does."""
_ALL_CLICKS_MODES = {"uniform": _UNIFORM_DRAW, "safe-click": _OTHER_CELLS_DRAW,
                     "winxp": _RELOCATED_DRAW}
"""The rules one shared draw serves for every click, and how (``safe-opening`` has none)."""


@njit(cache=True)
def _all_clicks_kernel(rng, table, mines, mode, n):
    """Boards per click that opened, for every click at once.

    ``mode`` `_UNIFORM_DRAW` (``uniform``) and `_RELOCATED_DRAW` (``winxp``) share one
    uniform draw over all cells per board. For ``winxp`` a mine on the click moves to
    the first mine-free cell, the same cell for every mined click of a board, so a mine
    blocks its own cell only if that cell is its neighbour. ``mode`` `_OTHER_CELLS_DRAW`
    (``safe-click``) draws ``mines`` of N - 1 slots per board; for click t, slot s is
    cell s when s < t and cell s + 1 otherwise, which is exactly a uniform layout over
    the cells other than t.
    """
    total = table.shape[0]
    slots = total - 1 if mode == _OTHER_CELLS_DRAW else total
    allowed = np.arange(slots)
    perm = np.arange(slots)
    cells = np.empty(mines, dtype=np.int64)
    occupied = np.zeros(total, dtype=np.bool_)
    stamp = np.full(total, -1, dtype=np.int64)
    near_first_free = np.full(total, -1, dtype=np.int64)
    blocked = np.zeros(total, dtype=np.int64)
    for board in range(n):
        _draw_cells(rng, allowed, perm, cells)
        if mode == _RELOCATED_DRAW:
            for t in table[_first_free_cell(occupied, cells, -1)]:
                if t >= 0:
                    near_first_free[t] = board
        for s in cells:
            if mode == _OTHER_CELLS_DRAW:
                _block(table, s, stamp, board, blocked, s + 1, total - 1, -1)
                _block(table, s + 1, stamp, board, blocked, 0, s, -1)
                continue
            skip = s if mode == _RELOCATED_DRAW and near_first_free[s] != board else -1
            _block(table, s, stamp, board, blocked, 0, total - 1, skip)
    return n - blocked


def _kernel_arguments(board: Board, click, rule: str):
    click = check_rule(board, click, rule)
    allowed = placement_cells(board, click, rule)
    return board.index(click), allowed, rule == "winxp"


def sample_mines(board: Board, n: int, *, rule: str, click, seed=None) -> np.ndarray:
    """Draw ``n`` whole layouts by the rule's placement procedure.

    Parameters
    ----------
    board : Board or str
        A `Board`, a preset name or ``"WxH/M"``.
    n : int
        Number of layouts.
    rule : {'uniform', 'safe-click', 'safe-opening', 'winxp'}
    click : tuple of int or str
        The first click, ``(x, y)``, ``"centre"`` or ``"corner"``.
    seed : numpy.random.Generator, int, str, numpy.random.SeedSequence or None
        Source of randomness (`minestats.foundations.seeds.as_generator`): a Generator's
        stream goes on; any other seed starts a new one.

    Returns
    -------
    numpy.ndarray
        Bool array of shape ``(n, height, width)``; ``True`` marks a mine. Each
        layout holds exactly ``board.mines`` mines.

    Examples
    --------
    >>> from minestats.foundations.board import BEGINNER
    >>> layouts = sample_mines(BEGINNER, 3, rule="safe-opening", click="centre", seed=1)
    >>> layouts.shape, layouts.sum(axis=(1, 2)).tolist()
    ((3, 9, 9), [10, 10, 10])
    >>> bool(layouts[:, 3:6, 3:6].any())
    False
    """
    board = resolve_board(board)
    n = check_count("n", n, minimum=0)
    check_sample_size(board, n)
    index, allowed, relocate = _kernel_arguments(board, click, rule)
    generator = as_generator(seed)
    out = np.zeros((n, board.cells), dtype=bool)
    _sample_kernel(generator, allowed, board.mines, index, relocate, out)
    return out.reshape((n, *board.shape))


def chunk_layouts(board: Board, size: int, seed_sequence, *, rule: str, click) -> np.ndarray:
    """Draw one chunk's layouts from its seed: the boards of every driver that only solves.

    `minestats.pass_rate`, `minestats.bbbv_histogram` and `minestats.compare`
    (solvers) draw their chunks here, so a chunk with the same seed is the same
    boards in each, which is what pairs a solver comparison with the pass rates.

    Parameters
    ----------
    board : Board
    size : int
        Layouts in the chunk.
    seed_sequence : numpy.random.SeedSequence
        The chunk's seed (`minestats.runs.chunks.chunk_seeds`).
    rule : str
    click : tuple of int

    Returns
    -------
    numpy.ndarray of bool, shape (size, height, width)

    See Also
    --------
    chunk_games : the layouts and tie-break seeds of the drivers that play.

    Examples
    --------
    >>> layouts = chunk_layouts(Board(5, 5, 3), 4, np.random.SeedSequence(1),
    ...                         rule="safe-click", click=(0, 0))
    >>> layouts.shape, bool(layouts[:, 0, 0].any())
    ((4, 5, 5), False)
    """
    return sample_mines(board, size, rule=rule, click=click, seed=seed_sequence)


def chunk_games(board: Board, size: int, seed_sequence, *, rule: str, click):
    """Draw one chunk's games from its seed: layouts, and a tie-break seed per game.

    `minestats.win_rate`, `minestats.compare` (policies) and
    `minestats.drivers.comparisons.compare_clicks` draw their chunks here, so a
    chunk with the same seed is the same games in each, which is what pairs them.
    The seed's first child draws the layouts (`chunk_layouts`), its second the
    games' seeds; a caller that needs more spawns after this call.

    Parameters
    ----------
    board, size, seed_sequence, rule, click
        As for `chunk_layouts` (``size`` games).

    Returns
    -------
    layouts : numpy.ndarray of bool, shape (size, height, width)
    seeds : list of numpy.random.SeedSequence
        One per game.

    See Also
    --------
    chunk_layouts : the layouts of the drivers that only solve.

    Examples
    --------
    >>> layouts, seeds = chunk_games(Board(5, 5, 3), 4, np.random.SeedSequence(1),
    ...                              rule="safe-click", click=(0, 0))
    >>> layouts.shape, len(seeds), bool(layouts[:, 0, 0].any())
    ((4, 5, 5), 4, False)
    """
    layouts_seed, games_seed = seed_sequence.spawn(2)
    return (chunk_layouts(board, size, layouts_seed, rule=rule, click=click),
            games_seed.spawn(size))


def relocate_mines(board: Board, layouts: np.ndarray, click, *, rule: str,
                   seed=None) -> np.ndarray:
    """Turn layouts drawn by ``uniform`` into layouts of ``rule`` at ``click``, coupled.

    Comparing first clicks or rules on the same boards (common random numbers) needs
    one draw that serves them all. Each layout here is a draw of ``uniform`` (all
    cells alike); the mines ``rule`` keeps off (the click for ``safe-click`` and
    ``winxp``, its closed neighbourhood for ``safe-opening``) are then moved:

    - ``winxp``: a mine on the click moves to the first mine-free cell in row-major
      order other than the click, as `sample_mines` does (with the seed that drew
      the uniform layouts, the result is `sample_mines`'s ``winxp`` draw);
    - ``safe-click``, ``safe-opening``: the ``j`` mines on kept-off cells move to
      ``j`` distinct mine-free allowed cells drawn uniformly. The result is the
      rule's own distribution: the layout's mines among the allowed cells, plus a
      uniform choice of the rest among the allowed cells they left free, is
      unchanged by any permutation of the allowed cells (the uniform draw is, and
      so is the added choice), so every set of ``mines`` allowed cells is equally
      likely;
    - ``uniform``: unchanged.

    Layouts with no mine on a kept-off cell are returned as they are, so two clicks
    or rules share every board the move leaves alone.

    Parameters
    ----------
    board : Board or str
    layouts : numpy.ndarray of bool, shape (n, height, width)
        Layouts with ``board.mines`` mines each, from ``sample_mines(..., rule="uniform")``.
    click : tuple of int or str
    rule : {'uniform', 'safe-click', 'safe-opening', 'winxp'}
    seed : numpy.random.Generator, int, str, numpy.random.SeedSequence or None
        Source of the random moves (``safe-click``, ``safe-opening``).

    Returns
    -------
    numpy.ndarray
        New bool array of the same shape; ``layouts`` is not changed.

    Examples
    --------
    >>> from minestats.foundations.board import Board
    >>> board = Board(3, 2, 2)
    >>> layouts = sample_mines(board, 4, rule="uniform", click=(0, 0), seed=5)
    >>> moved = relocate_mines(board, layouts, (0, 0), rule="winxp")
    >>> bool((moved == sample_mines(board, 4, rule="winxp", click=(0, 0), seed=5)).all())
    True
    >>> moved = relocate_mines(board, layouts, (0, 0), rule="safe-click", seed=1)
    >>> bool(moved[:, 0, 0].any()), moved.sum(axis=(1, 2)).tolist()
    (False, [2, 2, 2, 2])
    """
    board = resolve_board(board)
    click = check_rule(board, click, rule)
    layouts = np.asarray(layouts, dtype=bool)
    if layouts.ndim != 3 or layouts.shape[1:] != board.shape:
        raise ValueError(f"layouts of shape {layouts.shape} are not (n, {board.height}, "
                         f"{board.width}) layouts of board {board}")
    flat = layouts.reshape(len(layouts), board.cells).copy()
    if flat.sum(axis=1).tolist() != [board.mines] * len(flat):
        raise ValueError(f"every layout must hold the board's {board.mines} mines")
    kept_off = np.ones(board.cells, dtype=bool)
    kept_off[placement_cells(board, click, rule)] = False
    if rule == "winxp":
        kept_off[board.index(click)] = True
    generator = as_generator(seed)
    for row in np.flatnonzero(flat[:, kept_off].any(axis=1)):
        if rule == "winxp":
            free = ~flat[row]
            free[board.index(click)] = False
            flat[row, board.index(click)] = False
            flat[row, np.argmax(free)] = True
            continue
        moved = int(flat[row, kept_off].sum())
        flat[row, kept_off] = False
        free = np.flatnonzero(~flat[row] & ~kept_off)
        flat[row, generator.choice(free, size=moved, replace=False)] = True
    return flat.reshape(layouts.shape)


def count_openings(board: Board, n: int, *, rule: str, click, seed=None) -> int:
    """Draw ``n`` layouts for one click and count those on which the click opens.

    Memory does not grow with ``n``: layouts are drawn one at a time into one buffer.

    Examples
    --------
    >>> from minestats.foundations.board import BEGINNER
    >>> count_openings(BEGINNER, 1000, rule="safe-opening", click="centre", seed=0)
    1000
    """
    board = resolve_board(board)
    n = check_count("n", n, minimum=0)
    index, allowed, relocate = _kernel_arguments(board, click, rule)
    in_neighbourhood = np.zeros(board.cells, dtype=bool)
    in_neighbourhood[board.closed_neighbourhood(click)] = True
    generator = as_generator(seed)
    return int(_count_kernel(generator, allowed, board.mines, index, relocate,
                             in_neighbourhood, n))


def count_openings_all_clicks(board: Board, n: int, *, rule: str, seed=None) -> np.ndarray:
    """For every click position, draw ``n`` layouts and count those that open.

    For ``uniform`` and ``winxp`` one layout per board serves every click (for
    ``winxp`` relocated per click); for ``safe-click`` one draw of mines over N - 1
    slots is mapped onto the cells other than each click. Each click's layouts thus
    follow its rule exactly; counts at different clicks are correlated. Other rules
    (``safe-opening``, whose excluded region differs in size between clicks) draw
    ``n`` layouts of their own for each click.

    Returns
    -------
    numpy.ndarray
        Integer counts of shape ``(height, width)``.

    Examples
    --------
    >>> from minestats.foundations.board import Board
    >>> counts = count_openings_all_clicks(Board(3, 3, 0), 50, rule="uniform", seed=0)
    >>> counts.tolist()
    [[50, 50, 50], [50, 50, 50], [50, 50, 50]]
    """
    board = resolve_board(board)
    n = check_count("n", n, minimum=0)
    for click in ((0, 0), board.centre):
        check_rule(board, click, rule)
    generator = as_generator(seed)
    if rule not in _ALL_CLICKS_MODES:  # no shared draw serves every click
        counts = [count_openings(board, n, rule=rule, click=(i % board.width, i // board.width),
                                 seed=generator) for i in range(board.cells)]
        return np.array(counts, dtype=np.int64).reshape(board.shape)
    counts = _all_clicks_kernel(generator, board.neighbour_table, board.mines,
                                _ALL_CLICKS_MODES[rule], n)
    return counts.reshape(board.shape)
