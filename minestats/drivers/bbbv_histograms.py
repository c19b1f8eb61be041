"""Distributions of board metrics over random boards: 3BV histograms with their summaries.

Boards are drawn whole by a first-click rule (`minestats.mechanics.sampling.sample_mines`),
their 3BV computed in batches (`minestats.mechanics.game.bbbv`) and counted into a histogram
of fixed length in seeded chunks (`minestats.runs.sweeps.run_jobs`), so the histogram
depends only on its seed, ``n`` and chunk size, never on the number of workers.

A histogram carries its inputs and computes its summaries on request: mean,
standard deviation, quantiles and the share of boards in a range of 3BV values
(`BBBVShare`, a `minestats.stats.ProportionResult`) with its Wilson interval.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from minestats.foundations.board import Board
from minestats.foundations.defaults import BBBV_HISTOGRAM
from minestats.foundations.docstrings import shared_parameters
from minestats.foundations.result import Result, setting_columns
from minestats.foundations.validation import DEFAULT_CONFIDENCE_LEVEL, quoted
from minestats.mechanics.game import bbbv
from minestats.mechanics.setting import Setting, prepare_run
from minestats.runs.sweeps import run_jobs
from minestats.stats import ProportionResult

__all__ = ["DEFAULT_CHUNK_SIZE", "DEFAULT_QUANTILES", "BBBVHistogram", "BBBVShare",
           "bbbv_histogram"]

DEFAULT_CHUNK_SIZE = BBBV_HISTOGRAM.chunk_size
DEFAULT_QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)
"""The quantiles of `BBBVHistogram.to_dict` (columns ``q05`` ... ``q95``)."""


@dataclass(frozen=True, repr=False, eq=False)
class BBBVShare(ProportionResult):
    """Share of a histogram's boards with ``low <= 3BV <= high`` (`BBBVHistogram.share`).

    ``board``, ``rule``, ``click``, ``n`` and ``seed`` are the histogram's; ``successes``
    counts its boards whose 3BV lies in the range, both ends included.
    """

    board: Board
    rule: str
    click: tuple[int, int]
    low: int
    high: int
    successes: int
    n: int
    seed: int | str

    def to_dict(self, *, confidence_level=DEFAULT_CONFIDENCE_LEVEL) -> dict:
        """One table row: the setting, the range, the share with its interval, n and seed."""
        low, high = self.proportion_ci(confidence_level)
        return {**setting_columns(self.board, self.rule, self.click), "low": self.low,
                "high": self.high, "successes": self.successes, "n": self.n,
                "share": self.proportion, "ci_low": low, "ci_high": high,
                "confidence_level": confidence_level, "seed": self.seed}


@dataclass(frozen=True, eq=False)
class BBBVHistogram(Result):
    """Result of `bbbv_histogram`: how many drawn boards had each 3BV, with the inputs.

    Attributes
    ----------
    board : Board
    rule : str
    click : tuple of int
    n : int
        Boards drawn.
    seed : int or str
        Seed label of the run (see `minestats.runs.chunks.seed_label`).
    chunk_size : int
    counts : numpy.ndarray of int64
        ``counts[v]`` boards had 3BV ``v``, for ``v`` from 0 to the number of safe
        cells (the largest possible 3BV); the counts add up to ``n``.

    `share` gives the share of boards in a range of values (a `BBBVShare`).
    """

    board: Board
    rule: str
    click: tuple[int, int]
    n: int
    seed: int | str
    chunk_size: int
    counts: np.ndarray = field(repr=False)

    @property
    def values(self) -> np.ndarray:
        """The 3BV value of each histogram bin, ``0 .. len(counts) - 1``."""
        return np.arange(self.counts.size)

    def mean(self) -> float:
        """Mean 3BV of the drawn boards."""
        return float(self.counts @ self.values / self.n)

    def std(self) -> float:
        """Return the standard deviation of the boards' 3BV (``ddof=1``; 0 for one board)."""
        if self.n < 2:
            return 0.0
        deviations = (self.values - self.mean()) ** 2
        return float(np.sqrt(self.counts @ deviations / (self.n - 1)))

    def quantile(self, q):
        """Quantiles of the drawn boards' 3BV: the smallest value with cumulative share >= q.

        The same as ``numpy.quantile(values, q, method="inverted_cdf")`` on the
        list of all ``n`` values, so every quantile is a 3BV that occurred.

        Parameters
        ----------
        q : float or array_like of float
            Probabilities in [0, 1].

        Returns
        -------
        int or numpy.ndarray of int
        """
        q = np.asarray(q, dtype=float)
        if np.any((q < 0) | (q > 1)) or np.isnan(q).any():
            raise ValueError(f"quantile probabilities ({quoted(q)}) must lie in [0, 1]")
        cumulative = np.cumsum(self.counts)
        # inverted CDF: the first value whose cumulative count reaches q * n (at least 1)
        found = np.searchsorted(cumulative, np.maximum(q * self.n, 1), side="left")
        return int(found) if found.ndim == 0 else found

    def share(self, low: int, high: int) -> BBBVShare:
        """Share of boards with ``low <= 3BV <= high``, a result with its interval.

        Examples
        --------
        >>> histogram = bbbv_histogram("9x9/10", n=1_000, seed=2, workers=1)
        >>> share = histogram.share(0, 71)
        >>> share.successes, share.proportion, share.proportion_ci().high
        (1000, 1.0, 1.0)
        """
        if not low <= high:
            raise ValueError(f"range [{low}, {high}] must have low <= high")
        inside = int(self.counts[max(low, 0):max(high + 1, 0)].sum())
        return BBBVShare(board=self.board, rule=self.rule, click=self.click, low=low,
                         high=high, successes=inside, n=self.n, seed=self.seed)

    def share_between(self, low: int, high: int, *,
                      confidence_level=DEFAULT_CONFIDENCE_LEVEL) -> dict:
        """Share of boards with ``low <= 3BV <= high``, with its Wilson interval, as a row.

        Returns
        -------
        dict
            The setting (``board``, ``rule``, ``click_x``, ``click_y``), ``low``,
            ``high``, ``successes`` (boards in the range), ``n``, ``share``, ``ci_low``,
            ``ci_high``, ``confidence_level`` and ``seed`` (`BBBVShare.to_dict`).
        """
        return self.share(low, high).to_dict(confidence_level=confidence_level)

    def per_value(self) -> pd.DataFrame:
        """Return the histogram as a tidy table: one row per 3BV value that occurred.

        Examples
        --------
        >>> histogram = bbbv_histogram("9x9/10", n=1_000, seed=2, workers=1)
        >>> table = histogram.per_value()
        >>> int(table["count"].sum()), table.columns[-4:].tolist()
        (1000, ['bbbv', 'count', 'n', 'seed'])
        """
        seen = np.flatnonzero(self.counts)
        return pd.DataFrame({**setting_columns(self.board, self.rule, self.click),
                             "bbbv": seen, "count": self.counts[seen], "n": self.n,
                             "seed": self.seed})

    def to_dict(self, *, quantiles=DEFAULT_QUANTILES) -> dict:
        """One table row: inputs, mean, standard deviation and quantiles (``q05`` ...).

        Examples
        --------
        >>> row = bbbv_histogram("9x9/10", n=1_000, seed=2, workers=1).to_dict()
        >>> row["n"], row["min"] <= row["q50"] <= row["max"]
        (1000, True)
        """
        row = {**setting_columns(self.board, self.rule, self.click), "n": self.n,
               "mean": self.mean(), "sd": self.std()}
        for q, value in zip(quantiles, np.atleast_1d(self.quantile(quantiles)), strict=True):
            row[f"q{round(100 * q):02d}"] = int(value)
        row["min"] = int(self.values[self.counts > 0].min())
        row["max"] = int(self.values[self.counts > 0].max())
        return row | {"seed": self.seed, "chunk_size": self.chunk_size}


