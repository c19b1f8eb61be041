"""The compiled game: deductions between guesses, and a game played to its end.

`play_chunk` plays a chunk of games, each from its layout and first click, and
returns per game its outcome and its guesses; Python is entered once per chunk
(and, through `numba.objmode`, for the rare position whose float search passes its
budget: the exact big-integer engine, `minestats.inference.mine_probabilities`,
answers it, as in the player's reference). `play_on` plays a game on from any
position, the state a rollout continues from; with it, this module gives what a
caller needs to play on (the policy codes, `choose` and `new_position_memo`, from
`minestats.players.chooser`).

Each stall is analysed once (`minestats.frontier.engine.analyse_position`): the proven
cells are opened and flagged until none is left, and the same pass gives the mine
probabilities the policy reads (`minestats.players.weighing` where the rule weighs
the layouts or the float search passes its budget). The guess is then
`minestats.players.chooser.choose`'s. The policies are those of
`minestats.players.player`; ``tests/oracles/reference_player.py`` holds them in plain
Python, and ``tests/players/test_player.py`` checks that both make the same moves on seeded
games.

Tie-breaks draw from numba's generator, seeded per game by the game's seed, so a
game depends only on its layout, its click and its seed.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from minestats.foundations.compiled import compiled
from minestats.frontier.engine import FITS, OVER_BUDGET, analyse_frontier, frontier_groups
from minestats.mechanics.game import _flood
from minestats.mechanics.rules import winxp_order
from minestats.players.chooser import BEST, SAFEST, choose, new_position_memo
from minestats.players.weighing import weigh_position

__all__ = ["BEST", "BUG", "LOST", "SAFEST", "WON", "Chunk", "choose", "new_position_memo",
           "play_chunk", "play_on"]

WON, LOST, BUG = 0, 1, 2
"""Outcome codes; `BUG` is a deduction the layout contradicts (a solver bug)."""


class Chunk(NamedTuple):
    """The games of a chunk, played by `play_chunk`: one entry, or one row, per game.

    ``outcomes`` (`WON`, `LOST` or `BUG`), ``guesses``, ``capped`` (a deduction
    passed its budget at some stall) and ``opened`` (the safe cells open at the end),
    shape ``(games,)``; ``moves`` (int64: the guessed cells in order, -1 after the
    last), ``chances`` (their mine probabilities when guessed, NaN after) and
    ``kinds`` (int8: the kinds of `minestats.players.chooser`, -1 after), shape
    ``(games, cells)``.
    """

    outcomes: np.ndarray
    guesses: np.ndarray
    capped: np.ndarray
    opened: np.ndarray
    moves: np.ndarray
    chances: np.ndarray
    kinds: np.ndarray


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
            log_solutions = weigh_position(numbers, table, revealed, flagged, width, mines,
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
        `minestats.players.chooser.SAFEST` or `minestats.players.chooser.BEST`.
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
        the probabilities and the end game weigh them by it (`weigh_position`).
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
