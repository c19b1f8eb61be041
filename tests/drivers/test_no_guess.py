import itertools
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace

import numpy as np
import pytest
from scipy.stats import binomtest, chisquare

from minestats.drivers.no_guess import (
    generate_no_guess,
    generate_no_guess_batch,
    solvable_layouts,
)
from minestats.foundations.board import Board
from minestats.foundations.seeds import resolve_seed
from minestats.mechanics.rules import placement_cells
from minestats.mechanics.sampling import chunk_layouts
from minestats.runs.chunks import chunk_seeds
from minestats.solvers import solve
from minestats.stats import holm_reject
from tests.oracles.forced_play import solve_with_forced_cells
from tests.oracles.reference import plain_single_point

RULE_CELLS = {"safe-opening": lambda board, click: board.closed_neighbourhood(click),
              "safe-click": lambda board, click: [board.index(click)],
              "winxp": lambda board, click: [board.index(click)],
              "uniform": lambda board, click: [board.index(click)]}  # a no-guess board


def assert_layout(mines, board, click, rule="safe-opening"):
    """The board is a layout of the rule: its size, its mine count, its protected cells free."""
    assert mines.shape == board.shape and mines.dtype == np.bool_
    assert int(mines.sum()) == board.mines
    assert not mines.ravel()[RULE_CELLS[rule](board, click)].any()
    assert not mines.flags.writeable


def assert_plain_single_point_passes(mines, click):
    """An independent check: the plain-Python single-point method opens every safe cell."""
    opened, flags = plain_single_point(mines.tolist(), click)
    assert len(opened) == mines.size - int(mines.sum())
    assert all(mines[y, x] for x, y in flags)


@pytest.mark.parametrize("method", ["retry", "perturb"])
@pytest.mark.parametrize("rule, click", [("safe-opening", (2, 2)), ("safe-click", (0, 0)),
                                         ("winxp", (3, 1)), ("uniform", (5, 4))])
def test_tiny_boards_pass_the_exhaustive_reference(method, rule, click):
    board = Board(6, 5, 8)  # 30 cells: small enough to enumerate every placement
    for seed in range(8):
        result = generate_no_guess(board, click, method=method, rule=rule, seed=seed)
        assert result.ok and result.round_perturbations[-1] == 0
        assert_layout(result.layout, board, click, rule)
        assert solve(result.layout, click, solver="exhaustive").solved


@pytest.mark.parametrize("method", ["retry", "perturb"])
def test_single_point_boards_pass_a_plain_python_solver(method):
    board, click = Board(16, 16, 40), (8, 8)
    for seed in range(4):
        result = generate_no_guess(board, click, method=method, solver="single-point",
                                   seed=seed)
        assert result.ok
        assert_layout(result.layout, board, click)
        assert_plain_single_point_passes(result.layout, click)


def check_perturb_dense(mines, count, solver):
    board, click = Board(30, 16, mines), (15, 8)
    batch = generate_no_guess_batch(board, click, n=count, method="perturb", solver=solver,
                                    seed=mines, chunk_size=1, workers=1, timeout=None)
    assert batch.successes == count
    for layout in batch.layouts:
        assert_layout(layout, board, click)
        if solver == "single-point":  # independent: a plain-Python re-implementation
            assert_plain_single_point_passes(layout, click)
        else:  # independent: perfect logic played through the consistency engine
            revealed, _ = solve_with_forced_cells(layout, click, use_mine_count=True)
            assert (revealed | layout).all()
    assert (batch.perturbations > 0).all()  # retry could not have made these


def test_perturb_reaches_130_and_170_mines_on_expert_size():
    check_perturb_dense(130, 3, "logic")
    check_perturb_dense(130, 3, "single-point")
    check_perturb_dense(170, 2, "logic")


@pytest.mark.slow
@pytest.mark.parametrize("solver", ["logic", "single-point"])
def test_perturb_reaches_170_mines_on_expert_size(solver):
    check_perturb_dense(170, 20, solver)


def test_perturb_round_history_ends_with_the_verifying_solve():
    result = generate_no_guess("30x16/130", "centre", method="perturb", seed=4)
    assert result.ok and result.tries == 1
    assert result.round_perturbations[-1] == 0 and all(result.round_perturbations[:-1])
    assert len(result.round_perturbations) == result.rounds
    assert sum(result.round_perturbations) == result.perturbations


def test_same_seed_same_board():
    for method in ("retry", "perturb"):
        first, second = (generate_no_guess("30x16/110", "centre", method=method, seed=9)
                         for _ in range(2))
        assert first.ok and np.array_equal(first.layout, second.layout)
        assert (first.tries, first.perturbations) == (second.tries, second.perturbations)
    other = generate_no_guess("30x16/110", "centre", method="perturb", seed=10)
    assert not np.array_equal(first.layout, other.layout)


