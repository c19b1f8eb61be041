"""Run the experiments and notebooks of a source checkout into a results folder.

`reproduce` is ``minestats reproduce``: each script ``experiments/NAME.py`` of the
checkout runs in its own process, in the order of
`minestats.reproduction.registry.EXPERIMENTS`, with the root seed, the workers and
(``full``) its paper-grade arguments; then the notebooks are rendered, and the
folder's index is written. Everything a script would refuse is checked before the
first one starts.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from minestats.foundations.validation import quoted
from minestats.reproduction.index import write_results_index
from minestats.reproduction.notebooks import render_notebooks
from minestats.reproduction.registry import EXPERIMENTS, experiment
from minestats.runs.chunks import check_workers

__all__ = ["NOTEBOOKS", "reproduce"]

NOTEBOOKS = "notebooks"
"""The step that renders the checkout's ``notebooks/*.ipynb`` into ``OUT/notebooks/``, last."""


def _say(line: str) -> None:
    print(line, file=sys.stderr)


def _command(script: Path, name: str, *, out: Path, seed: int, workers: int,
             full: bool) -> list[str]:
    """Return the command line of one experiment; a full run's stores go into ``out``."""
    command = [sys.executable, str(script), "--out", str(out), "--seed", str(seed),
               "--workers", str(workers)]
    if full:
        arguments = experiment(name).full_arguments
        command += [str(out / Path(value).name) if i and arguments[i - 1] == "--store"
                    else value for i, value in enumerate(arguments)]
    return command


def reproduce(names: Sequence[str] | None = None, *, repository=".", out="results",
              seed: int = 42, workers: int = -1, full: bool = False, quiet: bool = False,
              progress: Callable[[str], None] = _say) -> Path:
    """Run experiments (and render the notebooks) of a checkout; return the index written.

    Parameters
    ----------
    names : sequence of str, optional
        Experiments to run (names of `EXPERIMENTS`) and ``"notebooks"``; default all
        of them, the notebooks last (they read the results).
    repository : str or path-like, optional
        The root of a source checkout: its ``experiments/`` holds the scripts and its
        ``notebooks/`` the notebooks (default the current folder).
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
        ``out`` that is not a folder, or a ``repository`` without ``experiments/``;
        after, if a script fails (the message names it).

    Examples
    --------
    Nothing runs when a name is unknown:

    >>> try:
    ...     reproduce(["first-click", "bbbv"])
    ... except ValueError as error:
    ...     print(str(error).split(";")[0])
    unknown experiments ['first-click']
    """
    known = [entry.name for entry in EXPERIMENTS] + [NOTEBOOKS]
    names = known if names is None else list(names)
    unknown = sorted(set(names) - set(known))
    if unknown:
        raise ValueError(f"unknown experiments {unknown}; choose from {', '.join(known)}")
    check_workers(workers)
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed ({quoted(seed)}) must be a non-negative integer")
    if not str(out) or (Path(out).exists() and not Path(out).is_dir()):
        raise ValueError(f"--out ({quoted(str(out))}) must name a folder")
    repository, out = Path(repository), Path(out)
    scripts = repository / "experiments"
    if not scripts.is_dir():
        raise ValueError(f"no experiments/ folder in {quoted(str(repository.resolve()))}: run "
                         "reproduce at the root of a source checkout of minestats, or name "
                         "one with --repository")
    for name in known:  # in the registry's order, whatever the order asked
        if name not in names or name == NOTEBOOKS:
            continue
        progress(f"== {name}")
        run = subprocess.run(_command(scripts / f"{name}.py", name, out=out, seed=seed,
                                      workers=workers, full=full),
                             stdout=subprocess.DEVNULL if quiet else None)
        if run.returncode != 0:
            raise ValueError(f"experiment {name} failed with exit status {run.returncode}")
    if NOTEBOOKS in names:
        render_notebooks(repository / NOTEBOOKS, out / NOTEBOOKS,
                         progress=lambda source: progress(f"== notebook {source.name}"))
    return write_results_index(out, repository=repository)
