"""Count matrices of narrow strips, solved exactly row by row.

On a count matrix (`minestats.inference.counts`) the count of row ``r`` involves
rows ``r - 1``, ``r`` and ``r + 1`` only. So the mine patterns of two consecutive
rows are a complete state: given rows ``r - 1`` and ``r``, the count of row ``r``
fixes the window sums ``s[x] = b[x-1] + b[x] + b[x+1]`` of row ``r + 1``, and a row
of width w has at most two patterns with given window sums (choose ``b[0]``, then
``b[1] = s[0] - b[0]`` and ``b[x+1] = s[x] - b[x-1] - b[x]``). `solve_strip` runs
this transfer down the rows, counting the partial layouts behind each state with
Python ints (exact at any size), keeps the states of every row, and walks back from
a final state to one solution.

The first row has ``2**w`` patterns for a width w, every one a state of its own;
after that each state has one successor at most, or two when ``w % 3 == 2`` (only
then do different rows share their window sums). So the states of a row number at
most ``2**w`` when ``w % 3 != 2``, and at most ``2**(2*w)`` otherwise, a bound the
crafted matrices that defeat the engine's propagation (mines in every third column,
a random phase per row) stay far below: at most 8,192 a row at width 17, where the
exact engine (`minestats.inference.constraints`) needs up to 700,000 configurations
(seconds and hundreds of MB) for a 17x17 one, and more than any machine has on
larger ones. The program therefore takes matrices whose narrower side is at most
`STRIP_WIDTH` = 17 cells (transposed when the rows are the longer side): the first
row's 131,072 patterns are a quarter of the default budget
(`minestats.foundations.validation.DEFAULT_EXACT_CONFIGURATIONS`) and take a few hundredths of
a second, since patterns that fit no count die at one dictionary look-up. The
budget bounds the rest: every state expanded counts as one configuration.
`minestats.inference.reconstruct` calls it when the engine's propagation leaves a
hard search (random matrices leave none, and the engine is faster on them).
"""

from __future__ import annotations

from collections import defaultdict
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from minestats.inference.constraints import Budget

__all__ = ["STRIP_WIDTH", "StripSolution", "solve_strip"]

STRIP_WIDTH = 17
"""The widest strip (narrower side of the matrix) that `solve_strip` takes."""

_DIGIT = 4  # bits per column in the code of a row's window sums (values 0..15)
_BIAS = 6  # added to every column so that ``count - sums(a) - sums(b)`` stays >= 0


class StripSolution(NamedTuple):
    """The count of layouts behind a count matrix and one of them (None if none)."""

    count: int
    layout: np.ndarray | None


@lru_cache(maxsize=2)
def _tables(width: int) -> tuple[list[int], dict[int, tuple[int, ...]], int, list[int]]:
    """Window-sum codes of every row pattern, their inverse, the bias and a reading rank.

    ``codes[mask]`` holds, in base 16, the window sums of the row whose bit x is
    column x; ``inverse[code + bias]`` lists the patterns with those sums; of two
    patterns, the one with the greater ``rank`` has a mine first, reading from x = 0.
    """
    masks = np.arange(1 << width)
    sums = np.zeros((1 << width, width + width % 2), dtype=np.uint8)  # even: two a byte
    rank = np.zeros(1 << width, dtype=np.int64)
    for x in range(width):  # column by column, so that no (2**w, w) int64 array is made
        bit = (masks >> x) & 1
        rank |= bit << (width - 1 - x)
        sums[:, max(x - 1, 0): min(x + 2, width)] += bit[:, None].astype(np.uint8)
    nibbles = sums[:, 0::2] | (sums[:, 1::2] << 4)  # column x: nibble x
    data, size = nibbles.tobytes(), nibbles.shape[1]
    codes = [int.from_bytes(data[start: start + size], "little")
             for start in range(0, len(data), size)]
    bias = sum(_BIAS << (_DIGIT * x) for x in range(width))
    inverse = defaultdict(tuple)
    for mask, code in enumerate(codes):
        inverse[code + bias] += (mask,)
    return codes, dict(inverse), bias, rank.tolist()


