"""minestats: Monte Carlo research and benchmarking toolkit for Minesweeper statistics.

The names below are the public API; each lives in a module with one job, listed
in its docstring (the layout is in ``docs/architecture.md``). They are imported on
first use, so ``import minestats`` is quick and pulls in neither numba nor scipy
until a name that needs them is asked for.
"""

from __future__ import annotations

import importlib

# Public name -> the module that defines it.
_LOCATIONS = {
    "BEGINNER": "minestats.board",
    "CLASSIC_BEGINNER": "minestats.board",
    "EXPERT": "minestats.board",
    "INTERMEDIATE": "minestats.board",
    "PRESETS": "minestats.board",
    "Board": "minestats.board",
    "resolve_board": "minestats.board",
    "opening_probability": "minestats.exact",
    "PassRateCurve": "minestats.fits",
    "fit_pass_rate_curve": "minestats.fits",
    "opening_probability_map": "minestats.exact",
    "Game": "minestats.game",
    "bbbv": "minestats.game",
    "islands": "minestats.game",
    "neighbour_counts": "minestats.game",
    "openings": "minestats.game",
    "reveal": "minestats.game",
    "generate_no_guess": "minestats.generators",
    "generate_no_guess_batch": "minestats.generators",
    "NoGuessBatch": "minestats.generators",
    "NoGuessResult": "minestats.generators",
    "board_consistency": "minestats.inference",
    "mine_probabilities": "minestats.inference",
    "reconstruct": "minestats.inference",
    "ConsistencyResult": "minestats.inference",
    "MineProbabilities": "minestats.inference",
    "ReconstructResult": "minestats.inference",
    "bbbv_histogram": "minestats.metrics",
    "BBBVHistogram": "minestats.metrics",
    "BBBVShare": "minestats.metrics",
    "simulate_opening": "minestats.montecarlo",
    "OpeningSimulation": "minestats.montecarlo",
    "Comparison": "minestats.paired",
    "PairedComparison": "minestats.paired",
    "compare": "minestats.paired",
    "pass_rate": "minestats.passrate",
    "pass_rate_sweep": "minestats.passrate",
    "PassRate": "minestats.passrate",
    "POLICIES": "minestats.players",
    "GameResult": "minestats.players",
    "WinRate": "minestats.players",
    "play": "minestats.players",
    "play_games": "minestats.players",
    "Strategy": "minestats.players",
    "win_rate": "minestats.players",
    "win_rate_sweep": "minestats.players",
    "optimal_win_probability": "minestats.players",
    "RULES": "minestats.rules",
    "ChunkStore": "minestats.runs.store",
    "sample_mines": "minestats.sampling",
    "SOLVERS": "minestats.solvers",
    "BatchSolveResult": "minestats.solvers",
    "SolveResult": "minestats.solvers",
    "SolverOptions": "minestats.solvers",
    "solve": "minestats.solvers",
    "solve_batch": "minestats.solvers",
    "SearchBudgetExceeded": "minestats.validation",
    "ConfidenceInterval": "minestats.stats",
    "wilson_interval": "minestats.stats",
}

__all__ = sorted(_LOCATIONS, key=lambda name: (not name.isupper(), not name[0].isupper(),
                                                name))

__version__ = "0.1.0"


def __getattr__(name: str):
    """Import a public name from its module on first use (PEP 562)."""
    module = _LOCATIONS.get(name)
    if module is None:
        raise AttributeError(f"module 'minestats' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LOCATIONS))
