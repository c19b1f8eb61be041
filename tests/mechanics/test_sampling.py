from itertools import combinations

import numpy as np
import pytest
from scipy import stats

from minestats.foundations.board import EXPERT, Board
from minestats.foundations.validation import resolve_rule
from minestats.mechanics import sampling
from minestats.mechanics.opening_probabilities import opening_probability_map
from minestats.mechanics.rules import RULES
from minestats.mechanics.sampling import (
    count_openings,
    count_openings_all_clicks,
    draw_map_subsets,
    relocate_mines,
    sample_mines,
)
from minestats.stats import holm_reject
from tests.oracles.rules_reference import layout_distribution, neighbourhood, xp_relocate

DISTRIBUTION_CASES = [
    (Board(3, 3, 2), (0, 0)), (Board(3, 3, 2), (1, 1)), (Board(3, 3, 2), (2, 1)),
    (Board(4, 2, 3), (0, 1)), (Board(4, 2, 3), (2, 0)), (Board(2, 4, 1), (1, 3)),
]


def as_sets(layouts):
    return [frozenset(np.flatnonzero(layout.ravel()).tolist()) for layout in layouts]


def chi_square_p_value(samples, distribution):
    keys = list(distribution)
    observed = np.array([sum(1 for s in samples if s == key) for key in keys])
    expected = np.array([float(distribution[key]) for key in keys]) * len(samples)
    return stats.chisquare(observed, expected).pvalue


def test_layouts_follow_each_rules_exact_distribution():
    p_values = []
    for index, (board, click) in enumerate(DISTRIBUTION_CASES):
        for rule in RULES:
            cell = board.index(click)
            if rule == "safe-opening" and board.mines > board.cells - len(
                    neighbourhood(board, cell)):
                continue
            layouts = sample_mines(board, 20_000, rule=rule, click=click, seed=index)
            samples = as_sets(layouts)
            distribution = layout_distribution(board, cell, rule)
            # Support is exact: no layout the rule cannot produce, ever.
            assert set(samples) <= set(distribution), (board, click, rule)
            p_values.append(chi_square_p_value(samples, distribution))
    assert len(p_values) >= 20
    assert not holm_reject(p_values, alpha=0.01).any(), p_values


def test_chi_square_check_has_power_against_a_wrong_rule():
    board, click = Board(3, 3, 2), (2, 1)
    samples = as_sets(sample_mines(board, 20_000, rule="winxp", click=click, seed=5))
    wrong = layout_distribution(board, board.index(click), "uniform")
    assert chi_square_p_value(samples, wrong) < 1e-6


def test_relocated_uniform_layouts_follow_each_rules_exact_distribution():
    p_values = []
    for index, (board, click) in enumerate(DISTRIBUTION_CASES):
        cell = board.index(click)
        uniform = sample_mines(board, 20_000, rule="uniform", click=click, seed=index)
        for rule in RULES:
            if rule == "safe-opening" and board.mines > board.cells - len(
                    neighbourhood(board, cell)):
                continue
            moved = relocate_mines(board, uniform, click, rule=rule, seed=100 + index)
            if rule == "winxp":  # the sampler's own draw, relocated alike
                winxp = sample_mines(board, 20_000, rule="winxp", click=click, seed=index)
                assert (moved == winxp).all()
            samples = as_sets(moved)
            distribution = layout_distribution(board, cell, rule)
            assert set(samples) <= set(distribution), (board, click, rule)
            p_values.append(chi_square_p_value(samples, distribution))
    assert len(p_values) >= 20
    assert not holm_reject(p_values, alpha=0.01).any(), p_values


def test_relocation_leaves_boards_the_rule_does_not_touch_alone():
    board, click = Board(7, 5, 12), (3, 2)
    uniform = sample_mines(board, 2_000, rule="uniform", click=click, seed=4)
    before = uniform.copy()
    cell, around = np.zeros((5, 7), bool), np.zeros((5, 7), bool)
    cell[2, 3], around[1:4, 2:5] = True, True
    for rule, kept_off in (("safe-click", cell), ("winxp", cell), ("safe-opening", around),
                           ("uniform", np.zeros((5, 7), bool))):
        touched = (uniform & kept_off).any(axis=(1, 2))
        moved = relocate_mines(board, uniform, click, rule=rule, seed=1)
        assert (moved.sum(axis=(1, 2)) == 12).all()
        assert (moved[~touched] == uniform[~touched]).all()
        assert (moved[touched] != uniform[touched]).any(axis=(1, 2)).all(), rule
        # every mine off the kept-off cells stays where it was
        assert (moved | ~(uniform & ~kept_off)).all()
        assert not (moved & kept_off).any()
    assert (uniform == before).all()
    with pytest.raises(ValueError, match="not \\(n, 5, 7\\)"):
        relocate_mines(board, uniform[0], click, rule="winxp")
    with pytest.raises(ValueError, match="12 mines"):
        relocate_mines(board, ~uniform, click, rule="winxp")


