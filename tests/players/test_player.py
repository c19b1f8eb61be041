"""The player: sound deductions, guesses by policy, reproducible games, win rates."""

import numpy as np
import pytest

from minestats import compare
from minestats.drivers.comparisons import compare_clicks
from minestats.drivers.win_rates import win_rate
from minestats.foundations.board import Board
from minestats.mechanics.sampling import sample_mines
from minestats.players import POLICIES, Strategy, kernel, play
from minestats.players.player import compile_player
from minestats.solvers import SolverOptions, deduce, solve
from minestats.solvers.state import CheckedGame
from tests.oracles import reference_player
from tests.oracles.probabilities import brute_force

REFERENCE = Strategy(endgame_layouts=750, max_candidates=6, candidate_share=0.9,
                     off_frontier_cells=2, blend=False, fifty_fifty_first=False,
                     progress_weight=0.0, fifty_fifty_weight=0.0, pseudo_first=False,
                     isolated_cells=0, look_ahead=0, living_next=False,
                     small_board_cells=0)
"""The strategy of the plain-Python reference player (``tests/oracles/reference_player.py``)."""


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


def test_the_small_board_memo_changes_no_game():
    """Games play the same whether the end game's answers come from a memo that
    earlier batches filled (batches of both rules interleaved, Windows XP's from two
    clicks on a 20-cell board) or each game searches alone from empty memos."""
    from minestats.players import player

    batches = []
    for width, spec, clicks in ((4, "4x4/4", (1, 1)), (5, "5x4/3", (1, 18))):
        for rule in ("safe-click", "winxp"):
            layouts = np.concatenate([
                sample_mines(spec, 30, rule=rule, click=(c % width, c // width), seed=c)
                for c in clicks])
            batches.append((layouts, [clicks[0]] * 30 + [clicks[1]] * 30, rule))
    seeds = np.random.SeedSequence(8).spawn(60)

    def alone(layouts, clicks, rule):
        outcomes = []
        for g in range(60):
            player._position_memos.clear()
            games = player.play_games(layouts[g:g + 1], clicks[g:g + 1], seeds=seeds[g:g + 1],
                                      rule=rule)
            outcomes.append((bool(games.won[0]), games.moves[0].tolist()))
        return outcomes

    def together(layouts, clicks, rule):
        games = player.play_games(layouts, clicks, seeds=seeds, rule=rule)
        return list(zip(games.won.tolist(), games.moves.tolist(), strict=True))

    expected = [alone(*batch) for batch in batches]
    player._position_memos.clear()
    for _ in range(2):
        for batch, outcomes in zip(batches, expected, strict=True):
            assert together(*batch) == outcomes
    assert sum(len(memo) for memo in player._position_memos.values()) > 0


def test_safest_takes_a_cell_of_least_mine_probability_by_brute_force():
    checked = 0
    for k, layout in enumerate(small_games(300, 19)):
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
        first = play(layout, (0, 0), policy="safest", seed=k).moves[0]
        assert exact[(first.y, first.x)] == min(exact.values())
        checked += 1
    assert checked > 20


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize(("board", "games"), [("small", 150), ("9x9/10", 150),
                                              ("16x16/40", 60), ("expert", 30)])
def test_the_compiled_player_moves_as_the_python_reference(policy, board, games):
    """Every guess of the compiled player is one the plain-Python player could make.

    Each compiled game is replayed by the reference, which lists at every stall the
    cells its policy holds tied (keys within 1e-9: a float tie may flip); the
    compiled guess must be one of them, so the two play the same game up to the
    seeded tie-breaks.
    """
    if board == "small":
        layouts = list(small_games(games, 23))
    else:
        layouts = sample_mines(board, games, rule="safe-click", click=(0, 0), seed=29)
    moves = 0
    for k, layout in enumerate(layouts):
        result = play(layout, (0, 0), policy=policy, seed=k, strategy=REFERENCE)
        cells = [move.x + move.y * layout.shape[1] for move in result.moves]
        ties = reference_player.policy_ties(layout, (0, 0), policy, cells)
        for guess, (cell, tied) in enumerate(zip(cells, ties, strict=True)):
            assert cell in tied, f"game {k}, guess {guess}: {cell} not in {sorted(tied)}"
        moves += len(cells)
    assert moves > games / 3


def test_the_reference_player_wins_the_games_the_compiled_one_wins_when_seeds_agree():
    # With no tie left to the generator the two players play the very same game.
    for k, layout in enumerate(small_games(80, 31)):
        compiled = play(layout, (0, 0), policy="best", seed=k, strategy=REFERENCE)
        cells = [move.x + move.y * layout.shape[1] for move in compiled.moves]
        ties = reference_player.policy_ties(layout, (0, 0), "best", cells)
        if all(len(tied) == 1 for tied in ties):
            reference = reference_player.play(layout, (0, 0), policy="best", seed=k)
            assert reference.moves == compiled.moves or [
                (m.x, m.y) for m in reference.moves] == [(m.x, m.y) for m in compiled.moves]
            assert reference.won == compiled.won


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


def test_the_warm_up_compiles_every_kernel_a_timed_chunk_plays():
    # Were any argument typed differently in a real chunk, numba would compile a second
    # signature there, on the clock of whatever that chunk played first.
    compile_player()
    compiled = kernel.play_chunk.signatures
    win_rate("6x5/5", rule="winxp", policy="best", n=4, seed=1, workers=1)
    compare("6x5/5", policies=["safest", "best"], rule="safe-opening", click=(2, 2), n=4,
            seed=1, workers=1)
    compare_clicks("6x5/5", arms=[("winxp", (0, 0)), ("safe-click", (1, 1))], n=4, seed=1,
                   workers=1)
    assert kernel.play_chunk.signatures == compiled

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
     (lambda: play(np.zeros((2, 2), bool), (0, 0), options="logic"), r"SolverOptions"),
     (lambda: play(np.zeros((2, 2), bool), (0, 0), options=SolverOptions("subset")),
      r"options.solver \('subset'\) must be 'logic'")],
)
def test_bad_input_is_a_one_line_value_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()