def test_daily_board_is_pinned():
    # Regression pin of cross-machine stability: the date string goes through SHA-256
    # and numpy's SeedSequence/PCG64, all specified bit for bit, so every machine must
    # produce exactly this Beginner board for "2026-11-29".
    sequence, label = resolve_seed("2026-11-29")
    assert label == "2026-11-29"
    assert sequence.entropy == int(
        "86009cc361823fe705c2609f1be27298d949f513fba96aa7114f7b9b79eeffca", 16)
    result = generate_no_guess("9x9/10", "centre", seed="2026-11-29")
    assert result.ok and result.seed == "2026-11-29"
    cells = [(int(x), int(y)) for y, x in np.argwhere(result.layout)]
    assert sorted(cells) == sorted([(2, 0), (4, 0), (5, 0), (4, 2), (0, 3), (2, 4), (3, 6),
                                    (0, 7), (2, 8), (7, 8)])
    assert_layout(result.layout, Board(9, 9, 10), (4, 4))


def test_batch_is_the_same_on_any_number_of_workers_and_repeats_single_calls():
    kwargs = {"n": 6, "method": "perturb", "seed": "2026-11-29", "chunk_size": 4,
              "timeout": None}
    serial = generate_no_guess_batch("30x16/120", "centre", **kwargs, workers=1)
    pooled = generate_no_guess_batch("30x16/120", "centre", **kwargs, workers=2)
    with ThreadPoolExecutor(max_workers=2) as executor:
        handed_in = generate_no_guess_batch("30x16/120", "centre", **kwargs,
                                            workers=executor.map)
    assert serial.successes == 6
    for batch in (pooled, handed_in):
        assert np.array_equal(serial.layouts, batch.layouts)
        assert np.array_equal(serial.perturbations, batch.perturbations)
    entropy = resolve_seed("2026-11-29")[0].entropy
    alone = generate_no_guess("30x16/120", "centre", method="perturb", timeout=None,
                              seed=np.random.SeedSequence(entropy, spawn_key=(1, 1)))
    assert np.array_equal(alone.layout, serial.layouts[5])
    assert serial.board_seeds()[5] == "2026-11-29/1/1"
    assert list(serial.per_board()["seed"]) == serial.board_seeds()


def test_try_limit_gives_failure_not_a_board():
    result = generate_no_guess("30x16/170", "centre", seed=0, max_tries=1)
    assert (result.ok, result.layout, result.tries, result.rounds) == (False, None, 1, 1)
    stuck = generate_no_guess("30x16/170", "centre", method="perturb", seed=0, max_tries=1,
                              patience=1)
    assert (stuck.ok, stuck.layout, stuck.tries) == (False, None, 1)
    assert stuck.to_dict()["mine_cells"] == ""


class _SolveClock:
    """A clock that moves only when the generator solves: ``step`` seconds a solve."""

    def __init__(self, step):
        self.now, self.step = 0.0, step
        self.solves_after_deadline = 0
        self.deadline = None

    def __call__(self):
        return self.now

    def solved(self):
        if self.deadline is not None and self.now >= self.deadline:
            self.solves_after_deadline += 1
        self.now += self.step


@pytest.mark.parametrize("method, board", [("retry", "30x16/170"), ("perturb", "30x16/300")])
def test_timeout_stops_the_loop_at_the_first_check_past_the_deadline(monkeypatch, method,
                                                                      board):
    # The work, not the wall clock: the generator's clock moves 0.1 s a solve, so a
    # 0.35 s time-out allows exactly 4 solves, and none may start after the deadline.
    from minestats.drivers import no_guess

    clock = _SolveClock(0.1)
    original = no_guess._solve

    def counted_solve(config, layout):
        clock.solved()
        return original(config, layout)

    monkeypatch.setattr(no_guess, "time", SimpleNamespace(perf_counter=clock))
    monkeypatch.setattr(no_guess, "_solve", counted_solve)
    clock.deadline = 0.35
    result = generate_no_guess(board, "centre", method=method, seed=1, max_tries=10**9,
                               timeout=0.35)
    assert clock.solves_after_deadline == 0
    assert clock.now == pytest.approx(0.4) and result.seconds == pytest.approx(0.4)
    assert (result.ok, result.layout) == (False, None)
    if method == "retry":  # one solve a try
        assert result.tries == result.rounds == 4
    else:  # a try stops mid-perturbation at the deadline, and no new try starts
        assert result.rounds == 4 and result.tries >= 1


