"""Throughput of one sweep on 1 worker against k workers, same seed, same numbers.

The sweep is the logic solver's pass rate on Expert (safe-opening, centre), sized
so the single-worker run takes well over 10 seconds; both runs must return
identical counts. Pool start-up is included in the k-worker time, as a user
would see it.

Run from the repository's root, as a module:
``python -m benchmarks.bench_scaling [--n 20000] [--workers 2]``.
"""

from __future__ import annotations

import argparse
import time

from minestats.drivers.pass_rates import pass_rate_sweep

GRID = [{"board": "expert", "solver": "logic"}, {"board": "intermediate", "solver": "logic"}]
SEED = 20261129


def timed_sweep(n, workers, chunk_size):
    start = time.perf_counter()
    table = pass_rate_sweep(GRID, n=n, seed=SEED, chunk_size=chunk_size, workers=workers)
    return time.perf_counter() - start, table["successes"].tolist()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=20_000, help="boards per grid row")
    parser.add_argument("--workers", type=int, default=2, help="workers of the parallel run")
    parser.add_argument("--chunk-size", type=int, default=500)
    args = parser.parse_args()
    timed_sweep(200, 1, args.chunk_size)  # load the compiled kernels first
    serial_time, serial = timed_sweep(args.n, 1, args.chunk_size)
    pooled_time, pooled = timed_sweep(args.n, args.workers, args.chunk_size)
    boards = args.n * len(GRID)
    print(f"logic pass-rate sweep, {len(GRID)} rows x n {args.n}, chunk {args.chunk_size}, "
          f"seed {SEED}")
    print(f"  1 worker : {serial_time:6.1f} s  {boards / serial_time:8.0f} boards/s")
    print(f"  {args.workers} workers: {pooled_time:6.1f} s  {boards / pooled_time:8.0f} boards/s"
          f"  speed-up {serial_time / pooled_time:.2f}x")
    print(f"  identical counts: {serial == pooled} ({serial})")


if __name__ == "__main__":
    main()
