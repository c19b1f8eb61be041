"""Seeded chunks of Monte Carlo work and the workers that run them.

Work of ``n`` trials is cut into chunks of ``chunk_size``; chunk ``i`` draws from
``SeedSequence(entropy, spawn_key=(*spawn_key, i))``, the same stream as the
``i``-th child of ``SeedSequence(entropy).spawn``. A result therefore depends only
on the seed, ``n`` and ``chunk_size``, never on how many workers ran the chunks or
in which order they finished. Seeds themselves are read by `minestats.foundations.seeds`.

Under the ``spawn`` and ``forkserver`` start methods the pool is kept for the process's
later calls (`kept_pool`); under ``fork`` each call forks its own, after its warm-up.
A pool this module starts (`process_pool`) ends with the process that started it,
however that process ends: each worker watches its parent and exits once it is
gone, so a run killed with SIGKILL leaves no worker holding its chunk store open.
"""

from __future__ import annotations

import atexit
import multiprocessing
import multiprocessing.connection
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from itertools import chain, islice

import numpy as np

from minestats.foundations.validation import check_count, quoted
from minestats.runs.cluster import is_dask_client, warm_workers

__all__ = ["CGROUP_CPU_MAX", "MAX_WORKERS", "PARENT_POLL_SECONDS", "WINDOW_PER_WORKER",
           "ChunkSizes", "available_cpus", "check_cluster_code", "check_workers", "chunk_seeds",
           "chunk_sizes", "exit_with_parent", "kept_pool", "map_chunks", "process_pool"]

PARENT_POLL_SECONDS = 0.5
"""How often a pool worker checks that the process that started its pool is alive."""


class ChunkSizes(Sequence):
    """The sizes of the chunks of ``n`` trials, computed on demand (memory independent of n).

    Full chunks of ``chunk_size``, then the remainder.
    """

    def __init__(self, n: int, chunk_size: int):
        self.n, self.chunk_size = n, chunk_size
        self._full, self._rest = divmod(n, chunk_size)

    def __len__(self) -> int:
        return self._full + (1 if self._rest else 0)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(f"chunk {index} of {len(self)}")
        return self.chunk_size if index < self._full else self._rest

    def __repr__(self) -> str:
        return f"ChunkSizes(n={self.n}, chunk_size={self.chunk_size})"


def chunk_sizes(n: int, chunk_size: int) -> ChunkSizes:
    """Sizes of the chunks that make up ``n`` trials: full chunks, then the remainder.

    The sequence is computed on demand, so a huge ``n`` costs no memory before its
    first chunk runs.

    Examples
    --------
    >>> list(chunk_sizes(25, 10))
    [10, 10, 5]
    >>> len(chunk_sizes(0, 10)), len(chunk_sizes(10**15, 200))
    (0, 5000000000000)
    """
    chunk_size = check_count("chunk_size", chunk_size)
    n = check_count("n", n, minimum=0)
    return ChunkSizes(n, chunk_size)


def chunk_seeds(seed_sequence: np.random.SeedSequence, count: int) -> Iterator:
    """Yield the keyed child sequence of each of ``count`` chunks, one at a time.

    Examples
    --------
    >>> parent = np.random.SeedSequence(7)
    >>> [s.spawn_key for s in chunk_seeds(parent, 2)]
    [(0,), (1,)]
    >>> second = list(chunk_seeds(parent, 2))[1]
    >>> second.generate_state(2).tolist() == (
    ...     np.random.SeedSequence(7).spawn(2)[1].generate_state(2).tolist())
    True
    """
    for i in range(count):
        yield np.random.SeedSequence(seed_sequence.entropy,
                                     spawn_key=(*seed_sequence.spawn_key, i),
                                     pool_size=seed_sequence.pool_size)


MAX_WORKERS = 64
"""The most processes a local pool may start (more belong on a Dask cluster)."""


def check_workers(workers) -> int:
    """Return the number of processes ``workers`` asks for, or raise a one-line ValueError.

    -1 means every CPU this process may use (`available_cpus`); otherwise 1 to
    `MAX_WORKERS`.

    Examples
    --------
    >>> check_workers(2)
    2
    >>> check_workers(1000)
    Traceback (most recent call last):
    ...
    ValueError: workers (1000) must be -1 (all cores) or from 1 to MAX_WORKERS = 64
    """
    if isinstance(workers, bool) or not isinstance(workers, int | np.integer):
        raise ValueError(f"workers ({quoted(workers)}) must be an integer, an executor or a "
                         "map-like callable")
    if workers == -1:
        return available_cpus()
    if not 1 <= workers <= MAX_WORKERS:
        raise ValueError(f"workers ({workers}) must be -1 (all cores) or from 1 to "
                         f"MAX_WORKERS = {MAX_WORKERS}")
    return int(workers)


