"""Kernels compile once: here before a pool forks, once on each Dask worker, ahead with warmup.

No test reads the clock: each checks where the warm-up ran and how often.
"""

import io
import multiprocessing
import os
import sys
from concurrent.futures import ThreadPoolExecutor
from functools import partial

import numba
import numpy as np
import pytest

from minestats.cli import main
from minestats.drivers import warmup
from minestats.runs.chunks import map_chunks
from minestats.runs.cluster import warm_workers
from minestats.runs.sweeps import grid_seeds, run_jobs

WARMED = []
"""The pids of the processes that ran `_warm` (a pool forked after it inherits the list)."""


def _warm():
    WARMED.append(os.getpid())


def _warmed_before(task):
    return task, list(WARMED)


@pytest.fixture
def warmed(monkeypatch):
    monkeypatch.setattr(sys.modules[__name__], "WARMED", [])
    return sys.modules[__name__]


@pytest.mark.skipif(multiprocessing.get_start_method() != "fork",
                    reason="only a forked worker inherits what the parent loaded")
def test_a_pool_is_forked_after_the_warm_up_ran_here_once(warmed):
    results = list(map_chunks(_warmed_before, range(6), workers=2, warm_up=_warm))
    assert [task for task, _ in results] == list(range(6))
    assert warmed.WARMED == [os.getpid()]
    assert all(seen == [os.getpid()] for _, seen in results)  # no worker warmed again


@pytest.mark.parametrize("tasks", [[1, 2, 3], [1]])
def test_work_done_here_is_not_warmed_ahead(warmed, tasks):
    assert [task for task, _ in map_chunks(_warmed_before, tasks, workers=1 if len(tasks) > 1
                                           else 2, warm_up=_warm)] == tasks
    assert warmed.WARMED == []


class _Cluster(ThreadPoolExecutor):
    """Two workers as a Dask client shows them; each warm-up is recorded with its worker."""

    def __init__(self, fail=None):
        super().__init__(max_workers=2)
        self.warmed, self.chunks, self.fail = [], 0, fail

    def nthreads(self):
        return {"tcp://10.0.0.2:4001": 1, "tcp://10.0.0.3:4001": 1}

    def run(self, function):
        return dict.fromkeys(self.nthreads(), function())

    def submit(self, function, *args, workers=None, pure=True):
        if workers is None:
            self.chunks += 1
            assert len(self.warmed) == 2, "a chunk went out before every worker was warm"
            return super().submit(function, *args)
        self.warmed.append(workers)
        if self.fail in workers:
            return super().submit(partial(_raise, MemoryError("compiling ran out of memory")))
        return super().submit(function)


def _raise(error):
    raise error


def test_every_dask_worker_is_warmed_once_before_the_first_chunk():
    with _Cluster() as cluster:
        assert list(map_chunks(abs, [-1, -2, 3], workers=cluster, warm_up=_warm)) == [1, 2, 3]
        assert sorted(cluster.warmed) == [["tcp://10.0.0.2:4001"], ["tcp://10.0.0.3:4001"]]
        assert cluster.chunks == 3


def test_a_dask_run_with_nothing_left_to_compute_warms_no_worker():
    with _Cluster() as cluster:
        assert list(map_chunks(abs, [], workers=cluster, warm_up=_warm)) == []
        assert cluster.warmed == []


def test_a_worker_that_cannot_warm_up_is_one_line_naming_it():
    with _Cluster(fail="tcp://10.0.0.3:4001") as cluster:
        with pytest.raises(ValueError, match=r"^the Dask worker tcp://10.0.0.3:4001 could not "
                                             r"load minestats' compiled kernels: compiling ran "
                                             r"out of memory$"):
            warm_workers(cluster, _warm)
        assert cluster.chunks == 0


TRIALS = []
"""``(config, size)`` of every call of `_trials` in this process."""


def _trials(config, size, seed):
    TRIALS.append((config, size))
    return np.array([size])


@pytest.mark.parametrize("workers, warm_ups", [(2, [("a", 1), ("b", 1)]), (1, [])])
def test_run_jobs_warms_one_trial_of_each_job_before_its_pool(monkeypatch, workers, warm_ups):
    monkeypatch.setattr(sys.modules[__name__], "TRIALS", [])
    totals = run_jobs(_trials, list(zip(["a", "b"], grid_seeds(0, 2), strict=True)), n=6,
                      chunk_size=2, workers=workers)
    assert [int(total[0]) for total in totals] == [6, 6]
    here = sys.modules[__name__].TRIALS
    assert here[:len(warm_ups)] == warm_ups
    assert len(here) == len(warm_ups) + (6 if workers == 1 else 0)  # the pool ran the rest


@pytest.mark.parametrize("progress, terminal, shown", [
    (None, False, False), (None, True, True), (False, True, False), (True, False, True)])
def test_a_bar_shows_on_a_terminal_or_when_asked(monkeypatch, progress, terminal, shown):
    stderr = io.StringIO()  # a log file, or a terminal
    stderr.isatty = lambda: terminal
    monkeypatch.setattr(sys, "stderr", stderr)
    run_jobs(_trials, list(zip(["a"], grid_seeds(0, 1), strict=True)), n=4, chunk_size=2,
             workers=1, progress=progress)
    assert ("board/s" in stderr.getvalue()) is shown
    assert ("\r" in stderr.getvalue()) is shown


def test_the_command_draws_no_bar_into_a_log_unless_asked(capsys):
    options = ["simulate", "--board", "5x5/3", "--rule", "uniform", "-n", "40", "--seed", "1",
               "--workers", "1", "--chunk-size", "10"]
    assert main(options) == 0
    assert "\r" not in capsys.readouterr().err
    assert main([*options, "--progress"]) == 0
    assert "board/s" in capsys.readouterr().err


def _fresh_kernel():
    """Compile a new function of the package's (a new dispatcher compiles every time)."""
    def double(x):
        return 2 * x

    double.__module__ = "minestats.example"
    return numba.njit(double)(1)


def test_warmup_says_which_group_compiled_and_which_was_cached(monkeypatch, capsys):
    compiled = numba.njit(lambda x: x + 1)
    compiled(1)
    monkeypatch.setattr(warmup, "KERNELS", {"fresh": _fresh_kernel,
                                            "cached": lambda: compiled(2)})
    assert main(["warmup"]) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert lines[0].startswith("fresh: 1 kernels compiled in ")
    assert lines[1].startswith("cached: loaded from the cache in ")
    assert lines[2].startswith("numba's cache: ") and len(lines) == 3
    assert err == ""  # the groups say it; no general note on stderr


def test_an_unknown_group_is_named():
    with pytest.raises(ValueError, match=r"unknown kernel groups \['players'\]; choose from"):
        warmup.warm_up_kernels(["players"])
