"""Win rates of every policy on the standard boards, against the best published figures.

Rows: 8x8/10, 9x9/10, 16x16/40 and 30x16/99, each under a safe first click at the corner
(``safe-click``, the literature's SFAR), a first click guaranteed an opening at (2, 2)
on the small boards and (3, 3) on Expert (``safe-opening``, SNR), Windows XP's placement
clicked at the corner, and no protection (``uniform``, corner); every policy. Each
board's rows play its ``--n-*`` games, except the rows the literature is judged by,
``best`` at the safe corner and at the opening start, which play ``--n-paper`` and
``--n-paper-opening`` when given. Row i draws from child i of the experiment's stream
``seed/k``. ``minestats.experiments.win_rates_published`` compares the ``best`` rows with the
published figures, and ``minestats.experiments.win_rates_paired`` the policies on common games.

For the Expert rows of ``best`` (safe corner, opening start), every game lost at a
guess is binned by that guess: its kind (a frontier cell, a cell off the frontier,
one cell of an unavoidable 50/50, a cell the exact end game chose), its number in the
game and its mine probability when it was made; the share of each kind, with its
Wilson interval, says how much room any policy has left (an unavoidable 50/50 loses
half the time whoever plays it).

Writes ``win_rates.csv``, ``loss_analysis.csv`` (shares by
kind), ``loss_analysis_bins.csv`` (every bin) and ``loss_analysis.png``, each with its
sidecar.
"""

from __future__ import annotations

import time

import numpy as np
import pandas as pd

from minestats.drivers.win_rates import win_rate
from minestats.experiments.common import (
    PAPER_POLICIES,
    add_store_option,
    base_parser,
    open_store,
    row_seeds,
    store_metadata,
)
from minestats.figures import plots
from minestats.foundations.board import Board
from minestats.io.result_files import collect_metadata, write_csv, write_figure
from minestats.stats import wilson_interval

BOARDS = (Board(8, 8, 10), Board(9, 9, 10), Board(16, 16, 40), Board(30, 16, 99))
def setups(board: Board):
    """(rule, click) of each row for one board."""
    opening = (3, 3) if board.width >= 30 else (2, 2)
    return [("safe-click", (0, 0)), ("safe-opening", opening), ("winxp", (0, 0)),
            ("uniform", (0, 0))]


def table_rows():
    """(board, rule, click, policy) of every row of the win-rate table, in order."""
    return [(board, rule, click, policy) for board in BOARDS
            for rule, click in setups(board) for policy in PAPER_POLICIES]


def simulate_table(*, seed, n_small, n_intermediate, n_expert, chunk_size, workers,
                   store=None, n_paper=None, n_paper_opening=None) -> pd.DataFrame:
    rows = table_rows()
    sizes = {8: n_small, 9: n_small, 16: n_intermediate, 30: n_expert}
    paper = {("safe-click", "best"): n_paper, ("safe-opening", "best"): n_paper_opening}
    results, losses = [], []
    for (board, rule, click, policy), row_seed in zip(rows, row_seeds(seed, len(rows)),
                                                      strict=True):
        n = sizes[board.width] if paper.get((rule, policy)) is None else paper[rule, policy]
        result = win_rate(board, rule=rule, click=click, policy=policy, n=n, seed=row_seed,
                          chunk_size=chunk_size, workers=workers, store=store)
        results.append(result.to_dict())
        if board.width == 30 and policy == "best" and rule in ("safe-click", "safe-opening"):
            losses.append(result.loss_table())
    return pd.DataFrame(results), pd.concat(losses, ignore_index=True)


def loss_title(bins: pd.DataFrame) -> str:
    """Return the loss figure's title: board, policy, n and seed of each row."""
    rows = bins.drop_duplicates(["rule", "click_x", "click_y"])
    return "30x16/99, best: games lost at a guess (" + "; ".join(
        f"{row.rule} ({row.click_x},{row.click_y}) n = {row.n:,}, seed {row.seed}"
        for row in rows.itertuples()) + ")"


