"""Opening probability over every click position: exact maps, Monte Carlo z-maps, ranges.

For the boards 8x8/10, 9x9/10, 16x16/40 and 30x16/99 and every first-click rule:

- the exact map (closed forms), as a tidy CSV and a PNG heat map;
- a Monte Carlo estimate at every position at once (`simulate_opening` with
  ``click=None``), as a CSV of estimates with Wilson intervals and z-scores and a PNG
  z-score map, judged per board and rule by Holm's method across its cells;
- the minimum and maximum exact probability over click positions and where they
  occur (``opening_ranges.csv``).

What the Holm test can and cannot say, per board and rule (``holm.csv``, printed):
the family is the cells of that one board and rule (64 to 480 of them), never all
maps together; ``detectable_deviation`` is the largest over its cells of the
smallest error ``|d|`` that a cell's z-test finds with 80% power at Holm's first-step
level alpha / cells (`minestats.stats.detectable_deviation`)::

    |d| = (z(1 - alpha / (2 cells)) + z(0.8)) * sqrt(p (1 - p) / n)

with p the cell's exact probability (where p = 1, as under ``safe-opening``, the
deviation that shows one failure in n boards with 80% probability,
1 - 0.2 ** (1 / n)); ``monte_carlo.csv`` gives it per cell. And because one drawn
board serves every click (``uniform``, ``safe-click``, ``winxp``), neighbouring
clicks, whose 3x3 neighbourhoods overlap, are counted on the same boards: their
z-scores are positively correlated, so a z-map shows smooth patches even when every
cell is right (each z-map's title says so, with the correlation; its colour scale
reaches the largest ``|z|``). ``neighbour_z_correlation`` measures it (Pearson correlation of the
z-scores of cells sharing a side, `minestats.stats.neighbour_correlation`); Holm's
method is valid under this dependence, but the share of cells outside their 95%
intervals is not binomial.

Boards per click position, ``n``: for ``uniform``, ``safe-click`` and ``winxp`` one
drawn board serves every position, so ``--n`` (default 1,000,000) costs about as much
as one click; for ``safe-opening`` the excluded cells depend on the click, so every
position draws its own boards, and ``--n-safe-opening`` (default 20,000) is kept
smaller (on Expert that is 480 x 20,000 boards). The n of every map is printed, in
the CSV and in the sidecars.

Ranges: ``min_x, min_y`` (``max_x, max_y``) is the first cell in row-major order
attaining the minimum (maximum), and ``min_ties`` (``max_ties``) the number of
cells attaining it, ties decided on the exact fractions.

Writes, under ``--out`` (default results/): ``opening_ranges.csv`` and in
``opening_maps/``: ``exact.csv``, ``monte_carlo.csv``, ``holm.csv``,
``exact_<board>_<rule>.png`` and ``z_<board>_<rule>.png`` (board as ``30x16-99``),
each with a ``.json`` sidecar.

Usage: ``python -m minestats.experiments.opening_maps [--seed 42] [--n 1000000]
[--n-safe-opening 20000] [--workers -1] [--out results]``
"""

from __future__ import annotations

import time

import numpy as np
import pandas as pd

from minestats.drivers.opening_simulation import simulate_opening
from minestats.experiments.common import (
    PAPER_RULES,
    base_parser,
    board_slug,
    exact_in_interval,
    recorded_workers,
    row_seeds,
    worker_map,
)
from minestats.figures.plots import plot_probability_map, plot_z_map
from minestats.foundations.board import BEGINNER, CLASSIC_BEGINNER, EXPERT, INTERMEDIATE
from minestats.foundations.rules import RULE_TABLE
from minestats.foundations.validation import DEFAULT_ALPHA, DEFAULT_CONFIDENCE_LEVEL
from minestats.io.result_files import collect_metadata, write_csv, write_figure
from minestats.mechanics.opening_probabilities import opening_probability, opening_probability_map
from minestats.stats import detectable_deviation, neighbour_correlation

BOARDS = (CLASSIC_BEGINNER, BEGINNER, INTERMEDIATE, EXPERT)


def own_boards(rule: str) -> bool:
    """Whether each click of ``rule`` is counted on boards of its own.

    A rule that protects the click's whole neighbourhood (``safe-opening``) leaves
    regions of different sizes free at different clicks, so no draw serves two clicks
    (`minestats.mechanics.sampling.count_openings_all_clicks`); its clicks always open.
    """
    return RULE_TABLE[rule].protects == "neighbourhood"


CHUNK_SIZE = {rule: 2_000 if own_boards(rule) else 100_000 for rule in PAPER_RULES}
CONFIDENCE_LEVEL = DEFAULT_CONFIDENCE_LEVEL
ALPHA = DEFAULT_ALPHA
POWER = 0.8


def exact_frame(board, rule) -> pd.DataFrame:
    """Tidy exact map: one row per click position."""
    grid = opening_probability_map(board, rule=rule)
    ys, xs = np.indices(board.shape)
    return pd.DataFrame({"board": str(board), "rule": rule, "click_x": xs.ravel(),
                         "click_y": ys.ravel(), "exact": grid.ravel()})


