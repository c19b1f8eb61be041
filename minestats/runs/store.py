"""A resumable store of finished chunks, in one SQLite file.

A long sweep writes every chunk's result here as soon as it arrives; an
interrupted run (Ctrl-C, ``kill -9``, a lost worker) is simply started again with
the same store and recomputes only the chunks that are missing. Because chunk j
of a job always draws from the same keyed seed, the resumed run ends with the same
numbers, bit for bit, as an uninterrupted one.

A chunk is keyed by its job (the chunk function, the configuration and the job's
seed), its index and its size, so a store can be shared by many sweeps and even a
run with a larger ``n`` reuses the chunks it has in common with a smaller one.
A store remembers the fingerprint of the code that wrote it (`code_fingerprint`)
and is refused by any other code: after a change, its chunks may be stale.

Results are stored as plain data, never pickled: a JSON document in which numbers,
lists and tuples stand for themselves, a numpy array is its dtype, shape and raw
bytes, a `minestats.runs.tally.Tally` its names and arrays, and the few objects of
the foundations a result may hold (`_OBJECTS`) are their fields. The store knows no
class above its own layer.
Reading a store therefore never runs code from it, and a damaged chunk is a
``ValueError`` naming the store and the chunk.

A store file is marked as one (`APPLICATION_ID` in its header, the format in its
``user_version``): any other SQLite file is refused, never given our tables.
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
import functools
import hashlib
import importlib
import json
import os
import sqlite3
import stat
from pathlib import Path

import numpy as np

from minestats.foundations.validation import quoted
from minestats.runs.tally import Tally

__all__ = ["APPLICATION_ID", "ChunkStore", "code_fingerprint", "decode_result", "encode_result",
           "job_key"]

#: Marks an SQLite file as a minestats chunk store (``PRAGMA application_id``): "MSCS".
APPLICATION_ID = 0x4D534353

#: Format of the chunk table and of its blobs, kept in the file's ``user_version``.
#: Format 1 pickled its results, had no mark and is no longer read.
_FORMAT = 2

_SQLITE_HEADER = b"SQLite format 3\x00"

# The classes a stored result may contain besides a Tally (module, qualified name):
# nothing else is ever imported or built when a chunk is read.
_OBJECTS = frozenset({
    ("minestats.foundations.board", "Board"),
})

# Array dtypes a stored result may hold: bool, signed and unsigned ints, floats, complex.
_ARRAY_KINDS = "biufc"


def _version() -> str:
    from minestats import __version__

    return __version__


@functools.cache
def code_fingerprint() -> str:
    """SHA-256 of the code that computes the chunks: the version and every source file.

    The package's ``*.py`` files, in the order of their paths, each path with the hash
    of its contents, after ``minestats.__version__``. Computed once per process. Any
    change to the code (even a comment) gives a new fingerprint, so a store never
    serves chunks that older code computed.

    Returns
    -------
    str
        64 hex digits.

    Examples
    --------
    >>> len(code_fingerprint()), code_fingerprint() == code_fingerprint()
    (64, True)
    """
    package = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256(f"minestats {_version()}\n".encode())
    for name in sorted(path.relative_to(package).as_posix()
                       for path in package.rglob("*.py")):
        contents = hashlib.sha256((package / name).read_bytes()).hexdigest()
        digest.update(f"{name} {contents}\n".encode())
    return digest.hexdigest()


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


def _encode(value):
    """Return ``value`` as JSON-ready plain data (see `encode_result`)."""
    if isinstance(value, np.ndarray | np.generic):
        array = np.asarray(value)
        if array.dtype.kind not in _ARRAY_KINDS:
            raise TypeError(f"cannot store an array of dtype {array.dtype}")
        return {"array": array.dtype.str, "shape": list(array.shape),
                "scalar": isinstance(value, np.generic),
                "readonly": isinstance(value, np.ndarray) and not value.flags.writeable,
                "data": base64.b64encode(np.ascontiguousarray(array).tobytes()).decode()}
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, list):
        return [_encode(item) for item in value]
    if isinstance(value, tuple):
        return {"tuple": [_encode(item) for item in value]}
    if isinstance(value, Tally):
        return {"tally": [[name, _encode(total)] for name, total in value.items()]}
    kind = (type(value).__module__, type(value).__qualname__)
    if kind in _OBJECTS:
        state = ({field.name: getattr(value, field.name)
                  for field in dataclasses.fields(value)}
                 if dataclasses.is_dataclass(value) else vars(value))
        return {"object": ".".join(kind),
                "state": {name: _encode(item) for name, item in state.items()}}
    raise TypeError(f"cannot store a chunk result of type {type(value).__name__}")


def _decode(data):
    """Inverse of `_encode`; raises ValueError, TypeError or KeyError on bad data."""
    if data is None or isinstance(data, bool | int | float | str):
        return data
    if isinstance(data, list):
        return [_decode(item) for item in data]
    if not isinstance(data, dict):
        raise TypeError(f"unexpected {type(data).__name__}")
    if data.keys() == {"tuple"}:
        return tuple(_decode(item) for item in _list(data["tuple"]))
    if data.keys() == {"tally"}:
        pairs = [_list(pair) for pair in _list(data["tally"])]
        if any(len(pair) != 2 or not isinstance(pair[0], str) for pair in pairs) or len(
                {name for name, _ in pairs}) != len(pairs):
            raise ValueError("a tally is a list of [name, total] pairs, each name once")
        totals = {name: _decode(total) for name, total in pairs}
        if any(not isinstance(total, np.ndarray | np.generic | bool | int | float)
               for total in totals.values()):
            raise ValueError("a tally's totals are numeric arrays")
        return Tally(totals)
    if data.keys() == {"array", "shape", "scalar", "readonly", "data"}:
        dtype = np.dtype(data["array"]) if isinstance(data["array"], str) else None
        if dtype is None or dtype.kind not in _ARRAY_KINDS:
            raise ValueError(f"array dtype {quoted(data['array'])} is not numeric")
        shape = tuple(int(size) for size in _list(data["shape"]))
        raw = base64.b64decode(data["data"], validate=True)
        array = np.frombuffer(raw, dtype=dtype).reshape(shape).copy()
        if data["scalar"] is True:
            return array[()]
        array.flags.writeable = data["readonly"] is not True
        return array
    if data.keys() == {"object", "state"}:
        module, _, name = str(data["object"]).rpartition(".")
        if (module, name) not in _OBJECTS or not isinstance(data["state"], dict):
            raise ValueError(f"object {quoted(data['object'])} is not a minestats result")
        cls = getattr(importlib.import_module(module), name)
        instance = object.__new__(cls)
        # the fields as they were, as unpickling would set them, but from plain data only
        instance.__dict__.update({str(key): _decode(item)
                                  for key, item in data["state"].items()})
        return instance
    raise ValueError(f"unexpected keys {sorted(data)}")


def _list(value) -> list:
    if not isinstance(value, list):
        raise TypeError(f"expected a list, got {type(value).__name__}")
    return value


def encode_result(result) -> bytes:
    """Return a chunk result as plain-data bytes: JSON, arrays as dtype, shape, bytes.

    Results may be None, bools, ints, floats, strings, lists, tuples, numpy arrays
    and scalars of numeric dtype, tallies (`minestats.runs.tally.Tally`), and the
    objects of `_OBJECTS`.

    Raises
    ------
    TypeError
        If the result holds anything else.

    Examples
    --------
    >>> data = encode_result((3, 0.5, np.arange(4).reshape(2, 2)))
    >>> decode_result(data)
    (3, 0.5, array([[0, 1],
           [2, 3]]))
    """
    return json.dumps(_encode(result), separators=(",", ":")).encode()


def decode_result(data: bytes):
    """Rebuild a chunk result from `encode_result`'s bytes; never runs stored code.

    Raises
    ------
    ValueError
        If the bytes are not such a result.

    Examples
    --------
    >>> decode_result(encode_result([np.int64(7), None]))
    [np.int64(7), None]
    >>> decode_result(b"junk")
    Traceback (most recent call last):
    ...
    ValueError: not a stored chunk result: Expecting value: line 1 column 1 (char 0)
    """
    try:
        return _decode(json.loads(bytes(data).decode("utf-8")))
    except (ValueError, TypeError, KeyError, AttributeError, RecursionError,
            binascii.Error) as error:
        reason = " ".join(str(error).split()) or type(error).__name__
        raise ValueError(f"not a stored chunk result: {reason}") from None


def _connect(path: Path) -> sqlite3.Connection:
    """Open the store's database in autocommit mode: every chunk is its own transaction."""
    return sqlite3.connect(path, isolation_level=None)


