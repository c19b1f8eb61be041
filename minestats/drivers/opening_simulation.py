"""Monte Carlo simulation of first-click openings, checked against the closed forms."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from minestats.foundations.board import Board
from minestats.foundations.defaults import OPENING_SIMULATION
from minestats.foundations.docstrings import shared_parameters
from minestats.foundations.result import setting_columns
from minestats.foundations.validation import (
    DEFAULT_ALPHA,
    DEFAULT_CONFIDENCE_LEVEL,
)
from minestats.mechanics.opening_probabilities import opening_probability, opening_probability_map
from minestats.mechanics.sampling import count_openings, count_openings_all_clicks
from minestats.mechanics.setting import Setting, prepare_run
from minestats.runs.sweeps import run_jobs
from minestats.stats import ProportionResult, holm_reject, two_sided_p_values, z_scores

__all__ = ["DEFAULT_CHUNK_SIZE", "OpeningSimulation", "simulate_opening"]

DEFAULT_CHUNK_SIZE = OPENING_SIMULATION.chunk_size


@dataclass(frozen=True, eq=False, repr=False)
class OpeningSimulation(ProportionResult):
    """Result of `simulate_opening`: counts of opening first clicks, with their inputs.

    Attributes
    ----------
    board : Board
    rule : str
    click : tuple of int or None
        The click, or None when every position was simulated.
    n : int
        Boards drawn per click position.
    seed : int or str
        Entropy of the seed sequence the chunks were drawn from.
    chunk_size : int
        Boards per chunk; with ``seed`` and ``n`` it fixes the result.
    counts : int or numpy.ndarray
        Boards on which the click opened; shape ``(height, width)`` for all positions.
        The same as ``successes``.
    exact : float or numpy.ndarray
        The closed-form opening probability, same shape as ``counts``.

    The proportion and its interval (``proportion_ci``) come from
    `minestats.stats.ProportionResult`; with all positions they are arrays, and
    `per_click` tabulates them.
    """

    board: Board
    rule: str
    click: tuple[int, int] | None
    n: int
    seed: int | str
    chunk_size: int
    counts: int | np.ndarray
    exact: float | np.ndarray = field(repr=False)

    @property
    def successes(self):
        """Boards on which the click opened (``counts``)."""
        return self.counts

    def z_scores(self):
        """z-scores of the Monte Carlo proportion against the exact probability."""
        return z_scores(self.counts, self.n, self.exact)

    def p_values(self):
        """Two-sided p-values of the z-scores."""
        return two_sided_p_values(self.z_scores())

    def holm_reject(self, *, alpha=DEFAULT_ALPHA):
        """Which positions disagree with the closed form, Holm-corrected across positions."""
        return holm_reject(np.atleast_1d(self.p_values()), alpha=alpha).reshape(
            np.shape(self.counts))

    def per_click(self, *, confidence_level=DEFAULT_CONFIDENCE_LEVEL) -> pd.DataFrame:
        """One tidy row per click position: exact, Monte Carlo, Wilson interval, z, n, seed.

        Examples
        --------
        >>> result = simulate_opening("9x9/10", rule="uniform", n=100, seed=4, workers=1)
        >>> table = result.per_click()
        >>> len(table), table.columns[:6].tolist()
        (81, ['board', 'rule', 'click_x', 'click_y', 'exact', 'mc'])
        """
        low, high = self.proportion_ci(confidence_level)
        if self.click is None:
            ys, xs = np.indices(self.board.shape)
        else:
            xs, ys = np.array([self.click[0]]), np.array([self.click[1]])
        columns = {
            "click_x": xs, "click_y": ys, "exact": self.exact, "mc": self.proportion,
            "ci_low": low, "ci_high": high, "z": self.z_scores(), "successes": self.counts,
        }
        frame = pd.DataFrame({name: np.ravel(value) for name, value in columns.items()})
        frame.insert(0, "rule", self.rule)
        frame.insert(0, "board", str(self.board))
        frame["n"] = self.n
        frame["seed"] = self.seed
        frame["chunk_size"] = self.chunk_size
        frame["confidence_level"] = confidence_level
        return frame

    def to_dict(self, *, confidence_level=DEFAULT_CONFIDENCE_LEVEL) -> dict:
        """Return one table row: the click's, or a summary of every position.

        A single click gives its `per_click` row. A result of every position gives
        its board and rule (clicks None), ``positions``, ``n`` (boards per position),
        ``max_abs_z``, ``holm_rejections`` (positions whose Monte Carlo share
        disagrees with the closed form, Holm-corrected at
        `minestats.foundations.validation.DEFAULT_ALPHA`), ``seed``, ``chunk_size``
        and ``confidence_level``.

        Examples
        --------
        >>> result = simulate_opening("9x9/10", rule="uniform", n=100, seed=4, workers=1)
        >>> row = result.to_dict()
        >>> row["positions"], row["n"], row["seed"]
        (81, 100, 4)
        """
        if self.click is not None:
            return self.per_click(confidence_level=confidence_level).iloc[0].to_dict()
        return {**setting_columns(self.board, self.rule, None), "positions": self.board.cells,
                "n": self.n, "max_abs_z": float(np.max(np.abs(self.z_scores()))),
                "holm_rejections": int(self.holm_reject().sum()), "seed": self.seed,
                "chunk_size": self.chunk_size, "confidence_level": confidence_level}


def _opening_chunk(setting, size, seed_sequence):
    rng = np.random.default_rng(seed_sequence)
    if setting.click is None:
        return count_openings_all_clicks(setting.board, size, rule=setting.rule, seed=rng)
    return count_openings(setting.board, size, rule=setting.rule, click=setting.click, seed=rng)


@shared_parameters(trials="Boards", chunk_size=DEFAULT_CHUNK_SIZE)
def simulate_opening(board, *, rule, n, click=OPENING_SIMULATION.click, seed=None,
                     chunk_size=DEFAULT_CHUNK_SIZE,
                     workers=-1, store=None, progress=False) -> OpeningSimulation:
    """Draw whole boards by the rule and count how often the first click opens.

    Parameters
    ----------
    board : Board or str
        A `Board`, a preset name or ``"WxH/M"``.
    rule : {'uniform', 'safe-click', 'safe-opening', 'winxp'}
    n : int
        Boards per click position, at least 1.
    click : tuple of int or str, optional
        ``(x, y)``, ``"centre"`` or ``"corner"``; None (default) simulates every
        position at once (see `minestats.mechanics.sampling.count_openings_all_clicks`).
    %(seed)s
    %(chunk_size)s
    %(workers)s
    %(store)s
    %(progress)s

    Returns
    -------
    OpeningSimulation

    Examples
    --------
    >>> from minestats.foundations.board import BEGINNER
    >>> result = simulate_opening(BEGINNER, rule="uniform", n=20_000, click="centre",
    ...                           seed=42, workers=1)
    >>> result.n, result.seed, round(result.exact, 4)
    (20000, 42, 0.2855)
    >>> low, high = result.proportion_ci()
    >>> bool(low < result.exact < high)
    True
    """
    setting = Setting.resolve(board, rule, click)
    if click is None:  # every click: the rule must fit its mines at each of them
        exact = opening_probability_map(setting.board, rule=setting.rule)
    else:
        exact = float(opening_probability(setting.board, setting.click, rule=setting.rule))
    plan = prepare_run(n=n, seed=seed, chunk_size=chunk_size)  # drawn a board at a time
    [counts] = run_jobs(_opening_chunk, [(setting, plan.seed_sequence)], n=plan.n,
                        chunk_size=plan.chunk_size, workers=workers, store=store,
                        progress=progress)
    if click is not None:
        counts = int(counts)
    return OpeningSimulation(board=setting.board, rule=setting.rule, click=setting.click,
                             n=plan.n, seed=plan.seed, chunk_size=plan.chunk_size,
                             counts=counts, exact=exact)
