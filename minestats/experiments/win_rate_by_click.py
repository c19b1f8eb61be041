"""Win rate of the best policy by first click: every cell of 9x9/10 and 16x16/40, Expert's few.

Where should a player click first, and does Windows XP's relocation move the best
first click? Policy ``best`` (its default strategy, which under ``winxp`` weighs the
rule's layouts) plays, from every first click:

- 9x9/10 and 16x16/40, every cell, each rule of ``--rules``: ``--n`` (9x9) and
  ``--n-intermediate`` (16x16) games per cell, or the rule's own pair of sizes
  ``--n-rule RULE N9 N16``. Under the rules every reflection leaves unchanged (all
  but ``winxp``) the cells are also pooled by symmetry orbit (`minestats.stats.click_orbit`:
  up to 8 cells a reflection or, on a square board, a transposition maps onto each
  other, where the rule deals alike; ``best`` breaks ties in the cells' order, which no
  reflection keeps, so a pooled rate is the mean over the orbit's cells, and the test
  within orbits says whether they differ), and by descriptive class
  (`minestats.stats.pool_by_click_class`).
  For such a rule ``--n-orbit RULE N9 N16`` sets the games per orbit instead, shared
  out over its cells (each ``ceil(N / cells)``), so that every orbit's pooled rate
  has about the same half-width: the centre of 9x9, alone in its orbit, plays N.
- 30x16/99 under ``safe-click`` and ``safe-opening``: a handful of first clicks
  (`EXPERT_CLICKS`: the corner, (1, 1), (2, 2), (3, 3), the middle of the top
  edge, the centre), ``--n-expert`` games each, ranked.
- 30x16/99 under ``winxp``, which has no reflection symmetry: a coarse grid
  (`EXPERT_WINXP_CELLS`: columns 0, 5, ..., 25, 29 by rows 0, 5, 10, 15, plus every
  corner's neighbours and the handful above), ``--n-winxp-expert`` games each.
- The best ``winxp`` cell of each board, picked as the highest of its map, against
  the top-left corner: on fresh games (``--n-paired N9 N16 NEXPERT``), with the
  same initial layouts and tie-break seeds for every arm (`minestats.drivers.comparisons.
  compare_clicks`), the arms ``winxp`` at the best cell, ``winxp`` at (0, 0) and
  ``safe-click`` at (0, 0). The cell is selected on the map's games and confirmed on
  others, so the paired difference (Newcombe's interval for paired proportions,
  McNemar's exact p) needs no allowance for the selection. When the corner is
  itself the best, only the two corners are compared.

Seeds: with boards i = 0, 1, 2 (9x9, 16x16, 30x16) and rules r (0 to 3: uniform,
safe-click, safe-opening, winxp), board i and rule r draw from child ``k = 4i + r``
(`MAP_STREAMS`) of the stream ``--seed/s`` (``common``), its cell j from child
j of that (seed label ``"42/11/k/j"``; on 9x9 and 16x16 ``j = x + y * width``, on
30x16 j counts the listed clicks); the paired comparison on board i draws from child
``12 + i``.

Writes to ``--out``, each file with its ``.json`` sidecar:

- ``win_rate_by_click.csv``: one row per board, rule and click (the shared columns,
  win rate, Wilson interval, n, seed), and the interval that holds together with those
  of every cell of its map (`minestats.stats.simultaneous_intervals`,
  Bonferroni over the map's cells);
- ``win_rate_by_click_orbits.csv``: each symmetric map's cells pooled by orbit
  (cells, n, successes, win rate, Wilson interval and its half-width, the map's seed);
- ``win_rate_by_click_classes.csv``: the same maps pooled by class, each class with
  Pearson's chi-square test that its cells share one rate, then the test between
  classes and the test within symmetry orbits;
- ``win_rate_by_click_expert.csv``: the Expert handful, by rule, ranked, each click
  with its Wilson interval and the one that holds together with the rule's other
  clicks' (Bonferroni over the handful: what a ranking needs);
- ``win_rate_by_click_paired.csv``: every pair of arms of each board's paired
  comparison (`minestats.drivers.comparisons.PairedComparison.to_dict`) with the cell's selection;
- a heat map per board and rule, ``win_rate_by_click_<board>_<rule>.png`` (on 30x16
  the ``winxp`` grid, unmapped cells blank).

It prints the classes and their tests, the corner, the best cell with a
Bonferroni-adjusted interval (confidence 1 - 0.05 / cells, since it was picked from
many), the largest half-widths per cell and per orbit, the Expert ranking and the
paired comparisons. At small n the chi-square's expected counts are small, so its
p-values are rough.
"""

