import itertools
from collections import Counter

import numpy as np
import pytest

from minestats.foundations.validation import DEFAULT_EXACT_CONFIGURATIONS
from minestats.inference import board_consistency, counts_from_mines, random_counts, reconstruct
from minestats.inference.engine import solve_constraints
from minestats.io.boards import parse_counts
from minestats.mechanics.game import neighbour_table
from minestats.solvers import solve
from tests.oracles.forced_play import solve_with_forced_cells
from tests.oracles.reference import random_layouts

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


def plain_counts(layout, *, self_included):
    """Mines around each cell in plain Python (lists), independent of minestats."""
    height, width = len(layout), len(layout[0])
    return [[sum(layout[j][i]
                 for j in range(max(y - 1, 0), min(y + 2, height))
                 for i in range(max(x - 1, 0), min(x + 2, width))
                 if self_included or (i, j) != (x, y))
             for x in range(width)] for y in range(height)]


def all_layouts(height, width):
    """Every layout of a small board, shape (2**cells, height, width)."""
    cells = height * width
    return ((np.arange(2**cells)[:, None] >> np.arange(cells)) & 1).astype(bool).reshape(
        -1, height, width)


def block_sums(layouts):
    """Closed-neighbourhood sums of a batch of layouts by shifted slices (a reference)."""
    height, width = layouts.shape[1:]
    padded = np.pad(layouts.astype(np.int64), ((0, 0), (1, 1), (1, 1)))
    return sum(padded[:, dy: dy + height, dx: dx + width] for dy in range(3) for dx in range(3))


def assert_reproduces(result):
    if result.n_solutions == 0:
        assert result.mines is None and result.to_text() == "-1"
    else:
        assert result.mines.dtype == np.bool_
        np.testing.assert_array_equal(counts_from_mines(result.mines), result.counts)


def test_counts_from_mines_matches_plain_python():
    rng = np.random.default_rng(3)
    for height, width in [(1, 1), (1, 6), (5, 1), (4, 7), (9, 9)]:
        layout = rng.random((height, width)) < 0.4
        assert counts_from_mines(layout).tolist() == plain_counts(layout.tolist(),
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
    np.testing.assert_allclose(real, result.mines, atol=1e-9)


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
        np.testing.assert_array_equal(result.mines, mines)
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
    np.testing.assert_array_equal(first[0], counts_from_mines(first[1]))
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


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "no rows of counts"),
        ("\n  \n", "no rows of counts"),
        ("1 1\n1 1 1\n", "line 2: row has 3 cells, expected 2 like line 1"),
        ("\n1 1\n\n1\n", "line 4: row has 1 cells, expected 2 like line 2"),
        ("1 1\n1 x\n", "line 2: 'x' is not an integer"),
        ("1 1\n1 1\n2.0 1\n", "line 3: '2.0' is not an integer"),
        ("1 12\n", "line 1: value 12 is outside 0..9"),
        ("1 1\n-1 0\n", "line 2: value -1 is outside 0..9"),
    ],
)
def test_parse_counts_errors_name_the_line(text, message):
    with pytest.raises(ValueError, match=message):
        parse_counts(text)


def test_parse_counts_reads_rows():
    counts = parse_counts("\n 1 2\t3\n4 5 6  \n\n")
    assert counts.tolist() == [[1, 2, 3], [4, 5, 6]] and counts.dtype == np.int64


# --- partially revealed standard boards ---------------------------------------------


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
    assert not result.mines.flags.writeable and not result.counts.flags.writeable
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


def crafted_layout(height, width, seed):
    """Mines in every third column, a random phase per row: propagation decides nothing."""
    phase = np.random.default_rng(seed).integers(3, size=height)
    return np.arange(width)[None, :] % 3 == phase[:, None]


def test_a_crafted_32x32_matrix_is_capped_by_the_default_budget():
    # Without a budget the engine ran for minutes and grew to gigabytes on it.
    result = reconstruct(counts_from_mines(crafted_layout(32, 32, 0)))
    assert result.capped and result.max_configurations == DEFAULT_EXACT_CONFIGURATIONS
    assert result.n_solutions is None and result.unique is None and result.mines is None
    assert result.to_dict() == {"width": 32, "height": 32, "n_solutions": None,
                                "unique": None, "max_configurations": 500_000,
                                "capped": True}
    assert result.to_text() == "capped: no answer within 500_000 configurations"