def solve_strip(counts: np.ndarray, *, max_configurations=None) -> StripSolution:
    """Count the layouts of a narrow count matrix and find one, by a row-by-row program.

    Parameters
    ----------
    counts : numpy.ndarray of int, shape (height, width)
        A checked count matrix (values 0..9) with ``min(height, width) <= STRIP_WIDTH``.
    max_configurations : int or None, optional
        Give up (raise `~minestats.foundations.validation.SearchBudgetExceeded`) once more
        states than this have been expanded, all rows together (every pattern of the first row
        counts as one).

    Returns
    -------
    StripSolution
        The exact number of layouts whose closed-neighbourhood counts equal
        ``counts`` and one of them, as a bool array of the same shape: the first in
        reading order with mines before safe cells (for a matrix solved transposed,
        in column order).

    Examples
    --------
    >>> solve_strip(np.array([[1, 1], [1, 1]]))
    StripSolution(count=4, layout=array([[ True, False],
           [False, False]]))
    >>> solution = solve_strip(np.array([[1, 1, 1], [1, 1, 1], [0, 0, 0]]))
    >>> solution.count, solution.layout.astype(int).tolist()
    (1, [[0, 1, 0], [0, 0, 0], [0, 0, 0]])
    """
    if min(counts.shape) > STRIP_WIDTH:
        raise ValueError(f"counts has shape {counts.shape}; a strip is at most {STRIP_WIDTH} "
                         "cells across")
    if counts.shape[1] > STRIP_WIDTH:
        solution = solve_strip(counts.T, max_configurations=max_configurations)
        return solution._replace(layout=None if solution.layout is None
                                 else solution.layout.T)
    height, width = counts.shape
    codes, inverse, bias, rank = _tables(width)
    # The program runs from the bottom row up, so that the walk back to a solution
    # goes down the rows in reading order and can take the first pattern each time.
    rows = [sum(int(value) << (_DIGIT * x) for x, value in enumerate(row)) + bias
            for row in counts.tolist()[::-1]]
    budget, shift, low = Budget(max_configurations), width, (1 << width) - 1
    # layer r: {(row r-1 << width) | row r: partial layouts of rows 0..r that meet the
    # counts of rows 0..r-1}, rows numbered from the bottom; row -1 is empty
    states = dict.fromkeys(range(1 << width), 1)
    layers = []
    for row in rows[:-1]:
        budget.spend(len(states))
        layers.append(set(states))
        following = defaultdict(int)
        for state, ways in states.items():
            older, newer = state >> shift, state & low
            for new in inverse.get(row - codes[older] - codes[newer], ()):
                following[(newer << shift) | new] += ways
        states = following
    budget.spend(len(states))
    # the top row has nothing above it: its counts are met by the top two rows
    final = [state for state in states
             if rows[-1] - codes[state >> shift] - codes[state & low] == bias]
    count = sum(states[state] for state in final)
    if not count:
        return StripSolution(0, None)
    best = max(final, key=lambda state: (rank[state & low], rank[state >> shift]))
    older, newer = best >> shift, best & low
    pattern = [newer]  # the rows from the top down
    for r in range(height - 1, 0, -1):
        # rows r-2 and r-1 form a state of layer r-1 whose step by the counts of row
        # r-1 gave row r; take the first such row r-2 in reading order
        fitting = [mask for mask in inverse[rows[r - 1] - codes[older] - codes[newer]]
                   if (mask << shift) | older in layers[r - 1]]
        older, newer = max(fitting, key=rank.__getitem__), older
        pattern.append(newer)
    layout = (np.array(pattern)[:, None] >> np.arange(width)) & 1
    return StripSolution(count, layout.astype(bool))