def _bbbv_chunk(setting, size, seed_sequence):
    board = setting.board
    return np.bincount(bbbv(setting.layouts(size, seed_sequence)),
                       minlength=board.cells - board.mines + 1)


@shared_parameters(trials="Boards", chunk_size=DEFAULT_CHUNK_SIZE)
def bbbv_histogram(board, *, rule=BBBV_HISTOGRAM.rule, click=BBBV_HISTOGRAM.click, n,
                   seed=None,
                   chunk_size=DEFAULT_CHUNK_SIZE, workers=-1, store=None,
                   progress=False) -> BBBVHistogram:
    """Histogram of 3BV over ``n`` boards drawn by a first-click rule.

    Parameters
    ----------
    board : Board or str
        A `Board`, a preset name or ``"WxH/M"``.
    rule : str, optional
        First-click rule that places the mines (default ``'uniform'``).
    click : tuple of int or str, optional
        The first click the rule protects: ``(x, y)``, ``"centre"`` (default) or
        ``"corner"``. 3BV itself does not depend on the click, only the layouts do.
    n : int
        Boards to draw.
    %(seed)s
    %(chunk_size)s
    %(workers)s
    %(store)s
    %(progress)s

    Returns
    -------
    BBBVHistogram

    Examples
    --------
    >>> histogram = bbbv_histogram("beginner", rule="safe-opening", n=5_000, seed=1,
    ...                            workers=1)
    >>> histogram.n, histogram.seed, int(histogram.counts.sum()), histogram.counts.size
    (5000, 1, 5000, 72)
    >>> bool(12 < histogram.mean() < 17), histogram.quantile(0) >= 1
    (True, True)
    >>> share = histogram.share_between(0, 71)
    >>> share["share"], share["ci_high"]
    (1.0, 1.0)
    """
    setting = Setting.resolve(board, rule, click)
    plan = prepare_run(setting.board, n=n, seed=seed, chunk_size=chunk_size)
    [counts] = run_jobs(_bbbv_chunk, [(setting, plan.seed_sequence)], n=plan.n,
                        chunk_size=plan.chunk_size, workers=workers, store=store,
                        progress=progress)
    return BBBVHistogram(board=setting.board, rule=setting.rule, click=setting.click,
                         n=plan.n, seed=plan.seed, chunk_size=plan.chunk_size,
                         counts=np.asarray(counts, dtype=np.int64))