from __future__ import annotations

import time
from collections import Counter

import numpy as np
import pandas as pd

from minestats.drivers.comparisons import compare_clicks
from minestats.drivers.win_rates import win_rate, win_rate_sweep
from minestats.experiments.common import (
    PAPER_RULES,
    SYMMETRIC_RULES,
    add_store_option,
    base_parser,
    board_slug,
    describe_extremes,
    format_classes,
    format_proportion,
    open_store,
    p_text,
    recorded_workers,
    row_seeds,
    store_metadata,
    worker_pool,
)
from minestats.figures.plots import plot_probability_map
from minestats.foundations.board import BEGINNER, EXPERT, INTERMEDIATE, Board
from minestats.io.result_files import collect_metadata, write_csv, write_figure
from minestats.stats import (
    click_orbit,
    pool_by_click_class,
    pool_by_orbit,
    simultaneous_intervals,
)

BOARDS = (BEGINNER, INTERMEDIATE)
"""The boards mapped at every cell."""
POLICY = "best"
CORNER = (0, 0)
EXPERT_CLICKS = ((0, 0), (1, 1), (2, 2), (3, 3), (15, 0), (15, 8))
"""Expert's handful of first clicks: corner, the first three diagonal steps, the middle of
the top edge, the centre."""
EXPERT_RULES = ("safe-click", "safe-opening")
"""The rules of the Expert handful (``winxp`` has its own grid)."""


def _expert_winxp_cells() -> tuple[tuple[int, int], ...]:
    """Return the coarse grid, every corner with its neighbours and the handful, row-major."""
    width, height = EXPERT.width, EXPERT.height
    cells = {(x, y) for x in (*range(0, width - 1, 5), width - 1)
             for y in (*range(0, height - 1, 5), height - 1)}
    for corner_x in (0, width - 1):
        for corner_y in (0, height - 1):
            cells |= {(x, y) for x in range(max(corner_x - 1, 0), min(corner_x + 2, width))
                      for y in range(max(corner_y - 1, 0), min(corner_y + 2, height))}
    cells |= set(EXPERT_CLICKS)
    return tuple(sorted(cells, key=lambda cell: (cell[1], cell[0])))


EXPERT_WINXP_CELLS = _expert_winxp_cells()
"""The first clicks of the Expert ``winxp`` map (no symmetry to pool by, so a grid)."""
MAP_STREAMS = {
    ("9x9/10", "uniform"): 0, ("9x9/10", "safe-click"): 1,
    ("9x9/10", "safe-opening"): 2, ("9x9/10", "winxp"): 3,
    ("16x16/40", "uniform"): 4, ("16x16/40", "safe-click"): 5,
    ("16x16/40", "safe-opening"): 6, ("16x16/40", "winxp"): 7,
    ("30x16/99", "uniform"): 8, ("30x16/99", "safe-click"): 9,
    ("30x16/99", "safe-opening"): 10, ("30x16/99", "winxp"): 11,
}
"""The child of the stream each board and rule draws its cells from.

A fixed table, not arithmetic on a rule's place in a list: a rule added later takes
children from 15 on, and every committed stream stays where it is."""
PAIRED_STREAMS = {"9x9/10": 12, "16x16/40": 13, "30x16/99": 14}
"""The child of the stream each board's paired comparison draws from."""
STREAMS = 1 + max((*MAP_STREAMS.values(), *PAIRED_STREAMS.values()))
"""Children of the stream the experiment spawns."""


def map_seed(seeds, board: Board, rule: str):
    """Return the child of the stream that ``board`` under ``rule`` draws from."""
    return seeds[MAP_STREAMS[str(board), rule]]


