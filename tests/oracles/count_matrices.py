"""Count matrices by other paths than `minestats.inference.counts` takes.

Plain-Python neighbour counts and shifted-slice block sums, independent of minestats;
the crafted hard case on which propagation decides nothing; and the exact engine on a
count matrix without the row-by-row program (the path ``reconstruct`` replaced).
Shared by the tests of the count matrices, the engine, the strips and the consistency
problem.
"""

import numpy as np

from minestats.inference.constraints import solve_constraints
from minestats.mechanics.game import neighbour_table

__all__ = ["block_sums", "crafted_layout", "engine_count", "plain_counts"]


def plain_counts(layout, *, self_included):
    """Mines around each cell in plain Python (lists), independent of minestats."""
    height, width = len(layout), len(layout[0])
    return [[sum(layout[j][i]
                 for j in range(max(y - 1, 0), min(y + 2, height))
                 for i in range(max(x - 1, 0), min(x + 2, width))
                 if self_included or (i, j) != (x, y))
             for x in range(width)] for y in range(height)]


def block_sums(layouts):
    """Closed-neighbourhood sums of a batch of layouts by shifted slices (a reference)."""
    height, width = layouts.shape[1:]
    padded = np.pad(layouts.astype(np.int64), ((0, 0), (1, 1), (1, 1)))
    return sum(padded[:, dy: dy + height, dx: dx + width] for dy in range(3) for dx in range(3))


def crafted_layout(height, width, seed):
    """Mines in every third column, a random phase per row: propagation decides nothing."""
    phase = np.random.default_rng(seed).integers(3, size=height)
    return np.arange(width)[None, :] % 3 == phase[:, None]


def engine_count(counts, max_configurations=None):
    """The exact engine's count of a matrix's layouts, None past ``max_configurations``."""
    height, width = counts.shape
    constraints = [(tuple(row[row >= 0].tolist()), need) for row, need in
                   zip(neighbour_table(width, height), counts.ravel().tolist(), strict=True)]
    return solve_constraints(constraints, width * height,
                             max_configurations=max_configurations).count
