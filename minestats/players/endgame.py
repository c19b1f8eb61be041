"""The exact end game: once few layouts fit a position, play it perfectly, compiled.

When the layouts consistent with what a player sees are few, every one of them is
listed (`consistent_layouts`) and the position is solved by the exact recursion of
`minestats.players.optimal` (every layout weighted alike, as the player assumes):
`endgame_move` returns the cells that maximise the probability of winning from
here on, and that probability.

Both steps are compiled and bounded: listing gives up past `ENDGAME_LAYOUTS`
layouts or `LISTING_BUDGET` partial configurations, and the search past
`SEARCH_BUDGET` solved states; the caller then guesses by its heuristic instead. On
a board the player plays by the end game from the first guess (at most 20 cells by
default), the bounds are `SMALL_BOARD_LAYOUTS`, `SMALL_BOARD_LISTING_BUDGET` and
`SMALL_BOARD_SEARCH_BUDGET`. The search remembers the states it solved by their
128-bit fingerprints (`_fingerprint`), 33 bytes a slot of its table.

The search is `minestats.players.optimal.LayoutSolver`'s, step for step, so that it
solves the same states and gives up on the same positions: a state (the layouts
still possible, as sorted indices) is won in ``win(S)`` of its layouts; opening the
cells safe in every layout of S never hurts, so they are opened at once; otherwise
cells are tried in decreasing order of the layouts in which they are safe, a cell
abandoned once a bound on what it can win cannot beat the best so far. States of
more than `SMALL_STATE` layouts are tried in the order and with the bounds of
``LayoutSolver.win``, smaller ones as ``LayoutSolver.win_small`` tries them.
``tests/players/test_endgame.py`` checks the values against `LayoutSolver` and against
exact optimal play on whole small boards.
"""

from __future__ import annotations

from fractions import Fraction
from typing import NamedTuple

import numpy as np

from minestats.foundations.compiled import compiled
from minestats.foundations.validation import quoted, resolve_rule
from minestats.frontier.engine import closed_number_disagrees, frontier_groups
from minestats.mechanics.rules import winxp_order

__all__ = ["ENDGAME_LAYOUTS", "LISTING_BUDGET", "SEARCH_BUDGET", "SMALL_BOARD_LAYOUTS",
           "SMALL_BOARD_LISTING_BUDGET", "SMALL_BOARD_SEARCH_BUDGET", "SMALL_STATE",
           "EndgameMove", "consistent_layouts", "endgame_move"]

ENDGAME_LAYOUTS = 750
"""Most consistent layouts for which the end game is searched exactly."""
LISTING_BUDGET = 50_000
"""Most partial configurations `consistent_layouts` visits before giving up."""
SEARCH_BUDGET = 20_000
"""Most states the exact search solves before giving up."""
SMALL_BOARD_LAYOUTS = 100_000
"""Most layouts searched on a board the end game plays from the first guess (at most 20
cells, `minestats.players.player.Strategy`'s ``small_board_cells``)."""
SMALL_BOARD_LISTING_BUDGET = 1_000_000
"""Most partial configurations listed there."""
SMALL_BOARD_SEARCH_BUDGET = 2_000_000
"""Most states searched there: the first guess of 5x4/6 under Windows XP's rule takes
about a million (about 4 s; the memo of its fingerprints, `_new_memo`, about 280 MB)."""
SMALL_STATE = 8
"""States of at most this many layouts are searched as ``LayoutSolver.win_small`` does."""

_TOO_MANY = -1  # the listing passed its limit or budget
_ABORT = -2  # the search passed its budget
_NONE = -1  # a cell whose value cannot beat the best so far


class EndgameMove(NamedTuple):
    """The best cells to open (linear indices, in the order found) and the chance of winning."""

    cells: tuple[int, ...]
    win_probability: Fraction


# --- listing the layouts ----------------------------------------------------------------


@compiled
def _binomial(n, k):
    if k < 0 or k > n:
        return 0.0
    value = 1.0
    for i in range(k):
        value = value * (n - i) / (i + 1)
    return value


@compiled
def _first_combination(picked, count):
    for i in range(count):
        picked[i] = i


