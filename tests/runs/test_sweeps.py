import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pytest

from minestats.drivers.no_guess import generate_no_guess_batch
from minestats.drivers.opening_simulation import simulate_opening
from minestats.drivers.pass_rates import pass_rate, pass_rate_sweep
from minestats.drivers.win_rates import win_rate, win_rate_sweep
from minestats.runs.store import ChunkStore
from minestats.runs.sweeps import grid_seeds, run_jobs


def trials(config, size, seed_sequence):
    return np.array([size, config])


def test_run_jobs_adds_up_chunks_per_job():
    jobs = list(zip([1, 10], grid_seeds(0, 2), strict=True))
    totals = run_jobs(trials, jobs, n=25, chunk_size=10, workers=1)
    assert [t.tolist() for t in totals] == [[25, 3], [25, 30]]


def chunk_record(config, size, seed_sequence):
    """One record per trial: the job, the chunk's index, the trial's draw."""
    time.sleep(0.05 * (seed_sequence.spawn_key[-1] % 2))  # odd chunks come back late
    draws = np.random.default_rng(seed_sequence).integers(0, 1000, size)
    return [(config, seed_sequence.spawn_key[-1], int(draw)) for draw in draws]


def test_per_chunk_results_come_back_in_chunk_order_from_a_pool_and_the_store(tmp_path):
    jobs = list(zip(["a", "b"], grid_seeds(8, 2), strict=True))
    serial = run_jobs(chunk_record, jobs, n=[7, 4], chunk_size=2, workers=1, per_chunk=True)
    assert [[chunk[0][1] for chunk in chunks] for chunks in serial] == [[0, 1, 2, 3], [0, 1]]
    assert [sum(map(len, chunks)) for chunks in serial] == [7, 4]
    assert {record[0] for chunks in serial for chunk in chunks for record in chunk} == {"a", "b"}
    with ProcessPoolExecutor(2) as pool:
        assert run_jobs(chunk_record, jobs, n=[7, 4], chunk_size=2, workers=pool,
                        per_chunk=True) == serial
    with ChunkStore(tmp_path / "records.sqlite") as store:
        run_jobs(chunk_record, jobs[:1], n=3, chunk_size=2, workers=1, store=store,
                 per_chunk=True)  # the first two chunks of job "a" go to the store
        resumed = run_jobs(chunk_record, jobs, n=[7, 4], chunk_size=2, workers=1,
                           store=store, per_chunk=True)
        # chunk 0 is reused; chunk 1 held 1 game, not 2, so it is played again (2 + 5 written)
        assert (store.reused, store.written) == (1, 7)
    # stored tuples come back as lists: the store keeps plain data
    assert [[[tuple(record) for record in chunk] for chunk in chunks]
            for chunks in resumed] == serial


def test_jobs_of_their_own_size_are_the_runs_of_that_size():
    jobs = list(zip(["a", "b", "c"], grid_seeds(4, 3), strict=True))

    def draw(config, size, seed):
        return np.random.default_rng(seed).random(size).sum()

    together = run_jobs(draw, jobs, n=[25, 7, 10], chunk_size=10, workers=1)
    alone = [run_jobs(draw, [job], n=count, chunk_size=10, workers=1)[0]
             for job, count in zip(jobs, (25, 7, 10), strict=True)]
    assert together == alone
    with pytest.raises(ValueError, match="2 numbers for 3 jobs"):
        run_jobs(draw, jobs, n=[25, 7], chunk_size=10, workers=1)
    grid = [{"board": "5x5/3", "policy": "safest", "click": (x, 0)} for x in (0, 2)]
    table = win_rate_sweep(grid, n=[6, 9], seed=3, chunk_size=4, workers=1)
    assert table["n"].tolist() == [6, 9]
    for row, count, options in zip(table.itertuples(), (6, 9), grid, strict=True):
        assert row.successes == win_rate(**options, n=count, seed=row.seed, chunk_size=4,
                                         workers=1).successes


def test_store_resumes_and_recomputes_only_missing_chunks(tmp_path):
    kwargs = {"rule": "safe-click", "n": 50_000, "seed": 8, "chunk_size": 5_000, "workers": 1}
    plain = simulate_opening("9x9/10", **kwargs)
    with ChunkStore(tmp_path / "chunks.sqlite") as store:
        first = simulate_opening("9x9/10", **kwargs, store=store)
        assert (store.written, store.reused) == (10, 0)
    with sqlite3.connect(tmp_path / "chunks.sqlite") as connection:
        connection.execute("DELETE FROM chunks WHERE chunk IN (2, 7)")
    with ChunkStore(tmp_path / "chunks.sqlite") as store:
        resumed = simulate_opening("9x9/10", **kwargs, store=store)
        assert (store.written, store.reused) == (2, 8)
    assert (plain.counts == first.counts).all() and (plain.counts == resumed.counts).all()


