"""A candidate's outlook: what opening it shows, and how safe the next move is then.

`outlook` scores a candidate as ``best`` does (its secondary safety and progress,
`minestats.players.player`), counting each number the cell may show from a
`minestats.frontier.variations.VariationBasis`; `looked_ahead` rescores the best
candidates two reveals on when they are close. A position travels as one `Position`.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from minestats.foundations.compiled import compiled
from minestats.frontier.engine import FITS, OVER_BUDGET, flags_and_hidden
from minestats.frontier.variations import chance_given_reveal, reveal_variation, variation_basis
from minestats.players.picks import TIE, unknown_neighbours
from minestats.players.weighing import weigh_position

__all__ = ["REPLIES", "Position", "looked_ahead", "outlook"]


class Position(NamedTuple):
    """What a player sees, as the compiled kernel reads it (flat arrays, one per cell).

    ``numbers`` (int8: the numbers of the layout, read only where ``revealed``),
    ``table`` (the neighbour table, `minestats.mechanics.game.neighbour_table`),
    ``revealed`` and ``flagged`` (bool), the board's ``width`` and its ``mines``.
    numba passes it through compiled code as a typed tuple.
    """

    numbers: np.ndarray
    table: np.ndarray
    revealed: np.ndarray
    flagged: np.ndarray
    width: int
    mines: int


_BOUND_SLACK = 1e-9
"""Added to the chance left in `outlook`'s bound, far above the float error of the
chances' sum: a pruned cell scores below the best by more than `TIE`."""
REPLIES = 3
"""The look-ahead scores this many of the safest cells as the next guess (`_reply_score`)."""


@compiled
def _imagine(position, cell, basis, relocation):
    """Set up the positions after opening ``cell``, for `_shown`.

    Returns the flags and the other unknown cells around ``cell`` (the numbers it
    may show run from the first to their sum), the `Position` with ``cell`` open (its
    own copies of the numbers, to take the number shown, and of the revealed cells),
    an array for the probabilities after each number, whether ``basis`` may count
    them, and the cell's `Reveal`.
    """
    flags, hidden = flags_and_hidden(cell, position.table, position.revealed, position.flagged)
    opened = position.revealed.copy()
    opened[cell] = True
    then = Position(position.numbers.copy(), position.table, opened, position.flagged,
                    position.width, position.mines)
    varied = basis.status == FITS and not (relocation.size
                                           and not position.revealed[relocation[0]])
    return (flags, hidden - 1, then, np.empty(opened.size), varied,
            reveal_variation(basis, position.table, cell))


@compiled
def _shown(reveal, varied, value, then, cell, fast_budget, after, relocation):
    """Fill ``after`` for ``cell`` showing ``value``; return the log of the layouts then.

    Counted from the basis when ``varied`` (`chance_given_reveal`), else, or when that
    passes its budget, by `weigh_position` on ``then`` (`_imagine`), whose numbers then
    hold the number. -inf when the number cannot show.
    """
    status = OVER_BUDGET
    if varied:
        status, log_solutions = chance_given_reveal(reveal, value, after, fast_budget)
    if status == OVER_BUDGET:
        then.numbers[cell] = value
        log_solutions = weigh_position(then.numbers, then.table, then.revealed, then.flagged,
                                       then.width, then.mines, fast_budget, after, relocation)
    return log_solutions


@compiled(borrows=True)
def _settled_around(cell, table, opened, flagged, probability):
    """Whether every unknown neighbour of ``cell`` is proven safe or proven a mine.

    The number ``cell`` would show is then known: it is dead, opening it teaches
    nothing. (A cell around which an undecided pattern always holds the same number of
    mines, a 50/50 for one, is dead too but not found here.)
    """
    for t in range(table.shape[1]):
        k = table[cell, t]
        if k < 0:
            break
        if k == cell or opened[k] or flagged[k]:
            continue
        p = probability[k]
        if not (p < TIE or p > 1 - TIE):  # NaN too: not proven
            return False
    return True


