"""Logic-solver pass rate for every first-click position, on 9x9/10 and 16x16/40.

Rule ``safe-click`` (only the clicked cell is protected, so where the click lands
decides whether it opens), solver ``logic`` with the mine count. Boards per click
position: ``--n`` (default 4,000) on 9x9/10 and ``--n-intermediate`` (default 2,000)
on 16x16/40, about 3 minutes of one core in all; the resulting 95% Wilson
half-widths (at most about 0.016 and 0.022) are printed. Board ``i`` (in the order
above) draws from child ``i`` of the stream ``--seed/k`` (``common``) and its cell with linear
index ``j = x + y * width`` from child ``j`` of that (seed label ``"42/k/i/j"``).

Cells are pooled by where they lie (`minestats.stats.click_class`: corner, edge cell next to
a corner, other edge cell, interior; the rule is symmetric, so cells of one class can
differ only through their distance from the border): each class's pooled pass rate
with its Wilson interval, Pearson's chi-square test that its cells share one rate,
and the test that the classes share one (statistic, df, p), then the orbit test
(`minestats.stats.orbit_test`): cells that a reflection of the board maps onto each other
must share one rate, so its null holds by symmetry and the test checks the
simulation; each map's title gives it (a class test asks a question instead:
whether depth from the border matters). The lowest and highest
single cells are printed only with Bonferroni-adjusted intervals (confidence
1 - 0.05 / cells), since they were picked from many; a colour scale spanning them
mostly shows noise where a class is homogeneous.

Writes ``<out>/pass_rate_by_click.csv`` (one row per board and cell: pass rate,
Wilson interval, n, seed, capped), ``<out>/pass_rate_by_click_classes.csv`` (one row
per board and class, then one for the test between classes) and
``<out>/pass_rate_by_click_<board>.png`` (board as ``9x9-10``), each with its
``.json`` sidecar.

Usage: ``python -m minestats.experiments.pass_rate_by_click [--seed 42] [--n 4000]
[--n-intermediate 2000] [--workers -1] [--out results]``
"""

from __future__ import annotations

import time

import pandas as pd

from minestats.experiments.common import (
    base_parser,
    board_slug,
    describe_extremes,
    format_classes,
    format_proportion,
    p_text,
    recorded_workers,
)
from minestats.experiments.pass_rate_runs import pass_rate_groups, solver_pool
from minestats.figures.plots import plot_probability_map
from minestats.foundations.board import BEGINNER, INTERMEDIATE
from minestats.foundations.validation import DEFAULT_CONFIDENCE_LEVEL
from minestats.io.result_files import collect_metadata, write_csv, write_figure
from minestats.stats import pool_by_click_class

BOARDS = (BEGINNER, INTERMEDIATE)
RULE = "safe-click"
SOLVER = "logic"
CHUNK_SIZE = 1_000
CONFIDENCE_LEVEL = DEFAULT_CONFIDENCE_LEVEL


def simulate_table(*, seed, n_by_board, workers) -> pd.DataFrame:
    """One row per board and click position, in row-major order of the cells."""
    groups = [([{"board": board, "solver": SOLVER, "rule": RULE, "click": (x, y)}
                for y in range(board.height) for x in range(board.width)],
               n_by_board[str(board)])
              for board in BOARDS]
    with solver_pool(workers) as pool_map:
        return pass_rate_groups(groups, seed=seed, chunk_size=CHUNK_SIZE, pool_map=pool_map)


def describe(board, rows: pd.DataFrame) -> list[str]:
    """Centre and corner cells of one board, the picked extremes, and the interval widths."""
    centre = board.resolve_click("centre")
    picks = {f"centre {centre}": rows.index[(rows["click_x"] == centre[0])
                                            & (rows["click_y"] == centre[1])][0],
             "corner (0, 0)": rows.index[(rows["click_x"] == 0) & (rows["click_y"] == 0)][0]}
    lines = []
    for name, index in picks.items():
        row = rows.loc[index]
        lines.append(f"  {name:16} at ({row.click_x}, {row.click_y}): "
                     + format_proportion(row.successes, row.n, row.ci_low, row.ci_high,
                                         row.seed))
    lines += describe_extremes(rows, "pass_rate", confidence_level=CONFIDENCE_LEVEL)
    half = (rows["ci_high"] - rows["ci_low"]) / 2
    lines.append(f"  95% Wilson half-widths over the {len(rows)} cells: median "
                 f"{half.median():.4f}, largest {half.max():.4f}; capped boards "
                 f"{rows['capped'].sum()} of {rows['n'].sum():,}")
    return lines


