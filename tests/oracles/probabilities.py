"""Exact mine probabilities by enumerating every layout of a small position.

Written from the definition alone (every 0/1 assignment of the unknown cells, kept when
its numbers fit), so the exact engine and the player's float path are checked against
it. Shared by the tests of the probabilities and of the player.
"""

from fractions import Fraction
from itertools import product

import numpy as np

__all__ = ["brute_force"]


def brute_force(numbers, unknown, flags, mines, weigh=None):
    """Fractions by enumerating every 0/1 assignment of the unknown, unflagged cells.

    ``weigh`` (a layout's weight from its 0/1 array; None: 1) counts each layout that
    fits that many times.
    """
    height, width = numbers.shape
    cells = [(y, x) for y in range(height) for x in range(width)
             if unknown[y, x] and not flags[y, x]]
    fits, mined = 0, {cell: 0 for cell in cells}
    for bits in product((0, 1), repeat=len(cells)):
        layout = flags.astype(int)
        for (y, x), bit in zip(cells, bits, strict=True):
            layout[y, x] = bit
        if mines is not None and layout.sum() != mines:
            continue
        padded = np.pad(layout, 1)
        around = sum(padded[1 + dy:1 + dy + height, 1 + dx:1 + dx + width]
                     for dy in (-1, 0, 1) for dx in (-1, 0, 1)) - layout
        if (around[~unknown] != numbers[~unknown]).any():
            continue
        weight = 1 if weigh is None else weigh(layout)
        fits += weight
        for cell, bit in zip(cells, bits, strict=True):
            mined[cell] += bit * weight
    return fits, {cell: Fraction(m, fits) for cell, m in mined.items()} if fits else {}
