"""Where 50/50s are, and where they may yet form: the guesses that no play can avoid.

Two unknown cells form a 50/50 when one of them is a mine and nothing the player
can ever open tells which: every cell next to one of them is next to the other, or
is a mine. It costs an even guess sooner or later, whatever the player does, so a
strong player guesses it at once [1]_ (its answer may still inform its neighbours) and
prefers, among nearly safe guesses, the cells that may stop one from forming.

`unavoidable_pair` finds a 50/50 that has formed: a number that needs one mine in
exactly two cells that nothing can tell apart. `fifty_fifty_outlook` looks at the
shapes where one may form, a pair of adjacent cells or a 2x2 box (whose mines lie
on one diagonal or the other), and counts in how many of the layouts that fit it
forms. A shape can form only where every cell beside one end of the pair (a corner
of the box) but not the other is a mine or off the board; those *closing* cells
are revealed in none of its layouts, and the mirror image of each layout (the
shape's mines swapped with its safe cells) fits as well, so the chance that a cell
is safe in a 50/50 of the shape is the chance of one orientation. A cell whose
every mined layout puts it in such a 50/50 is a *pseudo-50/50*: it is safe, or it
is one half of a guess that must be made some time, so it may as well be made now.
`tile_influence` counts, for one cell, the layouts in which the 50/50s that hold it
form, wherever they are and with more of their closing cells still unknown; the
closing cells of the likely shapes next to the revealed area are credited too, since
opening one of them stops the 50/50 as well. Both count every shape from one
enumeration of the position (`minestats.frontier.variations`), searching again only
the components that hold the shape's mines.

References
----------
.. [1] D. N. Hill, "JSMinesweeper", https://github.com/DavidNHill/JSMinesweeper
   (the strongest published player; its guess ranking weighs 50/50 influence and
   plays pseudo-50/50s at once).
"""

from __future__ import annotations

import math

import numpy as np

from minestats.foundations.compiled import compiled
from minestats.frontier.engine import FITS
from minestats.frontier.variations import chance_given_mines

__all__ = ["BOX_MISSING", "ENABLER_SHARE", "PAIR_MISSING", "fifty_fifty_outlook", "tile_influence",
           "unavoidable_pair"]

PAIR_MISSING = 1
"""A pair is looked at when at most this many of its closing cells are not yet flagged."""
BOX_MISSING = 2
"""A 2x2 box is looked at when at most this many of its closing cells are not yet flagged."""
ENABLER_SHARE = 0.025
"""A closing cell is credited with a shape's share once that passes this."""
_PSEUDO_TOLERANCE = 1e-9
"""A cell is a pseudo-50/50 when its mine probability exceeds its chance of being the
mine of a 50/50 by at most this (float error)."""


@compiled
def unavoidable_pair(numbers, table, revealed, flagged):
    """Return the cells of an unavoidable 50/50, as ``(a, b)``; ``(-1, -1)`` if there is none.

    Two unknown cells a and b form one when a revealed number needs exactly one mine
    among its unknown neighbours, which are exactly a and b (so one of them is a
    mine), and nothing can tell them apart: every revealed number next to one is next
    to the other, and so is every other unknown cell. Whatever is opened later shows
    the same numbers whichever of the two is the mine, so one of them must be guessed
    at even odds some time.

    Parameters
    ----------
    numbers : numpy.ndarray of int8, shape (cells,)
    table : numpy.ndarray of int64
        The neighbour table (`minestats.mechanics.game.neighbour_table`).
    revealed, flagged : numpy.ndarray of bool, shape (cells,)

    Returns
    -------
    a, b : int

    Examples
    --------
    >>> from minestats.mechanics.game import neighbour_counts, neighbour_table
    >>> layout = np.array([[0, 0], [0, 0], [1, 0]], dtype=bool)
    >>> numbers = neighbour_counts(layout).ravel().astype(np.int8)
    >>> revealed = np.array([1, 1, 1, 1, 0, 0], dtype=bool)
    >>> unavoidable_pair(numbers, neighbour_table(2, 3), revealed, np.zeros(6, bool))
    (4, 5)
    """
    cells = revealed.size
    slots = table.shape[1]
    for cell in range(cells):
        if not revealed[cell]:
            continue
        a = b = -1
        need = numbers[cell]
        hidden = 0
        for t in range(slots):
            j = table[cell, t]
            if j < 0:
                break
            if flagged[j]:
                need -= 1
            elif not revealed[j]:
                hidden += 1
                if a < 0:
                    a = j
                else:
                    b = j
        if hidden != 2 or need != 1:
            continue
        alike = True
        for first, second in ((a, b), (b, a)):
            for t in range(slots):
                j = table[first, t]
                if j < 0:
                    break
                if j == first or j == second or flagged[j]:
                    continue
                if revealed[j] and numbers[j] == 0:
                    continue
                found = False
                for u in range(slots):
                    if table[second, u] == j:
                        found = True
                        break
                if not found:
                    alike = False
                    break
            if not alike:
                break
        if alike:
            return a, b
    return -1, -1


