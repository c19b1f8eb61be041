"""Exact inference from what a player sees.

- `engine`: the exact enumeration engine (propagation, independent components, exact
  counting with the global mine count);
- `consistency`: is there a layout behind a partly revealed board, how many, which
  cells are forced;
- `probabilities`: the exact mine probability of every unknown cell;
- `counts`: count matrices (closed-neighbourhood counts) and their reconstruction;
- `html`: positions and games drawn as self-contained HTML, with their probabilities.
"""

from minestats.inference.consistency import ConsistencyResult, board_consistency
from minestats.inference.counts import (
    ReconstructResult,
    counts_from_mines,
    random_counts,
    reconstruct,
)
from minestats.inference.probabilities import MineProbabilities, mine_probabilities

__all__ = [
    "ConsistencyResult",
    "MineProbabilities",
    "ReconstructResult",
    "board_consistency",
    "counts_from_mines",
    "mine_probabilities",
    "random_counts",
    "reconstruct",
]
