"""Solver pass rates on the three presets, three first-click settings and four solvers.

Boards: Beginner 9x9/10, Intermediate 16x16/40, Expert 30x16/99. Settings:
``safe-opening`` centre click (the published setting), ``safe-click`` centre and
``safe-click`` corner. Solvers: ``single-point`` (never uses the mine count),
``subset`` and ``logic`` with the mine count, and ``logic`` without it. A board
passes when the solver opens every safe cell without guessing; ``logic`` boards
that hit the configuration cap (200,000 per stall) are counted as ``capped``, not
as passes, and their share is printed.

Boards per row: ``--n-single-point`` (default 200,000) for single-point, ``--n``
(default 50,000) for the others. The solvers are four groups of rows: group ``i``
draws from child ``i`` of the stream ``--seed/k`` (``common``) and row ``j`` in it from child
``j`` of that (seed label ``"42/k/i/j"``). Every pass rate has a 95% Wilson interval.

Adjacent solvers are also compared on common boards: for each board and setting,
``--n-paired`` boards (default 10,000) are drawn once and every solver solves every
one of them (`minestats.compare`), seeded by child ``j`` of child 4 of
the stream ``--seed/k`` (``common``) (seed label ``"42/k/4/j"``). Each pair (single-point
against
subset, subset against logic, logic against logic without the mine count) gets its
2x2 table of boards passed by both, by one only, by neither; the difference of pass
rates (first minus second) with Newcombe's interval for paired proportions, the
interval two independent samples of the same n would give, the ratio of their widths,
and McNemar's exact p-value, judged together by Holm's method.

The single-point rows under ``safe-opening`` are compared with the published
figures (Beginner 0.637 +/- 0.021, Intermediate 0.241 +/- 0.019, Expert 0.001 +/-
0.001; n = 2,000 each, centre click, normal intervals): ours minus published with
Newcombe's hybrid score interval for two independent proportions (the published n is
known, so its count is ``round(p * 2000)``: 1,274, 482 and 2), and Fisher's exact test
of the two counts (exact at the Expert count of 2, where a z is not), judged together
by Holm's method (`minestats.stats.compare_to_published`; its z is left out, as it
means little at a count of 2).

Writes ``<out>/solver_pass_rates.csv``, ``<out>/solver_pass_rates_published.csv`` and
``<out>/solver_pass_rates_paired.csv``, each with its ``.json`` sidecar.

Usage: ``python -m minestats.experiments.solver_pass_rates [--seed 42] [--n 50000]
[--n-single-point 200000] [--n-paired 10000] [--workers -1] [--out results]``
"""

from __future__ import annotations

import time

import numpy as np
import pandas as pd

from minestats.drivers.comparisons import compare
from minestats.drivers.pass_rates import DEFAULT_CHUNK_SIZE
from minestats.experiments.common import (
    PAIRED_METHODS,
    base_parser,
    format_pairs,
    format_proportion,
    p_text,
    recorded_workers,
    row_seeds,
)
from minestats.experiments.pass_rate_runs import pass_rate_groups, solver_pool
from minestats.foundations.board import BEGINNER, EXPERT, INTERMEDIATE
from minestats.foundations.validation import DEFAULT_ALPHA, DEFAULT_CONFIDENCE_LEVEL
from minestats.io.result_files import collect_metadata, write_csv
from minestats.runs.sweeps import grid_seeds
from minestats.solvers import SolverOptions
from minestats.stats import (
    compare_to_published,
    holm_reject,
    wilson_interval,
)

BOARDS = (BEGINNER, INTERMEDIATE, EXPERT)
SETTINGS = (("safe-opening", "centre"), ("safe-click", "centre"), ("safe-click", "corner"))
SOLVERS = (("single-point", False), ("subset", True), ("logic", True), ("logic", False))
PUBLISHED = {  # single-point, safe-opening, centre click: (pass rate, +/- normal 95%)
    "9x9/10": (0.637, 0.021), "16x16/40": (0.241, 0.019), "30x16/99": (0.001, 0.001),
}
PUBLISHED_N = 2_000
CONFIDENCE_LEVEL = DEFAULT_CONFIDENCE_LEVEL
ALPHA = DEFAULT_ALPHA
COLUMNS = ["board", "rule", "click", "solver", "use_mine_count", "n", "successes", "capped",
           "lost_first_click", "pass_rate", "ci_low", "ci_high", "seed", "seconds_per_game"]
