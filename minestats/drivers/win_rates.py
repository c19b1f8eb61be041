"""Win rates: the share of games a player wins, with guess statistics and intervals.

Layouts are drawn whole by the placement rule (`minestats.mechanics.sampling.sample_mines`),
each game is played from the same first click by `minestats.players.play_games`, and games
are counted in seeded chunks on the sweep engine (`minestats.runs.sweeps`), so a
win rate depends only on its seed, ``n`` and chunk size, never on the workers.
Within a chunk, one stream draws the layouts and one seeds each game's tie-breaks.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from minestats.foundations.board import Board
from minestats.foundations.defaults import WIN_RATE
from minestats.foundations.docstrings import shared_parameters
from minestats.foundations.result import setting_columns
from minestats.foundations.seeds import child_label, resolve_seed
from minestats.foundations.validation import (
    DEFAULT_CONFIDENCE_LEVEL,
    check_count,
    check_n,
    check_policy,
    resolve_policy,
)
from minestats.mechanics.sampling import check_sample_size
from minestats.mechanics.setting import Setting
from minestats.players.player import GUESS_KINDS, check_strategy, compile_player, play_games
from minestats.runs.sweeps import grid_rows, grid_seeds, run_jobs
from minestats.runs.tally import Tally
from minestats.stats import ProportionResult

__all__ = ["DEFAULT_CHUNK_SIZE", "LOSS_GUESS_EDGES", "LOSS_PROBABILITY_EDGES", "WinRate",
           "win_rate", "win_rate_sweep"]

DEFAULT_CHUNK_SIZE = WIN_RATE.chunk_size
LOSS_GUESS_EDGES = (1, 2, 3, 4, 5, 6, 11, 10**9)
"""Bins of the guess that lost a game, by its number in the game: 1, 2, ..., 5, 6-10, 11+."""
LOSS_PROBABILITY_EDGES = (0.0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 1.0)
"""Bins of the losing guess's mine probability when it was made: [0, 0.05), ..., [0.5, 1]."""
_LOSS_SHAPE = (len(GUESS_KINDS), len(LOSS_GUESS_EDGES) - 1, len(LOSS_PROBABILITY_EDGES) - 1)


@dataclass(frozen=True, repr=False, eq=False)
class WinRate(ProportionResult):
    """Result of `win_rate`: games won by a policy, with its inputs and guess counts.

    Attributes
    ----------
    board : Board
    rule : str
    click : tuple of int
    policy : str
    strategy : str
        How ``best`` guessed (`minestats.players.Strategy.label`); empty for ``safest``.
    n : int
        Games played (trials).
    seed : int or str
    chunk_size : int
    successes : int
        Games won.
    lost_first_click : int
        Games lost on the first click (possible under ``uniform`` only).
    guesses : int
        Guesses made over all games (the first click not counted).
    guesses_won : int
        Guesses made in the games that were won.
    capped : int
        Games in which a deduction step hit its configuration cap.
    seconds : float
        Compute time summed over chunks.
    losses : numpy.ndarray of int64, shape (kinds, guess bins, probability bins)
        The games lost at a guess, by the guess's kind (`minestats.players.GUESS_KINDS`),
        its number in the game (`LOSS_GUESS_EDGES`) and its mine probability
        (`LOSS_PROBABILITY_EDGES`); `loss_table` gives them as a table.
    loss_probabilities : numpy.ndarray of float, shape of ``losses``
        The sum, per bin of ``losses``, of the losing guesses' mine probabilities (a
        bin's mean is its sum over its count).

    The win rate (``win_rate``, also ``proportion``), its interval (``proportion_ci``)
    and ``to_frame`` come from `minestats.stats.ProportionResult`.
    """

    board: Board
    rule: str
    click: tuple[int, int]
    policy: str
    strategy: str
    n: int
    seed: int | str
    chunk_size: int
    successes: int
    lost_first_click: int
    guesses: int
    guesses_won: int
    capped: int
    seconds: float
    losses: np.ndarray = field(default_factory=lambda: np.zeros(_LOSS_SHAPE, dtype=np.int64))
    loss_probabilities: np.ndarray = field(default_factory=lambda: np.zeros(_LOSS_SHAPE))

    def loss_table(self) -> pd.DataFrame:
        """Return the games lost at a guess, one row per kind, guess bin and probability bin.

        Examples
        --------
        >>> table = win_rate("9x9/10", n=200, seed=1, workers=1).loss_table()
        >>> list(table.columns)[-5:]
        ['probability_low', 'probability_high', 'losses', 'probability_sum', 'seed']
        >>> int(table["losses"].sum()) <= 200
        True
        """
        rows = []
        for k, kind in enumerate(GUESS_KINDS):
            for g in range(len(LOSS_GUESS_EDGES) - 1):
                for b in range(len(LOSS_PROBABILITY_EDGES) - 1):
                    rows.append({**setting_columns(self.board, self.rule, self.click),
                                 "policy": self.policy, "strategy": self.strategy,
                                 "n": self.n, "lost": self.n - self.successes, "kind": kind,
                                 "guess_low": LOSS_GUESS_EDGES[g],
                                 "guess_high": LOSS_GUESS_EDGES[g + 1] - 1,
                                 "probability_low": LOSS_PROBABILITY_EDGES[b],
                                 "probability_high": LOSS_PROBABILITY_EDGES[b + 1],
                                 "losses": int(self.losses[k, g, b]),
                                 "probability_sum": float(self.loss_probabilities[k, g, b]),
                                 "seed": self.seed})
        return pd.DataFrame(rows)

    @property
    def win_rate(self) -> float:
        """Share of games won: ``proportion`` under the name of what it estimates."""
        return self.proportion

    @property
    def guesses_per_game(self) -> float:
        """Mean guesses per game."""
        return self.guesses / self.n

    @property
    def guesses_per_win(self) -> float:
        """Mean guesses per won game (NaN when none was won)."""
        return self.guesses_won / self.successes if self.successes else float("nan")

    def to_dict(self, *, confidence_level=DEFAULT_CONFIDENCE_LEVEL) -> dict:
        """Return one table row: inputs, counts, win rate, its Wilson interval, guesses.

        Examples
        --------
        >>> row = win_rate("4x4/2", click="corner", policy="safest", n=20, seed=1,
        ...                workers=1).to_dict()
        >>> row["n"], row["board"], row["click_x"]
        (20, '4x4/2', 0)
        """
        low, high = self.proportion_ci(confidence_level)
        return {
            **setting_columns(self.board, self.rule, self.click, size=True),
            "policy": self.policy,
            "strategy": self.strategy, "n": self.n, "successes": self.successes,
            "win_rate": self.proportion,
            "ci_low": low, "ci_high": high, "confidence_level": confidence_level,
            "lost_first_click": self.lost_first_click,
            "guesses_per_game": self.guesses_per_game,
            "guesses_per_win": self.guesses_per_win, "capped": self.capped,
            "seed": self.seed, "chunk_size": self.chunk_size,
            "seconds_per_game": self.seconds / self.n,
        }