@pytest.mark.parametrize("rule", RULES)
def test_every_layout_holds_the_mines_the_rule_allows(rule):
    board, click = Board(7, 5, 12), (3, 0)
    layouts = sample_mines(board, 2_000, rule=rule, click=click, seed=11)
    assert layouts.shape == (2_000, 5, 7)
    assert (layouts.sum(axis=(1, 2)) == 12).all()
    if rule != "uniform":
        assert not layouts[:, 0, 3].any()
    if rule == "safe-opening":
        assert not layouts[:, 0:2, 2:5].any()


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("click", [(0, 0), (4, 2), (6, 4)])
def test_counting_kernel_sees_the_same_boards_as_the_sampler(rule, click):
    board = Board(7, 5, 9)
    layouts = sample_mines(board, 3_000, rule=rule, click=click, seed=3).reshape(3_000, -1)
    around = sorted(neighbourhood(board, board.index(click)))
    expected = int((~layouts[:, around].any(axis=1)).sum())
    assert count_openings(board, 3_000, rule=rule, click=click, seed=3) == expected


def openings_by_plain_python(board, draws, rule):
    """Per-click opening counts on the map's draws, click by click, from the definitions.

    ``draws`` are `draw_map_subsets` rows: subsets of the cells for ``uniform`` and
    ``winxp`` (relocated per click for ``winxp``), of N - 1 slots for ``safe-click``,
    which fill the cells other than the click in order.
    """
    counts = np.zeros(board.cells, dtype=int)
    for draw in draws:
        for click in range(board.cells):
            if rule == "safe-click":
                layout = np.insert(draw, click, False)
            else:
                layout = draw
            mines = set(np.flatnonzero(layout).tolist())
            if rule == "winxp":
                mines = xp_relocate(board, mines, click)
            counts[click] += not (mines & neighbourhood(board, click))
    return counts.reshape(board.shape)


MAP_BOARDS = [Board(5, 4, 6), Board(6, 1, 2), Board(1, 6, 2), Board(1, 1, 0),
              Board(4, 3, 0), Board(3, 3, 8), Board(2, 2, 3), Board(62, 2, 30),
              Board(63, 2, 30), Board(70, 3, 60), Board(65, 1, 64)]
"""Boards of one row, one column, one cell, no mine, as many mines as a rule allows
(``uniform`` is also tried full, below), the widest counted on masks and wider ones,
counted through the neighbour table."""


@pytest.mark.parametrize("rule", ["uniform", "safe-click", "winxp"])
@pytest.mark.parametrize("board", MAP_BOARDS, ids=str)
def test_all_clicks_kernel_matches_plain_python_on_its_own_draws(board, rule):
    slots = board.cells - (rule == "safe-click")
    if board.mines > slots:
        board = Board(board.width, board.height, slots)
    draws = draw_map_subsets(slots, board.mines, 300, seed=8)
    assert (draws.sum(axis=1) == board.mines).all()
    expected = openings_by_plain_python(board, draws, rule)
    assert (count_openings_all_clicks(board, 300, rule=rule, seed=8) == expected).all()


@pytest.mark.parametrize("board", [Board(3, 3, 9), Board(5, 1, 5), Board(63, 1, 63)], ids=str)
def test_all_clicks_uniform_on_a_full_board_never_opens(board):
    assert (count_openings_all_clicks(board, 50, rule="uniform", seed=2) == 0).all()
    assert draw_map_subsets(board.cells, board.cells, 50, seed=2).all()


@pytest.mark.parametrize("rule", ["uniform", "safe-click", "winxp"])
def test_all_clicks_kernel_matches_plain_python_on_expert(rule):
    # 150 boards: past a batch of boards and several blocks of uniform integers.
    draws = draw_map_subsets(EXPERT.cells - (rule == "safe-click"), 99, 150, seed=3)
    expected = openings_by_plain_python(EXPERT, draws, rule)
    assert (count_openings_all_clicks(EXPERT, 150, rule=rule, seed=3) == expected).all()


