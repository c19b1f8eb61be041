"""Count matrices (`minestats.inference.counts`): reconstruct the layout, count the solutions."""

import itertools
from collections import Counter

import numpy as np
import pytest

from minestats.foundations.validation import DEFAULT_EXACT_CONFIGURATIONS, SearchBudgetExceeded
from minestats.inference import counts_from_layout, mine_probabilities, random_counts, reconstruct
from minestats.io.boards import parse_counts
from tests.oracles.count_matrices import block_sums, crafted_layout, engine_count, plain_counts

PUBLISHED = [
    # (counts, solution rows): 7 is not 2 mod 3, so the 3x3 block sum is invertible on
    # 7x7 boards and a solution, when there is one, is unique.
    ("""1 1 0 0 1 1 1
        2 3 2 1 1 2 2
        3 5 3 2 1 2 2
        3 6 5 3 0 2 2
        2 4 3 2 0 1 1
        2 3 3 2 1 2 1
        1 1 1 1 1 1 0""",
     ["_ _ _ _ _ _ _",
      "X _ _ _ _ X _",
      "_ X X _ _ _ X",
      "X _ X _ _ _ _",
      "_ X X _ _ _ X",
      "_ _ _ _ _ _ _",
      "_ X _ _ X _ _"]),
    ("""0 0 0 0 0 0 0
        0 0 0 0 0 1 1
        0 0 0 0 0 1 1
        0 0 1 1 1 1 1
        0 0 2 2 2 0 0
        0 0 2 2 2 0 0
        0 0 1 1 1 0 0""",
     ["_ _ _ _ _ _ _",
      "_ _ _ _ _ _ _",
      "_ _ _ _ _ _ X",
      "_ _ _ _ _ _ _",
      "_ _ _ X _ _ _",
      "_ _ _ X _ _ _",
      "_ _ _ _ _ _ _"]),
]


SMALL_SHAPES = [(1, 1), (1, 7), (2, 2), (2, 5), (3, 3), (3, 4), (4, 3), (4, 4), (2, 8),
                (8, 2), (1, 16), (3, 5), (5, 3)]


def all_layouts(height, width):
    """Every layout of a small board, shape (2**cells, height, width)."""
    cells = height * width
    return ((np.arange(2**cells)[:, None] >> np.arange(cells)) & 1).astype(bool).reshape(
        -1, height, width)


def assert_reproduces(result):
    if result.n_solutions == 0:
        assert result.layout is None and result.to_text() == "-1"
    else:
        assert result.layout.dtype == np.bool_
        np.testing.assert_array_equal(counts_from_layout(result.layout), result.counts)


def test_counts_from_layout_matches_plain_python():
    rng = np.random.default_rng(3)
    for height, width in [(1, 1), (1, 6), (5, 1), (4, 7), (9, 9)]:
        layout = rng.random((height, width)) < 0.4
        assert counts_from_layout(layout).tolist() == plain_counts(layout.tolist(),
                                                                   self_included=True)


@pytest.mark.parametrize(("text", "rows"), PUBLISHED)
def test_published_examples(text, rows):
    counts = parse_counts(text)
    result = reconstruct(counts)
    assert result.n_solutions == 1 and result.unique
    assert result.to_text().splitlines() == rows
    assert_reproduces(result)
    # Independent check: the real solution of the invertible linear system.
    band = np.eye(7) + np.eye(7, k=1) + np.eye(7, k=-1)
    real = np.linalg.solve(np.kron(band, band), counts.ravel()).reshape(7, 7)
    np.testing.assert_allclose(real, result.layout, atol=1e-9)


@pytest.mark.parametrize(("height", "width"), SMALL_SHAPES)
def test_solution_counts_match_brute_force(height, width):
    layouts = all_layouts(height, width)
    sums = block_sums(layouts)
    tally = Counter(map(bytes, sums.astype(np.int8).reshape(len(sums), -1)))
    rng = np.random.default_rng(height * 100 + width)
    realized = sums[rng.integers(len(sums), size=40)]
    nudged = realized.copy()
    nudged[np.arange(40), rng.integers(height, size=40), rng.integers(width, size=40)] += (
        rng.choice([-1, 1], size=40))
    nudged = np.clip(nudged, 0, 9)
    arbitrary = rng.integers(0, 5, size=(40, height, width))
    outcomes = Counter()
    for counts in itertools.chain(realized, nudged, arbitrary):
        result = reconstruct(counts)
        expected = tally.get(bytes(counts.astype(np.int8).ravel()), 0)
        assert result.n_solutions == expected, counts
        assert result.unique == (expected == 1)
        assert_reproduces(result)
        outcomes[min(expected, 2)] += 1
    assert outcomes[0] > 0 and outcomes[1] + outcomes[2] > 0, outcomes
    # The block sum is singular iff a side is 2 mod 3; otherwise solutions are unique.
    assert (outcomes[2] > 0) == (height % 3 == 2 or width % 3 == 2), outcomes