def opening_range(board, rule) -> dict:
    """Smallest and largest exact opening probability, where, and how many cells tie."""
    exact = {(x, y): opening_probability(board, (x, y), rule=rule)
             for y in range(board.height) for x in range(board.width)}
    row = {"board": str(board), "rule": rule}
    for name, pick in (("min", min), ("max", max)):
        value = pick(exact.values())
        cells = [cell for cell, probability in exact.items() if probability == value]
        row.update({name: float(value), f"{name}_x": cells[0][0], f"{name}_y": cells[0][1],
                    f"{name}_ties": len(cells)})
    return row


def holm_summary(result, frame) -> dict:
    """One board and rule's Holm result, its family, power and neighbour correlation."""
    rejected = int(frame["holm_reject"].sum())
    return {"board": str(result.board), "rule": result.rule, "n": result.n,
            "seed": result.seed, "chunk_size": result.chunk_size, "cells": len(frame),
            "holm_family": f"the {len(frame)} cells of {result.board} {result.rule}",
            "holm_first_level": ALPHA / len(frame),
            "outside_ci": int((~frame["exact_in_ci"]).sum()),
            "max_abs_z": float(frame["z"].abs().max()),
            "min_p_value": float(frame["p_value"].min()), "holm_rejections": rejected,
            "detectable_deviation": float(frame["detectable_deviation"].max()),
            "detectable_deviation_min": float(frame["detectable_deviation"].min()),
            "power": POWER,
            "neighbour_z_correlation": neighbour_correlation(result.z_scores()),
            "verdict": f"{rejected or 'no'} cell{'' if rejected == 1 else 's'} rejected"}


def shared_boards_note(summary) -> str:
    """Say, in a z-map's last title line, whether its cells were counted on the same boards."""
    if own_boards(summary.rule):
        return "each cell counted on its own boards"
    return (f"neighbouring cells share boards: their z are correlated "
            f"(r = {summary.neighbour_z_correlation:.2f}), patches expected")


def simulate_maps(*, seed, n_by_rule, workers):
    """Every board and rule at every click: (simulation, tidy frame, seconds) per pair."""
    pairs = [(board, rule) for board in BOARDS for rule in PAPER_RULES]
    runs = []
    with worker_map(workers, click=None) as pool_map:
        for (board, rule), pair_seed in zip(pairs, row_seeds(seed, len(pairs)), strict=True):
            start = time.perf_counter()
            result = simulate_opening(board, rule=rule, n=n_by_rule[rule], seed=pair_seed,
                                      chunk_size=CHUNK_SIZE[rule], workers=pool_map)
            frame = result.per_click(confidence_level=CONFIDENCE_LEVEL)
            frame["p_value"] = result.p_values().ravel()
            frame["holm_reject"] = result.holm_reject(alpha=ALPHA).ravel()
            frame["exact_in_ci"] = exact_in_interval(frame)
            frame["detectable_deviation"] = detectable_deviation(
                frame["exact"].to_numpy(), result.n, alpha=ALPHA, tests=len(frame),
                power=POWER)
            runs.append((result, frame, time.perf_counter() - start))
    return runs


