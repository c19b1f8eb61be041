"""Exact optimal play, checked against a plain-Python brute force and hand values.

The brute force below shares no code with minestats.players.optimal: it recurses on the
set of revealed (cell, number) pairs, recomputes the consistent layouts from
scratch in every state by checking every layout against what is revealed, tries
every hidden cell (no shortcut for safe cells, no bounds, no symmetry) and sums
Fractions.
"""

import random
from fractions import Fraction
from itertools import combinations
from math import comb

import numpy as np
import pytest

from minestats.foundations.board import Board
from minestats.mechanics.rules import RULES
from minestats.players.optimal import MAX_LAYOUTS, layout_distribution, optimal_win_probability

# ---------------------------------------------------------------- brute force


def brute_neighbours(width, height):
    """Neighbours (the cell itself excluded) of every cell, by linear index."""
    result = []
    for i in range(width * height):
        x, y = i % width, i // width
        result.append([
            (x + dx) + (y + dy) * width
            for dy in (-1, 0, 1) for dx in (-1, 0, 1)
            if (dx or dy) and 0 <= x + dx < width and 0 <= y + dy < height
        ])
    return result


def brute_distribution(width, height, mines, rule, click):
    """{frozenset of mined cells: number of equally likely placements giving it}."""
    n = width * height
    around = {click, *brute_neighbours(width, height)[click]}
    weights = {}
    for chosen in combinations(range(n), mines):
        placed = set(chosen)
        if rule == "safe-click" and click in placed:
            continue
        if rule == "safe-opening" and placed & around:
            continue
        if rule == "winxp" and click in placed:
            free = [i for i in range(n) if i not in placed and i != click]
            if not free:  # nowhere to move the mine: the rule cannot place them all
                continue
            placed = (placed - {click}) | {free[0]}
        key = frozenset(placed)
        weights[key] = weights.get(key, 0) + 1
    return weights


class BruteGame:
    """Optimal play by exhaustive recursion on what has been revealed."""

    def __init__(self, width, height, weights):
        self.n = width * height
        self.neighbours = brute_neighbours(width, height)
        self.layouts = []
        for placed, weight in weights.items():
            numbers = [sum(j in placed for j in self.neighbours[i]) for i in range(self.n)]
            # every (cell, number) this layout can ever show
            visible = frozenset((i, numbers[i]) for i in range(self.n) if i not in placed)
            self.layouts.append((placed, numbers, weight, visible))
        self.memo = {}

    def shown(self, layout, cell):
        """The (cell, number) pairs that opening a safe ``cell`` reveals, flood fill included."""
        numbers = layout[1]
        seen, todo = {cell}, [cell]
        while todo:
            i = todo.pop()
            if numbers[i] == 0:
                for j in self.neighbours[i]:
                    if j not in seen:
                        seen.add(j)
                        todo.append(j)
        return frozenset((i, numbers[i]) for i in seen)

    def consistent(self, revealed):
        return [layout for layout in self.layouts if revealed <= layout[3]]

    def click_value(self, revealed, cell, here=None):
        here = self.consistent(revealed) if here is None else here
        total = sum(layout[2] for layout in here)
        outcomes = {}
        for layout in here:
            if cell not in layout[0]:  # a mine loses: it adds nothing
                outcome = self.shown(layout, cell)
                outcomes[outcome] = outcomes.get(outcome, 0) + layout[2]
        return sum(Fraction(weight, total) * self.value(revealed | outcome)
                   for outcome, weight in outcomes.items())

    def value(self, revealed):
        if revealed not in self.memo:
            here = self.consistent(revealed)
            if len(here) == 1:
                self.memo[revealed] = Fraction(1)
            else:
                opened = {i for i, _ in revealed}
                self.memo[revealed] = max(
                    self.click_value(revealed, cell, here) for cell in range(self.n)
                    if cell not in opened and not all(cell in layout[0] for layout in here)
                )
        return self.memo[revealed]


def brute_optimal(width, height, mines, rule, click=None):
    """Optimal win probability; None where the rule cannot place the mines."""
    n = width * height
    if click is not None:
        weights = brute_distribution(width, height, mines, rule, click)
        if not weights:
            return None
        return BruteGame(width, height, weights).click_value(frozenset(), click)
    if rule == "uniform":
        weights = brute_distribution(width, height, mines, rule, 0)
        return BruteGame(width, height, weights).value(frozenset())
    values = []
    for cell in range(n):
        weights = brute_distribution(width, height, mines, rule, cell)
        if weights:
            values.append(BruteGame(width, height, weights).click_value(frozenset(), cell))
    return max(values, default=None)


