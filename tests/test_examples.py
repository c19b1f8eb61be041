"""The scripts of examples/ run as saved, from a shell, and say what they did."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from minestats import pass_rate

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
ESTIMATE = re.compile(r"^30x16/99 safe-opening, logic solver: pass rate (0\.\d{4}) "
                      r"\[(0\.\d{4}), (0\.\d{4})\] \(95% Wilson; (\d+)/([\d,]+) boards, "
                      r"seed 7, chunks of 100\)$", re.MULTILINE)


def run_dask_sweep(store: Path) -> str:
    done = subprocess.run([sys.executable, str(EXAMPLES / "dask_sweep.py"), "--n", "400",
                           "--chunk-size", "100", "--seed", "7", "--store", str(store)],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_dask_sweep_runs_on_two_workers_and_resumes_from_its_store(tmp_path):
    pytest.importorskip("distributed")  # the dask extra: pip install -e '.[dask]'
    store = tmp_path / "sweep.sqlite"
    first = run_dask_sweep(store)
    serial = pass_rate("expert", solver="logic", n=400, seed=7, chunk_size=100, workers=1)
    [(rate, low, high, successes, n)] = ESTIMATE.findall(first)
    assert (int(successes), n) == (serial.successes, "400")
    assert float(rate) == round(serial.proportion, 4)
    assert [float(low), float(high)] == [round(bound, 4) for bound in serial.proportion_ci()]
    assert f"4 chunks: 0 found in {store}, 4 computed on 2 Dask workers" in first
    second = run_dask_sweep(store)
    assert ESTIMATE.findall(second) == ESTIMATE.findall(first)
    assert f"4 chunks: 4 found in {store}, 0 computed on 2 Dask workers" in second


def test_dask_sweep_refuses_a_bad_store_in_one_line(tmp_path):
    pytest.importorskip("distributed")
    (tmp_path / "notes.txt").write_text("not a store")
    done = subprocess.run([sys.executable, str(EXAMPLES / "dask_sweep.py"), "--store",
                           str(tmp_path / "notes.txt")], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.strip() == (f"dask_sweep.py: {tmp_path / 'notes.txt'} is not a minestats "
                                   "chunk store: not an SQLite file")
