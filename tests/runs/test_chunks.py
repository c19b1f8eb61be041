import os
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from minestats.foundations.seeds import seed_label
from minestats.runs.chunks import check_workers, chunk_seeds, chunk_sizes, map_chunks


def test_chunk_plan_and_seeds():
    assert list(chunk_sizes(10, 3)) == [3, 3, 3, 1]
    assert chunk_sizes(10, 3)[-1] == 1 and chunk_sizes(10, 3)[1:3] == [3, 3]
    parent = np.random.SeedSequence(5)
    spawned = np.random.SeedSequence(5).spawn(3)
    for keyed, child in zip(chunk_seeds(parent, 3), spawned, strict=True):
        assert (keyed.generate_state(4) == child.generate_state(4)).all()
    nested = next(chunk_seeds(np.random.SeedSequence(5, spawn_key=(2,)), 1))
    assert nested.spawn_key == (2, 0)
    assert seed_label(nested) == "5/2/0"
    with pytest.raises(ValueError, match=r"chunk_size \(0\) must be a positive integer"):
        chunk_sizes(10, 0)
    with pytest.raises(ValueError, match=r"n \(-1\) must be a non-negative integer"):
        chunk_sizes(-1, 10)


def test_map_chunks_keeps_task_order_on_a_pool():
    assert list(map_chunks(abs, [-3, 1, -2, 5, -4, 6], workers=2)) == [3, 1, 2, 5, 4, 6]
    assert list(map_chunks(abs, iter([-7]), workers=2)) == [7]
    with pytest.raises(ValueError, match=r"workers \('2'\)"):
        map_chunks(abs, [1], workers="2")


def test_workers_minus_one_counts_the_cpus_this_process_may_use(monkeypatch, tmp_path):
    from minestats.runs import chunks

    quota = tmp_path / "cpu.max"
    monkeypatch.setattr(chunks, "CGROUP_CPU_MAX", str(quota))
    monkeypatch.setattr(chunks.os, "sched_getaffinity", lambda pid: {0, 1, 2, 3})
    monkeypatch.setattr(chunks.os, "cpu_count", lambda: 128)
    assert check_workers(-1) == 4  # pinned to 4 of 128 cores, no quota file
    quota.write_text("max 100000\n")
    assert check_workers(-1) == 4
    quota.write_text("150000 100000\n")  # a quota of 1.5 CPUs
    assert check_workers(-1) == 1
    quota.write_text("800000 100000\n")  # more quota than cores: the cores win
    assert check_workers(-1) == 4
    monkeypatch.setattr(chunks.os, "sched_getaffinity", lambda pid: {0})
    assert check_workers(-1) == 1


class _GrowingCluster(ThreadPoolExecutor):
    """A thread pool that reports one thread until asked once, then four (workers joined)."""

    def __init__(self):
        super().__init__(max_workers=8)
        self.asked = 0

    def nthreads(self):
        self.asked += 1
        return {"first": 1} if self.asked == 1 else {f"w{i}": 1 for i in range(4)}


def _meet(barrier):
    try:
        barrier.wait()
    except threading.BrokenBarrierError:
        return False
    return True


def test_the_window_grows_with_the_cluster_and_a_straggler_holds_no_one(monkeypatch):
    from minestats.runs import chunks

    monkeypatch.setattr(chunks, "CAPACITY_SECONDS", 0)
    # Six tasks must be in flight at once to meet: a window sized once, for the one
    # thread present at the start (4 tasks), never lets them; one that follows the
    # cluster as workers join does. The barrier's time-out is a hang guard only.
    barrier = threading.Barrier(6, timeout=60)
    with _GrowingCluster() as cluster:
        met = list(map_chunks(_meet, [barrier] * 12, workers=cluster))
    assert met == [True] * 12 and cluster.asked >= 2
    # A straggler: the first chunk finishes only after the five behind it have.
    done = []
    release = threading.Event()

    def chunk(index):
        if index == 0:
            return release.wait(timeout=60)  # False only if the others never ran
        done.append(index)
        if len(done) == 5:
            release.set()
        return True

    with ThreadPoolExecutor(max_workers=2) as pool:
        assert list(map_chunks(chunk, range(6), workers=pool)) == [True] * 6