@compiled
def _next_combination(picked, count, n):
    """Advance ``picked[:count]`` to the next ``count``-subset of ``range(n)``, in order."""
    i = count - 1
    while i >= 0 and picked[i] == n - count + i:
        i -= 1
    if i < 0:
        return False
    picked[i] += 1
    for j in range(i + 1, count):
        picked[j] = picked[j - 1] + 1
    return True


@compiled
def list_layouts(numbers, table, revealed, flagged, width, mines, limit, budget):
    """Every layout of the unknown cells that fits, as ``(status, unknown, layouts)``.

    ``status`` is the number of layouts, or ``_TOO_MANY``. The search over the groups
    gives each a mine count within the bounds its constraints leave, pruned by the
    mine count (the mines left over must fit the cells off the frontier); the
    configurations found are expanded group by group, the cells off the frontier
    last, each in lexicographic order of its combinations.
    """
    cells = revealed.size
    unknown_count = 0
    column = np.full(cells, -1, dtype=np.int64)
    for cell in range(cells):
        if not revealed[cell] and not flagged[cell]:
            column[cell] = unknown_count
            unknown_count += 1
    unknown = np.flatnonzero(column >= 0)
    empty = np.zeros((0, unknown_count), dtype=np.bool_)
    if closed_number_disagrees(numbers, table, revealed, flagged):
        return 0, unknown, empty
    front = frontier_groups(numbers, table, revealed, flagged, width)
    sizes, starts, members, need = front.sizes, front.starts, front.members, front.need.copy()
    groups = sizes.size
    free_cells = np.empty(cells, dtype=np.int64)
    free = 0
    left = mines
    for cell in range(cells):
        if flagged[cell]:
            left -= 1
        elif not revealed[cell] and not front.frontier[cell]:
            free_cells[free] = cell
            free += 1
    room = np.zeros(need.size, dtype=np.int64)
    for g in range(groups):
        for k in range(starts[g], starts[g + 1]):
            room[members[k]] += sizes[g]
    capacity = np.zeros(groups + 1, dtype=np.int64)
    for g in range(groups - 1, -1, -1):
        capacity[g] = capacity[g + 1] + sizes[g]
    found = np.zeros((limit + 1, groups + 1), dtype=np.int64)  # mines per group, then free
    configurations = 0
    total_layouts = 0.0
    value = np.zeros(groups + 1, dtype=np.int64)
    high = np.zeros(groups + 1, dtype=np.int64)
    visited = 0
    g, total, entering = 0, 0, True
    while g >= 0:
        if g == groups:
            rest = left - total
            count = _binomial(free, rest)
            for h in range(groups):
                count *= _binomial(sizes[h], value[h])
            if count > 0:
                total_layouts += count
                if total_layouts > limit:
                    return _TOO_MANY, unknown, empty
                found[configurations, :groups] = value[:groups]
                found[configurations, groups] = rest
                configurations += 1
            g, entering = g - 1, False
            continue
        if entering:
            if total + capacity[g] < left - free:  # too few mines can still be placed
                g, entering = g - 1, False
                continue
            low, high[g] = 0, min(sizes[g], left - total)
            for k in range(starts[g], starts[g + 1]):
                c = members[k]
                room[c] -= sizes[g]
                low = max(low, need[c] - room[c])
                high[g] = min(high[g], need[c])
            value[g] = low - 1
        else:
            for k in range(starts[g], starts[g + 1]):
                need[members[k]] += value[g]
            total -= value[g]
        value[g] += 1
        if value[g] > high[g]:
            for k in range(starts[g], starts[g + 1]):
                room[members[k]] += sizes[g]
            g, entering = g - 1, False
            continue
        visited += 1
        if visited > budget:
            return _TOO_MANY, unknown, empty
        for k in range(starts[g], starts[g + 1]):
            need[members[k]] -= value[g]
        total += value[g]
        g, entering = g + 1, True
    layouts = np.zeros((int(round(total_layouts)), unknown_count), dtype=np.bool_)
    # Each factor's cells as columns: the groups in search order, then the free cells.
    factor_cells = np.empty(cells, dtype=np.int64)
    factor_starts = np.zeros(groups + 2, dtype=np.int64)
    for h in range(groups):
        factor_starts[h + 1] = factor_starts[h] + sizes[h]
        for j in range(sizes[h]):
            factor_cells[factor_starts[h] + j] = column[
                front.group_cells[front.cell_starts[h] + j]]
    factor_starts[groups + 1] = factor_starts[groups] + free
    for j in range(free):
        factor_cells[factor_starts[groups] + j] = column[free_cells[j]]
    picked = np.zeros(cells, dtype=np.int64)  # factor h's choice at picked[starts[h]:]
    row = 0
    for index in range(configurations):
        counts = found[index]
        for h in range(groups + 1):
            _first_combination(picked[factor_starts[h]:], counts[h])
        while True:
            for h in range(groups + 1):
                base = factor_starts[h]
                for j in range(counts[h]):
                    layouts[row, factor_cells[base + picked[base + j]]] = True
            row += 1
            h = groups  # advance the last factor first (itertools.product order)
            while h >= 0:
                base = factor_starts[h]
                size = factor_starts[h + 1] - base
                if _next_combination(picked[base:], counts[h], size):
                    break
                _first_combination(picked[base:], counts[h])
                h -= 1
            if h < 0:
                break
    return row, unknown, layouts


