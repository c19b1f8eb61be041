"""Exact mine probabilities by enumerating every layout of a small position.

Written from the definition alone (every 0/1 assignment of the unknown cells, kept when
its numbers fit), so the exact engine and the player's float path are checked against
it. Shared by the tests of the probabilities, of the player and of `chance_given_mines`;
`random_position` draws the small positions they are checked on.
"""

from fractions import Fraction

import numpy as np

__all__ = ["brute_force", "random_position"]


def brute_force(numbers, unknown, flags, mines, weigh=None):
    """Fractions by enumerating every 0/1 assignment of the unknown, unflagged cells.

    ``weigh`` (a layout's weight from its 0/1 array; None: 1) counts each layout that
    fits that many times. The assignments are rows of bits, taken in blocks; a layout
    fits when every revealed number is its flagged neighbours plus its neighbours' bits
    (and the bits and the flags add up to ``mines``, when given).
    """
    height, width = numbers.shape
    cells = [(y, x) for y in range(height) for x in range(width)
             if unknown[y, x] and not flags[y, x]]
    shown = [(y, x) for y in range(height) for x in range(width) if not unknown[y, x]]
    # touches[c, r]: cell c is one of revealed cell r's neighbours
    touches = np.array([[max(abs(y - ry), abs(x - rx)) == 1 for ry, rx in shown]
                        for y, x in cells], dtype=np.int64).reshape(len(cells), len(shown))
    padded = np.pad(flags.astype(np.int64), 1)
    flagged_around = sum(padded[1 + dy:1 + dy + height, 1 + dx:1 + dx + width]
                         for dy in (-1, 0, 1) for dx in (-1, 0, 1)) - flags
    left = np.array([numbers[r] - flagged_around[r] for r in shown], dtype=np.int64)
    fits, mined = 0, np.zeros(len(cells), dtype=np.int64)
    step = 1 << min(len(cells), 16)
    for start in range(0, 1 << len(cells), step):
        bits = (np.arange(start, start + step)[:, None] >> np.arange(len(cells))) & 1
        keep = (bits @ touches == left).all(axis=1)
        if mines is not None:
            keep &= bits.sum(axis=1) == mines - int(flags.sum())
        bits = bits[keep]
        if weigh is None:
            weights = np.ones(len(bits), dtype=np.int64)
        else:
            weights = np.array([weigh(layout) for layout in _layouts(flags, cells, bits)],
                               dtype=np.int64)
        fits += int(weights.sum())
        mined += weights @ bits
    return fits, {cell: Fraction(int(m), fits) for cell, m in zip(cells, mined, strict=True)
                  } if fits else {}


def random_position(rng):
    """A random small layout, a random set of revealed safe cells, maybe flags and count."""
    width, height = rng.integers(1, 6, size=2)
    layout = rng.random((height, width)) < rng.uniform(0.1, 0.5)
    padded = np.pad(layout.astype(int), 1)
    numbers = sum(padded[1 + dy:1 + dy + height, 1 + dx:1 + dx + width]
                  for dy in (-1, 0, 1) for dx in (-1, 0, 1)) - layout
    revealed = ~layout & (rng.random(layout.shape) < rng.uniform(0.2, 0.9))
    unknown = ~revealed
    flags = layout & unknown & (rng.random(layout.shape) < 0.3)
    if rng.random() < 0.15:  # a number that may not fit: inconsistent positions too
        y, x = rng.integers(height), rng.integers(width)
        if revealed[y, x]:
            numbers[y, x] = rng.integers(0, 9)
    mines = int(layout.sum()) if rng.random() < 0.6 else None
    return np.where(unknown, -1, numbers), unknown, flags, mines


def _layouts(flags, cells, bits):
    """The 0/1 layout of each row of ``bits``: the flags, and the bits on ``cells``."""
    for row in bits:
        layout = flags.astype(int)
        for (y, x), bit in zip(cells, row.tolist(), strict=True):
            layout[y, x] = bit
        yield layout
