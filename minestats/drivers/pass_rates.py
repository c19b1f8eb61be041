"""Pass rates: the share of boards a solver finishes without guessing, with intervals.

Boards are drawn whole by the placement rule (`minestats.mechanics.sampling.sample_mines`),
solved from the same click (`minestats.solvers.solve_batch`), and counted in seeded
chunks (`minestats.runs.sweeps`), so a pass rate depends only on its seed, ``n`` and
chunk size, never on the number of workers.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import pandas as pd

from minestats.foundations.board import Board
from minestats.foundations.defaults import PASS_RATE
from minestats.foundations.docstrings import shared_parameters
from minestats.foundations.result import setting_columns
from minestats.foundations.seeds import child_label
from minestats.foundations.validation import (
    DEFAULT_CONFIDENCE_LEVEL,
    DEFAULT_MAX_CONFIGURATIONS,
)
from minestats.mechanics.setting import Setting, prepare_run
from minestats.runs.sweeps import grid_rows, grid_seeds, run_jobs
from minestats.runs.tally import Tally
from minestats.solvers import SolverOptions, solve_batch
from minestats.stats import ProportionResult

__all__ = ["DEFAULT_CHUNK_SIZE", "PassRate", "pass_rate", "pass_rate_sweep"]

DEFAULT_CHUNK_SIZE = PASS_RATE.chunk_size


@dataclass(frozen=True, repr=False, eq=False)
class PassRate(ProportionResult):
    """Result of `pass_rate`: how many boards a solver finished, with its inputs.

    Attributes
    ----------
    board : Board
    rule : str
    click : tuple of int
    solver : str
    use_mine_count : bool
    max_configurations : int
    n : int
        Boards drawn (trials).
    seed : int or str
        Seed label of the run (see `minestats.runs.chunks.seed_label`).
    chunk_size : int
    successes : int
        Boards on which every safe cell was opened.
    capped : int
        Boards the ``logic`` solver gave up on (configuration cap); not successes.
    lost_first_click : int
        Boards whose first click hit a mine (possible under ``uniform`` only).
    seconds : float
        Compute time summed over chunks (all workers), for ``seconds_per_game``.

    The pass rate (``pass_rate``, also ``proportion``) and its interval
    (``proportion_ci``) come from `minestats.stats.ProportionResult`.
    """

    board: Board
    rule: str
    click: tuple[int, int]
    solver: str
    use_mine_count: bool
    max_configurations: int
    n: int
    seed: int | str
    chunk_size: int
    successes: int
    capped: int
    lost_first_click: int
    seconds: float

    @property
    def pass_rate(self) -> float:
        """Share of boards passed: ``proportion`` under the name of what it estimates."""
        return self.proportion

    @property
    def seconds_per_game(self) -> float:
        """Compute time per board played (one core)."""
        return self.seconds / self.n

    def to_dict(self, *, confidence_level=DEFAULT_CONFIDENCE_LEVEL) -> dict:
        """Return one table row: inputs, counts, pass rate and its Wilson interval."""
        low, high = self.proportion_ci(confidence_level)
        return {
            **setting_columns(self.board, self.rule, self.click, size=True),
            "solver": self.solver,
            "use_mine_count": self.use_mine_count,
            "max_configurations": self.max_configurations, "n": self.n,
            "successes": self.successes, "capped": self.capped,
            "lost_first_click": self.lost_first_click,
            "pass_rate": self.proportion, "ci_low": low, "ci_high": high,
            "confidence_level": confidence_level, "seed": self.seed,
            "chunk_size": self.chunk_size, "seconds_per_game": self.seconds_per_game,
        }


def _pass_rate_chunk(config, size, seed_sequence):
    setting, options = config
    start = time.process_time()
    result = solve_batch(setting.layouts(size, seed_sequence), setting.click,
                         solver=options.solver, use_mine_count=options.use_mine_count,
                         max_configurations=options.max_configurations)
    return Tally({"successes": result.solved.sum(), "capped": result.capped.sum(),
                  "lost_first_click": result.lost.sum(),
                  "seconds": time.process_time() - start})


def _config(board, solver, rule, click, use_mine_count,
            max_configurations) -> tuple[Setting, SolverOptions]:
    options = SolverOptions(solver, use_mine_count, max_configurations)
    return Setting.resolve(board, rule, click), options


def _result(config, total: Tally, *, n, seed, chunk_size) -> PassRate:
    setting, options = config
    return PassRate(board=setting.board, rule=setting.rule, click=setting.click,
                    solver=options.solver, use_mine_count=options.use_mine_count,
                    max_configurations=options.max_configurations,
                    n=n, seed=seed, chunk_size=chunk_size, successes=int(total["successes"]),
                    capped=int(total["capped"]),
                    lost_first_click=int(total["lost_first_click"]),
                    seconds=float(total["seconds"]))


@shared_parameters(trials="Boards", chunk_size=DEFAULT_CHUNK_SIZE)
def pass_rate(board, *, solver="logic", rule=PASS_RATE.rule, click=PASS_RATE.click, n,
              seed=None,
              use_mine_count=True, max_configurations=DEFAULT_MAX_CONFIGURATIONS,
              chunk_size=DEFAULT_CHUNK_SIZE, workers=-1, store=None,
              progress=False) -> PassRate:
    """Share of boards a solver finishes without guessing, from one first click.

    Parameters
    ----------
    board : Board or str
        A `Board`, a preset name or ``"WxH/M"``.
    solver : {'logic', 'single-point', 'subset', 'exhaustive'}, optional
        The solver, perfect logic by default (as ``minestats pass-rate``).
    rule : str, optional
        First-click rule that places the mines (default ``'safe-opening'``).
    click : tuple of int or str, optional
        ``(x, y)``, ``"centre"`` (default) or ``"corner"``.
    n : int
        Boards to draw.
    %(seed)s
    use_mine_count : bool, optional
        Let the solver use the total mine count (``single-point`` never does).
    max_configurations : int, optional
        Per-stall cap of the ``logic`` solver; capped boards are counted apart.
    %(chunk_size)s
    %(workers)s
    %(store)s
    %(progress)s

    Returns
    -------
    PassRate

    Examples
    --------
    >>> result = pass_rate("beginner", solver="single-point", n=2_000, seed=1, workers=1)
    >>> result.n, result.seed, result.lost_first_click
    (2000, 1, 0)
    >>> low, high = result.proportion_ci()
    >>> bool(0.55 < low < result.proportion < high < 0.72)
    True
    >>> pass_rate("beginner", solver="single-point", n=200, seed="2026-11-29",
    ...           workers=1).seed
    '2026-11-29'

    The repr leads with the pass rate, its 95% Wilson interval, n and the seed:

    >>> pass_rate("beginner", n=1_000, seed=1, workers=1)  # doctest: +ELLIPSIS
    PassRate 0.906 [0.886, 0.923] n=1,000 seed=1 (board=Board(9x9/10), ...)
    """
    config = _config(board, solver, rule, click, use_mine_count, max_configurations)
    plan = prepare_run(config[0].board, n=n, seed=seed, chunk_size=chunk_size)
    [totals] = run_jobs(_pass_rate_chunk, [(config, plan.seed_sequence)], n=plan.n,
                        chunk_size=plan.chunk_size, workers=workers, store=store,
                        progress=progress)
    return _result(config, totals, n=plan.n, seed=plan.seed, chunk_size=plan.chunk_size)


def pass_rate_sweep(grid, *, n, seed=None, chunk_size=DEFAULT_CHUNK_SIZE,
                    workers=-1, store=None, progress=False) -> pd.DataFrame:
    """Pass rates over a grid of configurations, as a tidy table.

    Parameters
    ----------
    grid : iterable of dict
        Each dict holds the keyword arguments of `pass_rate` for one row: ``board``
        and ``solver``, optionally ``rule``, ``click``, ``use_mine_count`` and
        ``max_configurations``.
    n, chunk_size, workers, store, progress
        As in `pass_rate`, the same for every row.
    seed : int, str, numpy.random.SeedSequence, numpy.random.Generator or None
        Row ``i`` is seeded with child ``i`` of this seed (label ``"seed/i"``), so
        ``pass_rate(**grid[i], seed=SeedSequence(entropy, spawn_key=(i,)))`` repeats
        it, where ``entropy`` is that of `minestats.foundations.seeds.as_seed_sequence`.

    Returns
    -------
    pandas.DataFrame
        One row per configuration (`PassRate.to_dict`).

    Examples
    --------
    >>> grid = [{"board": "9x9/10", "solver": s} for s in ("single-point", "subset")]
    >>> table = pass_rate_sweep(grid, n=500, seed=3, workers=1)
    >>> table[["solver", "n", "seed"]].values.tolist()
    [['single-point', 500, '3/0'], ['subset', 500, '3/1']]
    """
    defaults = {"rule": "safe-opening", "click": "centre", "use_mine_count": True,
                "max_configurations": DEFAULT_MAX_CONFIGURATIONS}
    configs = [_config(options["board"], options["solver"], options["rule"],
                       options["click"], options["use_mine_count"],
                       options["max_configurations"])
               for options in grid_rows(grid, required=("board", "solver"), defaults=defaults,
                                        function="pass_rate")]
    plan = prepare_run(*(setting.board for setting, _ in configs), n=n, seed=seed,
                       chunk_size=chunk_size)
    seeds = grid_seeds(plan.seed_sequence, len(configs))
    totals = run_jobs(_pass_rate_chunk, list(zip(configs, seeds, strict=True)), n=plan.n,
                      chunk_size=plan.chunk_size, workers=workers, store=store,
                      progress=progress)
    rows = [_result(config, total, n=plan.n, seed=child_label(plan.seed, index),
                    chunk_size=plan.chunk_size)
            for index, (config, total) in enumerate(zip(configs, totals, strict=True))]
    return pd.DataFrame([row.to_dict() for row in rows])
