"""Throughput of the first-click simulations against a plain-Python baseline, in one run.

The baseline draws every board with ``random.sample`` over the cells its rule may
mine and tests the click's neighbourhood with a set, as the published write-up's
script does (written here from that description). Measured in the same process:

1. the first-click table (centre click, the six published board x rule rows),
   boards per second of minestats on one core and on all cores, against the baseline;
2. the all-positions Expert opening map (uniform, safe-click, winxp), boards per
   CPU-second (``time.process_time``, the median of the repetitions), against the
   baseline recounting all 480 clicks per board by the rule's definition; written to
   ``benchmarks/results/first_click.csv`` (`benchmarks.record.write_rows`);
3. peak memory (RSS) of 10 thousand against 10 million Expert boards;
4. wall time of ``python -m minestats.experiments.first_click`` on the published rows (uniform and
   safe-click at the centre) as a whole process, against the published write-up's
   script when ``--published-script PATH`` names a copy of it (the repository does
   not carry it), three pairs, to ``benchmarks/results/first_click_whole_process.csv``
   (`benchmarks.whole_process`).

Run from the repository's root, as a module:
``python -m benchmarks.bench_first_click [--quick] [--published-script PATH]``.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from benchmarks.record import write_rows
from benchmarks.whole_process import compare_whole_processes
from minestats.drivers.opening_simulation import simulate_opening
from minestats.foundations.board import BEGINNER, EXPERT, INTERMEDIATE

ROOT = Path(__file__).resolve().parents[1]
TABLE_ROWS = [(board, rule) for board in (BEGINNER, INTERMEDIATE, EXPERT)
              for rule in ("uniform", "safe-click")]
SEED = 42


def neighbourhood(board, cell):
    x, y = cell % board.width, cell // board.width
    return {(x + dx) + (y + dy) * board.width for dx in (-1, 0, 1) for dy in (-1, 0, 1)
            if 0 <= x + dx < board.width and 0 <= y + dy < board.height}


def plain_table_row(board, rule, n, generator):
    """Centre-click openings over ``n`` boards, one ``random.sample`` per board."""
    click = board.index("centre")
    around = neighbourhood(board, click)
    opened = 0
    for _ in range(n):
        pool = range(board.cells) if rule == "uniform" else [
            i for i in range(board.cells) if i != click]
        opened += not (set(generator.sample(pool, board.mines)) & around)
    return opened


def plain_all_clicks(board, rule, n, generator):
    """Every click position recounted per board, from the rule's definition.

    ``uniform`` and ``winxp`` draw the board's cells with ``random.sample``; ``winxp``
    moves a mine on the click to the first mine-free cell in row-major order.
    ``safe-click`` draws N - 1 slots, slot s being cell s before the click and cell
    s + 1 after it, a uniform layout over the other cells.
    """
    neighbourhoods = [neighbourhood(board, cell) for cell in range(board.cells)]
    slots = board.cells - 1 if rule == "safe-click" else board.cells
    counts = [0] * board.cells
    for _ in range(n):
        drawn = set(generator.sample(range(slots), board.mines))
        if rule == "winxp":
            free = next(cell for cell in range(board.cells) if cell not in drawn)
        for cell, around in enumerate(neighbourhoods):
            if rule == "safe-click":
                blocked = any((c if c < cell else c - 1) in drawn for c in around if c != cell)
            elif rule == "winxp":
                blocked = (any(c in drawn for c in around if c != cell)
                           or (cell in drawn and free in around))
            else:
                blocked = bool(drawn & around)
            counts[cell] += not blocked
    return counts


def cpu_rate(function, boards, repeats):
    """Median boards per CPU-second (``time.process_time``) of ``repeats`` calls."""
    rates = []
    for _ in range(repeats):
        start = time.process_time()
        function()
        rates.append(boards / (time.process_time() - start))
    return statistics.median(rates)


def rate(function, boards):
    start = time.perf_counter()
    function()
    return boards / (time.perf_counter() - start)


def table_throughput(n_ours, n_plain):
    generator = random.Random(SEED)
    plain = rate(lambda: [plain_table_row(b, r, n_plain, generator) for b, r in TABLE_ROWS],
                 n_plain * len(TABLE_ROWS))

    def ours(workers):
        for board, rule in TABLE_ROWS:
            simulate_opening(board, rule=rule, n=n_ours, click="centre", seed=SEED,
                             workers=workers)

    ours(1)  # load the compiled kernels before timing
    one_core = rate(lambda: ours(1), n_ours * len(TABLE_ROWS))
    # One pool for the whole table, as the experiment scripts do: a pool per row
    # would cost more to start than a row takes. Its workers inherit the kernels.
    with ProcessPoolExecutor(max_workers=os.cpu_count()) as pool:
        all_cores = rate(lambda: ours(pool), n_ours * len(TABLE_ROWS))
    print(f"first-click table, {len(TABLE_ROWS)} rows, seed {SEED}")
    print(f"  plain Python  {plain:12,.0f} boards/s  (n {n_plain} per row)")
    print(f"  minestats x1  {one_core:12,.0f} boards/s  ratio {one_core / plain:7.1f}"
          f"  (n {n_ours} per row)")
    print(f"  minestats x{os.cpu_count()}  {all_cores:12,.0f} boards/s  ratio "
          f"{all_cores / plain:7.1f}  (one pool of {os.cpu_count()} handed in)")


def map_throughput(n_ours, n_plain, repeats):
    """Boards per CPU-second of the Expert map for each rule, ours and plain; to the CSV."""
    print(f"all-positions Expert map (480 clicks per board), boards per CPU-second, "
          f"median of {repeats}, seed {SEED}")
    rows = []
    for rule in ("uniform", "safe-click", "winxp"):
        generator = random.Random(SEED)
        plain = cpu_rate(lambda r=rule, g=generator: plain_all_clicks(EXPERT, r, n_plain, g),
                         n_plain, repeats)
        simulate_opening(EXPERT, rule=rule, n=1_000, seed=SEED, workers=1)
        ours = cpu_rate(lambda r=rule: simulate_opening(EXPERT, rule=r, n=n_ours, seed=SEED,
                                                        workers=1), n_ours, repeats)
        print(f"  {rule:11s} minestats {ours:12,.0f}  plain Python {plain:9,.0f}  "
              f"ratio {ours / plain:7.0f}  (n {n_ours:,} and {n_plain:,})")
        rows.append({"benchmark": "all-positions opening map", "board": str(EXPERT),
                     "rule": rule, "unit": "boards per CPU-second", "ours": round(ours),
                     "plain_python": round(plain), "ours_faster_by": round(ours / plain, 1),
                     "n_ours": n_ours, "n_plain": n_plain, "repeats": repeats,
                     "measure": "median of time.process_time over repeats, after a warm-up"})
    print(write_rows("first_click", rows))


MEMORY_SCRIPT = """
import resource, sys
from minestats.drivers.opening_simulation import simulate_opening
simulate_opening("expert", rule="winxp", n=int(sys.argv[1]), click="centre", seed=0,
                 chunk_size=10_000, workers=1)
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def memory(n_large):
    def peak(n):
        run = subprocess.run([sys.executable, "-c", MEMORY_SCRIPT, str(n)],
                             capture_output=True, text=True, check=True)
        return int(run.stdout.split()[-1]) / 1024

    small, large = peak(10_000), peak(n_large)
    print(f"peak RSS, Expert winxp centre, chunk 10,000: {small:.1f} MiB for 10,000 boards, "
          f"{large:.1f} MiB for {n_large:,} boards (ratio {large / small:.3f})")


