"""What the experiment scripts share: options, seeds per row, one worker pool, timing.

Every script takes ``--seed``, ``--workers`` and ``--out``; each row of its table
(a board and rule) draws from its own child of ``SeedSequence(seed)``, spawned once
for the whole table, and records that child's label (``"42/3"`` is child 3 of
seed 42). One process pool serves the whole script, created after the compiled
kernels are loaded so the forked workers inherit them instead of loading them again.
"""

from __future__ import annotations

import argparse
import contextlib
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from minestats.board import Board
from minestats.montecarlo import simulate_opening
from minestats.rules import RULES

__all__ = ["base_parser", "board_slug", "exact_in_interval", "row_seeds", "worker_map"]

def base_parser(description: str) -> argparse.ArgumentParser:
    """Command-line options every experiment takes: seed, workers, output folder."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--seed", type=int, default=42,
                        help="root seed; row i uses child i of SeedSequence(seed) (default 42)")
    parser.add_argument("--workers", type=int, default=-1,
                        help="processes: -1 all cores (default), 1 this process only")
    parser.add_argument("--out", type=Path, default=Path("results"),
                        help="output folder (default results/)")
    return parser


def row_seeds(seed: int, count: int) -> list[np.random.SeedSequence]:
    """One independent child SeedSequence per table row, never ``seed + i``."""
    if seed < 0:
        raise ValueError(f"seed ({seed}) must be non-negative")
    return np.random.SeedSequence(seed).spawn(count)


def exact_in_interval(frame):
    """Whether each row's exact value lies in its Monte Carlo interval."""
    return (frame["ci_low"] <= frame["exact"]) & (frame["exact"] <= frame["ci_high"])


def board_slug(board: Board) -> str:
    """File-name form of a board: ``30x16/99`` becomes ``30x16-99``."""
    return str(board).replace("/", "-")


@contextlib.contextmanager
def worker_map(workers: int, *, click):
    """Yield a map-like callable for `simulate_opening`'s ``workers``: one pool per script.

    The kernels that simulations with this ``click`` (``"centre"``, or None for all
    positions) use are loaded in this process before the pool forks: compiled on
    the first run, read from numba's disk cache afterwards.
    """
    for rule in RULES:
        simulate_opening(Board(3, 3, 0), rule=rule, n=1, click=click, rng=0, workers=1)
    if workers == 1:
        yield map
        return
    if workers != -1 and workers < 1:
        raise ValueError(f"workers ({workers}) must be -1 (all cores) or at least 1")
    with ProcessPoolExecutor(max_workers=None if workers == -1 else workers) as pool:
        yield pool.map
