"""A book for Expert's safe corner showing a number? Every candidate against `best`'s move, paired.

On Expert (30x16/99) with the first click safe at the corner (0, 0), the corner shows
a number k in about half the games and nothing else opens: the position is the same
in every such game, so a book could name the second move. ``best`` guesses another
corner there (all three score alike; its tie-break seed picks one). For k = 1, 2
and 3, this experiment opens ``best``'s pick and each cell a book might name instead
(the other two corners, the five cells two steps from the click, and the two cells
three steps out along the walls) on the same ``--n`` layouts drawn exactly from the
position's posterior, ``best`` playing on with common tie-break seeds
(`minestats.players.values.rollouts`, as `minestats.move_values` does).

Each row is one candidate under one k: its win rate with a Wilson interval; its
paired difference to ``best``'s pick with Newcombe's interval and McNemar's exact p,
Holm-adjusted over the candidates of every k; and what a book entry would add to the
win rate of all games from the corner, P(k) times that difference, where P(k), the
chance that the corner shows k, is exact (three neighbours of 479 cells, 99 mines:
hypergeometric). A book entry is worth playing only where Holm rejects with a positive
difference; it would then be confirmed on another stream before any game.

Run with a fixed ``--n`` written down before the run; layouts draw from the
experiment's stream ``seed/k``, child k - 1 for the corner showing k. Writes
``opening_book.csv`` with its sidecar and its summary twins.
"""

from __future__ import annotations

import time
from fractions import Fraction
from math import comb

import numpy as np
import pandas as pd

from minestats.experiments.common import (
    PAIRED_METHODS,
    add_store_option,
    base_parser,
    open_store,
    p_text,
    row_seeds,
    store_metadata,
)
from minestats.foundations.board import Board
from minestats.foundations.policies import POLICY_TABLE
from minestats.foundations.seeds import seed_label
from minestats.foundations.validation import DEFAULT_ALPHA, DEFAULT_CONFIDENCE_LEVEL
from minestats.frontier.posterior import draw_layouts
from minestats.io.result_files import collect_metadata, write_csv
from minestats.mechanics.game import neighbour_table
from minestats.players.player import _position_memo, check_strategy, tie_seed
from minestats.players.values import best_move, rollouts
from minestats.runs.sweeps import run_jobs
from minestats.runs.tally import Tally
from minestats.stats import (
    holm_adjust,
    holm_reject,
    mcnemar_p_value,
    paired_difference_interval,
    wilson_interval,
)

EXPERT = Board(30, 16, 99)
CLICK = (0, 0)
SHOWN = (1, 2, 3)
"""The numbers the corner may show with nothing else opened (0 opens a region)."""
BOOK_CELLS = ((29, 0), (0, 15), (29, 15), (2, 0), (0, 2), (2, 1), (1, 2), (2, 2), (3, 0),
              (0, 3))
"""The cells valued: the three other corners (``best``'s pick among them) and the cells a
book might name instead, two steps from the click and three out along the walls."""
COLUMNS = ["shown", "p_shown", "x", "y", "pick", "n", "wins", "win_rate", "win_rate_ci_low",
           "win_rate_ci_high", "pick_only", "cell_only", "difference", "difference_ci_low",
           "difference_ci_high", "mcnemar_p", "holm_p", "holm_reject", "game_gain",
           "game_gain_ci_low", "game_gain_ci_high", "seed"]


def shown_chance(shown: int) -> Fraction:
    """Return the exact chance that the safe corner of Expert shows ``shown``.

    The click is safe, so the 99 mines lie among the other 479 cells, all layouts
    alike; the corner's three neighbours hold ``shown`` of them.

    Examples
    --------
    >>> round(float(shown_chance(1)), 4), sum(shown_chance(k) for k in range(4))
    (0.3916, Fraction(1, 1))
    """
    cells, mines, around = EXPERT.cells - 1, EXPERT.mines, 3
    return Fraction(comb(around, shown) * comb(cells - around, mines - shown),
                    comb(cells, mines))


