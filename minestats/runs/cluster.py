"""Dask clusters for the chunks: connect to a scheduler, warm every worker's kernels.

A run sent to a cluster connects with `connect_scheduler` (one clear line when the
address answers as no scheduler does), then `minestats.runs.chunks.map_chunks` checks
that every worker runs this process's code and warms each worker's compiled kernels
(`warm_workers`) before the first chunk, so no chunk carries a compilation.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from minestats.foundations.validation import clipped, quoted

__all__ = ["SCHEDULER_SECONDS", "connect_scheduler", "is_dask_client", "warm_workers"]

SCHEDULER_SECONDS = 10
"""How long `connect_scheduler` waits for a Dask scheduler to answer before it gives up."""


def is_dask_client(workers) -> bool:
    """Return whether ``workers`` is a Dask client (it can run on and count its workers).

    Examples
    --------
    >>> is_dask_client(2), is_dask_client(map)
    (False, False)
    """
    return all(hasattr(workers, name) for name in ("submit", "run", "nthreads"))


def connect_scheduler(address: str, *, seconds: float = SCHEDULER_SECONDS):
    """Return a ``distributed.Client`` of the scheduler at ``address``, or one clear line.

    A server that is not a Dask scheduler (an HTTP server, or one that never answers)
    can stall the handshake past the client's own time-out, so the connection is made
    in a helper thread and abandoned when it takes longer than ``seconds``.

    Raises
    ------
    ValueError
        When dask.distributed is missing, or no scheduler answers at ``address`` within
        ``seconds``: one line naming the address and why.

    Examples
    --------
    >>> connect_scheduler("tcp://127.0.0.1:9", seconds=2)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: cannot reach the Dask scheduler at 'tcp://127.0.0.1:9': ...
    """
    try:
        from distributed import Client
    except ImportError:
        raise ValueError("a Dask scheduler needs dask.distributed: pip install "
                         "'minestats[dask]'") from None
    outcome = {}

    def connect():
        try:
            outcome["client"] = Client(address, timeout=f"{seconds}s")
        except BaseException as error:  # noqa: BLE001 (reported below, in this thread)
            outcome["error"] = error

    thread = threading.Thread(target=connect, daemon=True)
    thread.start()
    thread.join(seconds + 1)
    if "client" in outcome:
        return outcome["client"]
    error = outcome.get("error")
    reason = (f"no Dask scheduler answered within {seconds:g} s" if error is None
              else " ".join(str(error).split()) or type(error).__name__)
    raise ValueError(f"cannot reach the Dask scheduler at {quoted(address)}: "
                     f"{clipped(reason)}")


def warm_workers(client, warm_up: Callable[[], object]) -> int:
    """Run ``warm_up`` once on every worker of ``client`` now; return how many ran it.

    Each worker runs it as a task of its own (in its thread pool, not on its event
    loop, which a compilation of minutes would stall), and the call returns once all
    have finished. Workers that join later compile on their first chunk instead.

    Raises
    ------
    ValueError
        One line, naming the first worker whose warm-up failed and why.

    Examples
    --------
    >>> from concurrent.futures import ThreadPoolExecutor
    >>> class Cluster(ThreadPoolExecutor):
    ...     def nthreads(self):
    ...         return {"tcp://10.0.0.2:4001": 1, "tcp://10.0.0.3:4001": 1}
    ...     def submit(self, function, *, workers, pure):
    ...         return super().submit(function)
    >>> with Cluster() as cluster:
    ...     warm_workers(cluster, lambda: None)
    2
    """
    futures = {address: client.submit(warm_up, workers=[address], pure=False)
               for address in client.nthreads()}
    for address, future in futures.items():
        try:
            future.result()
        except Exception as error:  # noqa: BLE001 (any worker failure is one line)
            reason = " ".join(str(error).split())[:200] or type(error).__name__
            raise ValueError(f"the Dask worker {address} could not load minestats' compiled "
                             f"kernels: {reason}") from None
    return len(futures)