def class_table(table: pd.DataFrame) -> pd.DataFrame:
    """Every board's cells pooled by class (`minestats.stats.pool_by_click_class`)."""
    return pd.concat([pool_by_click_class(board, table[table["board"] == str(board)],
                                          "pass_rate", confidence_level=CONFIDENCE_LEVEL)
                      .assign(board=str(board)) for board in BOARDS], ignore_index=True)


def main(argv=None):
    start = time.perf_counter()
    parser = base_parser(__doc__.splitlines()[0], experiment="pass_rate_by_click")
    parser.add_argument("--n", type=int, default=4_000,
                        help="boards per click position on 9x9/10 (default 4,000)")
    parser.add_argument("--n-intermediate", type=int, default=2_000,
                        help="boards per click position on 16x16/40 (default 2,000)")
    args = parser.parse_args(argv)
    n_by_board = {str(BEGINNER): args.n, str(INTERMEDIATE): args.n_intermediate}
    table = simulate_table(seed=args.seed, n_by_board=n_by_board, workers=args.workers)
    metadata = collect_metadata(
        seed=args.seed, n=n_by_board, chunk_size=CHUNK_SIZE,
        wall_time_s=time.perf_counter() - start,
        extra={"rule": RULE, "solver": SOLVER, "use_mine_count": True,
               "seeds": f"board i, cell j = x + y * width: {args.seed}/i/j",
               "confidence_level": CONFIDENCE_LEVEL, "workers": recorded_workers(args)})
    path = write_csv(table, args.out / "pass_rate_by_click.csv", metadata=metadata)
    classes = class_table(table)
    classes = classes[["board"] + [c for c in classes.columns if c != "board"]]
    classes_path = write_csv(classes, args.out / "pass_rate_by_click_classes.csv",
                             metadata=metadata | {
                                 "classes": "corner; edge next to a corner (one cell along "
                                            "the edge from a corner); edge; interior",
                                 "test": "Pearson chi-square test of homogeneity "
                                         "(scipy chi2_contingency, no Yates correction) of "
                                         "the class's cells; 'between classes': of the "
                                         "pooled classes"},
                             summary=True)
    print(f"Logic-solver pass rate by first-click position, rule {RULE}, mine count used; "
          f"n per cell {n_by_board}; seed stream {args.seed} (board i, cell j: seed "
          f"{args.seed}/i/j); {CONFIDENCE_LEVEL:.0%} Wilson intervals")
    for board in BOARDS:
        rows = table[table["board"] == str(board)]
        pooled = classes[classes["board"] == str(board)].set_index("cell_class")
        grid = rows["pass_rate"].to_numpy().reshape(board.shape)
        half_width = ((rows["ci_high"] - rows["ci_low"]) / 2).max()
        # the title's test is the orbit test, whose null holds by symmetry (see above)
        orbits = pooled.loc["within symmetry orbits"]
        figure = plot_probability_map(
            grid, label=f"P({SOLVER} solver passes); 95% half-width <= {half_width:.3f}",
            title=f"Logic pass rate by first click, {board}, {RULE}\n"
                  f"n = {n_by_board[str(board)]:,} per cell, seed {args.seed}/"
                  f"{BOARDS.index(board)}/(x + {board.width}y)\n"
                  f"cells symmetry makes equal agree? chi-square {orbits.chi2:.1f} on "
                  f"{orbits.df} df, {p_text(orbits.p_value, digits=2)}")
        png, _ = write_figure(figure, args.out / f"pass_rate_by_click_{board_slug(board)}.png",
                              metadata=metadata | {"board": str(board)})
        print(f"\n{board} ({png.name}):")
        print("\n".join(describe(board, rows)))
        print(f"  Pooled by class ({CONFIDENCE_LEVEL:.0%} Wilson), Pearson chi-square "
              "tests of one common rate:")
        print("\n".join(format_classes(pooled.reset_index(), "pass_rate")))
    print(f"\nWrote {path}, {classes_path}, the maps and their sidecars; "
          f"{time.perf_counter() - start:.1f} s wall")


if __name__ == "__main__":
    main()