@compiled
def outlook(position, cell, log_total, settings, relocation, basis, always_safe, safety, factor,
            progress_weight, bar):
    """Secondary safety, progress and deadness of opening ``cell`` (`minestats.players.player`).

    The safety of the next move is that of the safest cell, or with ``settings.blend``
    (4 x safest + second safest) / 5; with ``settings.living_next``, the safest
    *living* cells, as Hill's
    player ranks them [1]_: a cell whose unknown neighbours are all proven
    (`_settled_around`) is dead, and its safety, proven safe or not, does not count
    while a living cell may be safe, for opening it leaves the next guess where it was
    (a cell proven a mine but for float error is left out too). Progress is the chance
    that the number proves some cell safe (with ``living_next``, some living cell if any
    is left). Each number the cell may show is counted from ``basis``, searching again only
    the component the cell touches
    (`minestats.frontier.variations.chance_given_reveal`, within
    ``settings.fast_budget``); `weigh_position` counts it when that passes its budget,
    when the basis has none, and under Windows XP's weighing (``relocation``).

    Leaves ``always_safe`` True on the cells proven safe after every number the cell
    may show, those its safety implies are safe; an empty ``always_safe`` (no
    dominance asked for) is left alone.

    The cell's score is ``survive * (1 + progress_weight * progress) * factor``.
    Before each number it is bounded from above, the numbers not yet counted (their
    chance, what is left of the cell's ``safety``) taken as followed by a safe move
    for certain; once the bound falls below ``bar`` (the best score of a living
    candidate so far) the cell cannot be chosen, and the last result, ``pruned``, is
    True (the others are then partial).

    References
    ----------
    .. [1] D. N. Hill, JSMinesweeper, solver_main.js and solver_probability_engine.js
       (the next move's safety taken over living tiles, 2020-2025),
       https://github.com/DavidNHill/JSMinesweeper
    """
    tracked = always_safe.size > 0
    if tracked:
        always_safe[:] = ~position.revealed & ~position.flagged
        always_safe[cell] = False
    flags, hidden, then, after, varied, reveal = _imagine(position, cell, basis, relocation)
    survive = progress = 0.0
    left = safety  # the chance of the numbers not yet counted
    shown = 0
    for value in range(flags, flags + hidden + 1):
        rest = max(left, 0.0) + _BOUND_SLACK
        if (survive + rest) * (1 + progress_weight * (progress + rest)) * factor < bar:
            return survive, progress, False, True
        log_solutions = _shown(reveal, varied, value, then, cell, settings.fast_budget, after,
                               relocation)
        if log_solutions == -np.inf:  # this number cannot show
            continue
        shown += 1
        chance = math.exp(log_solutions - log_total)
        left -= chance
        lowest = second = np.inf  # over the living cells with ``living_next``
        lowest_any = second_any = np.inf  # over every cell that may be safe
        for j in range(after.size):
            p = after[j]
            if not np.isnan(p) and p < 1:
                if p < lowest_any:
                    lowest_any, second_any = p, lowest_any
                elif p < second_any:
                    second_any = p
                if p < second and not (settings.living_next and (p > 1 - TIE or _settled_around(
                        j, then.table, then.revealed, then.flagged, after))):
                    if p < lowest:
                        lowest, second = p, lowest
                    else:
                        second = p
            if tracked and not p < TIE:  # NaN too: not proven safe
                always_safe[j] = False
        if lowest == np.inf:  # no living cell: the dead ones are all there is
            lowest, second = lowest_any, second_any
        if lowest == np.inf:  # nothing left to open: won
            lowest = 0.0
        if second == np.inf:
            second = lowest
        next_safety = 1 - lowest
        if settings.blend:
            next_safety = (4 * (1 - lowest) + (1 - second)) / 5
        survive += chance * next_safety
        if lowest < TIE:
            progress += chance
    return survive, progress, shown == 1, False