def _win_rate_chunk(config, size, seed_sequence):
    setting, policy, strategy = config
    compile_player()  # not on the clock of this chunk's games
    start = time.process_time()
    layouts, seeds = setting.games(size, seed_sequence)
    games = play_games(layouts, np.full(size, setting.board.index(setting.click)),
                       policy=policy, seeds=seeds, strategy=strategy, rule=setting.rule)
    first = ~games.won & (games.guesses == 0)
    lost = np.flatnonzero(~games.won & (games.guesses > 0))
    last = games.guesses[lost] - 1
    chances = games.chances[lost, last]
    bins = (games.kinds[lost, last],
            np.searchsorted(LOSS_GUESS_EDGES, last + 1, side="right") - 1,
            np.minimum(np.searchsorted(LOSS_PROBABILITY_EDGES, chances, side="right") - 1,
                       len(LOSS_PROBABILITY_EDGES) - 2))
    losses, probabilities = np.zeros(_LOSS_SHAPE, dtype=np.int64), np.zeros(_LOSS_SHAPE)
    np.add.at(losses, bins, 1)
    np.add.at(probabilities, bins, chances)
    return Tally({"won": games.won.sum(), "lost_first_click": first.sum(),
                  "guesses": games.guesses.sum(), "guesses_won": games.guesses[games.won].sum(),
                  "capped": games.capped.sum(), "losses": losses,
                  "loss_probabilities": probabilities,
                  "seconds": time.process_time() - start})


def _config(board, rule, click, policy, strategy=None) -> tuple:
    """Check one row and return its ``(setting, policy, strategy)``."""
    return (Setting.resolve(board, rule, click), check_policy(policy),
            check_strategy(strategy))