def available_cpus() -> int:
    """Return how many CPUs this process may use: its affinity, capped by a cgroup quota.

    ``os.cpu_count()`` counts the machine's cores; a process pinned with ``taskset``
    or running in a SLURM, Kubernetes or container allocation may use fewer. The
    affinity mask (``os.sched_getaffinity``) gives the cores it may run on, and a
    cgroup v2 CPU quota (``cpu.max``, e.g. a Kubernetes limit) the share of them it
    may keep busy; the smaller wins, and at least 1.

    Examples
    --------
    >>> 1 <= available_cpus() <= (os.cpu_count() or 1)
    True
    """
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux
        cpus = os.cpu_count() or 1
    quota = _cgroup_quota()
    if quota is not None:
        cpus = min(cpus, max(1, int(quota)))
    return max(cpus, 1)


CGROUP_CPU_MAX = "/sys/fs/cgroup/cpu.max"
"""Where cgroup v2 keeps this process's CPU quota: ``"max 100000"`` or ``"200000 100000"``."""


def _cgroup_quota() -> float | None:
    """Return the cgroup v2 CPU quota in CPUs, or None where no quota is set or readable."""
    try:
        with open(CGROUP_CPU_MAX) as handle:
            quota, period = handle.read().split()[:2]
        return None if quota == "max" else int(quota) / int(period)
    except (OSError, ValueError):
        return None


def map_chunks(function: Callable, tasks: Iterable, *, workers=-1,
               warm_up: Callable[[], object] | None = None) -> Iterator:
    """Apply ``function`` to every task and yield the results in task order.

    Results are yielded in task order as soon as every earlier one is ready. On a
    pool, up to `WINDOW_PER_WORKER` tasks per worker are in flight, so a slow chunk
    holds back only the yielding, not the other workers, and memory is bounded by the
    chunk size, not by the number of chunks. On a Dask cluster the window follows the
    live cluster: workers that join after the call starts (``adapt()``, a job queue)
    get work as soon as they arrive.

    ``warm_up`` compiles (or loads from numba's disk cache) the kernels the tasks
    run, once, before the first task: a pool this call starts is forked after it ran
    in this process, so its workers inherit the kernels instead of each compiling
    them; on a Dask cluster it runs once on every worker
    (`minestats.runs.cluster.warm_workers`). Work that runs here, or on a pool or map
    the caller hands in, compiles on its first task as usual.

    Parameters
    ----------
    function : callable
        A picklable module-level function of one task.
    tasks : iterable
        One entry per chunk; may be a generator.
    workers : int, executor or map-like callable, optional
        ``-1`` (default) uses a process pool with one worker per core, ``1`` runs
        in this process, ``k`` uses ``k`` processes. An object with a ``submit``
        method (a `concurrent.futures.Executor`, or a ``dask.distributed.Client``
        for a cluster) is used as the pool; a map-like callable (an executor's
        ``map``) is called as it is. Either way the caller owns the pool.
    warm_up : callable, optional
        Called with no argument before the first task goes to a pool this call
        starts, or to a Dask cluster; a picklable function for a cluster.

    Returns
    -------
    iterator
        ``function(task)`` for each task, in task order.

    Examples
    --------
    >>> list(map_chunks(abs, [-1, 2, -3], workers=1))
    [1, 2, 3]
    """
    if callable(workers):
        return iter(workers(function, tasks))
    if hasattr(workers, "submit"):
        if is_dask_client(workers):
            check_cluster_code(workers)
            tasks = iter(tasks)
            head = list(islice(tasks, 1))
            if head and warm_up is not None:  # nothing to warm when the store held it all
                warm_workers(workers, warm_up)
            tasks = chain(head, tasks)
        return _map_on_executor(function, iter(tasks), workers, lambda: _capacity(workers))
    count = check_workers(workers)
    tasks = iter(tasks)
    head = list(islice(tasks, 2))
    if count <= 1 or len(head) <= 1:
        return map(function, chain(head, tasks))
    if warm_up is not None:
        warm_up()  # here, once: the pool's workers are forked with the kernels loaded
    return _map_on_own_pool(function, chain(head, tasks), count)