def whole_process(published_script: Path | None, repeats: int):
    ours = [sys.executable, "-m", "minestats.experiments.first_click", "--out",
            tempfile.mkdtemp(), "--rules", "uniform", "safe-click"]
    if published_script is None:
        print("no --published-script: the whole-process comparison is skipped")
        return
    compare_whole_processes("first_click_whole_process",
                            "the published 6 rows x 200,000 boards", ours,
                            [sys.executable, str(published_script)], repeats=repeats)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="smaller runs, and skip the slow whole-process comparison")
    parser.add_argument("--published-script", type=Path, default=None,
                        help="a copy of the published write-up's script, to time the whole "
                             "process against")
    args = parser.parse_args()
    if args.published_script is not None and not args.published_script.is_file():
        parser.error(f"--published-script {str(args.published_script)!r} is not a file")
    if args.quick:
        table_throughput(n_ours=50_000, n_plain=2_000)
        map_throughput(n_ours=50_000, n_plain=100, repeats=3)
        memory(n_large=1_000_000)
        return
    table_throughput(n_ours=200_000, n_plain=20_000)
    map_throughput(n_ours=200_000, n_plain=500, repeats=5)
    memory(n_large=10_000_000)
    whole_process(args.published_script, repeats=3)


if __name__ == "__main__":
    main()
