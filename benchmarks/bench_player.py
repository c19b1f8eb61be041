"""Player throughput, in one run.

1. Games per second per core for each policy on each board (safe first click at the
   corner), CPU time of this process (one core), compile time and other one-time costs
   excluded by a warm-up game of each player:
   the compiled player (`minestats.players.play_games`, one call per chunk of games)
   against the plain-Python reference player (``tests/oracles/reference_player.py``, the
   player before its game was compiled) on the first games of the same layouts,
   with the same seeds, and their ratio. The compiled games are played ``--repeats``
   times and their median speed reported, the slowest and fastest beside it: the
   machine's speed drifts by 10 to 20 % between plays of the same games.
2. Windows XP's weighing: ``best`` on the same Windows XP games (each board, the
   corner) weighing the layouts by the rule (the default) and taking them as alike
   (``Strategy(weigh_winxp=False)``), games per second per core and the ratio (the
   floor of issue 19: at most 2x slower).

The probability engine is measured against its peer in `benchmarks.bench_peers`.
Every row goes to ``benchmarks/results/player.csv`` (`benchmarks.record.write_rows`),
with the machine, date and commit.

Run from the repository's root, as a module:
``.venv/bin/python -m benchmarks.bench_player [--seed S] [--games N] [--reference R]
[--repeats K] [--only {games,winxp}]``
"""

import argparse
import time

import numpy as np

from benchmarks.record import write_rows
from minestats.mechanics.sampling import sample_mines
from minestats.players import POLICIES
from minestats.players.player import Strategy, play_games
from tests.oracles import reference_player

BOARDS = ("9x9/10", "16x16/40", "30x16/99")


def bench_games(rng, games, reference_games, repeats) -> list[dict]:
    rows = []
    print(f"games per second per core, safe-click at the corner: compiled on {games} games "
          f"(the median of {repeats} plays of them [slowest, fastest]), the Python reference "
          f"on the first {reference_games} of them")
    for board in BOARDS:
        layouts = sample_mines(board, games + 1, rule="safe-click", click=(0, 0), seed=rng)
        seeds = np.random.SeedSequence(rng.integers(2**63)).spawn(games + 1)
        for policy in POLICIES:
            play_games(layouts[:1], [0], policy=policy, seeds=seeds[:1])  # warm-up: compile
            speeds = []
            for _ in range(repeats):
                start = time.process_time()
                won = play_games(layouts[1:], np.zeros(games, dtype=int), policy=policy,
                                 seeds=seeds[1:]).won.sum()
                speeds.append(games / (time.process_time() - start))
            compiled = float(np.median(speeds))
            # warm-up: the reference's first game pays one-time costs (imports, the
            # kernels it borrows), which made the first row's figure swing 400-fold
            reference_player.play(layouts[0], (0, 0), policy=policy, seed=seeds[0])
            start = time.process_time()
            reference_won = sum(
                reference_player.play(layout, (0, 0), policy=policy, seed=seed).won
                for layout, seed in zip(layouts[1:reference_games + 1],
                                        seeds[1:reference_games + 1], strict=True))
            reference = reference_games / (time.process_time() - start)
            print(f"  {board:9} {policy:7} compiled {compiled:8.1f} games/s "
                  f"[{min(speeds):.1f}, {max(speeds):.1f}] (won {won}/{games})"
                  f"  reference {reference:7.1f} games/s (won {reference_won}/"
                  f"{reference_games})  ratio {compiled / reference:6.1f}x")
            rows.append({"benchmark": "compiled player vs plain-Python reference",
                         "board": board, "policy": policy, "rule": "safe-click",
                         "unit": "games per CPU-second", "ours": round(compiled, 1),
                         "ours_slowest": round(min(speeds), 1),
                         "ours_fastest": round(max(speeds), 1), "peer": round(reference, 1),
                         "ours_faster_by": round(compiled / reference, 2), "n_ours": games,
                         "n_peer": reference_games, "repeats": repeats})
    return rows


def bench_winxp(rng, games) -> list[dict]:
    rows = []
    print(f"best on {games} Windows XP games a board (corner): weighing the rule against "
          f"taking every layout alike")
    for board in BOARDS:
        layouts = sample_mines(board, games + 1, rule="winxp", click=(0, 0), seed=rng)
        seeds = np.random.SeedSequence(rng.integers(2**63)).spawn(games + 1)
        speeds = {}
        for weigh in (True, False):
            strategy = Strategy(weigh_winxp=weigh)
            play_games(layouts[:1], [0], seeds=seeds[:1], strategy=strategy, rule="winxp")
            start = time.process_time()
            won = play_games(layouts[1:], np.zeros(games, dtype=int), seeds=seeds[1:],
                             strategy=strategy, rule="winxp").won.sum()
            speeds[weigh] = games / (time.process_time() - start), won
        (weighed, weighed_won), (alike, alike_won) = speeds[True], speeds[False]
        print(f"  {board:9} weighed {weighed:8.1f} games/s (won {weighed_won}/{games})  alike "
              f"{alike:8.1f} games/s (won {alike_won}/{games})  slower by "
              f"{alike / weighed:4.2f}x")
        rows.append({"benchmark": "best weighing Windows XP's layouts vs taking them alike",
                     "board": board, "policy": "best", "rule": "winxp",
                     "unit": "games per CPU-second", "ours": round(weighed, 1),
                     "ours_slowest": "", "ours_fastest": "", "peer": round(alike, 1),
                     "ours_faster_by": round(weighed / alike, 2), "n_ours": games,
                     "n_peer": games, "repeats": 1})
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--reference", type=int, default=100,
                        help="games the Python reference plays per row")
    parser.add_argument("--repeats", type=int, default=3,
                        help="plays of the compiled player's games per row (their median)")
    parser.add_argument("--only", choices=("games", "winxp"),
                        help="run one section (its numbers are those of the full run)")
    args = parser.parse_args()
    games_rng, _, winxp_rng = (np.random.default_rng(child)
                               for child in np.random.SeedSequence(args.seed).spawn(3))
    rows = []
    if args.only in (None, "games"):
        rows += bench_games(games_rng, args.games, min(args.reference, args.games),
                            args.repeats)
    if args.only in (None, "winxp"):
        rows += bench_winxp(winxp_rng, args.games)
    print(write_rows("player", rows))


if __name__ == "__main__":
    main()
