import os
import pickle
import sqlite3

import numpy as np
import pytest

from minestats.drivers.no_guess import generate_no_guess_batch
from minestats.foundations.board import Board
from minestats.runs.store import APPLICATION_ID, ChunkStore, decode_result, encode_result


class Payload:
    """Unpickling this would create the marker file: what a hostile store could hold."""

    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (open, (str(self.marker), "w"))


def test_a_pickled_blob_is_never_unpickled_and_reads_as_corrupt(tmp_path):
    path, marker = tmp_path / "chunks.sqlite", tmp_path / "marker"
    with ChunkStore(path) as store:
        store.put("job", 0, 10, np.arange(3))
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE chunks SET result = ?",
                           (pickle.dumps(Payload(marker)),))
    with ChunkStore(path) as store, pytest.raises(ValueError) as caught:
        store.get("job", 0, 10)
    assert not marker.exists()
    message = str(caught.value)
    assert "\n" not in message
    assert str(path) in message and "chunk 0 (size 10)" in message and "corrupt" in message


@pytest.mark.parametrize("blob", [b"", b"\xff\xfe", b"[1, {\"object\": \"os.system\", "
                                  b"\"state\": {}}]", b"{\"array\": \"|O\", \"shape\": [1], "
                                  b"\"scalar\": false, \"readonly\": false, \"data\": \"\"}",
                                  b"{\"array\": \"<i8\", \"shape\": [3], \"scalar\": false, "
                                  b"\"readonly\": false, \"data\": \"AAAA\"}"])
def test_damaged_or_foreign_blobs_are_one_line_value_errors(tmp_path, blob):
    path = tmp_path / "chunks.sqlite"
    with ChunkStore(path) as store:
        store.put("job", 2, 5, 1)
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE chunks SET result = ?", (blob,))
    with ChunkStore(path) as store, pytest.raises(ValueError, match=r"chunk 2 \(size 5\)"):
        store.get("job", 2, 5)


@pytest.mark.parametrize("result", [
    7, 2.5, np.float64(0.1), np.int64(-3), np.array([1.5, np.nan, np.inf]),
    np.arange(12, dtype=np.uint8).reshape(3, 4), np.zeros((2, 3), dtype=bool),
    (1, [2.0, None], "x"), Board(9, 9, 10),
])
def test_plain_results_come_back_equal_and_of_the_same_type(result):
    back = decode_result(encode_result(result))
    assert type(back) is type(result)
    if isinstance(result, np.ndarray):
        assert back.dtype == result.dtype and back.shape == result.shape
        np.testing.assert_array_equal(back, result)
    else:
        assert back == result


def test_other_objects_are_refused_when_stored():
    with pytest.raises(TypeError, match="cannot store a chunk result of type Payload"):
        encode_result(Payload("x"))
    with pytest.raises(TypeError, match="dtype object"):
        encode_result(np.array([None]))


def test_no_guess_batch_chunks_round_trip_through_the_store(tmp_path):
    kwargs = {"n": 4, "seed": 5, "chunk_size": 2, "workers": 1}
    plain = generate_no_guess_batch("8x8/10", "centre", **kwargs)
    with ChunkStore(tmp_path / "boards.sqlite") as store:
        generate_no_guess_batch("8x8/10", "centre", **kwargs, store=store)
    with ChunkStore(tmp_path / "boards.sqlite") as store:
        again = generate_no_guess_batch("8x8/10", "centre", **kwargs, store=store)
        assert (store.reused, store.written) == (2, 0)
    np.testing.assert_array_equal(again.layouts, plain.layouts)
    assert again.board_seeds() == plain.board_seeds() and again.board == plain.board
    np.testing.assert_array_equal(again.tries, plain.tries)
    assert os.listdir(tmp_path) == ["boards.sqlite"]