def main(argv=None):
    start = time.perf_counter()
    parser = base_parser(__doc__.splitlines()[0], experiment="opening_maps")
    parser.add_argument("--n", type=int, default=1_000_000,
                        help="boards per click for uniform, safe-click, winxp (default 1e6)")
    parser.add_argument("--n-safe-opening", type=int, default=20_000,
                        help="boards per click for safe-opening (default 20,000)")
    args = parser.parse_args(argv)
    n_by_rule = {rule: args.n_safe_opening if own_boards(rule) else args.n
                 for rule in PAPER_RULES}
    maps = args.out / "opening_maps"

    exact_start = time.perf_counter()
    exact = pd.concat([exact_frame(board, rule) for board in BOARDS for rule in PAPER_RULES],
                      ignore_index=True)
    ranges = pd.DataFrame([opening_range(board, rule) for board in BOARDS for rule in PAPER_RULES])
    exact_meta = collect_metadata(seed=None, n=None, chunk_size=None,
                                  wall_time_s=time.perf_counter() - exact_start,
                                  extra={"method": "closed forms "
                                                   "(minestats.mechanics.opening_probabilities)"})
    write_csv(exact, maps / "exact.csv", metadata=exact_meta)
    write_csv(ranges, args.out / "opening_ranges.csv", summary=True, metadata={
        **exact_meta, "ties": "min_x/min_y (max_x/max_y) is the first cell in row-major "
                              "order; *_ties counts the cells equal to it as exact fractions"})
    for board in BOARDS:
        for rule in PAPER_RULES:
            grid = exact.loc[(exact["board"] == str(board)) & (exact["rule"] == rule), "exact"]
            figure = plot_probability_map(
                grid.to_numpy().reshape(board.shape),
                title=f"Exact P(first click opens): {board}, rule {rule}")
            write_figure(figure, maps / f"exact_{board_slug(board)}_{rule}.png",
                         metadata={**exact_meta, "board": str(board), "rule": rule})

    runs = simulate_maps(seed=args.seed, n_by_rule=n_by_rule, workers=args.workers)
    mc_seconds = sum(seconds for _, _, seconds in runs)
    mc_meta = collect_metadata(
        seed=args.seed, n=n_by_rule, chunk_size=CHUNK_SIZE, wall_time_s=mc_seconds,
        extra={"seeds": {f"{result.board} {result.rule}": result.seed
                         for result, _, _ in runs},
               "confidence_level": CONFIDENCE_LEVEL, "holm_alpha": ALPHA,
               "holm_family": "the cells of one board and rule", "power": POWER,
               "detectable_deviation": "(z(1 - alpha / (2 cells)) + z(power)) * "
                                       "sqrt(p (1 - p) / n), p the cell's exact value; "
                                       "1 - (1 - power) ** (1 / n) where p = 1",
               "neighbour_z_correlation": "Pearson correlation of the z-scores of cells "
                                          "sharing a side",
               "workers": recorded_workers(args)})
    write_csv(pd.concat([frame for _, frame, _ in runs], ignore_index=True),
              maps / "monte_carlo.csv", metadata=mc_meta)
    holm = pd.DataFrame([holm_summary(result, frame) for result, frame, _ in runs])
    write_csv(holm, maps / "holm.csv", metadata=mc_meta, summary=True)
    for (result, frame, seconds), summary in zip(runs, holm.itertuples(), strict=True):
        rejected = int(frame["holm_reject"].sum())
        figure = plot_z_map(
            result.z_scores(), reject=result.holm_reject(alpha=ALPHA), alpha=ALPHA,
            title=f"Monte Carlo vs exact, {result.board}, rule {result.rule}\n"
                  f"n = {result.n:,} boards per cell, seed {result.seed}, "
                  f"Holm: {rejected} rejected\n" + shared_boards_note(summary))
        write_figure(figure, maps / f"z_{board_slug(result.board)}_{result.rule}.png",
                  metadata={**collect_metadata(
                      seed=result.seed, n=result.n, chunk_size=result.chunk_size,
                      wall_time_s=seconds), "board": str(result.board), "rule": result.rule,
                      "confidence_level": CONFIDENCE_LEVEL, "holm_alpha": ALPHA})

    print(f"Opening-probability ranges over click positions (exact; first cell in row-major "
          f"order, ties = cells attaining it):\n{ranges.to_string(index=False)}\n")
    print(f"Monte Carlo vs exact at every click, {CONFIDENCE_LEVEL:.0%} Wilson intervals, "
          f"Holm at family-wise alpha = {ALPHA} across the cells of each board and rule; "
          f"n per rule {n_by_rule}, seed {args.seed} (pair i: seed {args.seed}/i):\n"
          f"{holm.drop(columns='holm_family').to_string(index=False)}")
    random = holm[~holm["rule"].map(own_boards)]
    pooled = neighbour_correlation(*(result.z_scores() for result, _, _ in runs
                                     if not own_boards(result.rule)))
    print(f"What the test could detect: at n = {n_by_rule['uniform']:,} boards per click the "
          f"smallest error found with {POWER:.0%} power at Holm's first-step level "
          f"(alpha / cells) is at most {random['detectable_deviation'].max():.4f} in any "
          f"cell of uniform, safe-click and winxp (|d| = (z(1 - alpha/(2 cells)) + "
          f"z({POWER})) sqrt(p (1 - p) / n)); under safe-opening (p = 1, n = "
          f"{n_by_rule['safe-opening']:,}) a failure rate of "
          f"{holm.loc[holm['rule'] == 'safe-opening', 'detectable_deviation'].max():.2g} "
          f"would show.")
    print(f"Neighbouring clicks share boards, so the z-maps are spatially correlated: "
          f"correlation of the z-scores of cells sharing a side "
          f"{random['neighbour_z_correlation'].min():.2f} to "
          f"{random['neighbour_z_correlation'].max():.2f} per map, {pooled:.2f} pooled over "
          f"the {len(random)} maps of uniform, safe-click and winxp (0 for independent "
          f"cells); patches in a z-map are expected, not a sign of error.")
    print(f"Exact value outside its cell's Wilson interval (outside_ci): "
          f"{random['outside_ci'].sum()} of {random['cells'].sum()} cells for uniform, "
          f"safe-click and winxp ({random['outside_ci'].sum() / random['cells'].sum():.1%}; "
          f"about {1 - CONFIDENCE_LEVEL:.0%} expected by chance, though not binomially spread, "
          f"since neighbouring cells are correlated), "
          f"{holm['outside_ci'].sum() - random['outside_ci'].sum()} for safe-opening "
          f"(every board opens)")
    print(f"Wrote {maps}/ and {args.out / 'opening_ranges.csv'}; "
          f"{time.perf_counter() - start:.1f} s wall")


if __name__ == "__main__":
    main()
