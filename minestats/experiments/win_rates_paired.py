"""The policies on common games: safest against best on every board and rule, paired.

For every board and setting of the win-rate table (`win_rates.setups`: 8x8/10, 9x9/10,
16x16/40 and 30x16/99, each under a safe first click at the corner, an opening start,
Windows XP's placement and no protection), ``--n-*`` layouts are drawn once and every
policy plays every one of them, with the same tie-break seeds (`minestats.compare`);
setting ``j`` draws from child ``j`` of the experiment's stream ``seed/k``. Each
adjacent pair (``safest`` then ``best``) gets its 2x2 table of games won by both, by
one only, by neither; the paired difference with Newcombe's interval for paired
proportions, how much narrower it is than the unpaired interval at the same n, and
McNemar's exact p, Holm-adjusted over the pairs.

Run with a fixed n written down before the run. Writes ``win_rates_paired.csv`` with
its sidecar and its summary twins.
"""

from __future__ import annotations

import time

import pandas as pd

from minestats.drivers.comparisons import compare
from minestats.experiments.common import (
    PAIRED_METHODS,
    PAPER_POLICIES,
    add_store_option,
    base_parser,
    format_pairs,
    open_store,
    row_seeds,
    store_metadata,
)
from minestats.experiments.win_rates import BOARDS, setups
from minestats.foundations.validation import DEFAULT_ALPHA, DEFAULT_CONFIDENCE_LEVEL
from minestats.io.result_files import collect_metadata, write_csv
from minestats.stats import holm_reject

COLUMNS = ["board", "rule", "click_x", "click_y", "first", "second", "n", "both",
           "first_only", "second_only", "neither", "first_rate", "second_rate",
           "difference", "difference_ci_low", "difference_ci_high", "unpaired_ci_low",
           "unpaired_ci_high", "width_ratio", "mcnemar_p", "holm_reject", "seed"]


def paired_table(*, seed, n_small, n_intermediate, n_expert, chunk_size, workers,
                 store=None) -> pd.DataFrame:
    """Adjacent policies on common games: one row per board, setting and pair."""
    settings = [(board, rule, click) for board in BOARDS for rule, click in setups(board)]
    sizes = {8: n_small, 9: n_small, 16: n_intermediate, 30: n_expert}
    frames = [compare(board, policies=PAPER_POLICIES, rule=rule, click=click,
                      n=sizes[board.width], seed=setting_seed, chunk_size=chunk_size,
                      workers=workers, store=store)
              .per_pair(adjacent=True, confidence_level=DEFAULT_CONFIDENCE_LEVEL)
              for (board, rule, click), setting_seed in zip(
                  settings, row_seeds(seed, len(settings)), strict=True)]
    table = pd.concat(frames, ignore_index=True)
    table["holm_reject"] = holm_reject(table["mcnemar_p"].to_numpy(), alpha=DEFAULT_ALPHA)
    rest = [column for column in table.columns if column not in COLUMNS]
    return table[COLUMNS + rest]


def format_paired(paired: pd.DataFrame) -> str:
    """Each adjacent pair: both rates, the paired difference and what pairing saved."""
    return "\n".join([
        f"Adjacent policies on common games: second minus first win rate, "
        f"{DEFAULT_CONFIDENCE_LEVEL:.0%} Newcombe paired interval, its width against "
        f"the unpaired interval at the same n, McNemar exact p (Holm at alpha = "
        f"{DEFAULT_ALPHA} over the {len(paired)} pairs):"] + format_pairs(
            paired, setting=lambda row: f"{row.board:9} {row.rule:12} "
                                        f"({row.click_x},{row.click_y})",
            later_minus_earlier=True, p_digits=2))


def main(argv=None):
    start = time.perf_counter()
    parser = base_parser(__doc__.splitlines()[0], experiment="win_rates_paired")
    parser.add_argument("--n-small", type=int, default=500,
                        help="common games per 8x8 and 9x9 setting (default 500)")
    parser.add_argument("--n-intermediate", type=int, default=150,
                        help="common games per 16x16 setting (default 150)")
    parser.add_argument("--n-expert", type=int, default=50,
                        help="common games per 30x16 setting (default 50)")
    parser.add_argument("--chunk-size", type=int, default=50, help="games per chunk")
    add_store_option(parser)
    args = parser.parse_args(argv)
    store = open_store(args.store)
    paired = paired_table(seed=args.seed, n_small=args.n_small,
                          n_intermediate=args.n_intermediate, n_expert=args.n_expert,
                          chunk_size=args.chunk_size, workers=args.workers, store=store)
    metadata = collect_metadata(
        seed=args.seed, chunk_size=args.chunk_size,
        n={"8x8 and 9x9": args.n_small, "16x16": args.n_intermediate, "30x16": args.n_expert},
        wall_time_s=time.perf_counter() - start,
        extra={"holm_alpha": DEFAULT_ALPHA, "confidence_level": DEFAULT_CONFIDENCE_LEVEL,
               **PAIRED_METHODS} | store_metadata(store))
    path = write_csv(paired, args.out / "win_rates_paired.csv", metadata=metadata,
                     summary=True)
    print(format_paired(paired))
    print(f"Wrote {path}; {time.perf_counter() - start:.1f} s wall")


if __name__ == "__main__":
    main()