def test_a_store_written_by_other_code_is_refused_as_stale(tmp_path, monkeypatch):
    path = tmp_path / "chunks.sqlite"
    monkeypatch.setattr("minestats.runs.store.code_fingerprint", lambda: "abcd1234" * 8)
    with ChunkStore(path) as store:
        store.put("job", 0, 10, 1)
    with ChunkStore(path) as store:  # the same code reads its chunks back
        assert store.get("job", 0, 10) == 1
    monkeypatch.setattr("minestats.runs.store.code_fingerprint", lambda: "ef567890" * 8)
    with pytest.raises(ValueError) as caught:
        ChunkStore(path)
    assert str(caught.value) == (
        f"chunk store {path} was written by minestats code abcd1234, this is ef567890: its "
        f"chunks may be stale; use a new store file")


def test_the_fingerprint_follows_the_source_files(tmp_path, monkeypatch):
    import minestats.runs.store as store_module

    fingerprint = store_module.code_fingerprint()
    assert len(fingerprint) == 64 and int(fingerprint, 16) >= 0
    package = tmp_path / "minestats"
    (package / "runs").mkdir(parents=True)
    (package / "a.py").write_text("x = 1\n")
    monkeypatch.setattr(store_module, "__file__", str(package / "runs" / "store.py"))
    store_module.code_fingerprint.cache_clear()
    try:
        first = store_module.code_fingerprint()
        store_module.code_fingerprint.cache_clear()
        (package / "a.py").write_text("x = 2\n")
        assert store_module.code_fingerprint() != first
    finally:
        monkeypatch.undo()
        store_module.code_fingerprint.cache_clear()
    assert store_module.code_fingerprint() == fingerprint


def test_a_new_store_is_marked_with_our_application_id_and_format(tmp_path):
    path = tmp_path / "chunks.sqlite"
    ChunkStore(path).close()
    with sqlite3.connect(path) as connection:
        assert connection.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
        assert connection.execute("PRAGMA user_version").fetchone()[0] == 2
    empty = tmp_path / "empty.sqlite"
    empty.touch()  # an empty file is an empty database: it becomes a store
    with ChunkStore(empty) as store:
        store.put("job", 0, 1, 1)
        assert len(store) == 1


def test_a_foreign_sqlite_file_is_refused_and_left_untouched(tmp_path):
    path = tmp_path / "notes.sqlite"
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE notes (text TEXT)")
    before = path.read_bytes()
    with pytest.raises(ValueError) as caught:
        ChunkStore(path)
    assert str(caught.value) == (f"{path} is an SQLite file but not a minestats chunk store "
                                 f"(application_id 0x0): leaving it untouched")
    assert path.read_bytes() == before


def test_a_store_of_the_pickling_format_or_another_format_is_refused(tmp_path):
    old = tmp_path / "old.sqlite"
    with sqlite3.connect(old) as connection:
        connection.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")
        connection.execute("CREATE TABLE chunks (job TEXT, chunk INTEGER, size INTEGER, "
                           "result BLOB, PRIMARY KEY (job, chunk, size))")
    with pytest.raises(ValueError, match=r"written by an older minestats \(format 1"):
        ChunkStore(old)
    other = tmp_path / "other.sqlite"
    ChunkStore(other).close()
    with sqlite3.connect(other) as connection:
        connection.execute("PRAGMA user_version = 7")
    with pytest.raises(ValueError, match="has format 7, this minestats reads format 2"):
        ChunkStore(other)


@pytest.mark.parametrize("content", [b"hello, not a database\n" * 50, b"SQLite"])
def test_a_file_that_is_not_sqlite_is_a_one_line_error(tmp_path, content):
    path = tmp_path / "chunks.sqlite"
    path.write_bytes(content)
    with pytest.raises(ValueError) as caught:
        ChunkStore(path)
    assert str(caught.value) == f"{path} is not a minestats chunk store: not an SQLite file"
    assert path.read_bytes() == content
    with pytest.raises(ValueError, match="is a folder, not a file"):
        ChunkStore(tmp_path)


def read_only_message(path):
    return (f"chunk store {path} is read-only: chunks could not be added to it (give write "
            f"permission, or use a new store file)")


