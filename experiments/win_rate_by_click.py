"""Win rate of the best policy for every first-click position, 9x9/10 and 16x16/40, each rule.

Where should a player click first, and does Windows XP's relocation move the best
first click? For every rule (``uniform``, ``safe-click``, ``safe-opening``,
``winxp``) and every cell of the board, ``--n`` games (9x9/10) or
``--n-intermediate`` games (16x16/40) of policy ``best`` from that click
(``--rules`` maps only some rules). Rule
``safe-opening`` needs the click's 3x3 clear, which every cell allows on these
boards. Board i, rule r draws from child ``k = 4i + r`` of the stream ``--seed/s``
(``common.py``) and its cell ``j = x + y * width`` from child j of that (seed label
``"42/s/k/j"``).

Writes ``<out>/win_rate_by_click.csv`` (one row per board, rule and cell: the shared
columns, win rate, Wilson interval, n, seed), ``<out>/win_rate_by_click_classes.csv``
(each map's cells pooled by class, `common.pool_by_click_class`: corner, edge next to
a corner, edge, interior, each with its pooled win rate, Wilson interval and Pearson's
chi-square test that its cells share one rate, then the test between classes and the
test within symmetry orbits; ``winxp`` is left out, its relocation favouring the
top-left) and one
heat map per board and rule, ``<out>/win_rate_by_click_<board>_<rule>.png``, each
with its ``.json`` sidecar. It prints the classes and their tests, the corner, and
the best cell with a Bonferroni-adjusted interval (confidence 1 - 0.05 / cells),
since it was picked from many. At the default few games per cell the chi-square's
expected counts are small, so its p-values are rough.
"""

from __future__ import annotations

import time

import pandas as pd
from common import (
    SYMMETRIC_RULES,
    base_parser,
    board_slug,
    describe_extremes,
    format_classes,
    format_proportion,
    pool_by_click_class,
    row_seeds,
)

from minestats.board import BEGINNER, INTERMEDIATE
from minestats.io.results import collect_metadata, write_csv, write_figure
from minestats.players import win_rate_sweep
from minestats.plots import plot_probability_map
from minestats.rules import RULES

BOARDS = (BEGINNER, INTERMEDIATE)
POLICY = "best"
CHUNK_SIZE = 50


def simulate_table(*, seed, n_by_board, workers, rules=RULES) -> pd.DataFrame:
    """One row per board, rule and click position, cells in row-major order."""
    pairs = [(board, rule) for board in BOARDS for rule in rules]
    tables = []
    for (board, rule), pair_seed in zip(pairs, row_seeds(seed, len(pairs)), strict=True):
        grid = [{"board": board, "rule": rule, "click": (x, y), "policy": POLICY}
                for y in range(board.height) for x in range(board.width)]
        tables.append(win_rate_sweep(grid, n=n_by_board[str(board)], seed=pair_seed,
                                     chunk_size=CHUNK_SIZE, workers=workers))
    return pd.concat(tables, ignore_index=True)


def main(argv=None):
    start = time.perf_counter()
    parser = base_parser(__doc__.splitlines()[0], experiment="win_rate_by_click")
    parser.add_argument("--n", type=int, default=100,
                        help="games per click position on 9x9/10 (default 100)")
    parser.add_argument("--n-intermediate", type=int, default=20,
                        help="games per click position on 16x16/40 (default 20)")
    parser.add_argument("--rules", nargs="+", default=list(RULES), choices=RULES,
                        help="rules to map (default all four)")
    args = parser.parse_args(argv)
    n_by_board = {str(BEGINNER): args.n, str(INTERMEDIATE): args.n_intermediate}
    table = simulate_table(seed=args.seed, n_by_board=n_by_board, workers=args.workers,
                           rules=args.rules)
    metadata = collect_metadata(seed=args.seed, n=n_by_board, chunk_size=CHUNK_SIZE,
                                wall_time_s=time.perf_counter() - start,
                                extra={"policy": POLICY, "seeds": "board i, rule r, cell j: "
                                       f"{args.seed}/(4i + r)/j", "workers": args.workers})
    path = write_csv(table, args.out / "win_rate_by_click.csv", metadata=metadata)
    symmetric = [rule for rule in args.rules if rule in SYMMETRIC_RULES]
    classes_path = None
    if symmetric:  # winxp alone: nothing to pool
        classes = pd.concat(
            [pool_by_click_class(board, table[(table["board"] == str(board))
                                              & (table["rule"] == rule)], "win_rate")
             .assign(board=str(board), rule=rule) for board in BOARDS for rule in symmetric],
            ignore_index=True)
        classes = classes[["board", "rule"] + [c for c in classes.columns
                                               if c not in ("board", "rule")]]
        classes_path = write_csv(classes, args.out / "win_rate_by_click_classes.csv",
                                 metadata=metadata | {
                                     "test": "Pearson chi-square test of homogeneity (scipy "
                                             "chi2_contingency, no Yates correction)",
                                     "rules": symmetric},
                                 summary=True)
    print(f"Win rate of policy {POLICY} by first click; n per cell {n_by_board}; root seed "
          f"{args.seed}; 95% Wilson intervals")
    for board in BOARDS:
        for rule in args.rules:
            rows = table[(table["board"] == str(board)) & (table["rule"] == rule)]
            grid = rows["win_rate"].to_numpy().reshape(board.shape)
            half = ((rows["ci_high"] - rows["ci_low"]) / 2).max()
            figure = plot_probability_map(
                grid, label=f"P(win), policy {POLICY}; 95% half-width <= {half:.3f}",
                title=f"Win rate by first click, {board}, {rule}\n"
                      f"n = {n_by_board[str(board)]:,} per cell, seed {args.seed}")
            png, _ = write_figure(figure, args.out / f"win_rate_by_click_{board_slug(board)}_"
                                                     f"{rule}.png",
                                  metadata=metadata | {"board": str(board), "rule": rule})
            corner = rows[(rows["click_x"] == 0) & (rows["click_y"] == 0)].iloc[0]
            print(f"  {board} {rule} [{png.name}]: corner (0, 0) "
                  + format_proportion(corner.successes, corner.n, corner.ci_low,
                                      corner.ci_high, corner.seed))
            print("\n".join(describe_extremes(rows, "win_rate", which=("highest",))))
            if rule in SYMMETRIC_RULES:
                print("\n".join(format_classes(
                    classes[(classes["board"] == str(board)) & (classes["rule"] == rule)],
                    "win_rate")))
            else:
                print(f"  not pooled by class: {rule} is not symmetric (it favours the "
                      "top-left), so cells of one class need not share a rate")
    print(f"Wrote {path}, {classes_path or 'no class table'}, the maps and their sidecars; "
          f"{time.perf_counter() - start:.1f} s wall")


if __name__ == "__main__":
    main()