def check_cluster_code(client) -> None:
    """Refuse a Dask cluster whose workers run other minestats code than this process.

    Each worker computes `minestats.runs.store.code_fingerprint` (``client.run``); a
    chunk computed by other code would be summed, and stored, as if it were ours.
    Workers that join later are not asked.

    Raises
    ------
    ValueError
        One line: how many workers differ and the first of them, or why they could
        not be asked.

    Examples
    --------
    >>> class Cluster:
    ...     def run(self, function):
    ...         return {"tcp://10.0.0.2:4001": "0" * 64}
    >>> check_cluster_code(Cluster())  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: 1 of 1 Dask workers run other minestats code than this process (first: ...
    """
    from minestats.runs.store import code_fingerprint

    ours = code_fingerprint()
    try:
        theirs = client.run(code_fingerprint)
    except Exception as error:  # noqa: BLE001 (any worker failure is one line)
        reason = " ".join(str(error).split())[:200] or type(error).__name__
        raise ValueError(f"cannot ask the Dask workers which minestats code they run: "
                         f"{reason}") from None
    other = sorted(worker for worker, fingerprint in theirs.items() if fingerprint != ours)
    if other:
        raise ValueError(f"{len(other)} of {len(theirs)} Dask workers run other minestats "
                         f"code than this process (first: {other[0]}): install the same "
                         f"version and source on every worker")


def _capacity(executor) -> int:
    """How many tasks an executor runs at once: its workers, or its threads on Dask."""
    if hasattr(executor, "nthreads"):
        return max(sum(executor.nthreads().values()), 1)
    return getattr(executor, "_max_workers", None) or os.cpu_count() or 1


def process_pool(count: int) -> ProcessPoolExecutor:
    """Start a process pool of ``count`` workers that exit when this process dies.

    Every worker runs `exit_with_parent` first. Use it like any executor, in a
    ``with`` block; a pool that ends normally shuts down as usual.

    Examples
    --------
    >>> with process_pool(2) as pool:
    ...     list(pool.map(abs, [-1, -2]))
    [1, 2]
    """
    return ProcessPoolExecutor(max_workers=count, initializer=exit_with_parent,
                               initargs=(os.getpid(),))


def exit_with_parent(creator: int) -> None:
    """Make this pool worker exit once the process that started the pool is gone.

    ``creator`` is that process's pid. A daemon thread ends the worker
    (``os._exit``) as soon as either sign of the creator's death shows:

    - the worker's parent changes (``os.getppid()``, checked every
      `PARENT_POLL_SECONDS`), since a dead process's children pass to another
      parent. Under ``fork`` and ``spawn`` the parent is the creator; under
      ``forkserver`` it is the server, which the workers themselves keep alive, so
    - the pipe by which multiprocessing lets a process see its creator
      (``multiprocessing.parent_process().sentinel``) reads as closed. Under
      ``spawn`` and ``forkserver`` only the creator holds its other end; under
      ``fork`` the workers forked later hold copies, so it is not watched there.

    A worker whose parent is not the creator when it starts (``fork`` or ``spawn``)
    exits at once: the creator died first. A worker inside a long compiled call
    (numba, holding the GIL) exits when the call returns. Only ``os``, threads and
    multiprocessing are involved: no signal handler, no Linux-only ``prctl``.
    """
    parent = os.getppid()
    method = multiprocessing.get_start_method()
    if method != "forkserver" and parent != creator:
        os._exit(1)  # the creator died before this worker got here
    sentinel = None if method == "fork" else getattr(multiprocessing.parent_process(),
                                                     "sentinel", None)
    threading.Thread(target=_watch_parent, args=(parent, sentinel), name="exit-with-parent",
                     daemon=True).start()


def _watch_parent(parent: int, sentinel) -> None:
    """Return never: end the process once ``parent`` is gone or ``sentinel`` closes."""
    while os.getppid() == parent:
        if sentinel is None:
            time.sleep(PARENT_POLL_SECONDS)
        elif multiprocessing.connection.wait([sentinel], timeout=PARENT_POLL_SECONDS):
            break
    os._exit(1)


_KEPT_POOLS: dict[tuple[int, str], ProcessPoolExecutor] = {}
"""The pools kept for later calls, by worker count and start method (`kept_pool`)."""


