"""No-guess generators: time per Expert board and success rates at higher densities.

1. Time per board: ``--n-time`` (default 100) no-guess Expert boards (30x16/99,
   ``safe-opening``, centre click, ``logic`` with the mine count) by each method, one
   `generate_no_guess` call per board in this process; median and 95th percentile of
   the wall time (`NoGuessResult.seconds`) and of this process's CPU time (the machine
   may be shared, which inflates wall time only). Board ``k`` of a method uses the
   keyed child ``k`` of that method's stream. Compile time is excluded (a warm-up).
2. Success rates on 30x16 at 99, 130 and 170 mines by each method, at the library's
   default limits (10,000 tries or 60 s per board), with 95% Wilson intervals:
   ``--n-rate`` boards (default 50) per cell, ``--n-dense-retry`` (default 30) for
   retry at 130 and 170 mines, where a failure costs the whole try limit. These run
   on ``--workers`` processes (`generate_no_guess_batch`); their result does not
   depend on the number of workers.

Run from the repository's root, as a module:
``.venv/bin/python -m benchmarks.bench_generators [--seed S] [--n-time N]
[--n-rate N] [--n-dense-retry N] [--workers W]``
"""

import argparse
import time

import numpy as np

from minestats.drivers.no_guess import (
    DEFAULT_MAX_TRIES,
    DEFAULT_TIMEOUT,
    METHODS,
    generate_no_guess,
    generate_no_guess_batch,
)
from minestats.foundations.board import Board
from minestats.foundations.seeds import seed_label
from minestats.runs.sweeps import grid_seeds

CLICK = "centre"


def bench_time(seeds, n):
    print(f"Expert 30x16/99 no-guess boards, safe-opening, centre click, logic with the mine "
          f"count; n = {n} boards per method, one call each in this process")
    generate_no_guess("9x9/10", CLICK, method="perturb", seed=0)  # compile / load kernels
    for method, method_seed in zip(METHODS, seeds, strict=True):
        wall, cpu, tries, perturbations, ok = [], [], [], [], 0
        for board_seed in grid_seeds(method_seed, n):
            start = time.process_time()
            result = generate_no_guess("expert", CLICK, method=method, seed=board_seed)
            cpu.append(time.process_time() - start)
            wall.append(result.seconds)
            tries.append(result.tries)
            perturbations.append(result.perturbations)
            ok += result.ok
        wall_ms, cpu_ms = 1e3 * np.array(wall), 1e3 * np.array(cpu)
        print(f"  {method:8s} ok {ok}/{n}  wall ms/board median {np.median(wall_ms):7.2f} "
              f"p95 {np.quantile(wall_ms, 0.95):7.2f}  CPU ms/board median "
              f"{np.median(cpu_ms):7.2f} p95 {np.quantile(cpu_ms, 0.95):7.2f}  "
              f"tries mean {np.mean(tries):5.2f}  perturbations mean {np.mean(perturbations):5.2f}"
              f"  (seed {seed_label(method_seed)})")


def bench_rates(seeds, n, n_dense_retry, workers):
    print(f"Success rate on 30x16 by mines and method, limits {DEFAULT_MAX_TRIES:,} tries or "
          f"{DEFAULT_TIMEOUT:g} s per board; 95% Wilson intervals")
    cells = [(mines, method) for mines in (99, 130, 170) for method in METHODS]
    for (mines, method), cell_seed in zip(cells, seeds, strict=True):
        count = n_dense_retry if method == "retry" and mines > 99 else n
        start = time.perf_counter()
        batch = generate_no_guess_batch(Board(30, 16, mines), CLICK, n=count, method=method,
                                        seed=cell_seed, workers=workers)
        low, high = batch.proportion_ci()
        print(f"  30x16/{mines:<4d} {method:8s} {batch.successes / count:.3f} "
              f"[{low:.3f}, {high:.3f}] ({batch.successes}/{count}, seed {batch.seed})  "
              f"tries mean {batch.tries.mean():8.1f}  perturbations mean "
              f"{batch.perturbations.mean():6.1f}  wall s/board median "
              f"{np.median(batch.seconds):.4f} p95 {np.quantile(batch.seconds, 0.95):.4f}  "
              f"({time.perf_counter() - start:.1f} s)")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=20261129)
    parser.add_argument("--n-time", type=int, default=100, help="Expert boards per method")
    parser.add_argument("--n-rate", type=int, default=50, help="boards per success-rate cell")
    parser.add_argument("--n-dense-retry", type=int, default=30,
                        help="boards for retry at 130 and 170 mines")
    parser.add_argument("--workers", type=int, default=-1, help="processes for the rates")
    args = parser.parse_args(argv)
    print(f"seed = {args.seed}")
    time_stream, rate_stream = np.random.SeedSequence(args.seed).spawn(2)
    bench_time(grid_seeds(time_stream, len(METHODS)), args.n_time)
    bench_rates(grid_seeds(rate_stream, 3 * len(METHODS)), args.n_rate, args.n_dense_retry,
                args.workers)


if __name__ == "__main__":
    main()
