"""Windows XP's weighing as ``best`` plays it, against exact fractions at its guesses.

Under Windows XP's rule a layout that fits a position weighs 1 + the mines of its
leading run (`minestats.inference.probabilities`, module notes). ``best`` weighs them
so in floating point, in its compiled kernel (`minestats.players.weighing`); the
library's `minestats.mine_probabilities` with ``exact=True`` gives the same
probabilities as exact fractions, by its own engine (checked against the rule's own
deals on small boards in the tests). This experiment plays ``--n`` Expert games
dealt by the rule (30x16/99, first click at the corner, the rule-aware ``best``) and,
at every position where a game guessed, compares the two on every unknown cell: the
largest difference, worked out exactly from the float. It also gives how far the
rule moves the probabilities there (the largest difference between the exact
weighed and the exact unweighed ones), so the check is seen to bite.

Run with a fixed ``--n`` written down before the run; the games draw from the
experiment's stream ``seed/k``. Writes ``winxp_probabilities_positions.csv`` (one row
a position) and its summary, ``winxp_probabilities.csv`` (`summarise`), with their
sidecars and the summary's twins.
"""

from __future__ import annotations

import time
from fractions import Fraction

import numpy as np
import pandas as pd

from minestats.experiments.common import base_parser
from minestats.foundations.board import Board
from minestats.foundations.seeds import as_seed_sequence, seed_label
from minestats.inference import mine_probabilities
from minestats.io.result_files import collect_metadata, write_csv
from minestats.mechanics.game import neighbour_table
from minestats.mechanics.rules import winxp_order
from minestats.mechanics.sampling import sample_mines
from minestats.players.player import FAST_BUDGET, GUESS_KINDS, play_games
from minestats.players.values import guess_positions
from minestats.players.weighing import weigh_position

EXPERT = Board(30, 16, 99)
RULE, CLICK = "winxp", (0, 0)
COLUMNS = ["game", "guess", "kind", "unknown", "flagged", "weighed", "largest_difference",
           "rule_moves_by", "seed"]
"""One row a position: ``weighed`` is False where every layout that fits weighs alike
(the rule's leading run starts on an open cell); ``largest_difference`` is the player's
float against the exact fraction, ``rule_moves_by`` the exact weighed against the
exact unweighed probability, each the largest over the unknown cells."""


def _largest(floats, fractions, cells) -> float:
    """Return the largest |float - fraction| over ``cells``, worked out exactly."""
    return float(max(abs(Fraction(float(floats[cell])) - fractions[cell]) for cell in cells))


def position_rows(*, seed, n) -> pd.DataFrame:
    """Play ``n`` games; return one row per position at which one of them guessed."""
    deal_seed, tie_seeds = as_seed_sequence(seed).spawn(2)
    width, height, mines = EXPERT.width, EXPERT.height, EXPERT.mines
    click = EXPERT.index(CLICK)
    layouts = sample_mines(EXPERT, n, rule=RULE, click=CLICK, seed=deal_seed)
    games = play_games(layouts, [click] * n, seeds=tie_seeds.spawn(n), rule=RULE)
    table = neighbour_table(width, height)
    order = winxp_order(EXPERT.cells, click)
    rows = []
    for game, guess, revealed, flagged, numbers in guess_positions(layouts, click, games):
        unknown = ~revealed & ~flagged
        grid = np.where(revealed, numbers, -1).reshape(height, width)
        asked = {"unknown": ~revealed.reshape(height, width),
                 "flags": flagged.reshape(height, width), "mines": mines, "exact": True,
                 "max_configurations": None}
        weighed = mine_probabilities(grid, rule=RULE, click=CLICK, **asked).fractions.ravel()
        alike = mine_probabilities(grid, **asked).fractions.ravel()
        player = np.empty(EXPERT.cells)
        weigh_position(numbers, table, revealed, flagged, width, mines, FAST_BUDGET, player,
                       order)
        cells = np.flatnonzero(unknown)
        rows.append({
            "game": game, "guess": guess, "kind": GUESS_KINDS[int(games.kinds[game, guess])],
            "unknown": cells.size, "flagged": int(flagged.sum()),
            "weighed": not bool(revealed[order[0]]),
            "largest_difference": _largest(player, weighed, cells),
            "rule_moves_by": float(max(abs(weighed[cell] - alike[cell]) for cell in cells)),
            "seed": seed_label(as_seed_sequence(seed))})
    return pd.DataFrame(rows, columns=COLUMNS)


