"""The compiled game: deductions, probabilities, policies and the end game in one kernel.

`play_chunk` plays a chunk of games, each from its layout and first click, and
returns per game its outcome and its guesses; Python is entered once per chunk
(and, through `numba.objmode`, for the rare position whose float search passes its
budget: the exact big-integer engine, `minestats.inference.mine_probabilities`,
answers it, as in the player's reference).

Each stall is analysed once (`minestats.frontier.analyse_position`): the proven
cells are opened and flagged until none is left, and the same pass gives the mine
probabilities the policy reads. The policies are those of `minestats.play.player`;
``tests/reference_player.py`` holds them in plain Python, and
``tests/test_player.py`` checks that both make the same moves on seeded games.

Tie-breaks draw from numba's generator, seeded per game by the game's seed, so a
game depends only on its layout, its click and its seed.
"""

from __future__ import annotations

import math

import numba
import numpy as np

from minestats.frontier import FITS, OVER_BUDGET, analyse_position
from minestats.game import _flood
from minestats.play.endgame import LISTING_BUDGET, SEARCH_BUDGET, endgame_cells

__all__ = ["BEST", "BUG", "LOST", "SAFEST", "WON", "play_chunk"]

SAFEST, BEST = 0, 1
"""Policy codes (the order of `minestats.validation.POLICIES`)."""
WON, LOST, BUG = 0, 1, 2
"""Outcome codes; `BUG` is a deduction the layout contradicts (a solver bug)."""

_TIE = 1e-12