def test_crafted_17x17_matrices_are_counted_exactly_row_by_row():
    for seed in range(5):
        counts = counts_from_mines(crafted_layout(17, 17, seed))
        result = reconstruct(counts, max_configurations=200_000)
        assert not result.capped and result.n_solutions > 1 and not result.unique
        assert_reproduces(result)
        if seed in (2, 4):  # the engine needs about 20,000 configurations for these
            assert result.n_solutions == engine_count(counts, 50_000)


@pytest.mark.slow
def test_crafted_17x17_counts_agree_with_the_engine_without_a_budget():
    for seed in range(10):
        counts = counts_from_mines(crafted_layout(17, 17, seed))
        assert reconstruct(counts).n_solutions == engine_count(counts, None)


def engine_count(counts, max_configurations):
    height, width = counts.shape
    constraints = [(tuple(row[row >= 0].tolist()), need) for row, need in
                   zip(neighbour_table(width, height), counts.ravel().tolist(), strict=True)]
    return solve_constraints(constraints, width * height,
                             max_configurations=max_configurations).count


def test_the_engine_is_bounded_where_strips_do_not_apply():
    # 20 % 3 == 2: the 20x20 crafted matrix is ambiguous and too wide for a strip.
    counts = counts_from_mines(crafted_layout(20, 20, 1))
    result = reconstruct(counts, max_configurations=20_000)
    assert result.capped and result.to_dict()["capped"]
    assert engine_count(counts, 20_000) is None


def test_a_capped_board_consistency_claims_nothing():
    layout = crafted_layout(30, 30, 0)
    shown = ~layout & (np.random.default_rng(0).random(layout.shape) < 0.5)
    numbers = np.where(shown, counts_from_mines(layout) - layout, -1)
    for mines in (None, int(layout.sum())):
        result = board_consistency(numbers, mines=mines, max_configurations=20_000)
        assert result.capped and result.n_solutions is None
        assert result.consistent is None and result.unique is None and result.example is None
        assert not result.forced_safe.any() and not result.forced_mine.any()
        row = result.to_dict()
        assert row["capped"] is True and row["n_solutions"] is None
        assert row["max_configurations"] == 20_000
    layout = crafted_layout(6, 6, 0)
    small = board_consistency(np.where(layout, -1, counts_from_mines(layout) - layout))
    assert not small.capped and small.consistent and small.to_dict()["capped"] is False


def test_a_total_mine_count_spends_the_budget_per_total():
    # With a total, each search state keeps one count per mine total, and the cap
    # counts them: here 3,425 configurations without the total, 61,644 with it.
    layout = crafted_layout(16, 30, 0)
    numbers = np.where(~layout & (np.arange(16)[:, None] % 2 == 0),
                       counts_from_mines(layout) - layout, -1)
    assert not board_consistency(numbers, max_configurations=10_000).capped
    assert board_consistency(numbers, mines=int(layout.sum()), max_configurations=10_000).capped
    result = board_consistency(numbers, mines=int(layout.sum()))
    assert not result.capped and result.n_solutions == 20_699_587_584


@pytest.mark.parametrize(
    ("value", "message"),
    [(0, r"max_configurations \(0\) must be a positive integer"),
     (-3, r"max_configurations \(-3\) must be a positive integer"),
     (2.5, r"max_configurations \(2.5\) must be a positive integer"),
     (True, r"max_configurations \(True\) must be a positive integer"),
     ("1000", r"max_configurations \('1000'\) must be a positive integer"),
     (10**16, r"max_configurations \(10000000000000000\) must be at most 1_000_000_000_000_000"),
     (10**100, r"max_configurations \(10+\) must be at most 1_000_000_000_000_000")],
)
def test_bad_budgets_are_refused(value, message):
    with pytest.raises(ValueError, match=message):
        reconstruct([[1, 1], [1, 1]], max_configurations=value)
    with pytest.raises(ValueError, match=message):
        board_consistency([[1, -1]], max_configurations=value)
