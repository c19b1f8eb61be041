"""The defaults of every driver, declared once: first-click rule, click and chunk size.

A driver's signature, the sweeps built on it, `minestats.compare` (which pairs
contenders on the boards of `minestats.pass_rate` or `minestats.win_rate`) and the
``minestats`` command all read their defaults from the `DriverDefaults` here, so
they cannot drift apart. The module imports nothing heavy: the command's parser
reads it before the library loads.

Examples
--------
>>> WIN_RATE
DriverDefaults(rule='safe-click', click='corner', chunk_size=200)
>>> PASS_RATE.chunk_size
2000
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["BBBV_HISTOGRAM", "NO_GUESS", "OPENING_SIMULATION", "PASS_RATE", "WIN_RATE",
           "DriverDefaults"]


@dataclass(frozen=True)
class DriverDefaults:
    """The board setting and chunking a driver uses when the caller names none.

    Attributes
    ----------
    rule : str or None
        First-click rule; None when the caller must give one.
    click : str, tuple of int or None
        First click; None when the caller must give one (or, for the opening
        simulation, when None means every position).
    chunk_size : int
        Trials per chunk: the unit of resumption and of parallel work. A result
        depends on (seed, n, chunk_size), so the default is part of what a run means.
    """

    rule: str | None
    click: str | tuple[int, int] | None
    chunk_size: int


OPENING_SIMULATION = DriverDefaults(rule=None, click=None, chunk_size=50_000)
"""`minestats.simulate_opening`: every click position at once, 50,000 boards a chunk."""
PASS_RATE = DriverDefaults(rule="safe-opening", click="centre", chunk_size=2_000)
"""`minestats.pass_rate`, its sweep, and `minestats.compare` of solvers."""
BBBV_HISTOGRAM = DriverDefaults(rule="uniform", click="centre", chunk_size=20_000)
"""`minestats.bbbv_histogram`."""
WIN_RATE = DriverDefaults(rule="safe-click", click="corner", chunk_size=200)
"""`minestats.win_rate`, its sweep, `minestats.play` from the command, and
`minestats.compare` of policies."""
NO_GUESS = DriverDefaults(rule="safe-opening", click=None, chunk_size=10)
"""`minestats.generate_no_guess` and its batch (the click is always given)."""
