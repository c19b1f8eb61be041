"""Board-level samplers: whole layouts drawn by each rule's own placement procedure.

Every sampler draws complete layouts, never only the cells near the click. The
one-click kernels share one drawing step: a partial Fisher-Yates shuffle over the
cells a rule may mine (`minestats.mechanics.rules.placement_cells`), followed for ``winxp``
by the relocation of a mine under the click. Uniform integers are made exactly
(by rejection) from the 53 random bits of ``Generator.random``, so every layout
is equally likely, not merely nearly so. The all-clicks map
(`count_openings_all_clicks`) draws its own way, faster: distinct cells by
rejection from blocks of exactly uniform integers (`draw_map_subsets`).

The kernels are compiled with numba on first use and cached on disk.
"""

from __future__ import annotations

import numpy as np

from minestats.foundations.board import Board, resolve_board
from minestats.foundations.compiled import compiled
from minestats.foundations.seeds import as_generator
from minestats.foundations.validation import check_count, resolve_rule
from minestats.mechanics.rules import check_rule, placement_cells

__all__ = [
    "MAX_MASK_COLUMNS",
    "MAX_SAMPLE_CELLS",
    "check_sample_size",
    "chunk_games",
    "chunk_layouts",
    "count_openings",
    "count_openings_all_clicks",
    "draw_layouts",
    "draw_map_subsets",
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


@compiled(inline="always")
def _uniform_below(rng, bound):
    """Exactly uniform integer in ``[0, bound)`` from 53-bit doubles, by rejection."""
    b = np.uint64(bound)
    top = np.uint64(9007199254740992)
    while True:
        x = np.uint64(rng.random() * _TWO_TO_53)
        r = x % b
        if x - r <= top - b:
            return np.int64(r)


@compiled
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


@compiled
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


@compiled
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


@compiled
def _sample_kernel(rng, allowed, mines, click, relocate, out):
    perm = np.arange(allowed.size)
    cells = np.empty(mines, dtype=np.int64)
    occupied = np.zeros(out.shape[1], dtype=np.bool_)
    for board in range(out.shape[0]):
        _draw_layout(rng, allowed, perm, cells, occupied, click, relocate)
        for cell in cells:
            out[board, cell] = True


@compiled
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


@compiled
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


def _all_clicks_mode(rule) -> int | None:
    """How one shared draw serves every click under ``rule``, or None if none can.

    A rule that protects the click's whole neighbourhood (``safe-opening``) excludes
    regions of different sizes at different clicks, so no one draw serves them all.
    """
    if rule.relocates:
        return _RELOCATED_DRAW
    return {"nothing": _UNIFORM_DRAW, "click": _OTHER_CELLS_DRAW}.get(rule.protects)


_MAP_BLOCK = 4096
"""Uniform slots the all-clicks draw makes at a time (`_refill`)."""
_MAP_BATCH = 64
"""Boards the all-clicks kernels draw at a time before counting them."""
MAX_MASK_COLUMNS = 62
"""The widest board whose all-clicks map is counted on rows held as 64-bit masks; wider
boards are counted through the neighbour table, one mine at a time, on the same draws."""
_ALL_BITS = np.uint64(2**64 - 1)
"""The largest 64-bit word: ``Generator.integers(0, _ALL_BITS, endpoint=True)`` is raw bits."""


@compiled
def _refill(rng, slots, block):
    """Fill ``block`` with independent, exactly uniform integers in ``[0, slots)``.

    Below 2**16 slots, each 64-bit word of the generator makes four candidates by
    Lemire's method on 16 bits: for x uniform in ``[0, 2**16)``, ``x * slots >> 16`` is
    uniform once the candidates whose low 16 bits fall below ``2**16 % slots`` are
    rejected (fewer than 1 in 100 on Expert). From 2**16 slots on, ``Generator.integers``
    does the same on 32 bits.
    """
    if slots >= 65536:
        block[:] = rng.integers(0, slots, size=block.size)
        return
    bound, low = np.uint64(slots), np.uint64(0xFFFF)
    threshold = np.uint64(65536 % slots)
    filled = 0
    while filled < block.size:
        words = rng.integers(0, _ALL_BITS, size=(block.size - filled) // 4 + 8,
                             dtype=np.uint64, endpoint=True)
        for word in words:
            for quarter in range(4):
                product = ((word >> np.uint64(16 * quarter)) & low) * bound
                if (product & low) >= threshold and filled < block.size:
                    block[filled] = product >> np.uint64(16)
                    filled += 1


@compiled
def _draw_subsets(rng, slots, block, state, stamp, out):
    """Draw one uniform subset of ``out.shape[1]`` of ``range(slots)`` into each row of ``out``.

    Each subset is drawn by rejection: uniform integers in ``[0, slots)`` are read from
    ``block`` (refilled by `_refill` when ``state[0]`` reaches its end) and a value the
    row already holds is skipped, found by ``stamp[value] == state[1]`` (the number of
    subsets drawn so far). Skipping repeats of independent uniform draws gives every
    subset of the given size the same probability: each ordered sequence of distinct
    values is equally likely, whatever the repeats skipped between them. ``block``,
    ``state`` and ``stamp`` carry over between calls, so the subsets are the same
    however the calls divide them.
    """
    at = state[0]
    for row in range(out.shape[0]):
        board = state[1]
        for k in range(out.shape[1]):
            while True:
                if at == block.size:
                    _refill(rng, slots, block)
                    at = 0
                s = block[at]
                at += 1
                if stamp[s] != board:
                    break
            stamp[s] = board
            out[row, k] = s
        state[1] = board + 1
    state[0] = at


@compiled
def _map_draw_state(slots):
    """Start the draw of `_draw_subsets`: an exhausted block, no subset drawn, no stamps."""
    return (np.empty(_MAP_BLOCK, dtype=np.int64), np.array([_MAP_BLOCK, 0]),
            np.full(slots, -1, dtype=np.int64))


@compiled
def _map_subsets(rng, slots, mines, n):
    """Draw the ``n`` subsets the all-clicks kernels draw from ``rng``: ``(n, mines)`` slots."""
    block, state, stamp = _map_draw_state(slots)
    out = np.empty((n, mines), dtype=np.int64)
    _draw_subsets(rng, slots, block, state, stamp, out)
    return out


@compiled
def _all_clicks_table_kernel(rng, table, mines, mode, n):
    """Boards per click that opened, for every click, mine by mine through ``table``.

    The path for boards wider than `MAX_MASK_COLUMNS`, on the draws of
    `_all_clicks_mask_kernel`. ``mode`` `_UNIFORM_DRAW` (``uniform``) and
    `_RELOCATED_DRAW` (``winxp``) share one uniform draw over all cells per board. For
    ``winxp`` a mine on the click moves to the first mine-free cell, the same cell for
    every mined click of a board, so a mine blocks its own cell only if that cell is its
    neighbour. ``mode`` `_OTHER_CELLS_DRAW` (``safe-click``) draws ``mines`` of N - 1
    slots per board; for click t, slot s is cell s when s < t and cell s + 1 otherwise,
    which is exactly a uniform layout over the cells other than t.
    """
    total = table.shape[0]
    slots = total - 1 if mode == _OTHER_CELLS_DRAW else total
    block, state, drawn = _map_draw_state(slots)
    cells = np.empty((_MAP_BATCH, mines), dtype=np.int64)
    occupied = np.zeros(total, dtype=np.bool_)
    stamp = np.full(total, -1, dtype=np.int64)
    near_first_free = np.full(total, -1, dtype=np.int64)
    blocked = np.zeros(total, dtype=np.int64)
    for first in range(0, n, _MAP_BATCH):
        size = min(_MAP_BATCH, n - first)
        _draw_subsets(rng, slots, block, state, drawn, cells[:size])
        for row in range(size):
            board = first + row
            if mode == _RELOCATED_DRAW:
                for t in table[_first_free_cell(occupied, cells[row], -1)]:
                    if t >= 0:
                        near_first_free[t] = board
            for s in cells[row]:
                if mode == _OTHER_CELLS_DRAW:
                    _block(table, s, stamp, board, blocked, s + 1, total - 1, -1)
                    _block(table, s + 1, stamp, board, blocked, 0, s, -1)
                    continue
                skip = s if mode == _RELOCATED_DRAW and near_first_free[s] != board else -1
                _block(table, s, stamp, board, blocked, 0, total - 1, skip)
    return n - blocked


_PLANES = 16
"""Bit planes of the all-clicks mask kernel's counters: bit ``c`` of plane ``k`` of row
``r`` is bit ``k`` of the count of click ``(c, r)`` since the last flush."""
_PLANE_FLUSH = 2**_PLANES - 1
"""Boards the planes count before they are added to the totals, so none overflows."""


@compiled
def _flush_planes(planes, width, opened):
    """Add the counts held in ``planes`` (bit-sliced, per row) to ``opened``; zero them."""
    for r in range(planes.shape[0]):
        for k in range(planes.shape[1]):
            plane = planes[r, k]
            for c in range(width):
                opened[r * width + c] += np.int64((plane >> np.uint64(c)) & np.uint64(1)) << k
            planes[r, k] = 0


@compiled
def _all_clicks_mask_kernel(rng, width, height, mines, mode, n):
    """Boards per click that opened, for every click, on rows held as bit masks.

    Row ``r`` of the board is a uint64 whose bit ``c`` is cell ``r * width + c``
    (``width`` at most `MAX_MASK_COLUMNS`), padded with an empty row above and below.
    Each board's mines (`_draw_subsets`) become mask ``m``; ``h = m | m << 1 | m >> 1``
    (cut to the board's width) marks the cells with a mine in their row's 3-cell
    window, and the clicks a board blocks follow, per mode:

    - `_UNIFORM_DRAW` (``uniform``): a click is blocked by a mine on itself or on any of
      its 8 neighbours: ``h[r - 1] | h[r] | h[r + 1]``.
    - `_RELOCATED_DRAW` (``winxp``): on the uniform draw L, a mine on the click moves to
      F, the first mine-free cell of L in row-major order (the same for every click).
      So click t is blocked by a mine of L among its 8 neighbours
      (``h[r - 1] | h[r + 1] | m << 1 | m >> 1``), or when t is mined and F is one of
      its neighbours (``m`` and the 3x3 window around F), never by itself.
    - `_OTHER_CELLS_DRAW` (``safe-click``): ``mines`` of N - 1 slots are drawn; for click
      t, slot s is cell s when s < t and cell s + 1 otherwise. A neighbour c < t of t
      (its left one and the three above) thus holds a mine iff slot c is drawn (``m``,
      slot s on cell s), and a neighbour c > t (its right one and the three below) iff
      slot c - 1 is drawn (``b``, slot s on cell s + 1: ``m`` moved one cell on in
      row-major order, the last column of a row carried into the first of the next).
      Click t is blocked by ``m << 1 | b >> 1 | h[r - 1] | hb[r + 1]``, ``hb`` being
      the 3-cell windows of ``b``; cutting each row to the board's width keeps the
      left and right neighbours within the row.

    Each row's open clicks (``~blocked``) are added at once to bit-sliced counters, one
    binary counter per click held across `_PLANES` masks (a ripple-carry add of the
    row's mask: a few word operations whatever the number of clicks that opened), and
    moved to the totals by `_flush_planes` before any can overflow.
    """
    total = width * height
    slots = total - 1 if mode == _OTHER_CELLS_DRAW else total
    block, state, stamp = _map_draw_state(slots)
    cells = np.empty((_MAP_BATCH, mines), dtype=np.int64)
    row_of = np.empty(total, dtype=np.int64)
    bit_of = np.empty(total, dtype=np.uint64)
    for cell in range(total):
        row_of[cell] = cell // width + 1
        bit_of[cell] = np.uint64(1) << np.uint64(cell % width)
    one, top = np.uint64(1), np.uint64(width - 1)
    full = (one << np.uint64(width)) - one
    m = np.zeros(height + 2, dtype=np.uint64)
    h = np.zeros(height + 2, dtype=np.uint64)
    b = np.zeros(height + 2, dtype=np.uint64)
    hb = np.zeros(height + 2, dtype=np.uint64)
    near_free = np.zeros(height + 2, dtype=np.uint64)
    planes = np.zeros((height, _PLANES), dtype=np.uint64)
    pending = 0
    opened = np.zeros(total, dtype=np.int64)
    for first in range(0, n, _MAP_BATCH):
        size = min(_MAP_BATCH, n - first)
        _draw_subsets(rng, slots, block, state, stamp, cells[:size])
        for row in range(size):
            m[:] = 0
            for s in cells[row]:
                m[row_of[s]] |= bit_of[s]
            for r in range(1, height + 1):
                h[r] = (m[r] | (m[r] << one) | (m[r] >> one)) & full
            if mode == _OTHER_CELLS_DRAW:
                for r in range(1, height + 1):
                    b[r] = ((m[r] << one) | (m[r - 1] >> top)) & full
                    hb[r] = (b[r] | (b[r] << one) | (b[r] >> one)) & full
            elif mode == _RELOCATED_DRAW:
                near_free[:] = 0
                for r in range(1, height + 1):
                    free = ~m[r] & full
                    if free:
                        f = free & (~free + one)
                        window = (f | (f << one) | (f >> one)) & full
                        near_free[r - 1] = near_free[r] = near_free[r + 1] = window
                        break
            for r in range(1, height + 1):
                if mode == _UNIFORM_DRAW:
                    blocked = h[r - 1] | h[r] | h[r + 1]
                elif mode == _RELOCATED_DRAW:
                    blocked = (h[r - 1] | h[r + 1] | (m[r] << one) | (m[r] >> one)
                               | (m[r] & near_free[r]))
                else:
                    blocked = (m[r] << one) | (b[r] >> one) | h[r - 1] | hb[r + 1]
                carry = ~blocked & full
                k = 0
                while carry:
                    plane = planes[r - 1, k]
                    planes[r - 1, k] = plane ^ carry
                    carry &= plane
                    k += 1
            pending += 1
            if pending == _PLANE_FLUSH:
                _flush_planes(planes, width, opened)
                pending = 0
    _flush_planes(planes, width, opened)
    return opened


def _kernel_arguments(board: Board, click, rule: str):
    click = check_rule(board, click, rule)
    allowed = placement_cells(board, click, rule)
    return board.index(click), allowed, resolve_rule(rule).relocates


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
    return draw_layouts(board, n, *_kernel_arguments(board, click, rule), seed=seed)


def draw_layouts(board: Board, n: int, index: int, allowed: np.ndarray, relocate: bool, *,
                 seed) -> np.ndarray:
    """Draw ``n`` layouts of a setting already checked: `sample_mines` without its checks.

    ``index`` is the click's linear index, ``allowed`` the cells the rule may mine
    (`minestats.mechanics.rules.placement_cells`) and ``relocate`` whether a mine
    under the click moves (Windows XP). `minestats.mechanics.setting.Setting` draws its
    chunks here, its checks made once.
    """
    out = np.zeros((n, board.cells), dtype=bool)
    _sample_kernel(as_generator(seed), allowed, board.mines, index, relocate, out)
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
    relocates = resolve_rule(rule).relocates
    if relocates:
        kept_off[board.index(click)] = True
    generator = as_generator(seed)
    for row in np.flatnonzero(flat[:, kept_off].any(axis=1)):
        if relocates:
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
    follow its rule exactly; counts at different clicks are correlated. The draws are
    those of `draw_map_subsets` (not those of `sample_mines`); boards up to
    `MAX_MASK_COLUMNS` wide are counted on rows held as bit masks, wider ones mine by
    mine, with the same counts. Other rules (``safe-opening``, whose excluded region
    differs in size between clicks) draw ``n`` layouts of their own for each click, as
    `count_openings` does.

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
    mode = _all_clicks_mode(resolve_rule(rule))
    if mode is None:
        counts = [count_openings(board, n, rule=rule, click=(i % board.width, i // board.width),
                                 seed=generator) for i in range(board.cells)]
        return np.array(counts, dtype=np.int64).reshape(board.shape)
    if board.width <= MAX_MASK_COLUMNS:
        counts = _all_clicks_mask_kernel(generator, board.width, board.height, board.mines,
                                         mode, n)
    else:
        counts = _all_clicks_table_kernel(generator, board.neighbour_table, board.mines,
                                          mode, n)
    return counts.reshape(board.shape)


def draw_map_subsets(slots: int, mines: int, n: int, seed=None) -> np.ndarray:
    """Return the ``n`` mine draws `count_openings_all_clicks` makes from ``seed``.

    Each draw is a uniform subset of ``mines`` of ``range(slots)``: the board's cells
    (``slots = board.cells``) for ``uniform`` and ``winxp``, the N - 1 slots mapped
    around each click (``slots = board.cells - 1``) for ``safe-click``. Every subset is
    drawn by rejection: exactly uniform integers in ``[0, slots)``, made in blocks, a
    value already drawn for the board skipped. The same seed gives the very subsets the
    all-clicks kernels count, so counts can be checked against any other count on them.
    All ``n`` draws are held at once: this is for checking, not for long runs.

    Parameters
    ----------
    slots : int
        Cells (or slots) to choose from.
    mines : int
        Size of each subset, at most ``slots``.
    n : int
        Number of subsets.
    seed : numpy.random.Generator, int, str, numpy.random.SeedSequence or None
        As for `count_openings_all_clicks`.

    Returns
    -------
    numpy.ndarray
        Bool array of shape ``(n, slots)``; ``True`` marks a drawn slot.

    Examples
    --------
    >>> draws = draw_map_subsets(480, 99, 3, seed=1)
    >>> draws.shape, draws.sum(axis=1).tolist()
    ((3, 480), [99, 99, 99])
    """
    slots = check_count("slots", slots, minimum=0)
    mines = check_count("mines", mines, minimum=0, maximum=slots)
    n = check_count("n", n, minimum=0)
    drawn = _map_subsets(as_generator(seed), slots, mines, n)
    out = np.zeros((n, slots), dtype=bool)
    np.put_along_axis(out, drawn, True, axis=1)
    return out