class ChunkStore:
    """Finished chunks of Monte Carlo work, kept in an SQLite file.

    Parameters
    ----------
    path : str or pathlib.Path
        The store file; created if missing.

    Raises
    ------
    ValueError
        If the file is not a store (not SQLite, or an SQLite file without our mark),
        is read-only, or was written by another version or code of minestats.

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
        if not os.fspath(path):  # Path("") would be the current folder
            raise ValueError("chunk store '': an empty name names no file")
        self.path = Path(path)
        self.reused = 0
        self.written = 0
        self._connection = None
        created = self._check_file()
        try:
            self._connection = _connect(self.path)
            self._open()
        except BaseException as error:
            self.close()
            if created:  # a store that could not be made leaves no empty file behind
                for leftover in (self.path, Path(f"{self.path}-journal")):
                    leftover.unlink(missing_ok=True)
            if isinstance(error, sqlite3.DatabaseError):
                raise ValueError(self._database_error(error)) from None
            raise

    def _check_file(self) -> bool:
        """Refuse a folder, a special file or a file that is not SQLite; True if none exists.

        A FIFO would hang the reader and a device would get a ``-journal`` file beside
        it, so anything but a regular file (a symlink is followed) is refused before
        it is opened.
        """
        if self.path.is_dir():
            raise ValueError(f"chunk store {self.path} is a folder, not a file")
        try:
            mode = self.path.stat().st_mode
        except FileNotFoundError:
            return True
        except OSError as error:
            raise ValueError(f"cannot read chunk store {self.path}: {error.strerror}") from None
        if not stat.S_ISREG(mode):
            raise ValueError(f"chunk store {self.path} is not a regular file (a device, FIFO "
                             f"or socket): give the path of a file")
        try:
            with open(self.path, "rb") as handle:
                header = handle.read(len(_SQLITE_HEADER))
        except OSError as error:
            raise ValueError(f"cannot read chunk store {self.path}: {error.strerror}") from None
        if header and header != _SQLITE_HEADER:
            raise ValueError(f"{self.path} is not a minestats chunk store: not an SQLite file")
        return False

    def _database_error(self, error: sqlite3.DatabaseError) -> str:
        message = " ".join(str(error).split())
        if "readonly" in message or "read-only" in message:
            return (f"chunk store {self.path} is read-only: chunks could not be added to it "
                    f"(give write permission, or use a new store file)")
        if "unable to open" in message:
            return f"cannot open chunk store {self.path}: {message}"
        return f"{self.path} is not a minestats chunk store: {message}"

    def _open(self) -> None:
        """Mark a new file as a store, or check the mark, format and code of an old one."""
        connection = self._connection

        def marks():
            application_id = connection.execute("PRAGMA application_id").fetchone()[0]
            return application_id, {row[0] for row in connection.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}

        # Both marks from one read transaction: another process creating this very store
        # may commit between two separate reads (a header still 0, the tables already made).
        connection.execute("BEGIN")
        try:
            application_id, tables = marks()
        finally:
            if connection.in_transaction:
                connection.execute("COMMIT")
        if application_id == 0 and not tables:  # a new file (or an empty database)
            connection.execute("BEGIN IMMEDIATE")
            application_id, tables = marks()  # another process may have made it meanwhile
            if application_id or tables:
                connection.execute("ROLLBACK")
                return self._check_marks(application_id, tables)
            connection.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            connection.execute(f"PRAGMA user_version = {_FORMAT}")
            connection.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")
            connection.execute("CREATE TABLE chunks (job TEXT, chunk INTEGER, size INTEGER, "
                               "result BLOB, PRIMARY KEY (job, chunk, size))")
            connection.executemany("INSERT INTO meta VALUES (?, ?)",
                                   [("minestats", _version()), ("code", code_fingerprint())])
            connection.execute("COMMIT")
            return
        self._check_marks(application_id, tables)

    def _check_marks(self, application_id: int, tables: set) -> None:
        """Check the mark, format, version and code of an existing store."""
        connection = self._connection
        if application_id != APPLICATION_ID:
            if {"meta", "chunks"} <= tables:
                raise ValueError(f"chunk store {self.path} was written by an older minestats "
                                 f"(format 1, pickled chunks): use a new store file")
            raise ValueError(f"{self.path} is an SQLite file but not a minestats chunk store "
                             f"(application_id {application_id:#x}): leaving it untouched")
        user_version = connection.execute("PRAGMA user_version").fetchone()[0]
        if user_version != _FORMAT:
            raise ValueError(f"chunk store {self.path} has format {user_version}, this "
                             f"minestats reads format {_FORMAT}: use a new store file")
        found = dict(connection.execute("SELECT key, value FROM meta"))
        if found.get("minestats") != _version():
            raise ValueError(f"chunk store {self.path} was written with minestats "
                             f"{quoted(found.get('minestats'))}, this is "
                             f"{quoted(_version())}: use a new store file")
        if found.get("code") != code_fingerprint():
            raise ValueError(
                f"chunk store {self.path} was written by minestats code "
                f"{str(found.get('code'))[:8]}, this is {code_fingerprint()[:8]}: its chunks "
                f"may be stale; use a new store file")
        # a store we cannot add chunks to is refused now, not at its first chunk
        connection.execute("UPDATE meta SET value = value WHERE key = 'code'")

    def get(self, job: str, chunk: int, size: int):
        """Return the stored result of one chunk, or None if it is not there.

        Raises
        ------
        ValueError
            If the stored chunk cannot be read back (a damaged or foreign blob).
        """
        try:
            row = self._connection.execute(
                "SELECT result FROM chunks WHERE job = ? AND chunk = ? AND size = ?",
                (job, chunk, size)).fetchone()
        except sqlite3.DatabaseError as error:
            raise ValueError(f"chunk store {self.path} cannot be read: "
                             f"{' '.join(str(error).split())}") from None
        if row is None:
            return None
        try:
            result = decode_result(row[0])
        except ValueError as error:
            raise ValueError(f"chunk store {self.path}: chunk {chunk} (size {size}) of job "
                             f"{job[:12]} is corrupt ({error}); use a new store file") from None
        self.reused += 1
        return result

    def put(self, job: str, chunk: int, size: int, result) -> None:
        """Store one chunk's result, committed at once so a crash cannot lose it."""
        blob = encode_result(result)
        try:
            self._connection.execute("INSERT OR REPLACE INTO chunks VALUES (?, ?, ?, ?)",
                                     (job, chunk, size, blob))
        except sqlite3.DatabaseError as error:  # a full disk, a foreign table under our mark
            raise ValueError(f"chunk store {self.path}: chunk {chunk} could not be added "
                             f"({' '.join(str(error).split())}); the chunks stored before "
                             f"it are kept, and a rerun resumes from them") from None
        self.written += 1

    def __len__(self) -> int:
        return self._connection.execute("SELECT COUNT(*) FROM chunks").fetchone()[0]

    def close(self) -> None:
        """Close the database connection."""
        if self._connection is not None:
            self._connection.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()
        return False