@pytest.mark.parametrize("rule", ["uniform", "safe-click", "winxp"])
def test_mask_and_table_kernels_count_alike_past_a_flush_of_the_counters(rule):
    board, n, mode = Board(6, 5, 7), 70_000, sampling._all_clicks_mode(resolve_rule(rule))
    on_masks = sampling._all_clicks_mask_kernel(np.random.default_rng(4), board.width,
                                                board.height, board.mines, mode, n)
    on_table = sampling._all_clicks_table_kernel(np.random.default_rng(4),
                                                 board.neighbour_table, board.mines, mode, n)
    assert n > sampling._PLANE_FLUSH
    assert (on_masks == on_table).all()


def test_map_draws_are_uniform_subsets():
    # Every 3-subset of 9 slots, each slot and each pair of slots equally often.
    slots, mines, n = 9, 3, 42_000
    draws = draw_map_subsets(slots, mines, n, seed=21)
    assert (draws.sum(axis=1) == mines).all()
    keys = draws.astype(np.int64) @ (1 << np.arange(slots))
    subsets = np.bincount(keys, minlength=1 << slots)[[
        sum(1 << i for i in chosen) for chosen in combinations(range(slots), mines)]]
    assert subsets.sum() == n
    cells = draws.sum(axis=0)
    pairs = np.array([(draws[:, i] & draws[:, j]).sum()
                      for i, j in combinations(range(slots), 2)])
    p_values = [stats.chisquare(subsets).pvalue, stats.chisquare(cells).pvalue,
                stats.chisquare(pairs).pvalue]
    # Expert's slot count, and a count past 2**16 (the other way of making integers).
    for slots, mines, n in ((479, 99, 4_000), (70_001, 40, 2_000)):
        draws = draw_map_subsets(slots, mines, n, seed=slots)
        assert (draws.sum(axis=1) == mines).all()
        tenths = np.add.reduceat(draws.sum(axis=0), np.linspace(0, slots, 11)[:-1].astype(int))
        p_values.append(stats.chisquare(tenths, np.diff(np.linspace(0, slots, 11).astype(int))
                                        * mines * n / slots).pvalue)
    assert not holm_reject(p_values, alpha=0.01).any(), p_values


def test_map_uniformity_check_has_power_against_a_biased_draw():
    draws = draw_map_subsets(9, 3, 42_000, seed=21)
    biased = draws.copy()
    moved = (biased[:, 0] & ~biased[:, 8]).nonzero()[0][:1000]
    biased[moved, 0], biased[moved, 8] = False, True
    assert stats.chisquare(biased.sum(axis=0)).pvalue < 1e-6


@pytest.mark.parametrize("rule", ["uniform", "safe-click", "winxp"])
@pytest.mark.parametrize("board", [Board(6, 5, 7), Board(64, 2, 40)], ids=str)
def test_all_clicks_counts_agree_with_the_closed_forms(board, rule):
    n = 40_000
    exact = opening_probability_map(board, rule=rule)
    counts = count_openings_all_clicks(board, n, rule=rule, seed=13)
    error = np.sqrt(np.maximum(exact * (1 - exact), 1 / n) / n)
    z = (counts / n - exact) / error
    assert np.abs(z).max() < 5, (np.abs(z).max(), np.unravel_index(np.abs(z).argmax(), z.shape))


def test_map_draw_input_validation():
    with pytest.raises(ValueError, match=r"mines \(5\) must be"):
        draw_map_subsets(4, 5, 1)
    with pytest.raises(ValueError, match=r"n \(-1\) must be"):
        draw_map_subsets(4, 2, -1)
    assert draw_map_subsets(0, 0, 2).shape == (2, 0)


def test_safe_opening_all_clicks_always_open():
    counts = count_openings_all_clicks(Board(6, 5, 8), 300, rule="safe-opening", seed=1)
    assert (counts == 300).all()


def test_same_seed_same_layouts_and_generators_accepted():
    first = sample_mines(EXPERT, 5, rule="winxp", click="centre", seed=123)
    second = sample_mines(EXPERT, 5, rule="winxp", click="centre",
                          seed=np.random.default_rng(123))
    assert (first == second).all()
    assert not (first == sample_mines(EXPERT, 5, rule="winxp", click="centre", seed=124)).all()


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"n": -1}, r"n \(-1\) must be a non-negative integer"),
        ({"n": 2.5}, r"n \(2.5\) must be a non-negative integer"),
        ({"rule": "classic"}, "rule 'classic' is not one of"),
        ({"click": (9, 9)}, r"click \(9, 9\) is off"),
        ({"seed": -1}, r"seed \(-1\) must be a non-negative integer"),
    ],
)
def test_sampler_input_validation(kwargs, match):
    arguments = {"n": 3, "rule": "uniform", "click": (0, 0), "seed": 0} | kwargs
    n = arguments.pop("n")
    with pytest.raises(ValueError, match=match):
        sample_mines(Board(9, 9, 10), n, **arguments)
