"""Solver throughput, in one run.

1. single-point: boards/s of `solve_batch(..., solver="single-point")` (compiled,
   one call per batch) against the plain-Python published method
   (`tests/oracles/reference.py`) on the SAME layouts, per level, and the ratio. Both must
   agree on every board.
2. pass_rate as a user calls it: ``pass_rate("intermediate", solver="single-point",
   n=20_000, workers=1)``, all overhead included (validation, drawing the boards,
   chunks), against the plain-Python method drawing and solving the same number of
   boards (``random.sample`` outside the click's 3x3, then `tests/oracles/reference.py`),
   in ``--pairs`` pairs, one after the other; the ratio is taken pair by pair. This is
   the speed issue's yardstick "single-point pass rates against the published method".
3. logic: boards/s on Expert 30x16/99, safe-opening (mines uniform outside the
   centre 3x3), centre click, with the mine count; pass and capped shares.
4. With ``--published-script PATH`` (a copy of the published write-up's single-point
   script; the repository does not carry it): the whole process, ``minestats sweep
   --solvers single-point -n 2000 --workers 1`` on the three levels against the
   script doing the same, three pairs, to
   ``benchmarks/results/single_point_whole_process.csv`` (`benchmarks.whole_process`).

Layouts are drawn from numpy's default_rng with the given seed (one spawned stream
per section); compile time is excluded (a warm-up call) and reported. Times are CPU
time of this process (`time.process_time`; everything runs on one core), so other
work on the machine does not inflate them. Sections 1 to 3 write their figures to
``benchmarks/results/solvers.csv`` (`benchmarks.record.write_rows`).

Run from the repository's root, as a module:
``.venv/bin/python -m benchmarks.bench_solvers [--seed S] [--n-plain N] ...
[--published-script PATH]``
"""

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from benchmarks.record import write_rows
from benchmarks.whole_process import compare_whole_processes
from minestats.drivers.pass_rates import pass_rate
from minestats.solvers import solve_batch
from tests.oracles.reference import plain_single_point, random_layouts

LEVELS = {"Beginner 9x9/10": (9, 9, 10), "Intermediate 16x16/40": (16, 16, 40),
          "Expert 30x16/99": (30, 16, 99)}


def _best_time(function, repeats):
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        result = function()
        best = min(best, time.process_time() - start)
    return best, result


