"""A resumable store of finished chunks, in one SQLite file.

A long sweep writes every chunk's result here as soon as it arrives; an
interrupted run (Ctrl-C, ``kill -9``, a lost worker) is simply started again with
the same store and recomputes only the chunks that are missing. Because chunk j
of a job always draws from the same keyed seed, the resumed run ends with the same
numbers, bit for bit, as an uninterrupted one.

A chunk is keyed by its job (the chunk function, the configuration and the job's
seed), its index and its size, so a store can be shared by many sweeps and even a
run with a larger ``n`` reuses the chunks it has in common with a smaller one.
A store written by another version of minestats is refused, never mixed in.
"""

from __future__ import annotations

import hashlib
import pickle
import sqlite3
from pathlib import Path

import numpy as np

__all__ = ["ChunkStore", "job_key"]

_FORMAT = "1"


def _version() -> str:
    from minestats import __version__

    return __version__


def job_key(chunk_function, config, seed_sequence: np.random.SeedSequence) -> str:
    """Stable key of one job: what runs, on what, from which seed.

    Examples
    --------
    >>> key = job_key(abs, ("9x9/10", "uniform"), np.random.SeedSequence(42))
    >>> key == job_key(abs, ("9x9/10", "uniform"), np.random.SeedSequence(42))
    True
    >>> key == job_key(abs, ("9x9/10", "uniform"), np.random.SeedSequence(43))
    False
    """
    name = f"{chunk_function.__module__}.{chunk_function.__qualname__}"
    seed = (seed_sequence.entropy, seed_sequence.spawn_key, seed_sequence.pool_size)
    return hashlib.sha256(repr((name, config, seed)).encode()).hexdigest()


class ChunkStore:
    """Finished chunks of Monte Carlo work, kept in an SQLite file.

    Parameters
    ----------
    path : str or pathlib.Path
        The store file; created if missing.

    Raises
    ------
    ValueError
        If the file was written by another version of minestats or is not a store.

    Attributes
    ----------
    reused, written : int
        Chunks this instance took from the store and chunks it added.

    Examples
    --------
    >>> import tempfile, os
    >>> folder = tempfile.mkdtemp()
    >>> with ChunkStore(os.path.join(folder, "chunks.sqlite")) as store:
    ...     store.put("job", 0, 10, np.arange(3))
    ...     store.get("job", 0, 10), store.get("job", 1, 10)
    (array([0, 1, 2]), None)
    """

    def __init__(self, path):
        self.path = Path(path)
        self.reused = 0
        self.written = 0
        try:
            self._connection = sqlite3.connect(self.path)
            self._connection.execute(
                "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT)")
            self._connection.execute(
                "CREATE TABLE IF NOT EXISTS chunks (job TEXT, chunk INTEGER, size INTEGER, "
                "result BLOB, PRIMARY KEY (job, chunk, size))")
            self._check_meta()
        except sqlite3.DatabaseError as error:
            raise ValueError(f"{self.path} is not a minestats chunk store: {error}") from None

    def _check_meta(self) -> None:
        expected = {"format": _FORMAT, "minestats": _version()}
        with self._connection:
            self._connection.executemany("INSERT OR IGNORE INTO meta VALUES (?, ?)",
                                         expected.items())
        found = dict(self._connection.execute("SELECT key, value FROM meta"))
        for key, value in expected.items():
            if found.get(key) != value:
                self._connection.close()
                raise ValueError(
                    f"chunk store {self.path} was written with {key} {found.get(key)!r}, "
                    f"this is {value!r}: use a new store file")

    def get(self, job: str, chunk: int, size: int):
        """Return the stored result of one chunk, or None if it is not there."""
        row = self._connection.execute(
            "SELECT result FROM chunks WHERE job = ? AND chunk = ? AND size = ?",
            (job, chunk, size)).fetchone()
        if row is None:
            return None
        self.reused += 1
        return pickle.loads(row[0])

    def put(self, job: str, chunk: int, size: int, result) -> None:
        """Store one chunk's result, committed at once so a crash cannot lose it."""
        with self._connection:
            self._connection.execute("INSERT OR REPLACE INTO chunks VALUES (?, ?, ?, ?)",
                                     (job, chunk, size, pickle.dumps(result, protocol=5)))
        self.written += 1

    def __len__(self) -> int:
        return self._connection.execute("SELECT COUNT(*) FROM chunks").fetchone()[0]

    def close(self) -> None:
        """Close the database connection."""
        self._connection.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()
        return False