@pytest.mark.parametrize("options, message", [
    ({"method": "guess"}, "method 'guess'"),
    ({"solver": "oracle"}, "solver 'oracle'"),
    ({"rule": "safe"}, "rule 'safe'"),
    ({"max_tries": 0}, "max_tries (0)"),
    ({"timeout": -1.0}, "timeout (-1.0)"),
    ({"timeout": float("inf")}, "timeout (inf)"),
    ({"patience": 1.5}, "patience (1.5)"),
    ({"seed": ""}, "seed ('')"),
    ({"seed": -3}, "seed (-3)"),
    ({"use_mine_count": "yes"}, "use_mine_count ('yes')"),
])
def test_bad_input_names_the_value(options, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        generate_no_guess("9x9/10", "centre", **options)
    with pytest.raises(ValueError, match=r"n \(0\)"):
        generate_no_guess_batch("9x9/10", "centre", n=0)


def every_solvable_layout(board, click, rule):
    """Every layout of the rule that the logic solver passes, as tuples of mined cells."""
    layouts = []
    for cells in itertools.combinations(placement_cells(board, click, rule), board.mines):
        layout = np.zeros(board.cells, dtype=bool)
        layout[list(cells)] = True
        if solve(layout.reshape(board.shape), click).solved:
            layouts.append(cells)
    return layouts


def check_retry_uniform(per_layout):
    # 4x4/5, corner click, safe-opening: 210 of the 792 placements are solvable, so
    # conditioning on solvability is strong; retry must be uniform over those 210.
    board, click = Board(4, 4, 5), (0, 0)
    solvable = {cells: index for index, cells in
                enumerate(every_solvable_layout(board, click, "safe-opening"))}
    assert len(solvable) == 210
    n = per_layout * len(solvable)
    batch = generate_no_guess_batch(board, click, n=n, seed=2024, chunk_size=500, workers=1)
    assert batch.successes == n
    counts = np.zeros(len(solvable), dtype=int)
    for layout in batch.layouts:
        counts[solvable[tuple(np.flatnonzero(layout.ravel()))]] += 1  # KeyError if unsolvable
    assert chisquare(counts).pvalue > 1e-3
    p_values = [binomtest(int(c), n, 1 / len(solvable)).pvalue for c in counts]
    assert not holm_reject(p_values, alpha=0.01).any()
    assert batch.tries.mean() > 792 / 210 * 0.8  # rejection did happen, about 3.8 per board


def test_retry_is_uniform_over_solvable_layouts():
    check_retry_uniform(10)


@pytest.mark.slow
def test_retry_is_uniform_over_solvable_layouts_many_boards():
    check_retry_uniform(100)


def test_solvable_layouts_takes_the_first_count_boards():
    # Chunks of 20 draws on 16x16/50 (about half solvable): the first 15 solvable boards
    # span chunks; they and the draws used do not depend on how many chunks run at once,
    # and they are the first 15 of every solvable board in whole chunks.
    board, seed = Board(16, 16, 50), np.random.SeedSequence(5)
    common = {"rule": "safe-opening", "solver": "logic", "seed": seed, "chunk_size": 20,
              "workers": map}
    layouts, used = solvable_layouts(board, "centre", count=15, **common)
    again, used_again = solvable_layouts(board, "centre", count=15, round_chunks=3, **common)
    assert len(layouts) == 15 and used == used_again and (layouts == again).all()
    whole = -(-used // 20) * 20
    every, drawn = solvable_layouts(board, "centre", draws=whole, **common)
    assert drawn == whole and (every[:15] == layouts).all()
    # the 15th solvable board is draw number `used`: one fewer draw holds only 14,
    # counted here by solving every rule board of those chunks one by one
    drawn_boards = np.concatenate([chunk_layouts(board, 20, chunk_seed, rule="safe-opening",
                                                 click="centre")
                                   for chunk_seed in chunk_seeds(seed, whole // 20)])
    passed = [solve(layout, "centre").solved for layout in drawn_boards]
    assert int(np.flatnonzero(passed)[14]) + 1 == used
    assert (drawn_boards[np.flatnonzero(passed)[:15]] == layouts).all()


def test_solvable_layouts_are_uniform_over_the_solvable_layouts():
    # The reference the generators are measured against: on 4x4/5 (corner, safe-opening)
    # its boards are uniform over the 210 solvable placements found by enumeration.
    board, click = Board(4, 4, 5), (0, 0)
    solvable = {cells: index for index, cells in
                enumerate(every_solvable_layout(board, click, "safe-opening"))}
    layouts, drawn = solvable_layouts(board, click, seed=2026, draws=8_000, chunk_size=1_000,
                                      workers=1)
    counts = np.zeros(len(solvable), dtype=int)
    for layout in layouts:
        counts[solvable[tuple(np.flatnonzero(layout.ravel()))]] += 1  # KeyError if unsolvable
    assert drawn == 8_000 and binomtest(len(layouts), 8_000, 210 / 792).pvalue > 1e-3
    assert chisquare(counts).pvalue > 1e-3


def test_solvable_layouts_refuses_what_it_cannot_do():
    with pytest.raises(ValueError, match="give one of draws and count"):
        solvable_layouts("9x9/10", "centre", seed=1)
    with pytest.raises(ValueError, match="give one of draws and count"):
        solvable_layouts("9x9/10", "centre", seed=1, draws=10, count=2)
    # At 170 mines on Expert the solver passes almost no board (none of 10,000 in
    # no_guess_generation): the search stops at max_draws.
    with pytest.raises(RuntimeError, match=r"passed 0 of 40 safe-opening boards of "
                                           r"30x16/170, fewer than count \(1\) within "
                                           r"max_draws \(40\)"):
        solvable_layouts("30x16/170", "centre", seed=1, count=1, chunk_size=20, max_draws=40,
                         workers=1)