SUMMARY_COLUMNS = ["positions", "games", "n", "largest_difference", "rule_moves_by_max",
                   "rule_moves_by_median", "seed"]


def summarise(frame: pd.DataFrame, n: int) -> pd.DataFrame:
    """Return the check in three rows: every position, those weighed, those alike.

    Each row gives its ``positions`` and the ``games`` they come from (of ``n``
    played), the ``largest_difference`` between the player's float and the exact
    fraction over them, and how far the rule moves a probability there (the largest
    and the median over positions of ``rule_moves_by``).

    Examples
    --------
    >>> frame = pd.DataFrame({"game": [0, 0, 1], "weighed": [True, True, False],
    ...                       "largest_difference": [1e-16, 2e-16, 0.0],
    ...                       "rule_moves_by": [0.1, 0.3, 0.0], "seed": "7/21"})
    >>> summary = summarise(frame, 2)
    >>> summary["positions"].tolist(), summary["rule_moves_by_max"].tolist()
    ([3, 2, 1], [0.3, 0.3, 0.0])
    """
    rows = []
    seed = frame["seed"].iloc[0] if len(frame) else ""
    parts = (("every guess", frame), ("weighed", frame[frame["weighed"]]),
             ("alike (the leading run opened)", frame[~frame["weighed"]]))
    for name, part in parts:
        empty = part.empty
        rows.append({"positions": len(part), "games": part["game"].nunique(), "n": n,
                     "largest_difference": np.nan if empty else part["largest_difference"].max(),
                     "rule_moves_by_max": np.nan if empty else part["rule_moves_by"].max(),
                     "rule_moves_by_median": np.nan if empty
                     else part["rule_moves_by"].median(), "seed": seed, "name": name})
    return pd.DataFrame(rows).set_index("name").rename_axis("positions_of")[SUMMARY_COLUMNS]


def main(argv=None):
    start = time.perf_counter()
    parser = base_parser(__doc__.splitlines()[0], experiment="winxp_probabilities")
    parser.add_argument("--n", type=int, default=20,
                        help="games played; every position where one guessed is checked "
                             "(default 20)")
    args = parser.parse_args(argv)
    frame = position_rows(seed=args.seed, n=args.n)
    metadata = collect_metadata(seed=args.seed, n=args.n, chunk_size=args.n,
                                wall_time_s=time.perf_counter() - start,
                                extra={"board": "30x16/99", "rule": RULE, "click": list(CLICK),
                                       "positions": len(frame)})
    positions = write_csv(frame, args.out / "winxp_probabilities_positions.csv",
                          metadata=metadata)
    path = write_csv(summarise(frame, args.n).reset_index(),
                     args.out / "winxp_probabilities.csv", metadata=metadata, summary=True)
    weighed = frame[frame["weighed"]]
    print(f"Windows XP's weighing in best's kernel against the exact fractions, at every guess "
          f"of {args.n:,} Expert games (seed {seed_label(as_seed_sequence(args.seed))}): "
          f"{len(frame):,} positions, {len(weighed):,} of them weighed (the rest alike); "
          f"largest difference {frame['largest_difference'].max():.1e}; there the rule moves "
          f"a probability by up to {weighed['rule_moves_by'].max():.3f} "
          f"(median over positions {weighed['rule_moves_by'].median():.3f}).")
    print(f"Wrote {positions} and {path}; {time.perf_counter() - start:.1f} s wall")


if __name__ == "__main__":
    main()
