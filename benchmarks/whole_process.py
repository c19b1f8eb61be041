"""Whole processes timed against a published script: start-up, imports and set-up included.

A command of ours and the published script are run in turn, ours first, ``repeats``
times; each run's wall time is read around the child process, and the ratio is taken
pair by pair, so that a change in the machine's load during the call moves both sides
of a pair alike. The rows go to ``benchmarks/results/`` with `benchmarks.record`.
"""

from __future__ import annotations

import statistics
import subprocess
import time
from pathlib import Path

from benchmarks.record import write_rows

__all__ = ["compare_whole_processes"]

ROOT = Path(__file__).resolve().parents[1]


def _wall(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True, cwd=ROOT)
    return time.perf_counter() - start


def compare_whole_processes(name: str, what: str, ours: list[str], published: list[str], *,
                            repeats: int) -> list[dict]:
    """Time ``ours`` and ``published`` in turn; print and write the pairs and their ratio.

    Parameters
    ----------
    name : str
        The table written, ``benchmarks/results/NAME.csv``.
    what : str
        The work both commands do, for the table and the printed line.
    ours, published : list of str
        The two commands.
    repeats : int
        Pairs of runs.

    Returns
    -------
    list of dict
        One row a pair: both wall times and published / ours.
    """
    rows = []
    for repeat in range(repeats):
        mine, theirs = _wall(ours), _wall(published)
        rows.append({"benchmark": what, "repeat": repeat, "ours_s": round(mine, 3),
                     "published_s": round(theirs, 3), "ours_faster_by": round(theirs / mine, 1),
                     "ours": " ".join(ours[1:]), "published": Path(published[-1]).name})
    ratios = [row["ours_faster_by"] for row in rows]
    print(f"whole process, {what}: ours {statistics.median(r['ours_s'] for r in rows):.2f} s, "
          f"published {statistics.median(r['published_s'] for r in rows):.1f} s, ratio "
          f"{statistics.median(ratios):.1f}x (median of {repeats} pairs, "
          f"{min(ratios):.1f}x to {max(ratios):.1f}x)")
    write_rows(name, rows)
    return rows
