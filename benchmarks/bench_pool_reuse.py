"""What keeping a process pool saves a notebook's repeated calls where workers start afresh.

Under the ``spawn`` start method (the default on macOS and Windows) a new worker imports
minestats and loads the compiled kernels from numba's cache before its first chunk.
`minestats.runs.chunks.map_chunks` keeps its pool for the process's later calls there
(`minestats.runs.chunks.kept_pool`). This measures, in one fresh ``spawn`` process, the
wall time of the same small 2-worker ``pass_rate`` call ``--calls`` times:

- ``kept``: as the package runs it, the first call starting the pool and the later ones
  reusing it;
- ``fresh``: each call handed a new 2-worker pool of its own (`process_pool`), as every
  call started one before the pools were kept.

Each call plays the same boards (same seed), so the work is equal; the ratio of a later
``fresh`` call to a later ``kept`` call is what keeping saves. Wall times depend on the
machine's load, so both are measured in the same run, alternating.

Run from the repository's root: ``python -m benchmarks.bench_pool_reuse [--calls 4]
[--repetitions 3]``; it writes ``benchmarks/results/pool_reuse.csv``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys

from benchmarks.record import write_rows

BOARD, N, CHUNK, SEED = "9x9/10", 4_000, 500, 7

PROGRAM = """
import json, multiprocessing, sys, time
from minestats.drivers.pass_rates import pass_rate
from minestats.runs.chunks import process_pool

if __name__ == "__main__":
    multiprocessing.set_start_method("spawn")
    board, n, chunk, seed, calls = sys.argv[1], *map(int, sys.argv[2:6])
    pass_rate(board, n=chunk, seed=seed, workers=1)  # kernels loaded here for both
    seconds = {"kept": [], "fresh": []}
    for _ in range(calls):
        for way in ("kept", "fresh"):
            start = time.perf_counter()
            if way == "kept":
                pass_rate(board, n=n, chunk_size=chunk, seed=seed, workers=2)
            else:
                with process_pool(2) as pool:
                    pass_rate(board, n=n, chunk_size=chunk, seed=seed, workers=pool)
            seconds[way].append(time.perf_counter() - start)
    print(json.dumps(seconds))
"""


def measure(calls: int) -> dict:
    """Return the seconds of every call of each way, from one fresh spawn process."""
    run = subprocess.run([sys.executable, "-c", PROGRAM, BOARD, str(N), str(CHUNK), str(SEED),
                          str(calls)], capture_output=True, text=True, check=True)
    return json.loads(run.stdout.splitlines()[-1])


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=4)
    parser.add_argument("--repetitions", type=int, default=3)
    args = parser.parse_args(argv)
    rows = []
    for repetition in range(args.repetitions):
        seconds = measure(args.calls)
        later_kept = statistics.median(seconds["kept"][1:])
        later_fresh = statistics.median(seconds["fresh"][1:])
        rows.append({"repetition": repetition, "board": BOARD, "n": N, "chunk_size": CHUNK,
                     "calls": args.calls, "first_kept_s": round(seconds["kept"][0], 3),
                     "later_kept_s": round(later_kept, 3),
                     "later_fresh_s": round(later_fresh, 3),
                     "fresh_over_kept": round(later_fresh / later_kept, 2)})
        print(f"repetition {repetition}: first call {seconds['kept'][0]:.2f} s; later calls "
              f"{later_kept:.2f} s on the kept pool, {later_fresh:.2f} s on a fresh one "
              f"({later_fresh / later_kept:.1f}x)")
    path = write_rows("pool_reuse", rows)
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
