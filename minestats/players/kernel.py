"""The compiled game: deductions, probabilities, policies and the end game in one kernel.

`play_chunk` plays a chunk of games, each from its layout and first click, and
returns per game its outcome and its guesses; Python is entered once per chunk
(and, through `numba.objmode`, for the rare position whose float search passes its
budget: the exact big-integer engine, `minestats.inference.mine_probabilities`,
answers it, as in the player's reference). `play_on` plays a game on from any
position, the state a rollout continues from, and `choose` makes one guess.

Each stall is analysed once (`minestats.frontier.engine.analyse_position`): the proven
cells are opened and flagged until none is left, and the same pass gives the mine
probabilities the policy reads. The policies are those of `minestats.players.player`;
``tests/oracles/reference_player.py`` holds them in plain Python, and
``tests/test_player.py`` checks that both make the same moves on seeded games.

Tie-breaks draw from numba's generator, seeded per game by the game's seed, so a
game depends only on its layout, its click and its seed.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numba
import numpy as np

from minestats.frontier.engine import (
    FITS,
    NO_FIT,
    OVER_BUDGET,
    analyse_frontier,
    analyse_position,
    closed_number_disagrees,
    flag_frontier_cell,
    flags_and_hidden,
    frontier_groups,
)
from minestats.frontier.variations import chance_given_reveal, reveal_variation, variation_basis
from minestats.mechanics.game import _flood
from minestats.mechanics.rules import winxp_order
from minestats.players.compiled import compiled
from minestats.players.endgame import (
    LISTING_BUDGET,
    SEARCH_BUDGET,
    SMALL_BOARD_LAYOUTS,
    SMALL_BOARD_LISTING_BUDGET,
    SMALL_BOARD_SEARCH_BUDGET,
    endgame_cells,
    list_layouts,
)
from minestats.players.fifty_fifty import fifty_fifty_outlook, tile_influence, unavoidable_pair

__all__ = ["BEST", "BUG", "LOST", "MEMO_POSITIONS", "SAFEST", "WON", "Chunk", "choose",
           "new_position_memo", "play_chunk", "play_on"]

SAFEST, BEST = 0, 1
"""Policy codes (the order of `minestats.foundations.validation.POLICIES`)."""
FRONTIER, OFF_FRONTIER, FIFTY_FIFTY, ENDGAME, PSEUDO = 0, 1, 2, 3, 4
"""Kinds of guess: a frontier cell, a cell off the frontier, one cell of an unavoidable
50/50, a cell the exact end game chose, and a pseudo-50/50
(`minestats.players.fifty_fifty`)."""
WON, LOST, BUG = 0, 1, 2
"""Outcome codes; `BUG` is a deduction the layout contradicts (a solver bug)."""


class Chunk(NamedTuple):
    """The games of a chunk, played by `play_chunk`: one entry, or one row, per game.

    ``outcomes`` (`WON`, `LOST` or `BUG`), ``guesses``, ``capped`` (a deduction
    passed its budget at some stall) and ``opened`` (the safe cells open at the end),
    shape ``(games,)``; ``moves`` (int64: the guessed cells in order, -1 after the
    last), ``chances`` (their mine probabilities when guessed, NaN after) and
    ``kinds`` (int8: `FRONTIER`, `OFF_FRONTIER`, `FIFTY_FIFTY`, `ENDGAME` or `PSEUDO`,
    -1 after), shape ``(games, cells)``.
    """

    outcomes: np.ndarray
    guesses: np.ndarray
    capped: np.ndarray
    opened: np.ndarray
    moves: np.ndarray
    chances: np.ndarray
    kinds: np.ndarray


_TIE = 1e-12
_BOUND_SLACK = 1e-9
"""Added to the chance left in `_outlook`'s bound, far above the float error of the
chances' sum: a pruned cell scores below the best by more than `_TIE`."""
DOMINANCE_MARGIN = 0.001
"""A candidate dominates the choice only when safer by more than this (`_dominating`)."""
REPLIES = 3
"""The look-ahead scores this many of the safest cells as the next guess (`_reply_score`)."""
MEMO_POSITIONS = 200_000
"""Most positions a memo of `new_position_memo` keeps the end game's answer for (about
70 MB when full)."""
POSITION_KEY = numba.types.UniTuple(numba.types.int64, 5)
"""A position of a board of at most 32 cells (`_position_key`)."""


def new_position_memo():
    """Return an empty memo of the end game's answers on a small board, by position.

    Its keys are `_position_key`'s, its values the cells `_small_board_endgame`
    found best (none where the search gave up). A memo serves one board, mine count
    and weighting of the layouts: the same position then always has the same answer,
    so games of later chunks reuse it (`minestats.players.player.play_games`).
    """
    return numba.typed.Dict.empty(key_type=POSITION_KEY, value_type=numba.types.int64[::1])


