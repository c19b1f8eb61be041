"""Picks among tied cells: the largest keys, then numba's seeded generator.

Every choice of the player ends here: `pick` keeps the cells of the largest keys,
row by row, within `TIE` of the highest, and draws among those left; `safest_cell`
is the ``safest`` policy's pick, `safest_of` the end game's among its equally good
cells. The generator is seeded per game (`minestats.players.kernel.play_chunk`), so
a game depends only on its layout, its click and its seed.
"""

from __future__ import annotations

import numpy as np

from minestats.foundations.compiled import compiled

__all__ = ["TIE", "pick", "safest_cell", "safest_of", "unknown_neighbours"]

TIE = 1e-12
"""Values within this of the highest are tied."""


@compiled(borrows=True)
def unknown_neighbours(cell, table, revealed, flagged):
    """Return how many neighbours of ``cell`` are neither revealed nor flagged."""
    count = 0
    for t in range(table.shape[1]):
        j = table[cell, t]
        if j < 0:
            break
        if j != cell and not revealed[j] and not flagged[j]:
            count += 1
    return count


@compiled
def _keep_highest(cells, values):
    """Return the cells whose value is within the tie tolerance of the highest."""
    top = values.max()
    return cells[values >= top - TIE], values >= top - TIE


@compiled
def pick(cells, keys):
    """Return the cell of the largest keys (rows of ``keys``, in order), ties at random."""
    best = cells
    rows = np.arange(cells.size)
    for k in range(keys.shape[0]):
        values = keys[k, rows]
        best, keep = _keep_highest(best, values)
        rows = rows[keep]
        if best.size == 1:
            return best[0]
    return best[np.random.randint(0, best.size)]  # noqa: NPY002 (the API numba compiles)


@compiled
def safest_of(cells, probability):
    """Return the safest of ``cells`` (the end game's equally good moves), ties at random."""
    keys = np.empty((1, cells.size))
    for i in range(cells.size):
        keys[0, i] = -probability[cells[i]]
    return pick(cells, keys)


@compiled
def safest_cell(table, revealed, flagged, probability):
    """Return the safest unknown cell; ties to the fewest unknown neighbours, then at random.

    As `pick` with those two keys, in one pass over the cells and another over the
    safest, allocating one array (the tied cells, in order).
    """
    top = -np.inf
    for cell in range(revealed.size):
        if not revealed[cell] and not flagged[cell]:
            top = max(top, 1.0 - probability[cell])
    tied = np.empty(revealed.size, dtype=np.int64)
    count, fewest = 0, table.shape[1] + 1
    for cell in range(revealed.size):
        if revealed[cell] or flagged[cell] or 1.0 - probability[cell] < top - TIE:
            continue
        crowd = unknown_neighbours(cell, table, revealed, flagged)
        if crowd < fewest:
            count, fewest = 0, crowd
        if crowd == fewest:
            tied[count] = cell
            count += 1
    if count == 1:
        return tied[0]
    return tied[np.random.randint(0, count)]  # noqa: NPY002 (the API numba compiles)
