"""Perfect logic played through the consistency engine, a path independent of the solvers.

Shared by the consistency tests (it must end where the `logic` solver ends) and the
generator tests (it must finish every board a generator returns for `logic`).
"""

import numpy as np

from minestats.inference import board_consistency
from minestats.mechanics.game import neighbour_counts, reveal


def solve_with_forced_cells(layout, click, *, use_mine_count):
    """Open the forced-safe cells and flag the forced mines until none are left."""
    revealed, flagged = reveal(layout, click), np.zeros_like(layout)
    numbers = neighbour_counts(layout)
    while True:
        result = board_consistency(np.where(revealed, numbers, -1), flags=flagged,
                                   mines=int(layout.sum()) if use_mine_count else None)
        assert result.consistent
        assert not (result.forced_safe & layout).any() and (layout[result.forced_mine]).all()
        if not (result.forced_safe.any() or result.forced_mine.any()):
            return revealed, flagged
        flagged = flagged | result.forced_mine
        for y, x in np.argwhere(result.forced_safe).tolist():
            revealed = revealed | reveal(layout, (x, y))
