"""minestats: Monte Carlo research and benchmarking toolkit for Minesweeper statistics.

The names below are the public API (DESIGN.md, section 3); each lives in a module
with one job, listed in its docstring.
"""

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
from minestats.game import bbbv, islands, neighbour_counts, openings, reveal
from minestats.generators import generate_no_guess, generate_no_guess_batch
from minestats.inference import board_consistency, reconstruct
from minestats.metrics import bbbv_histogram
from minestats.montecarlo import simulate_opening
from minestats.passrate import pass_rate, pass_rate_sweep
from minestats.rules import RULES
from minestats.runs.store import ChunkStore
from minestats.sampling import sample_mines
from minestats.solvers import SOLVERS, BatchSolveResult, SolveResult, solve, solve_batch
from minestats.stats import wilson_interval

__all__ = [
    "BEGINNER",
    "CLASSIC_BEGINNER",
    "EXPERT",
    "INTERMEDIATE",
    "PRESETS",
    "RULES",
    "SOLVERS",
    "BatchSolveResult",
    "Board",
    "ChunkStore",
    "SolveResult",
    "bbbv",
    "bbbv_histogram",
    "board_consistency",
    "generate_no_guess",
    "generate_no_guess_batch",
    "islands",
    "neighbour_counts",
    "opening_probability",
    "opening_probability_map",
    "openings",
    "pass_rate",
    "pass_rate_sweep",
    "reconstruct",
    "resolve_board",
    "reveal",
    "sample_mines",
    "simulate_opening",
    "solve",
    "solve_batch",
    "wilson_interval",
]

__version__ = "0.1.0"
