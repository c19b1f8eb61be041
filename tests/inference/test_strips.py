import itertools

import numpy as np
import pytest

from minestats.foundations.validation import SearchBudgetExceeded
from minestats.inference import counts_from_layout, random_counts, reconstruct
from minestats.inference.strips import STRIP_WIDTH, solve_strip
from tests.oracles.count_matrices import crafted_layout, engine_count


def crafted(height, width, seed):
    """The counts of the crafted layout: the engine's hard case."""
    return counts_from_layout(crafted_layout(height, width, seed))


def brute_force(height, width):
    """Every layout of a small board: {count matrix bytes: (solutions, first solution)}.

    The first solution is the first in reading order with mines before safe cells.
    """
    cells = height * width
    codes = np.arange(2**cells)
    layouts = ((codes[:, None] >> np.arange(cells)) & 1).astype(bool).reshape(
        -1, height, width)
    padded = np.pad(layouts.astype(np.int8), ((0, 0), (1, 1), (1, 1)))
    sums = sum(padded[:, dy: dy + height, dx: dx + width]
               for dy in range(3) for dx in range(3))
    # cell 0 is bit 0 of the code: a mine there first means a larger bit-reversed code
    first_key = (layouts.reshape(-1, cells) << np.arange(cells)[::-1]).sum(axis=1)
    table = {}
    for key, matrix, layout in zip(first_key.tolist(), sums.reshape(len(sums), -1),
                                   layouts, strict=True):
        seen = table.get(matrix.tobytes())
        if seen is None:
            table[matrix.tobytes()] = [1, key, layout]
        else:
            seen[0] += 1
            if key > seen[1]:
                seen[1:] = key, layout
    return table


def matrices(rng, height, width, n):
    """Realized, nudged and arbitrary count matrices of one shape."""
    for k in range(n):
        counts, _ = random_counts(width, height, rng.uniform(0, 1), seed=rng.integers(2**32))
        if k % 3 == 1:
            counts[rng.integers(height), rng.integers(width)] = rng.integers(10)
        elif k % 3 == 2:
            counts = rng.integers(0, 5, size=(height, width))
        yield counts


@pytest.mark.parametrize(("height", "width"),
                         [(1, 1), (1, 9), (2, 2), (2, 5), (3, 3), (4, 4), (2, 8), (5, 3),
                          (3, 5), (4, 2)])
def test_strip_counts_and_first_solution_match_brute_force(height, width):
    table = brute_force(height, width)
    rng = np.random.default_rng(height * 100 + width)
    solved = 0
    for counts in matrices(rng, height, width, 60):
        expected = table.get(counts.astype(np.int8).tobytes())
        solution = solve_strip(counts)
        assert solution.count == (0 if expected is None else expected[0]), counts
        assert solution.count == engine_count(counts)
        if expected is None:
            assert solution.layout is None
            continue
        solved += 1
        # a matrix wider than STRIP_WIDTH would be solved transposed; these are not
        np.testing.assert_array_equal(solution.layout, expected[2])
    assert solved > 10


def test_strips_match_the_engine_on_random_and_crafted_matrices():
    rng = np.random.default_rng(5)
    shapes = [(6, 11), (11, 6), (8, 14), (1, 30), (30, 2), (5, 40), (17, 9)]
    for (height, width), seed in itertools.product(shapes, range(3)):
        for counts in itertools.chain(matrices(rng, height, width, 12),
                                      [crafted(height, width, seed)]):
            solution = solve_strip(counts)
            assert solution.count == engine_count(counts), counts
            if solution.count:
                np.testing.assert_array_equal(counts_from_layout(solution.layout), counts)
            else:
                assert solution.layout is None


def test_wide_strips_are_solved_transposed():
    counts, mines = random_counts(200, 3, 0.3, seed=2)
    solution = solve_strip(counts)
    assert solution.layout.shape == (3, 200)
    np.testing.assert_array_equal(counts_from_layout(solution.layout), counts)
    assert solution.count == solve_strip(counts.T).count == engine_count(counts)
    with pytest.raises(ValueError, match=r"counts has shape \(18, 18\); a strip is at most 17"):
        solve_strip(np.zeros((18, 18), dtype=int))


def test_long_crafted_strips_are_counted_exactly_and_fast():
    # 2000 rows of width 17 (17 % 3 == 2: rows branch) and width 8: exact counts far
    # beyond machine integers, within a fraction of the default budget.
    for width in (8, 17):
        counts = crafted(2000, width, 0)
        result = reconstruct(counts)
        assert result.n_solutions > 2**64
        np.testing.assert_array_equal(counts_from_layout(result.layout), counts)
        assert solve_strip(counts, max_configurations=250_000).count == result.n_solutions
    assert STRIP_WIDTH == 17


def test_strip_budget_counts_expanded_states():
    counts = crafted(40, 8, 0)
    with pytest.raises(SearchBudgetExceeded):
        solve_strip(counts, max_configurations=2**8)  # the first row alone
    assert solve_strip(counts, max_configurations=10_000).count == engine_count(counts)