def simulate_maps(*, seeds, sizes, rules, chunk_size, workers, store) -> pd.DataFrame:
    """One row per board, rule and cell of 9x9/10 and 16x16/40, cells in row-major order.

    ``sizes[(board, rule)]`` lists the games of each cell, row-major (`parse_sizes`).
    """
    tables = []
    for board in BOARDS:
        for rule in rules:
            grid = [{"board": board, "rule": rule, "click": (x, y), "policy": POLICY}
                    for y in range(board.height) for x in range(board.width)]
            tables.append(win_rate_sweep(grid, n=sizes[(str(board), rule)],
                                         seed=map_seed(seeds, board, rule),
                                         chunk_size=chunk_size, workers=workers,
                                         store=store))
    return pd.concat(tables, ignore_index=True)


def simulate_expert(*, seeds, rules, n_expert, n_winxp, chunk_size, workers,
                    store) -> pd.DataFrame:
    """Expert's rows: the handful under ``EXPERT_RULES``, then a grid per asymmetric rule.

    Only the rules in ``rules``; a rule without symmetry (``winxp``) gets the grid.
    """
    plan = [(rule, EXPERT_CLICKS, n_expert) for rule in EXPERT_RULES if rule in rules]
    plan += [(rule, EXPERT_WINXP_CELLS, n_winxp) for rule in rules
             if rule not in SYMMETRIC_RULES]
    tables = [win_rate_sweep([{"board": EXPERT, "rule": rule, "click": click,
                               "policy": POLICY} for click in clicks], n=n,
                             seed=map_seed(seeds, EXPERT, rule), chunk_size=chunk_size,
                             workers=workers, store=store)
              for rule, clicks, n in plan]
    return pd.concat(tables, ignore_index=True) if tables else pd.DataFrame()


def rank_expert(table: pd.DataFrame) -> pd.DataFrame:
    """Rank the Expert handful by rule, highest win rate first (rank 1)."""
    handful = np.array([(x, y) in EXPERT_CLICKS for x, y in zip(table["click_x"],
                                                                 table["click_y"], strict=True)])
    rows = table[(table["board"] == str(EXPERT)).to_numpy() & handful]
    ranked = rows.sort_values(["rule", "win_rate"], ascending=[True, False])
    ranked = ranked.assign(rank=ranked.groupby("rule").cumcount() + 1)
    ranked = simultaneous_intervals(ranked, ["rule"])
    return ranked[["board", "rule", "rank", "click_x", "click_y", "policy", "n", "successes",
                   "win_rate", "ci_low", "ci_high", "confidence_level", "simultaneous_ci_low",
                   "simultaneous_ci_high", "simultaneous_level", "seed"]]


def paired_best_cells(table: pd.DataFrame, *, seeds, n_paired, chunk_size, workers,
                      store) -> pd.DataFrame:
    """Each board's best ``winxp`` cell against the corners, on fresh common games.

    The best cell is the highest of the board's ``winxp`` rows of ``table``; the arms
    are ``winxp`` there, ``winxp`` at the corner and ``safe-click`` at the corner (the
    first two when the corner is the best), on child ``12 + i`` of the stream.
    """
    frames = []
    for index, board in enumerate((*BOARDS, EXPERT)):
        rows = table[(table["board"] == str(board)) & (table["rule"] == "winxp")]
        best = rows.loc[rows["win_rate"].idxmax()]
        cell = (int(best.click_x), int(best.click_y))
        arms = [("winxp", cell)] * (cell != CORNER) + [("winxp", CORNER),
                                                      ("safe-click", CORNER)]
        result = compare_clicks(board, arms, policy=POLICY, n=n_paired[index],
                                seed=seeds[PAIRED_STREAMS[str(board)]], chunk_size=chunk_size,
                                workers=workers, store=store)
        frames.append(result.per_pair().assign(
            best_x=cell[0], best_y=cell[1], selected_from=len(rows),
            selection_seed=best.seed, selection_rate=best.win_rate,
            selection_n=int(best.n)))
    return pd.concat(frames, ignore_index=True)


