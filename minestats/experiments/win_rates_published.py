"""The win rates of ``best`` against the best published figures, with Holm over the rows.

Reads the win-rate table of ``win_rates.py`` (``--input``, default
``<out>/win_rates.csv``; nothing is replayed) and compares each ``best`` row the
literature reports with the published figure (Tu et al., PSEQ-D256, 10^8 games a
figure; Hill, Expert, 10 runs of 10^6 games) by `minestats.stats.compare_to_published`:
ours minus published with its 95 % interval (Newcombe's hybrid score interval for two
independent proportions: the published n is known, and its count is taken as
round(rate * games)), the z of that difference, and Fisher's exact two-sided p, which
``holm_p`` adjusts (Holm) over the ten rows.

The published rates are printed to four decimals (Hill's opening-start figure to
three), so the rate itself may be off by up to 0.00005 (0.0005): the table gives each
interval with that rounding added to each side. For Hill's 54.3 % it widens the
interval by 0.0005 each way, which matters at our n = 10^6, where the interval's
half-width is about 0.001; the p-value takes the figure as printed.

Comparing draws no random numbers: ``--seed`` and ``--workers`` are accepted, as by
every script, and unused; the rows' own seeds are in the table.

Writes ``<out>/win_rates_published.csv`` with its sidecar and summary twins.

Usage: ``python -m minestats.experiments.win_rates_published [--input results/win_rates.csv]
[--out results]``
"""

from __future__ import annotations

import time
from pathlib import Path

import pandas as pd

from minestats.experiments.common import base_parser, p_text, source_metadata
from minestats.io.result_files import collect_metadata, write_csv
from minestats.stats import compare_to_published, holm_adjust

INPUT_NAME = "win_rates.csv"
TU = ("Tu, Li, Chen, Zu and Gu, 'Exploring efficient strategies for Minesweeper', "
      "AAAI Workshops 2017: PSEQ-D256, 10^8 games")
HILL = ("D. N. Hill, Java Minesweeper solver: the author's figures in the JSMinesweeper "
        "issue tracker (issue 38), 10 runs of 10^6 games")
PUBLISHED = [  # board, rule, click, source, win rate, games, decimals printed, citation
    ("8x8/10", "safe-click", (0, 0), "Tu et al. PSEQ-D256", 0.8177, 10**8, 4, TU),
    ("9x9/10", "safe-click", (0, 0), "Tu et al. PSEQ-D256", 0.9169, 10**8, 4, TU),
    ("16x16/40", "safe-click", (0, 0), "Tu et al. PSEQ-D256", 0.7823, 10**8, 4, TU),
    ("30x16/99", "safe-click", (0, 0), "Tu et al. PSEQ-D256", 0.4004, 10**8, 4, TU),
    ("8x8/10", "safe-opening", (2, 2), "Tu et al. PSEQ-D256", 0.9034, 10**8, 4, TU),
    ("9x9/10", "safe-opening", (2, 2), "Tu et al. PSEQ-D256", 0.9717, 10**8, 4, TU),
    ("16x16/40", "safe-opening", (2, 2), "Tu et al. PSEQ-D256", 0.8908, 10**8, 4, TU),
    ("30x16/99", "safe-opening", (3, 3), "Tu et al. PSEQ-D256", 0.5345, 10**8, 4, TU),
    ("30x16/99", "safe-click", (0, 0), "Hill", 0.4113, 10**7, 4, HILL),
    ("30x16/99", "safe-opening", (3, 3), "Hill", 0.543, 10**7, 3, HILL),
]
"""The published win rates, as printed: a rate printed to d decimals may be off by up to
half a unit of its last digit, which ``rounding`` adds to each side of the interval."""


def read_win_rates(path: Path) -> pd.DataFrame:
    """Read the table of win_rates.py, checked for the rows and columns the comparison needs."""
    if not path.is_file():
        raise SystemExit(f"error: no win-rate table at {path}: run "
                         "minestats.experiments.win_rates first, or pass --input")
    table = pd.read_csv(path)
    needed = {"board", "rule", "click_x", "click_y", "policy", "n", "successes", "win_rate",
              "ci_low", "ci_high", "seed"}
    if not needed <= set(table.columns):
        raise SystemExit(f"error: {path} lacks the columns "
                         f"{', '.join(sorted(needed - set(table.columns)))}")
    return table