def test_a_store_sqlite_opens_read_only_says_read_only(tmp_path, monkeypatch):
    path = tmp_path / "chunks.sqlite"
    ChunkStore(path).close()
    monkeypatch.setattr("minestats.runs.store._connect", lambda path: sqlite3.connect(
        f"file:{path}?mode=ro", uri=True, isolation_level=None))
    with pytest.raises(ValueError) as caught:
        ChunkStore(path)
    assert str(caught.value) == read_only_message(path)


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0,
                    reason="root may write to any file")
def test_a_store_file_without_write_permission_says_read_only(tmp_path):
    path = tmp_path / "chunks.sqlite"
    ChunkStore(path).close()
    path.chmod(0o444)
    try:
        with pytest.raises(ValueError) as caught:
            ChunkStore(path)
    finally:
        path.chmod(0o644)
    assert str(caught.value) == read_only_message(path)


# --- faults of the store itself: one line each, and nothing left behind -----------------


def test_a_fifo_or_device_given_as_the_store_is_refused_without_opening_it(tmp_path):
    import stat

    os.mkfifo(tmp_path / "fifo")
    paths = [tmp_path / "fifo"]
    if os.geteuid() == 0:
        os.mknod(tmp_path / "null", stat.S_IFCHR | 0o666, os.makedev(1, 3))
        paths.append(tmp_path / "null")
    for path in paths:
        with pytest.raises(ValueError, match="is not a regular file"):
            ChunkStore(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(p.name for p in paths)


def test_a_store_that_cannot_be_made_leaves_no_empty_file(tmp_path, monkeypatch):
    from minestats.runs import store as store_module

    def fail(connection):
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(store_module.ChunkStore, "_open", lambda self: fail(self._connection))
    with pytest.raises(ValueError, match="disk I/O error"):
        ChunkStore(tmp_path / "new.sqlite")
    assert list(tmp_path.iterdir()) == []


def test_processes_creating_one_new_store_at_once_all_succeed(tmp_path):
    import subprocess
    import sys

    script = ("import sys; from minestats.runs.store import ChunkStore; "
              "s = ChunkStore(sys.argv[1]); s.put('job', int(sys.argv[2]), 1, 1); s.close()")
    runs = [subprocess.Popen([sys.executable, "-c", script, str(tmp_path / "one.sqlite"),
                              str(k)], stderr=subprocess.PIPE, text=True) for k in range(6)]
    errors = [run.communicate(timeout=120)[1] for run in runs]
    assert all(run.returncode == 0 for run in runs), errors
    with ChunkStore(tmp_path / "one.sqlite") as store:
        assert len(store) == 6


def test_a_foreign_table_under_our_mark_and_a_full_disk_are_one_line(tmp_path, monkeypatch):
    path = tmp_path / "store.sqlite"
    ChunkStore(path).close()
    with sqlite3.connect(path) as connection:
        connection.execute("DROP TABLE chunks")
        connection.execute("CREATE TABLE chunks (other TEXT)")
    connection.close()
    with ChunkStore(path) as store:
        with pytest.raises(ValueError, match="cannot be read"):
            store.get("job", 0, 10)
        with pytest.raises(ValueError, match="could not be added"):
            store.put("job", 0, 10, 3)


def test_a_stored_chunk_of_another_shape_is_one_line(tmp_path):
    from minestats.runs.sweeps import grid_seeds, run_jobs

    path = tmp_path / "store.sqlite"
    jobs = list(zip(["a"], grid_seeds(0, 1), strict=True))

    def chunk(config, size, seed):
        return np.zeros(3)

    with ChunkStore(path) as store:
        run_jobs(chunk, jobs, n=20, chunk_size=10, workers=1, store=store)
        key = next(iter({row[0] for row in store._connection.execute(
            "SELECT job FROM chunks")}))
        store.put(key, 1, 10, np.zeros(5))
        with pytest.raises(ValueError, match="does not add up with the other chunks"):
            run_jobs(chunk, jobs, n=20, chunk_size=10, workers=1, store=store)
