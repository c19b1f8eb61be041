from fractions import Fraction

import numpy as np
import pytest

from minestats.foundations.board import BEGINNER, CLASSIC_BEGINNER, EXPERT, INTERMEDIATE, Board
from minestats.mechanics.opening_probabilities import (
    opening_probability,
    opening_probability_map,
    winxp_offset,
)
from minestats.mechanics.rules import RULES, max_mines
from tests.oracles.rules_reference import opening_probability_by_enumeration

TINY_SHAPES = [(1, 1), (1, 2), (2, 1), (1, 5), (5, 1), (2, 2), (3, 2), (2, 3), (3, 3), (4, 3),
               (3, 4), (2, 5)]


def feasible(board, click, rule):
    return board.mines <= max_mines(board, click, rule)


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("shape", TINY_SHAPES)
def test_closed_form_equals_enumeration_for_every_click_and_mine_count(shape, rule):
    width, height = shape
    checked = 0
    for mines in range(width * height + 1):
        board = Board(width, height, mines)
        for cell in range(board.cells):
            click = (cell % width, cell // width)
            if not feasible(board, click, rule):
                with pytest.raises(ValueError, match=f"mines \\({mines}\\) must be at most"):
                    opening_probability(board, click, rule=rule)
                continue
            expected = opening_probability_by_enumeration(board, cell, rule)
            assert opening_probability(board, click, rule=rule) == expected, (board, click)
            checked += 1
    assert checked > 0


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize(("shape", "mines"), [((4, 4), 3), ((4, 4), 6), ((5, 3), 5), ((6, 2), 4)])
def test_closed_form_equals_enumeration_on_larger_tiny_boards(shape, mines, rule):
    board = Board(*shape, mines)
    for cell in range(board.cells):
        click = (cell % board.width, cell // board.width)
        assert opening_probability(board, click, rule=rule) == (
            opening_probability_by_enumeration(board, cell, rule))


@pytest.mark.parametrize(
    ("board", "uniform", "safe_click"),
    [(BEGINNER, 0.2855, 0.3257), (INTERMEDIATE, 0.2110, 0.2501), (EXPERT, 0.1226, 0.1545)],
)
def test_published_centre_values(board, uniform, safe_click):
    assert round(float(opening_probability(board, "centre", rule="uniform")), 4) == uniform
    assert round(float(opening_probability(board, "centre", rule="safe-click")), 4) == safe_click


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize(
    "board",
    [BEGINNER, INTERMEDIATE, EXPERT, CLASSIC_BEGINNER, Board(1, 7, 3), Board(2, 2, 1),
     Board(2, 3, 1), Board(50, 40, 400), Board(30, 16, 200)],
    ids=str,
)
def test_float_map_agrees_with_fractions(board, rule):
    if not all(board.mines <= max_mines(board, (x, y), rule)
               for y in range(board.height) for x in range(board.width)):
        with pytest.raises(ValueError, match="must be at most"):
            opening_probability_map(board, rule=rule)
        return
    grid = opening_probability_map(board, rule=rule)
    assert grid.shape == board.shape
    for y in range(board.height):
        for x in range(board.width):
            exact = opening_probability(board, (x, y), rule=rule)
            assert abs(grid[y, x] - float(exact)) <= 1e-12
            assert grid[y, x] == pytest.approx(float(exact), rel=1e-12, abs=0)


def test_winxp_equals_uniform_next_to_the_top_left_and_helps_elsewhere():
    # A click whose first neighbour is cell 0 (or cell 1, for cell 0 itself) has j = 0:
    # a mine moved off it always lands in its own neighbourhood.
    for click in [(0, 0), (1, 0), (0, 1), (1, 1)]:
        assert winxp_offset(EXPERT, click) == 0
        assert opening_probability(EXPERT, click, rule="winxp") == opening_probability(
            EXPERT, click, rule="uniform")
    # Elsewhere a mine under the click usually moves out of the way.
    for click in [(2, 0), (0, 2), (15, 8), (29, 15)]:
        assert opening_probability(EXPERT, click, rule="winxp") > opening_probability(
            EXPERT, click, rule="uniform")


def test_winxp_offset_counts_cells_before_the_first_neighbour():
    board = Board(5, 4, 3)
    # (0, 0): first neighbour (1, 0) is index 1, and the click itself is skipped.
    assert winxp_offset(board, (0, 0)) == 0
    # (3, 0): first neighbour (2, 0) is index 2; cells 0 and 1 come before it.
    assert winxp_offset(board, (3, 0)) == 2
    # (0, 2): first neighbour (0, 1) is index 5.
    assert winxp_offset(board, (0, 2)) == 5
    with pytest.raises(ValueError, match="has no neighbours"):
        winxp_offset(Board(1, 1, 0), (0, 0))


def test_no_mines_always_open_and_results_are_fractions():
    board = Board(6, 6, 0)
    for rule in RULES:
        assert opening_probability(board, (2, 3), rule=rule) == 1
        assert isinstance(opening_probability(EXPERT, (2, 3), rule=rule), Fraction)
        assert np.all(opening_probability_map(board, rule=rule) == 1)


@pytest.mark.parametrize(
    ("board", "rule", "match"),
    [
        (Board(3, 3, 1), "safe-opening", r"mines \(1\) must be at most 0"),
        (Board(4, 4, 16), "winxp", r"mines \(16\) must be at most 15"),
        (EXPERT, "xp", "rule 'xp' is not one of"),
    ],
)
def test_map_refuses_impossible_rules(board, rule, match):
    with pytest.raises(ValueError, match=match):
        opening_probability_map(board, rule=rule)