def consistent_layouts(numbers, table, revealed, flagged, width, mines, *,
                       limit=ENDGAME_LAYOUTS, budget=LISTING_BUDGET):
    """Every layout of the unknown cells that fits a position, or None if too many.

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
    limit : int, optional
        Return None when more layouts than this fit.
    budget : int, optional
        Return None once the search visits more partial configurations.

    Returns
    -------
    unknown : numpy.ndarray of int64
        The unknown cells (neither revealed nor flagged), the columns of ``layouts``.
    layouts : numpy.ndarray of bool, shape (L, len(unknown))
        One row per layout that fits (a mine is True); no rows when none fits.

    Or None, past ``limit`` or ``budget``.

    Examples
    --------
    A 1 in the corner of a 3x2 board with 2 mines: one mine among its 3 neighbours,
    one among the 2 far cells, so 6 layouts.

    >>> from minestats.mechanics.game import neighbour_table
    >>> numbers = np.array([1, 0, 0, 0, 0, 0], dtype=np.int8)
    >>> revealed = np.array([1, 0, 0, 0, 0, 0], dtype=bool)
    >>> unknown, layouts = consistent_layouts(numbers, neighbour_table(3, 2), revealed,
    ...                                       np.zeros(6, dtype=bool), 3, 2)
    >>> unknown.tolist(), layouts.shape, layouts.sum(axis=0).tolist()
    ([1, 2, 3, 4, 5], (6, 5), [2, 3, 2, 2, 3])
    """
    status, unknown, layouts = list_layouts(numbers, table, revealed, flagged, width, mines,
                                            limit, budget)
    return None if status == _TOO_MANY else (unknown, layouts)


@compiled
def numbers_table(table, flagged, unknown, layouts):
    """``L x U`` int8: each unknown cell's number in each layout, -1 for a mine."""
    cells = flagged.size
    column = np.full(cells, -1, dtype=np.int64)
    for u in range(unknown.size):
        column[unknown[u]] = u
    counts = np.zeros(layouts.shape, dtype=np.int8)
    for u in range(unknown.size):
        cell = unknown[u]
        flags = 0
        for t in range(table.shape[1]):
            j = table[cell, t]
            if j < 0:
                break
            if flagged[j]:
                flags += 1
        for row in range(layouts.shape[0]):
            if layouts[row, u]:
                counts[row, u] = -1
                continue
            around = flags
            for t in range(table.shape[1]):
                j = table[cell, t]
                if j < 0:
                    break
                if j != cell and column[j] >= 0 and layouts[row, column[j]]:
                    around += 1
            counts[row, u] = around
    return counts


# --- the memo: states by 128-bit fingerprints in an open-addressing table ----------------


