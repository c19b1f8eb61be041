"""What each component of ``best`` is worth: each switched against the full player, paired.

The full player is ``best`` with its default `minestats.players.Strategy`. Each row
changes one component (off where the full player has it on, on where it has it
off, or to another size) and plays the same Expert games (30x16/99, safe first
click at the corner, ``safe-click``) with the same tie-break seeds, through
`minestats.compare`: the full player's win rate minus the variant's (positive:
the full player's setting wins more), with Newcombe's interval for paired
proportions, McNemar's exact p (Holm-adjusted over the rows) and each contender's
games per second (CPU time of one core).

Run with a fixed ``--n`` written down before the run; the rows draw from the
experiment's stream ``seed/k`` (one stream for every row, so every variant plays
the very same games).

Writes ``policy_ablation.csv`` with its sidecar and its summary twins.
"""

from __future__ import annotations

import time
from dataclasses import replace

import pandas as pd

from minestats.drivers.comparisons import compare
from minestats.experiments.common import (
    add_store_option,
    base_parser,
    open_store,
    p_text,
    store_metadata,
)
from minestats.foundations.validation import DEFAULT_ALPHA, DEFAULT_CONFIDENCE_LEVEL
from minestats.io.result_files import collect_metadata, write_csv
from minestats.players import Strategy
from minestats.stats import holm_adjust, holm_reject

BOARD, RULE, CLICK = "30x16/99", "safe-click", (0, 0)
COMPONENTS = {  # the change a row makes to the full player: its strategy fields
    "blended next-move safety off": {"blend": False},
    "unavoidable 50/50 first off": {"fifty_fifty_first": False},
    "pseudo-50/50 first on": {"pseudo_first": True},
    "50/50s that may form, in the score (weight 0.9) off": {"fifty_fifty_weight": 0.0},
    "each candidate's own 50/50 tally off (the sweep's instead)": {"long_term_risk": False},
    "progress in the score (weight 0.1) on": {"progress_weight": 0.1},
    "end game up to 1,000 layouts (not 750)": {"endgame_layouts": 1000},
    "end game off": {"endgame_layouts": 0},
    "one candidate, the safest (not up to 6)": {"max_candidates": 1},
    "no candidates off the frontier": {"off_frontier_cells": 0},
    "wider candidate lists (up to 12, 4 off the frontier) on": {"max_candidates": 12,
                                                                "off_frontier_cells": 4},
    "up to 4 cells two steps from the frontier on": {"two_step_cells": 4},
    "regions cut off from the rest solved apart off": {"isolated_cells": 0},
    "candidates in spaces below 8 covered cells put off on": {"small_space": 8},
    "cells off the frontier only within 0.95 of the safest on": {"off_frontier_share": 0.95},
    "look-ahead (2 best rescored two reveals on) on": {"look_ahead": 2},
    "next move ranked among living cells only off": {"living_next": False},
}
"""Each row's change to the full player, and the strategy fields that make it."""

COLUMNS = ["component", "full", "variant", "n", "full_rate", "variant_rate", "difference",
           "difference_ci_low", "difference_ci_high", "full_only", "variant_only",
           "mcnemar_p", "holm_p", "holm_reject", "full_games_per_second",
           "variant_games_per_second", "seed"]


def variants(full: Strategy, components=COMPONENTS) -> dict[str, Strategy]:
    """Return each row's variant of the full strategy (leaving out rows that change nothing)."""
    found = {}
    for component, change in components.items():
        variant = replace(full, **change)
        if variant != full:
            found[component] = variant
    return found


def ablation_table(*, seed, n, chunk_size, workers, store=None, board=BOARD, rule=RULE,
                   click=CLICK, components=COMPONENTS) -> pd.DataFrame:
    """Play the full player and each row's variant on the same games; one row per variant.

    The games are ``n`` layouts of ``board`` dealt by ``rule`` from ``click``
    (`minestats.compare`, common random numbers); ``components`` maps each row's
    name to the strategy fields it changes.
    """
    full = Strategy()
    rows = variants(full, components)
    contenders = [full, *rows.values()]
    result = compare(board, policies=contenders, rule=rule, click=click, n=n, seed=seed,
                     chunk_size=chunk_size, workers=workers, store=store)
    rates = result.per_contender().set_index("contender")
    table = []
    for component, variant in rows.items():
        pair = result.pair(full.label(), variant.label())
        low, high = pair.difference_ci(DEFAULT_CONFIDENCE_LEVEL)
        full_row, variant_row = rates.loc[full.label()], rates.loc[variant.label()]
        table.append({
            "component": component, "full": full.label(), "variant": variant.label(),
            "n": n, "full_rate": full_row["rate"], "variant_rate": variant_row["rate"],
            "difference": pair.difference, "difference_ci_low": low,
            "difference_ci_high": high, "full_only": pair.first_only,
            "variant_only": pair.second_only, "mcnemar_p": pair.mcnemar_p,
            "full_games_per_second": 1 / full_row["seconds_per_game"],
            "variant_games_per_second": 1 / variant_row["seconds_per_game"],
            "seed": result.seed})
    frame = pd.DataFrame(table)
    frame["holm_p"] = holm_adjust(frame["mcnemar_p"].to_numpy())
    frame["holm_reject"] = holm_reject(frame["mcnemar_p"].to_numpy(), alpha=DEFAULT_ALPHA)
    return frame[COLUMNS]


def run(argv, *, description, experiment, board=BOARD, rule=RULE, click=CLICK,
        components=COMPONENTS, games="Expert games (safe corner"):
    """Parse the script's flags, play the table and write ``<experiment>.csv``."""
    start = time.perf_counter()
    parser = base_parser(description, experiment=experiment)
    parser.add_argument("--n", type=int, default=200,
                        help="games every contender plays (default 200)")
    parser.add_argument("--chunk-size", type=int, default=50, help="games per chunk")
    add_store_option(parser)
    args = parser.parse_args(argv)
    store = open_store(args.store)
    table = ablation_table(seed=args.seed, n=args.n, chunk_size=args.chunk_size,
                           workers=args.workers, store=store, board=board, rule=rule,
                           click=click, components=components)
    metadata = collect_metadata(
        seed=args.seed, n=args.n, chunk_size=args.chunk_size,
        wall_time_s=time.perf_counter() - start,
        extra={"board": board, "rule": rule, "click": list(click),
               "holm_alpha": DEFAULT_ALPHA, "confidence_level": DEFAULT_CONFIDENCE_LEVEL,
               "interval": "Newcombe (1998) method 10 for paired proportions",
               "test": "McNemar exact"} | store_metadata(store))
    path = write_csv(table, args.out / f"{experiment}.csv", metadata=metadata, summary=True)
    print(f"Each component of best, switched against the full player, on the same "
          f"{args.n:,} {games}; seed stream {args.seed}): full minus "
          f"variant, 95 % Newcombe paired interval, McNemar exact p (Holm over "
          f"{len(table)} rows):")
    for row in table.itertuples():
        print(f"  {row.component:52} {row.full_rate:.4f} - {row.variant_rate:.4f} = "
              f"{row.difference:+.4f} [{row.difference_ci_low:+.4f}, "
              f"{row.difference_ci_high:+.4f}], {p_text(row.holm_p, digits=2)} (Holm); "
              f"{row.full_games_per_second:.0f} against {row.variant_games_per_second:.0f} "
              f"games/s")
    print(f"Wrote {path}; {time.perf_counter() - start:.1f} s wall")


def main(argv=None):
    run(argv, description=__doc__.splitlines()[0], experiment="policy_ablation")


if __name__ == "__main__":
    main()
