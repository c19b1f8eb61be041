"""What the experiment scripts share: options, seeds per row, one worker pool, timing.

Every script takes ``--seed``, ``--workers`` and ``--out``. ``--seed S`` is the root of
the whole project: the script draws from its own stream, child ``k`` of ``S``
(`minestats.reproduction.registry.Experiment.stream`), so two experiments never draw the
same boards, and ``args.seed`` holds that stream's label ``"S/k"``. Each row of its
table (a board and rule) draws from its own child of the stream, spawned once for the
whole table, and records that child's label (``"42/1/3"`` is row 3 of experiment 1 under
seed 42); any such label, passed back as a seed, repeats the row. One process pool
serves the whole script, created after the compiled kernels are loaded so the forked
workers inherit them instead of loading them again.
"""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd

from minestats.drivers.opening_simulation import simulate_opening
from minestats.drivers.pass_rates import pass_rate, pass_rate_sweep
from minestats.foundations.board import Board
from minestats.foundations.seeds import as_seed_sequence, seed_from_text
from minestats.foundations.validation import DEFAULT_CONFIDENCE_LEVEL
from minestats.mechanics.rules import RULES
from minestats.reproduction.registry import experiment as registered
from minestats.runs.chunks import check_workers, chunk_seeds, process_pool
from minestats.stats import format_p_value, homogeneity_test, wilson_interval

__all__ = [
    "CLICK_CLASSES",
    "SYMMETRIC_RULES",
    "base_parser",
    "board_slug",
    "click_class",
    "click_orbit",
    "describe_extremes",
    "exact_in_interval",
    "format_classes",
    "format_proportion",
    "orbit_test",
    "p_text",
    "pass_rate_groups",
    "pool_by_click_class",
    "pool_by_orbit",
    "row_seeds",
    "solver_pool",
    "worker_map",
    "worker_pool",
]


class _ExperimentParser(argparse.ArgumentParser):
    """An ArgumentParser that turns ``--seed S`` into the experiment's stream ``"S/k"``."""

    def __init__(self, description: str, experiment: str):
        super().__init__(description=description)
        self.stream = registered(experiment).stream

    def parse_args(self, args=None, namespace=None):
        parsed = super().parse_args(args, namespace)
        parsed.root_seed = parsed.seed
        parsed.seed = f"{parsed.seed}/{self.stream}"
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


@contextlib.contextmanager
def worker_pool(workers: int, *, warm_up: Callable[[], object]):
    """Yield a map-like callable for the library's ``workers``: one pool per script.

    ``warm_up()`` runs first, in this process, so the compiled kernels it touches
    are loaded (compiled on the first run, read from numba's disk cache afterwards)
    before the pool forks and its workers inherit them.
    """
    count = check_workers(workers)
    warm_up()
    if workers == 1:
        yield map
        return
    # process_pool: the workers exit with the script, even when it is killed with -9
    with process_pool(count) as pool:
        yield pool.map


def worker_map(workers: int, *, click):
    """`worker_pool` warmed up for `simulate_opening` with this ``click``.

    ``click`` is ``"centre"``, or None for all positions at once.
    """
    def warm_up():
        for rule in RULES:
            simulate_opening(Board(3, 3, 0), rule=rule, n=1, click=click, seed=0, workers=1)

    return worker_pool(workers, warm_up=warm_up)


def solver_pool(workers: int):
    """`worker_pool` warmed up for `pass_rate`: every rule's sampler and every solver."""
    def warm_up():
        for rule in RULES:
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


def p_text(p_value, *, digits: int = 3) -> str:
    """``"p = 0.0123"``, or ``"p < 1e-10"`` below the floor (`minestats.stats.format_p_value`)."""
    text = format_p_value(p_value, digits=digits)
    return f"p {text}" if text.startswith("<") else f"p = {text}"


def format_proportion(successes: int, n: int, low: float, high: float, seed, *,
                      digits: int = 4) -> str:
    """One estimate as printed everywhere: value, Wilson interval, n and seed."""
    return (f"{successes / n:.{digits}f} [{low:.{digits}f}, {high:.{digits}f}] "
            f"({successes:,}/{n:,}, seed {seed})")


