"""Exact inference from what a player sees.

- `constraints`: the exact enumeration engine of constraints (propagation, independent
  components, exact counting with the global mine count);
- `consistency`: is there a layout behind a partly revealed board, how many, which
  cells are forced;
- `probabilities`: the exact mine probability of every unknown cell;
- `counts`: count matrices (closed-neighbourhood counts) and their reconstruction;
- `html`: positions and games drawn as self-contained HTML, with their probabilities.
"""

from minestats.foundations.deprecation import deprecated_names, renamed_module
from minestats.inference.consistency import ConsistencyResult, board_consistency
from minestats.inference.counts import (
    ReconstructResult,
    counts_from_layout,
    random_counts,
    reconstruct,
)
from minestats.inference.probabilities import MineProbabilities, mine_probabilities

__all__ = [
    "ConsistencyResult",
    "MineProbabilities",
    "ReconstructResult",
    "board_consistency",
    "counts_from_layout",
    "mine_probabilities",
    "random_counts",
    "reconstruct",
]

__getattr__ = deprecated_names(__name__, {
    "counts_from_mines": (counts_from_layout, "minestats.inference.counts_from_layout")},
    removed_in="0.4")
renamed_module("minestats.inference.engine", "minestats.inference.constraints",
               removed_in="0.4")