PAIRED_COLUMNS = ["board", "rule", "click", "first", "second", "n", "both", "first_only",
                  "second_only", "neither", "first_rate", "first_ci_low", "first_ci_high",
                  "second_rate", "second_ci_low", "second_ci_high", "difference",
                  "difference_ci_low", "difference_ci_high", "unpaired_ci_low",
                  "unpaired_ci_high", "width_ratio", "mcnemar_p", "holm_reject", "seed"]


def simulate_table(*, seed, n, n_single_point, chunk_size, pool_map) -> pd.DataFrame:
    """One row per board, setting and solver, ordered board, setting, solver."""
    groups = [([{"board": board, "solver": solver, "use_mine_count": count, "rule": rule,
                 "click": click} for board in BOARDS for rule, click in SETTINGS],
               n_single_point if solver == "single-point" else n)
              for solver, count in SOLVERS]
    table = pass_rate_groups(groups, seed=seed, chunk_size=chunk_size, pool_map=pool_map)
    table["click"] = [click for _ in SOLVERS for _ in BOARDS for _, click in SETTINGS]
    table["capped_share"] = table["capped"] / table["n"]
    table["capped_ci_low"], table["capped_ci_high"] = wilson_interval(
        table["capped"].to_numpy(), table["n"].to_numpy(), confidence_level=CONFIDENCE_LEVEL)
    order = {"board": [str(b) for b in BOARDS], "rule": [r for r, _ in SETTINGS],
             "click": ["centre", "corner"], "solver": ["single-point", "subset", "logic"],
             "use_mine_count": [True, False]}
    table = table.sort_values(list(order), key=lambda column: column.map(
        {value: i for i, value in enumerate(order[column.name])}), kind="stable")
    rest = [column for column in table.columns if column not in COLUMNS]
    return table[COLUMNS + rest].reset_index(drop=True)


def paired_table(*, seed, n, chunk_size, pool_map) -> pd.DataFrame:
    """Adjacent solvers on common boards: one row per board, setting and pair.

    Board and setting ``j`` draws from child ``j`` of child ``len(SOLVERS)`` of
    the experiment's stream ``seed/k`` (label ``"seed/4/j"``), beside the four solver groups.
    """
    contenders = [SolverOptions(solver, use_mine_count=count) for solver, count in SOLVERS]
    settings = [(board, rule, click) for board in BOARDS for rule, click in SETTINGS]
    group = row_seeds(seed, len(SOLVERS) + 1)[-1]
    frames = []
    for (board, rule, click), row_seed in zip(settings, grid_seeds(group, len(settings)),
                                              strict=True):
        result = compare(board, solvers=contenders, rule=rule, click=click, n=n,
                         seed=row_seed, chunk_size=chunk_size, workers=pool_map)
        frames.append(result.per_pair(adjacent=True, confidence_level=CONFIDENCE_LEVEL)
                      .assign(click=click))
    table = pd.concat(frames, ignore_index=True)
    table["holm_reject"] = holm_reject(table["mcnemar_p"].to_numpy(), alpha=ALPHA)
    rest = [column for column in table.columns if column not in PAIRED_COLUMNS]
    return table[PAIRED_COLUMNS + rest]


