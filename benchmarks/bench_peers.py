"""minestats against its peer ms_toollib, on the same inputs, in one run.

1. Mine probabilities on Expert positions where the single-point rules stall (the
   stalls of games that guess a random safe cell): the median and 99th percentile
   of one call of `mine_probabilities` (the float path, compiled), of
   ``mine_probabilities(..., exact=True)`` (big integers and Fractions), and of
   ms_toollib's ``cal_probability_onboard`` on the same positions; the largest
   difference between our floats and the peer's.
2. The logic solver: boards per second of ``solve_batch(..., solver="logic")`` on
   Expert boards dealt ``safe-opening`` from the centre, against ms_toollib's
   ``is_solvable`` on the same boards and click, and the share each passes (the
   peer's solver is weaker: it enumerates at most 55 cells and does not use the
   mine count, so it passes fewer).
3. No-guess generation: milliseconds per Expert board of
   ``generate_no_guess("expert", "centre", rule="safe-click")`` (retry, logic)
   against ms_toollib's ``laymine_solvable`` (safe first click, retried until its
   solver passes the board), for the same number of boards.

Times are CPU time of this process (`time.process_time`, one core), compile time
excluded by a warm-up, each section repeated ``--repeats`` times and the median
taken; ``ours_faster_by`` is how many times faster ours is (above 1: faster). The
figures go to ``benchmarks/results/peers.csv`` with the machine, date,
commit and the peer's version (`benchmarks.record`). ms_toollib is a benchmark
dependency only (``pip install ms_toollib``).

Run from the repository's root, as a module:
``.venv/bin/python -m benchmarks.bench_peers [--seed S] [--positions N] [--boards B]``
"""

import argparse
import importlib.metadata
import time

import ms_toollib
import numpy as np

from benchmarks.record import write_rows
from minestats.drivers.no_guess import generate_no_guess
from minestats.inference import mine_probabilities
from minestats.mechanics.game import neighbour_counts
from minestats.mechanics.sampling import sample_mines
from minestats.solvers import SolverOptions, deduce, solve_batch
from minestats.solvers.state import CheckedGame

EXPERT = (30, 16, 99)


def stall_positions(rng, count):
    """Expert positions at single-point stalls, as (numbers, flags) views with -1 unknown."""
    width, height, _ = EXPERT
    positions = []
    for layout in sample_mines("expert", count, rule="safe-click", click=(0, 0), seed=rng):
        state = CheckedGame(layout, (0, 0))
        while True:
            deduce(state, SolverOptions("single-point"))
            if state.over:
                break
            positions.append((np.where(state.revealed, state.numbers, -1).reshape(height, width),
                              state.flagged.reshape(height, width).copy()))
            if len(positions) >= count:
                return positions
            safe = np.flatnonzero(~state.revealed & ~state.mines)
            state.open_index(int(rng.choice(safe)))  # go on as if a guess had been safe
    return positions


def _per_call(function, inputs):
    times = []
    for item in inputs:
        start = time.process_time()
        function(item)
        times.append(time.process_time() - start)
    return np.array(times) * 1000


def bench_probabilities(rng, count, repeats):
    positions = stall_positions(rng, count)
    peer_boards = [np.where(view >= 0, view, np.where(flags, 11, 10)).tolist()
                   for view, flags in positions]
    ours = {"float": lambda p: mine_probabilities(p[0], flags=p[1], mines=99),
            "exact": lambda p: mine_probabilities(p[0], flags=p[1], mines=99, exact=True)}
    for function in ours.values():
        function(positions[0])  # compile
    medians = {key: [] for key in (*ours, "peer")}
    p99 = {key: [] for key in medians}
    for _ in range(repeats):
        for key, function in ours.items():
            times = _per_call(function, positions)
            medians[key].append(np.median(times))
            p99[key].append(np.percentile(times, 99))
        times = _per_call(lambda board: ms_toollib.cal_probability_onboard(board, 99.0),
                          peer_boards)
        medians["peer"].append(np.median(times))
        p99["peer"].append(np.percentile(times, 99))
    worst = 0.0
    for (view, flags), board in zip(positions, peer_boards, strict=True):
        ours_p = mine_probabilities(view, flags=flags, mines=99).probability
        peer_p = np.array(ms_toollib.cal_probability_onboard(board, 99.0)[0])
        hidden = view < 0
        worst = max(worst, float(np.abs(ours_p[hidden] - peer_p[hidden]).max()))
    peer = float(np.median(medians["peer"]))
    rows = []
    for key in ours:
        median = float(np.median(medians[key]))
        rows.append({"benchmark": f"mine_probabilities ({key}) vs cal_probability_onboard",
                     "unit": "ms per call (median)", "ours": round(median, 4),
                     "peer": round(peer, 4), "ours_faster_by": round(peer / median, 2),
                     "ours_p99": round(float(np.median(p99[key])), 4),
                     "peer_p99": round(float(np.median(p99["peer"])), 4),
                     "n": len(positions), "repeats": repeats,
                     "note": f"largest difference from the peer {worst:.1e}"})
    return rows


