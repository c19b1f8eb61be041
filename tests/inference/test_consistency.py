"""The consistency problem on a partially revealed board (`minestats.inference.consistency`)."""

from collections import Counter

import numpy as np
import pytest

from minestats.inference import board_consistency, counts_from_layout, reconstruct
from minestats.solvers import solve
from tests.oracles.count_matrices import block_sums, crafted_layout, plain_counts
from tests.oracles.forced_play import solve_with_forced_cells
from tests.oracles.reference import random_layouts


def brute_force_board(numbers, flags, mines):
    """Count placements and forced cells by trying every placement at once (numpy)."""
    open_cells = (numbers == -1) & ~flags
    unknown = int(open_cells.sum())
    placements = ((np.arange(2**unknown)[:, None] >> np.arange(unknown)) & 1).astype(bool)
    layouts = np.broadcast_to(flags, (len(placements), *flags.shape)).copy()
    layouts[:, open_cells] = placements
    around = block_sums(layouts) - layouts
    fits = ((around == numbers) | (numbers == -1)).all(axis=(1, 2))
    if mines is not None:
        fits &= layouts.sum(axis=(1, 2)) == mines
    count = int(fits.sum())
    if not count:
        return 0, np.zeros_like(flags), np.zeros_like(flags)
    return (count, open_cells & ~layouts[fits].any(axis=0),
            open_cells & layouts[fits].all(axis=0))


def tiny_positions(seed, n):
    """Random positions on boards of at most 16 cells, some of them inconsistent."""
    rng = np.random.default_rng(seed)
    shapes = [(3, 3), (4, 3), (3, 4), (4, 4), (2, 6), (5, 3), (1, 8)]
    for _ in range(n):
        height, width = shapes[rng.integers(len(shapes))]
        layout = rng.random((height, width)) < rng.uniform(0.1, 0.5)
        numbers = plain_counts(layout.tolist(), self_included=False)
        shown = ~layout & (rng.random(layout.shape) < rng.uniform(0.2, 0.8))
        flags = layout & ~shown & (rng.random(layout.shape) < 0.3)
        if rng.random() < 0.15:  # a wrong flag
            flags |= ~shown & (rng.random(layout.shape) < 0.2)
        numbers = np.where(shown, numbers, -1)
        if rng.random() < 0.15 and shown.any():  # a wrong number
            y, x = np.argwhere(shown)[rng.integers(shown.sum())]
            numbers[y, x] = min(numbers[y, x] + 1, 8)
        mines = [None, int(layout.sum()), int(layout.sum()) + int(rng.integers(-1, 2))][
            rng.integers(3)]
        yield numbers, flags, (None if mines is None else max(mines, 0))


def check_boards_against_brute_force(seed, n):
    outcomes = Counter()
    for numbers, flags, mines in tiny_positions(seed, n):
        result = board_consistency(numbers, flags=flags, mines=mines)
        count, forced_safe, forced_mine = brute_force_board(numbers, flags, mines)
        assert result.n_solutions == count, (numbers, flags, mines)
        np.testing.assert_array_equal(result.forced_safe, forced_safe)
        np.testing.assert_array_equal(result.forced_mine, forced_mine)
        if count:
            example = result.example
            assert (example[flags]).all()
            around = plain_counts(example.astype(int).tolist(), self_included=False)
            assert all(numbers[y, x] in (-1, around[y][x])
                       for y in range(numbers.shape[0]) for x in range(numbers.shape[1]))
            assert mines is None or int(example.sum()) == mines
            assert not (example & (numbers >= 0)).any()
        outcomes[(count > 0, bool((forced_safe | forced_mine).any()))] += 1
    assert len(outcomes) == 3, outcomes  # inconsistent; consistent with and without forced


def test_board_counts_and_forced_cells_match_brute_force():
    check_boards_against_brute_force(seed=11, n=400)


@pytest.mark.slow
def test_board_counts_and_forced_cells_match_brute_force_many():
    check_boards_against_brute_force(seed=12, n=5000)


def test_board_unknown_mask_equals_minus_one_form():
    numbers = np.array([[1, -1, -1], [2, -1, -1], [-1, -1, -1]])
    mask = numbers == -1
    masked = np.where(mask, 7, numbers)  # values under the mask are ignored
    first = board_consistency(numbers, mines=3)
    second = board_consistency(masked, unknown=mask, mines=3)
    assert first.n_solutions == second.n_solutions > 0
    np.testing.assert_array_equal(first.forced_safe, second.forced_safe)
    np.testing.assert_array_equal(first.forced_mine, second.forced_mine)


