"""The player: sound deductions, guesses by policy, reproducible games, win rates."""

import numpy as np
import pytest

from minestats.board import Board
from minestats.play import POLICIES, play, win_rate
from minestats.play.player import _position, _safest
from minestats.sampling import sample_mines
from minestats.solvers import SolverOptions, deduce, solve
from minestats.solvers.state import CheckedGame
from tests.test_probabilities import brute_force


def small_games(count, seed, rule="safe-click"):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        width, height = (int(v) for v in rng.integers(2, 6, size=2))
        mines = int(rng.integers(1, width * height // 3 + 2))
        board = Board(width, height, min(mines, width * height - 1))
        yield sample_mines(board, 1, rule=rule, click=(0, 0), seed=rng)[0]


@pytest.mark.parametrize("policy", POLICIES)
def test_guesses_are_never_proven_mines_and_only_guesses_lose(policy):
    outcomes = set()
    for k, layout in enumerate(small_games(150, 3)):
        result = play(layout, (0, 0), policy=policy, seed=k)
        assert result.won != result.lost
        assert all(0 <= move.mine_probability < 1 for move in result.moves)
        if result.lost:  # the last guess hit a mine, and it was a real risk
            last = result.moves[-1]
            assert layout[last.y, last.x] and last.mine_probability > 0
        else:
            assert result.opened == layout.size - layout.sum()
        outcomes.add(result.won)
    assert outcomes == {True, False}


def test_a_game_the_solver_finishes_needs_no_guess():
    for k, layout in enumerate(small_games(60, 5)):
        if solve(layout, (0, 0)).solved:
            result = play(layout, (0, 0), seed=k)
            assert result.won and result.guesses == 0


def test_games_reproduce_from_their_seed():
    layout = sample_mines("expert", 1, rule="safe-click", click=(0, 0), seed=11)[0]
    first = play(layout, "corner", policy="safest", seed=20261130)
    again = play(layout, "corner", policy="safest", seed=20261130)
    assert first.moves == again.moves and first.won == again.won
    assert first.seed == again.seed


def test_safest_takes_a_cell_of_least_mine_probability_by_brute_force():
    rng = np.random.default_rng(17)
    checked = 0
    for layout in small_games(300, 19):
        state = CheckedGame(layout, (0, 0))
        deduce(state, SolverOptions())
        if state.won or state.lost:
            continue
        shape = layout.shape
        numbers = np.where(state.revealed, state.numbers, -1).reshape(shape)
        flags = state.flagged.reshape(shape)
        if (~state.revealed & ~state.flagged).sum() > 12:
            continue
        _, exact = brute_force(numbers, numbers == -1, flags, int(layout.sum()))
        lowest = min(exact.values())
        cell = _safest(state, _position(state), rng)
        x, y = state.cell(cell)
        assert exact[(y, x)] == lowest
        checked += 1
    assert checked > 20


def test_a_forced_fifty_fifty_is_lost_half_the_time():
    split = np.array([[0, 0], [0, 0], [1, 0]], dtype=bool)  # (0, 2) or (1, 2): no clue
    wins = sum(play(split, (0, 0), policy=policy, seed=s).won
               for policy in POLICIES for s in range(200))
    assert 150 < wins < 250  # 400 fair coins: mean 200, sd 10


def test_win_rate_does_not_depend_on_workers_and_records_its_inputs():
    one = win_rate("5x5/4", policy="safest", n=60, seed=3, chunk_size=20, workers=1)
    two = win_rate("5x5/4", policy="safest", n=60, seed=3, chunk_size=20, workers=2)
    assert (one.successes, one.guesses) == (two.successes, two.guesses)
    row = one.to_dict()
    assert row["seed"] == 3 and row["n"] == 60 and row["rule"] == "safe-click"
    low, high = one.proportion_ci()
    assert row["ci_low"] == low and row["ci_high"] == high


def test_uniform_rule_games_can_be_lost_on_the_first_click():
    result = win_rate("3x3/4", rule="uniform", policy="safest", n=200, seed=1, workers=1)
    # The corner holds a mine with probability 4/9: 200 * 4/9 = 89, sd 7.
    assert 60 < result.lost_first_click < 118


@pytest.mark.parametrize(
    ("call", "message"),
    [(lambda: play(np.zeros((2, 2), bool), (0, 0), policy="lucky"),
      r"policy 'lucky' is not one of safest, best"),
     (lambda: play(np.zeros((2, 2), bool), (5, 0)), r"click"),
     (lambda: win_rate("beginner", n=0), r"n \(0\) must be a positive integer"),
     (lambda: win_rate("beginner", policy="x", n=5), r"policy 'x'"),
     (lambda: play(np.zeros((2, 2), bool), (0, 0), options="logic"), r"SolverOptions")],
)
def test_bad_input_is_a_one_line_value_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()