_MEMBERS = np.array([[(0, 0), (1, 0), (0, 0), (0, 0)],  # a pair along a row
                     [(0, 0), (0, 1), (0, 0), (0, 0)],  # a pair along a column
                     [(0, 0), (1, 1), (1, 0), (0, 1)]])  # a 2x2 box, one diagonal first
_CLOSING = np.array([[(-1, -1), (-1, 0), (-1, 1), (2, -1), (2, 0), (2, 1)],
                     [(-1, -1), (0, -1), (1, -1), (-1, 2), (0, 2), (1, 2)],
                     [(-1, -1), (2, -1), (-1, 2), (2, 2), (0, 0), (0, 0)]])
"""Offsets from a shape's corner to its cells and to its closing cells (the box's first
four only)."""


@compiled(borrows=True)
def _shape(kind, x, y, width, height, members, closing):
    """Fill the cells of shape ``kind`` at ``(x, y)`` and its closing cells on the board.

    Kind 0 is the pair (x, y), (x + 1, y); kind 1 the pair (x, y), (x, y + 1); kind 2
    the box with corner (x, y), its members in diagonal order: (x, y), (x + 1, y + 1)
    and then (x + 1, y), (x, y + 1) (`_MEMBERS`, `_CLOSING`). Return ``(members,
    closing)`` counts, or ``(0, 0)`` when the shape leaves the board.
    """
    size = 4 if kind == 2 else 2
    for k in range(size):
        cx, cy = x + _MEMBERS[kind, k, 0], y + _MEMBERS[kind, k, 1]
        if cx >= width or cy >= height:
            return 0, 0
        members[k] = cx + cy * width
    count = 0
    for k in range(4 if kind == 2 else 6):
        cx, cy = x + _CLOSING[kind, k, 0], y + _CLOSING[kind, k, 1]
        if 0 <= cx < width and 0 <= cy < height:
            closing[count] = cx + cy * width
            count += 1
    return size, count


@compiled
def _buffers():
    """Scratch space of a shape count: its members, closing cells, mined cells and targets."""
    return (np.empty(4, dtype=np.int64), np.empty(6, dtype=np.int64), np.empty(9, dtype=np.int64),
            np.empty(2))


@compiled
def _chance(basis, given, count, target, probability, log_total, budget):
    """P(the first ``count`` cells of ``given`` are mines), with P(mine) of cells ``target`` then.

    0, and ``probability`` NaN, when no layout fits or a search passes ``budget``.
    """
    status, log_solutions = chance_given_mines(basis, given[:count], target, probability, budget)
    return math.exp(log_solutions - log_total) if status == FITS else 0.0