def bench_logic(rng, boards, repeats):
    width, height, mines = EXPERT
    layouts = sample_mines("expert", boards, rule="safe-opening", click="centre", seed=rng)
    peer_boards = [np.where(layout, -1, neighbour_counts(layout)).tolist() for layout in layouts]
    solve_batch(layouts[:2], "centre")  # compile
    ours_rates, peer_rates = [], []
    for _ in range(repeats):
        start = time.process_time()
        result = solve_batch(layouts, "centre")
        ours_rates.append(boards / (time.process_time() - start))
        start = time.process_time()
        peer_passed = [ms_toollib.is_solvable(board, height // 2, width // 2)
                       for board in peer_boards]
        peer_rates.append(boards / (time.process_time() - start))
    ours, peer = float(np.median(ours_rates)), float(np.median(peer_rates))
    return [{"benchmark": "solve_batch(logic) vs is_solvable", "unit": "boards per second",
             "ours": round(ours, 1), "peer": round(peer, 1),
             "ours_faster_by": round(ours / peer, 2), "ours_p99": "", "peer_p99": "",
             "n": boards, "repeats": repeats,
             "note": f"Expert safe-opening centre; passed: ours {result.solved.mean():.3f}, "
                     f"peer {np.mean(peer_passed):.3f}"}]


def bench_no_guess(seed, boards, repeats):
    width, height, mines = EXPERT
    generate_no_guess("expert", "centre", rule="safe-click", seed=seed)  # compile
    ours_times, peer_times = [], []
    for repeat in range(repeats):
        start = time.process_time()
        made = [generate_no_guess("expert", "centre", rule="safe-click",
                                  seed=f"{seed}/{repeat}/{i}") for i in range(boards)]
        ours_times.append((time.process_time() - start) / boards * 1000)
        start = time.process_time()
        for _ in range(boards):
            ms_toollib.laymine_solvable(height, width, mines, height // 2, width // 2)
        peer_times.append((time.process_time() - start) / boards * 1000)
    ours, peer = float(np.median(ours_times)), float(np.median(peer_times))
    tries = np.mean([result.tries for result in made])
    return [{"benchmark": "generate_no_guess(retry, logic) vs laymine_solvable",
             "unit": "ms per board (median)", "ours": round(ours, 3), "peer": round(peer, 3),
             "ours_faster_by": round(peer / ours, 2), "ours_p99": "", "peer_p99": "",
             "n": boards, "repeats": repeats,
             "note": f"Expert safe-click centre; our tries per board {tries:.1f}"}]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--boards", type=int, default=1000, help="Expert boards for logic")
    parser.add_argument("--no-guess-boards", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    probability_stream, logic_stream = np.random.SeedSequence(args.seed).spawn(2)
    rows = [*bench_probabilities(np.random.default_rng(probability_stream), args.positions,
                                 args.repeats),
            *bench_logic(np.random.default_rng(logic_stream), args.boards, args.repeats),
            *bench_no_guess(args.seed, args.no_guess_boards, args.repeats)]
    version = importlib.metadata.version("ms_toollib")
    for row in rows:
        row["peer_version"] = f"ms_toollib {version}"
        print(f"{row['benchmark']}: ours {row['ours']} {row['unit']}, peer {row['peer']}; "
              f"ours faster by {row['ours_faster_by']}x (n {row['n']}, {row['repeats']} repeats; "
              f"{row['note']})")
    print(f"written to {write_rows('peers', rows)}")


if __name__ == "__main__":
    main()
