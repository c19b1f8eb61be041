import numpy as np
import pytest
from scipy import stats

from minestats.foundations.board import EXPERT, Board
from minestats.mechanics.rules import RULES
from minestats.mechanics.sampling import (
    count_openings,
    count_openings_all_clicks,
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


def openings_by_plain_python(board, layouts, rule):
    """Per-click opening counts from the given uniform draws, click by click."""
    counts = np.zeros(board.cells, dtype=int)
    for layout in layouts:
        mined = set(np.flatnonzero(layout).tolist())
        for click in range(board.cells):
            mines = xp_relocate(board, mined, click) if rule == "winxp" else mined
            counts[click] += not (mines & neighbourhood(board, click))
    return counts.reshape(board.shape)


@pytest.mark.parametrize("rule", ["uniform", "winxp"])
@pytest.mark.parametrize("board", [Board(5, 4, 6), Board(1, 6, 2), Board(3, 3, 8)], ids=str)
def test_all_clicks_kernel_matches_plain_python_on_the_same_draws(board, rule):
    # With every cell allowed, sample_mines(uniform) makes the very draws the
    # all-clicks kernel makes from the same seed.
    draws = sample_mines(board, 400, rule="uniform", click=(0, 0), seed=8).reshape(400, -1)
    expected = openings_by_plain_python(board, draws, rule)
    assert (count_openings_all_clicks(board, 400, rule=rule, seed=8) == expected).all()


@pytest.mark.parametrize("board", [Board(5, 4, 6), Board(6, 1, 2), Board(3, 3, 8)], ids=str)
def test_all_clicks_safe_click_maps_one_slot_draw_onto_each_click(board):
    # The kernel draws mines over N - 1 slots; for click c the slots fill the other
    # cells in order. Rebuild those layouts here and count openings click by click.
    slots = Board(board.cells - 1, 1, board.mines)
    draws = sample_mines(slots, 400, rule="uniform", click=(0, 0), seed=9).reshape(400, -1)
    expected = np.zeros(board.cells, dtype=int)
    for draw in draws:
        for click in range(board.cells):
            layout = np.insert(draw, click, False)
            mines = set(np.flatnonzero(layout).tolist())
            expected[click] += not (mines & neighbourhood(board, click))
    counts = count_openings_all_clicks(board, 400, rule="safe-click", seed=9)
    assert (counts.ravel() == expected).all()


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