def loss_summary(bins: pd.DataFrame) -> pd.DataFrame:
    """Per Expert row, the lost games by the kind of the guess that lost them.

    Each kind's share of the games lost at a guess, with its Wilson interval, and the
    mean mine probability of those guesses when they were made (the bins are in
    ``loss_analysis_bins.csv``).
    """
    rows = []
    keys = ["board", "rule", "click_x", "click_y", "policy", "strategy", "n", "lost", "seed"]
    for key, group in bins.groupby(keys, sort=False):
        at_guess = int(group["losses"].sum())
        for kind, part in group.groupby("kind", sort=False):
            count = int(part["losses"].sum())
            low, high = wilson_interval(count, at_guess) if at_guess else (np.nan, np.nan)
            first = int(part.loc[part["guess_low"] == 1, "losses"].sum())
            rows.append(dict(zip(keys, key, strict=True)) | {
                "lost_at_a_guess": at_guess, "kind": kind, "losses": count,
                "share": count / at_guess if at_guess else np.nan, "share_ci_low": low,
                "share_ci_high": high, "lost_at_first_guess": first,
                "mean_probability": float(part["probability_sum"].sum() / count)
                if count else np.nan})
    columns = keys[:-1] + ["lost_at_a_guess", "kind", "losses", "share", "share_ci_low",
                           "share_ci_high", "lost_at_first_guess", "mean_probability",
                           "seed"]
    return pd.DataFrame(rows)[columns]


def main(argv=None):
    start = time.perf_counter()
    parser = base_parser(__doc__.splitlines()[0], experiment="win_rates")
    parser.add_argument("--n-small", type=int, default=1000,
                        help="games per 8x8 and 9x9 row (default 1,000)")
    parser.add_argument("--n-intermediate", type=int, default=300,
                        help="games per 16x16 row (default 300)")
    parser.add_argument("--n-expert", type=int, default=100,
                        help="games per 30x16 row (default 100)")
    parser.add_argument("--n-paper", type=int, default=None,
                        help="games for each board's row the literature is judged by: safe "
                             "first click at the corner, policy best (default the board's "
                             "--n-small, --n-intermediate or --n-expert)")
    parser.add_argument("--n-paper-opening", type=int, default=None,
                        help="games for each board's opening-start row ((2, 2), on Expert "
                             "(3, 3)), policy best (default the board's size as above)")
    parser.add_argument("--chunk-size", type=int, default=50, help="games per chunk")
    add_store_option(parser)
    args = parser.parse_args(argv)
    store = open_store(args.store)
    table, bins = simulate_table(seed=args.seed, n_small=args.n_small,
                           n_intermediate=args.n_intermediate, n_expert=args.n_expert,
                           chunk_size=args.chunk_size, workers=args.workers, store=store,
                           n_paper=args.n_paper, n_paper_opening=args.n_paper_opening)
    sizes = {"8x8 and 9x9": args.n_small, "16x16": args.n_intermediate, "30x16": args.n_expert}
    paper = {"every board's safe-click (0, 0) best": args.n_paper,
             "every board's safe-opening best": args.n_paper_opening}
    inputs = {"seed": args.seed, "chunk_size": args.chunk_size,
              "n": sizes | {key: n for key, n in paper.items() if n is not None},
              "wall_time_s": time.perf_counter() - start, "extra": store_metadata(store)}
    path = write_csv(table, args.out / "win_rates.csv", metadata=collect_metadata(**inputs),
                     summary=True)
    losses = loss_summary(bins)
    loss_path = write_csv(losses, args.out / "loss_analysis.csv",
                          metadata=collect_metadata(**inputs), summary=True)
    bins_path = write_csv(bins, args.out / "loss_analysis_bins.csv",
                          metadata=collect_metadata(**inputs))
    png, pdf = write_figure(plots.plot_loss_analysis(bins, title=loss_title(bins)),
                               args.out / "loss_analysis.png",
                               metadata=collect_metadata(**inputs))
    print(f"Win rates (seed stream {args.seed}, row i = child i; 95 % Wilson intervals)")
    for row in table.itertuples():
        print(f"  {row.board:9} {row.rule:12} ({row.click_x},{row.click_y}) {row.policy:7}"
              f" {row.win_rate:.4f} [{row.ci_low:.4f}, {row.ci_high:.4f}]"
              f" ({row.successes:,}/{row.n:,}, seed {row.seed});"
              f" {row.guesses_per_game:.2f} guesses per game")
    print("Where the Expert games of best were lost: the kind of the losing guess, its share "
          "of the games lost at a guess (95 % Wilson interval):")
    for row in losses.itertuples():
        print(f"  {row.rule:12} ({row.click_x},{row.click_y}) {row.kind:12} {row.losses:,} of "
              f"{row.lost_at_a_guess:,}: {row.share:.3f} [{row.share_ci_low:.3f}, "
              f"{row.share_ci_high:.3f}] (n = {row.n:,} games, seed {row.seed})")
    print(f"Wrote {path}, {loss_path}, {bins_path}, {png}, {pdf} and their sidecars; "
          f"{time.perf_counter() - start:.1f} s wall")


if __name__ == "__main__":
    main()
