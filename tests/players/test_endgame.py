"""The exact end game: listed layouts against brute force, values against optimal play.

`consistent_layouts` is checked against a plain enumeration of every placement of
the remaining mines among the unknown cells, each kept if it reproduces every
revealed number. `endgame_move` is checked against `optimal_win_probability`
(itself checked against an independent brute force in test_optimal.py): after a
protected first click, the optimal value is the average over what the click shows
of the end-game value. And the ``best`` policy, which plays the end game exactly,
must win exactly the optimal share of all layouts of a small board.
"""

import os
import subprocess
import sys
import textwrap
from fractions import Fraction
from itertools import combinations, islice
from pathlib import Path

import numpy as np
import pytest

from minestats.foundations.board import resolve_board
from minestats.mechanics.game import neighbour_table
from minestats.players import Strategy, play_games
from minestats.players.endgame import _fingerprint, consistent_layouts, endgame_move
from minestats.players.optimal import layout_distribution, optimal_win_probability
from minestats.solvers.state import CheckedGame


def brute_layouts(numbers, table, revealed, flagged, mines):
    """Sorted tuples of mined unknown cells that reproduce every revealed number.

    Every placement of the mines left among the unknown cells, taken in blocks: a
    placement is kept if it mines no revealed cell and gives each revealed cell its
    number of mined neighbours (``table``'s row of the cell, less the cell itself).
    """
    unknown = [i for i in range(revealed.size) if not revealed[i] and not flagged[i]]
    left = mines - int(flagged.sum())
    shown = np.flatnonzero(revealed)
    neighbours = np.zeros((revealed.size, shown.size), dtype=np.int64)
    for column, i in enumerate(shown):
        for j in table[i]:
            if j >= 0 and j != i:
                neighbours[j, column] += 1
    placements = combinations(unknown, left) if 0 <= left <= len(unknown) else iter(())
    found = []
    while block := list(islice(placements, 50_000)):
        mined = np.repeat(flagged[None, :], len(block), axis=0)
        mined[np.arange(len(block))[:, None], np.array(block, dtype=np.int64).reshape(
            len(block), left)] = True
        keep = ~mined[:, revealed].any(axis=1) & (
            mined.astype(np.int64) @ neighbours == numbers[shown]).all(axis=1)
        found += [chosen for chosen, kept in zip(block, keep.tolist(), strict=True) if kept]
    return sorted(found)


def random_position(rng):
    """A random layout on a board of at most 5x5, with a random part revealed or flagged."""
    width, height = rng.integers(1, 6, size=2)
    cells = width * height
    mines = int(rng.integers(0, cells + 1))
    layout = np.zeros(cells, dtype=bool)
    layout[rng.choice(cells, mines, replace=False)] = True
    table = neighbour_table(int(width), int(height))
    numbers = np.array([layout[row[(row >= 0) & (row != i)]].sum()
                        for i, row in enumerate(table)], dtype=np.int8)
    revealed = ~layout & (rng.random(cells) < rng.random())
    flagged = layout & (rng.random(cells) < 0.3)
    return numbers, table, revealed, flagged, int(width), mines


def test_listed_layouts_equal_brute_force_on_random_small_positions():
    rng = np.random.default_rng(2026)
    checked = 0
    for _ in range(400):
        numbers, table, revealed, flagged, width, mines = random_position(rng)
        listed = consistent_layouts(numbers, table, revealed, flagged, width, mines,
                                    limit=10**6)
        unknown, layouts = listed
        got = sorted(tuple(int(c) for c in unknown[row]) for row in layouts)
        assert got == brute_layouts(numbers, table, revealed, flagged, mines)
        checked += len(got) > 1
    assert checked > 100  # most positions leave some doubt


def test_listing_gives_up_past_its_limit_or_budget():
    table = neighbour_table(5, 5)
    nothing = np.zeros(25, dtype=bool)
    numbers = np.zeros(25, dtype=np.int8)
    assert consistent_layouts(numbers, table, nothing, nothing, 5, 5, limit=53129) is None
    assert consistent_layouts(numbers, table, nothing, nothing, 5, 5, limit=53130) is not None
    revealed = nothing.copy()
    revealed[[0, 2, 4, 10, 12, 14, 20, 22, 24]] = True
    numbers[[0, 4, 20, 24]], numbers[[2, 10, 12, 14, 22]] = 1, 2
    assert consistent_layouts(numbers, table, revealed, nothing, 5, 8, budget=3) is None


@pytest.mark.parametrize("rule", ["safe-click", "winxp"])
@pytest.mark.parametrize("spec, click", [("4x3/3", (1, 0)), ("4x4/4", (0, 0)),
                                         ("5x3/4", (0, 0)), ("4x4/3", (1, 1))])
