"""A second, independent sample of the two Expert rows the field ranks players by.

``win_rates.py`` plays ``best`` on 30x16/99 from the safe corner and from the opening
start (3, 3) on its own stream, and ``win_rates_published.py`` compares those rows with
the published figures. That stream was held out of development, but each new player was
run on it: a row that has been looked at after every change is no longer a fresh
sample, and the player that first reaches a mark on it is the one whose luck there was
good. This script plays the same two rows on a stream of its own (``42/18``), with the
n of the full run written into the registry before its first run, and compares them
with the same published figures in the same way: ours minus published with Newcombe's
hybrid score interval, Fisher's exact two-sided p, and Holm's adjustment over its four
comparisons (Tu et al. and Hill, each at both starts).

The two samples are independent, so the script also sets each row against the held-out
row of ``win_rates.py`` (``--held-out``, default ``<out>/win_rates.csv``): this sample
minus that one, with Newcombe's interval for two independent proportions and Fisher's
exact p, and the two pooled, with its Wilson interval. The sidecar records which
commit played the held-out rows; the comparison means "the same player twice" only
when that commit's player is this one.

Writes ``<out>/win_rates_replication.csv``, one row per published figure, and
``<out>/win_rates_replication_agreement.csv``, one row per start (when the held-out
table exists), each with its sidecar and summary twins.

Usage: ``python -m minestats.experiments.win_rates_replication [--n N] [--store FILE]
[--held-out results/win_rates.csv]``
"""

from __future__ import annotations

import time
from pathlib import Path

import pandas as pd

from minestats.drivers.win_rates import win_rate
from minestats.experiments.common import (
    add_store_option,
    base_parser,
    open_store,
    p_text,
    row_seeds,
    source_metadata,
    store_metadata,
)
from minestats.experiments.win_rates_published import (
    INPUT_NAME,
    PUBLISHED,
    best_row,
    compare_published,
    read_win_rates,
)
from minestats.foundations.board import Board
from minestats.io.result_files import collect_metadata, write_csv
from minestats.stats import compare_to_published, wilson_interval

EXPERT = Board(30, 16, 99)
ROWS = (("safe-click", (0, 0)), ("safe-opening", (3, 3)))
"""The rule and first click of each row, in the order of their seeds."""


def play_rows(*, n, seed, chunk_size, workers, store=None) -> pd.DataFrame:
    """Play ``best`` on Expert from each start of `ROWS`: row i draws from child i of ``seed``."""
    return pd.DataFrame([
        win_rate(EXPERT, rule=rule, click=click, policy="best", n=n, seed=row_seed,
                 chunk_size=chunk_size, workers=workers, store=store).to_dict()
        for (rule, click), row_seed in zip(ROWS, row_seeds(seed, len(ROWS)), strict=True)])


def agreement(rows: pd.DataFrame, held_out: pd.DataFrame) -> pd.DataFrame:
    """Each row of ``rows`` against the same start's ``best`` row of ``held_out``, and pooled.

    The difference is this sample minus the held-out one, with Newcombe's interval for
    two independent proportions and Fisher's exact two-sided p
    (`minestats.stats.compare_to_published` with the held-out count as the other
    sample); the pooled rate carries its Wilson interval.
    """
    found = []
    for row in rows.itertuples():
        other = best_row(held_out, row.board, row.rule, (row.click_x, row.click_y),
                         name="the held-out table")
        other_n, other_successes = int(other["n"]), int(other["successes"])
        test = compare_to_published(row.successes, row.n, other_successes / other_n, other_n)
        pooled_n, pooled_successes = row.n + other_n, row.successes + other_successes
        low, high = wilson_interval(pooled_successes, pooled_n)
        found.append({"board": row.board, "rule": row.rule, "click_x": row.click_x,
                      "click_y": row.click_y, "policy": "best", "n": row.n,
                      "successes": row.successes, "win_rate": row.win_rate,
                      "seed": row.seed, "held_out_n": other_n,
                      "held_out_successes": other_successes,
                      "held_out_win_rate": other_successes / other_n,
                      "held_out_seed": other["seed"], "difference": test.difference,
                      "difference_ci_low": test.low, "difference_ci_high": test.high,
                      "p_value": test.p_value, "pooled_n": pooled_n,
                      "pooled_successes": pooled_successes,
                      "pooled_win_rate": pooled_successes / pooled_n, "pooled_ci_low": low,
                      "pooled_ci_high": high})
    return pd.DataFrame(found)