def ours(width, height, mines, rule, click=None):
    """optimal_win_probability, or None where it rejects the rule and mine count."""
    if click is not None:
        click = (click % width, click // width)
    try:
        return optimal_win_probability(Board(width, height, mines), rule=rule, click=click)
    except ValueError as error:
        assert "must be at most" in str(error)
        return None


def sizes(cells):
    return [(w, cells // w) for w in range(1, cells + 1) if cells % w == 0]


SMALL_SIZES = [size for cells in range(1, 10) for size in sizes(cells)]
LARGE_SIZES = [size for cells in range(10, 13) for size in sizes(cells)]

# ---------------------------------------------------------------- published value


def test_four_by_four_with_four_mines():
    assert optimal_win_probability("4x4/4") == Fraction(961, 1820)
    assert optimal_win_probability(Board(4, 4, 4), rule="uniform", click=None) == Fraction(
        961, 1820)


# ---------------------------------------------------------------- against the brute force


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize(("width", "height"), SMALL_SIZES)
def test_matches_brute_force_up_to_nine_cells(width, height, rule):
    for mines in range(width * height + 1):
        expected = brute_optimal(width, height, mines, rule)
        assert ours(width, height, mines, rule) == expected, (width, height, mines, rule)


def sample_cases(count, seed, sizes, clicks):
    cases = [(w, h, m, rule) for w, h in sizes for m in range(w * h) for rule in RULES
             if comb(w * h, m) <= 300]
    chosen = random.Random(seed).sample(cases, count)
    if not clicks:
        return chosen
    rng = random.Random(seed + 1)
    return [(*case, rng.randrange(case[0] * case[1])) for case in chosen]


@pytest.mark.parametrize(("width", "height", "mines", "rule"), sample_cases(12, 2024, LARGE_SIZES,
                                                                            clicks=False))
def test_matches_brute_force_sample_up_to_twelve_cells(width, height, mines, rule):
    assert ours(width, height, mines, rule) == brute_optimal(width, height, mines, rule)


@pytest.mark.parametrize(("width", "height", "mines", "rule", "click"),
                         sample_cases(40, 7, SMALL_SIZES, clicks=True)
                         + sample_cases(8, 11, LARGE_SIZES, clicks=True))
def test_matches_brute_force_with_a_click(width, height, mines, rule, click):
    expected = brute_optimal(width, height, mines, rule, click)
    assert ours(width, height, mines, rule, click) == expected


@pytest.mark.parametrize(("width", "height"), [(3, 3), (4, 2), (2, 5)])
def test_matches_brute_force_with_every_click(width, height):
    mines = 2
    for rule in RULES:
        for click in range(width * height):
            expected = brute_optimal(width, height, mines, rule, click)
            assert ours(width, height, mines, rule, click) == expected, (rule, click)


@pytest.mark.slow
@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize(("width", "height"), LARGE_SIZES)
def test_matches_brute_force_ten_to_twelve_cells(width, height, rule):
    for mines in range(width * height + 1):
        expected = brute_optimal(width, height, mines, rule)
        assert ours(width, height, mines, rule) == expected, (width, height, mines, rule)


# ---------------------------------------------------------------- sanity properties


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("board", ["3x3/0", "4x5/0", "beginner"])
def test_no_mines_always_wins(board, rule):
    board = Board.parse(board) if "/" in board else Board(9, 9, 0)
    assert optimal_win_probability(board, rule=rule) == 1
    assert optimal_win_probability(board, rule=rule, click="centre") == 1


@pytest.mark.parametrize("board", [Board(3, 3, 8), Board(4, 4, 15), Board(1, 6, 5)])
def test_safe_click_with_one_free_cell_always_wins(board):
    assert optimal_win_probability(board, rule="safe-click") == 1
    assert optimal_win_probability(board, rule="safe-click", click=(0, 0)) == 1
    assert optimal_win_probability(board, rule="winxp", click=(0, 0)) == 1


def test_every_cell_a_mine():
    # nothing to open: won before any click, lost on any click
    assert optimal_win_probability("3x2/6") == 1
    assert optimal_win_probability("3x2/6", click=(1, 1)) == 0


@pytest.mark.parametrize("n", [2, 3, 4, 5, 8, 11])
def test_strip_with_one_mine(n):
    # A safe end cell shows 0 and floods up to the number 1 beside the mine, or shows
    # 1 with the mine next to it: either way the mine is found. Only the first click
    # can lose, and it hits the mine with probability 1/n.
    for board in (Board(n, 1, 1), Board(1, n, 1)):
        assert optimal_win_probability(board) == Fraction(n - 1, n)
        assert optimal_win_probability(board, click="corner") == Fraction(n - 1, n)
        assert optimal_win_probability(board, rule="safe-click") == 1
        assert optimal_win_probability(board, rule="winxp", click="corner") == 1
    if n >= 4:
        # any cell: a 1 beside a cell 2 away, which is safe, settles which side
        for click in range(n):
            assert optimal_win_probability(Board(n, 1, 1), click=(click, 0)) == Fraction(
                n - 1, n)


def test_strip_of_three_clicked_in_the_middle():
    # The middle shows 1 with the mine at either end and nothing left to probe.
    board = Board(3, 1, 1)
    assert optimal_win_probability(board, click=(1, 0)) == Fraction(2, 3) * Fraction(1, 2)
    assert optimal_win_probability(board, rule="safe-click", click=(1, 0)) == Fraction(1, 2)
    # winxp moves a mine under the click to cell 0: the mine is there with weight 2 of 3
    assert optimal_win_probability(board, rule="winxp", click=(1, 0)) == Fraction(2, 3)
    assert optimal_win_probability(board, rule="winxp") == 1  # an end click settles it


@pytest.mark.parametrize("board", ["3x3/2", "4x3/3", "2x5/4", "4x4/3"])
def test_protected_click_is_never_worse(board):
    board = Board.parse(board)
    for index in range(board.cells):
        click = (index % board.width, index // board.width)
        uniform = optimal_win_probability(board, click=click)
        assert optimal_win_probability(board, rule="safe-click", click=click) >= uniform
        assert optimal_win_probability(board, rule="winxp", click=click) >= uniform
    assert optimal_win_probability(board, rule="safe-click") >= optimal_win_probability(board)


@pytest.mark.parametrize(("width", "height", "mines"),
                         [(3, 3, 2), (4, 3, 5), (2, 5, 7), (4, 4, 3)])
def test_winxp_weights(width, height, mines):
    board = Board(width, height, mines)
    for index in range(board.cells):
        click = (index % width, index // width)
        layouts, weights = layout_distribution(board, rule="winxp", click=click)
        assert int(weights.sum()) == comb(board.cells, mines)
        expected = brute_distribution(width, height, mines, "winxp", index)
        got = {frozenset(np.flatnonzero(layout.ravel()).tolist()): int(weight)
               for layout, weight in zip(layouts, weights, strict=True)}
        assert got == expected


@pytest.mark.parametrize("rule", RULES)
def test_layout_distribution_counts(rule):
    board = Board(4, 3, 3)
    for index in range(board.cells):
        click = (index % board.width, index // board.width)
        try:
            layouts, weights = layout_distribution(board, rule=rule, click=click)
        except ValueError:
            assert rule == "safe-opening"
            continue
        expected = brute_distribution(4, 3, 3, rule, index)
        assert len(layouts) == len(expected)
        assert int(weights.sum()) == sum(expected.values())


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize(("kwargs", "named"), [
    ({"board": "4x4/4", "rule": "bogus"}, "'bogus'"),
    ({"board": "4x4"}, "'4x4'"),
    ({"board": "0x3/1"}, "'0x3/1'"),
    ({"board": "3x3/10"}, "'3x3/10'"),
    ({"board": Board(3, 3, 3), "rule": None}, "None"),
    ({"board": 16}, "16"),
    ({"board": "4x4/4", "click": (4, 0)}, "(4, 0)"),
    ({"board": "4x4/4", "click": "nowhere"}, "'nowhere'"),
    ({"board": "4x4/4", "click": (1.5, 0)}, "(1.5, 0)"),
    ({"board": "3x3/9", "rule": "safe-click"}, "mines (9)"),
    ({"board": "3x3/2", "rule": "safe-opening", "click": (1, 1)}, "mines (2)"),
    ({"board": "5x5/10"}, "3268760"),
    ({"board": "expert"}, "30x16/99"),
])
def test_bad_input(kwargs, named):
    board = kwargs.pop("board")
    with pytest.raises(ValueError) as error:
        optimal_win_probability(board, **kwargs)
    message = str(error.value)
    assert named in message
    assert "\n" not in message


def test_layout_limit_is_documented():
    assert MAX_LAYOUTS >= comb(20, 10)
    with pytest.raises(ValueError, match=f"MAX_LAYOUTS = {MAX_LAYOUTS}"):
        optimal_win_probability("7x3/10")
    with pytest.raises(ValueError, match="needs a click"):
        layout_distribution("3x3/1", rule="winxp")