def orbit_cells(board: Board) -> np.ndarray:
    """Return the size of each cell's orbit (`minestats.stats.click_orbit`), shape of the board."""
    orbits = [click_orbit(board, x, y) for y in range(board.height) for x in range(board.width)]
    sizes = Counter(orbits)
    return np.array([sizes[orbit] for orbit in orbits]).reshape(board.shape)


def parse_sizes(parser, args) -> dict:
    """Return the games of every cell of each mapped (board, rule), row-major lists.

    ``--n``/``--n-intermediate`` per cell, unless ``--n-rule`` gives the rule's own per
    cell or ``--n-orbit`` per orbit (each cell ``ceil(N / cells of its orbit)``).
    """
    per_cell = {rule: (args.n, args.n_intermediate) for rule in PAPER_RULES}
    per_orbit = {}
    for option, target in (("--n-rule", per_cell), ("--n-orbit", per_orbit)):
        for rule, *values in getattr(args, option[2:].replace("-", "_")) or []:
            if rule not in PAPER_RULES:
                parser.error(f"{option}: unknown rule {rule!r}; choose from "
                             f"{', '.join(PAPER_RULES)}")
            if option == "--n-orbit" and rule not in SYMMETRIC_RULES:
                parser.error(f"--n-orbit: rule {rule!r} is not symmetric, its cells are not "
                             "pooled by orbit: give --n-rule")
            target[rule] = tuple(int(value) for value in values)
    sizes = {}
    for index, board in enumerate(BOARDS):
        cells = orbit_cells(board).ravel()
        for rule in PAPER_RULES:
            sizes[(str(board), rule)] = (
                [-(-per_orbit[rule][index] // count) for count in cells.tolist()]
                if rule in per_orbit else [per_cell[rule][index]] * board.cells)
    return sizes


def map_figure(board: Board, rows: pd.DataFrame, *, rule: str, orbit_half: float | None):
    """Heat map of one board and rule; cells without a row are left blank."""
    grid = np.zeros(board.shape)
    mask = np.ones(board.shape, dtype=bool)
    grid[rows["click_y"], rows["click_x"]] = rows["win_rate"]
    mask[rows["click_y"], rows["click_x"]] = False
    half = ((rows["ci_high"] - rows["ci_low"]) / 2).max()
    low, high = rows["n"].min(), rows["n"].max()
    games = f"{low:,}" if low == high else f"{low:,}-{high:,} (shared out by orbit)"
    pooled = "" if orbit_half is None else f", pooled by orbit <= {orbit_half:.3f}"
    return plot_probability_map(
        grid, mask=mask if mask.any() else None,
        label=f"P(win), policy {POLICY}; 95% half-width per cell <= {half:.3f}{pooled}",
        title=f"Win rate by first click, {board}, {rule}\n"
              f"n = {games} per cell, seed "
              f"{rows['seed'].iloc[0].rsplit('/', 1)[0]}")


def _describe_sizes(counts: list[int]) -> int | str:
    """One number of games per cell, or the range when orbits share theirs out."""
    low, high = min(counts), max(counts)
    return low if low == high else f"{low}-{high} per cell ({sum(counts):,} in all)"


def _half_width(frame: pd.DataFrame) -> float:
    return float(((frame["ci_high"] - frame["ci_low"]) / 2).max())


def main(argv=None):
    start = time.perf_counter()
    parser = base_parser(__doc__.splitlines()[0], experiment="win_rate_by_click")
    parser.add_argument("--n", type=int, default=100,
                        help="games per click position on 9x9/10 (default 100)")
    parser.add_argument("--n-intermediate", type=int, default=20,
                        help="games per click position on 16x16/40 (default 20)")
    parser.add_argument("--n-rule", nargs=3, action="append", metavar=("RULE", "N9", "N16"),
                        help="games per cell of one rule on 9x9/10 and 16x16/40, instead of "
                             "--n and --n-intermediate (repeatable)")
    parser.add_argument("--n-orbit", nargs=3, action="append", metavar=("RULE", "N9", "N16"),
                        help="games per symmetry orbit of one symmetric rule on 9x9/10 and "
                             "16x16/40, each cell ceil(N / cells of its orbit) (repeatable)")
    parser.add_argument("--n-expert", type=int, default=10,
                        help="games per Expert click of the handful, safe-click and "
                             "safe-opening (default 10)")
    parser.add_argument("--n-winxp-expert", type=int, default=5,
                        help="games per cell of the Expert winxp grid (default 5)")
    parser.add_argument("--n-paired", type=int, nargs=3, default=[40, 20, 5],
                        metavar=("N9", "N16", "NEXPERT"),
                        help="common games of the best winxp cell against the corners "
                             "(default 40 20 5)")
    parser.add_argument("--rules", nargs="+", default=list(PAPER_RULES), choices=PAPER_RULES,
                        help="rules to map (default all four)")
    parser.add_argument("--chunk-size", type=int, default=50,
                        help="games per chunk (default 50)")
    add_store_option(parser)
    args = parser.parse_args(argv)
    sizes = parse_sizes(parser, args)
    rules = [rule for rule in PAPER_RULES if rule in args.rules]
    seeds = row_seeds(args.seed, STREAMS)
    store = open_store(args.store)

    def warm_up():
        for rule in PAPER_RULES:
            win_rate("5x5/3", rule=rule, n=2, seed=0, workers=1)
        compare_clicks("5x5/3", [("winxp", (1, 1)), ("safe-click", CORNER)], n=2, seed=0,
                       workers=1)

    with worker_pool(args.workers, warm_up=warm_up) as pool_map:
        options = {"chunk_size": args.chunk_size, "workers": pool_map, "store": store}
        table = simulate_maps(seeds=seeds, sizes=sizes, rules=rules, **options)
        expert = simulate_expert(seeds=seeds, rules=rules, n_expert=args.n_expert,
                                 n_winxp=args.n_winxp_expert, **options)
        # every map's cells (and each Expert list) also get intervals that hold together
        table = simultaneous_intervals(pd.concat([table, expert], ignore_index=True),
                                       ["board", "rule"])
        paired = (paired_best_cells(table, seeds=seeds, n_paired=args.n_paired, **options)
                  if "winxp" in rules else None)
    n_record = {f"{board} {rule}": _describe_sizes(sizes[(str(board), rule)]) for board in BOARDS
                for rule in rules}
    n_record |= {f"{EXPERT} {rule}": args.n_expert for rule in EXPERT_RULES if rule in rules}
    if "winxp" in rules:
        n_record |= {f"{EXPERT} winxp": args.n_winxp_expert,
                     "paired": dict(zip(("9x9/10", "16x16/40", "30x16/99"), args.n_paired,
                                        strict=True))}
    metadata = collect_metadata(
        seed=args.seed, n=n_record, chunk_size=args.chunk_size,
        wall_time_s=time.perf_counter() - start,
        extra={"policy": POLICY, "workers": recorded_workers(args),
               "seeds": f"board i, rule r (RULES index), cell j: {args.seed}/(4i + r)/j; "
                        f"paired comparison on board i: {args.seed}/(12 + i)"}
        | store_metadata(store))
    path = write_csv(table, args.out / "win_rate_by_click.csv", metadata=metadata)
    written = [path]
    symmetric = [rule for rule in rules if rule in SYMMETRIC_RULES]
    orbits = classes = None
    if symmetric:  # winxp alone: nothing to pool
        def pooled(function):
            frame = pd.concat(
                [function(board, table[(table["board"] == str(board))
                                       & (table["rule"] == rule)], "win_rate")
                 .assign(board=str(board), rule=rule) for board in BOARDS for rule in symmetric],
                ignore_index=True)
            return frame[["board", "rule"] + [c for c in frame.columns
                                              if c not in ("board", "rule")]]

        orbits = pooled(pool_by_orbit)
        written.append(write_csv(orbits, args.out / "win_rate_by_click_orbits.csv",
                                 metadata=metadata | {"rules": symmetric}))
        classes = pooled(pool_by_click_class)
        written.append(write_csv(classes, args.out / "win_rate_by_click_classes.csv",
                                 metadata=metadata | {
                                     "test": "Pearson chi-square test of homogeneity (scipy "
                                             "chi2_contingency, no Yates correction)",
                                     "rules": symmetric},
                                 summary=True))
    ranked = rank_expert(table) if any(rule in rules for rule in EXPERT_RULES) else None
    if ranked is not None:
        written.append(write_csv(ranked, args.out / "win_rate_by_click_expert.csv",
                                 metadata=metadata, summary=True))
    if paired is not None:
        written.append(write_csv(paired, args.out / "win_rate_by_click_paired.csv",
                                 metadata=metadata | {
                                     "interval": "Newcombe (1998) method 10 for paired "
                                                 "proportions (minestats.stats."
                                                 "paired_difference_interval)",
                                     "test": "McNemar exact (statsmodels mcnemar, exact=True)",
                                     "selection": "best cell: the highest of the board's "
                                                  "winxp map, confirmed on fresh games"},
                                 summary=True))

    print(f"Win rate of policy {POLICY} by first click; games per cell {n_record}; seed "
          f"stream {args.seed}; 95% Wilson intervals")
    for board in (*BOARDS, EXPERT):
        for rule in rules:
            rows = table[(table["board"] == str(board)) & (table["rule"] == rule)]
            if rows.empty:
                continue
            orbit_rows = (None if orbits is None or board == EXPERT or rule not in SYMMETRIC_RULES
                          else orbits[(orbits["board"] == str(board))
                                      & (orbits["rule"] == rule)])
            orbit_half = None if orbit_rows is None else _half_width(orbit_rows)
            if board != EXPERT or rule not in SYMMETRIC_RULES:
                png, _ = write_figure(
                    map_figure(board, rows, rule=rule, orbit_half=orbit_half),
                    args.out / f"win_rate_by_click_{board_slug(board)}_{rule}.png",
                    metadata=metadata | {"board": str(board), "rule": rule})
                written.append(png)
            corner = rows[(rows["click_x"] == 0) & (rows["click_y"] == 0)].iloc[0]
            print(f"  {board} {rule}: {len(rows)} cells, 95% half-width per cell <= "
                  f"{_half_width(rows):.4f}"
                  + ("" if orbit_half is None else f", per orbit <= {orbit_half:.4f}")
                  + "; corner (0, 0) " + format_proportion(corner.successes, corner.n,
                                                           corner.ci_low, corner.ci_high,
                                                           corner.seed))
            print("\n".join(describe_extremes(rows, "win_rate", which=("highest",))))
            if classes is not None and board != EXPERT and rule in SYMMETRIC_RULES:
                print("\n".join(format_classes(
                    classes[(classes["board"] == str(board)) & (classes["rule"] == rule)],
                    "win_rate")))
            elif rule not in SYMMETRIC_RULES:
                print(f"  not pooled: {rule} is not symmetric (it favours the top-left), so "
                      "cells of one orbit or class need not share a rate")
    if ranked is not None:
        print("Expert handful, highest first:")
        for row in ranked.itertuples():
            print(f"  {row.rule:12} {row.rank}. ({row.click_x}, {row.click_y}) "
                  + format_proportion(row.successes, row.n, row.ci_low, row.ci_high, row.seed))
    if paired is not None:
        print("Best winxp cell (highest of its map) against the corners, on fresh common "
              "games; difference first minus second, 95% Newcombe paired interval, McNemar "
              "exact p:")
        for row in paired.itertuples():
            print(f"  {row.board:9} {row.first:18} {row.first_rate:.4f} vs {row.second:18} "
                  f"{row.second_rate:.4f}: {row.difference:+.4f} [{row.difference_ci_low:+.4f},"
                  f" {row.difference_ci_high:+.4f}], {p_text(row.mcnemar_p)} (n {row.n:,}, "
                  f"seed {row.seed})")
    print(f"Wrote {', '.join(str(item) for item in written)} and their sidecars; "
          f"{time.perf_counter() - start:.1f} s wall")


if __name__ == "__main__":
    main()
