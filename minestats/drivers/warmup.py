"""Compile every kernel ahead, once per machine: what ``minestats warmup`` runs.

numba compiles the package's kernels on their first call and keeps them in its disk
cache (``NUMBA_CACHE_DIR`` when set, else ``__pycache__`` beside the sources). A
first run on a machine therefore waits for the compiler; `warm_up_kernels` takes that
wait ahead of time (an image build, a job's prologue, a cluster's shared cache), one
group of kernels at a time, and says which group compiled and which was already
cached. Each group runs the public functions that use it on a tiny board, in this
process, so exactly the compiled signatures a real run uses are cached.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import NamedTuple

import numba
import numpy as np
from numba.core import event

from minestats.drivers.bbbv_histograms import bbbv_histogram
from minestats.drivers.no_guess import generate_no_guess
from minestats.drivers.opening_simulation import simulate_opening
from minestats.drivers.pass_rates import pass_rate
from minestats.foundations.board import Board
from minestats.inference import mine_probabilities
from minestats.mechanics.rules import RULES
from minestats.players.player import compile_player

__all__ = ["KERNELS", "Warmed", "cache_folder", "warm_up_kernels"]

_TINY = Board(4, 4, 3)


def _samplers():
    for rule in RULES:
        simulate_opening(_TINY, rule=rule, n=2, click="centre", seed=0, workers=1)
        simulate_opening(_TINY, rule=rule, n=2, click=None, seed=0, workers=1)
        bbbv_histogram(_TINY, rule=rule, n=2, seed=0, workers=1)


def _solvers():
    for rule in RULES:
        for solver in ("single-point", "subset", "logic"):
            pass_rate(_TINY, solver=solver, rule=rule, n=2, seed=0, workers=1)
    for method in ("retry", "perturb"):
        generate_no_guess(_TINY, "centre", method=method, seed=0)


def _probabilities():
    numbers = np.full((3, 3), -1)
    numbers[0, 0] = 1
    for exact in (False, True):
        mine_probabilities(numbers, mines=2, exact=exact)


KERNELS: dict[str, Callable[[], object]] = {
    "samplers and 3BV": _samplers,
    "solvers and no-guess generators": _solvers,
    "mine probabilities": _probabilities,
    "player": compile_player,
}
"""Each group of kernels and the calls that compile it, in the order they are warmed."""


class Warmed(NamedTuple):
    """One group of kernels warmed: how many functions compiled, and the seconds it took."""

    group: str
    compiled: int
    seconds: float


class _Counter(event.Listener):
    def __init__(self):
        self.count = 0

    def on_start(self, data):
        function = getattr(data.data.get("dispatcher"), "py_func", None)
        self.count += getattr(function, "__module__", "").startswith("minestats.")

    def on_end(self, data):
        pass


def warm_up_kernels(groups=None, *, report: Callable[[Warmed], object] | None = None
                    ) -> list[Warmed]:
    """Compile (or load from numba's disk cache) the package's kernels in this process.

    Parameters
    ----------
    groups : sequence of str, optional
        Names of `KERNELS` to warm; default all of them.
    report : callable, optional
        Called with each `Warmed` as soon as its group is done.

    Returns
    -------
    list of Warmed
        One per group: ``compiled`` is 0 when the disk cache held every kernel of it
        (or this process had loaded them already).

    Examples
    --------
    >>> warm_up_kernels(["mine probabilities"])[0].group
    'mine probabilities'
    >>> warm_up_kernels(["mine probabilities"])[0].compiled  # loaded the first time
    0
    """
    names = list(KERNELS) if groups is None else list(groups)
    unknown = [name for name in names if name not in KERNELS]
    if unknown:
        raise ValueError(f"unknown kernel groups {unknown}; choose from {', '.join(KERNELS)}")
    warmed = []
    for name in names:
        counter, start = _Counter(), time.perf_counter()
        with event.install_listener("numba:compile", counter):
            KERNELS[name]()
        warmed.append(Warmed(name, counter.count, time.perf_counter() - start))
        if report is not None:
            report(warmed[-1])
    return warmed


def cache_folder() -> str:
    """Return where numba keeps the compiled kernels: ``NUMBA_CACHE_DIR``, or its default.

    Examples
    --------
    >>> import os
    >>> cache_folder() == (os.environ.get("NUMBA_CACHE_DIR")
    ...                    or "__pycache__ beside the package's sources")
    True
    """
    return numba.config.CACHE_DIR or "__pycache__ beside the package's sources"