# --- workers end with the run ---------------------------------------------------------

RUN_WITH_TWO_WORKERS = """
import multiprocessing
import os
import sys
import time

from minestats.runs.chunks import map_chunks


def chunk(seconds):
    # This worker has started (its initializer has run). One os.write of fewer than
    # PIPE_BUF bytes reaches the pipe whole; print() may split the line into two writes
    # (it does under PYTHONUNBUFFERED=1), and two workers' halves then interleave.
    os.write(sys.stdout.fileno(), f"{os.getpid()}\\n".encode())
    time.sleep(seconds)


if __name__ == "__main__":
    multiprocessing.set_start_method(sys.argv[1])
    for _ in map_chunks(chunk, [60] * 4, workers=2):
        pass
"""


def process_identity(pid):
    """``(ppid, start time)`` of a live process from /proc, or None once it has exited.

    A zombie counts as exited: an orphan is reaped by whoever adopts it, if at all.
    The start time tells a recycled pid from the process first seen under it.
    """
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    fields = stat.rsplit(")", 1)[1].split()  # after "pid (name)": state, ppid, ...
    return None if fields[0] in "ZX" else (int(fields[1]), fields[19])


def descendants(root):
    """Pids of the live processes below ``root`` (a scan of /proc)."""
    parents = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (seen := process_identity(entry.name)) is not None:
            parents[int(entry.name)] = seen[0]
    found, frontier = set(), {root}
    while frontier:
        frontier = {pid for pid, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("method", ["fork", "forkserver", "spawn"])
def test_pool_workers_exit_when_the_run_is_killed_with_sigkill(tmp_path, method):
    script = tmp_path / "run.py"
    script.write_text(RUN_WITH_TWO_WORKERS)
    run = subprocess.Popen([sys.executable, str(script), method], stdout=subprocess.PIPE,
                           text=True)
    started = {}
    try:
        # Two workers report their pids as they start a chunk (a bounded wait: a
        # read of a line returns or the run ends; the hang guard below kills the run,
        # far above a cold compile on a loaded machine).
        timer = threading.Timer(300, run.kill)
        timer.start()
        workers = {int(run.stdout.readline() or 0) for _ in range(2)} - {0}
        timer.cancel()
        assert len(workers) == 2, "the run never started its two workers"
        started = {pid: process_identity(pid) for pid in descendants(run.pid) | workers}
        run.send_signal(signal.SIGKILL)
        run.wait(timeout=5)

        def survivors():
            return sorted(pid for pid, seen in started.items()
                          if seen is not None and process_identity(pid) == seen)

        deadline = time.monotonic() + 60  # a hang guard: they die within a second here
        while survivors() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not survivors(), f"processes {survivors()} outlived the killed run"
        assert workers <= set(started)
    finally:
        run.kill()
        run.wait(timeout=5)
        run.stdout.close()
        for pid, seen in started.items():  # only processes this run started
            if seen is not None and process_identity(pid) == seen:
                os.kill(pid, signal.SIGKILL)


class _ForeignCluster:
    """A Dask-like client whose one worker reports another fingerprint; counts submits."""

    def __init__(self, fingerprint):
        self.fingerprint, self.submitted = fingerprint, 0

    def run(self, function):
        return {"tcp://10.0.0.9:4001": self.fingerprint(function)}

    def nthreads(self):
        return {"tcp://10.0.0.9:4001": 1}

    def submit(self, function, task):
        self.submitted += 1
        raise AssertionError("a chunk was submitted to a worker running other code")


def test_a_worker_running_other_code_is_refused_before_any_chunk():
    foreign = _ForeignCluster(lambda function: "f" * 64)
    with pytest.raises(ValueError, match=r"1 of 1 Dask workers run other minestats code "
                                         r"than this process \(first: tcp://10.0.0.9:4001\)"):
        list(map_chunks(abs, [1, 2], workers=foreign))
    assert foreign.submitted == 0
    broken = _ForeignCluster(lambda function: (_ for _ in ()).throw(
        ModuleNotFoundError("No module named 'minestats'")))
    with pytest.raises(ValueError, match="cannot ask the Dask workers .* No module named"):
        list(map_chunks(abs, [1, 2], workers=broken))


def test_workers_running_this_code_get_the_chunks():
    from minestats.runs.store import code_fingerprint

    class Same(_ForeignCluster, ThreadPoolExecutor):
        def __init__(self):
            _ForeignCluster.__init__(self, lambda function: function())
            ThreadPoolExecutor.__init__(self, max_workers=2)

        submit = ThreadPoolExecutor.submit

    with Same() as cluster:
        assert cluster.run(code_fingerprint) == {"tcp://10.0.0.9:4001": code_fingerprint()}
        assert list(map_chunks(abs, [-1, -2, 3], workers=cluster)) == [1, 2, 3]


# --- pools kept across calls where workers start afresh -------------------------------

TWO_CALLS = """
import multiprocessing
import os
import signal
import sys

from minestats.runs.chunks import map_chunks


def worker_pid(task):
    return os.getpid()


def die(task):
    os.kill(os.getpid(), signal.SIGKILL)


if __name__ == "__main__":
    multiprocessing.set_start_method(sys.argv[1])
    first = set(map_chunks(worker_pid, range(8), workers=2))
    second = set(map_chunks(worker_pid, range(8), workers=2))
    for pid in first | second:  # a kept pool whose workers die between calls is replaced
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:  # a forked pool's workers ended with their call
            pass
    third = set(map_chunks(worker_pid, range(8), workers=2))
    try:  # a chunk that kills its worker is an error, after one more try at most
        list(map_chunks(die, range(4), workers=2))
        broke = False
    except Exception as error:
        broke = type(error).__name__
    print(len(first | second), len(first & second), len(third & (first | second)),
          os.getpid() in first | second | third, broke)
"""


@pytest.mark.parametrize(("method", "kept"), [("fork", False), ("spawn", True),
                                              ("forkserver", True)])
def test_pools_are_kept_across_calls_unless_forked(tmp_path, method, kept):
    """Under spawn and forkserver the second call finds the first call's two workers;
    under fork each call forks its own. Workers killed between calls are replaced, and a
    chunk that kills its worker fails the call; the work never runs here."""
    script = tmp_path / "calls.py"
    script.write_text(TWO_CALLS)
    run = subprocess.run([sys.executable, str(script), method], capture_output=True, text=True,
                         timeout=600, check=True)
    workers, shared, survived, here, broke = run.stdout.split()
    assert (survived, here, broke) == ("0", "False", "BrokenProcessPool")
    if kept:
        assert int(workers) <= 2
    else:
        assert shared == "0"


def test_a_map_stopped_early_cancels_the_chunks_still_waiting():
    from concurrent.futures import Future

    from minestats.runs.chunks import _map_on_executor

    class Waiting:
        """An executor whose first task is done once the window (4) is full; the rest
        wait forever."""

        def __init__(self):
            self.futures, self.first = [], None

        def submit(self, function, task):
            future = Future()
            self.futures.append(future)
            self.first = self.first if self.first is not None else task
            if len(self.futures) == 4:
                self.futures[0].set_result(function(self.first))
            return future

    executor = Waiting()
    results = _map_on_executor(abs, iter(range(-10, 0)), executor, lambda: 1)
    assert next(results) == 10
    results.close()
    assert len(executor.futures) == 4
    assert all(future.cancelled() for future in executor.futures[1:])