def _position(shown: int) -> np.ndarray:
    """Return the board's numbers: the corner showing ``shown``, every other cell unknown."""
    numbers = np.full(EXPERT.cells, -1, dtype=np.int64)
    numbers[EXPERT.index(CLICK)] = shown
    return numbers


def value_chunk(config, size, seed_sequence) -> Tally:
    """Play every candidate of ``config`` on ``size`` posterior layouts; count the outcomes.

    ``config`` is ``(shown, cells)`` with ``best``'s pick first. Returns, per candidate,
    the games it won (``wins``), those the pick won and it lost (``pick_only``), and
    those it won and the pick lost (``cell_only``); the first candidate is the pick,
    counted against itself.
    """
    shown, cells = config
    numbers = _position(shown)
    revealed = numbers >= 0
    flagged = np.zeros(EXPERT.cells, dtype=bool)
    table = neighbour_table(EXPERT.width, EXPERT.height)
    settings = check_strategy(None).settings()
    layout_seed, tie_seeds = seed_sequence.spawn(2)
    layouts = draw_layouts(numbers, table, revealed, flagged, EXPERT.width, EXPERT.mines,
                           size, tie_seed(layout_seed))
    seeds = np.array([tie_seed(child) for child in tie_seeds.spawn(size)], dtype=np.int64)
    memo = _position_memo(EXPERT.width, EXPERT.height, EXPERT.mines, settings, False)
    won, sound = rollouts(layouts, table, EXPERT.width, EXPERT.mines, revealed, flagged,
                          np.array([EXPERT.index(cell) for cell in cells], dtype=np.int64),
                          POLICY_TABLE["best"].code, settings, seeds, memo)
    if not sound:
        raise RuntimeError("a deduction contradicted a layout drawn from the posterior (a bug)")
    pick = won[:, :1]
    return Tally({"wins": won.sum(axis=0), "pick_only": (pick & ~won).sum(axis=0),
                  "cell_only": (won & ~pick).sum(axis=0)})


def candidates(shown: int, seed) -> list[tuple[int, int]]:
    """Return `BOOK_CELLS` with ``best``'s own pick (tie-break ``seed``) first."""
    move = best_move(_position(shown).reshape(EXPERT.height, EXPERT.width),
                     mines=EXPERT.mines, seed=seed)
    pick = (move.x, move.y)
    if pick not in BOOK_CELLS:
        raise RuntimeError(f"best's move {pick} is not one of the cells valued")
    return [pick, *(cell for cell in BOOK_CELLS if cell != pick)]


def book_table(*, seed, n, chunk_size, workers, store=None) -> pd.DataFrame:
    """Every candidate under every number shown: its value and its gain over ``best``'s."""
    seeds = row_seeds(seed, len(SHOWN))
    configs = [(shown, tuple(candidates(shown, child)))
               for shown, child in zip(SHOWN, seeds, strict=True)]
    counts = run_jobs(value_chunk, list(zip(configs, seeds, strict=True)), n=n,
                      chunk_size=chunk_size, workers=workers, store=store)
    rows = []
    for (shown, cells), child, total in zip(configs, seeds, counts, strict=True):
        wins, pick_only, cell_only = total["wins"], total["pick_only"], total["cell_only"]
        chance = float(shown_chance(shown))
        for index, cell in enumerate(cells):
            both = int(wins[0] - pick_only[index])
            table = [[both, int(cell_only[index])], [int(pick_only[index]),
                                                     n - both - int(pick_only[index])
                                                     - int(cell_only[index])]]
            interval = wilson_interval(int(wins[index]), n)
            difference = paired_difference_interval(table)
            gap = (int(cell_only[index]) - int(pick_only[index])) / n
            rows.append({
                "shown": shown, "p_shown": chance, "x": cell[0], "y": cell[1],
                "pick": index == 0, "n": n, "wins": int(wins[index]),
                "win_rate": int(wins[index]) / n, "win_rate_ci_low": interval.low,
                "win_rate_ci_high": interval.high, "pick_only": int(pick_only[index]),
                "cell_only": int(cell_only[index]),
                "difference": gap, "difference_ci_low": difference.low,
                "difference_ci_high": difference.high,
                "mcnemar_p": mcnemar_p_value(table) if index else 1.0,
                "game_gain": chance * gap,
                "game_gain_ci_low": chance * difference.low,
                "game_gain_ci_high": chance * difference.high, "seed": seed_label(child)})
    frame = pd.DataFrame(rows)
    others = ~frame["pick"]
    frame["holm_p"] = 1.0
    frame["holm_reject"] = False
    frame.loc[others, "holm_p"] = holm_adjust(frame.loc[others, "mcnemar_p"].to_numpy())
    frame.loc[others, "holm_reject"] = holm_reject(frame.loc[others, "mcnemar_p"].to_numpy(),
                                                   alpha=DEFAULT_ALPHA)
    return frame[COLUMNS]


