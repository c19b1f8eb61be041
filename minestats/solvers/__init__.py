"""Solvers that finish a board without guessing, behind one entry point.

See `minestats.solvers.api` for what each solver deduces.
"""

from minestats.solvers.api import SOLVERS, BatchSolveResult, SolveResult, solve, solve_batch

__all__ = ["SOLVERS", "BatchSolveResult", "SolveResult", "solve", "solve_batch"]
