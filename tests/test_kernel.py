"""The compiled game: batches, strategies, unavoidable 50/50s and the loss tally."""

import copy
from itertools import product

import numpy as np
import pytest

from minestats.board import Board
from minestats.game import neighbour_counts
from minestats.play import Strategy, play, play_games, win_rate
from minestats.play.kernel import _fifty_fifty
from minestats.sampling import sample_mines
from minestats.solvers import SolverOptions, deduce
from minestats.solvers.state import CheckedGame


def stall_positions(count, seed):
    """Stalls of small games, each as a CheckedGame copy, going on as if guesses were safe."""
    rng = np.random.default_rng(seed)
    found = []
    while len(found) < count:
        width, height = (int(v) for v in rng.integers(2, 6, size=2))
        board = Board(width, height, int(rng.integers(1, width * height // 3 + 2)))
        layout = sample_mines(board, 1, rule="safe-click", click=(0, 0), seed=rng)[0]
        state = CheckedGame(layout, (0, 0))
        while True:
            deduce(state, SolverOptions())
            if state.over:
                break
            found.append(copy.deepcopy(state))
            safe = np.flatnonzero(~state.revealed & ~state.mines & ~state.flagged)
            state.open_index(int(rng.choice(safe)))
    return found


def consistent_layouts(state):
    """Every layout of the unknown cells that fits what the player sees, by brute force."""
    unknown = np.flatnonzero(~state.revealed & ~state.flagged)
    height, width = state.board.shape
    fits = []
    for bits in product((False, True), repeat=unknown.size):
        layout = state.flagged.copy()
        layout[unknown] = bits
        if layout.sum() != state.board.mines:
            continue
        numbers = neighbour_counts(layout.reshape(height, width)).ravel()
        if (numbers[state.revealed] == state.numbers[state.revealed]).all():
            fits.append(layout)
    return fits


def test_a_detected_fifty_fifty_cannot_be_told_apart_by_anything():
    """Checked by brute force: one mine in the pair in every layout that fits, and
    swapping the two cells maps the layouts onto themselves with every other cell's
    number unchanged."""
    detected = 0
    for state in stall_positions(300, 5):
        if (~state.revealed & ~state.flagged).sum() > 14:
            continue
        a, b = _fifty_fifty(state.numbers, state.table, state.revealed, state.flagged)
        if a < 0:
            continue
        detected += 1
        layouts = consistent_layouts(state)
        height, width = state.board.shape
        seen = {layout.tobytes() for layout in layouts}
        for layout in layouts:
            assert layout[a] != layout[b]
            swapped = layout.copy()
            swapped[[a, b]] = layout[[b, a]]
            assert swapped.tobytes() in seen
            before = neighbour_counts(layout.reshape(height, width)).ravel()
            after = neighbour_counts(swapped.reshape(height, width)).ravel()
            others = ~layout & ~swapped
            assert (before[others] == after[others]).all()
    assert detected >= 10


def test_the_classic_wall_fifty_fifty_is_found_and_played_as_one():
    split = np.array([[0, 0], [0, 0], [1, 0]], dtype=bool)
    state = CheckedGame(split, (0, 0))
    deduce(state, SolverOptions())
    assert sorted(_fifty_fifty(state.numbers, state.table, state.revealed,
                               state.flagged)) == [4, 5]
    result = play(split, (0, 0), seed=3, strategy=Strategy(fifty_fifty_first=True))
    assert [move.kind for move in result.moves] == ["fifty-fifty"]
    assert result.moves[0].mine_probability == 0.5


def test_a_batch_plays_each_game_as_play_does():
    layouts = sample_mines("16x16/40", 30, rule="safe-click", click=(0, 0), seed=8)
    seeds = np.random.SeedSequence(8).spawn(30)
    strategy = Strategy(blend=True, fifty_fifty_first=True)
    games = play_games(layouts, np.zeros(30, dtype=int), seeds=seeds, strategy=strategy)
    for k, (layout, seed) in enumerate(zip(layouts, seeds, strict=True)):
        one = play(layout, (0, 0), seed=seed, strategy=strategy)
        cells = [move.x + move.y * 16 for move in one.moves]
        assert one.won == games.won[k] and one.guesses == games.guesses[k]
        assert cells == games.moves[k, :one.guesses].tolist()
        assert one.opened == games.opened[k]


def test_the_loss_tally_counts_every_game_lost_at_a_guess_once():
    result = win_rate("16x16/40", n=300, seed=4, workers=1)
    assert result.losses.sum() == result.n - result.successes - result.lost_first_click
    table = result.loss_table()
    assert table["losses"].sum() == result.losses.sum()
    assert set(table["kind"]) == {"frontier", "off-frontier", "fifty-fifty", "endgame"}


def test_strategies_are_named_by_what_differs_and_recorded():
    assert Strategy().label() == "best"
    label = Strategy(off_frontier_cells=0).label()
    assert label == "best (off_frontier_cells=0)"
    assert win_rate("6x6/5", n=20, seed=1, workers=1,
                    strategy=Strategy(off_frontier_cells=0)).to_dict()["strategy"] == label


@pytest.mark.parametrize(("options", "message"), [
    ({"endgame_layouts": -1}, r"endgame_layouts \(-1\) must be an integer from 0 to 100000"),
    ({"max_candidates": 2.5}, r"max_candidates \(2.5\)"),
    ({"candidate_share": 0}, r"candidate_share \(0\) must be a number in \(0, 1\]"),
    ({"blend": "yes"}, r"blend \('yes'\) must be True or False"),
])
def test_a_bad_strategy_is_a_one_line_value_error(options, message):
    with pytest.raises(ValueError, match=message):
        Strategy(**options)


def test_a_strategy_must_be_a_strategy():
    with pytest.raises(ValueError, match=r"strategy \('best'\) must be a Strategy"):
        play(np.zeros((2, 2), bool), (0, 0), strategy="best")


def test_past_the_float_budget_the_exact_engine_answers_and_the_game_is_the_same():
    """With a float budget of 1, every position ``best`` imagines for a candidate is
    answered by the exact big-integer engine (through numba.objmode): the same games,
    up to float ties."""
    from minestats.game import neighbour_table
    from minestats.play import kernel

    layouts = sample_mines("9x9/10", 60, rule="safe-click", click=(0, 0), seed=12)
    flat = layouts.reshape(60, -1)
    numbers = neighbour_counts(layouts).reshape(60, -1).astype(np.int8)
    seeds = np.arange(60, dtype=np.int64)
    normal = Strategy(endgame_layouts=0).settings()  # no end game: candidates everywhere
    tiny = normal.copy()
    tiny[kernel.FAST_BUDGET] = 1
    float_run, exact_run = (
        kernel.play_chunk(flat, numbers, neighbour_table(9, 9), 9, 10,
                          np.zeros(60, dtype=np.int64), kernel.BEST, True, 200_000, settings,
                          seeds)
        for settings in (normal, tiny))
    outcomes, guesses, _, _, moves, chances, _ = float_run
    assert (exact_run[0] != kernel.BUG).all() and guesses.sum() > 30
    same = (exact_run[1] == guesses) & (exact_run[4] == moves).all(axis=1)
    assert same.mean() > 0.9  # only float ties may differ
    assert np.allclose(exact_run[5][same], chances[same], equal_nan=True)
