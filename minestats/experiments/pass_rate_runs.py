"""What the experiments that measure pass rates share: a warmed pool, grids of sweeps.

Kept apart from `minestats.experiments.common` so that the experiments that solve no
board (the first-click table, the opening maps) do not import the solvers.
"""

from __future__ import annotations

import pandas as pd

from minestats.drivers.pass_rates import pass_rate, pass_rate_sweep
from minestats.experiments.common import PAPER_RULES, row_seeds, worker_pool
from minestats.foundations.board import Board

__all__ = ["pass_rate_groups", "solver_pool"]


def solver_pool(workers: int):
    """`worker_pool` warmed up for `pass_rate`: every rule's sampler and every solver."""
    def warm_up():
        for rule in PAPER_RULES:
            for solver in ("single-point", "subset", "logic"):
                pass_rate(Board(4, 4, 3), solver=solver, rule=rule, n=2, seed=0, workers=1)

    return worker_pool(workers, warm_up=warm_up)


def pass_rate_groups(groups, *, seed: int, chunk_size: int, pool_map) -> pd.DataFrame:
    """Pass rates of several grids with their own n, as one table.

    Parameters
    ----------
    groups : sequence of (grid, n)
        ``grid`` as in `minestats.drivers.pass_rates.pass_rate_sweep`, ``n`` boards per row.
    seed : int
        Group ``i`` is swept with child ``i`` of the experiment's stream ``seed/k``, so row ``j``
        of it records the seed label ``"seed/i/j"``.
    chunk_size : int
    pool_map : map-like callable
        From `solver_pool`.
    """
    return pd.concat([pass_rate_sweep(grid, n=n, seed=group_seed, chunk_size=chunk_size,
                                      workers=pool_map)
                      for (grid, n), group_seed in zip(groups, row_seeds(seed, len(groups)),
                                                       strict=True)],
                     ignore_index=True)