def bench_single_point(rng, n, repeats):
    print(f"single-point vs plain Python, same layouts, n = {n} per level, centre click, "
          "safe-opening")
    start = time.process_time()
    solve_batch(np.zeros((1, 3, 3), dtype=bool), "centre", solver="single-point")
    print(f"  compile/warm-up: {time.process_time() - start:.2f} s")
    rows = []
    plain_total = fast_total = 0.0
    for name, (width, height, mines) in LEVELS.items():
        click = (width // 2, height // 2)
        layouts = random_layouts(rng, n, width, height, mines, click)
        nested = [layout.tolist() for layout in layouts]
        start = time.process_time()
        plain = [plain_single_point(layout, click) for layout in nested]
        plain_time = time.process_time() - start
        plain_solved = np.array([len(opened) == width * height - mines
                                 for opened, _ in plain])
        fast_time, result = _best_time(
            lambda layouts=layouts, click=click: solve_batch(
                layouts, click, solver="single-point"), repeats)
        if not np.array_equal(result.solved, plain_solved):
            raise RuntimeError(f"{name}: compiled and plain single-point disagree")
        print(f"  {name:22s} pass {result.solved.mean():.3f}  plain {n / plain_time:9.0f} "
              f"boards/s ({1e3 * plain_time / n:.2f} ms/board)  compiled "
              f"{n / fast_time:10.0f} boards/s ({1e6 * fast_time / n:.1f} us/board)  "
              f"ratio {plain_time / fast_time:.0f}x")
        plain_total += plain_time
        fast_total += fast_time
        rows.append(_row(f"solve_batch single-point vs plain Python, {name}", n,
                         fast_time, plain_time, repeats=repeats,
                         note=f"pass {result.solved.mean():.4f}, same layouts, best of "
                              f"{repeats} compiled calls against one plain run"))
    print(f"  {'all three levels pooled':22s} plain {3 * n / plain_total:9.0f} boards/s"
          f"  compiled {3 * n / fast_total:10.0f} boards/s  ratio {plain_total / fast_total:.0f}x")
    return rows


def _row(benchmark, n, ours_s, plain_s=None, *, repeats, note):
    """One table row: boards a second of ours and of the plain method (if timed), the ratio."""
    timed = plain_s is not None
    return {"benchmark": benchmark, "unit": "boards per CPU-second", "n": n,
            "ours": round(n / ours_s), "plain": round(n / plain_s) if timed else "",
            "ours_faster_by": round(plain_s / ours_s, 1) if timed else "",
            "repeats": repeats, "note": note}


def bench_pass_rate(seed, n, pairs):
    width, height, mines = LEVELS["Intermediate 16x16/40"]
    click = (width // 2, height // 2)
    print(f"pass_rate, single-point, Intermediate, safe-opening, centre, n = {n}, one core, "
          f"{pairs} pairs")
    pass_rate("4x4/2", solver="single-point", n=10, seed=0, workers=1)  # warm-up
    protected = {(click[0] + dx) + (click[1] + dy) * width
                 for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
    allowed = [cell for cell in range(width * height) if cell not in protected]
    rows = []
    for pair in range(pairs):
        start = time.process_time()
        result = pass_rate("intermediate", solver="single-point", n=n, seed=seed + pair,
                           workers=1)
        fast_time = time.process_time() - start
        plain = random.Random(seed + pair)
        start = time.process_time()
        solved = 0
        for _ in range(n):
            mined = set(plain.sample(allowed, mines))
            rows_of_cells = [[x + y * width in mined for x in range(width)]
                             for y in range(height)]
            opened, _ = plain_single_point(rows_of_cells, click)
            solved += len(opened) == width * height - mines
        plain_time = time.process_time() - start
        print(f"  pair {pair}: minestats pass_rate {n / fast_time:9.0f} boards/s (pass "
              f"{result.proportion:.4f}, seed {seed + pair})  plain Python "
              f"{n / plain_time:7.0f} boards/s (pass {solved / n:.4f})  ratio "
              f"{plain_time / fast_time:.0f}x")
        rows.append(_row("pass_rate single-point Intermediate vs plain Python, all overhead",
                         n, fast_time, plain_time, repeats=1,
                         note=f"pair {pair}, seed {seed + pair}; pass {result.proportion:.4f}"
                              f" against {solved / n:.4f} (other boards, same rule)"))
    ratios = [row["ours_faster_by"] for row in rows]
    print(f"  ratio {statistics.median(ratios):.0f}x at the median of {pairs} pairs "
          f"({min(ratios):.0f}x to {max(ratios):.0f}x)")
    return rows


def bench_logic(rng, n, max_configurations):
    width, height, mines = LEVELS["Expert 30x16/99"]
    click = (width // 2, height // 2)
    layouts = random_layouts(rng, n, width, height, mines, click)
    start = time.process_time()
    solve_batch(layouts[:1], click, solver="logic")
    print(f"logic on Expert 30x16/99, centre click, safe-opening, mine count used, "
          f"max_configurations = {max_configurations}, n = {n}")
    print(f"  compile/warm-up: {time.process_time() - start:.2f} s")
    start = time.process_time()
    result = solve_batch(layouts, click, solver="logic",
                         max_configurations=max_configurations)
    elapsed = time.process_time() - start
    print(f"  {n / elapsed:.0f} boards/s ({1e3 * elapsed / n:.2f} ms/board), "
          f"pass {result.solved.mean():.4f}, capped {result.capped.sum()} / {n} "
          f"({result.capped.mean():.4f})")
    return [_row("solve_batch logic, Expert 30x16/99", n, elapsed, repeats=1,
                 note=f"pass {result.solved.mean():.4f}, capped {result.capped.sum()} of "
                      f"{n}, max_configurations {max_configurations}")]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=20261129)
    parser.add_argument("--n-plain", type=int, default=2000,
                        help="boards per level for single-point vs plain Python")
    parser.add_argument("--n-pass-rate", type=int, default=20_000,
                        help="Intermediate boards for pass_rate against plain Python")
    parser.add_argument("--pairs", type=int, default=3,
                        help="pairs of pass_rate and the plain method, run in turn")
    parser.add_argument("--n-logic", type=int, default=2000, help="Expert boards for logic")
    parser.add_argument("--repeats", type=int, default=5,
                        help="timing repeats of the compiled call (best is reported)")
    parser.add_argument("--max-configurations", type=int, default=200_000)
    parser.add_argument("--published-script", type=Path, default=None,
                        help="a copy of the published single-point script, to time the "
                             "whole process against")
    parser.add_argument("--only-whole-process", action="store_true",
                        help="skip sections 1-3")
    args = parser.parse_args(argv)
    if args.published_script is not None and not args.published_script.is_file():
        parser.error(f"--published-script {str(args.published_script)!r} is not a file")
    print(f"seed = {args.seed}")
    single_stream, logic_stream = np.random.SeedSequence(args.seed).spawn(2)
    if not args.only_whole_process:
        rows = bench_single_point(np.random.default_rng(single_stream), args.n_plain,
                                  args.repeats)
        rows += bench_pass_rate(args.seed, args.n_pass_rate, args.pairs)
        rows += bench_logic(np.random.default_rng(logic_stream), args.n_logic,
                            args.max_configurations)
        print(write_rows("solvers", rows))
    if args.published_script is not None:
        compare_whole_processes(
            "single_point_whole_process", "single-point on the three levels, 2,000 boards each",
            [sys.executable, "-m", "minestats", "sweep", "--solvers", "single-point", "-n",
             "2000", "--workers", "1", "--seed", str(args.seed)],
            [sys.executable, str(args.published_script)], repeats=3)


if __name__ == "__main__":
    main()
