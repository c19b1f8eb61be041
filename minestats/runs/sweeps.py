"""Grids of Monte Carlo work: configurations cut into seeded chunks, run on workers.

A *job* is one configuration (any picklable value) with its own seed sequence.
Each job's ``n`` trials are cut into chunks of ``chunk_size``; chunk ``j`` draws
from the ``j``-th keyed child of the job's sequence (`minestats.runs.chunks`). All
chunks of all jobs go through one stream of workers, and each job's chunk results
are added up, so a job's total depends only on its seed, ``n`` and ``chunk_size``.

In a grid, job ``i`` is seeded with child ``i`` of the grid's seed: running that
job alone with that child (seed label ``"seed/i"``) gives the same numbers.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from functools import partial

import numpy as np

from minestats.foundations.seeds import as_seed_sequence
from minestats.foundations.validation import quoted
from minestats.runs.chunks import chunk_seeds, chunk_sizes, map_chunks
from minestats.runs.store import ChunkStore, job_key

__all__ = ["grid_rows", "grid_seeds", "progress_bar", "run_jobs", "warm_up_jobs"]


def grid_seeds(seed, count: int) -> list[np.random.SeedSequence]:
    """Seed sequences of the ``count`` jobs of a grid: the keyed children of ``seed``.

    Examples
    --------
    >>> from minestats.foundations.seeds import seed_label
    >>> [seed_label(s) for s in grid_seeds(42, 3)]
    ['42/0', '42/1', '42/2']
    """
    return list(chunk_seeds(as_seed_sequence(seed), count))


def grid_rows(grid, *, required: tuple[str, ...], defaults: dict, function: str) -> list[dict]:
    """Check the rows of a sweep grid and fill in their defaults.

    Each row must be a dict holding the ``required`` keys and otherwise only keys of
    ``defaults``; ``function`` names the function the rows are arguments of.

    Examples
    --------
    >>> grid_rows([{"board": "9x9/10"}], required=("board",), defaults={"rule": "uniform"},
    ...           function="win_rate")
    [{'rule': 'uniform', 'board': '9x9/10'}]
    >>> grid_rows([{"rule": "uniform"}], required=("board",), defaults={"rule": "uniform"},
    ...           function="win_rate")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: grid row {'rule': 'uniform'} lacks board: each row takes board, and ...
    """
    allowed = f"{', '.join(required)}, and optionally {', '.join(defaults)}, of {function}"
    rows = []
    for row in grid:
        if not isinstance(row, dict):
            raise ValueError(f"grid row {quoted(row)} is not a dict: each row takes {allowed}")
        missing = [key for key in required if key not in row]
        if missing:
            raise ValueError(f"grid row {quoted(row)} lacks {', '.join(missing)}: each row takes "
                             f"{allowed}")
        unknown = sorted(set(row) - set(defaults) - set(required), key=str)
        if unknown:
            raise ValueError(f"grid row {quoted(row)} has unknown keys {unknown}: each row takes "
                             f"{allowed}")
        rows.append(defaults | row)
    return rows


def progress_bar(progress, *, total: int):
    """Return a progress bar of ``total`` boards on stderr: tqdm's, or one that shows nothing.

    ``progress`` True shows it (`tqdm.auto`: a widget in a notebook that has
    ipywidgets, text elsewhere), False never, None only when stderr is a terminal,
    so a log file never fills with the carriage-return frames of a bar.

    Examples
    --------
    >>> with progress_bar(False, total=10) as bar:
    ...     bar.update(10)
    >>> bar.disable
    True
    """
    if progress is None:
        progress = sys.stderr is not None and sys.stderr.isatty()
    if not progress:
        from tqdm import tqdm
    else:  # imported only to show a bar: tqdm.auto warns in a notebook without ipywidgets
        from tqdm.auto import tqdm
    return tqdm(total=total, unit="board", unit_scale=True, disable=not progress,
                file=sys.stderr, smoothing=0.1)


def warm_up_jobs(chunk_function: Callable, configs: Sequence) -> None:
    """Run one trial of each configuration here, so its compiled kernels are loaded.

    Whatever a chunk of a configuration compiles (or loads from numba's disk cache),
    a chunk of one trial does too, since numba compiles for the types of the
    arguments, never their sizes. The trial's result is thrown away.

    Examples
    --------
    >>> warm_up_jobs(lambda config, size, seed: print(config, size), ["a", "b"])
    a 1
    b 1
    """
    for config in configs:
        chunk_function(config, 1, np.random.SeedSequence(0))


def _run_tagged(chunk_function, task):
    tag, config, size, seed = task
    return tag, chunk_function(config, size, seed)


def _add_stored(total, stored, store, chunk):
    """Add a stored chunk to its job's total; a chunk of another type or shape is one line."""
    try:
        added = total + stored
    except (TypeError, ValueError):
        added = None
    if added is None or (isinstance(total, np.ndarray) and np.shape(added) != np.shape(total)):
        raise ValueError(f"chunk store {store.path}: chunk {chunk} holds "
                         f"{type(stored).__name__} {np.shape(stored)}, which does not add up "
                         f"with the other chunks of its job: use a new store file")
    return added


def run_jobs(chunk_function: Callable, jobs: Sequence, *, n: int | Sequence[int],
             chunk_size: int, workers=-1, store: ChunkStore | str | os.PathLike | None = None,
             progress: bool | None = False, per_chunk: bool = False) -> list:
    """Run ``n`` trials of every job in seeded chunks and add up each job's chunk results.

    A pool this call starts, or a Dask cluster, gets its kernels compiled once: one
    trial of every job runs first (`warm_up_jobs`), here before the pool is forked,
    or once on each Dask worker (`minestats.runs.chunks.map_chunks`).

    Parameters
    ----------
    chunk_function : callable
        ``chunk_function(config, size, seed_sequence)`` runs ``size`` trials of one
        configuration and returns something that adds up (an int or an array).
        Must be a picklable module-level function.
    jobs : sequence of (config, numpy.random.SeedSequence)
        The configurations and their seeds.
    n : int or sequence of int
        Trials per job, or one number per job (all jobs' chunks share one pass over
        the workers either way).
    chunk_size : int
        Trials per chunk.
    workers : int, executor or map-like callable, optional
        See `minestats.runs.chunks.map_chunks`.
    store : ChunkStore, str or pathlib.Path, optional
        Chunks already in the store are taken from it; every chunk computed is
        written to it as soon as it arrives, so an interrupted run resumes. A path is
        opened as a `ChunkStore` for this run and closed after it.
    progress : bool or None, optional
        Show a progress bar on stderr with boards per second and an ETA
        (`progress_bar`): True always, False (default) never, None when stderr is a
        terminal.
    per_chunk : bool, optional
        Keep each chunk's result instead of adding them up: for results that do not
        add (one record per trial), and the chunk function need not return something
        that does.

    Returns
    -------
    list
        One entry per job, in job order: the sum of its chunk results, or with
        ``per_chunk`` the list of its chunk results in chunk order, however the
        chunks arrived (computed, from the store, from any worker).

    Examples
    --------
    >>> jobs = list(zip(["a", "b"], grid_seeds(0, 2)))
    >>> run_jobs(lambda config, size, seed: size, jobs, n=25, chunk_size=10, workers=1)
    [25, 25]
    >>> run_jobs(lambda config, size, seed: size, jobs, n=[25, 7], chunk_size=10, workers=1)
    [25, 7]
    >>> run_jobs(lambda config, size, seed: [config] * size, jobs, n=[3, 1], chunk_size=2,
    ...          workers=1, per_chunk=True)
    [[['a', 'a'], ['a']], [['b']]]
    """
    if isinstance(store, str | os.PathLike):  # a path, as the command line takes it
        with ChunkStore(store) as opened:
            return run_jobs(chunk_function, jobs, n=n, chunk_size=chunk_size, workers=workers,
                            store=opened, progress=progress, per_chunk=per_chunk)
    if store is not None and not isinstance(store, ChunkStore):
        raise ValueError(f"store ({quoted(store)}) must be a path (str or pathlib.Path) or "
                         f"a ChunkStore")
    counts = ([int(count) for count in n] if isinstance(n, list | tuple | np.ndarray)
              else [n] * len(jobs))
    if len(counts) != len(jobs):
        raise ValueError(f"n holds {len(counts)} numbers for {len(jobs)} jobs")
    job_sizes = [chunk_sizes(count, chunk_size) for count in counts]
    keys = [job_key(chunk_function, config, seed) if store is not None else None
            for config, seed in jobs]
    totals = [[None] * len(sizes) if per_chunk else 0 for sizes in job_sizes]

    def collect(job, chunk, result, *, stored):
        if per_chunk:
            totals[job][chunk] = result
        elif stored:
            totals[job] = _add_stored(totals[job], result, store, chunk)
        else:
            totals[job] = totals[job] + result

    with progress_bar(progress, total=sum(counts)) as bar:

        def missing_chunks():
            for job, (config, job_seed) in enumerate(jobs):
                sizes = job_sizes[job]
                seeds = chunk_seeds(job_seed, len(sizes))
                for chunk, (size, seed) in enumerate(zip(sizes, seeds, strict=True)):
                    stored = None if store is None else store.get(keys[job], chunk, size)
                    if stored is None:
                        yield (job, chunk, size), config, size, seed
                    else:
                        collect(job, chunk, stored, stored=True)
                        bar.update(size)

        warm_up = partial(warm_up_jobs, chunk_function, [config for config, _ in jobs])
        for (job, chunk, size), result in map_chunks(
                partial(_run_tagged, chunk_function), missing_chunks(), workers=workers,
                warm_up=warm_up):
            if store is not None:
                store.put(keys[job], chunk, size, result)
            collect(job, chunk, result, stored=False)
            bar.update(size)
    return totals