def best_row(table: pd.DataFrame, board, rule, click, *, name="the table") -> pd.Series:
    """Return the ``best`` row of a win-rate table for one board, rule and first click.

    Exits with a one-line error naming ``name`` when the table has no such row.
    """
    x, y = click
    found = table[(table["policy"] == "best") & (table["board"] == board)
                  & (table["rule"] == rule) & (table["click_x"] == x) & (table["click_y"] == y)]
    if found.empty:
        raise SystemExit(f"error: {name} has no best row for {board} {rule} ({x}, {y})")
    return found.iloc[0]


def compare_published(table: pd.DataFrame, figures=PUBLISHED) -> pd.DataFrame:
    """One row per published figure: ours (``best``), the difference, its test, Holm.

    ``figures`` are entries of `PUBLISHED`; Holm's adjustment is over them.
    """
    rows = []
    for board, rule, (x, y), source, rate, games, decimals, citation in figures:
        ours = best_row(table, board, rule, (x, y))
        found = compare_to_published(int(ours["successes"]), int(ours["n"]), rate, games)
        rounding = 0.5 * 10.0**-decimals
        rows.append({"board": board, "rule": rule, "click_x": x, "click_y": y,
                     "source": source, "published_win_rate": rate, "published_n": games,
                     "policy": "best", "n": int(ours["n"]), "successes": int(ours["successes"]),
                     "win_rate": ours["win_rate"], "ci_low": ours["ci_low"],
                     "ci_high": ours["ci_high"], "difference": found.difference,
                     "difference_ci_low": found.low, "difference_ci_high": found.high,
                     "difference_method": found.method, "rounding": rounding,
                     "difference_low_with_rounding": found.low - rounding,
                     "difference_high_with_rounding": found.high + rounding, "z": found.z,
                     "p_value": found.p_value, "test": found.test, "seed": ours["seed"],
                     "citation": citation})
    frame = pd.DataFrame(rows)
    frame.insert(frame.columns.get_loc("seed"), "holm_p",
                 holm_adjust(frame["p_value"].to_numpy()))
    return frame


def main(argv=None):
    start = time.perf_counter()
    parser = base_parser(__doc__.splitlines()[0], experiment="win_rates_published")
    parser.add_argument("--input", type=Path, default=None,
                        help=f"win-rate table to compare (default <out>/{INPUT_NAME})")
    args = parser.parse_args(argv)
    source = args.input if args.input is not None else args.out / INPUT_NAME
    comparison = compare_published(read_win_rates(source))
    metadata = collect_metadata(
        seed=None, n={f"{row.board} {row.rule}": row.n for row in comparison.itertuples()},
        chunk_size=None, wall_time_s=time.perf_counter() - start,
        extra={"input": source.as_posix(), "input_metadata": source_metadata(source),
               "interval": "Newcombe hybrid score, two independent proportions, 95%",
               "test": "Fisher's exact, two-sided; Holm over the rows"})
    path = write_csv(comparison, args.out / "win_rates_published.csv", metadata=metadata,
                     summary=True)
    print("Against the published figures (policy best): ours minus published, 95 % Newcombe"
          " hybrid score interval for two independent proportions (published n known), z of"
          " the difference, Fisher's exact two-sided p and Holm's adjustment over the rows:")
    for row in comparison.itertuples():
        print(f"  {row.board:9} {row.rule:12} {row.source:20} published"
              f" {row.published_win_rate:.4f} (n = {row.published_n:,}), ours"
              f" {row.win_rate:.4f} (n = {row.n:,}, seed {row.seed}): difference"
              f" {row.difference:+.4f} [{row.difference_ci_low:+.4f},"
              f" {row.difference_ci_high:+.4f}]"
              f" ([{row.difference_low_with_rounding:+.4f},"
              f" {row.difference_high_with_rounding:+.4f}] with the published rounding),"
              f" z = {row.z:+.2f}, {p_text(row.p_value, digits=2)},"
              f" Holm {p_text(row.holm_p, digits=2)}")
    print(f"Wrote {path}; {time.perf_counter() - start:.1f} s wall")


if __name__ == "__main__":
    main()