def test_store_keeps_jobs_apart_and_reuses_chunks_of_a_smaller_run(tmp_path):
    with ChunkStore(tmp_path / "chunks.sqlite") as store:
        pass_rate("8x8/10", solver="single-point", n=1_000, seed=4, chunk_size=250,
                  workers=1, store=store)  # its 4 chunks go to the store
        other_seed = pass_rate("8x8/10", solver="single-point", n=1_000, seed=5,
                               chunk_size=250, workers=1, store=store)
        assert store.reused == 0
        larger = pass_rate("8x8/10", solver="single-point", n=1_500, seed=4, chunk_size=250,
                           workers=1, store=store)
        assert store.reused == 4 and store.written == 10
    alone = pass_rate("8x8/10", solver="single-point", n=1_500, seed=4, chunk_size=250,
                      workers=1)
    assert larger.successes == alone.successes
    # The store served seed 4's chunks to none of seed 5's: its run is the one without it.
    other_alone = pass_rate("8x8/10", solver="single-point", n=1_000, seed=5,
                            chunk_size=250, workers=1)
    assert other_seed.successes == other_alone.successes


def test_store_from_another_version_or_not_a_store_is_refused(tmp_path):
    path = tmp_path / "chunks.sqlite"
    ChunkStore(path).close()
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE meta SET value = '0.0.1' WHERE key = 'minestats'")
    with pytest.raises(ValueError, match="was written with minestats '0.0.1'"):
        ChunkStore(path)
    junk = tmp_path / "junk.sqlite"
    junk.write_text("this is not a database, just text long enough " * 40)
    with pytest.raises(ValueError, match="is not a minestats chunk store"):
        ChunkStore(junk)


# The child takes Ctrl-C as a foreground run does: a shell starts a background job with
# SIGINT ignored, and a Python started that way never raises KeyboardInterrupt.
RUN_SWEEP = """
import signal
import sys
signal.signal(signal.SIGINT, signal.default_int_handler)
from minestats.runs.store import ChunkStore
from minestats.drivers.no_guess import generate_no_guess_batch
from minestats.drivers.opening_simulation import simulate_opening
with ChunkStore(sys.argv[1]) as store:
    result = simulate_opening("expert", rule="winxp", n=500_000, seed=3, chunk_size=10_000,
                              workers=1, store=store)
    print(store.reused, store.written, *result.counts.ravel())
"""


def stored_chunks(path):
    try:
        with sqlite3.connect(path, timeout=5) as connection:
            return connection.execute("SELECT COUNT(*) FROM chunks").fetchone()[0]
    except sqlite3.OperationalError:  # not created yet
        return 0


@pytest.fixture(scope="module")
def uninterrupted_counts():
    result = simulate_opening("expert", rule="winxp", n=500_000, seed=3, chunk_size=10_000,
                              workers=1)
    return result.counts.ravel().tolist()