@compiled
def _reply_score(position, probability, log_total, settings, relocation):
    """Return the best one-step score of the next guess in a position.

    The `REPLIES` safest unknown cells (ties to the fewest unknown neighbours) are
    scored as `outlook` scores a candidate (its secondary safety, without the
    50/50 factor) and the best score is returned; 1 when a cell is proven safe (the
    player opens it, and all it shows, before guessing again: as `outlook` counts a
    safe next move; with ``settings.living_next``, a living cell, the dead ones proven
    safe left out) or none is left to open.
    ``probability`` holds the position's mine probabilities and ``log_total`` the log
    of its layouts.
    """
    numbers, table, revealed, flagged = (position.numbers, position.table, position.revealed,
                                         position.flagged)
    cells = np.flatnonzero(~revealed & ~flagged)
    safety = np.empty(cells.size)
    crowd = np.empty(cells.size, dtype=np.int64)
    count = 0
    for cell in cells:
        p = probability[cell]
        if p < TIE:
            if not (settings.living_next and _settled_around(cell, table, revealed, flagged,
                                                             probability)):
                return 1.0
            continue  # dead: opened for nothing, the next guess is among the others
        if not np.isnan(p) and p < 1:
            cells[count] = cell
            safety[count] = 1 - p
            crowd[count] = unknown_neighbours(cell, table, revealed, flagged)
            count += 1
    if count == 0:
        return 1.0
    by_crowd = np.argsort(crowd[:count], kind="mergesort")
    ranked = by_crowd[np.argsort(-safety[by_crowd], kind="mergesort")]
    basis = variation_basis(numbers, table, revealed, flagged, position.width, position.mines,
                            settings.fast_budget)
    untracked = np.empty(0, dtype=np.bool_)
    best = -np.inf
    for rank in ranked[:REPLIES]:
        survive, _, _, pruned = outlook(position, cells[rank], log_total, settings, relocation,
                                        basis, untracked, safety[rank], 1.0, 0.0, best)
        if not pruned:
            best = max(best, survive)
    return best


@compiled
def _look_ahead(position, cell, log_total, settings, relocation, basis):
    """Return the chance of surviving ``cell`` and the next guess, scored one step on.

    As `outlook`, the next guess scored by `_reply_score` instead of by its safety:
    the sum over the numbers ``cell`` may show of their chance times the best score
    of a next guess then. Two steps of reveals instead of one, as look-ahead players
    search deeper [1]_.

    References
    ----------
    .. [1] C. Tu, S. Li, J. Chen, Z. Zu and L. Gu, "Exploring efficient strategies
       for Minesweeper", AAAI Workshops, 2017 (look-ahead of several reveals).
    """
    flags, hidden, then, after, varied, reveal = _imagine(position, cell, basis, relocation)
    survive = 0.0
    for value in range(flags, flags + hidden + 1):
        log_solutions = _shown(reveal, varied, value, then, cell, settings.fast_budget, after,
                               relocation)
        if log_solutions == -np.inf:
            continue
        then.numbers[cell] = value
        survive += math.exp(log_solutions - log_total) * _reply_score(
            then, after, log_solutions, settings, relocation)
    return survive


@compiled
def looked_ahead(position, cells, scores, factor, log_solutions, settings, relocation, basis):
    """Return ``scores`` with the top candidates rescored two steps on, when they are close.

    When the second best score is within ``settings.look_ahead_margin`` (a share of the
    best) of the best, the ``settings.look_ahead`` best candidates are scored by
    `_look_ahead` times their 50/50 factor; the others drop out of the choice.
    """
    order = np.argsort(-scores, kind="mergesort")
    top = scores[order[0]]
    if scores[order[1]] < top * (1 - settings.look_ahead_margin):
        return scores
    rescored = np.full(scores.size, -np.inf)
    for k in order[:settings.look_ahead]:
        rescored[k] = factor[k] * _look_ahead(position, cells[k], log_solutions, settings,
                                              relocation, basis)
    return rescored
