"""How often `reconstruct` hits its search budget, and what a capped answer costs.

1. Random count matrices (`random_counts`) at several sizes and densities, one
   spawned seed per matrix: the share capped at the default budget
   (`DEFAULT_EXACT_CONFIGURATIONS`) and at a tenth of it, and the median and max
   process CPU time per matrix.
2. Crafted matrices, mines in every third column with a random phase per row (the
   engine's propagation decides nothing there when the side is 2 mod 3): the
   answer (the number of solutions, or capped) and the CPU time of each.

Peak memory is per process, so measure it on one matrix at a time with the command,
for example ``/usr/bin/time -v minestats reconstruct counts.txt``.

Run from the repository's root, as a module:
``.venv/bin/python -m benchmarks.bench_budget [--seed S] [--per-cell N] ...``
"""

import argparse
import itertools
import statistics
import time

import numpy as np

from minestats.foundations.validation import DEFAULT_EXACT_CONFIGURATIONS, SearchBudgetExceeded
from minestats.inference import counts_from_layout, random_counts, reconstruct

SHAPES = ((8, 8), (16, 16), (30, 30), (32, 32), (200, 5))
DENSITIES = (0.1, 0.2, 0.3, 0.5, 0.7)


def crafted(size, seed):
    """Count matrix of a square layout: mines in every third column, a phase per row."""
    phase = np.random.default_rng(seed).integers(3, size=size)
    return counts_from_layout(np.arange(size)[None, :] % 3 == phase[:, None])


def timed(counts, budget):
    """Return the CPU seconds of one reconstruction and its count, None when capped."""
    start = time.process_time()
    try:
        count = reconstruct(counts, max_configurations=budget).n_solutions
    except SearchBudgetExceeded:
        count = None
    return time.process_time() - start, count


def bench_random(seeds, budget):
    print(f"random matrices, {len(seeds)} per shape and density, budget {budget:_} "
          f"(and a tenth of it)")
    cells = list(itertools.product(SHAPES, DENSITIES))
    total = capped = capped_tenth = 0
    times = []
    for (width, height), density in cells:
        row_times, row_capped, row_tenth = [], 0, 0
        for seed in seeds:
            counts, mines = random_counts(width, height, density, seed=seed)
            elapsed, count = timed(counts, budget)
            if count is not None and count < 1:
                raise RuntimeError("a realized matrix was found to have no solution")
            row_times.append(elapsed)
            row_capped += count is None
            row_tenth += timed(counts, budget // 10)[1] is None
        total += len(seeds)
        capped += row_capped
        capped_tenth += row_tenth
        times += row_times
        median = statistics.median(row_times)
        print(f"  {width:3d}x{height:<3d} p {density:.1f}: capped {row_capped}/{len(seeds)}, "
              f"at a tenth {row_tenth}/{len(seeds)}; median {1e3 * median:7.1f} ms, max "
              f"{1e3 * max(row_times):7.1f} ms")
    print(f"  all: capped {capped}/{total} ({capped / total:.1%}), at a tenth {capped_tenth}/"
          f"{total}; median {1e3 * statistics.median(times):.1f} ms, max "
          f"{1e3 * max(times):.1f} ms")


def bench_crafted(sizes, seeds, budget):
    print(f"crafted matrices (every third column, random phase per row), budget {budget:_}")
    total = capped = 0
    for size in sizes:
        answers = []
        for seed in seeds:
            elapsed, count = timed(crafted(size, seed), budget)
            answers.append(f"{'capped' if count is None else count} ({elapsed:.2f} s)")
            total += 1
            capped += count is None
        print(f"  {size}x{size}: " + ", ".join(answers))
    print(f"  all: capped {capped}/{total}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=20261130)
    parser.add_argument("--per-cell", type=int, default=8,
                        help="random matrices per shape and density (25 cells)")
    parser.add_argument("--crafted-sizes", type=int, nargs="+", default=[17, 20, 23, 32])
    parser.add_argument("--crafted-seeds", type=int, default=5)
    parser.add_argument("--budget", type=int, default=DEFAULT_EXACT_CONFIGURATIONS)
    args = parser.parse_args(argv)
    print(f"seed = {args.seed}")
    reconstruct(random_counts(3, 3, 0.5, seed=0)[0])  # import and first-call costs
    bench_random(np.random.SeedSequence(args.seed).spawn(args.per_cell), args.budget)
    bench_crafted(args.crafted_sizes, range(args.crafted_seeds), args.budget)


if __name__ == "__main__":
    main()