@pytest.mark.parametrize("signal_number", [signal.SIGKILL, signal.SIGINT])
def test_interrupted_sweep_resumes_to_the_same_numbers(tmp_path, signal_number,
                                                       uninterrupted_counts):
    path = tmp_path / "chunks.sqlite"
    process = subprocess.Popen([sys.executable, "-c", RUN_SWEEP, str(path)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while stored_chunks(path) < 10 and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert process.poll() is None, "the sweep ended before it could be interrupted"
    process.send_signal(signal_number)
    process.wait(timeout=60)
    assert process.returncode != 0
    interrupted_at = stored_chunks(path)
    assert 10 <= interrupted_at < 50

    rerun = subprocess.run([sys.executable, "-c", RUN_SWEEP, str(path)], capture_output=True,
                           text=True, check=True)
    reused, written, *counts = map(int, rerun.stdout.split())
    assert reused == interrupted_at and reused + written == 50
    assert counts == uninterrupted_counts


def test_executor_objects_give_the_serial_numbers():
    kwargs = {"rule": "uniform", "n": 60_000, "seed": 2, "chunk_size": 7_000}
    serial = simulate_opening("16x16/40", **kwargs, workers=1)
    with ProcessPoolExecutor(max_workers=2) as pool:
        pooled = simulate_opening("16x16/40", **kwargs, workers=pool)
    assert (serial.counts == pooled.counts).all()


def test_local_dask_cluster_gives_the_serial_numbers(tmp_path, monkeypatch):
    distributed = pytest.importorskip("distributed")
    from minestats.reproduction import runner
    from minestats.runs.chunks import map_chunks

    grid = [{"board": "9x9/10", "solver": "single-point"},
            {"board": "8x8/10", "solver": "logic", "rule": "safe-click", "click": "corner"}]
    serial_map = simulate_opening("expert", rule="winxp", n=100_000, seed=5, chunk_size=10_000,
                                  workers=1)
    serial_rates = pass_rate_sweep(grid, n=2_000, seed=6, chunk_size=500, workers=1)
    experiment = [sys.executable, "-m", "minestats.experiments.bbbv", "--n", "300", "--seed", "7"]
    subprocess.run([*experiment, "--out", str(tmp_path / "here"), "--workers", "1"],
                   check=True, capture_output=True, timeout=600)

    def warm_up():  # pickled by value: each worker appends its pid to a file of its own
        with open(tmp_path / f"warmed-{os.getpid()}", "a") as handle:
            handle.write("once\n")

    # ":0", a free port: with None the scheduler still takes port 8787 for its HTTP
    # routes, and a second cluster on the machine (another suite) makes that an error
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster, \
            distributed.Client(cluster) as client:
        assert len(client.nthreads()) == 2
        dask_map = simulate_opening("expert", rule="winxp", n=100_000, seed=5,
                                    chunk_size=10_000, workers=client)
        dask_rates = pass_rate_sweep(grid, n=2_000, seed=6, chunk_size=500, workers=client)
        # every worker is warmed once before the first chunk
        assert list(map_chunks(abs, [-1, 2, -3], workers=client, warm_up=warm_up)) == [1, 2, 3]
        warmed = {int(path.name.split("-")[1]): path.read_text()
                  for path in tmp_path.glob("warmed-*")}
        assert warmed == dict.fromkeys(client.run(os.getpid).values(), "once\n")
        # an experiment sends its chunks to the cluster: the same tables as here
        subprocess.run([*experiment, "--out", str(tmp_path / "there"), "--scheduler",
                        cluster.scheduler_address], check=True, capture_output=True,
                       timeout=600)
        # reproduce checks the cluster, then hands each script its address
        started = []
        monkeypatch.setattr(runner.subprocess, "run", lambda command, **options: (
            started.append(command), subprocess.CompletedProcess(command, 0))[1])
        runner.reproduce(["bbbv"], out=tmp_path / "out", scheduler=cluster.scheduler_address,
                         progress=lambda line: None)
        assert started[0][-2:] == ["--scheduler", cluster.scheduler_address]
    assert (serial_map.counts == dask_map.counts).all()
    assert serial_rates["successes"].tolist() == dask_rates["successes"].tolist()
    for name in ("bbbv_histogram.csv", "bbbv_summary.csv"):
        assert (tmp_path / "here" / name).read_bytes() == (tmp_path / "there" / name).read_bytes()
    recorded = json.loads((tmp_path / "there" / "bbbv_summary.csv.json").read_text())
    assert recorded["workers"] == f"dask {cluster.scheduler_address}"


def test_reproduce_refuses_a_scheduler_that_does_not_answer(tmp_path, monkeypatch):
    pytest.importorskip("distributed")
    from functools import partial

    from minestats.reproduction import runner

    # Nothing listens on port 9; the wait is cut to 2 s, as the command's tests cut it.
    monkeypatch.setattr(runner, "connect_scheduler", partial(runner.connect_scheduler,
                                                             seconds=2))
    with pytest.raises(ValueError, match="cannot reach the Dask scheduler at 'tcp://127.0.0.1:9'"):
        runner.reproduce(["bbbv"], out=tmp_path / "out", scheduler="tcp://127.0.0.1:9",
                         progress=lambda line: None)
    assert list(tmp_path.iterdir()) == []  # nothing ran, nothing was written


def test_no_guess_batch_resumes_from_its_store(tmp_path):
    kwargs = {"n": 6, "seed": 3, "chunk_size": 2, "workers": 1}
    plain = generate_no_guess_batch("8x8/10", "centre", **kwargs)
    with ChunkStore(tmp_path / "boards.sqlite") as store:
        generate_no_guess_batch("8x8/10", "centre", **kwargs, store=store)
    with ChunkStore(tmp_path / "boards.sqlite") as store:
        again = generate_no_guess_batch("8x8/10", "centre", **kwargs, store=store)
        assert (store.reused, store.written) == (3, 0)
    assert (again.layouts == plain.layouts).all()