def compare_published(table: pd.DataFrame) -> pd.DataFrame:
    """Single-point, safe-opening, centre: ours minus published, its interval, exact p."""
    ours = table[(table["solver"] == "single-point") & (table["rule"] == "safe-opening")]
    rows = []
    for row in ours.itertuples():
        published, half_width = PUBLISHED[row.board]
        published_successes = round(published * PUBLISHED_N)
        found = compare_to_published(row.successes, row.n, published, PUBLISHED_N,
                                     confidence_level=CONFIDENCE_LEVEL)
        low, high = wilson_interval(published_successes, PUBLISHED_N)
        rows.append({"board": row.board, "n": row.n, "successes": row.successes,
                     "pass_rate": row.pass_rate, "ci_low": row.ci_low,
                     "ci_high": row.ci_high, "seed": row.seed,
                     "published": published, "published_half_width": half_width,
                     "published_n": PUBLISHED_N, "published_successes": published_successes,
                     "published_wilson_low": low, "published_wilson_high": high,
                     "difference": found.difference, "difference_ci_low": found.low,
                     "difference_ci_high": found.high, "difference_method": found.method,
                     "exact_p": found.p_value, "exact_test": found.test})
    comparison = pd.DataFrame(rows)
    comparison["holm_reject"] = holm_reject(comparison["exact_p"].to_numpy(), alpha=ALPHA)
    return comparison


def format_table(table: pd.DataFrame) -> str:
    """Every pass rate with its Wilson interval, n and seed; capped share for logic."""
    lines = [f"{'board':9} {'rule':12} {'click':6} {'solver':12} {'count':5} "
             f"{'pass rate [95% Wilson]':24} {'successes/n':>16} {'capped':>7} "
             f"{'seed':>7} {'ms/board':>8}"]
    for row in table.itertuples():
        lines.append(
            f"{row.board:9} {row.rule:12} {row.click:6} {row.solver:12} "
            f"{'yes' if row.use_mine_count else 'no':5} "
            f"{row.pass_rate:.4f} [{row.ci_low:.4f}, {row.ci_high:.4f}]  "
            f"{f'{row.successes:,}/{row.n:,}':>16} {row.capped:>7,} {row.seed:>7} "
            f"{1000 * row.seconds_per_game:8.3f}")
    return "\n".join(lines)


def format_capped(table: pd.DataFrame) -> str:
    """Format the capped share of every logic row, with its Wilson interval."""
    logic = table[table["solver"] == "logic"]
    lines = [f"Capped share of the logic rows (gave up after {logic['max_configurations'].max():,}"
             f" configurations in one stall; counted as not passed), 95% Wilson:"]
    for row in logic.itertuples():
        lines.append(f"  {row.board:9} {row.rule:12} {row.click:6} mine count "
                     f"{'yes' if row.use_mine_count else 'no ':3}: "
                     + format_proportion(row.capped, row.n, row.capped_ci_low,
                                         row.capped_ci_high, row.seed, digits=5))
    return "\n".join(lines)


def format_comparison(comparison: pd.DataFrame) -> str:
    """Ours minus published with Newcombe's interval, Fisher's exact p and Holm's verdict."""
    lines = [f"Single-point, safe-opening, centre click: ours minus published (published n = "
             f"{PUBLISHED_N:,} each, so its count is known), {CONFIDENCE_LEVEL:.0%} Newcombe "
             f"hybrid score interval for two independent proportions; Fisher's exact test "
             f"of the two counts, Holm at alpha = {ALPHA} over the {len(comparison)} boards:"]
    for row in comparison.itertuples():
        verdict = ("difference shown" if row.holm_reject else
                   "no difference shown at this n")
        lines.append(
            f"  {row.board:9} ours "
            + format_proportion(row.successes, row.n, row.ci_low, row.ci_high, row.seed)
            + f" - published {row.published:.3f} ({row.published_successes:,}/"
            f"{row.published_n:,}) = {row.difference:+.5f} [{row.difference_ci_low:+.5f}, "
            f"{row.difference_ci_high:+.5f}]; Fisher exact {p_text(row.exact_p)}: {verdict}")
    return "\n".join(lines)


