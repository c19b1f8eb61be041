"""Centre-click opening probability: exact vs Monte Carlo, per board and first-click rule.

Reproduces the published table (Beginner, Intermediate and Expert; rules ``uniform``
and ``safe-click``, exact 0.2855/0.3257, 0.2110/0.2501, 0.1226/0.1545) and adds the
``safe-opening`` and ``winxp`` rows. Each row draws ``--n`` whole boards from its own
child of the stream ``--seed/k`` (``common``); each carries a 95% Wilson interval and a z-score
against the closed form, and the 12 rows are judged together with Holm's method.

Writes ``<out>/first_click.csv`` and its sidecar ``first_click.csv.json``.

Usage: ``python -m minestats.experiments.first_click [--seed 42] [--n 200000] [--workers -1]
[--out results]``
"""

from __future__ import annotations

import time

import numpy as np
import pandas as pd

from minestats.drivers.opening_simulation import DEFAULT_CHUNK_SIZE, simulate_opening
from minestats.experiments.common import (
    PAPER_RULES,
    base_parser,
    exact_in_interval,
    p_text,
    recorded_workers,
    row_seeds,
    worker_map,
)
from minestats.foundations.board import BEGINNER, EXPERT, INTERMEDIATE
from minestats.foundations.validation import DEFAULT_ALPHA, DEFAULT_CONFIDENCE_LEVEL
from minestats.io.result_files import collect_metadata, write_csv
from minestats.stats import holm_reject

BOARDS = (BEGINNER, INTERMEDIATE, EXPERT)
PUBLISHED_EXACT = {  # the published table, centre click, rounded to 4 places
    ("9x9/10", "uniform"): 0.2855, ("9x9/10", "safe-click"): 0.3257,
    ("16x16/40", "uniform"): 0.2110, ("16x16/40", "safe-click"): 0.2501,
    ("30x16/99", "uniform"): 0.1226, ("30x16/99", "safe-click"): 0.1545,
}
CONFIDENCE_LEVEL = DEFAULT_CONFIDENCE_LEVEL
ALPHA = DEFAULT_ALPHA


def simulate_table(*, seed, n, chunk_size, workers, rules=PAPER_RULES) -> pd.DataFrame:
    """One row per board and rule: exact, Monte Carlo, Wilson interval, z, Holm verdict.

    Row i of the full table (every rule) draws from child i of the seed, also when
    ``rules`` keeps only some of them, so a row has the same numbers either way.
    """
    rows = [(board, rule) for board in BOARDS for rule in PAPER_RULES]
    with worker_map(workers, click="centre") as pool_map:
        results = [simulate_opening(board, rule=rule, n=n, click="centre", seed=row_seed,
                                    chunk_size=chunk_size, workers=pool_map)
                   for (board, rule), row_seed in zip(rows, row_seeds(seed, len(rows)),
                                                      strict=True)
                   if rule in rules]
    table = pd.concat([result.per_click(confidence_level=CONFIDENCE_LEVEL)
                       for result in results], ignore_index=True)
    table["p_value"] = np.concatenate([np.atleast_1d(result.p_values()) for result in results])
    table["holm_reject"] = holm_reject(table["p_value"].to_numpy(), alpha=ALPHA)
    table["exact_in_ci"] = exact_in_interval(table)
    table["published_exact"] = [PUBLISHED_EXACT.get((board, rule), np.nan)
                                for board, rule in zip(table["board"], table["rule"],
                                                       strict=True)]
    return table


def format_table(table: pd.DataFrame, *, seed, n, chunk_size) -> str:
    """Format the table for printing: every estimate with its n, seed and Wilson interval."""
    lines = [
        f"Centre-click opening probability: exact vs Monte Carlo, n = {n:,} boards per row, "
        f"seed stream {seed} (row i: seed {seed}/i), chunk size "
        f"{chunk_size:,}, {CONFIDENCE_LEVEL:.0%} Wilson intervals",
        f"{'board':9} {'rule':12} {'click':8} {'published':>9} {'exact':>7} {'MC':>7} "
        f"{'Wilson 95% CI':>18} {'z':>6} {'exact in CI':>11} {'Holm':>7} {'n':>8} seed",
    ]
    for row in table.itertuples():
        published = "-" if np.isnan(row.published_exact) else f"{row.published_exact:.4f}"
        lines.append(
            f"{row.board:9} {row.rule:12} {f'({row.click_x}, {row.click_y})':8} "
            f"{published:>9} {row.exact:7.5f} {row.mc:7.5f} "
            f"[{row.ci_low:.5f}, {row.ci_high:.5f}] {row.z:+6.2f} "
            f"{'yes' if row.exact_in_ci else 'NO':>11} "
            f"{'reject' if row.holm_reject else 'accept':>7} {row.n:>8,} {row.seed}")
    outside = table.loc[~table["exact_in_ci"], ["board", "rule"]]
    lines.append(f"Exact value inside the {CONFIDENCE_LEVEL:.0%} Wilson interval: "
                 f"{int(table['exact_in_ci'].sum())} of {len(table)} rows"
                 + ("" if outside.empty else " (outside: " + ", ".join(
                     f"{board} {rule}" for board, rule in outside.itertuples(index=False))
                    + "; about 1 in 20 is expected by chance)"))
    rejected = int(table["holm_reject"].sum())
    lines.append(f"Holm across the {len(table)} rows at family-wise alpha = {ALPHA}: "
                 + ("no row rejected, Monte Carlo agrees with the closed forms"
                    if rejected == 0 else f"{rejected} row(s) REJECTED")
                 + f" (smallest {p_text(table['p_value'].min())})")
    mismatched = table.dropna(subset=["published_exact"])
    mismatched = mismatched[mismatched["exact"].round(4) != mismatched["published_exact"]]
    lines.append("Published exact values reproduced to 4 places: "
                 + ("all 6" if mismatched.empty else f"NOT for {len(mismatched)} rows"))
    return "\n".join(lines)


def main(argv=None):
    start = time.perf_counter()
    parser = base_parser(__doc__.splitlines()[0], experiment="first_click")
    parser.add_argument("--n", type=int, default=200_000,
                        help="boards per row (default 200,000)")
    parser.add_argument("--chunk-size", type=int, default=DEFAULT_CHUNK_SIZE,
                        help=f"boards per chunk (default {DEFAULT_CHUNK_SIZE:,})")
    parser.add_argument("--rules", nargs="+", choices=PAPER_RULES, default=list(PAPER_RULES),
                        help="rules to simulate (default all four)")
    args = parser.parse_args(argv)
    table = simulate_table(seed=args.seed, n=args.n, chunk_size=args.chunk_size,
                           workers=args.workers, rules=args.rules)
    metadata = collect_metadata(
        seed=args.seed, n=args.n, chunk_size=args.chunk_size,
        wall_time_s=time.perf_counter() - start,
        extra={"row_seeds": dict(zip(table["board"] + " " + table["rule"], table["seed"],
                                     strict=True)),
               "click": "centre", "confidence_level": CONFIDENCE_LEVEL, "holm_alpha": ALPHA,
               "workers": recorded_workers(args)})
    path = write_csv(table, args.out / "first_click.csv", metadata=metadata, summary=True)
    print(format_table(table, seed=args.seed, n=args.n, chunk_size=args.chunk_size))
    print(f"Wrote {path} and its sidecar; {time.perf_counter() - start:.1f} s wall")


if __name__ == "__main__":
    main()