def _rows(configs, seeds, labels, *, n, chunk_size, workers, store,
          progress) -> list[WinRate]:
    """Play every row's games on the sweep engine and build the results.

    ``labels`` holds each row's seed label, as the result records it.
    """
    counts = list(n) if isinstance(n, list | tuple | np.ndarray) else [n] * len(configs)
    if len(counts) != len(configs):
        raise ValueError(f"n holds {len(counts)} numbers for {len(configs)} rows")
    counts, chunk_size = [check_n(count) for count in counts], check_count("chunk_size",
                                                                          chunk_size)
    for (setting, *_), count in zip(configs, counts, strict=True):
        check_sample_size(setting.board, count, chunk_size)
    totals = run_jobs(_win_rate_chunk, list(zip(configs, seeds, strict=True)), n=counts,
                      chunk_size=int(chunk_size), workers=workers, store=store,
                      progress=progress)
    results = []
    for (setting, policy, strategy), total, label, n in zip(
            configs, totals, labels, counts, strict=True):
        results.append(WinRate(
            board=setting.board, rule=setting.rule, click=setting.click, policy=policy,
            strategy=strategy.label() if resolve_policy(policy).tuned else "", n=int(n),
            seed=label, chunk_size=int(chunk_size), successes=int(total["won"]),
            lost_first_click=int(total["lost_first_click"]), guesses=int(total["guesses"]),
            guesses_won=int(total["guesses_won"]), capped=int(total["capped"]),
            seconds=float(total["seconds"]), losses=total["losses"].copy(),
            loss_probabilities=total["loss_probabilities"].copy()))
    return results


@shared_parameters(trials="Games", chunk_size=DEFAULT_CHUNK_SIZE)
def win_rate(board, *, rule=WIN_RATE.rule, click=WIN_RATE.click, policy="best", n, seed=None,
             chunk_size=DEFAULT_CHUNK_SIZE, workers=-1, store=None, progress=False,
             strategy=None) -> WinRate:
    """Estimate how often a policy wins, from ``n`` games on layouts drawn by ``rule``.

    Parameters
    ----------
    board : Board or str
        A `Board`, a preset name or ``"WxH/M"``.
    rule : {'safe-click', 'safe-opening', 'winxp', 'uniform'}, optional
        How mines are placed around the first click.
    click : tuple of int or str, optional
        The first click (``"corner"`` is (0, 0)).
    policy : {'best', 'safest'}, optional
        See `minestats.players.player`.
    n : int
        Games to play.
    %(seed)s
    %(chunk_size)s
    %(workers)s
    %(store)s
    %(progress)s
    strategy : Strategy, optional
        How ``best`` guesses (`minestats.players.Strategy`; its defaults when None).

    Returns
    -------
    WinRate

    Examples
    --------
    >>> result = win_rate("5x5/3", policy="safest", n=100, seed=7, workers=1)
    >>> result.n, 0 < result.proportion < 1
    (100, True)
    """
    config = _config(board, rule, click, policy, strategy)
    sequence, label = resolve_seed(seed)
    (result,) = _rows([config], [sequence], [label], n=n, chunk_size=chunk_size,
                      workers=workers, store=store, progress=progress)
    return result


def win_rate_sweep(grid, *, n, seed=None, chunk_size=DEFAULT_CHUNK_SIZE, workers=-1,
                   store=None, progress=False) -> pd.DataFrame:
    """Win rates over a grid of configurations, as a tidy table, in one run.

    Parameters
    ----------
    grid : iterable of dict
        Each dict holds keyword arguments of `win_rate` for one row: ``board``, and
        optionally ``rule``, ``click`` and ``policy`` (defaults as in `win_rate`).
    n : int or sequence of int
        Games per row, or one number per row.
    chunk_size, workers, store, progress
        As in `win_rate`, the same for every row.
    seed : int, numpy.random.SeedSequence or None
        Row ``i`` is seeded with child ``i`` of this seed (label ``"seed/i"``), so
        ``win_rate(**grid[i], seed=SeedSequence(seed, spawn_key=(i,)))`` repeats it.

    Returns
    -------
    pandas.DataFrame
        One row per configuration (`WinRate.to_dict`).

    Examples
    --------
    >>> grid = [{"board": "4x4/3", "click": (x, 0), "policy": "safest"} for x in (0, 1)]
    >>> table = win_rate_sweep(grid, n=50, seed=3, workers=1)
    >>> table[["click_x", "n", "seed"]].values.tolist()
    [[0, 50, '3/0'], [1, 50, '3/1']]
    """
    defaults = {"rule": "safe-click", "click": "corner", "policy": "best"}
    configs = [_config(options["board"], options["rule"], options["click"], options["policy"])
               for options in grid_rows(grid, required=("board",), defaults=defaults,
                                        function="win_rate")]
    sequence, label = resolve_seed(seed)
    rows = _rows(configs, grid_seeds(sequence, len(configs)),
                 [child_label(label, index) for index in range(len(configs))], n=n,
                 chunk_size=chunk_size, workers=workers, store=store, progress=progress)
    return pd.DataFrame([row.to_dict() for row in rows])