CLICK_CLASSES = ("corner", "edge next to a corner", "edge", "interior")
SYMMETRIC_RULES = tuple(rule for rule in RULES if rule != "winxp")
"""The rules every reflection of the board leaves unchanged (winxp favours the top-left)."""


def click_class(board: Board, x: int, y: int) -> str:
    """Where a click lies: a corner, an edge cell beside a corner, another edge cell, inside.

    A descriptive grouping, not a symmetry class: ``edge`` holds cells 2 or more steps
    from a corner and ``interior`` cells of every depth, which no symmetry makes equal,
    so a class's homogeneity test asks whether depth matters there. Cells that must be
    equal are those of one `click_orbit`.
    """
    on_x, on_y = x in (0, board.width - 1), y in (0, board.height - 1)
    if on_x and on_y:
        return "corner"
    if on_x or on_y:
        along = min(y, board.height - 1 - y) if on_x else min(x, board.width - 1 - x)
        return "edge next to a corner" if along == 1 else "edge"
    return "interior"


def click_orbit(board: Board, x: int, y: int) -> tuple[int, int]:
    """Return the symmetry orbit of a click: its distances from the nearest side and end.

    Reflections of the board (and, on a square board, its transposition) map a cell
    to every cell of its orbit; under a rule that they leave unchanged (every rule but
    ``winxp``, which favours the top-left) those cells have one rate, so a difference
    within an orbit is an error of the simulation, not a fact about Minesweeper.
    """
    a, b = min(x, board.width - 1 - x), min(y, board.height - 1 - y)
    return tuple(sorted((a, b))) if board.width == board.height else (a, b)


def pool_by_click_class(board: Board, rows: pd.DataFrame, rate: str, *,
                        confidence_level=DEFAULT_CONFIDENCE_LEVEL) -> pd.DataFrame:
    """One map's cells pooled by `click_class`, each class tested for one common rate.

    ``rows`` has one row per cell (``click_x``, ``click_y``, ``successes``, ``n``).
    Returns one row per class present (cells, pooled n and successes, the pooled
    ``rate`` with its Wilson interval, and Pearson's chi-square test that the class's
    cells share one rate: ``chi2``, ``df``, ``p_value``), then a row ``between
    classes``: every cell pooled, and the test that the classes share one rate, then a
    row ``within symmetry orbits``: `orbit_test`, the check that cells symmetry makes
    equal are (meaningful only under a rule the reflections leave unchanged).
    """
    classes = [click_class(board, x, y) for x, y in zip(rows["click_x"], rows["click_y"],
                                                         strict=True)]
    grouped = rows.assign(cell_class=classes).groupby("cell_class", sort=False)
    pooled = []
    for name in CLICK_CLASSES:
        if name not in grouped.groups:
            continue
        cells = grouped.get_group(name)
        test = (homogeneity_test(cells["successes"], cells["n"]) if len(cells) > 1
                else (float("nan"), 0, float("nan")))
        pooled.append({"cell_class": name, "cells": len(cells),
                       "successes": int(cells["successes"].sum()), "n": int(cells["n"].sum()),
                       "chi2": test[0], "df": test[1], "p_value": test[2]})
    table = pd.DataFrame(pooled)
    between = homogeneity_test(table["successes"], table["n"])
    table.loc[len(table)] = {"cell_class": "between classes", "cells": len(rows),
                             "successes": int(table["successes"].sum()),
                             "n": int(table["n"].sum()), "chi2": between.statistic,
                             "df": between.df, "p_value": between.p_value}
    table.loc[len(table)] = {"cell_class": "within symmetry orbits", "cells": len(rows),
                             "successes": int(table["successes"].iloc[-1]),
                             "n": int(table["n"].iloc[-1]),
                             **dict(zip(("chi2", "df", "p_value"),
                                        orbit_test(board, rows), strict=True))}
    table[rate] = table["successes"] / table["n"]
    table["ci_low"], table["ci_high"] = wilson_interval(
        table["successes"].to_numpy(), table["n"].to_numpy(), confidence_level=confidence_level)
    table["confidence_level"] = confidence_level
    return table[["cell_class", "cells", "n", "successes", rate, "ci_low", "ci_high",
                  "confidence_level", "chi2", "df", "p_value"]]