def test_end_game_values_add_up_to_optimal_play(spec, click, rule):
    """Under ``winxp`` the layouts are weighed by the rule (``layout_distribution``'s
    weights, which count the placements before relocation), and so must the end game."""
    board = resolve_board(spec)
    layouts, weights = layout_distribution(board, rule=rule, click=click)
    shown = {}
    for layout, weight in zip(layouts, weights.tolist(), strict=True):
        game = CheckedGame(layout, click)
        key = (game.revealed.tobytes(), game.numbers[game.revealed].tobytes())
        shown.setdefault(key, [game, 0])[1] += weight
    total = Fraction(0)
    for game, weight in shown.values():
        if game.won:
            total += weight
            continue
        move = endgame_move(game.numbers, game.table, game.revealed, game.flagged,
                            board.width, board.mines, limit=10**6,
                            rule=None if rule == "safe-click" else rule,
                            click=board.index(click))
        assert move.cells and (not game.mines[list(move.cells)].any()
                               or move.win_probability < 1)
        total += weight * move.win_probability
    assert total / int(weights.sum()) == optimal_win_probability(board, rule=rule,
                                                                 click=click)


def test_the_search_runs_from_numbas_cache_as_compiled_fresh(tmp_path):
    # The search recurses. A recursive compiled function called with arguments of
    # other types than its own recursive calls (a literal 0 for an int64) is compiled
    # twice, and numba's cache then loaded a copy that crashed the process, while
    # the first, freshly compiled, process played on. Two processes on one empty
    # cache: the second loads every kernel from it.
    script = textwrap.dedent("""
        import numpy as np
        from minestats.mechanics.game import neighbour_table
        from minestats.players.endgame import endgame_move
        numbers = np.zeros(16, dtype=np.int8)
        revealed = np.zeros(16, dtype=bool)
        revealed[[0, 1, 4, 5]] = True
        numbers[[0, 1, 4, 5]] = 0, 1, 1, 2
        move = endgame_move(numbers, neighbour_table(4, 4), revealed,
                            np.zeros(16, dtype=bool), 4, 4, limit=10**6)
        print(move.win_probability, sorted(move.cells))
    """)
    root = Path(__file__).resolve().parents[2]
    environment = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    answers = [subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                              env=environment, cwd=root, timeout=600)
               for _ in range(2)]
    assert [answer.returncode for answer in answers] == [0, 0], answers[-1].stderr[-300:]
    assert answers[0].stdout == answers[1].stdout and "/" in answers[0].stdout
    assert any(tmp_path.rglob("*.nbi"))  # the second process had a cache to load


def test_a_state_fingerprint_ignores_order_and_tells_sets_apart():
    """The search's memo keys states by `_fingerprint`: the same set in any order has
    one key, and 20,000 distinct random sets of 1 to 40 of 5,000 layouts have 20,000."""
    rng = np.random.default_rng(3)
    states = rng.choice(5_000, 40, replace=False).astype(np.int32)
    assert _fingerprint(states) == _fingerprint(rng.permutation(states))
    sets = {tuple(sorted(rng.choice(5_000, rng.integers(1, 41), replace=False).tolist()))
            for _ in range(20_000)}
    keys = {_fingerprint(np.array(chosen, dtype=np.int32)) for chosen in sets}
    assert len(keys) == len(sets)


def test_the_end_game_search_gives_up_past_its_budget():
    board = resolve_board("4x4/4")
    game = CheckedGame(layout_distribution(board, rule="safe-click", click=(0, 0))[0][5],
                       (0, 0))
    args = (game.numbers, game.table, game.revealed, game.flagged, 4, 4)
    assert endgame_move(*args, budget=1) is None
    assert endgame_move(*args) is not None


@pytest.mark.parametrize("rule", ["safe-click", "winxp"])
@pytest.mark.parametrize("spec, click", [
    ("4x3/3", (1, 0)), ("4x4/2", (0, 0)), ("5x3/4", (0, 0)),
    # Boards where more than 750 layouts fit the first click's number, so that before
    # ``small_board_cells`` the heuristic made the first guesses, and lost by it.
    ("4x4/4", (0, 0)), ("4x4/6", (0, 0)),
])
def test_best_wins_exactly_the_optimal_share_of_every_layout(spec, click, rule):
    """Once the first click is open, ``best`` plays every position of a board of at
    most 20 cells exactly (under ``winxp``, weighing the layouts by the rule, as its
    probabilities do): every layout played once, with the same tie-break seed."""
    board = resolve_board(spec)
    layouts, weights = layout_distribution(board, rule=rule, click=click)
    games = play_games(layouts, [board.index(click)] * len(layouts), policy="best",
                       seeds=[np.random.SeedSequence(0)] * len(layouts), rule=rule)
    won = int(weights[games.won].sum())
    assert Fraction(won, int(weights.sum())) == optimal_win_probability(board, rule=rule,
                                                                        click=click)


def test_without_the_small_board_search_best_falls_short_of_optimal():
    """The check above can fail: the heuristic alone, on 4x4/6, wins less than optimal."""
    board = resolve_board("4x4/6")
    layouts, _ = layout_distribution(board, rule="safe-click", click=(0, 0))
    games = play_games(layouts, [0] * len(layouts), policy="best",
                       seeds=[np.random.SeedSequence(0)] * len(layouts),
                       strategy=Strategy(small_board_cells=0))
    optimal = optimal_win_probability(board, rule="safe-click", click=(0, 0))
    assert Fraction(int(games.won.sum()), len(layouts)) < optimal - Fraction(1, 200)
