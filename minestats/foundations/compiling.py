"""Say, once, that the compiled kernels are being compiled: the wait of a first run.

numba compiles a kernel on its first call in a process, or loads it from its disk
cache; on a machine (or a ``NUMBA_CACHE_DIR``) that has never run minestats, the
first call waits minutes for the compiler. `say_when_compiling` makes that wait
explained: the first time a minestats kernel misses the cache in this process, one
line (`COMPILING`) goes to stderr; a warm cache stays silent. Importing minestats
turns it on; ``minestats ... --quiet`` turns it off.
"""

from __future__ import annotations

import sys

from numba.core import event

__all__ = ["COMPILING", "say_when_compiling"]

COMPILING = ("minestats: compiling the kernels for this machine, once (about 2 minutes of "
             "CPU;\n  cached afterwards; `minestats warmup` does it ahead)")
"""What a run says when a kernel misses numba's disk cache (a first run on a machine), in
two lines within the command's 100 columns."""


class _Compiling(event.Listener):
    """Print `COMPILING` on the first compilation of a minestats kernel, then never again."""

    def __init__(self):
        self.said, self.enabled, self.stream = False, True, None

    def on_start(self, data):
        function = getattr(data.data.get("dispatcher"), "py_func", None)
        if (self.said or not self.enabled
                or not getattr(function, "__module__", "").startswith("minestats.")):
            return
        self.said = True
        stream = sys.stderr if self.stream is None else self.stream
        if stream is not None:
            print(COMPILING, file=stream, flush=True)

    def on_end(self, data):
        pass


_LISTENER = _Compiling()
event.register("numba:compile", _LISTENER)


def say_when_compiling(enabled: bool = True, *, stream=None) -> None:
    """Say `COMPILING` on ``stream`` when a minestats kernel next compiles here, once.

    Importing minestats calls it with its defaults; a process that compiles says it
    once, then stays silent.

    Parameters
    ----------
    enabled : bool, optional
        False keeps this process silent (``--quiet``).
    stream : file-like, optional
        Where to say it; default whatever ``sys.stderr`` is at that moment.

    Examples
    --------
    >>> import io, numba
    >>> said = io.StringIO()
    >>> say_when_compiling(stream=said)
    >>> def double(x):
    ...     return 2 * x
    >>> double.__module__ = "minestats.example"  # as if it were one of the package's kernels
    >>> numba.njit(lambda x: x + 1)(1), numba.njit(double)(1), numba.njit(double)(2)
    (2, 2, 4)
    >>> said.getvalue().splitlines() == COMPILING.splitlines()  # once; the lambda is not ours
    True
    >>> say_when_compiling()  # back to stderr
    """
    _LISTENER.said, _LISTENER.enabled, _LISTENER.stream = False, enabled, stream