def pool_by_orbit(board: Board, rows: pd.DataFrame, rate: str, *,
                  confidence_level=DEFAULT_CONFIDENCE_LEVEL) -> pd.DataFrame:
    """One map's cells pooled by `click_orbit`, each orbit with its Wilson interval.

    Under a rule every reflection leaves unchanged, the cells of an orbit share one
    rate, so their pooled count estimates it with the games of all of them (the
    check that they do share it is `orbit_test`). ``rows`` has one row per cell
    (``click_x``, ``click_y``, ``successes``, ``n``, ``seed``: the cells of one map,
    whose seeds are children of the map's). Returns one row per orbit, named by its
    cell in the top-left quarter (``orbit_x``, ``orbit_y``): cells, pooled n and
    successes, the pooled ``rate``, its Wilson interval and half-width, and the
    map's seed.
    """
    orbits = [click_orbit(board, x, y) for x, y in zip(rows["click_x"], rows["click_y"],
                                                        strict=True)]
    maps = {str(seed).rsplit("/", 1)[0] for seed in rows["seed"]}
    if len(maps) != 1:
        raise ValueError(f"rows come from {len(maps)} maps ({sorted(maps)}), not one")
    table = (rows.assign(orbit_x=[a for a, _ in orbits], orbit_y=[b for _, b in orbits])
             .groupby(["orbit_x", "orbit_y"], as_index=False)
             .agg(cells=("successes", "size"), n=("n", "sum"), successes=("successes", "sum")))
    table[rate] = table["successes"] / table["n"]
    table["ci_low"], table["ci_high"] = wilson_interval(
        table["successes"].to_numpy(), table["n"].to_numpy(), confidence_level=confidence_level)
    table["half_width"] = (table["ci_high"] - table["ci_low"]) / 2
    table["confidence_level"] = confidence_level
    table["seed"] = maps.pop()
    return table


def orbit_test(board: Board, rows: pd.DataFrame) -> tuple[float, int, float]:
    """Chi-square test that the cells of every `click_orbit` share their orbit's rate.

    Each orbit of two or more cells gives Pearson's homogeneity statistic on
    ``cells - 1`` df; the orbits hold disjoint cells drawn from independent seeds,
    so the statistics add to one chi-square on the summed df. Returns
    ``(statistic, df, p_value)``.
    """
    from scipy.stats import chi2

    orbits = [click_orbit(board, x, y) for x, y in zip(rows["click_x"], rows["click_y"],
                                                        strict=True)]
    statistic, df = 0.0, 0
    for _, cells in rows.assign(orbit=orbits).groupby("orbit"):
        if len(cells) > 1:
            test = homogeneity_test(cells["successes"], cells["n"])
            statistic, df = statistic + test.statistic, df + test.df
    return statistic, df, float(chi2.sf(statistic, df)) if df else float("nan")


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
    interval is widened to confidence ``1 - (1 - level) / m``, so that all ``m``
    intervals hold together with probability ``level`` and the picked one with it.
    ``which`` picks the lines, ``"lowest"`` and/or ``"highest"``.
    """
    level = 1 - (1 - confidence_level) / len(rows)
    lines = []
    for name in which:
        row = rows.loc[rows[rate].idxmin() if name == "lowest" else rows[rate].idxmax()]
        low, high = wilson_interval(int(row.successes), int(row.n), confidence_level=level)
        lines.append(f"  {name + ' cell':16} at ({row.click_x}, {row.click_y}): "
                     + format_proportion(row.successes, row.n, low, high, row.seed)
                     + f" [Bonferroni-adjusted: {level:.5f} Wilson, over {len(rows)} cells]")
    return lines
