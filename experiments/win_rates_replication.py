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

Writes ``<out>/win_rates_replication.csv``, one row per published figure, with its
sidecar and summary twins.

Usage: ``python experiments/win_rates_replication.py [--n N] [--store FILE]``
"""

from __future__ import annotations

import time

import pandas as pd
from common import add_store_option, base_parser, open_store, p_text, row_seeds, store_metadata
from win_rates_published import PUBLISHED, compare_published

from minestats.foundations.board import Board
from minestats.io.results import collect_metadata, write_csv
from minestats.players import win_rate

EXPERT = Board(30, 16, 99)
ROWS = (("safe-click", (0, 0)), ("safe-opening", (3, 3)))
"""The rule and first click of each row, in the order of their seeds."""


def play_rows(*, n, seed, chunk_size, workers, store=None) -> pd.DataFrame:
    """Play ``best`` on Expert from each start of `ROWS`: row i draws from child i of ``seed``."""
    return pd.DataFrame([
        win_rate(EXPERT, rule=rule, click=click, policy="best", n=n, seed=row_seed,
                 chunk_size=chunk_size, workers=workers, store=store).to_dict()
        for (rule, click), row_seed in zip(ROWS, row_seeds(seed, len(ROWS)), strict=True)])


def main(argv=None):
    start = time.perf_counter()
    parser = base_parser(__doc__.splitlines()[0], experiment="win_rates_replication")
    parser.add_argument("--n", type=int, default=100, help="games per row (default 100)")
    parser.add_argument("--chunk-size", type=int, default=50, help="games per chunk")
    add_store_option(parser)
    args = parser.parse_args(argv)
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
    print(f"Wrote {path}; {time.perf_counter() - start:.1f} s wall")


if __name__ == "__main__":
    main()