@compiled
def _shape_share(size, members, closing, n_closing, basis, log_total, budget, given,
                 probability):
    """Chance that the shape's 50/50 forms in one orientation (its first half mined)."""
    if basis.status != FITS:
        return 0.0
    count = 0
    for k in range(n_closing):
        given[count] = closing[k]
        count += 1
    for k in range(size // 2):
        given[count] = members[k]
        count += 1
    if size == 2:
        chance = _chance(basis, given, count, members[1:2], probability[:1], log_total, budget)
        return chance * (1.0 - probability[0]) if chance > 0 else 0.0
    chance = _chance(basis, given, count, members[2:4], probability, log_total, budget)
    if chance == 0:  # the shape cannot form
        return 0.0
    first, second = probability[0], probability[1]
    given[count] = members[2]
    both = _chance(basis, given, count + 1, members[3:4], probability[:1], log_total, budget)
    share = chance * (1.0 - first - second)
    if both > 0:
        share += both * probability[0]
    return max(0.0, share)


@compiled
def tile_influence(cell, basis, revealed, flagged, width, probability, log_total, budget,
                   enablers, most_missing):
    """Return the chance that ``cell`` is caught in a 50/50 that may form: its tally.

    Over the pairs along its row that hold it, the largest chance that the pair
    forms with the cell its safe half; the same along its column; over the 2x2
    boxes that hold it, the largest; summed, plus ``enablers`` (its credit as a
    closing cell), and at most min(P(mine), P(safe)). A shape counts wherever it
    is, with at most ``most_missing`` closing cells not yet flagged. This is the
    per-tile tally of Hill's Java solver [1]_, counted here as `fifty_fifty_outlook`
    counts a shape.

    Parameters
    ----------
    cell : int
        The cell (an unknown one).
    basis, revealed, flagged, width, probability, log_total, budget
        As for `fifty_fifty_outlook`.
    enablers : numpy.ndarray of float64, shape (cells,)
        The closing-cell credits (`fifty_fifty_outlook`'s third result).
    most_missing : int
        Most closing cells of a shape not yet flagged.

    Returns
    -------
    float

    References
    ----------
    .. [1] D. N. Hill, "Minesweeper" (the Java solver),
       https://github.com/DavidNHill/Minesweeper (its long-term risk: the 50/50
       tally of the tiles it evaluates, with a weight of 0.9 in the guess's score).

    Examples
    --------
    The bottom row of `fifty_fifty_outlook`'s board: its pair is a 50/50 already, with
    the mine on either side.

    >>> from minestats.frontier.variations import variation_basis
    >>> from minestats.mechanics.game import neighbour_counts, neighbour_table
    >>> layout = np.array([[0, 0], [0, 0], [1, 0]], dtype=bool)
    >>> numbers = neighbour_counts(layout).ravel().astype(np.int8)
    >>> revealed = np.array([1, 1, 1, 1, 0, 0], dtype=bool)
    >>> probability = np.array([np.nan] * 4 + [0.5, 0.5])
    >>> table, flagged = neighbour_table(2, 3), np.zeros(6, bool)
    >>> basis = variation_basis(numbers, table, revealed, flagged, 2, 1, 10_000)
    >>> _, _, enablers = fifty_fifty_outlook(basis, table, revealed, flagged, 2, probability,
    ...                                      np.log(2), 10_000)
    >>> round(tile_influence(4, basis, revealed, flagged, 2, probability, np.log(2), 10_000,
    ...                      enablers, 3), 3)
    0.5
    """
    cells = revealed.size
    height = cells // width
    x, y = cell % width, cell // width
    left = basis.left
    members, closing, given, shown = _buffers()
    total = 0.0
    for kind in range(3):
        size = 4 if kind == 2 else 2
        best = 0.0
        for corner in range(4 if kind == 2 else 2):
            cx = x - (corner % 2 if kind != 1 else 0)
            cy = y - (corner // 2 if kind == 2 else (corner if kind == 1 else 0))
            if cx < 0 or cy < 0:
                continue
            n_members, n_closing = _shape(kind, cx, cy, width, height, members, closing)
            if n_members == 0:
                continue
            usable = True
            for k in range(n_members):
                if revealed[members[k]] or flagged[members[k]]:
                    usable = False
            missing = 0
            for k in range(n_closing):
                if revealed[closing[k]]:
                    usable = False
                elif not flagged[closing[k]]:
                    missing += 1
            if not usable or missing > most_missing or missing + size // 2 > left:
                continue
            best = max(best, _shape_share(size, members, closing, n_closing, basis, log_total,
                                          budget, given, shown))
        total += best
    total += enablers[cell]
    return min(total, probability[cell], 1.0 - probability[cell])


@compiled
def fifty_fifty_outlook(basis, table, revealed, flagged, width, probability, log_total,
                        budget):
    """Chance that each cell is safe in a 50/50 that may form, and the pseudo-50/50s.

    Only shapes next to the revealed area are looked at (a cell of the shape, or a
    closing cell not yet flagged, touches a revealed cell); far from it a 50/50 is
    about as likely as any other pattern of unknown cells and no guess now decides
    it. A shape whose count passes ``budget`` is left out, and so is every shape of a
    position whose own count passes it.

    Parameters
    ----------
    basis : minestats.frontier.variations.VariationBasis
        The position, enumerated once (`minestats.frontier.variations.variation_basis`
        with ``budget``); each shape is counted from it.
    table, revealed, flagged
        The position, as for `unavoidable_pair`.
    width : int
        Board width.
    probability : numpy.ndarray of float64, shape (cells,)
        The position's mine probabilities (`minestats.frontier.engine.analyse_position`).
    log_total : float
        Natural log of the number of layouts that fit the position.
    budget : int
        The search budget of each count.

    Returns
    -------
    influence : numpy.ndarray of float64, shape (cells,)
        For each cell, the chance that it is safe and the safe half of a 50/50 that
        may form: summed over the pairs it belongs to, plus the largest over the
        boxes.
    pseudo : numpy.ndarray of bool, shape (cells,)
        The pseudo-50/50s: cells that are mines only as one half of a 50/50 of some
        shape.
    enablers : numpy.ndarray of float64, shape (cells,)
        For each closing cell not yet flagged, the summed chances of the shapes it
        closes that form with more than `ENABLER_SHARE` and lack at most that one
        closing cell (`tile_influence` credits it).

    Examples
    --------
    The bottom row of a 2x3 board, under two 1s: nothing can tell its cells apart.

    >>> from minestats.frontier.variations import variation_basis
    >>> from minestats.mechanics.game import neighbour_counts, neighbour_table
    >>> layout = np.array([[0, 0], [0, 0], [1, 0]], dtype=bool)
    >>> numbers = neighbour_counts(layout).ravel().astype(np.int8)
    >>> revealed = np.array([1, 1, 1, 1, 0, 0], dtype=bool)
    >>> probability = np.array([np.nan] * 4 + [0.5, 0.5])
    >>> table, flagged = neighbour_table(2, 3), np.zeros(6, bool)
    >>> basis = variation_basis(numbers, table, revealed, flagged, 2, 1, 10_000)
    >>> influence, pseudo, enablers = fifty_fifty_outlook(basis, table, revealed, flagged, 2,
    ...                                                   probability, np.log(2), 10_000)
    >>> influence[4:].round(3).tolist(), np.flatnonzero(pseudo).tolist()
    ([0.5, 0.5], [4, 5])
    """
    cells = revealed.size
    height = cells // width
    influence = np.zeros(cells)
    box_influence = np.zeros(cells)
    pseudo = np.zeros(cells, dtype=np.bool_)
    enablers = np.zeros(cells)
    left = basis.left
    members, closing, given, shown = _buffers()
    # The cells next to a revealed one, marked from the revealed cells here rather than
    # asked per shape member by a helper: a helper's call takes and releases its array
    # arguments (two atomic reference counts each way), which cost more than its loop.
    touching = np.zeros(cells, dtype=np.bool_)
    for cell in range(cells):
        if revealed[cell]:
            for t in range(table.shape[1]):
                j = table[cell, t]
                if j < 0:
                    break
                touching[j] = True
    for kind in range(3):
        size = 4 if kind == 2 else 2
        allowed = BOX_MISSING if kind == 2 else PAIR_MISSING
        for y in range(height):
            for x in range(width):
                n_members, n_closing = _shape(kind, x, y, width, height, members, closing)
                if n_members == 0:
                    continue
                usable, near = True, False
                for k in range(n_members):
                    cell = members[k]
                    if revealed[cell] or flagged[cell]:
                        usable = False
                    elif touching[cell]:
                        near = True
                missing = 0
                for k in range(n_closing):
                    cell = closing[k]
                    if revealed[cell]:
                        usable = False
                    elif not flagged[cell]:
                        missing += 1
                        if touching[cell]:
                            near = True
                if not usable or not near or missing > allowed or missing + size // 2 > left:
                    continue
                share = _shape_share(size, members, closing, n_closing, basis, log_total,
                                     budget, given, shown)
                if share > ENABLER_SHARE and missing <= 1:
                    for k in range(n_closing):
                        if not flagged[closing[k]]:
                            enablers[closing[k]] += share
                if share <= 0:
                    continue
                for k in range(n_members):
                    cell = members[k]
                    if size == 2:
                        influence[cell] += share
                    else:
                        box_influence[cell] = max(box_influence[cell], share)
                    if probability[cell] - share <= _PSEUDO_TOLERANCE:
                        pseudo[cell] = True
    return influence + box_influence, pseudo, enablers
