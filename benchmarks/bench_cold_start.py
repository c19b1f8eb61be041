"""The cold start of a 2-worker ``win_rate``: CPU time and peak memory on an empty numba cache.

A first run on a machine compiles the player's kernels. Each measured run is a fresh
Python process with ``NUMBA_CACHE_DIR`` pointed at an empty temporary folder, playing a
few games of Beginner on a pool of 2 workers; it is measured whole, its pool workers
included:

- CPU seconds (user + system) of the process and every process it started, from
  ``getrusage(RUSAGE_CHILDREN)`` around it (the pool's workers are waited for, so they
  count);
- peak memory: the largest sum, over the process and its descendants, of the resident
  set (RSS, shared pages counted in every process) and of the proportional set (PSS,
  shared pages split between the processes that share them), sampled from ``/proc``
  every `SAMPLE_SECONDS`; and the largest single process (``ru_maxrss``);
- how many processes compiled the player's kernel: one file per process that compiled
  is left in the cache folder by a hook the measured process installs, counting
  numba's compile events of ``play_chunk``.

Two versions of the code are measured, in the same run, each exported from git into a
temporary folder: ``--before`` (default the last commit whose pool workers each compiled
the kernels themselves) and ``--after`` (default ``HEAD``). Linux only (``/proc``).

Run from the repository's root, as a module:
``python -m benchmarks.bench_cold_start [--before 108a37a] [--after HEAD] [--n 8]``; it
writes ``benchmarks/results/cold_start.csv``.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from benchmarks.record import write_rows

ROOT = Path(__file__).resolve().parent.parent
BEFORE = "108a37a"
"""The last commit before the parent compiled the kernels for its pool."""
SAMPLE_SECONDS = 0.2
"""How often the memory of the process tree is read."""
BOARD, WORKERS, SEED = "9x9/10", 2, 1

# The measured process: count this process's compiles of the player's kernel in a file
# of the cache folder named by its pid, then play.
PROGRAM = """
import os, sys
from numba.core import event

class Count(event.Listener):
    def on_start(self, data):
        function = getattr(data.data.get("dispatcher"), "py_func", None)
        if getattr(function, "__name__", "") == "play_chunk":
            path = os.path.join(os.environ["NUMBA_CACHE_DIR"], f"compiled-{os.getpid()}")
            with open(path, "a") as handle:
                handle.write("1\\n")

    def on_end(self, data):
        pass

event.register("numba:compile", Count())
import minestats
result = minestats.win_rate(sys.argv[1], n=int(sys.argv[2]), seed=int(sys.argv[3]),
                            chunk_size=1, workers=int(sys.argv[4]))
print(result.successes)
"""


def _tree(root: int) -> list[int]:
    """Return ``root`` and its descendants, from ``/proc``."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            children.setdefault(int(fields[1]), []).append(int(entry))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, ()))
    return found


def _memory_kib(pid: int) -> tuple[int, int]:
    """Return the RSS and PSS of one process in KiB (zeros once it is gone)."""
    try:
        lines = Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()
    except OSError:
        return 0, 0
    values = {line.split(":")[0]: int(line.split()[1]) for line in lines[1:] if ":" in line}
    return values.get("Rss", 0), values.get("Pss", 0)


def measure(source: Path, *, n: int) -> dict:
    """Run one cold start of the package in ``source``; return its CPU, memory and compiles."""
    with tempfile.TemporaryDirectory(prefix="numba-cache-") as cache:
        environment = {**os.environ, "NUMBA_CACHE_DIR": cache, "PYTHONPATH": str(source)}
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        process = subprocess.Popen([sys.executable, "-c", PROGRAM, BOARD, str(n), str(SEED),
                                    str(WORKERS)], env=environment, stdout=subprocess.PIPE,
                                   cwd=source)  # not here: `python -c` imports from its cwd
        peak = {"rss": 0, "pss": 0}

        def sample():
            while process.poll() is None:
                sizes = [_memory_kib(pid) for pid in _tree(process.pid)]
                peak["rss"] = max(peak["rss"], sum(rss for rss, _ in sizes))
                peak["pss"] = max(peak["pss"], sum(pss for _, pss in sizes))
                time.sleep(SAMPLE_SECONDS)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        output, _ = process.communicate()
        sampler.join()
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if process.returncode != 0:
            raise SystemExit(f"the cold start in {source} failed with status "
                             f"{process.returncode}")
        compiles = [len(path.read_text().split()) for path in Path(cache).glob("compiled-*")]
    return {"cpu_seconds": round(after.ru_utime + after.ru_stime - before.ru_utime
                                 - before.ru_stime, 1),
            "peak_rss_mib_sum": round(peak["rss"] / 1024),
            "peak_pss_mib_sum": round(peak["pss"] / 1024),
            "largest_process_mib": round(after.ru_maxrss / 1024),
            "processes_that_compiled": len(compiles), "compiles": sum(compiles),
            "wall_seconds_loaded_machine": round(wall, 1), "games_won": int(output)}


def _exported(revision: str, folder: Path) -> Path:
    """Export ``minestats/`` of ``revision`` into ``folder``; return the folder."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", revision, "minestats"],
                             capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    return folder


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default=BEFORE,
                        help=f"git revision of the code measured first (default {BEFORE})")
    parser.add_argument("--after", default="HEAD",
                        help="git revision of the code measured second (default HEAD)")
    parser.add_argument("--n", type=int, default=8,
                        help="games, one per chunk, so both workers play (default 8)")
    args = parser.parse_args()
    rows = []
    for revision in (args.before, args.after):
        commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", revision],
                                capture_output=True, text=True, check=True).stdout.strip()
        with tempfile.TemporaryDirectory(prefix="minestats-code-") as folder:
            row = {"code": commit, "board": BOARD, "n": args.n, "workers": WORKERS,
                   **measure(_exported(commit, Path(folder)), n=args.n)}
            print(", ".join(f"{key} {value}" for key, value in row.items()))
            rows.append(row)
    print(write_rows("cold_start", rows))


if __name__ == "__main__":
    main()
