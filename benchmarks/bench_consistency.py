"""Count-matrix reconstruction speed, in one run.

1. `reconstruct` on random 30x30 count matrices from per-cell density 0.2 (one
   spawned seed per matrix): median and max process CPU time per matrix (the
   machine may be shared; both sides are single-threaded); every answer is
   checked (unique, and equal to the hidden layout: 31 is not 0 mod 3, so the 3x3
   block sum is invertible on 30x30).
2. The same against a plain-Python baseline that tries cells one by one in
   row-major order (0, then 1) with forward checking of every count, on smaller
   square matrices where that baseline finishes: median and max times and their
   ratios. Both must agree on the number of solutions. The baseline's time is
   heavy-tailed (one 30x30 matrix at density 0.2 took it 213 s), so its default
   sizes stop at 20x20.

Run from the repository's root, as a module:
``.venv/bin/python -m benchmarks.bench_consistency [--seed S] [--n N] ...``
"""

import argparse
import statistics
import sys
import time

import numpy as np

from minestats.inference import random_counts, reconstruct


def plain_backtracking(counts):
    """Count the layouts that fit ``counts`` (lists of rows), cell by cell in row-major order.

    Each cell tries 0 then 1; a branch dies as soon as some count can no longer be met
    (more mines than it needs, or fewer undecided cells than mines it still needs).
    """
    height, width = len(counts), len(counts[0])
    cells = [(x, y) for y in range(height) for x in range(width)]
    block = {(x, y): [(i, j) for j in range(max(y - 1, 0), min(y + 2, height))
                      for i in range(max(x - 1, 0), min(x + 2, width))] for x, y in cells}
    need = {(x, y): counts[y][x] for x, y in cells}
    undecided = {cell: len(block[cell]) for cell in cells}

    def extend(k):
        if k == len(cells):
            return 1
        found = 0
        for mine in (0, 1):
            for cell in block[cells[k]]:
                need[cell] -= mine
                undecided[cell] -= 1
            if all(0 <= need[cell] <= undecided[cell] for cell in block[cells[k]]):
                found += extend(k + 1)
            for cell in block[cells[k]]:
                need[cell] += mine
                undecided[cell] += 1
        return found

    return extend(0)


def _timed(function, argument):
    start = time.process_time()
    result = function(argument)
    return time.process_time() - start, result


def bench_30x30(seeds, density):
    times = []
    for seed in seeds:
        counts, layout = random_counts(30, 30, density, seed=seed)
        elapsed, result = _timed(reconstruct, counts)
        if not (result.unique and np.array_equal(result.layout, layout)):
            raise RuntimeError("reconstruct missed the hidden layout of a 30x30 matrix")
        times.append(elapsed)
    print(f"reconstruct, 30x30 at density {density}, {len(times)} matrices: "
          f"median {1e3 * statistics.median(times):.1f} ms, max {1e3 * max(times):.1f} ms")


def bench_against_baseline(seeds, density, sizes):
    print(f"reconstruct vs plain-Python cell-by-cell backtracking, density {density}, "
          f"{len(seeds)} matrices per size")
    for size in sizes:
        ours, plain = [], []
        for seed in seeds:
            counts, _ = random_counts(size, size, density, seed=seed)
            elapsed, result = _timed(reconstruct, counts)
            ours.append(elapsed)
            elapsed, count = _timed(plain_backtracking, counts.tolist())
            plain.append(elapsed)
            if count != result.n_solutions:
                raise RuntimeError(f"{size}x{size}: baseline counts {count}, "
                                   f"reconstruct {result.n_solutions}")
        fast, slow = statistics.median(ours), statistics.median(plain)
        print(f"  {size:2d}x{size:<2d}  median: reconstruct {1e3 * fast:6.2f} ms, plain "
              f"{1e3 * slow:8.2f} ms, ratio {slow / fast:5.0f}x   max: reconstruct "
              f"{1e3 * max(ours):6.2f} ms, plain {1e3 * max(plain):8.2f} ms, ratio "
              f"{max(plain) / max(ours):5.0f}x")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=20261129)
    parser.add_argument("--n", type=int, default=20, help="30x30 matrices to time")
    parser.add_argument("--density", type=float, default=0.2)
    parser.add_argument("--n-baseline", type=int, default=5,
                        help="matrices per size for the baseline comparison")
    parser.add_argument("--sizes", type=int, nargs="+", default=[8, 12, 16, 20],
                        help="square sizes for the baseline comparison")
    args = parser.parse_args(argv)
    print(f"seed = {args.seed}")
    big, small = np.random.SeedSequence(args.seed).spawn(2)
    reconstruct(random_counts(3, 3, 0.5, seed=0)[0])  # import and first-call costs
    bench_30x30(big.spawn(args.n), args.density)
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 4 * max(args.sizes) ** 2))
    bench_against_baseline(small.spawn(args.n_baseline), args.density, args.sizes)


if __name__ == "__main__":
    main()
