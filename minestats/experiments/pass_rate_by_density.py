"""Pass rate against mine density on 16x16 and 30x16 boards, for three solvers.

Rule ``safe-opening``, centre click. Densities 0.05 to 0.30 in steps of 0.025; the
mine count is ``round(density * cells)`` and the table records the actual density
``mines / cells``. Solvers ``single-point``, ``subset`` and ``logic`` (the last two
with the mine count). Boards per point: ``--n-single-point`` (default 20,000) for
single-point and ``--n`` (default 5,000) for subset and logic, so the script runs
in a couple of minutes on two cores. The solvers are three groups of rows: group
``i`` draws from child ``i`` of the stream ``--seed/k`` (``common``) and row ``j`` in it from
child ``j`` of that (seed label ``"42/k/i/j"``). Every pass rate has a 95% Wilson
interval, shaded in the figure.

Writes ``<out>/pass_rate_by_density.csv`` and ``<out>/pass_rate_by_density.png``,
each with its ``.json`` sidecar.

Usage: ``python -m minestats.experiments.pass_rate_by_density [--seed 42] [--n 5000]
[--n-single-point 20000] [--workers -1] [--out results]``
"""

from __future__ import annotations

import time

import numpy as np
import pandas as pd

from minestats.experiments.common import (
    base_parser,
    recorded_workers,
)
from minestats.experiments.pass_rate_runs import pass_rate_groups, solver_pool
from minestats.figures.plots import plot_proportion_bands
from minestats.foundations.board import Board
from minestats.foundations.validation import DEFAULT_CONFIDENCE_LEVEL
from minestats.io.result_files import collect_metadata, write_csv, write_figure

SIZES = ((16, 16), (30, 16))
DENSITIES = np.round(np.arange(0.05, 0.30 + 1e-9, 0.025), 3)
SOLVERS = ("single-point", "subset", "logic")
CHUNK_SIZE = 1_000
CONFIDENCE_LEVEL = DEFAULT_CONFIDENCE_LEVEL


def boards() -> list[Board]:
    """Every board of the sweep: each size at each density, mines rounded."""
    return [Board(width, height, round(density * width * height))
            for width, height in SIZES for density in DENSITIES]


def simulate_table(*, seed, n, n_single_point, workers) -> pd.DataFrame:
    """One row per solver, board size and density."""
    groups = [([{"board": board, "solver": solver,
                 "use_mine_count": solver != "single-point"} for board in boards()],
               n_single_point if solver == "single-point" else n)
              for solver in SOLVERS]
    with solver_pool(workers) as pool_map:
        table = pass_rate_groups(groups, seed=seed, chunk_size=CHUNK_SIZE, pool_map=pool_map)
    table.insert(1, "size", table["width"].astype(str) + "x" + table["height"].astype(str))
    return table


def main(argv=None):
    start = time.perf_counter()
    parser = base_parser(__doc__.splitlines()[0], experiment="pass_rate_by_density")
    parser.add_argument("--n", type=int, default=5_000,
                        help="boards per subset and logic point (default 5,000)")
    parser.add_argument("--n-single-point", type=int, default=20_000,
                        help="boards per single-point point (default 20,000)")
    args = parser.parse_args(argv)
    table = simulate_table(seed=args.seed, n=args.n, n_single_point=args.n_single_point,
                           workers=args.workers)
    n_by_solver = {solver: args.n_single_point if solver == "single-point" else args.n
                   for solver in SOLVERS}
    metadata = collect_metadata(
        seed=args.seed, n=n_by_solver, chunk_size=CHUNK_SIZE,
        wall_time_s=time.perf_counter() - start,
        extra={"rule": "safe-opening", "click": "centre", "densities": DENSITIES.tolist(),
               "row_seeds": dict(zip(table["board"] + " " + table["solver"], table["seed"],
                                     strict=True)),
               "confidence_level": CONFIDENCE_LEVEL, "workers": recorded_workers(args)})
    path = write_csv(table, args.out / "pass_rate_by_density.csv", metadata=metadata)
    figure = plot_proportion_bands(
        table.assign(size=table["size"] + " board"), x="density", series="solver",
        panel="size", xlabel="mine density (mines / cells)",
        ylabel="pass rate (no guessing), 95% Wilson band",
        title=f"Pass rate against mine density, rule safe-opening, centre click\n"
              f"n = {args.n_single_point:,} boards per single-point point, {args.n:,} per "
              f"subset and logic point; seed {args.seed}")
    png, _ = write_figure(figure, args.out / "pass_rate_by_density.png", metadata=metadata)

    print(f"Pass rate against mine density, rule safe-opening, centre click; "
          f"{CONFIDENCE_LEVEL:.0%} Wilson intervals; n per point {n_by_solver}; root seed "
          f"{args.seed} (solver group i, point j: seed {args.seed}/i/j)")
    for size, rows in table.groupby("size", sort=False):
        print(f"\n{size}: pass rate [95% Wilson] (n, seed) by density and solver")
        for board, points in rows.groupby("board", sort=False):
            cells = [f"{point.solver} {point.pass_rate:.3f} [{point.ci_low:.3f}, "
                     f"{point.ci_high:.3f}] ({point.n:,}, {point.seed})"
                     for point in points.itertuples()]
            print(f"  {board:9} density {points['density'].iloc[0]:.4f}: " + "; ".join(cells))
    capped = table[table["capped"] > 0]
    print("\nCapped logic boards: " + ("none" if capped.empty else ", ".join(
        f"{row.board} {row.capped}/{row.n}" for row in capped.itertuples())))
    print(f"Wrote {path}, {png} and their sidecars; {time.perf_counter() - start:.1f} s wall")


if __name__ == "__main__":
    main()
