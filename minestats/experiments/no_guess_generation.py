"""No-guess generation: success rate, tries, perturbations and time per board, by method.

Boards: Beginner 9x9/10, Intermediate 16x16/40, Expert 30x16/99 and Expert's size
at higher densities, 30x16/130 and 30x16/170; rule ``safe-opening``, centre click;
the ``logic`` solver with the mine count must pass every board. Methods: ``retry``
and ``perturb`` (`minestats.drivers.no_guess.generate_no_guess`), each stopped at
``--max-tries`` placements (default 10,000) or ``--timeout`` seconds per board
(default 60). ``retry`` at 170 mines fails at these limits: its pass rate there is
about 0, which is the point of ``perturb``.

Boards per row: ``--n`` (default 500), except ``retry`` at 130 and 170 mines,
``--n-dense-retry`` (default 30), where each board costs up to the whole try limit.
Row ``i`` (boards in the order above, methods within) generates its boards with
`minestats.drivers.no_guess.generate_no_guess_batch` from child ``i`` of
the stream ``--seed/s`` (``common``) (label ``"42/s/i"``; board ``k`` of chunk
``j`` is ``"42/s/i/j/k"``). Every success rate has a 95% Wilson interval. Tries, solver
rounds and perturbations (mines relocated) are summarised over all boards of a row
by mean, median, 95th percentile and maximum (a failed board counts at the effort it
spent before its limit); wall time per board by median and 95th percentile. Times
are wall-clock seconds inside the workers, on a machine that may be shared.

Writes ``<out>/no_guess_generation.csv`` with its ``.json`` sidecar.

Usage: ``python -m minestats.experiments.no_guess_generation [--seed 42] [--n 500]
[--n-dense-retry 30] [--max-tries 10000] [--timeout 60] [--workers -1] [--out results]``
"""

from __future__ import annotations

import time

import pandas as pd

from minestats.drivers.no_guess import (
    DEFAULT_BATCH_CHUNK_SIZE,
    DEFAULT_MAX_TRIES,
    DEFAULT_TIMEOUT,
    METHODS,
    generate_no_guess_batch,
)
from minestats.experiments.common import base_parser, recorded_workers, row_seeds, worker_pool
from minestats.foundations.board import BEGINNER, EXPERT, INTERMEDIATE, Board
from minestats.foundations.validation import DEFAULT_CONFIDENCE_LEVEL
from minestats.io.result_files import collect_metadata, write_csv

BOARDS = (BEGINNER, INTERMEDIATE, EXPERT, Board(30, 16, 130), Board(30, 16, 170))
DENSE = {130, 170}
RULE, CLICK, SOLVER = "safe-opening", "centre", "logic"
CONFIDENCE_LEVEL = DEFAULT_CONFIDENCE_LEVEL
COLUMNS = ["board", "mines", "density", "method", "n", "successes", "success_rate", "ci_low",
           "ci_high", "tries_mean", "tries_median", "tries_p95", "tries_max", "rounds_mean",
           "perturbations_mean", "perturbations_median", "perturbations_p95",
           "perturbations_max", "seconds_median", "seconds_p95", "seed", "max_tries",
           "timeout"]


def warm_up():
    for method in METHODS:
        generate_no_guess_batch(Board(5, 5, 5), CLICK, n=2, method=method, seed=0, workers=1)


def generation_table(*, seed, n, n_dense_retry, max_tries, timeout, chunk_size, workers):
    """One row per board and method, row i seeded with child i of the stream seed."""
    rows = [(board, method) for board in BOARDS for method in METHODS]
    table = []
    with worker_pool(workers, warm_up=warm_up) as pool_map:
        for (board, method), row_seed in zip(rows, row_seeds(seed, len(rows)), strict=True):
            count = n_dense_retry if method == "retry" and board.mines in DENSE else n
            batch = generate_no_guess_batch(
                board, CLICK, n=count, method=method, solver=SOLVER, rule=RULE,
                seed=row_seed, max_tries=max_tries, timeout=timeout, chunk_size=chunk_size,
                workers=pool_map)
            table.append(batch.to_dict(confidence_level=CONFIDENCE_LEVEL)
                         | {"density": board.density})
    table = pd.DataFrame(table)
    rest = [column for column in table.columns if column not in COLUMNS]
    return table[COLUMNS + rest]