def test_board_far_cells_counted_with_binomials():
    # Expert-sized board, only the top-left corner revealed: a 1 at (0, 0) with its
    # three neighbours hidden and everything else hidden too.
    numbers = np.full((16, 30), -1)
    numbers[0, 0] = 1
    result = board_consistency(numbers, mines=99)
    from math import comb
    assert result.n_solutions == 3 * comb(480 - 4, 98)
    assert not result.forced_safe.any() and not result.forced_mine.any()
    assert board_consistency(numbers).n_solutions == 3 * 2**476


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"numbers": [[1, 9]]}, r"revealed number at cell \(1, 0\) \(9\) must be in 0..8"),
        ({"numbers": [[1, -2]]}, r"revealed number at cell \(1, 0\) \(-2\)"),
        ({"numbers": [[1, -1]], "flags": [[True, False]]},
         r"flag at cell \(0, 0\) lies on a revealed cell"),
        ({"numbers": [[1, -1]], "flags": [[1, 0]]}, r"flags \(dtype int64\) must be a boolean"),
        ({"numbers": [[1, -1]], "unknown": [[False]]}, r"unknown has shape \(1, 1\)"),
        ({"numbers": [[1, -1]], "mines": 3}, r"mines \(3\) must be between 0 and 2"),
        ({"numbers": [1, -1]}, r"numbers \(shape \(2,\), dtype int64\) must be a 2-D"),
        ({"numbers": [[0.5]]}, r"must be a 2-D integer array"),
    ],
)
def test_board_consistency_rejects_bad_input(kwargs, message):
    with pytest.raises(ValueError, match=message):
        board_consistency(**kwargs)


def test_results_are_read_only_and_leave_the_input_alone():
    counts = np.array([[1, 1], [1, 1]])
    result = reconstruct(counts)
    assert not result.layout.flags.writeable and not result.counts.flags.writeable
    assert counts.flags.writeable
    numbers = np.array([[1, -1], [-1, -1]])
    checked = board_consistency(numbers, mines=1)
    for array in (checked.numbers, checked.unknown, checked.flags, checked.forced_safe,
                  checked.forced_mine, checked.example):
        assert not array.flags.writeable
    assert numbers.flags.writeable
    assert checked.n_solutions == 3 and not checked.unique


@pytest.mark.parametrize("use_mine_count", [True, False])
def test_forced_cells_finish_exactly_the_boards_perfect_logic_finishes(use_mine_count):
    # Perfect logic's end state is the fixed point of "open every forced-safe cell, flag
    # every forced mine", so it must match the `logic` solver's, cell for cell.
    rng = np.random.default_rng(8 + use_mine_count)
    outcomes = Counter()
    for layout in random_layouts(rng, 25, 16, 16, 40, (8, 8)):
        reference = solve(layout, (8, 8), solver="logic", use_mine_count=use_mine_count)
        assert not reference.capped
        revealed, flagged = solve_with_forced_cells(layout, (8, 8),
                                                    use_mine_count=use_mine_count)
        np.testing.assert_array_equal(revealed, reference.revealed)
        np.testing.assert_array_equal(flagged, reference.flagged)
        outcomes[reference.solved] += 1
    assert len(outcomes) == 2, outcomes


# --- the search budget ---------------------------------------------------------------


def test_a_capped_board_consistency_claims_nothing():
    layout = crafted_layout(30, 30, 0)
    shown = ~layout & (np.random.default_rng(0).random(layout.shape) < 0.5)
    numbers = np.where(shown, counts_from_layout(layout) - layout, -1)
    for mines in (None, int(layout.sum())):
        result = board_consistency(numbers, mines=mines, max_configurations=20_000)
        assert result.capped and result.n_solutions is None
        assert result.consistent is None and result.unique is None and result.example is None
        assert not result.forced_safe.any() and not result.forced_mine.any()
        row = result.to_dict()
        assert row["capped"] is True and row["n_solutions"] is None
        assert row["max_configurations"] == 20_000
    layout = crafted_layout(6, 6, 0)
    small = board_consistency(np.where(layout, -1, counts_from_layout(layout) - layout))
    assert not small.capped and small.consistent and small.to_dict()["capped"] is False


@pytest.mark.parametrize(
    ("value", "message"),
    [(0, r"max_configurations \(0\) must be a positive integer"),
     (-3, r"max_configurations \(-3\) must be a positive integer"),
     (2.5, r"max_configurations \(2.5\) must be a positive integer"),
     (True, r"max_configurations \(True\) must be a positive integer"),
     ("1000", r"max_configurations \('1000'\) must be a positive integer"),
     (10**16, r"max_configurations \(10000000000000000\) must be at most 1_000_000_000_000_000"),
     (10**100, r"max_configurations \(10{79}\.\.\. \(101 characters\)\) must be at most "
               r"1_000_000_000_000_000")],
)
def test_bad_budgets_are_refused(value, message):
    with pytest.raises(ValueError, match=message):
        reconstruct([[1, 1], [1, 1]], max_configurations=value)
    with pytest.raises(ValueError, match=message):
        board_consistency([[1, -1]], max_configurations=value)

