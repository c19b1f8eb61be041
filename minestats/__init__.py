"""minestats: Monte Carlo research and benchmarking toolkit for Minesweeper statistics."""

from minestats.board import (
    BEGINNER,
    CLASSIC_BEGINNER,
    EXPERT,
    INTERMEDIATE,
    PRESETS,
    Board,
    resolve_board,
)
from minestats.exact import opening_probability, opening_probability_map
from minestats.rules import RULES

__all__ = [
    "BEGINNER",
    "CLASSIC_BEGINNER",
    "EXPERT",
    "INTERMEDIATE",
    "PRESETS",
    "RULES",
    "Board",
    "opening_probability",
    "opening_probability_map",
    "resolve_board",
]

__version__ = "0.1.0"