def format_table(table: pd.DataFrame) -> str:
    """Success rate with its Wilson interval, n and seed; effort quantiles."""
    lines = [f"{'board':10} {'method':8} {'success rate [95% Wilson]':26} {'ok/n':>8} "
             f"{'tries mean/med/p95/max':>28} {'perturbations mean/med/p95/max':>32} "
             f"{'s/board med, p95':>17} {'seed':>6}"]
    for row in table.itertuples():
        lines.append(
            f"{row.board:10} {row.method:8} {row.success_rate:.3f} [{row.ci_low:.3f}, "
            f"{row.ci_high:.3f}]      {f'{row.successes}/{row.n}':>8} "
            f"{row.tries_mean:9.1f} {row.tries_median:6.0f} {row.tries_p95:7.0f} "
            f"{row.tries_max:5d} {row.perturbations_mean:10.1f} {row.perturbations_median:6.0f}"
            f" {row.perturbations_p95:7.0f} {row.perturbations_max:7d} "
            f"{row.seconds_median:8.4f} {row.seconds_p95:8.4f} {row.seed:>6}")
    return "\n".join(lines)


PRINTED_COLUMNS = [
    "board", "method", "n", "successes", "success_rate", "ci_low", "ci_high", "tries_mean",
    "tries_p95", "perturbations_mean", "perturbations_p95", "seconds_median", "seconds_p95",
    "confidence_level"]
"""What the .tex and .md twins print of each row; the CSV keeps every column."""


def main(argv=None):
    start = time.perf_counter()
    parser = base_parser(__doc__.splitlines()[0], experiment="no_guess_generation")
    parser.add_argument("--n", type=int, default=500, help="boards per row (default 500)")
    parser.add_argument("--n-dense-retry", type=int, default=30,
                        help="boards per retry row at 130 and 170 mines (default 30)")
    parser.add_argument("--max-tries", type=int, default=DEFAULT_MAX_TRIES,
                        help=f"placements per board before failing (default "
                             f"{DEFAULT_MAX_TRIES:,})")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT,
                        help=f"seconds per board before failing (default {DEFAULT_TIMEOUT:g})")
    parser.add_argument("--chunk-size", type=int, default=DEFAULT_BATCH_CHUNK_SIZE,
                        help=f"boards per chunk (default {DEFAULT_BATCH_CHUNK_SIZE})")
    args = parser.parse_args(argv)
    table = generation_table(seed=args.seed, n=args.n, n_dense_retry=args.n_dense_retry,
                             max_tries=args.max_tries, timeout=args.timeout,
                             chunk_size=args.chunk_size, workers=args.workers)
    metadata = collect_metadata(
        seed=args.seed, n={"default": args.n, "retry at 130 and 170 mines": args.n_dense_retry},
        chunk_size=args.chunk_size, wall_time_s=time.perf_counter() - start,
        extra={"row_seeds": dict(zip(table["board"] + " " + table["method"], table["seed"],
                                     strict=True)),
               "rule": RULE, "click": CLICK, "solver": SOLVER, "use_mine_count": True,
               "max_tries": args.max_tries, "timeout_s": args.timeout,
               "confidence_level": CONFIDENCE_LEVEL, "workers": recorded_workers(args)})
    path = write_csv(table, args.out / "no_guess_generation.csv", metadata=metadata,
                     summary=PRINTED_COLUMNS)
    print(f"No-guess generation, {RULE}, {CLICK} click, solver {SOLVER} with the mine count; "
          f"n = {args.n} boards per row ({args.n_dense_retry} for retry at 130 and 170 "
          f"mines); seed stream {args.seed} (row i: seed {args.seed}/i); limits "
          f"{args.max_tries:,} tries or {args.timeout:g} s per board; perturbations = mines "
          f"relocated; {CONFIDENCE_LEVEL:.0%} Wilson intervals")
    print(format_table(table))
    print(f"Wrote {path} and its sidecar; {time.perf_counter() - start:.1f} s wall")


if __name__ == "__main__":
    main()