def exact_position(numbers, revealed, flagged, width, mines, probability, relocation):
    """Fill ``probability`` from the exact engine; return the log of the weighed layouts.

    The kernel's way out for a position whose float search passed its budget. With a
    Windows XP ``relocation`` (`minestats.mechanics.rules.winxp_order`; empty for every other
    rule) the layouts are weighed as `_position` weighs them
    (`minestats.inference.probabilities.winxp_counts`). -inf when no layout fits.
    """
    from minestats.inference.probabilities import exact_probabilities, winxp_counts

    shape = (revealed.size // width, width)
    view = np.where(revealed, numbers, -1).reshape(shape)
    try:
        if relocation.size:
            click = int(np.setdiff1d(np.arange(revealed.size), relocation)[0])
            total, mined, _, _ = winxp_counts(view, flags=flagged.reshape(shape),
                                              mines=int(mines), max_configurations=None,
                                              click=(click % width, click // width))
            probability[:] = [np.nan if m is None else m / total for m in mined.ravel()]
            return math.log(total)
        exact = exact_probabilities(view, flags=flagged.reshape(shape), mines=int(mines),
                                    max_configurations=None)
    except ValueError:  # no layout fits
        probability[:] = np.nan
        return -math.inf
    probability[:] = exact.probability.ravel()
    return math.log(exact.n_solutions)


@compiled
def _position(numbers, table, revealed, flagged, width, mines, budget, probability, relocation):
    """Probabilities of a position (the float search, else the exact engine).

    Returns the log of the layouts that fit, each weighed by the rule: alike when
    ``relocation`` is empty; under Windows XP (``relocation``, the rule's order of the
    cells, `minestats.mechanics.rules.winxp_order`) by 1 + the mines of its leading run
    (`_winxp_mixture`). -inf when none fits.
    """
    if relocation.size and not revealed[relocation[0]]:
        status, log_solutions = _winxp_mixture(numbers, table, revealed, flagged, width, mines,
                                               budget, probability, relocation)
    else:  # no layout has a leading run: alike
        unread = np.empty(revealed.size, dtype=np.int64)  # the cells proven, not wanted here
        status, log_solutions, _, _ = analyse_position(numbers, table, revealed, flagged,
                                                       width, mines, budget, True, True,
                                                       probability, unread, unread,
                                                       relocation[:0])
    if status == OVER_BUDGET:
        return _exact(numbers, revealed, flagged, width, mines, probability, relocation)
    if status != FITS:
        return -np.inf
    return log_solutions


@compiled
def _exact(numbers, revealed, flagged, width, mines, probability, relocation):
    """`exact_position`, called from compiled code (through `numba.objmode`)."""
    with numba.objmode(log_solutions="float64"):
        log_solutions = exact_position(numbers, revealed, flagged, width, mines, probability,
                                       relocation)
    return log_solutions


@compiled
def _stretch_end(order, start, revealed, flagged, frontier):
    """Return the end of the cells of ``order`` from ``start`` flagged or off the frontier."""
    end = start
    while end < order.size and not revealed[order[end]] and (flagged[order[end]]
                                                             or not frontier[order[end]]):
        end += 1
    return end


@compiled
def _all_mined_bound(stretch, revealed, flagged, frontier, mines):
    """Bound the share of the layouts that mine every unflagged cell of ``stretch``.

    Those cells are off the frontier: of the C(free, rest) ways to place the ``rest``
    mines a frontier configuration leaves there, a share prod_{j<n} (rest - j) /
    (free - j) mines n given cells, at most that with ``rest`` = the mines not flagged.
    """
    left = mines - flagged.sum()
    free = (~revealed & ~flagged & ~frontier).sum()
    bound = 1.0
    for cell in stretch:
        if not flagged[cell]:
            bound *= max(left, 0) / free
            left -= 1
            free -= 1
    return bound


@compiled
def _winxp_mixture(numbers, table, revealed, flagged, width, mines, budget, probability,
                   relocation):
    """Weigh the layouts by Windows XP's rule: ``(status, log of the weighed layouts)``.

    The mixture over r of the positions with the first r cells of the order flagged,
    each counted by its layouts (`minestats.inference.probabilities`, module notes),
    one stretch of r at a time: between two frontier cells of the order, the cells are
    flagged or off the frontier, and one analysis weighs them all (`analyse_position`'s
    ``run``); the next stretch has everything up to the next frontier cell flagged, on
    the same frontier (`flag_frontier_cell`). It stops at the first revealed cell of the
    order, or once the rest cannot move a float. `OVER_BUDGET` when an analysis passes
    the budget (``probability`` is then left half done).
    """
    if closed_number_disagrees(numbers, table, revealed, flagged):
        return NO_FIT, -np.inf
    front = frontier_groups(numbers, table, revealed, flagged, width)
    marked = flagged.copy()
    part = np.empty(probability.size)
    unread = np.empty(probability.size, dtype=np.int64)  # the cells proven, not wanted here
    mixed = np.zeros(probability.size)
    total = 0.0
    log_first = -np.inf
    start = 0
    while True:
        end = _stretch_end(relocation, start, revealed, marked, front.frontier)
        stretch = relocation[start:end]
        status, log_part, _, _ = analyse_frontier(front, revealed, marked, mines, budget, True,
                                                  True, part, unread, unread, stretch)
        if status == OVER_BUDGET or (status != FITS and start == 0):
            return status, -np.inf
        if status != FITS:  # no layout has the flagged cells mined: the run stops before
            break
        if start == 0:
            log_first = log_part
        weight = math.exp(log_part - log_first)
        mixed += weight * part
        total += weight
        if end == relocation.size or revealed[relocation[end]]:
            break  # no layout has a longer leading run
        # The next stretch's layouts mine the whole of this one and the frontier cell next.
        if weight * min(part[relocation[end]], _all_mined_bound(
                stretch, revealed, marked, front.frontier, mines)) < 1e-18:
            break
        marked[relocation[start:end + 1]] = True
        front = flag_frontier_cell(front, relocation[end])
        start = end + 1
    probability[:] = mixed / total
    return FITS, log_first + math.log(total)


@compiled
def _unknown_neighbours(cell, table, revealed, flagged):
    count = 0
    for t in range(table.shape[1]):
        j = table[cell, t]
        if j < 0:
            break
        if j != cell and not revealed[j] and not flagged[j]:
            count += 1
    return count


@compiled
def _keep_highest(cells, values):
    """Return the cells whose value is within the tie tolerance of the highest."""
    top = values.max()
    return cells[values >= top - _TIE], values >= top - _TIE


@compiled
def _pick(cells, keys):
    """Return the cell of the largest keys (rows of ``keys``, in order), ties at random."""
    best = cells
    rows = np.arange(cells.size)
    for k in range(keys.shape[0]):
        values = keys[k, rows]
        best, keep = _keep_highest(best, values)
        rows = rows[keep]
        if best.size == 1:
            return best[0]
    return best[np.random.randint(0, best.size)]  # noqa: NPY002 (the API numba compiles)


@compiled
def _safest_of(cells, probability):
    """Return the safest of ``cells`` (the end game's equally good moves), ties at random."""
    keys = np.empty((1, cells.size))
    for i in range(cells.size):
        keys[0, i] = -probability[cells[i]]
    return _pick(cells, keys)


@compiled
def _safest(table, revealed, flagged, probability):
    """Return the safest unknown cell; ties to the fewest unknown neighbours, then at random.

    As `_pick` with those two keys, in one pass over the cells and another over the
    safest, allocating one array (the tied cells, in order).
    """
    top = -np.inf
    for cell in range(revealed.size):
        if not revealed[cell] and not flagged[cell]:
            top = max(top, 1.0 - probability[cell])
    tied = np.empty(revealed.size, dtype=np.int64)
    count, fewest = 0, table.shape[1] + 1
    for cell in range(revealed.size):
        if revealed[cell] or flagged[cell] or 1.0 - probability[cell] < top - _TIE:
            continue
        crowd = _unknown_neighbours(cell, table, revealed, flagged)
        if crowd < fewest:
            count, fewest = 0, crowd
        if crowd == fewest:
            tied[count] = cell
            count += 1
    if count == 1:
        return tied[0]
    return tied[np.random.randint(0, count)]  # noqa: NPY002 (the API numba compiles)


@compiled
def _imagine(numbers, table, revealed, flagged, cell, basis, relocation):
    """Set up the positions after opening ``cell``, for `_shown`.

    Returns the flags and the other unknown cells around ``cell`` (the numbers it
    may show run from the first to their sum), copies of ``numbers`` and
    ``revealed`` with ``cell`` open, an array for the probabilities after each
    number, whether ``basis`` may count them, and the cell's `Reveal`.
    """
    flags, hidden = flags_and_hidden(cell, table, revealed, flagged)
    imagined = numbers.copy()
    opened = revealed.copy()
    opened[cell] = True
    varied = basis.status == FITS and not (relocation.size and not revealed[relocation[0]])
    return (flags, hidden - 1, imagined, opened, np.empty(revealed.size), varied,
            reveal_variation(basis, table, cell))


@compiled
def _shown(reveal, varied, value, imagined, cell, table, opened, flagged, width, mines,
           fast_budget, after, relocation):
    """Fill ``after`` for ``cell`` showing ``value``; return the log of the layouts then.

    Counted from the basis when ``varied`` (`chance_given_reveal`), else, or when that
    passes its budget, by `_position`; ``imagined`` then holds the number. -inf when
    the number cannot show.
    """
    status = OVER_BUDGET
    if varied:
        status, log_solutions = chance_given_reveal(reveal, value, after, fast_budget)
    if status == OVER_BUDGET:
        imagined[cell] = value
        log_solutions = _position(imagined, table, opened, flagged, width, mines,
                                  fast_budget, after, relocation)
    return log_solutions


@compiled
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
        if not (p < _TIE or p > 1 - _TIE):  # NaN too: not proven
            return False
    return True


@compiled
def _outlook(numbers, table, revealed, flagged, width, mines, cell, log_total, fast_budget,
             blend, relocation, basis, always_safe, safety, factor, progress_weight,
             bar, living=False):
    """Secondary safety, progress and deadness of opening ``cell`` (`minestats.players.player`).

    The safety of the next move is that of the safest cell, or with ``blend`` (4 x
    safest + second safest) / 5; with ``living``, the safest *living* cells, as Hill's
    player ranks them [1]_: a cell whose unknown neighbours are all proven
    (`_settled_around`) is dead, and its safety, proven safe or not, does not count
    while a living cell may be safe, for opening it leaves the next guess where it was
    (a cell proven a mine but for float error is left out too). Progress is the chance
    that the number proves some cell safe (with ``living``, some living cell if any is
    left). Each number the cell may show is counted from ``basis``, searching again only
    the component the cell touches
    (`minestats.frontier.variations.chance_given_reveal`); `_position` counts it when
    that passes its budget, when the basis has none, and under Windows XP's weighing.

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
        always_safe[:] = ~revealed & ~flagged
        always_safe[cell] = False
    flags, hidden, imagined, opened, after, varied, reveal = _imagine(
        numbers, table, revealed, flagged, cell, basis, relocation)
    survive = progress = 0.0
    left = safety  # the chance of the numbers not yet counted
    shown = 0
    for value in range(flags, flags + hidden + 1):
        rest = max(left, 0.0) + _BOUND_SLACK
        if (survive + rest) * (1 + progress_weight * (progress + rest)) * factor < bar:
            return survive, progress, False, True
        log_solutions = _shown(reveal, varied, value, imagined, cell, table, opened, flagged,
                               width, mines, fast_budget, after, relocation)
        if log_solutions == -np.inf:  # this number cannot show
            continue
        shown += 1
        chance = math.exp(log_solutions - log_total)
        left -= chance
        lowest = second = np.inf  # over the living cells with ``living``
        lowest_any = second_any = np.inf  # over every cell that may be safe
        for j in range(after.size):
            p = after[j]
            if not np.isnan(p) and p < 1:
                if p < lowest_any:
                    lowest_any, second_any = p, lowest_any
                elif p < second_any:
                    second_any = p
                if p < second and not (living and (p > 1 - _TIE or _settled_around(
                        j, table, opened, flagged, after))):
                    if p < lowest:
                        lowest, second = p, lowest
                    else:
                        second = p
            if tracked and not p < _TIE:  # NaN too: not proven safe
                always_safe[j] = False
        if lowest == np.inf:  # no living cell: the dead ones are all there is
            lowest, second = lowest_any, second_any
        if lowest == np.inf:  # nothing left to open: won
            lowest = 0.0
        if second == np.inf:
            second = lowest
        next_safety = 1 - lowest
        if blend:
            next_safety = (4 * (1 - lowest) + (1 - second)) / 5
        survive += chance * next_safety
        if lowest < _TIE:
            progress += chance
    return survive, progress, shown == 1, False


@compiled
def _reply_score(numbers, table, revealed, flagged, width, mines, probability, log_total,
                 fast_budget, blend, relocation, living):
    """Return the best one-step score of the next guess in a position.

    The `REPLIES` safest unknown cells (ties to the fewest unknown neighbours) are
    scored as `_outlook` scores a candidate (its secondary safety, without the
    50/50 factor) and the best score is returned; 1 when a cell is proven safe (the
    player opens it, and all it shows, before guessing again: as `_outlook` counts a
    safe next move; with ``living``, a living cell, the dead ones proven safe left
    out) or none is left to open.
    ``probability`` holds the position's mine probabilities and ``log_total`` the log
    of its layouts.
    """
    cells = np.flatnonzero(~revealed & ~flagged)
    safety = np.empty(cells.size)
    crowd = np.empty(cells.size, dtype=np.int64)
    count = 0
    for cell in cells:
        p = probability[cell]
        if p < _TIE:
            if not (living and _settled_around(cell, table, revealed, flagged, probability)):
                return 1.0
            continue  # dead: opened for nothing, the next guess is among the others
        if not np.isnan(p) and p < 1:
            cells[count] = cell
            safety[count] = 1 - p
            crowd[count] = _unknown_neighbours(cell, table, revealed, flagged)
            count += 1
    if count == 0:
        return 1.0
    by_crowd = np.argsort(crowd[:count], kind="mergesort")
    ranked = by_crowd[np.argsort(-safety[by_crowd], kind="mergesort")]
    basis = variation_basis(numbers, table, revealed, flagged, width, mines, fast_budget)
    untracked = np.empty(0, dtype=np.bool_)
    best = -np.inf
    for rank in ranked[:REPLIES]:
        survive, _, _, pruned = _outlook(numbers, table, revealed, flagged, width, mines,
                                         cells[rank], log_total, fast_budget, blend, relocation,
                                         basis, untracked, safety[rank], 1.0, 0.0, best, living)
        if not pruned:
            best = max(best, survive)
    return best


@compiled
def _look_ahead(numbers, table, revealed, flagged, width, mines, cell, log_total,
                fast_budget, blend, relocation, basis, living=False):
    """Return the chance of surviving ``cell`` and the next guess, scored one step on.

    As `_outlook`, the next guess scored by `_reply_score` instead of by its safety:
    the sum over the numbers ``cell`` may show of their chance times the best score
    of a next guess then. Two steps of reveals instead of one, as look-ahead players
    search deeper [1]_.

    References
    ----------
    .. [1] C. Tu, S. Li, J. Chen, Z. Zu and L. Gu, "Exploring efficient strategies
       for Minesweeper", AAAI Workshops, 2017 (look-ahead of several reveals).
    """
    flags, hidden, imagined, opened, after, varied, reveal = _imagine(
        numbers, table, revealed, flagged, cell, basis, relocation)
    survive = 0.0
    for value in range(flags, flags + hidden + 1):
        log_solutions = _shown(reveal, varied, value, imagined, cell, table, opened, flagged,
                               width, mines, fast_budget, after, relocation)
        if log_solutions == -np.inf:
            continue
        imagined[cell] = value
        survive += math.exp(log_solutions - log_total) * _reply_score(
            imagined, table, opened, flagged, width, mines, after, log_solutions, fast_budget,
            blend, relocation, living)
    return survive


@compiled
def _candidates(safety, crowd, frontier, boost, share, most, off_frontier_most, two_step,
                two_step_most):
    """Return the cells ``best`` scores as ``(ranks, first)``, positions in ``safety``.

    The safest cells, at least ``share`` as safe as the safest, ``most`` of them, at
    most ``off_frontier_most`` off the frontier (those with the fewest unknown
    neighbours, ``crowd``, first); then up to ``two_step_most`` of the ``two_step``
    cells (`_two_steps_out`) that pass the same bar, in the same order; then up to
    ``most`` more whose safety plus ``boost`` (the 50/50 weight times the chance that
    the cell is the safe half of a 50/50 that may form) passes the same bar. The boost
    only adds candidates: were it to rank them, a trace of influence would displace the
    corners that represent the cells off the frontier (on 40,000 paired 16x16/40 games
    of a development stream that cost 0.78 points at weight 0.9). ``first`` is the
    safest cell, for a position where no cell may be a candidate.
    """
    threshold = share * safety.max() - _TIE
    by_crowd = np.argsort(crowd, kind="mergesort")
    ranked = by_crowd[np.argsort(-safety[by_crowd], kind="mergesort")]
    ranks = np.empty(2 * most + two_step_most, dtype=np.int64)
    taken = np.zeros(safety.size, dtype=np.bool_)
    count = off_frontier = 0
    for rank in ranked:
        if safety[rank] < threshold or count >= most:
            break
        if not frontier[rank]:
            if off_frontier >= off_frontier_most:
                continue
            off_frontier += 1
        ranks[count] = rank
        taken[rank] = True
        count += 1
    stepped = 0
    for rank in ranked:
        if safety[rank] < threshold or stepped >= two_step_most:
            break
        if two_step[rank] and not taken[rank]:
            ranks[count] = rank
            taken[rank] = True
            count += 1
            stepped += 1
    if boost.max() <= 0:
        return ranks[:count], ranked[0]
    standing = safety + boost
    extra = 0
    for rank in by_crowd[np.argsort(-standing[by_crowd], kind="mergesort")]:
        if standing[rank] < threshold or extra >= most:
            break
        if not taken[rank] and boost[rank] > 0:
            ranks[count] = rank
            count += 1
            extra += 1
    return ranks[:count], ranked[0]


@compiled
def _dominating(cell, candidates, scores, probability, always_safe):
    """Return the candidate that dominates ``cell``, the choice by score, else ``cell``.

    Of the candidates that ``cell``'s safety proves safe (``always_safe``, a row per
    candidate) and that are safer than it by more than `DOMINANCE_MARGIN`, the one of
    highest score: it is safe whenever ``cell`` is, so opening it first gives up
    nothing (``cell`` may still be opened after it) and shows a number more, as
    Hill's player reasons [1]_.

    References
    ----------
    .. [1] D. N. Hill, "JSMinesweeper", https://github.com/DavidNHill/JSMinesweeper
       (its guess: a safer move that the chosen one's safety implies is played
       instead).
    """
    at = np.flatnonzero(candidates == cell)[0]
    for k in np.argsort(-scores, kind="mergesort"):
        alternative = candidates[k]
        if (k != at and always_safe[at, alternative]
                and probability[cell] - probability[alternative] > DOMINANCE_MARGIN):
            return alternative
    return cell


@compiled
def _two_steps_out(unknown, frontier, numbers, table, revealed, flagged, width):
    """Mark the cells off the frontier two steps in line from a number with unknown neighbours.

    Such a cell shares unknown neighbours with the frontier, so its number tells about
    the frontier too; Hill's player scores these cells among its guesses off the
    frontier [1]_.

    References
    ----------
    .. [1] D. N. Hill, "JSMinesweeper", https://github.com/DavidNHill/JSMinesweeper
       (its candidates off the edge: the cells two steps across or down from a
       witness).
    """
    height = revealed.size // width
    marked = np.zeros(unknown.size, dtype=np.bool_)
    for i in range(unknown.size):
        if frontier[i]:
            continue
        x, y = unknown[i] % width, unknown[i] // width
        for dx, dy in ((2, 0), (-2, 0), (0, 2), (0, -2)):
            if 0 <= x + dx < width and 0 <= y + dy < height:
                j = (y + dy) * width + x + dx
                if revealed[j] and numbers[j] > 0 and _unknown_neighbours(j, table, revealed,
                                                                          flagged) > 0:
                    marked[i] = True
                    break
    return marked


@compiled
def _hop_flood(start, table, revealed, passable, seen, queue, stop):
    """Mark the ``passable`` cells reached from ``start``; return how many, at most ~``stop``.

    A step goes to a passable neighbour, or hops over a revealed neighbour to a
    passable neighbour of it. The cells reached are marked in ``seen`` (cells
    already marked are not entered) and listed first in ``queue``; the flood stops
    once it has listed ``stop`` cells or more.
    """
    seen[start] = True
    queue[0] = start
    head, tail = 0, 1
    while head < tail and tail < stop:
        here = queue[head]
        head += 1
        for t in range(table.shape[1]):
            step = table[here, t]
            if step < 0:
                break
            if passable[step]:
                if not seen[step]:
                    seen[step] = True
                    queue[tail] = step
                    tail += 1
                continue
            if not revealed[step]:
                continue
            for u in range(table.shape[1]):
                hop = table[step, u]
                if hop < 0:
                    break
                if passable[hop] and not seen[hop]:
                    seen[hop] = True
                    queue[tail] = hop
                    tail += 1
    return tail


@compiled
def _in_large_space(cell, table, revealed, threshold):
    """Return whether ``cell`` lies in a space of at least ``threshold`` covered cells.

    The space is the covered cells (unknown or flagged) reached from ``cell`` by steps
    to a neighbour, where a step may hop over one revealed cell to a covered
    neighbour of it: a number between two covered areas ties them together. Hill's
    player puts off guessing in a space below 8 cells while a guess elsewhere is
    as good a candidate [1]_: the mine count, known better later, may settle it.

    References
    ----------
    .. [1] D. N. Hill, "Minesweeper" (Java solver),
       https://github.com/DavidNHill/Minesweeper (its space counter: a candidate in
       an area below 8 covered tiles is deferred).
    """
    passable = ~revealed
    reached = _hop_flood(cell, table, revealed, passable, np.zeros(revealed.size, np.bool_),
                         np.empty(revealed.size, dtype=np.int64), threshold)
    return reached >= threshold


@compiled
def _position_key(numbers, revealed, flagged, relocation):
    """Return what a player sees on a board of at most 32 cells, as five integers.

    The revealed and the flagged cells as bit masks, the revealed numbers in 4 bits
    a cell (cells 0-15, then 16-31), and the first click of Windows XP's weighing
    (the cell its ``relocation`` order skips; -1 without it).
    """
    shown = np.int64(0)
    flags = np.int64(0)
    low = np.int64(0)
    high = np.int64(0)
    for cell in range(revealed.size):
        if revealed[cell]:
            shown |= np.int64(1) << cell
            if cell < 16:
                low |= np.int64(numbers[cell]) << (4 * cell)
            else:
                high |= np.int64(numbers[cell]) << (4 * (cell - 16))
        if flagged[cell]:
            flags |= np.int64(1) << cell
    click = np.int64(-1)
    if relocation.size:
        click = np.int64(relocation.size)  # the last cell, unless the order skips one before
        for k in range(relocation.size):
            if relocation[k] != k:
                click = np.int64(k)
                break
    return (shown, flags, low, high, click)


@compiled
def _small_board_endgame(numbers, table, revealed, flagged, width, mines, relocation, memo):
    """Return the exact end game's best cells on a board of at most 32 cells, remembered.

    The search may list up to `SMALL_BOARD_LAYOUTS` layouts and solve up to
    `SMALL_BOARD_SEARCH_BUDGET` states, so that on the smallest boards it plays every
    guess from the first; its answer (no cell where it gave up) is kept in ``memo``,
    up to `MEMO_POSITIONS` positions, since the few positions of a small board recur
    from game to game.
    """
    key = _position_key(numbers, revealed, flagged, relocation)
    if key in memo:
        return memo[key]
    cells, _, _ = endgame_cells(numbers, table, revealed, flagged, width, mines,
                                SMALL_BOARD_LAYOUTS, SMALL_BOARD_LISTING_BUDGET,
                                SMALL_BOARD_SEARCH_BUDGET, relocation)  # none if it gave up
    if len(memo) < MEMO_POSITIONS:
        memo[key] = cells
    return cells


@compiled
def _isolated_move(numbers, table, revealed, flagged, width, most_cells, limit):
    """Play a region cut off from the rest exactly: ``(cells, found)``.

    A region is a set of unknown cells closed under adjacency and under sharing a
    revealed neighbour, so no number sees both it and the rest. When every layout
    that fits it holds the same number of mines, it is independent of the rest of
    the board, and the exact end game (`minestats.players.endgame.endgame_cells`)
    solved on it alone, the rest taken as open, plays it perfectly whatever the
    other layouts are. The smallest such region of at most ``most_cells`` cells
    with at most ``limit`` layouts is chosen; Hill's player solves such regions
    apart in the same way [1]_.

    References
    ----------
    .. [1] D. N. Hill, "Minesweeper" (Java solver),
       https://github.com/DavidNHill/Minesweeper (its check for an isolated edge,
       brute-forced on its own).
    """
    cells = revealed.size
    unknown = ~revealed & ~flagged
    seen = np.zeros(cells, dtype=np.bool_)
    queue = np.empty(cells, dtype=np.int64)
    unknown_total = unknown.sum()
    flags = flagged.sum()
    best_cells = np.empty(0, dtype=np.int64)
    best_size = most_cells + 1
    for start in range(cells):
        if not unknown[start] or seen[start]:
            continue
        size = _hop_flood(start, table, revealed, unknown, seen, queue, cells)
        members = queue[:size].copy()
        if size < 2 or size >= best_size or size == unknown_total:
            continue
        # The position with only this region unknown: the rest open, numbers that do
        # not see the region showing just their flags.
        apart = revealed.copy()
        shown = numbers.copy()
        near = np.zeros(cells, dtype=np.bool_)
        for k in range(size):
            for t in range(table.shape[1]):
                j = table[members[k], t]
                if j < 0:
                    break
                near[j] = True
        inside = np.zeros(cells, dtype=np.bool_)
        inside[members] = True
        for cell in range(cells):
            if unknown[cell] and not inside[cell]:
                apart[cell] = True
            if apart[cell] and not near[cell]:
                around = 0
                for t in range(table.shape[1]):
                    j = table[cell, t]
                    if j < 0:
                        break
                    if j != cell and flagged[j]:
                        around += 1
                shown[cell] = around
        fixed, fitting = -1, 0
        for k in range(size + 1):
            status, _, _ = list_layouts(shown, table, apart, flagged, width, flags + k, limit,
                                        LISTING_BUDGET)
            if status < 0:  # too many: not solved apart
                fitting = 2
                break
            if status > 0:
                fixed = k
                fitting += 1
                if fitting > 1:
                    break
        if fitting != 1:
            continue
        found, _, layouts = endgame_cells(shown, table, apart, flagged, width, flags + fixed,
                                          limit, LISTING_BUDGET, SEARCH_BUDGET,
                                          np.empty(0, dtype=np.int64))
        if layouts > 1 and found.size:
            best_cells, best_size = found, size
    return best_cells, best_cells.size > 0


@compiled
def _off_frontier_in_reach(safety, frontier, share):
    """Return whether a cell off the frontier is at least ``share`` as safe as the safest.

    Hill's player looks at cells off the frontier only when they are more than 0.95
    times as safe as the best cell [1]_; ``best``'s own bar for every candidate is
    ``candidate_share``, so a ``share`` at or below it changes nothing.

    References
    ----------
    .. [1] D. N. Hill, "Minesweeper" (Java solver),
       https://github.com/DavidNHill/Minesweeper (its tolerance for tiles off the
       edge).
    """
    off_safety = -1.0
    for i in range(safety.size):
        if not frontier[i]:
            off_safety = max(off_safety, safety[i])
    return off_safety >= share * safety.max() - _TIE


@compiled
def _looked_ahead(numbers, table, revealed, flagged, width, mines, cells, scores, factor,
                  log_solutions, settings, relocation, basis):
    """Return ``scores`` with the top candidates rescored two steps on, when they are close.

    When the second best score is within ``LOOK_AHEAD_MARGIN`` (a share of the best)
    of the best, the ``LOOK_AHEAD`` best candidates are scored by `_look_ahead`
    times their 50/50 factor; the others drop out of the choice.
    """
    order = np.argsort(-scores, kind="mergesort")
    top = scores[order[0]]
    if scores[order[1]] < top * (1 - settings.look_ahead_margin):
        return scores
    rescored = np.full(scores.size, -np.inf)
    for k in order[:settings.look_ahead]:
        rescored[k] = factor[k] * _look_ahead(
            numbers, table, revealed, flagged, width, mines, cells[k], log_solutions,
            settings.fast_budget, settings.blend, relocation, basis,
            settings.living_next)
    return rescored


@compiled
def _best(numbers, table, revealed, flagged, width, mines, probability, log_solutions,
          settings, relocation, memo):
    fast_budget, endgame_layouts = settings.fast_budget, settings.endgame_layouts
    max_candidates, off_frontier_cells = settings.max_candidates, settings.off_frontier_cells
    candidate_share = settings.candidate_share
    progress_weight = settings.progress_weight
    if revealed.size <= min(settings.small_board_cells, 32):  # `_position_key`'s limit
        cells = _small_board_endgame(numbers, table, revealed, flagged, width, mines,
                                     relocation, memo)
        if cells.size:
            return _safest_of(cells, probability), ENDGAME
    elif log_solutions <= math.log(endgame_layouts) + 1e-9:
        cells, _, layouts = endgame_cells(numbers, table, revealed, flagged, width, mines,
                                          endgame_layouts, LISTING_BUDGET, SEARCH_BUDGET,
                                          relocation)
        if layouts >= 0:
            return _safest_of(cells, probability), ENDGAME
    if settings.isolated_cells > 0 and not relocation.size:
        cells, found = _isolated_move(numbers, table, revealed, flagged, width,
                                      settings.isolated_cells, endgame_layouts)
        if found:
            return _safest_of(cells, probability), ENDGAME
    unknown = np.flatnonzero(~revealed & ~flagged)
    fifty_fifty_weight = settings.fifty_fifty_weight
    basis = variation_basis(numbers, table, revealed, flagged, width, mines, fast_budget)
    if fifty_fifty_weight > 0 or settings.pseudo_first:
        influence, pseudo, enablers = fifty_fifty_outlook(basis, table, revealed, flagged, width,
                                                          probability, log_solutions,
                                                          fast_budget)
        if settings.long_term_risk:
            influence += enablers
        if settings.pseudo_first and pseudo.any():
            cells = np.flatnonzero(pseudo)
            keys = np.empty((2, cells.size))
            for i in range(cells.size):
                keys[0, i] = -probability[cells[i]]
                keys[1, i] = -_unknown_neighbours(cells[i], table, revealed, flagged)
            return _pick(cells, keys), PSEUDO
    else:
        influence = np.zeros(revealed.size)
        enablers = influence
    safety = np.empty(unknown.size)
    crowd = np.empty(unknown.size, dtype=np.int64)
    frontier = np.zeros(unknown.size, dtype=np.bool_)
    for i in range(unknown.size):
        cell = unknown[i]
        safety[i] = 1.0 - probability[cell]
        crowd[i] = _unknown_neighbours(cell, table, revealed, flagged)
        for t in range(table.shape[1]):
            j = table[cell, t]
            if j < 0:
                break
            if revealed[j] and numbers[j] > 0:
                frontier[i] = True
    two_step = _two_steps_out(unknown, frontier, numbers, table, revealed, flagged, width)
    if not _off_frontier_in_reach(safety, frontier, settings.off_frontier_share):
        off_frontier_cells = 0
    ranks, first = _candidates(safety, crowd, frontier, fifty_fifty_weight * influence[unknown],
                               candidate_share, max_candidates, off_frontier_cells, two_step,
                               settings.two_step_cells)
    if settings.small_space > 0 and ranks.size > 1:
        large = np.empty(ranks.size, dtype=np.bool_)
        for i in range(ranks.size):
            large[i] = _in_large_space(unknown[ranks[i]], table, revealed,
                                       settings.small_space)
        if large.any():
            ranks = ranks[large]
    count = ranks.size
    chosen = unknown[ranks]
    if count == 0:  # every eligible cell is off the frontier, and none may be a candidate
        return unknown[first], OFF_FRONTIER
    if count == 1:
        return chosen[0], FRONTIER if frontier[ranks[0]] else OFF_FRONTIER
    survive = np.empty(count)
    progress = np.empty(count)
    factor = np.empty(count)  # the score's 50/50 factor, known before the outlook
    alive = np.zeros(count, dtype=np.bool_)
    always_safe = np.empty((count, revealed.size if settings.dominance else 0),
                           dtype=np.bool_)
    bar = -np.inf  # the best score of a living candidate so far; none pruned with dominance
    for i in range(count):
        rank = ranks[i]
        share = influence[unknown[rank]]
        if fifty_fifty_weight > 0 and settings.long_term_risk:
            share = tile_influence(unknown[rank], basis, revealed, flagged, width, probability,
                                   log_solutions, fast_budget, enablers, 3)
        factor[i] = 1 + fifty_fifty_weight * share / safety[rank]
        survive[i], progress[i], dead, pruned = _outlook(
            numbers, table, revealed, flagged, width, mines, chosen[i], log_solutions,
            fast_budget, settings.blend, relocation, basis, always_safe[i],
            safety[rank], factor[i], progress_weight, bar, settings.living_next)
        alive[i] = not dead and not pruned
        if alive[i] and not settings.dominance:
            bar = max(bar, survive[i] * (1 + progress_weight * progress[i]) * factor[i])
    # A cell is pruned only below a living one: the living remain whenever one is pruned.
    keep = alive if alive.any() else np.ones(count, dtype=np.bool_)
    picked = np.flatnonzero(keep)
    keys = np.empty((4, picked.size))
    for i in range(picked.size):
        k = picked[i]
        keys[0, i] = survive[k] * (1 + progress_weight * progress[k]) * factor[k]
        keys[1, i] = progress[k]
        keys[2, i] = safety[ranks[k]]
        keys[3, i] = -crowd[ranks[k]]
    if settings.look_ahead > 1 and picked.size > 1 and not relocation.size:
        keys[0, :] = _looked_ahead(numbers, table, revealed, flagged, width, mines, chosen[picked],
                                keys[0], factor[picked], log_solutions, settings,
                                relocation, basis)
    cell = _pick(chosen[picked], keys)
    if settings.dominance:
        cell = _dominating(cell, chosen[picked], keys[0], probability, always_safe[picked])
    for i in range(count):
        if chosen[i] == cell:
            return cell, FRONTIER if frontier[ranks[i]] else OFF_FRONTIER
    return cell, FRONTIER


@compiled
def _single_point(layout, numbers, table, revealed, flagged, queue, opened, settled):
    """Open and flag what single numbers prove, until nothing is left: ``(opened, sound)``.

    A number whose flags already account for it proves its other neighbours safe; one
    that needs every unknown neighbour proves them mines. Cheap, and most deductions
    of a game are of this kind; the full analysis then starts from what is left.
    (`minestats.solvers.single_point.propagate_single_point` applies the same rules
    from any state with its own queues; this plain scan of one game's revealed cells
    allocates nothing and plays Expert games about a fifth faster, measured paired.)
    A revealed cell with no unknown neighbour left is marked in ``settled``, the game's
    own mask, and never looked at again: nothing around it can change.
    """
    changed = True
    while changed:
        changed = False
        for cell in range(revealed.size):
            if not revealed[cell] or settled[cell]:
                continue
            flags = hidden = 0
            for t in range(table.shape[1]):  # flags_and_hidden, inlined: this loop is hot
                j = table[cell, t]
                if j < 0:
                    break
                if flagged[j]:
                    flags += 1
                elif not revealed[j]:
                    hidden += 1
            if hidden == 0:
                settled[cell] = True
                continue
            if numbers[cell] != flags and numbers[cell] - flags != hidden:
                continue
            changed = True
            mark = numbers[cell] != flags  # the unknown neighbours are all mines
            for t in range(table.shape[1]):
                j = table[cell, t]
                if j < 0:
                    break
                if flagged[j] or revealed[j]:
                    continue
                if layout[j] != mark:
                    return opened, False
                if mark:
                    flagged[j] = True
                else:
                    opened = _flood(j, numbers, table, revealed, queue, opened)
    return opened, True


@compiled
def choose(numbers, table, revealed, flagged, width, mines, probability, log_solutions,
           policy, settings, relocation, memo):
    """Return the guess a policy makes at a stall, as ``(cell, kind)``.

    ``policy`` is `SAFEST` (`_safest`) or `BEST`: an unavoidable 50/50 first when
    ``settings.fifty_fifty_first`` is set (its safer half, ties at random), else
    `_best`. ``probability`` holds the position's mine probabilities and
    ``log_solutions`` the log of its (weighed) layouts, as `play_on` finds them;
    ``relocation`` and ``memo`` are as for `play_on`. The kind is `FIFTY_FIFTY` for a
    cell of an unavoidable 50/50, `FRONTIER` or `OFF_FRONTIER` for a heuristic guess
    by where the cell lies, else `_best`'s (`ENDGAME` or `PSEUDO`). Tie-breaks draw
    from numba's generator (seed it with ``np.random.seed`` in compiled code).
    """
    a, b = unavoidable_pair(numbers, table, revealed, flagged)
    if policy == SAFEST:
        cell = _safest(table, revealed, flagged, probability)
        kind = FRONTIER
    elif a >= 0 and settings.fifty_fifty_first:
        # Alike under every rule but Windows XP's, which may weigh one half more.
        pair = np.array([a, b])
        cell, kind = _pick(pair, -probability[pair].reshape(1, 2)), FIFTY_FIFTY
    else:
        cell, kind = _best(numbers, table, revealed, flagged, width, mines, probability,
                           log_solutions, settings, relocation, memo)
    if a >= 0 and (cell == a or cell == b):
        kind = FIFTY_FIFTY
    elif kind == FRONTIER:
        on_frontier = False
        for t in range(table.shape[1]):
            j = table[cell, t]
            if j < 0:
                break
            if revealed[j] and numbers[j] > 0:
                on_frontier = True
        kind = FRONTIER if on_frontier else OFF_FRONTIER
    return cell, kind


@compiled
def play_on(layout, numbers, table, width, mines, revealed, flagged, opened, policy,
            use_mine_count, max_configurations, settings, relocation, moves, chances, kinds,
            memo):
    """Play a game on from a position to its end: return ``(outcome, guesses, capped, opened)``.

    The state a rollout continues from: ``revealed`` and ``flagged`` (changed in
    place as the game goes on; every flag must be a mine of ``layout``), and
    ``opened``, the safe cells open. ``relocation`` is Windows XP's order of the cells
    from the game's first click when its layouts are weighed by the rule
    (`minestats.mechanics.rules.winxp_order`), else empty. The guesses from here go
    to ``moves``, ``chances`` and ``kinds`` from their first entry, by `choose`; the
    other arguments are `play_chunk`'s. A game's first click followed by this is
    `_play`.
    """
    cells = layout.size
    queue = np.empty(cells, dtype=np.int64)
    probability = np.empty(cells)
    proven_safe = np.empty(cells, dtype=np.int64)
    proven_mine = np.empty(cells, dtype=np.int64)
    settled = np.zeros(cells, dtype=np.bool_)  # `_single_point` marks them as it goes
    safe_cells = cells - mines
    guesses = 0
    capped = False
    while True:
        while True:
            opened, sound = _single_point(layout, numbers, table, revealed, flagged, queue,
                                          opened, settled)
            if not sound:
                return BUG, guesses, capped, opened
            # analyse_position but for its check of the numbers with no unknown neighbour
            # left: every flag of a game is checked against the layout, so they agree.
            front = frontier_groups(numbers, table, revealed, flagged, width, settled)
            status, log_solutions, n_safe, n_mine = analyse_frontier(
                front, revealed, flagged, mines, max_configurations, use_mine_count, False,
                probability, proven_safe, proven_mine, relocation[:0])
            if status == OVER_BUDGET:
                capped = True
                break
            if status != FITS:
                return BUG, guesses, capped, opened
            if n_safe + n_mine == 0:
                break
            for cell in proven_mine[:n_mine]:
                if not layout[cell]:
                    return BUG, guesses, capped, opened
                flagged[cell] = True
            for cell in proven_safe[:n_safe]:
                if layout[cell]:
                    return BUG, guesses, capped, opened
                opened = _flood(cell, numbers, table, revealed, queue, opened)
        if opened == safe_cells:
            return WON, guesses, capped, opened
        if status == OVER_BUDGET or (relocation.size and not revealed[relocation[0]]):
            log_solutions = _position(numbers, table, revealed, flagged, width, mines,
                                      settings.fast_budget, probability, relocation)
        cell, kind = choose(numbers, table, revealed, flagged, width, mines, probability,
                            log_solutions, policy, settings, relocation, memo)
        moves[guesses] = cell
        chances[guesses] = probability[cell]
        kinds[guesses] = kind
        guesses += 1
        if layout[cell]:
            return LOST, guesses, capped, opened
        opened = _flood(cell, numbers, table, revealed, queue, opened)


@compiled
def _play(layout, numbers, table, width, mines, click, policy, use_mine_count,
          max_configurations, settings, moves, chances, kinds, winxp, memo):
    """Play one game, its first click then `play_on`: ``(outcome, guesses, capped, opened)``.

    The guesses go to ``moves``, ``chances`` and ``kinds``.
    """
    cells = layout.size
    if layout[click]:
        return LOST, 0, False, 0
    revealed = np.zeros(cells, dtype=np.bool_)
    flagged = np.zeros(cells, dtype=np.bool_)
    relocation = winxp_order(cells, click) if winxp and settings.weigh_winxp else np.empty(
        0, dtype=np.int64)
    opened = _flood(click, numbers, table, revealed, np.empty(cells, dtype=np.int64))
    return play_on(layout, numbers, table, width, mines, revealed, flagged, opened, policy,
                   use_mine_count, max_configurations, settings, relocation, moves, chances,
                   kinds, memo)


@compiled
def play_chunk(layouts, numbers, table, width, mines, clicks, policy, use_mine_count,
               max_configurations, settings, seeds, winxp, memo):
    """Play every game of a chunk.

    Parameters
    ----------
    layouts : numpy.ndarray of bool, shape (games, cells)
    numbers : numpy.ndarray of int8, shape (games, cells)
        Each layout's numbers (`minestats.mechanics.game.neighbour_counts`, flat).
    table : numpy.ndarray of int64
        The neighbour table.
    width, mines : int
    clicks : numpy.ndarray of int64, shape (games,)
        Each game's first click (linear index).
    policy : int
        `SAFEST` or `BEST`.
    use_mine_count : bool
    max_configurations : int
        The deductions' search budget (past it the game is ``capped`` at that stall).
    settings : Settings
        How ``best`` guesses (`minestats.players.player.Settings`, from
        `minestats.players.player.Strategy.settings`).
    seeds : numpy.ndarray of int64, shape (games,)
        Each game's tie-break seed.
    winxp : bool
        The layouts were dealt by Windows XP's rule: with ``settings.weigh_winxp``,
        the probabilities and the end game weigh them by it (`_position`).
    memo : numba.typed.Dict
        The end game's answers on this board by position (`new_position_memo`),
        read and filled on a board of at most ``settings.small_board_cells`` cells.

    Returns
    -------
    Chunk
    """
    games, cells = layouts.shape
    outcomes = np.empty(games, dtype=np.int64)
    guesses = np.empty(games, dtype=np.int64)
    capped = np.empty(games, dtype=np.bool_)
    opened = np.empty(games, dtype=np.int64)
    moves = np.full((games, cells), -1, dtype=np.int64)
    chances = np.full((games, cells), np.nan)
    kinds = np.full((games, cells), -1, dtype=np.int8)
    for g in range(games):
        np.random.seed(seeds[g])  # noqa: NPY002 (numba's generator, seeded per game)
        outcomes[g], guesses[g], capped[g], opened[g] = _play(
            layouts[g], numbers[g], table, width, mines, clicks[g], policy, use_mine_count,
            max_configurations, settings, moves[g], chances[g], kinds[g], winxp, memo)
    return Chunk(outcomes, guesses, capped, opened, moves, chances, kinds)
