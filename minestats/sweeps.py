"""Grids of Monte Carlo work: configurations cut into seeded chunks, run on workers.

A *job* is one configuration (any picklable value) with its own seed sequence.
Each job's ``n`` trials are cut into chunks of ``chunk_size``; chunk ``j`` draws
from the ``j``-th keyed child of the job's sequence (`minestats.chunks`). All
chunks of all jobs go through one stream of workers, and each job's chunk results
are added up, so a job's total depends only on its seed, ``n`` and ``chunk_size``.

In a grid, job ``i`` is seeded with child ``i`` of the grid's seed: running that
job alone with that child (seed label ``"seed/i"``) gives the same numbers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

import numpy as np

from minestats.chunks import as_seed_sequence, chunk_seeds, chunk_sizes, map_chunks

__all__ = ["grid_seeds", "run_jobs"]


def grid_seeds(rng, count: int) -> list[np.random.SeedSequence]:
    """Seed sequences of the ``count`` jobs of a grid: the keyed children of ``rng``.

    Examples
    --------
    >>> from minestats.chunks import seed_label
    >>> [seed_label(s) for s in grid_seeds(42, 3)]
    ['42/0', '42/1', '42/2']
    """
    return list(chunk_seeds(as_seed_sequence(rng), count))


def _run_tagged(chunk_function, task):
    job, config, size, seed = task
    return job, chunk_function(config, size, seed)


def run_jobs(chunk_function: Callable, jobs: Sequence, *, n: int, chunk_size: int,
             workers=-1) -> list:
    """Run ``n`` trials of every job in seeded chunks and add up each job's chunk results.

    Parameters
    ----------
    chunk_function : callable
        ``chunk_function(config, size, seed_sequence)`` runs ``size`` trials of one
        configuration and returns something that adds up (an int or an array).
        Must be a picklable module-level function.
    jobs : sequence of (config, numpy.random.SeedSequence)
        The configurations and their seeds.
    n : int
        Trials per job.
    chunk_size : int
        Trials per chunk.
    workers : int or map-like callable, optional
        See `minestats.chunks.map_chunks`.

    Returns
    -------
    list
        The summed chunk results, one per job, in job order.

    Examples
    --------
    >>> from minestats.sweeps import grid_seeds, run_jobs
    >>> jobs = list(zip(["a", "b"], grid_seeds(0, 2)))
    >>> run_jobs(lambda config, size, seed: size, jobs, n=25, chunk_size=10, workers=1)
    [25, 25]
    """
    sizes = chunk_sizes(n, chunk_size)
    tasks = ((job, config, size, seed)
             for job, (config, job_seed) in enumerate(jobs)
             for size, seed in zip(sizes, chunk_seeds(job_seed, len(sizes)), strict=True))
    totals = [0] * len(jobs)
    for job, result in map_chunks(partial(_run_tagged, chunk_function), tasks,
                                  workers=workers):
        totals[job] = totals[job] + result
    return totals
