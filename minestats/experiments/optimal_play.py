"""Exact optimal win probabilities on small boards, and each policy's gap to them.

For every board in ``--boards`` and every first-click rule, the exact optimal win
probability from the corner click (0, 0) (`minestats.optimal_win_probability`, a
Fraction), and for every policy its win rate from the same click over ``--n`` games
with a 95 % Wilson interval, the gap (optimal minus the rate) and its z, the gap in
standard errors of a player who wins at the optimal rate (`minestats.stats.z_scores`
with the exact optimum as the expected proportion; positive: below optimal), its
two-sided p (``gap_p``) and that p Holm-adjusted over the rows of the same policy
(``gap_p_holm``): a policy plays optimally within noise where ``gap_p_holm`` is not
below 0.05, and falls short where it is and the gap is positive. Row i
(board, rule, policy) draws from child i of the stream ``--seed/k`` (``common``). Under
``uniform`` the corner may hold a mine, for the optimal player and the policies alike.

Writes ``<out>/optimal_play.csv`` with its ``.json`` sidecar; ``--store`` makes the run
resumable (the paper-grade run keeps its chunks there).
"""

from __future__ import annotations

import time

import pandas as pd

from minestats.drivers.win_rates import win_rate
from minestats.experiments.common import (
    PAPER_POLICIES,
    PAPER_RULES,
    add_store_option,
    base_parser,
    open_store,
    recorded_workers,
    row_seeds,
    store_metadata,
)
from minestats.io.result_files import collect_metadata, write_csv
from minestats.players import optimal_win_probability
from minestats.stats import holm_adjust, two_sided_p_values, z_scores

BOARDS = ("4x4/2", "4x4/4", "4x4/6", "5x3/4")
FULL_BOARDS = (*BOARDS, "4x5/5", "5x4/6")
CLICK = (0, 0)
CHUNK_SIZE = 500


def simulate_table(*, boards, seed, n, workers, store=None) -> pd.DataFrame:
    rows = [(board, rule, policy) for board in boards for rule in PAPER_RULES
            for policy in PAPER_POLICIES]
    exact = {}
    table = []
    for (board, rule, policy), row_seed in zip(rows, row_seeds(seed, len(rows)), strict=True):
        if (board, rule) not in exact:
            exact[board, rule] = optimal_win_probability(board, rule=rule, click=CLICK)
        optimal = exact[board, rule]
        result = win_rate(board, rule=rule, click=CLICK, policy=policy, n=n, seed=row_seed,
                          chunk_size=CHUNK_SIZE, workers=workers, store=store).to_dict()
        gap_z = 0.0 - float(z_scores(result["successes"], n, float(optimal)))  # no -0.0
        table.append({**result, "optimal": float(optimal), "optimal_fraction": str(optimal),
                      "gap": float(optimal) - result["win_rate"], "gap_z": gap_z})
    table = pd.DataFrame(table)
    table["gap_p"] = two_sided_p_values(table["gap_z"].to_numpy())
    table["gap_p_holm"] = table.groupby("policy")["gap_p"].transform(
        lambda p: holm_adjust(p.to_numpy()))
    return table


def main(argv=None):
    start = time.perf_counter()
    parser = base_parser(__doc__.splitlines()[0], experiment="optimal_play")
    parser.add_argument("--n", type=int, default=2000, help="games per row (default 2,000)")
    parser.add_argument("--boards", nargs="+", default=list(BOARDS),
                        help=f"boards (default {' '.join(BOARDS)}; --full adds 20-cell ones)")
    add_store_option(parser)
    args = parser.parse_args(argv)
    store = open_store(args.store)
    table = simulate_table(boards=args.boards, seed=args.seed, n=args.n, workers=args.workers,
                           store=store)
    metadata = collect_metadata(seed=args.seed, n=args.n, chunk_size=CHUNK_SIZE,
                                wall_time_s=time.perf_counter() - start,
                                extra={"click": list(CLICK), "workers": recorded_workers(args),
                                       **store_metadata(store)})
    path = write_csv(table, args.out / "optimal_play.csv", metadata=metadata, summary=True)
    print(f"Exact optimal play from the corner against the policies (n = {args.n:,} games a "
          f"row, seed stream {args.seed}, row i = child i; 95% Wilson intervals)")
    for row in table.itertuples():
        print(f"  {row.board:6} {row.rule:12} optimal {row.optimal_fraction:>10} = "
              f"{row.optimal:.4f}; {row.policy:7} {row.win_rate:.4f} [{row.ci_low:.4f}, "
              f"{row.ci_high:.4f}] (seed {row.seed}): gap {row.gap:+.4f}, z = {row.gap_z:+.1f}, "
              f"Holm p = {row.gap_p_holm:.2g}")
    print(f"Wrote {path} and its sidecar; {time.perf_counter() - start:.1f} s wall")


if __name__ == "__main__":
    main()
