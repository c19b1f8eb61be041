import numpy as np
import pytest

from minestats.mechanics.game import bbbv, islands, neighbour_counts, openings, reveal
from tests.oracles.reference import random_layouts

SHAPES = [(1, 1), (1, 6), (7, 1), (2, 2), (3, 5), (9, 9), (16, 8), (30, 16)]


def _around(x, y, width, height):
    return [(x + dx, y + dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1)
            if (dx or dy) and 0 <= x + dx < width and 0 <= y + dy < height]


def _plain_numbers(mines):
    height, width = len(mines), len(mines[0])
    return [[sum(mines[v][u] for u, v in _around(x, y, width, height)) for x in range(width)]
            for y in range(height)]


def _plain_reveal(mines, click):
    height, width = len(mines), len(mines[0])
    numbers = _plain_numbers(mines)
    if mines[click[1]][click[0]]:
        return {click}
    seen, todo = set(), [click]
    while todo:
        x, y = todo.pop()
        if (x, y) in seen:
            continue
        seen.add((x, y))
        if numbers[y][x] == 0:
            todo.extend(_around(x, y, width, height))
    return seen


def _plain_regions(cells, width, height):
    """8-connected components of a set of (x, y), by depth-first search."""
    regions, left = [], set(cells)
    while left:
        todo, region = [left.pop()], set()
        while todo:
            cell = todo.pop()
            region.add(cell)
            for other in _around(*cell, width, height):
                if other in left:
                    left.remove(other)
                    todo.append(other)
        regions.append(region)
    return regions


def _plain_zero_and_lone(mines):
    height, width = len(mines), len(mines[0])
    numbers = _plain_numbers(mines)
    safe = [(x, y) for y in range(height) for x in range(width) if not mines[y][x]]
    zeros = {(x, y) for x, y in safe if numbers[y][x] == 0}
    lone = {(x, y) for x, y in safe if (x, y) not in zeros
            and not any(c in zeros for c in _around(x, y, width, height))}
    return zeros, lone


def _plain_bbbv(mines):
    height, width = len(mines), len(mines[0])
    zeros, lone = _plain_zero_and_lone(mines)
    return len(_plain_regions(zeros, width, height)) + len(lone)


def _boards(seed, per_shape=12):
    rng = np.random.default_rng(seed)
    for width, height in SHAPES:
        cells = width * height
        for density in (0.0, 0.1, 0.2, 0.35, 0.6):
            yield from random_layouts(rng, per_shape // 4 + 1, width, height,
                                      round(density * cells))


def _mask(cells, shape):
    mask = np.zeros(shape, dtype=bool)
    for x, y in cells:
        mask[y, x] = True
    return mask


# --- hand-worked 3BV -----------------------------------------------------------------

HAND_WORKED = [
    # 3x3 without mines: every cell is 0, one opening clears it all -> 1.
    ([[0, 0, 0], [0, 0, 0], [0, 0, 0]], 1),
    # 3x3 with the centre mined: all 8 safe cells show 1, there is no zero, so each
    # needs its own click -> 8.
    ([[0, 0, 0], [0, 1, 0], [0, 0, 0]], 8),
    # 5x5 with the centre mined: the inner ring shows 1, the outer ring (16 cells) is
    # all 0 and 8-connected, one opening, and it reveals the inner ring -> 1.
    ([[0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 1, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0]],
     1),
    # 7x2 with a mine column at x = 3: zeros at x = 0, 1 and x = 5, 6 form two
    # openings; x = 2 and x = 4 (numbered) are revealed by them -> 2.
    ([[0, 0, 0, 1, 0, 0, 0], [0, 0, 0, 1, 0, 0, 0]], 2),
    # 1x7 "X..X...": cells 1 and 2 show 1 and touch no zero (island, 2 clicks);
    # cells 5, 6 are zeros (one opening) revealing cell 4 -> 1 + 2 = 3.
    ([[1, 0, 0, 1, 0, 0, 0]], 3),
    # 4x3 with mines at (0, 2) and (3, 2): row 0 is all 0 (one opening), it reveals
    # row 1 (all 1s); (1, 2) and (2, 2) show 1 and touch no zero -> 1 + 2 = 3.
    ([[0, 0, 0, 0], [0, 0, 0, 0], [1, 0, 0, 1]], 3),
    # Every cell a mine: nothing to click -> 0. One safe cell alone: it is a 0 -> 1.
    ([[1, 1], [1, 1]], 0),
    ([[0]], 1),
    # 3x3 checkerboard of mines on the corners and centre: the 4 edge cells show 3
    # (e.g. (1, 0) sees (0, 0), (2, 0), (1, 1)); no zeros -> 4.
    ([[1, 0, 1], [0, 1, 0], [1, 0, 1]], 4),
]


@pytest.mark.parametrize(("layout", "expected"), HAND_WORKED)
def test_bbbv_hand_worked(layout, expected):
    mines = np.array(layout, dtype=bool)
    assert bbbv(mines) == expected
    assert bbbv(mines[None])[0] == expected
    assert _plain_bbbv(layout) == expected