def format_book(frame: pd.DataFrame) -> str:
    """Per number shown: ``best``'s pick, then each candidate's gain over it."""
    lines = [f"Expert, safe corner showing k: each candidate minus best's pick, win rate "
             f"(points, {DEFAULT_CONFIDENCE_LEVEL:.0%} Newcombe paired), McNemar p (Holm over "
             f"{int((~frame['pick']).sum())}), and what it adds to all games (P(k) x "
             f"difference):"]
    for shown, rows in frame.groupby("shown", sort=True):
        pick = rows[rows["pick"]].iloc[0]
        lines.append(f"k = {shown} (P = {pick.p_shown:.4f}): best plays ({pick.x}, {pick.y}), "
                     f"wins {pick.win_rate:.2%} of {pick.n:,} [{pick.win_rate_ci_low:.2%}, "
                     f"{pick.win_rate_ci_high:.2%}], seed {pick.seed}")
        for row in rows[~rows["pick"]].itertuples():
            lines.append(
                f"  ({row.x:2}, {row.y:2}) {100 * row.difference:+6.2f} "
                f"[{100 * row.difference_ci_low:+6.2f}, {100 * row.difference_ci_high:+6.2f}]"
                f"  Holm {p_text(row.holm_p)}{' *' if row.holm_reject else '  '}  games "
                f"{100 * row.game_gain:+.3f} [{100 * row.game_gain_ci_low:+.3f}, "
                f"{100 * row.game_gain_ci_high:+.3f}]")
    return "\n".join(lines)


def main(argv=None):
    start = time.perf_counter()
    parser = base_parser(__doc__.splitlines()[0], experiment="opening_book")
    parser.add_argument("--n", type=int, default=400,
                        help="posterior layouts per number shown, each played by every "
                             "candidate (default 400)")
    parser.add_argument("--chunk-size", type=int, default=100, help="layouts per chunk")
    add_store_option(parser)
    args = parser.parse_args(argv)
    store = open_store(args.store)
    frame = book_table(seed=args.seed, n=args.n, chunk_size=args.chunk_size,
                       workers=args.workers, store=store)
    metadata = collect_metadata(
        seed=args.seed, n=args.n, chunk_size=args.chunk_size,
        wall_time_s=time.perf_counter() - start,
        extra={"holm_alpha": DEFAULT_ALPHA, "confidence_level": DEFAULT_CONFIDENCE_LEVEL,
               **PAIRED_METHODS} | store_metadata(store))
    path = write_csv(frame, args.out / "opening_book.csv", metadata=metadata, summary=True)
    print(format_book(frame))
    print(f"Wrote {path}; {time.perf_counter() - start:.1f} s wall")


if __name__ == "__main__":
    main()
