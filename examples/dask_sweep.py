"""One pass rate on a local Dask cluster, resumable from a chunk store.

Starts a `distributed.LocalCluster` of two worker processes on this machine, runs
the logic solver's pass rate on ``--n`` boards cut into chunks of ``--chunk-size``
(ten chunks at the defaults), and keeps every finished chunk in the SQLite store
``--store`` as it arrives. Run it again, or after Ctrl-C, and the chunks in the store
are read back instead of computed: the same numbers, bit for bit, since chunk i
always draws from child i of the seed. To use a cluster elsewhere, hand
``Client("tcp://scheduler:8786")`` to ``workers`` instead; the workers need
``pip install 'minestats[dask]'``.

Usage: ``python examples/dask_sweep.py [--board expert] [--n 20000]
[--chunk-size 2000] [--seed 2026] [--store dask_sweep.sqlite]``
"""

from __future__ import annotations

import argparse

from distributed import Client, LocalCluster

from minestats import ChunkStore, pass_rate

WORKERS = 2


def parse_arguments(argv=None) -> argparse.Namespace:
    """Read the board, n, chunk size, seed and store of the run."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", default="expert", help="a preset or WxH/M (default expert)")
    parser.add_argument("--n", type=int, default=20_000, help="boards (default 20,000)")
    parser.add_argument("--chunk-size", type=int, default=2_000,
                        help="boards per chunk (default 2,000)")
    parser.add_argument("--seed", type=int, default=2026, help="seed of the run (default 2026)")
    parser.add_argument("--store", default="dask_sweep.sqlite",
                        help="SQLite file of finished chunks (default dask_sweep.sqlite)")
    return parser.parse_args(argv)


def main(argv=None) -> None:
    """Run the pass rate on the cluster; print it and how many chunks the store held."""
    args = parse_arguments(argv)
    try:
        with ChunkStore(args.store) as store, \
                LocalCluster(n_workers=WORKERS, threads_per_worker=1, processes=True,
                             dashboard_address=None) as cluster, Client(cluster) as client:
            result = pass_rate(args.board, solver="logic", n=args.n, seed=args.seed,
                               chunk_size=args.chunk_size, workers=client, store=store,
                               progress=True)
            found, computed = store.reused, store.written
    except ValueError as error:  # a bad board, n, chunk size or store file
        raise SystemExit(f"dask_sweep.py: {error}") from None
    low, high = result.proportion_ci()
    print(f"{result.board} {result.rule}, {result.solver} solver: pass rate "
          f"{result.proportion:.4f} [{low:.4f}, {high:.4f}] (95% Wilson; "
          f"{result.successes:,}/{result.n:,} boards, seed {result.seed}, "
          f"chunks of {result.chunk_size:,})")
    print(f"{found + computed} chunks: {found} found in {args.store}, {computed} computed "
          f"on {WORKERS} Dask workers")


if __name__ == "__main__":  # Dask's worker processes import this file again
    main()
