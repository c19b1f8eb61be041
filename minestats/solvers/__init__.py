"""Solvers that finish a board without guessing, behind one entry point.

See `minestats.solvers.api` for what each solver deduces.
"""

from minestats.solvers.api import (
    DEFAULT_MAX_CONFIGURATIONS,
    SOLVERS,
    BatchSolveResult,
    SolveResult,
    SolverOptions,
    deduce,
    solve,
    solve_batch,
)

__all__ = ["DEFAULT_MAX_CONFIGURATIONS", "SOLVERS", "BatchSolveResult", "SolveResult",
           "SolverOptions", "deduce", "solve", "solve_batch"]
