"""3BV distribution of the presets under each first-click rule (centre click).

3BV (Bechtel's Board Benchmark Value) is the least number of left clicks that
clears a board: openings plus safe numbered cells touching no zero. For Beginner
9x9/10, Intermediate 16x16/40 and Expert 30x16/99 under ``uniform``,
``safe-click``, ``safe-opening`` and ``winxp`` (click at the centre), ``--n``
boards (default 1,000,000) are drawn per board and rule (`minestats.drivers.bbbv_histograms`);
pair ``i`` (boards in the order above, rules within) draws from child ``i`` of
the stream ``--seed/k`` (``common``). Quantiles are the smallest 3BV whose cumulative share
reaches q (every quantile is a 3BV that occurred). The share of Expert boards with
3BV at most 130 is given with its 95% Wilson interval under every rule, beside the
smallest 3BV drawn (89 under ``uniform`` in the committed 10^6 boards): an easy Expert board is one
of low 3BV, and a lower limit such as 70 would cut off no board at all, so the range
is stated as what it is, an upper limit.

Writes, under ``--out``: ``bbbv_histogram.csv`` (board, rule, bbbv, count, n, seed;
values with no board left out), ``bbbv_summary.csv`` (mean, sd, quantiles 5/25/50/75/95,
min, max, n, seed), ``bbbv_expert_at_most_130.csv`` (share with 3BV <= 130, its
interval and ``min_bbbv``) and ``bbbv.png``, each with its
``.json`` sidecar.

Usage: ``python -m minestats.experiments.bbbv [--seed 42] [--n 1000000] [--workers -1]
[--out results]``
"""

from __future__ import annotations

import time

import pandas as pd

from minestats.drivers.bbbv_histograms import DEFAULT_CHUNK_SIZE, bbbv_histogram
from minestats.experiments.common import (
    PAPER_RULES,
    base_parser,
    format_proportion,
    recorded_workers,
    row_seeds,
    worker_pool,
)
from minestats.figures.plots import plot_distributions
from minestats.foundations.board import BEGINNER, EXPERT, INTERMEDIATE, Board
from minestats.foundations.validation import DEFAULT_CONFIDENCE_LEVEL
from minestats.io.result_files import collect_metadata, write_csv, write_figure

BOARDS = (BEGINNER, INTERMEDIATE, EXPERT)
CLICK = "centre"
AT_MOST = 130  # the share of Expert boards with 3BV <= AT_MOST
CONFIDENCE_LEVEL = DEFAULT_CONFIDENCE_LEVEL


def warm_up():
    for rule in PAPER_RULES:
        bbbv_histogram(Board(4, 4, 3), rule=rule, n=2, seed=0, workers=1)


def histograms(*, seed, n, chunk_size, workers):
    """Return the 3BV histogram of every board and rule, pair i seeded with child i."""
    pairs = [(board, rule) for board in BOARDS for rule in PAPER_RULES]
    with worker_pool(workers, warm_up=warm_up) as pool_map:
        return [bbbv_histogram(board, rule=rule, click=CLICK, n=n, seed=pair_seed,
                               chunk_size=chunk_size, workers=pool_map)
                for (board, rule), pair_seed in zip(pairs, row_seeds(seed, len(pairs)),
                                                    strict=True)]


def main(argv=None):
    start = time.perf_counter()
    parser = base_parser(__doc__.splitlines()[0], experiment="bbbv")
    parser.add_argument("--n", type=int, default=1_000_000,
                        help="boards per board and rule (default 1,000,000)")
    parser.add_argument("--chunk-size", type=int, default=DEFAULT_CHUNK_SIZE,
                        help=f"boards per chunk (default {DEFAULT_CHUNK_SIZE:,})")
    args = parser.parse_args(argv)
    results = histograms(seed=args.seed, n=args.n, chunk_size=args.chunk_size,
                         workers=args.workers)
    histogram = pd.concat([result.per_value() for result in results], ignore_index=True)
    summary = pd.concat([result.to_frame() for result in results], ignore_index=True)
    expert = pd.DataFrame([result.share_between(0, AT_MOST, confidence_level=CONFIDENCE_LEVEL)
                           | {"min_bbbv": int(result.values[result.counts > 0].min())}
                           for result in results if result.board == EXPERT])
    metadata = collect_metadata(
        seed=args.seed, n=args.n, chunk_size=args.chunk_size,
        wall_time_s=time.perf_counter() - start,
        extra={"click": CLICK, "seeds": {f"{result.board} {result.rule}": result.seed
                                         for result in results},
               "quantiles": "inverted CDF: smallest 3BV whose cumulative share >= q",
               "confidence_level": CONFIDENCE_LEVEL, "workers": recorded_workers(args)})
    paths = [write_csv(histogram, args.out / "bbbv_histogram.csv", metadata=metadata),
             write_csv(summary, args.out / "bbbv_summary.csv", metadata=metadata,
                       summary=True),
             write_csv(expert, args.out / "bbbv_expert_at_most_130.csv", metadata=metadata,
                       summary=True)]
    figure = plot_distributions(
        histogram.assign(board=histogram["board"] + ", centre click"), value="bbbv",
        count="count", series="rule", panel="board", xlabel="3BV (least clicks to clear)",
        difference_from="uniform",
        title=f"3BV distribution by first-click rule; n = {args.n:,} boards per board and "
              f"rule, seed {args.seed} (pair i: {args.seed}/i)")
    paths.extend(write_figure(figure, args.out / "bbbv.png", metadata=metadata))

    print(f"3BV by board and first-click rule, centre click; n = {args.n:,} boards each; "
          f"seed stream {args.seed} (pair i: child i, seed {args.seed}/i); chunk size "
          f"{args.chunk_size:,}")
    print(summary.to_string(index=False, float_format=lambda value: f"{value:.3f}"))
    print(f"\nShare of Expert boards with 3BV <= {AT_MOST}, {CONFIDENCE_LEVEL:.0%} Wilson "
          f"interval, and the smallest 3BV drawn (no board lies far below the limit, so "
          f"this is an upper limit only, not a range):")
    for row in expert.itertuples():
        print(f"  {row.rule:12} " + format_proportion(row.successes, row.n, row.ci_low,
                                                      row.ci_high, row.seed, digits=5)
              + f"; smallest 3BV {row.min_bbbv}")
    print(f"Wrote {', '.join(str(path) for path in paths)} and their sidecars; "
          f"{time.perf_counter() - start:.1f} s wall")


if __name__ == "__main__":
    main()