@compiled(borrows=True)
def _mix(value):
    """SplitMix64's finaliser: a well-spread 64-bit image of ``value``."""
    value = (value ^ (value >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    value = (value ^ (value >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return value ^ (value >> np.uint64(31))


@compiled(borrows=True)
def _fingerprint(states):
    """Two 64-bit keys of the set ``states``: XORs of two images of its members.

    The images are SplitMix64's, of the member's index offset by two constants: the
    keys behave like random 128-bit ones, so that a search of a million states
    confuses two of them with probability of order 10**-26. (XOR keys are linear:
    among more than 128 members some subsets do share keys, but a search meets only
    the states it reaches, not chosen ones.)
    """
    first = second = np.uint64(0)
    for s in states:
        code = np.uint64(s)
        first ^= _mix(code + np.uint64(0x9E3779B97F4A7C15))
        second ^= _mix(code ^ np.uint64(0xD1B54A32D192ED03))
    return first, second


_KEY_LOW, _KEY_HIGH, _WIN, _BOUND = 0, 1, 2, 3
"""The columns of a memo slot: the state's two fingerprint halves, its win and a bound."""
_FILLED, _BUDGET_LEFT = 0, 1
"""The memo's two tallies: the slots taken and the states the search may still solve."""


@compiled
def _new_memo(budget):
    """Return an empty memo with room for the states of a search of ``budget``.

    A slot holds a state's fingerprint (`_fingerprint`), not the state: 33 bytes a
    slot whatever the number of layouts, where a bitset of 15,000 layouts took 1.9
    kB and a search of a million states several GB. Only ``used`` is cleared: a
    slot's key, win and bound are written when it is taken (`_slot`). The memo is
    three arrays, ``(slots, used, tallies)``, with the search's budget among the
    tallies: each array a compiled function takes costs it two atomic reference
    counts, and the search passes the memo at every step.
    """
    capacity = 1024
    while capacity < 4 * (budget + 2):
        capacity *= 2
    slots = np.empty((capacity, 4), dtype=np.int64)  # columns _KEY_LOW to _BOUND
    used = np.zeros(capacity, dtype=np.bool_)
    tallies = np.zeros(2, dtype=np.int64)
    tallies[_BUDGET_LEFT] = budget
    return slots, used, tallies


@compiled(borrows=True)
def _slot(memo, states, share):
    """Return the memo slot of a state, inserted if absent while under 1/``share`` full.

    -1 when the state is absent and the memo too full. Solved states (at most the
    budget's) may fill half of it, bounds a quarter, so a solved state always fits.
    """
    slots, used, tallies = memo
    first, second = _fingerprint(states)
    low, high = np.int64(first), np.int64(second)  # the same 64 bits, as stored
    mask = used.size - 1
    slot = np.int64(first & np.uint64(mask))
    while used[slot]:
        if slots[slot, _KEY_LOW] == low and slots[slot, _KEY_HIGH] == high:
            return slot
        slot = (slot + 1) & mask
    if share * tallies[_FILLED] >= used.size:
        return -1
    used[slot] = True
    slots[slot, _KEY_LOW] = low
    slots[slot, _KEY_HIGH] = high
    slots[slot, _WIN] = slots[slot, _BOUND] = -1  # neither known yet
    tallies[_FILLED] += 1
    return slot


# --- the search -------------------------------------------------------------------------
#
# The search is compiled without reference counting (``compiled(borrows=True)``): it
# allocates nothing and takes no array a callee made. `best_openings` allocates its
# room once: the states in one ``pool`` (the states of a call are ``pool[lo:hi]``, and
# it writes its parts from ``pool[top]`` on), and a row of ``frames`` per depth of the
# recursion for its tallies, its cells and its parts' cuts (`_frame_width`). Its
# columns are only the cells whose number differs among the layouts: no other cell
# differs in any state of the search.

_PARTS = 16
"""Room in a frame for a split's parts, their bounds or cuts (numbers 0 to 8: at most 9)."""
_BOUNDS, _PART_ORDER, _CUTS, _SPLIT, _DONE = 0, _PARTS, 2 * _PARTS, 3 * _PARTS, 5 * _PARTS
"""Offsets, after a frame's five columns of cells, of its parts' bounds, their order, the
cuts between them, the split's counts and the small states' marks."""


@compiled(borrows=True)
def _frame_width(unknowns):
    """Return the width of a frame of the search over ``unknowns`` columns.

    A frame holds, per column, whether its number differs, the states it is safe
    in, the cells tried, their keys and their order (five columns of cells), then
    the parts (`_BOUNDS` to `_DONE`) and `SMALL_STATE` marks.
    """
    return 5 * unknowns + _DONE + SMALL_STATE


@compiled(borrows=True)
def _tally(counts, pool, lo, hi, frame):
    """Tally the cells over the states ``pool[lo:hi]``: whether each one's number differs.

    ``frame[:U]`` is 1 where the number differs, ``frame[U:2U]`` the states in which
    the cell is safe. Row by row over ``counts`` (its memory order), each row against the first.
    """
    unknowns = counts.shape[1]
    for u in range(2 * unknowns):
        frame[u] = 0
    first = pool[lo]
    for i in range(lo, hi):
        s = pool[i]
        for u in range(unknowns):
            if counts[s, u] != counts[first, u]:
                frame[u] = 1
            if counts[s, u] >= 0:
                frame[unknowns + u] += 1


@compiled(borrows=True)
def _ascending(frame, keys, order, n):
    """Write to ``frame[order:order + n]`` the order of ``frame[keys:keys + n]``, stable."""
    for i in range(n):
        key = frame[keys + i]
        j = i
        while j > 0 and frame[keys + frame[order + j - 1]] > key:
            frame[order + j] = frame[order + j - 1]
            j -= 1
        frame[order + j] = i


@compiled(borrows=True)
def _split(counts, cell, pool, lo, hi, top, frame, base, first_seen):
    """Split the states ``pool[lo:hi]`` by the number of ``cell``; return the parts' count.

    The states where ``cell`` is safe go to ``pool[top:]``, part after part, each in
    its states' order; the parts come in increasing number, or in order of first
    appearance with ``first_seen``. Their cuts are at ``frame[base + _CUTS:]``.
    """
    rank, sizes, fill, cuts = (base + _SPLIT, base + _SPLIT + 9, base + _SPLIT + 18,
                               base + _CUTS)
    for v in range(9):
        frame[rank + v] = -1
        frame[sizes + v] = 0
    parts = 0
    for i in range(lo, hi):
        value = counts[pool[i], cell]
        if value >= 0:
            if frame[rank + value] < 0:
                frame[rank + value] = parts
                parts += 1
            frame[sizes + value] += 1
    if not first_seen:
        parts = 0
        for v in range(9):
            if frame[sizes + v]:
                frame[rank + v] = parts
                parts += 1
    frame[cuts] = top
    for v in range(9):
        if frame[sizes + v]:
            frame[cuts + frame[rank + v] + 1] = frame[sizes + v]
    for k in range(parts):
        frame[cuts + k + 1] += frame[cuts + k]
    for v in range(9):
        if frame[sizes + v]:
            frame[fill + v] = frame[cuts + frame[rank + v]]
    for i in range(lo, hi):
        value = counts[pool[i], cell]
        if value >= 0:
            pool[frame[fill + value]] = pool[i]
            frame[fill + value] += 1
    return parts


@compiled(borrows=True)
def _by_joint_numbers(counts, pool, lo, hi, top, frame, cells, count, base):
    """Sort the states ``pool[lo:hi]`` by the numbers of ``count`` cells, np.lexsort's way.

    The cells, safe in every state, are listed at ``frame[cells:]``, the last the most
    significant; ties keep their order. The sorted copy is at ``pool[top:]`` or
    ``pool[top + size:]`` (the other is scratch); returns where it starts.
    """
    size = hi - lo
    source, target = top, top + size
    for i in range(size):
        pool[source + i] = pool[lo + i]
    for k in range(count):
        _split(counts, frame[cells + k], pool, source, source + size, target, frame, base,
               False)
        source, target = target, source
    return source


@compiled(borrows=True)
def _spend(memo):
    tallies = memo[2]
    tallies[_BUDGET_LEFT] -= 1
    return tallies[_BUDGET_LEFT] >= 0


@compiled(borrows=True)
def _upper(counts, memo, pool, lo, hi, frame):
    """Cheap upper bound of ``win``: the state's size, or the best safe count of a cell."""
    size = hi - lo
    if size <= SMALL_STATE:
        return size
    slot = _slot(memo, pool[lo:hi], 4)
    if slot >= 0:
        if memo[0][slot, _WIN] >= 0:
            return memo[0][slot, _WIN]
        if memo[0][slot, _BOUND] >= 0:
            return memo[0][slot, _BOUND]
    _tally(counts, pool, lo, hi, frame)
    unknowns = counts.shape[1]
    bound = 0
    for u in range(unknowns):
        if frame[u]:
            if frame[unknowns + u] == size:
                bound = size
                break
            bound = max(bound, frame[unknowns + u])
    if slot >= 0:
        memo[0][slot, _BOUND] = bound
    return bound


@compiled(borrows=True)
def _win(counts, memo, pool, lo, hi, top, frames, depth, cell, best):
    """Return ``win(S)`` of the sorted states ``S = pool[lo:hi]``, or the win of a cell.

    With ``cell`` < 0, ``win(S)``; else the win of opening ``cell``, or ``_NONE`` when
    it cannot beat ``best``. ``_ABORT`` past the budget. The call writes to
    ``pool[top:]`` and ``frames[depth:]`` only.
    """
    no_cell, nothing = np.int64(-1), np.int64(0)  # typed alike at every recursive call
    unknowns = counts.shape[1]
    differs, safe_in, cells, keys, order = 0, unknowns, 2 * unknowns, 3 * unknowns, 4 * unknowns
    base = 5 * unknowns
    bounds, part_order, cuts, done = base + _BOUNDS, base + _PART_ORDER, base + _CUTS, base + _DONE
    frame = frames[depth]
    if cell >= 0:
        # Open one cell: split by its number, the parts by decreasing bound.
        parts = _split(counts, cell, pool, lo, hi, top, frame, base, False)
        if parts == 0:
            return 0
        after = frame[cuts + parts]
        bound = 0
        for p in range(parts):
            frame[bounds + p] = _upper(counts, memo, pool, frame[cuts + p],
                                       frame[cuts + p + 1], frames[depth + 1])
            if memo[2][_BUDGET_LEFT] < 0:
                return _ABORT
            bound += frame[bounds + p]
        if bound <= best:
            return _NONE
        _ascending(frame, bounds, part_order, parts)  # walked backwards: np.argsort's [::-1]
        value = 0
        for k in range(parts - 1, -1, -1):
            p = frame[part_order + k]
            part_win = _win(counts, memo, pool, frame[cuts + p], frame[cuts + p + 1], after,
                            frames, depth + 1, no_cell, nothing)
            if part_win == _ABORT:
                return _ABORT
            value += part_win
            bound -= frame[bounds + p] - part_win
            if bound <= best:
                return _NONE
        return value
    size = hi - lo
    if size == 1:
        return 1
    slot = _slot(memo, pool[lo:hi], 2)
    if slot >= 0 and memo[0][slot, _WIN] >= 0:
        return memo[0][slot, _WIN]
    if not _spend(memo):
        return _ABORT
    _tally(counts, pool, lo, hi, frame)
    moves = safe = 0  # the cells that differ, and those of them safe in every state
    for u in range(unknowns):
        if frame[differs + u]:
            moves += 1
            if frame[safe_in + u] == size:
                safe += 1
    if moves == 0:  # copies of one layout (weighed layouts): every safe cell is known
        return size
    listed = 0
    for u in range(unknowns):
        if frame[differs + u] and (safe == 0 or frame[safe_in + u] == size):
            frame[cells + listed] = u
            listed += 1
    result = 0
    if size <= SMALL_STATE:
        if safe:
            # Open every safe cell at once; parts in order of first appearance.
            for i in range(size):
                frame[done + i] = 0
            for i in range(size):
                if frame[done + i]:
                    continue
                members = 0
                for j in range(i, size):
                    if frame[done + j]:
                        continue
                    same = True
                    for k in range(safe):
                        u = frame[cells + k]
                        if counts[pool[lo + j], u] != counts[pool[lo + i], u]:
                            same = False
                            break
                    if same:
                        frame[done + j] = 1
                        pool[top + members] = pool[lo + j]
                        members += 1
                part_win = _win(counts, memo, pool, top, top + members, top + members,
                                frames, depth + 1, no_cell, nothing)
                if part_win == _ABORT:
                    return _ABORT
                result += part_win
        else:
            # Cells by decreasing (safe count, index), parts in order of first appearance.
            for m in range(moves):
                u = frame[cells + m]
                frame[keys + m] = -(frame[safe_in + u] * (unknowns + 1) + u)
            _ascending(frame, keys, order, moves)
            for k in range(moves):
                u = frame[cells + frame[order + k]]
                bound = frame[safe_in + u]
                if bound <= result:
                    break
                parts = _split(counts, u, pool, lo, hi, top, frame, base, True)
                after = frame[cuts + parts]
                value = 0
                finished = True
                for p in range(parts):
                    part_lo, part_hi = frame[cuts + p], frame[cuts + p + 1]
                    part_win = _win(counts, memo, pool, part_lo, part_hi, after, frames,
                                    depth + 1, no_cell, nothing)
                    if part_win == _ABORT:
                        return _ABORT
                    value += part_win
                    bound -= part_hi - part_lo - part_win
                    if bound <= result:
                        finished = False
                        break
                if finished:
                    result = value
                    if result == size:
                        break
    elif safe:
        # Open every safe cell at once: split by their joint numbers (np.lexsort order).
        start_at = _by_joint_numbers(counts, pool, lo, hi, top, frame, cells, safe, base)
        after = top + 2 * size
        start = 0
        for i in range(1, size + 1):
            cut = i == size
            if not cut:
                for k in range(safe):
                    u = frame[cells + k]
                    if counts[pool[start_at + i], u] != counts[pool[start_at + i - 1], u]:
                        cut = True
                        break
            if cut:
                part_win = _win(counts, memo, pool, start_at + start, start_at + i, after,
                                frames, depth + 1, no_cell, nothing)
                if part_win == _ABORT:
                    return _ABORT
                result += part_win
                start = i
    else:
        for m in range(moves):
            frame[keys + m] = -frame[safe_in + frame[cells + m]]
        _ascending(frame, keys, order, moves)
        for k in range(moves):
            u = frame[cells + frame[order + k]]
            if frame[safe_in + u] <= result:
                break
            value = _win(counts, memo, pool, lo, hi, top, frames, depth + 1, u, result)
            if value == _ABORT:
                return _ABORT
            if value > result:
                result = value
                if result == size:
                    break
    if slot >= 0:
        memo[0][slot, _WIN] = result
    return result


@compiled
def best_openings(counts, budget_states):
    """Best ``win`` from every layout of ``counts``, and every cell reaching it (in order tried).

    ``(-1, cells)`` past the budget. Allocates the search's room (module notes above
    `_frame_width`): the columns that differ, the pool of states and the frames.
    """
    layouts, unknowns = counts.shape
    first = np.int64(0)  # typed as the search's calls type it: one compiled copy each, cached
    everything = np.arange(layouts, dtype=np.int32)
    whole = np.empty(2 * unknowns, dtype=np.int64)
    _tally(counts, everything, first, layouts, whole)
    columns = np.flatnonzero(whole[:unknowns])
    differing = np.ascontiguousarray(counts[:, columns])
    safe_in = whole[unknowns:][columns]
    depths = 2 * columns.size + 4  # each state of the search fixes a differing column more
    frames = np.empty((depths, _frame_width(columns.size)), dtype=np.int64)
    pool = np.empty(layouts * (1 + 2 * depths), dtype=np.int32)
    pool[:layouts] = everything
    memo = _new_memo(budget_states)
    order = np.argsort(-safe_in, kind="mergesort")
    best = 0
    chosen = np.empty(columns.size, dtype=np.int64)
    found = 0
    for u in order:
        if safe_in[u] < best or safe_in[u] == 0:
            break
        value = _win(differing, memo, pool, first, layouts, layouts, frames, first, u,
                     best - 1)
        if value == _ABORT:
            return -1, chosen[:0]
        if value == _NONE or value < best:
            continue
        if value > best:
            best, found = value, 0
        chosen[found] = columns[u]
        found += 1
    return best, chosen[:found]


@compiled
def winxp_copies(layouts, unknown, revealed, flagged, order):
    """Each layout repeated by its Windows XP weight, 1 + the mines of its leading run.

    ``order`` is the rule's order of the cells (`minestats.mechanics.rules.winxp_order`);
    a layout's run stops at its first safe cell of the order. Repeated rows show the
    same numbers everywhere, so the search keeps them together and counts each
    layout as many times as it weighs.
    """
    column = np.full(revealed.size, -1, dtype=np.int64)
    for k in range(unknown.size):
        column[unknown[k]] = k
    weights = np.ones(layouts.shape[0], dtype=np.int64)
    for row in range(layouts.shape[0]):
        for cell in order:
            if revealed[cell] or (not flagged[cell] and not layouts[row, column[cell]]):
                break
            weights[row] += 1
    repeated = np.empty((weights.sum(), layouts.shape[1]), dtype=np.bool_)
    at = 0
    for row in range(layouts.shape[0]):
        for _ in range(weights[row]):
            repeated[at] = layouts[row]
            at += 1
    return repeated


@compiled
def endgame_cells(numbers, table, revealed, flagged, width, mines, limit, listing_budget,
                  search_budget, order):
    """Return `endgame_move`'s answer as ``(cells, wins, layouts)``; ``layouts`` -1 for None.

    With a Windows XP ``order`` (empty for every other rule) the layouts are weighed
    by the rule (`winxp_copies`), and ``wins`` and ``layouts`` count them so.
    """
    status, unknown, layouts = list_layouts(numbers, table, revealed, flagged, width, mines,
                                            limit, listing_budget)
    nothing = np.empty(0, dtype=np.int64)
    if status <= 0 or unknown.size == 0:
        return nothing, 0, -1
    if order.size and status > 1:
        layouts = winxp_copies(layouts, unknown, revealed, flagged, order)
        status = layouts.shape[0]
    counts = numbers_table(table, flagged, unknown, layouts)
    if status == 1:  # nothing uncertain: any safe cell wins
        safe = np.flatnonzero(counts[0] >= 0)
        if safe.size == 0:
            return nothing, 0, -1
        return unknown[safe], 1, 1
    wins, columns = best_openings(counts, search_budget)
    if wins < 0 or columns.size == 0:
        return nothing, 0, -1
    return unknown[columns], wins, status


def endgame_move(numbers, table, revealed, flagged, width, mines, *,
                 limit=ENDGAME_LAYOUTS, budget=SEARCH_BUDGET, rule=None,
                 click=None) -> EndgameMove | None:
    """Return the cells an optimal player may open next, when few enough layouts fit.

    Every layout that fits the position is taken as equally likely (true under the
    ``uniform``, ``safe-click`` and ``safe-opening`` rules once the first click is
    open); under ``rule="winxp"`` each weighs 1 + the mines of its leading run in the
    rule's order from ``click`` (`minestats.inference.probabilities`, module notes).
    Cells are compared by their exact win probability; every cell of the highest is
    returned, in the order the search found them, so that a caller can
    break ties by its own rule.

    Parameters
    ----------
    numbers, table, revealed, flagged, width, mines
        The position, as for `consistent_layouts`.
    limit : int, optional
        Most layouts to search (`ENDGAME_LAYOUTS`).
    budget : int, optional
        Most states the search may solve (`SEARCH_BUDGET`).
    rule : str, optional
        The rule that dealt the board. None, or a rule that relocates nothing, weighs
        every layout alike; a relocating rule (``winxp``) weighs them by its order.
    click : int, optional
        The first click as a linear index, for a relocating rule.

    Returns
    -------
    EndgameMove or None
        None when more than ``limit`` layouts fit, the listing or the search passes
        its budget, no layout fits, or nothing is left to open.

    Examples
    --------
    A 1 in the corner of a 3x2 board with 2 mines. The best line wins 1/3 of the
    time, starting from (1, 0), (1, 1), (2, 0) or (2, 1); opening (0, 1) first
    does worse.

    >>> from minestats.mechanics.game import neighbour_table
    >>> numbers = np.array([1, 0, 0, 0, 0, 0], dtype=np.int8)
    >>> revealed = np.array([1, 0, 0, 0, 0, 0], dtype=bool)
    >>> move = endgame_move(numbers, neighbour_table(3, 2), revealed,
    ...                     np.zeros(6, dtype=bool), 3, 2)
    >>> move.win_probability, sorted(move.cells)
    (Fraction(1, 3), [1, 2, 4, 5])
    """
    relocates = rule is not None and resolve_rule(rule).relocates
    if relocates and click is None:
        raise ValueError(f"rule {quoted(resolve_rule(rule).name)} needs click: the first click "
                         "as a linear index")
    order = (winxp_order(revealed.size, int(click)) if relocates
             else np.empty(0, dtype=np.int64))
    cells, wins, layouts = endgame_cells(numbers, table, revealed, flagged, width, mines,
                                         limit, LISTING_BUDGET, budget, order)
    if layouts < 0:
        return None
    return EndgameMove(tuple(cells.tolist()), Fraction(int(wins), int(layouts)))
