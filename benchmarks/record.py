"""Write a benchmark's figures as a CSV under ``benchmarks/results/``, with where they came from.

Every row carries the machine (processor, cores this process may use), the date, the
commit (with ``+dirty`` when the tree had changes) and the versions of the peer, so a
speed figure quoted in the documentation points at a table, not a sentence.
"""

import csv
import datetime
import os
import platform
import subprocess
from pathlib import Path

import numba
import numpy

__all__ = ["COMMIT", "provenance", "write_rows"]

RESULTS = Path(__file__).resolve().parent / "results"


def _processor() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _commit() -> str:
    root = Path(__file__).resolve().parent.parent
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root,
                                capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                               cwd=root, capture_output=True, text=True,
                               check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return commit + ("+dirty" if dirty else "")


COMMIT = _commit()
"""The commit the benchmark started at (read once, on import): a commit made while a long
benchmark runs is not the code it measured."""


def provenance() -> dict:
    """Return the columns every benchmark row ends with: machine, date, commit, versions."""
    return {"processor": _processor(), "cores": len(os.sched_getaffinity(0)),
            "python": platform.python_version(), "numpy": numpy.__version__,
            "numba": numba.__version__,
            "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%MZ"),
            "commit": COMMIT}


def write_rows(name: str, rows: list[dict]) -> Path:
    """Write ``rows`` (each followed by `provenance`) to ``benchmarks/results/NAME.csv``."""
    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / f"{name}.csv"
    columns = provenance()
    rows = [{**row, **columns} for row in rows]
    temporary = path.with_suffix(".csv.tmp")
    with temporary.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    os.replace(temporary, path)
    return path
