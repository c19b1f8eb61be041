"""What the experiment scripts share: options, seeds per row, one worker pool, timing.

Every script takes ``--seed``, ``--workers``, ``--scheduler`` and ``--out``. ``--seed S``
is the root of the whole project: the script draws from its own stream, child ``k`` of ``S``
(`minestats.reproduction.registry.Experiment.stream`), so two experiments never draw the
same boards, and ``args.seed`` holds that stream's label ``"S/k"``. Each row of its
table (a board and rule) draws from its own child of the stream, spawned once for the
whole table, and records that child's label (``"42/1/3"`` is row 3 of experiment 1 under
seed 42); any such label, passed back as a seed, repeats the row. One process pool
serves the whole script, created after the compiled kernels are loaded so the forked
workers inherit them instead of loading them again. With ``--scheduler ADDRESS`` (or
``DASK_SCHEDULER_ADDRESS``) ``args.workers`` is a client of that Dask cluster instead,
connected once for the whole script; the chunks run there, the files are written here.
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import json
import os
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd

from minestats.drivers.opening_simulation import simulate_opening
from minestats.foundations.board import Board
from minestats.foundations.rules import RULE_TABLE
from minestats.foundations.seeds import as_seed_sequence, seed_from_text
from minestats.foundations.validation import DEFAULT_CONFIDENCE_LEVEL
from minestats.io.result_files import sidecar_path
from minestats.reproduction.registry import experiment as registered
from minestats.runs.chunks import check_workers, chunk_seeds, process_pool
from minestats.runs.cluster import connect_scheduler, is_dask_client
from minestats.runs.store import ChunkStore
from minestats.stats import format_p_value, simultaneous_intervals

__all__ = [
    "PAPER_POLICIES",
    "PAPER_RULES",
    "SYMMETRIC_RULES",
    "base_parser",
    "board_slug",
    "describe_extremes",
    "exact_in_interval",
    "PAIRED_METHODS",
    "format_classes",
    "format_pairs",
    "format_proportion",
    "p_text",
    "parallelism",
    "recorded_workers",
    "row_seeds",
    "worker_map",
    "worker_pool",
]

PAPER_RULES = ("uniform", "safe-click", "safe-opening", "winxp")
"""The rules the committed tables measure, in the order they list them.

Named here rather than read from `minestats.foundations.rules.RULES`, so that a rule
added to the package's table enters no committed experiment (nor shifts its streams)
until an experiment names it.
"""
PAPER_POLICIES = ("safest", "best")
"""The policies the committed tables measure, weakest first (as `PAPER_RULES`)."""


class _ExperimentParser(argparse.ArgumentParser):
    """An ArgumentParser that turns ``--seed S`` into the experiment's stream ``"S/k"``."""

    def __init__(self, description: str, experiment: str):
        super().__init__(description=description)
        self.stream = registered(experiment).stream

    def parse_args(self, args=None, namespace=None):
        parsed = super().parse_args(args, namespace)
        parsed.root_seed = parsed.seed
        parsed.seed = f"{parsed.seed}/{self.stream}"
        if parsed.scheduler:
            try:
                parsed.workers = connect_scheduler(parsed.scheduler)
            except ValueError as error:
                self.error(str(error))
            atexit.register(parsed.workers.close)
        return parsed


