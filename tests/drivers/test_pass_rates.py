import math
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from statsmodels.stats.proportion import proportion_confint

from minestats.drivers.pass_rates import pass_rate, pass_rate_sweep
from minestats.foundations.board import BEGINNER, Board
from minestats.mechanics.sampling import sample_mines
from minestats.solvers import solve

# The published single-point figures: 2,000 boards each, centre click, safe-opening.
PUBLISHED_SINGLE_POINT = {"beginner": 0.637, "intermediate": 0.241, "expert": 0.001}
PUBLISHED_N = 2_000


def test_pass_rate_counts_the_boards_of_its_chunks_one_by_one():
    board, seed = Board(8, 7, 9), 5
    result = pass_rate(board, solver="subset", rule="safe-click", click=(2, 3), n=300,
                       seed=seed, chunk_size=120, workers=1)
    solved = capped = 0
    for index, size in enumerate([120, 120, 60]):
        rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(index,)))
        for layout in sample_mines(board, size, rule="safe-click", click=(2, 3), seed=rng):
            outcome = solve(layout, (2, 3), solver="subset")
            solved += outcome.solved
            capped += outcome.capped
    assert (result.successes, result.capped, result.trials) == (solved, capped, 300)
    assert result.seed == 5 and result.seconds_per_game > 0


def test_uniform_rule_can_lose_the_first_click():
    board = Board(5, 5, 12)
    result = pass_rate(board, solver="single-point", rule="uniform", n=400, seed=2,
                       workers=1)
    # P(first click on a mine) = 12/25; the Wilson interval of the lost share holds it.
    assert 0.40 < result.lost_first_click / result.n < 0.56
    # The same 400 layouts (one chunk, seed 2's child 0), counted here one by one.
    layouts = sample_mines(board, 400, rule="uniform", click="centre",
                           seed=np.random.SeedSequence(2, spawn_key=(0,)))
    assert result.lost_first_click == int(layouts[:, 2, 2].sum())
    assert result.successes == sum(solve(layout, "centre", solver="single-point").solved
                                   for layout in layouts)


def test_same_seed_same_numbers_on_any_number_of_workers():
    kwargs = {"solver": "logic", "n": 600, "seed": 11, "chunk_size": 150}
    serial = pass_rate(BEGINNER, **kwargs, workers=1)
    pooled = pass_rate(BEGINNER, **kwargs, workers=2)
    with ThreadPoolExecutor(max_workers=2) as executor:
        handed_in = pass_rate(BEGINNER, **kwargs, workers=executor.map)
    assert serial.successes == pooled.successes == handed_in.successes
    assert serial.capped == pooled.capped == handed_in.capped


def test_sweep_rows_repeat_as_single_runs():
    grid = [{"board": "9x9/10", "solver": "single-point"},
            {"board": "8x8/10", "solver": "logic", "rule": "safe-click", "click": "corner"}]
    table = pass_rate_sweep(grid, n=300, seed=9, workers=1)
    assert table["seed"].tolist() == ["9/0", "9/1"]
    for index, row in enumerate(grid):
        alone = pass_rate(**row, n=300, seed=np.random.SeedSequence(9, spawn_key=(index,)),
                          workers=1)
        assert table.loc[index, "successes"] == alone.successes
        low, high = proportion_confint(alone.successes, 300, alpha=0.05, method="wilson")
        assert table.loc[index, ["ci_low", "ci_high"]].tolist() == pytest.approx([low, high])


@pytest.mark.parametrize("level", ["beginner", "intermediate", "expert"])
def test_single_point_agrees_with_the_published_figures(level):
    result = pass_rate(level, solver="single-point", n=20_000, seed=42, workers=1)
    published = PUBLISHED_SINGLE_POINT[level]
    # Two-sample comparison with the published 2,000 boards, pooled variance.
    pooled = (result.successes + published * PUBLISHED_N) / (result.n + PUBLISHED_N)
    spread = math.sqrt(pooled * (1 - pooled) * (1 / result.n + 1 / PUBLISHED_N))
    assert abs(result.proportion - published) < 3 * spread, (result.proportion, published)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"solver": "smart"}, "solver 'smart' is not one of"),
        ({"n": 0}, r"n \(0\) must be a positive integer"),
        ({"rule": "safe-opening", "board": "3x3/2"}, r"mines \(2\) must be at most 0"),
        ({"click": (9, 0)}, r"click \(9, 0\) is off"),
        ({"use_mine_count": "yes"}, r"use_mine_count \('yes'\) must be True or False"),
        ({"max_configurations": 0}, r"max_configurations \(0\) must be a positive integer"),
    ],
)
def test_input_validation(kwargs, match):
    arguments = {"board": "9x9/10", "solver": "logic", "n": 10, "seed": 0} | kwargs
    with pytest.raises(ValueError, match=match):
        pass_rate(arguments.pop("board"), **arguments)


@pytest.mark.parametrize("row, match", [
    ({"board": "9x9/10", "solver": "logic", "solvr": "x"}, r"unknown keys \['solvr'\]"),
    ({"board": "beginner"}, r"lacks solver: each row takes board, solver, and optionally"),
    ("beginner", r"grid row 'beginner' is not a dict"),
])
def test_sweep_rejects_bad_rows(row, match):
    with pytest.raises(ValueError, match=match):
        pass_rate_sweep([row], n=5)
