"""Win rate of each policy against mine density on 16x16 and 30x16, safe first click at the corner.

For each board and mine count in ``--densities`` (as a share of the cells, rounded
to whole mines), ``--n`` games per policy. Row i (board, density, policy in that
order) draws from child i of the stream ``--seed/k`` (``common``).

Writes ``<out>/win_rate_by_density.csv`` and ``<out>/win_rate_by_density.png``
(one panel per board; the shading around each policy's curve joins the 95% Wilson
intervals of its points, one interval per point, not a band holding for the whole
curve at once, and the figure says so), each with its ``.json`` sidecar.
"""

from __future__ import annotations

import time

import pandas as pd

from minestats.drivers.win_rates import win_rate_sweep
from minestats.experiments.common import PAPER_POLICIES, base_parser, recorded_workers
from minestats.figures.plots import plot_proportion_bands
from minestats.foundations.board import Board
from minestats.foundations.validation import DEFAULT_CONFIDENCE_LEVEL
from minestats.io.result_files import collect_metadata, write_csv, write_figure

SIZES = ((16, 16), (30, 16))
DENSITIES = (0.08, 0.12, 0.156, 0.18, 0.206, 0.24)
CHUNK_SIZE = 50


def simulate_table(*, seed, n, densities, workers) -> pd.DataFrame:
    grid = [{"board": Board(width, height, round(density * width * height)),
             "rule": "safe-click", "click": (0, 0), "policy": policy}
            for width, height in SIZES for density in densities for policy in PAPER_POLICIES]
    table = win_rate_sweep(grid, n=n, seed=seed, chunk_size=CHUNK_SIZE, workers=workers)
    table["size"] = table["width"].astype(str) + "x" + table["height"].astype(str)
    return table


def main(argv=None):
    start = time.perf_counter()
    parser = base_parser(__doc__.splitlines()[0], experiment="win_rate_by_density")
    parser.add_argument("--n", type=int, default=100, help="games per row (default 100)")
    parser.add_argument("--densities", type=float, nargs="+", default=list(DENSITIES),
                        help="mine densities (share of the cells)")
    args = parser.parse_args(argv)
    table = simulate_table(seed=args.seed, n=args.n, densities=args.densities,
                           workers=args.workers)
    metadata = collect_metadata(seed=args.seed, n=args.n, chunk_size=CHUNK_SIZE,
                                wall_time_s=time.perf_counter() - start,
                                extra={"rule": "safe-click", "click": [0, 0],
                                       "workers": recorded_workers(args)})
    path = write_csv(table, args.out / "win_rate_by_density.csv", metadata=metadata)
    figure = plot_proportion_bands(
        table, x="density", series="policy", y="win_rate",
        panel="size", title=f"Win rate by mine density, safe first click at the corner\n"
                            f"n = {args.n:,} games per point, seed {args.seed}; shaded: "
                            f"{DEFAULT_CONFIDENCE_LEVEL:.0%} Wilson interval of each point",
        xlabel="mine density", ylabel="P(win)")
    png, _ = write_figure(figure, args.out / "win_rate_by_density.png", metadata=metadata)
    print(f"Win rate by density (n = {args.n:,} per row, seed stream {args.seed}, row i = "
          "child i; 95% Wilson intervals)")
    for row in table.itertuples():
        print(f"  {row.board:10} {row.policy:7} {row.win_rate:.4f} [{row.ci_low:.4f}, "
              f"{row.ci_high:.4f}] ({row.successes:,}/{row.n:,}, seed {row.seed})")
    print(f"Wrote {path}, {png} and their sidecars; {time.perf_counter() - start:.1f} s wall")


if __name__ == "__main__":
    main()