def test_two_rows_count_exactly_beyond_machine_integers():
    # On a 2 x n board both cells of a column see the same three columns, so only the
    # column sums s matter: count sequences s with s[j-1] + s[j] + s[j+1] == 3 (2 at the
    # ends), weighted by prod C(2, s[j]), by a plain transfer over (s[j-1], s[j]).
    n = 80
    counts = np.full((2, n), 3)
    counts[:, [0, -1]] = 2
    weight = {0: 1, 1: 2, 2: 1}
    ways = {(a, b): weight[a] * weight[b] for a in range(3) for b in range(3) if a + b == 2}
    for _ in range(n - 2):
        step = Counter()
        for (a, b), w in ways.items():
            c = 3 - a - b
            if 0 <= c <= 2:
                step[(b, c)] += w * weight[c]
        ways = step
    expected = sum(w for (a, b), w in ways.items() if a + b == 2)
    result = reconstruct(counts)
    assert expected > 2**64 and type(result.n_solutions) is int
    assert result.n_solutions == expected and not result.unique
    assert_reproduces(result)


def test_random_30x30_at_density_02_is_solved_uniquely():
    # 31 is not 0 mod 3, so on 30x30 a solution is unique: it must be the hidden layout.
    for seed in range(3):
        counts, mines = random_counts(30, 30, 0.2, seed=seed)
        result = reconstruct(counts)
        assert result.n_solutions == 1 and result.unique
        np.testing.assert_array_equal(result.layout, mines)
        assert_reproduces(result)


def test_singular_sizes_are_counted_and_checked():
    # 29 + 1 is 0 mod 3: the block sum has a kernel, ambiguous layouts can exist.
    found = Counter()
    for seed in range(20):
        counts, mines = random_counts(8, 5, 0.5, seed=seed)
        result = reconstruct(counts)
        assert result.n_solutions >= 1
        assert_reproduces(result)
        found[result.unique] += 1
    assert found[False] > 0, found


def test_random_counts_is_seeded_and_validates():
    first, second = random_counts(6, 4, 0.3, seed=5), random_counts(6, 4, 0.3, seed=5)
    np.testing.assert_array_equal(first[1], second[1])
    assert first[0].shape == (4, 6)
    np.testing.assert_array_equal(first[0], counts_from_layout(first[1]))
    assert not random_counts(3, 3, 0, seed=1)[1].any()
    assert random_counts(3, 3, 1, seed=1)[1].all()
    with pytest.raises(ValueError, match=r"p \(1.5\) must be a probability"):
        random_counts(3, 3, 1.5, seed=1)
    with pytest.raises(ValueError, match=r"width \(0\) must be at least 1"):
        random_counts(0, 3, 0.5)


@pytest.mark.parametrize(
    ("counts", "message"),
    [
        ([[1, 10]], r"counts\[0, 1\] \(10\) must be in 0..9"),
        ([[1, -1]], r"counts\[0, 1\] \(-1\) must be in 0..9"),
        ([[0.5]], r"must hold integers"),
        ([1, 2, 3], r"counts has shape \(3,\)"),
        (np.zeros((0, 3), dtype=int), r"counts has shape \(0, 3\)"),
    ],
)
def test_reconstruct_rejects_bad_counts(counts, message):
    with pytest.raises(ValueError, match=message):
        reconstruct(counts)


def test_a_crafted_32x32_matrix_passes_the_default_budget_and_says_so():
    # Without a budget the engine ran for minutes and grew to gigabytes on it.
    counts = counts_from_layout(crafted_layout(32, 32, 0))
    assert DEFAULT_EXACT_CONFIGURATIONS == 500_000
    with pytest.raises(SearchBudgetExceeded) as caught:
        reconstruct(counts)
    assert str(caught.value) == ("the reconstruction search passed max_configurations = "
                                 "500_000 configurations")
    # the same error as mine_probabilities gives on a position past its budget (two
    # groups: past one configuration in the compiled search and in the exact engine)
    with pytest.raises(SearchBudgetExceeded, match="the probability search passed "
                                                   "max_configurations = 1 configurations"):
        mine_probabilities([[1, 1, -1], [-1, -1, -1]], mines=2, max_configurations=1)


def test_crafted_17x17_matrices_are_counted_exactly_row_by_row():
    for seed in range(5):
        counts = counts_from_layout(crafted_layout(17, 17, seed))
        result = reconstruct(counts, max_configurations=200_000)
        assert result.n_solutions > 1 and not result.unique
        assert_reproduces(result)
        if seed in (2, 4):  # the engine needs about 20,000 configurations for these
            assert result.n_solutions == engine_count(counts, 50_000)


@pytest.mark.slow
def test_crafted_17x17_counts_agree_with_the_engine_without_a_budget():
    for seed in range(10):
        counts = counts_from_layout(crafted_layout(17, 17, seed))
        assert reconstruct(counts).n_solutions == engine_count(counts, None)

