"""Run the experiments, and the notebooks of a source checkout, into a results folder.

`reproduce` is ``minestats reproduce``: each experiment runs in its own process as
``python -m minestats.experiments.NAME``, in the current folder, in the order of
`minestats.reproduction.registry.EXPERIMENTS`, with the root seed, the workers and
(``full``) its paper-grade arguments; so it runs from an installed package in any
folder. Then the notebooks of the checkout named are rendered, and the folder's
index is written. Everything a script would refuse is checked before the
first one starts, and so is the folder: it must be writable (a probe file is created
and removed), and a file there that the run would replace must be one this package
wrote (a results file has its sidecar; the index starts with
`minestats.reproduction.index.INDEX_MARK`). A README.md of the user's own is never
replaced.

With a Dask scheduler, every script sends its chunks to that cluster (whose workers
must run this code); the scripts, their chunk stores and their files stay here.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from minestats.foundations.validation import PATH_LIMIT, quoted
from minestats.io.result_files import TABLE_TWINS, sidecar_path
from minestats.reproduction.index import is_results_index, write_results_index
from minestats.reproduction.notebooks import render_notebooks
from minestats.reproduction.registry import EXPERIMENTS, experiment
from minestats.runs.chunks import check_cluster_code, check_workers
from minestats.runs.cluster import connect_scheduler

__all__ = ["NOTEBOOKS", "reproduce"]

NOTEBOOKS = "notebooks"
"""The step that renders the checkout's ``notebooks/*.ipynb`` into ``OUT/notebooks/``, last."""


def _say(line: str) -> None:
    print(line, file=sys.stderr)


def _command(name: str, *, out: Path, seed: int, workers: int, full: bool,
             scheduler: str | None = None) -> list[str]:
    """Return the command line of one experiment; a full run's stores go into ``out``."""
    command = [sys.executable, "-m", experiment(name).module, "--out", str(out), "--seed",
               str(seed), "--workers", str(workers)]
    if scheduler:
        command += ["--scheduler", scheduler]
    if full:
        arguments = experiment(name).full_arguments
        command += [str(out / Path(value).name) if i and arguments[i - 1] == "--store"
                    else value for i, value in enumerate(arguments)]
    return command


def _check_own_files(out: Path, names: Sequence[str]) -> None:
    """Refuse a folder where the run would replace a file this package did not write."""
    index = out / "README.md"
    if index.exists() and not is_results_index(index):
        raise ValueError(
            f"{quoted(str(index), limit=PATH_LIMIT)} was not written by minestats: reproduce "
                         "would replace it with its index; move it away, or choose another "
                         "--out")
    for name in names:
        for table in (experiment(name).summary_tables if name != NOTEBOOKS else ()):
            for path in (out / table, *((out / table).with_suffix(suffix)
                                        for suffix in TABLE_TWINS)):
                if path.exists() and not sidecar_path(path).is_file():
                    raise ValueError(
                        f"{quoted(str(path), limit=PATH_LIMIT)} was not written by minestats (it "
                                     f"has no {sidecar_path(path).name} beside it): "
                                     f"experiment {name} would replace it; move it away, "
                                     f"or choose another --out")


def _probe(out: Path) -> None:
    """Create ``out`` if needed, then a file in it, and remove the file: or one line why not."""
    try:
        out.mkdir(parents=True, exist_ok=True)
        descriptor, probe = tempfile.mkstemp(dir=out, prefix=".minestats-probe-")
        os.close(descriptor)
        os.unlink(probe)
    except OSError as error:
        raise ValueError(f"--out ({quoted(str(out))}) cannot be written: "
                         f"{error.strerror or error}") from None


def _check_scheduler(address: str) -> None:
    """Refuse, in one line, a scheduler that does not answer or whose workers run other code."""
    with connect_scheduler(address) as client:
        check_cluster_code(client)


