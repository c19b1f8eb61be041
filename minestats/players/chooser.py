"""The guess at a stall: `choose`, by the ``safest`` policy or by ``best``.

``best`` (`minestats.players.player.Strategy`) plays an unavoidable 50/50 first, the
exact end game where it can (on a small board from the first guess, its answers kept
by position in a memo, `new_position_memo`), else scores its candidates
(`minestats.players.candidates`) by their outlook (`minestats.players.scoring`).
"""

from __future__ import annotations

import math

import numba
import numpy as np

from minestats.foundations.compiled import compiled
from minestats.foundations.policies import POLICY_TABLE
from minestats.frontier.variations import variation_basis
from minestats.players.candidates import (
    dominating,
    in_large_space,
    isolated_move,
    off_frontier_in_reach,
    rank_candidates,
    two_steps_out,
)
from minestats.players.endgame import (
    LISTING_BUDGET,
    SEARCH_BUDGET,
    SMALL_BOARD_LAYOUTS,
    SMALL_BOARD_LISTING_BUDGET,
    SMALL_BOARD_SEARCH_BUDGET,
    endgame_cells,
)
from minestats.players.fifty_fifty import fifty_fifty_outlook, tile_influence, unavoidable_pair
from minestats.players.picks import pick, safest_cell, safest_of, unknown_neighbours
from minestats.players.scoring import Position, looked_ahead, outlook

__all__ = ["BEST", "ENDGAME", "FIFTY_FIFTY", "FRONTIER", "MEMO_POSITIONS", "OFF_FRONTIER",
           "PSEUDO", "SAFEST", "choose", "new_position_memo"]

SAFEST, BEST = POLICY_TABLE["safest"].code, POLICY_TABLE["best"].code
"""Policy codes the chooser switches on (`minestats.foundations.policies.Policy.code`)."""
FRONTIER, OFF_FRONTIER, FIFTY_FIFTY, ENDGAME, PSEUDO = 0, 1, 2, 3, 4
"""Kinds of guess: a frontier cell, a cell off the frontier, one cell of an unavoidable
50/50, a cell the exact end game chose, and a pseudo-50/50
(`minestats.players.fifty_fifty`)."""
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
def _best(numbers, table, revealed, flagged, width, mines, probability, log_solutions,
          settings, relocation, memo):
    """Return ``best``'s guess and its kind, the unavoidable 50/50s left to `choose`.

    The exact end game where it answers (on a board of at most
    ``settings.small_board_cells`` cells from the first guess, remembered in
    ``memo``; elsewhere once at most ``settings.endgame_layouts`` layouts fit), or on
    a region solved apart (`isolated_move`); a pseudo-50/50 with
    ``settings.pseudo_first``; else the candidates (`rank_candidates`), each scored
    by its `outlook` times its 50/50 factor, a dead one dropped while a live one
    remains, and picked by score, progress, safety and fewest unknown neighbours
    (`pick`), rescored two steps on with ``settings.look_ahead`` (`looked_ahead`) and
    replaced by a safer dominating one with ``settings.dominance`` (`dominating`).
    """
    fast_budget, endgame_layouts = settings.fast_budget, settings.endgame_layouts
    max_candidates, off_frontier_cells = settings.max_candidates, settings.off_frontier_cells
    candidate_share = settings.candidate_share
    progress_weight = settings.progress_weight
    if revealed.size <= min(settings.small_board_cells, 32):  # `_position_key`'s limit
        cells = _small_board_endgame(numbers, table, revealed, flagged, width, mines,
                                     relocation, memo)
        if cells.size:
            return safest_of(cells, probability), ENDGAME
    elif log_solutions <= math.log(endgame_layouts) + 1e-9:
        cells, _, layouts = endgame_cells(numbers, table, revealed, flagged, width, mines,
                                          endgame_layouts, LISTING_BUDGET, SEARCH_BUDGET,
                                          relocation)
        if layouts >= 0:
            return safest_of(cells, probability), ENDGAME
    if settings.isolated_cells > 0 and not relocation.size:
        cells, found = isolated_move(numbers, table, revealed, flagged, width,
                                     settings.isolated_cells, endgame_layouts)
        if found:
            return safest_of(cells, probability), ENDGAME
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
                keys[1, i] = -unknown_neighbours(cells[i], table, revealed, flagged)
            return pick(cells, keys), PSEUDO
    else:
        influence = np.zeros(revealed.size)
        enablers = influence
    safety = np.empty(unknown.size)
    crowd = np.empty(unknown.size, dtype=np.int64)
    frontier = np.zeros(unknown.size, dtype=np.bool_)
    for i in range(unknown.size):
        cell = unknown[i]
        safety[i] = 1.0 - probability[cell]
        crowd[i] = unknown_neighbours(cell, table, revealed, flagged)
        for t in range(table.shape[1]):
            j = table[cell, t]
            if j < 0:
                break
            if revealed[j] and numbers[j] > 0:
                frontier[i] = True
    two_step = two_steps_out(unknown, frontier, numbers, table, revealed, flagged, width)
    if not off_frontier_in_reach(safety, frontier, settings.off_frontier_share):
        off_frontier_cells = 0
    ranks, first = rank_candidates(safety, crowd, frontier,
                                   fifty_fifty_weight * influence[unknown], candidate_share,
                                   max_candidates, off_frontier_cells, two_step,
                                   settings.two_step_cells)
    if settings.small_space > 0 and ranks.size > 1:
        large = np.empty(ranks.size, dtype=np.bool_)
        for i in range(ranks.size):
            large[i] = in_large_space(unknown[ranks[i]], table, revealed, settings.small_space)
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
    position = Position(numbers, table, revealed, flagged, width, mines)
    bar = -np.inf  # the best score of a living candidate so far; none pruned with dominance
    for i in range(count):
        rank = ranks[i]
        share = influence[unknown[rank]]
        if fifty_fifty_weight > 0 and settings.long_term_risk:
            share = tile_influence(unknown[rank], basis, revealed, flagged, width, probability,
                                   log_solutions, fast_budget, enablers, 3)
        factor[i] = 1 + fifty_fifty_weight * share / safety[rank]
        survive[i], progress[i], dead, pruned = outlook(
            position, chosen[i], log_solutions, settings, relocation, basis, always_safe[i],
            safety[rank], factor[i], progress_weight, bar)
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
        keys[0, :] = looked_ahead(position, chosen[picked], keys[0], factor[picked],
                                  log_solutions, settings, relocation, basis)
    cell = pick(chosen[picked], keys)
    if settings.dominance:
        cell = dominating(cell, chosen[picked], keys[0], probability, always_safe[picked])
    for i in range(count):
        if chosen[i] == cell:
            return cell, FRONTIER if frontier[ranks[i]] else OFF_FRONTIER
    return cell, FRONTIER


@compiled
def choose(numbers, table, revealed, flagged, width, mines, probability, log_solutions,
           policy, settings, relocation, memo):
    """Return the guess a policy makes at a stall, as ``(cell, kind)``.

    ``policy`` is `SAFEST` (`safest_cell`) or `BEST`: an unavoidable 50/50 first when
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
        cell = safest_cell(table, revealed, flagged, probability)
        kind = FRONTIER
    elif a >= 0 and settings.fifty_fifty_first:
        # Alike under every rule but Windows XP's, which may weigh one half more.
        pair = np.array([a, b])
        cell, kind = pick(pair, -probability[pair].reshape(1, 2)), FIFTY_FIFTY
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