def exact_position(numbers, revealed, flagged, width, mines, probability):
    """Fill ``probability`` from the exact engine; return the log of the layouts (-inf: none).

    The kernel's way out for a position whose float search passed its budget.
    """
    from minestats.inference import mine_probabilities

    shape = (revealed.size // width, width)
    view = np.where(revealed, numbers, -1).reshape(shape)
    try:
        exact = mine_probabilities(view, flags=flagged.reshape(shape), mines=int(mines),
                                   max_configurations=None)
    except ValueError:  # no layout fits
        probability[:] = np.nan
        return -math.inf
    probability[:] = exact.probability.ravel()
    return math.log(exact.n_solutions)


@numba.njit(cache=True)
def _position(numbers, table, revealed, flagged, width, mines, budget, probability, scratch):
    """Probabilities of a position (the float search, else the exact engine): log layouts."""
    status, log_solutions, _, _ = analyse_position(numbers, table, revealed, flagged, width,
                                                   mines, budget, True, True, probability,
                                                   scratch[0], scratch[1])
    if status == OVER_BUDGET:
        with numba.objmode(log_solutions="float64"):
            log_solutions = exact_position(numbers, revealed, flagged, width, mines,
                                           probability)
    elif status != FITS:
        log_solutions = -np.inf
    return log_solutions


@numba.njit(cache=True)
def _unknown_neighbours(cell, table, revealed, flagged):
    count = 0
    for t in range(table.shape[1]):
        j = table[cell, t]
        if j < 0:
            break
        if j != cell and not revealed[j] and not flagged[j]:
            count += 1
    return count


@numba.njit(cache=True)
def _keep_highest(cells, values):
    """The cells whose value is within the tie tolerance of the highest."""
    top = values.max()
    return cells[values >= top - _TIE], values >= top - _TIE


@numba.njit(cache=True)
def _pick(cells, keys):
    """The cell of the largest keys (rows of ``keys``, compared in order), ties at random."""
    best = cells
    rows = np.arange(cells.size)
    for k in range(keys.shape[0]):
        values = keys[k, rows]
        best, keep = _keep_highest(best, values)
        rows = rows[keep]
        if best.size == 1:
            return best[0]
    return best[np.random.randint(0, best.size)]


@numba.njit(cache=True)
def _safest(table, revealed, flagged, probability):
    unknown = np.flatnonzero(~revealed & ~flagged)
    keys = np.empty((2, unknown.size))
    for i in range(unknown.size):
        keys[0, i] = 1.0 - probability[unknown[i]]
        keys[1, i] = -_unknown_neighbours(unknown[i], table, revealed, flagged)
    return _pick(unknown, keys)


@numba.njit(cache=True)
def _outlook(numbers, table, revealed, flagged, width, mines, cell, log_total, fast_budget,
             scratch):
    """Secondary safety, progress and deadness of opening ``cell`` (see `minestats.play.player`)."""
    flags = hidden = 0
    for t in range(table.shape[1]):
        j = table[cell, t]
        if j < 0:
            break
        if flagged[j]:
            flags += 1
        elif not revealed[j]:
            hidden += 1
    hidden -= 1  # the cell itself
    imagined = numbers.copy()
    opened = revealed.copy()
    opened[cell] = True
    after = np.empty(revealed.size)
    survive = progress = 0.0
    shown = 0
    for value in range(flags, flags + hidden + 1):
        imagined[cell] = value
        log_solutions = _position(imagined, table, opened, flagged, width, mines, fast_budget,
                                  after, scratch)
        if log_solutions == -np.inf:  # this number cannot show
            continue
        shown += 1
        chance = math.exp(log_solutions - log_total)
        lowest = np.inf
        for j in range(after.size):
            p = after[j]
            if not np.isnan(p) and p < 1 and p < lowest:
                lowest = p
        if lowest == np.inf:  # nothing left to open: won
            lowest = 0.0
        survive += chance * (1 - lowest)
        if lowest < _TIE:
            progress += chance
    return survive, progress, shown == 1


@numba.njit(cache=True)
def _best(numbers, table, revealed, flagged, width, mines, probability, log_solutions,
          settings, scratch):
    fast_budget, endgame_layouts, max_candidates = settings[0], settings[1], settings[2]
    candidate_share = settings[3] / 1e6
    if log_solutions <= math.log(endgame_layouts) + 1e-9:
        cells, _, layouts = endgame_cells(numbers, table, revealed, flagged, width, mines,
                                          endgame_layouts, LISTING_BUDGET, SEARCH_BUDGET)
        if layouts >= 0:
            keys = np.empty((1, cells.size))
            for i in range(cells.size):
                keys[0, i] = -probability[cells[i]]
            return _pick(cells, keys)
    unknown = np.flatnonzero(~revealed & ~flagged)
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
    threshold = candidate_share * safety.max() - _TIE
    by_crowd = np.argsort(crowd, kind="mergesort")
    order = by_crowd[np.argsort(-safety[by_crowd], kind="mergesort")]
    chosen = np.empty(max_candidates, dtype=np.int64)
    ranks = np.empty(max_candidates, dtype=np.int64)
    count = off_frontier = 0
    for rank in order:
        if safety[rank] < threshold or count >= max_candidates:
            break
        if not frontier[rank]:
            if off_frontier >= 2:
                continue
            off_frontier += 1
        chosen[count] = unknown[rank]
        ranks[count] = rank
        count += 1
    if count == 1:
        return chosen[0]
    survive = np.empty(count)
    progress = np.empty(count)
    alive = np.zeros(count, dtype=np.bool_)
    for i in range(count):
        survive[i], progress[i], dead = _outlook(numbers, table, revealed, flagged, width,
                                                 mines, chosen[i], log_solutions, fast_budget,
                                                 scratch)
        alive[i] = not dead
    keep = alive if alive.any() else np.ones(count, dtype=np.bool_)
    picked = np.flatnonzero(keep)
    keys = np.empty((4, picked.size))
    for i in range(picked.size):
        k = picked[i]
        keys[0, i] = survive[k]
        keys[1, i] = progress[k]
        keys[2, i] = safety[ranks[k]]
        keys[3, i] = -crowd[ranks[k]]
    return _pick(chosen[picked], keys)


@numba.njit(cache=True)
def _single_point(layout, numbers, table, revealed, flagged, queue, opened):
    """Open and flag what single numbers prove, until nothing is left: ``(opened, sound)``.

    A number whose flags already account for it proves its other neighbours safe; one
    that needs every unknown neighbour proves them mines. Cheap, and most deductions
    of a game are of this kind; the full analysis then starts from what is left.
    """
    changed = True
    while changed:
        changed = False
        for cell in range(revealed.size):
            if not revealed[cell]:
                continue
            flags = hidden = 0
            for t in range(table.shape[1]):
                j = table[cell, t]
                if j < 0:
                    break
                if flagged[j]:
                    flags += 1
                elif not revealed[j]:
                    hidden += 1
            if hidden == 0 or (numbers[cell] != flags and numbers[cell] - flags != hidden):
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


@numba.njit(cache=True)
def _play(layout, numbers, table, width, mines, click, policy, use_mine_count,
          max_configurations, settings, moves, chances):
    """One game: ``(outcome, guesses, capped, opened)``; the guesses go to ``moves`` and
    ``chances``."""
    cells = layout.size
    revealed = np.zeros(cells, dtype=np.bool_)
    flagged = np.zeros(cells, dtype=np.bool_)
    queue = np.empty(cells, dtype=np.int64)
    probability = np.empty(cells)
    scratch = np.empty((2, cells), dtype=np.int64)
    if layout[click]:
        return LOST, 0, False, 0
    opened = _flood(click, numbers, table, revealed, queue)
    safe_cells = cells - mines
    guesses = 0
    capped = False
    while True:
        while True:
            opened, sound = _single_point(layout, numbers, table, revealed, flagged, queue,
                                          opened)
            if not sound:
                return BUG, guesses, capped, opened
            status, log_solutions, n_safe, n_mine = analyse_position(
                numbers, table, revealed, flagged, width, mines, max_configurations,
                use_mine_count, False, probability, scratch[0], scratch[1])
            if status == OVER_BUDGET:
                capped = True
                break
            if status != FITS:
                return BUG, guesses, capped, opened
            if n_safe + n_mine == 0:
                break
            for k in range(n_mine):
                if not layout[scratch[1, k]]:
                    return BUG, guesses, capped, opened
                flagged[scratch[1, k]] = True
            for k in range(n_safe):
                if layout[scratch[0, k]]:
                    return BUG, guesses, capped, opened
                opened = _flood(scratch[0, k], numbers, table, revealed, queue, opened)
        if opened == safe_cells:
            return WON, guesses, capped, opened
        if status == OVER_BUDGET:
            log_solutions = _position(numbers, table, revealed, flagged, width, mines,
                                      settings[0], probability, scratch)
        if policy == SAFEST:
            cell = _safest(table, revealed, flagged, probability)
        else:
            cell = _best(numbers, table, revealed, flagged, width, mines, probability,
                         log_solutions, settings, scratch)
        moves[guesses] = cell
        chances[guesses] = probability[cell]
        guesses += 1
        if layout[cell]:
            return LOST, guesses, capped, opened
        opened = _flood(cell, numbers, table, revealed, queue, opened)


@numba.njit(cache=True)
def play_chunk(layouts, numbers, table, width, mines, clicks, policy, use_mine_count,
               max_configurations, settings, seeds):
    """Play every game of a chunk.

    Parameters
    ----------
    layouts : numpy.ndarray of bool, shape (games, cells)
    numbers : numpy.ndarray of int8, shape (games, cells)
        Each layout's numbers (`minestats.game.neighbour_counts`, flat).
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
    settings : numpy.ndarray of int64
        ``best``'s settings: the float search's budget, the end game's layout limit,
        the most candidates and the candidate share in millionths.
    seeds : numpy.ndarray of int64, shape (games,)
        Each game's tie-break seed.

    Returns
    -------
    outcomes, guesses, capped, opened : numpy.ndarray, shape (games,)
        ``opened``: the safe cells open at the end.
    moves : numpy.ndarray of int64, shape (games, cells)
        Each game's guesses, in order (the first ``guesses[g]`` of row g).
    chances : numpy.ndarray of float64, shape (games, cells)
        The mine probability of each guess when it was made.
    """
    games, cells = layouts.shape
    outcomes = np.empty(games, dtype=np.int64)
    guesses = np.empty(games, dtype=np.int64)
    capped = np.empty(games, dtype=np.bool_)
    opened = np.empty(games, dtype=np.int64)
    moves = np.full((games, cells), -1, dtype=np.int64)
    chances = np.full((games, cells), np.nan)
    for g in range(games):
        np.random.seed(seeds[g])
        outcomes[g], guesses[g], capped[g], opened[g] = _play(
            layouts[g], numbers[g], table, width, mines, clicks[g], policy, use_mine_count,
            max_configurations, settings, moves[g], chances[g])
    return outcomes, guesses, capped, opened, moves, chances