def _root_seed(text: str) -> int | str:
    try:
        seed = seed_from_text(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    if isinstance(seed, str) and "/" in seed:
        raise argparse.ArgumentTypeError(f"root seed ({seed}) must not contain '/'")
    return seed


def base_parser(description: str, *, experiment: str) -> argparse.ArgumentParser:
    """Command-line options every experiment takes: seed, workers, output folder.

    ``experiment`` names the script (an experiment of
    `minestats.reproduction.registry.EXPERIMENTS`); after parsing, ``args.seed`` is its
    stream's label ``"S/k"`` and ``args.root_seed`` the ``--seed S`` given.
    """
    parser = _ExperimentParser(description, experiment)
    parser.add_argument("--seed", type=_root_seed, default=42,
                        help="root seed S of every experiment: this one draws from its own "
                             f"child S/{parser.stream}, row i from S/{parser.stream}/i "
                             "(default 42)")
    parser.add_argument("--workers", type=int, default=-1,
                        help="processes: -1 all cores (default), 1 this process only")
    parser.add_argument("--scheduler", default=os.environ.get("DASK_SCHEDULER_ADDRESS"),
                        metavar="ADDRESS",
                        help="Dask scheduler address (default $DASK_SCHEDULER_ADDRESS): run "
                             "the chunks on that cluster instead of --workers processes")
    parser.add_argument("--out", type=Path, default=Path("results"),
                        help="output folder (default results/)")
    return parser


def row_seeds(seed, count: int) -> list[np.random.SeedSequence]:
    """One independent child SeedSequence per table row, never ``seed + i``.

    ``seed`` is any seed of the library, normally an experiment's stream label
    ``"S/k"``: row ``i`` then records the label ``"S/k/i"``.
    """
    return list(chunk_seeds(as_seed_sequence(seed), count))


def exact_in_interval(frame):
    """Whether each row's exact value lies in its Monte Carlo interval."""
    return (frame["ci_low"] <= frame["exact"]) & (frame["exact"] <= frame["ci_high"])


def board_slug(board: Board) -> str:
    """File-name form of a board: ``30x16/99`` becomes ``30x16-99``."""
    return str(board).replace("/", "-")


def recorded_workers(args) -> int | str:
    """Return what a sidecar records of the workers: their count, or the Dask scheduler."""
    return f"dask {args.scheduler}" if args.scheduler else args.workers


def parallelism(workers) -> int:
    """Return how many chunks ``workers`` (a count or a Dask client) runs at once."""
    if is_dask_client(workers):
        return max(sum(workers.nthreads().values()), 1)
    return check_workers(workers)


@contextlib.contextmanager
def worker_pool(workers, *, warm_up: Callable[[], object]):
    """Yield what to pass as the library's ``workers``: one pool per script, or the cluster.

    ``warm_up()`` runs first, in this process, so the compiled kernels it touches
    are loaded (compiled on the first run, read from numba's disk cache afterwards)
    before the pool forks and its workers inherit them. Every sweep of the script
    then shares that pool. A Dask client (``--scheduler``) is yielded as it is: the
    library warms each worker before its first chunk.
    """
    if is_dask_client(workers):
        yield workers
        return
    count = check_workers(workers)
    warm_up()
    if workers == 1:
        yield map
        return
    # process_pool: the workers exit with the script, even when it is killed with -9
    with process_pool(count) as pool:
        yield pool


def worker_map(workers: int, *, click):
    """`worker_pool` warmed up for `simulate_opening` with this ``click``.

    ``click`` is ``"centre"``, or None for all positions at once.
    """
    def warm_up():
        for rule in PAPER_RULES:
            simulate_opening(Board(3, 3, 0), rule=rule, n=1, click=click, seed=0, workers=1)

    return worker_pool(workers, warm_up=warm_up)


def source_metadata(path: Path) -> dict | None:
    """Return what an input table's sidecar says about how it was made (None if it has none).

    For the scripts that read another's table rather than draw (``pass_rate_fits``,
    ``win_rates_published``): their sidecar records where their input came from.
    """
    sidecar = sidecar_path(path)
    if not sidecar.is_file():
        return None
    recorded = json.loads(sidecar.read_text())
    return {key: recorded.get(key) for key in ("seed", "n", "chunk_size", "git_revision",
                                               "timestamp_utc", "command")}


def add_store_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--store``, the chunk store (SQLite) that makes a long run resumable."""
    parser.add_argument("--store", type=Path, default=None,
                        help="chunk store (SQLite) that makes the run resumable")


def open_store(path) -> ChunkStore | None:
    """Return the chunk store at ``path`` (``--store``), or None when none was given."""
    return None if path is None else ChunkStore(path)


def store_metadata(store) -> dict:
    """Return what a sidecar records of a run's chunk store: chunks read back and computed.

    ``wall_time_s`` times one invocation; a run resumed from its store reads most
    of its chunks back, so its wall time is that of the chunks it computed. Empty
    without a store (every chunk computed).

    Examples
    --------
    >>> store_metadata(None)
    {}
    """
    if store is None:
        return {}
    return {"store": {"chunks_read_back": store.reused, "chunks_computed": store.written}}


def p_text(p_value, *, digits: int = 3) -> str:
    """``"p = 0.0123"``, or ``"p < 1e-10"`` below the floor (`minestats.stats.format_p_value`)."""
    text = format_p_value(p_value, digits=digits)
    return f"p {text}" if text.startswith("<") else f"p = {text}"


def format_proportion(successes: int, n: int, low: float, high: float, seed, *,
                      digits: int = 4) -> str:
    """One estimate as printed everywhere: value, Wilson interval, n and seed."""
    return (f"{successes / n:.{digits}f} [{low:.{digits}f}, {high:.{digits}f}] "
            f"({successes:,}/{n:,}, seed {seed})")


PAIRED_METHODS = {
    "interval": "Newcombe (1998) method 10 for paired proportions "
                "(minestats.stats.paired_difference_interval); unpaired: Newcombe's "
                "independent-samples interval at the same n",
    "test": "McNemar exact (statsmodels mcnemar, exact=True)",
}
"""How a paired table's rows (`minestats.Comparison.to_frame`) were judged, for its sidecar."""


def format_pairs(paired: pd.DataFrame, *, setting: Callable, later_minus_earlier=False,
                 p_digits: int = 3) -> list[str]:
    """Print lines for a paired table: both rates, the paired difference and what pairing saved.

    ``paired`` has the columns of `minestats.Comparison.to_frame` and ``holm_reject``;
    ``setting(row)`` names a row's board, rule and click. Each line shows first minus
    second, or with ``later_minus_earlier`` second minus first (a policy table lists
    the stronger contender second), with its Newcombe paired interval, the discordant
    counts, the seed, the width against the unpaired interval and McNemar's p.
    """
    lines = []
    for row in paired.itertuples():
        sign = -1 if later_minus_earlier else 1
        names = (row.second, row.first) if later_minus_earlier else (row.first, row.second)
        rates = ((row.second_rate, row.first_rate) if later_minus_earlier
                 else (row.first_rate, row.second_rate))
        low, high = sorted((sign * row.difference_ci_low, sign * row.difference_ci_high))
        verdict = "differ" if row.holm_reject else "no difference shown"
        lines.append(
            f"  {setting(row)} {names[0]} - {names[1]}: {rates[0]:.4f} - {rates[1]:.4f} = "
            f"{sign * row.difference:+.4f} [{low:+.4f}, {high:+.4f}] (n = {row.n:,}; only "
            f"{row.first} {row.first_only:,}, only {row.second} {row.second_only:,}; seed "
            f"{row.seed}); width x{row.width_ratio:.2f} of unpaired, "
            f"{p_text(row.mcnemar_p, digits=p_digits)}: {verdict}")
    return lines


SYMMETRIC_RULES = tuple(rule for rule in PAPER_RULES if RULE_TABLE[rule].symmetric)
"""The rules every reflection of the board leaves unchanged (winxp favours the top-left)."""


def format_classes(table: pd.DataFrame, rate: str) -> list[str]:
    """Print lines for `pool_by_click_class`: each class, then the test between them."""
    lines = []
    for row in table.itertuples():
        test = (f"chi-square {row.chi2:.2f} on {row.df} df, {p_text(row.p_value)}"
                if row.df > 0 else "one cell: no test")
        what = {"between classes": "the classes share one rate",
                "within symmetry orbits": "cells that symmetry makes equal are equal"}.get(
                    row.cell_class, "its cells share one rate")
        lines.append(f"  {row.cell_class:22} {row.cells:3} cells: {getattr(row, rate):.4f} "
                     f"[{row.ci_low:.4f}, {row.ci_high:.4f}] ({row.successes:,}/{row.n:,}); "
                     f"{what}? {test}")
    return lines


def describe_extremes(rows: pd.DataFrame, rate: str, *, which=("lowest", "highest"),
                      confidence_level=DEFAULT_CONFIDENCE_LEVEL) -> list[str]:
    """Print lines for the lowest and highest cell, with Bonferroni-adjusted intervals.

    A cell picked as the lowest or highest of ``m`` is not an ordinary estimate; its
    interval is widened to confidence ``1 - (1 - level) / m``
    (`minestats.stats.simultaneous_intervals`), so that all ``m`` intervals hold together
    with probability ``level`` and the picked one with it.
    ``which`` picks the lines, ``"lowest"`` and/or ``"highest"``.
    """
    rows = simultaneous_intervals(rows, confidence_level=confidence_level)
    lines = []
    for name in which:
        row = rows.loc[rows[rate].idxmin() if name == "lowest" else rows[rate].idxmax()]
        lines.append(f"  {name + ' cell':16} at ({row.click_x}, {row.click_y}): "
                     + format_proportion(row.successes, row.n, row.simultaneous_ci_low,
                                         row.simultaneous_ci_high, row.seed)
                     + f" [Bonferroni-adjusted: {row.simultaneous_level:.5f} Wilson, over "
                       f"{len(rows)} cells]")
    return lines