def reproduce(names: Sequence[str] | None = None, *, repository=".", out="results",
              seed: int = 42, workers: int = -1, full: bool = False, quiet: bool = False,
              scheduler: str | None = None,
              progress: Callable[[str], None] = _say) -> Path:
    """Run experiments (and render the notebooks) of a checkout; return the index written.

    Parameters
    ----------
    names : sequence of str, optional
        Experiments to run (names of `EXPERIMENTS`) and ``"notebooks"``; default all
        of them, and the notebooks last (they read the results) if ``repository`` has
        a ``notebooks/`` folder.
    repository : str or path-like, optional
        The root of a source checkout, whose ``notebooks/`` holds the notebooks
        (default the current folder); the experiments are the package's own.
    out : str or path-like, optional
        The results folder (default ``results``).
    seed : int, optional
        Root seed; experiment ``NAME`` draws from its stream ``seed/k``.
    workers : int, optional
        Worker processes of each script (-1: all cores).
    full : bool, optional
        Run at paper-grade sizes (`Experiment.full_arguments`); a ``--store`` goes into
        ``out``.
    quiet : bool, optional
        Do not echo the scripts' printed tables.
    scheduler : str, optional
        A Dask scheduler's address: every script runs its chunks on that cluster
        (``--scheduler``), its workers checked to run this code before the first.
    progress : callable, optional
        Called with one line as each step starts (default: printed to stderr).

    Returns
    -------
    pathlib.Path
        ``out/README.md``, the index of every table and figure in ``out``.

    Raises
    ------
    ValueError
        Before anything runs, for an unknown name, a bad seed or worker count, an
        ``out`` that is not a folder or cannot be written, a file there the run would
        replace that this package did not write, the notebooks asked of a
        ``repository`` without ``notebooks/``, or a scheduler that does not answer;
        after, if an experiment fails (the message names it).

    Examples
    --------
    Nothing runs when a name is unknown:

    >>> try:
    ...     reproduce(["first-click", "bbbv"])
    ... except ValueError as error:
    ...     print(str(error).split(";")[0])
    unknown experiments ['first-click']
    """
    repository, notebooks = Path(repository), Path(repository) / NOTEBOOKS
    known = [entry.name for entry in EXPERIMENTS] + [NOTEBOOKS]
    asked = known if names is None else list(names)
    names = [name for name in known if name != NOTEBOOKS or notebooks.is_dir()] \
        if names is None else asked
    unknown = sorted(set(names) - set(known))
    if unknown:
        raise ValueError(f"unknown experiments [{', '.join(map(quoted, unknown))}]; choose "
                         f"from {', '.join(known)}")
    check_workers(workers)
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed ({quoted(seed)}) must be a non-negative integer")
    if not str(out) or (Path(out).exists() and not Path(out).is_dir()):
        raise ValueError(f"--out ({quoted(str(out))}) must name a folder")
    out = Path(out)
    if NOTEBOOKS in names and not notebooks.is_dir():
        raise ValueError(f"no notebooks/ folder in {quoted(str(repository.resolve()))}: run "
                         "reproduce at the root of a source checkout of minestats, name one "
                         "with --repository, or leave the notebooks out (--only NAME ...)")
    _check_own_files(out, names)
    if scheduler:
        _check_scheduler(scheduler)
    _probe(out)
    if NOTEBOOKS in asked and NOTEBOOKS not in names:
        progress(f"== no notebooks/ folder in {repository.resolve()}: the notebooks are left out")
    for name in known:  # in the registry's order, whatever the order asked
        if name not in names or name == NOTEBOOKS:
            continue
        progress(f"== {name}")
        run = subprocess.run(_command(name, out=out, seed=seed, workers=workers, full=full,
                                      scheduler=scheduler),
                             stdout=subprocess.DEVNULL if quiet else None)
        if run.returncode != 0:
            raise ValueError(f"experiment {name} failed with exit status {run.returncode}")
    if NOTEBOOKS in names:
        render_notebooks(notebooks, out / NOTEBOOKS,
                         progress=lambda source: progress(f"== notebook {source.name}"))
    return write_results_index(out, repository=repository)
