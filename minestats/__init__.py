"""minestats: Monte Carlo research and benchmarking toolkit for Minesweeper statistics.

The names below are the public API; each lives in a module with one job, listed
in its docstring (the layout is in ``docs/architecture.md``). They are imported on
first use, so ``import minestats`` is quick and pulls in neither numba nor scipy
until a name that needs them is asked for.
"""

from __future__ import annotations

import importlib.metadata

# Public name -> the module that defines it.
_LOCATIONS = {
    "BEGINNER": "minestats.foundations.board",
    "CLASSIC_BEGINNER": "minestats.foundations.board",
    "EXPERT": "minestats.foundations.board",
    "INTERMEDIATE": "minestats.foundations.board",
    "PRESETS": "minestats.foundations.board",
    "Board": "minestats.foundations.board",
    "resolve_board": "minestats.foundations.board",
    "opening_probability": "minestats.mechanics.opening_probabilities",
    "PassRateCurve": "minestats.stats.fits",
    "fit_pass_rate_curve": "minestats.stats.fits",
    "opening_probability_map": "minestats.mechanics.opening_probabilities",
    "Game": "minestats.mechanics.game",
    "bbbv": "minestats.mechanics.game",
    "islands": "minestats.mechanics.game",
    "neighbour_counts": "minestats.mechanics.game",
    "openings": "minestats.mechanics.game",
    "reveal": "minestats.mechanics.game",
    "generate_no_guess": "minestats.drivers.no_guess",
    "generate_no_guess_batch": "minestats.drivers.no_guess",
    "NoGuessBatch": "minestats.drivers.no_guess",
    "NoGuessResult": "minestats.drivers.no_guess",
    "board_consistency": "minestats.inference",
    "mine_probabilities": "minestats.inference",
    "plot_position": "minestats.figures.plots",
    "parse_position": "minestats.foundations.grids",
    "reconstruct": "minestats.inference",
    "ConsistencyResult": "minestats.inference",
    "MineProbabilities": "minestats.inference",
    "ReconstructResult": "minestats.inference",
    "bbbv_histogram": "minestats.drivers.bbbv_histograms",
    "BBBVHistogram": "minestats.drivers.bbbv_histograms",
    "BBBVShare": "minestats.drivers.bbbv_histograms",
    "simulate_opening": "minestats.drivers.opening_simulation",
    "OpeningSimulation": "minestats.drivers.opening_simulation",
    "Comparison": "minestats.drivers.comparisons",
    "PairedComparison": "minestats.drivers.comparisons",
    "compare": "minestats.drivers.comparisons",
    "pass_rate": "minestats.drivers.pass_rates",
    "pass_rate_sweep": "minestats.drivers.pass_rates",
    "PassRate": "minestats.drivers.pass_rates",
    "POLICIES": "minestats.players",
    "GameResult": "minestats.players",
    "WinRate": "minestats.drivers.win_rates",
    "play": "minestats.players",
    "play_games": "minestats.players",
    "Strategy": "minestats.players",
    "win_rate": "minestats.drivers.win_rates",
    "win_rate_sweep": "minestats.drivers.win_rates",
    "optimal_win_probability": "minestats.players",
    "move_values": "minestats.players",
    "MoveValues": "minestats.players",
    "GameAnalysis": "minestats.drivers.game_analysis",
    "RULES": "minestats.mechanics.rules",
    "ChunkStore": "minestats.runs.store",
    "sample_mines": "minestats.mechanics.sampling",
    "SOLVERS": "minestats.solvers",
    "BatchSolveResult": "minestats.solvers",
    "SolveResult": "minestats.solvers",
    "SolverOptions": "minestats.solvers",
    "solve": "minestats.solvers",
    "solve_batch": "minestats.solvers",
    "SearchBudgetExceeded": "minestats.foundations.validation",
    "ConfidenceInterval": "minestats.stats",
    "wilson_interval": "minestats.stats",
    "load_results": "minestats.reproduction.published",
}

__all__ = sorted(_LOCATIONS, key=lambda name: (not name.isupper(), not name[0].isupper(),
                                                name))

# Written once, in pyproject.toml, and read here from the installed package's metadata.
__version__ = importlib.metadata.version("minestats")


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