def test_numbers_hand_worked():
    # Mines at (0, 0) and (2, 1): (1, 0) sees both, (2, 0) sees (2, 1) only, and so on.
    mines = np.array([[1, 0, 0], [0, 0, 1]], dtype=bool)
    np.testing.assert_array_equal(neighbour_counts(mines), [[0, 2, 1], [1, 2, 0]])


def test_openings_and_islands_hand_worked():
    # 9x2 with mines at x = 3 (both rows) and at (6, 0):
    #   x = 0, 1 see no mine: zeros, opening 1 (it reveals x = 2);
    #   x = 8 sees only (7, *) and (8, *): zeros, opening 2 (it reveals x = 7);
    #   x = 4 sees column 3, x = 5 and (6, 1) see (6, 0): numbered, and none of them
    #   touches a zero, so (4, 0), (4, 1), (5, 0), (5, 1), (6, 1) are one island.
    # 3BV = 2 openings + 5 lone cells = 7.
    mines = np.zeros((2, 9), dtype=bool)
    mines[:, 3] = True
    mines[0, 6] = True
    labels, count = openings(mines)
    assert count == 2
    np.testing.assert_array_equal(labels, [[1, 1, 0, 0, 0, 0, 0, 0, 2],
                                           [1, 1, 0, 0, 0, 0, 0, 0, 2]])
    island_labels, island_count = islands(mines)
    assert island_count == 1
    np.testing.assert_array_equal(island_labels, [[0, 0, 0, 0, 1, 1, 0, 0, 0],
                                                  [0, 0, 0, 0, 1, 1, 1, 0, 0]])
    assert bbbv(mines) == 7


# --- against plain Python --------------------------------------------------------------


def test_neighbour_counts_match_plain_python():
    for layout in _boards(seed=11):
        expected = _plain_numbers(layout.tolist())
        np.testing.assert_array_equal(neighbour_counts(layout), expected)


def test_neighbour_counts_batch_matches_single_boards():
    rng = np.random.default_rng(12)
    batch = random_layouts(rng, 50, 7, 5, 9)
    counts = neighbour_counts(batch)
    assert counts.shape == batch.shape
    for layout, count in zip(batch, counts, strict=True):
        np.testing.assert_array_equal(count, neighbour_counts(layout))


def test_reveal_matches_plain_flood_fill():
    rng = np.random.default_rng(13)
    for layout in _boards(seed=14):
        height, width = layout.shape
        for _ in range(3):
            click = (int(rng.integers(width)), int(rng.integers(height)))
            expected = _mask(_plain_reveal(layout.tolist(), click), layout.shape)
            np.testing.assert_array_equal(reveal(layout, click), expected)


def test_openings_and_islands_match_plain_python():
    for layout in _boards(seed=15):
        height, width = layout.shape
        zeros, lone = _plain_zero_and_lone(layout.tolist())
        for function, cells in ((openings, zeros), (islands, lone)):
            labels, count = function(layout)
            regions = _plain_regions(cells, width, height)
            assert count == len(regions)
            found = {frozenset((int(x), int(y)) for y, x in np.argwhere(labels == k))
                     for k in range(1, count + 1)}
            assert found == {frozenset(region) for region in regions}


def test_bbbv_matches_plain_python_and_batch_matches_single():
    for layout in _boards(seed=16):
        assert bbbv(layout) == _plain_bbbv(layout.tolist())
    rng = np.random.default_rng(17)
    for width, height, mines in ((9, 9, 10), (16, 16, 40), (30, 16, 99), (5, 1, 2)):
        batch = random_layouts(rng, 300, width, height, mines)
        values = bbbv(batch)
        assert values.dtype == np.int64 and values.shape == (300,)
        np.testing.assert_array_equal(values, [bbbv(layout) for layout in batch])


def test_bbbv_single_returns_int_and_empty_batch():
    assert type(bbbv(np.zeros((3, 3), dtype=bool))) is int
    assert bbbv(np.zeros((0, 4, 4), dtype=bool)).shape == (0,)


def test_integer_layouts_are_accepted():
    layout = np.array([[0, 1], [0, 0]])
    assert bbbv(layout) == bbbv(layout.astype(bool)) == 3


@pytest.mark.parametrize(
    ("bad", "match"),
    [(np.zeros(5, dtype=bool), r"shape \(5,\)"),
     (np.zeros((2, 2, 2, 2), dtype=bool), "shape"),
     (np.array([[0, 2]]), "only 0 and 1"),
     (np.array([[0.0, 1.0]]), "float64"),
     (np.zeros((0, 3), dtype=bool), "at least one cell")],
)
def test_bad_layouts_raise(bad, match):
    with pytest.raises(ValueError, match=match):
        neighbour_counts(bad)


def test_reveal_rejects_batches_and_bad_clicks():
    with pytest.raises(ValueError, match="shape"):
        reveal(np.zeros((2, 3, 3), dtype=bool), (0, 0))
    with pytest.raises(ValueError, match=r"click \(3, 0\) is off the 3x3 board"):
        reveal(np.zeros((3, 3), dtype=bool), (3, 0))


def test_reveal_on_a_mine_shows_only_that_mine():
    layout = np.array([[1, 0], [0, 0]], dtype=bool)
    np.testing.assert_array_equal(reveal(layout, (0, 0)), [[True, False], [False, False]])