def main(argv=None):
    start = time.perf_counter()
    parser = base_parser(__doc__.splitlines()[0], experiment="win_rates_replication")
    parser.add_argument("--n", type=int, default=100, help="games per row (default 100)")
    parser.add_argument("--chunk-size", type=int, default=50, help="games per chunk")
    parser.add_argument("--held-out", type=Path, default=None,
                        help=f"win-rate table to set the rows against (default "
                             f"<out>/{INPUT_NAME}; skipped when absent)")
    add_store_option(parser)
    args = parser.parse_args(argv)
    held_out_path = args.held_out if args.held_out is not None else args.out / INPUT_NAME
    if args.held_out is not None and not held_out_path.is_file():
        raise SystemExit(f"error: no win-rate table at {held_out_path}")
    store = open_store(args.store)
    rows = play_rows(n=args.n, seed=args.seed, chunk_size=args.chunk_size,
                     workers=args.workers, store=store)
    expert = [figure for figure in PUBLISHED if figure[0] == str(EXPERT)]
    comparison = compare_published(rows, expert)
    metadata = collect_metadata(seed=args.seed, n=args.n, chunk_size=args.chunk_size,
                                wall_time_s=time.perf_counter() - start,
                                extra=store_metadata(store))
    path = write_csv(comparison, args.out / "win_rates_replication.csv", metadata=metadata,
                     summary=True)
    print(f"30x16/99, best, on its own stream (seed {args.seed}, row i = child i; 95 % "
          "Wilson intervals):")
    for row in rows.itertuples():
        print(f"  {row.rule:12} ({row.click_x},{row.click_y}) {row.win_rate:.4f}"
              f" [{row.ci_low:.4f}, {row.ci_high:.4f}] ({row.successes:,}/{row.n:,},"
              f" seed {row.seed})")
    print("Ours minus published, 95 % Newcombe hybrid score interval, Fisher's exact "
          "two-sided p, Holm over the four:")
    for row in comparison.itertuples():
        print(f"  {row.rule:12} {row.source:20} published {row.published_win_rate:.4f}"
              f" (n = {row.published_n:,}): {row.difference:+.4f}"
              f" [{row.difference_ci_low:+.4f}, {row.difference_ci_high:+.4f}],"
              f" {p_text(row.p_value, digits=2)}, Holm {p_text(row.holm_p, digits=2)}"
              f" (n = {row.n:,}, seed {row.seed})")
    written = [path]
    if held_out_path.is_file():
        agreed = agreement(rows, read_win_rates(held_out_path))
        written.append(write_csv(agreed, args.out / "win_rates_replication_agreement.csv",
                                 metadata=metadata | {"input": held_out_path.as_posix(),
                                                      "input_metadata":
                                                      source_metadata(held_out_path)},
                                 summary=True))
        print("This sample minus the held-out one (Newcombe interval, two independent "
              "samples; Fisher's exact p), and the two pooled (Wilson):")
        for row in agreed.itertuples():
            print(f"  {row.rule:12} {row.difference:+.4f} [{row.difference_ci_low:+.4f},"
                  f" {row.difference_ci_high:+.4f}], {p_text(row.p_value, digits=2)}"
                  f" ({row.successes:,}/{row.n:,}, seed {row.seed}, against"
                  f" {row.held_out_successes:,}/{row.held_out_n:,}, seed {row.held_out_seed});"
                  f" pooled {row.pooled_win_rate:.4f} [{row.pooled_ci_low:.4f},"
                  f" {row.pooled_ci_high:.4f}] (n = {row.pooled_n:,})")
    else:
        print(f"No held-out table at {held_out_path}: the agreement table is not written")
    print(f"Wrote {', '.join(map(str, written))}; {time.perf_counter() - start:.1f} s wall")


if __name__ == "__main__":
    main()
