"""Move values by rollouts, and best's own move, against exact optimal play on small boards."""

import numpy as np
import pytest

from minestats.foundations.board import resolve_board
from minestats.inference import mine_probabilities
from minestats.mechanics.game import neighbour_counts, neighbour_table, reveal
from minestats.players.optimal import LayoutSolver, _enumerate, _numbers
from minestats.players.values import best_move, move_values, stall_before_guess


def _position(board, layout, clicks):
    """The numbers grid (-1 unknown) after opening ``clicks`` ``(x, y)`` on ``layout``."""
    grid = layout.reshape(board.height, board.width)
    revealed = np.zeros_like(grid)
    for click in clicks:
        revealed |= reveal(grid, click)
    return np.where(revealed, neighbour_counts(grid), -1), revealed.ravel()


def _exact_values(board, numbers, revealed, cells):
    """Each cell's exact optimal winning chance if opened now (plain-Python recursion)."""
    layouts = _enumerate(range(board.cells), board.cells, board.mines)
    table = _numbers(board, layouts)
    shown = numbers.ravel()[revealed]
    fits = np.flatnonzero((table[:, revealed] == shown).all(axis=1))
    solver = LayoutSolver(table)
    return [solver.open(fits, table[fits, cell]) / fits.size for cell in cells]


@pytest.mark.parametrize(("board_name", "seed"), [("4x4/3", 1), ("4x4/3", 2), ("5x4/4", 3),
                                                  ("5x4/4", 4)])
def test_values_equal_exact_optimal_play_where_best_plays_the_exact_end_game(board_name, seed):
    # On boards of at most 20 cells `best` plays the exact end game from its first
    # guess, so each rollout's continuation is optimal and each value an unbiased
    # estimate of the exact one.
    board = resolve_board(board_name)
    rng = np.random.default_rng(seed)
    while True:
        layout = np.zeros(board.cells, dtype=bool)
        layout[rng.choice(board.cells, board.mines, replace=False)] = True
        safe = np.flatnonzero(~layout)
        y, x = divmod(int(rng.choice(safe)), board.width)
        numbers, revealed = _position(board, layout, [(x, y)])
        unknown = np.flatnonzero(~revealed)
        if unknown.size > board.cells - 2:
            continue
        exact = np.array(_exact_values(board, numbers, revealed, unknown))
        if ((exact > 0) & (exact < 1)).sum() >= 2:  # a position with a choice to make
            break
    cells = [(int(c % board.width), int(c // board.width)) for c in unknown]
    n = 3000
    values = move_values(numbers, mines=board.mines, candidates=cells, n=n, seed=seed)
    estimate = values.win_rate
    certain = (exact == 0) | (exact == 1)
    assert (estimate[certain] == exact[certain]).all()
    spread = np.sqrt(exact * (1 - exact) / n)
    z = (estimate[~certain] - exact[~certain]) / spread[~certain]
    # Bonferroni over the at most 60 uncertain values of the four positions.
    assert np.abs(z).max() < 4.0, (exact, estimate)
    assert values.best in [cells[k] for k in np.flatnonzero(exact >= exact.max() - 0.05)]


def test_a_run_is_repeated_by_its_seed_and_pairs_its_candidates():
    text = "0111\n????\n????\n????"
    first = move_values(text, mines=3, n=200, seed="values")
    again = move_values(text, mines=3, n=200, seed="values")
    assert first == again and first.seed == "values"
    assert first.won.shape == (200, len(first.cells))
    table = first.per_move()
    assert table["wins"].tolist() == first.won.sum(axis=0).tolist()
    top = table["win_rate"].idxmax()
    assert table.loc[top, "difference"] == 0
    assert (table["difference_low"] <= table["difference"]).all()
    assert (table["difference"] <= table["difference_high"]).all()
    assert repr(first).startswith(f"MoveValues best {first.best} ")
    assert "n=200" in repr(first) and "seed=values" in repr(first)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"candidates": [(9, 0)]}, r"candidate \(\(9, 0\)\) must be a cell \(x, y\) of the 4x4"),
    ({"candidates": [(0, 0)]}, r"candidate \(\(0, 0\)\) must be an unknown, unflagged cell"),
    ({"candidates": [(0, 1), (0, 1)]}, r"candidate \(\(0, 1\)\) is named twice"),
    ({"candidates": []}, "candidates must name at least one cell"),
    ({"mines": -1}, r"mines \(-1\) must be a non-negative integer"),
    ({"mines": 17}, r"mines \(17\) must be at most the board's 16 cells"),
    ({"mines": 0}, "no layout fits the position"),
    ({"n": 0}, "n"),
    ({"continuation": "optimal"}, "optimal"),
])
def test_bad_input_is_one_clear_line(kwargs, message):
    arguments = {"mines": 3, "n": 10, "seed": 1, **kwargs}
    with pytest.raises(ValueError, match=message):
        move_values("0111\n????\n????\n????", **arguments)