def kept_pool(count: int) -> ProcessPoolExecutor:
    """Return this process's kept pool of ``count`` workers, started on first use.

    Where a pool's workers start afresh (the ``spawn`` and ``forkserver`` start methods,
    the defaults on macOS and Windows), each would import minestats and load the compiled
    kernels from numba's cache before its first chunk; `map_chunks` therefore keeps one
    pool per worker count for the life of the process, so a notebook's second call finds
    its workers ready. A pool that broke (a worker killed) is replaced; every kept pool
    is shut down when the process exits, and its workers exit with the process anyway
    (`exit_with_parent`). Under ``fork`` (Linux) `map_chunks` forks a fresh pool for each
    call instead, after its warm-up: the workers inherit the kernels at no cost, and no
    worker outlives the call.

    Examples
    --------
    >>> kept_pool(2) is kept_pool(2)
    True
    """
    key = (count, multiprocessing.get_start_method())
    pool = _KEPT_POOLS.get(key)
    if pool is not None and not _whole(pool):
        _forget_kept_pool(pool)
        pool = None
    if pool is None:
        if not _KEPT_POOLS:
            atexit.register(_shut_kept_pools)
        pool = _KEPT_POOLS[key] = process_pool(count)
    return pool


def _whole(pool: ProcessPoolExecutor) -> bool:
    """Whether a pool can take work: not broken, and every worker it started alive."""
    workers = getattr(pool, "_processes", None) or {}
    return not getattr(pool, "_broken", False) and all(
        worker.is_alive() for worker in workers.values())


def _forget_kept_pool(pool: ProcessPoolExecutor) -> None:
    """Drop a kept pool that broke, its workers ended, so that the next call starts another."""
    for key, kept in list(_KEPT_POOLS.items()):
        if kept is pool:
            del _KEPT_POOLS[key]
    for worker in list((getattr(pool, "_processes", None) or {}).values()):
        worker.kill()  # a worker still starting would otherwise wait for work forever
    pool.shutdown(wait=False, cancel_futures=True)


def _shut_kept_pools() -> None:
    while _KEPT_POOLS:
        _KEPT_POOLS.popitem()[1].shutdown(wait=False, cancel_futures=True)


def _map_on_own_pool(function: Callable, tasks: Iterator, count: int) -> Iterator:
    if multiprocessing.get_start_method() == "fork":
        with process_pool(count) as pool:
            yield from _map_on_executor(function, tasks, pool, lambda: count)
    else:
        yield from _map_on_kept_pool(function, tasks, count)


def _map_on_kept_pool(function: Callable, tasks: Iterator, count: int) -> Iterator:
    """Map on the kept pool, and once more on a new one if it broke.

    A kept worker may have died while idle between calls; the tasks submitted and not
    yet answered then run again, in order, on a new pool (the chunks are seeded, so
    they give the same results), and a second break is the caller's error.
    """
    for attempt in range(2):
        pool, in_flight = kept_pool(count), deque()
        try:
            for result in _map_on_executor(function, _recorded(tasks, in_flight), pool,
                                           lambda: count):
                in_flight.popleft()
                yield result
            return
        except BrokenProcessPool:
            _forget_kept_pool(pool)
            if attempt:
                raise
            tasks = chain(list(in_flight), tasks)


def _recorded(tasks: Iterator, in_flight: deque) -> Iterator:
    """Yield the tasks, appending each to ``in_flight`` as it is handed out."""
    for task in tasks:
        in_flight.append(task)
        yield task


WINDOW_PER_WORKER = 4
"""Tasks in flight per worker: enough that a straggler leaves the others busy."""

CAPACITY_SECONDS = 1.0
"""How often the window asks a cluster how many threads it has now."""


def _map_on_executor(function: Callable, tasks: Iterator, executor,
                     capacity: Callable[[], int]) -> Iterator:
    """Submit tasks through a window sized by ``capacity()``; yield results in task order.

    The window is read again every `CAPACITY_SECONDS` while tasks are submitted, so a
    cluster that grows gets more work in flight. Finished results at the head are
    yielded at once; the head is waited for only when the window is full.
    """
    pending = deque()
    window, checked = WINDOW_PER_WORKER * capacity(), time.monotonic()
    try:
        for task in tasks:
            pending.append(executor.submit(function, task))
            if time.monotonic() - checked >= CAPACITY_SECONDS:
                window, checked = WINDOW_PER_WORKER * capacity(), time.monotonic()
            while pending and (pending[0].done() or len(pending) >= window):
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    finally:  # stopped early (an error, Ctrl-C, a consumer that left): drop what waits
        for future in pending:
            future.cancel()
