"""The package's compiled functions, cached on disk and keyed to the code they compile in.

numba's disk cache (``cache=True``) checks a cached function against its own source
file only (the file's time stamp and size, and the function's bytecode). A function
it compiles in from another module (the frontier search, the flood fill, the
single-point rules inside perfect logic) is part of the cached machine code, yet a
change to it leaves that cache looking fresh, and the kernel would go on running the
old code (numba's own documentation on caching: "cache invalidation fails to
recognize changes in functions defined in a different file"; numba issue 1833). An
edit, a ``git pull`` into an editable install, or a checkout of another commit that
touches one file is enough.

`compiled` is ``numba.njit(cache=True)`` with the cache's stamp widened: a cached
entry is fresh only while its own file is unchanged *and* so is `code_fingerprint`,
the hash of every source file of the folders in `SOURCES`, those that hold compiled
functions. Any change there makes every kernel's cache stale, so each is compiled
again, once, and saved over the old entries, in the place numba would use (no cache
directories pile up). Nothing else of numba's behaviour changes: ``NUMBA_CACHE_DIR``
and numba's other settings apply as usual.
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

import numba
from numba.core.caching import FunctionCache, IndexDataCacheFile

__all__ = ["PACKAGE", "SOURCES", "CodeKeyedCache", "code_fingerprint", "compiled", "keyed_njit"]

PACKAGE = Path(__file__).resolve().parents[1]
"""The folder of the ``minestats`` package."""
SOURCES = ("frontier", "mechanics", "players", "solvers")
"""The folders of `PACKAGE` that hold compiled functions (each compiled by `compiled`)."""


@functools.cache
def code_fingerprint(root: Path, folders: tuple[str, ...]) -> str:
    """Return the SHA-256 of every ``.py`` file under ``folders`` of ``root``, as hex.

    Each file counts with its path relative to ``root`` and its bytes, in sorted
    order, so a change of any byte, a file added, removed or renamed, changes the
    fingerprint. Computed once per process for each ``(root, folders)``.

    Examples
    --------
    >>> fingerprint = code_fingerprint(PACKAGE, SOURCES)
    >>> len(fingerprint), fingerprint == code_fingerprint(PACKAGE, ("players",))
    (64, False)
    """
    digest = hashlib.sha256()
    files = sorted(path for folder in folders for path in (root / folder).rglob("*.py"))
    for path in files:
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


class CodeKeyedCache(FunctionCache):
    """numba's disk cache of one function, fresh only while ``fingerprint`` is unchanged.

    The source stamp numba saves in the cache's index (the time stamp and size of the
    function's file) becomes the pair of that stamp and ``fingerprint``; an index
    saved under another pair is stale, as after an edit of the function's own file.
    """

    def __init__(self, py_func, fingerprint: str):
        super().__init__(py_func)
        self._cache_file = IndexDataCacheFile(
            cache_path=self._cache_path, filename_base=self._impl.filename_base,
            source_stamp=(self._impl.locator.get_source_stamp(), fingerprint))


def keyed_njit(function, fingerprint: str, **options):
    """Return ``numba.njit(cache=True)(function)``, its cache keyed to ``fingerprint``.

    Parameters
    ----------
    function : callable
        A function numba can compile, defined in a source file.
    fingerprint : str
        What the cache is keyed to besides the function's own file (`CodeKeyedCache`),
        `code_fingerprint` of the sources it compiles in.
    **options
        numba's options of `numba.njit`.
    """
    dispatcher = numba.njit(function, **options)
    dispatcher._cache = CodeKeyedCache(dispatcher.py_func, fingerprint)
    return dispatcher


def compiled(function=None, *, borrows=False, **options):
    """Compile ``function`` as ``numba.njit(cache=True)`` does, its cache keyed to `SOURCES`.

    The decorator of every kernel of the package (`keyed_njit` with the
    `code_fingerprint` of `SOURCES`), bare or called with options.

    Parameters
    ----------
    function : callable, optional
        The function; omitted when the decorator is called with options.
    borrows : bool, optional
        Compile it without reference counting (numba's ``_nrt=False``), for a small
        helper called in a hot loop that only reads and writes the arrays it is
        given: it allocates nothing and keeps no array a callee returns (numba
        refuses the first; the second would never be freed, which
        ``tests/foundations/test_compiled.py`` checks from numba's allocation tally).
        A compiled function takes and releases each array argument with an atomic
        count, a call into numba's runtime each way: more than the work of such a
        helper (default False). Such a helper calls no compiled function but others
        that borrow: numba compiles a callee it first meets from a borrowing caller
        without reference counting too, and one that allocates then fails to compile
        (``tests/foundations/test_compiled.py`` checks this rule).
    **options
        Other options of `numba.njit`, such as ``inline="always"``.

    Examples
    --------
    `minestats.players.picks.unknown_neighbours`, called for every candidate cell of
    a guess, is such a helper:

    >>> import numpy as np
    >>> from minestats.mechanics.game import neighbour_table
    >>> from minestats.players.picks import unknown_neighbours
    >>> unknown_neighbours(0, neighbour_table(3, 3), np.zeros(9, bool), np.zeros(9, bool))
    3
    >>> unknown_neighbours.targetoptions["_nrt"]
    False
    """
    if borrows:
        options["_nrt"] = False
    decorate = functools.partial(keyed_njit, fingerprint=code_fingerprint(PACKAGE, SOURCES),
                                 **options)
    return decorate if function is None else decorate(function)