# best_move -----------------------------------------------------------------------------
def _small_positions(board_name, seeds):
    """Positions after a safe first click on small boards, with something left to open."""
    board = resolve_board(board_name)
    for seed in seeds:
        rng = np.random.default_rng([50, seed])
        layout = np.zeros(board.cells, dtype=bool)
        layout[rng.choice(board.cells, board.mines, replace=False)] = True
        y, x = divmod(int(rng.choice(np.flatnonzero(~layout))), board.width)
        numbers, revealed = _position(board, layout, [(x, y)])
        if (~revealed & ~layout).any():
            yield board, numbers, revealed


@pytest.mark.parametrize("board_name", ["4x4/3", "5x4/4"])
def test_best_move_is_an_optimal_move_where_best_plays_the_exact_end_game(board_name):
    # On at most 20 cells `best` guesses by the exact end game, and a proven safe cell
    # loses nothing: its move's exact winning chance is the position's best.
    checked = guessed = 0
    for board, numbers, revealed in _small_positions(board_name, range(12)):
        move = best_move(numbers, mines=board.mines, seed=1)
        unknown = np.flatnonzero(~revealed)
        exact = _exact_values(board, numbers, revealed, unknown)
        chosen = exact[list(unknown).index(move.x + move.y * board.width)]
        assert chosen == pytest.approx(max(exact), abs=1e-12), (numbers, move)
        expected = mine_probabilities(numbers, mines=board.mines).probability[move.y, move.x]
        assert move.mine_probability == pytest.approx(expected, abs=1e-12)
        assert (move.kind == "safe") == (expected == 0)
        checked += 1
        guessed += move.kind != "safe"
    assert checked >= 8 and guessed >= 2


def test_best_move_weighs_by_windows_xp_when_asked():
    # 9x9/10 games stalled after their first click (perfect logic, `stall_before_guess`)
    # with the corner (0, 0), the first cell XP moves a mine to, still hidden: best's
    # cell carries XP's probability (the exact engine's), not that of layouts alike.
    rng = np.random.default_rng(5)
    board = resolve_board("9x9/10")
    table = neighbour_table(board.width, board.height)
    checked = differ = 0
    for _ in range(30):
        layout = np.zeros(board.cells, dtype=bool)
        layout[rng.choice(board.cells, board.mines, replace=False)] = True
        click = int(rng.choice(np.flatnonzero(~layout & (np.arange(board.cells) > 20))))
        numbers = neighbour_counts(layout.reshape(board.shape)).ravel().astype(np.int8)
        revealed, flagged = stall_before_guess(layout, numbers, table, board.width, click,
                                               np.empty(0, dtype=np.int64), 0)
        if revealed[0] or (revealed | layout).all():
            continue
        shown = np.where(revealed, numbers, -1).reshape(board.shape)
        flags = flagged.reshape(board.shape)
        xy = (click % board.width, click // board.width)
        move = best_move(shown, flags=flags, mines=board.mines, rule="winxp", click=xy, seed=2)
        xp = mine_probabilities(shown, flags=flags, mines=board.mines, rule="winxp",
                                click=xy).probability
        alike = mine_probabilities(shown, flags=flags, mines=board.mines).probability
        assert move.kind != "safe"
        assert move.mine_probability == pytest.approx(xp[move.y, move.x], abs=1e-9)
        checked += 1
        differ += abs(xp[move.y, move.x] - alike[move.y, move.x]) > 1e-6
    assert checked >= 10 and differ >= 5


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"rule": "winxp"}, r"click \(None\) must be the first click \(x, y\) of the 4x4"),
    ({"rule": "winxp", "click": (4, 0)}, r"click \(\(4, 0\)\) must be the first click"),
    ({"rule": "xp"}, "xp"),
    ({"mines": 0}, "no layout fits the position"),
])
def test_best_move_refuses_bad_input_in_one_line(kwargs, message):
    with pytest.raises(ValueError, match=message):
        best_move("0111\n????\n????\n????", **{"mines": 3, **kwargs})