def format_paired(paired: pd.DataFrame) -> str:
    """Each adjacent pair: both rates, the paired difference and what pairing saved."""
    return "\n".join([
        f"Adjacent solvers on common boards (n = {paired['n'].iloc[0]:,} per board and "
        f"setting): first minus second pass rate, {CONFIDENCE_LEVEL:.0%} Newcombe paired "
        f"interval, width against the unpaired interval at the same n, McNemar exact p "
        f"(Holm at alpha = {ALPHA}):"] + format_pairs(
            paired, setting=lambda row: f"{row.board:9} {row.rule:12} {row.click:6}"))


def main(argv=None):
    start = time.perf_counter()
    parser = base_parser(__doc__.splitlines()[0], experiment="solver_pass_rates")
    parser.add_argument("--n", type=int, default=50_000,
                        help="boards per subset and logic row (default 50,000)")
    parser.add_argument("--n-single-point", type=int, default=200_000,
                        help="boards per single-point row (default 200,000)")
    parser.add_argument("--n-paired", type=int, default=10_000,
                        help="boards per board and setting on which every solver runs, for "
                             "the paired differences (default 10,000)")
    parser.add_argument("--chunk-size", type=int, default=DEFAULT_CHUNK_SIZE,
                        help=f"boards per chunk (default {DEFAULT_CHUNK_SIZE:,})")
    args = parser.parse_args(argv)
    with solver_pool(args.workers) as pool_map:
        table = simulate_table(seed=args.seed, n=args.n, n_single_point=args.n_single_point,
                               chunk_size=args.chunk_size, pool_map=pool_map)
        paired = paired_table(seed=args.seed, n=args.n_paired, chunk_size=args.chunk_size,
                              pool_map=pool_map)
    comparison = compare_published(table)
    extra = {"row_seeds": dict(zip(
        table["board"] + " " + table["rule"] + " " + table["click"] + " " + table["solver"]
        + np.where(table["use_mine_count"], "", " (no mine count)"), table["seed"],
        strict=True)), "confidence_level": CONFIDENCE_LEVEL, "workers": recorded_workers(args)}
    inputs = {"seed": args.seed, "chunk_size": args.chunk_size,
              "n": {"single-point": args.n_single_point, "subset": args.n, "logic": args.n},
              "wall_time_s": time.perf_counter() - start}
    path = write_csv(table, args.out / "solver_pass_rates.csv", summary=True,
                     metadata=collect_metadata(**inputs, extra=extra))
    published_path = write_csv(
        comparison, args.out / "solver_pass_rates_published.csv", summary=True,
        metadata=collect_metadata(**inputs, extra=extra | {
            "holm_alpha": ALPHA,
            "interval": "ours minus published: Newcombe (1998) method 10, hybrid score "
                        "interval for two independent proportions "
                        "(minestats.stats.compare_to_published), published count "
                        f"round(p * {PUBLISHED_N})",
            "test": "Fisher's exact test of the two counts (scipy fisher_exact, two-sided; "
                    "minestats.stats.compare_to_published)"}))
    paired_path = write_csv(
        paired, args.out / "solver_pass_rates_paired.csv", summary=True,
        metadata=collect_metadata(**inputs | {"n": args.n_paired}, extra={
            "row_seeds": dict(zip(paired["board"] + " " + paired["rule"] + " "
                                  + paired["click"], paired["seed"], strict=True)),
            "confidence_level": CONFIDENCE_LEVEL, "workers": recorded_workers(args),
            "holm_alpha": ALPHA,
            **PAIRED_METHODS}))
    print(f"Solver pass rates: n = {args.n_single_point:,} boards per single-point row, "
          f"{args.n:,} per subset and logic row; seed stream {args.seed} (solver group i, row j:"
          f" seed {args.seed}/i/j); chunk size {args.chunk_size:,}; "
          f"{CONFIDENCE_LEVEL:.0%} Wilson intervals; count = solver uses the mine count")
    print(format_table(table))
    print()
    print(format_capped(table))
    print()
    print(format_comparison(comparison))
    print()
    print(format_paired(paired))
    print(f"Wrote {path}, {published_path}, {paired_path} and their sidecars; "
          f"{time.perf_counter() - start:.1f} s wall")


if __name__ == "__main__":
    main()
