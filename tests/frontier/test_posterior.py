"""Layouts drawn from a position's posterior: every fitting layout alike, nothing else drawn."""

from collections import Counter
from itertools import combinations

import numpy as np
import pytest
from scipy import stats

from minestats.frontier.posterior import draw_layouts
from minestats.inference import mine_probabilities
from minestats.mechanics.game import neighbour_counts, neighbour_table, reveal
from tests.oracles.probabilities import random_position


def _flat(numbers, unknown, flags):
    """The flat arrays of the frontier engine for a position of `random_position`."""
    revealed = ~unknown.ravel()
    return (np.where(revealed, numbers.ravel(), 0).astype(np.int8), revealed,
            flags.ravel().copy())


def _fitting_layouts(numbers, revealed, flagged, width, mines):
    """Every layout that fits, by trying every way to place the mines left (plain Python)."""
    height = revealed.size // width
    open_cells = np.flatnonzero(~revealed & ~flagged).tolist()
    left = mines - int(flagged.sum())
    fitting = []
    for chosen in combinations(open_cells, left) if 0 <= left <= len(open_cells) else []:
        layout = flagged.copy()
        layout[list(chosen)] = True
        shown = neighbour_counts(layout.reshape(height, width)).ravel()
        if (shown[revealed] == numbers[revealed]).all():
            fitting.append(layout)
    return fitting


def test_every_fitting_layout_is_drawn_equally_often_on_small_positions():
    rng = np.random.default_rng(20261205)
    checked = 0
    while checked < 40:
        numbers, unknown, flags, mines = random_position(rng)
        if mines is None:
            continue
        numbers, revealed, flagged = _flat(numbers, unknown, flags)
        width = unknown.shape[1]
        fitting = _fitting_layouts(numbers, revealed, flagged, width, mines)
        if not 2 <= len(fitting) <= 200:
            continue
        draws = 100 * len(fitting)
        layouts = draw_layouts(numbers, neighbour_table(width, unknown.shape[0]), revealed,
                               flagged, width, mines, draws, checked)
        seen = Counter(row.tobytes() for row in layouts)
        assert set(seen) == {layout.tobytes() for layout in fitting}
        observed = [seen[layout.tobytes()] for layout in fitting]
        assert stats.chisquare(observed).pvalue > 1e-4, (numbers, revealed, flagged, mines)
        checked += 1


def test_a_position_no_layout_fits_is_refused():
    rng = np.random.default_rng(5)
    refused = 0
    while refused < 20:
        numbers, unknown, flags, mines = random_position(rng)
        if mines is None:
            continue
        numbers, revealed, flagged = _flat(numbers, unknown, flags)
        width = unknown.shape[1]
        if _fitting_layouts(numbers, revealed, flagged, width, mines):
            continue
        with pytest.raises(ValueError, match="no layout fits the position"):
            draw_layouts(numbers, neighbour_table(width, unknown.shape[0]), revealed,
                         flagged, width, mines, 10, 1)
        refused += 1


def _expert_position(seed, opens):
    """An Expert position: a layout, its first opening and ``opens`` more safe cells opened."""
    rng = np.random.default_rng(seed)
    height, width, mines = 16, 30, 99
    layout = np.zeros(height * width, dtype=bool)
    layout[rng.choice(height * width - 1, mines, replace=False) + 1] = True
    grid = layout.reshape(height, width)
    revealed = reveal(grid, (0, 0)) if not grid[0, 0] else np.zeros_like(grid)
    safe = np.flatnonzero(~layout)
    for cell in rng.choice(safe, opens, replace=False):
        y, x = divmod(int(cell), width)
        revealed |= reveal(grid, (x, y))
    return neighbour_counts(grid), revealed, height, width, mines


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_each_cells_frequency_matches_its_exact_probability_on_expert(seed):
    numbers, revealed, height, width, mines = _expert_position(seed, 12)
    draws = 4000
    layouts = draw_layouts(numbers.ravel().astype(np.int8), neighbour_table(width, height),
                           revealed.ravel(), np.zeros(height * width, dtype=bool), width,
                           mines, draws, seed)
    assert (layouts.sum(axis=1) == mines).all()
    for layout in layouts[:50]:
        shown = neighbour_counts(layout.reshape(height, width))
        assert (shown[revealed] == numbers[revealed]).all()
        assert not layout.reshape(height, width)[revealed].any()
    exact = mine_probabilities(np.where(revealed, numbers, -1), mines=mines).probability
    unknown = ~revealed.ravel()
    p = exact.ravel()[unknown].clip(0, 1)
    frequency = layouts[:, unknown].mean(axis=0)
    spread = np.sqrt(p * (1 - p) / draws)
    varied = spread > 0
    assert (frequency[~varied] == p[~varied]).all()
    z = (frequency[varied] - p[varied]) / spread[varied]
    # Each cell's z is about standard normal: a bound of 4.5 holds for every cell of
    # every test with probability above 0.99 (Bonferroni over about 1,400 cells; the
    # cells are not independent, which the union bound does not need).
    assert np.abs(z).max() < 4.5


def test_the_same_seed_draws_the_same_layouts():
    numbers, revealed, height, width, mines = _expert_position(4, 6)
    args = (numbers.ravel().astype(np.int8), neighbour_table(width, height), revealed.ravel(),
            np.zeros(height * width, dtype=bool), width, mines, 20)
    assert (draw_layouts(*args, 9) == draw_layouts(*args, 9)).all()
    assert (draw_layouts(*args, 9) != draw_layouts(*args, 10)).any()


def test_a_listing_past_its_budget_is_refused():
    numbers, revealed, height, width, mines = _expert_position(1, 12)
    with pytest.raises(ValueError, match="listing budget of 3"):
        draw_layouts(numbers.ravel().astype(np.int8), neighbour_table(width, height),
                     revealed.ravel(), np.zeros(height * width, dtype=bool), width, mines,
                     10, 1, budget=3)
