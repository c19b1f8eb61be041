"""Paired comparisons: every contender on the same boards, differences with paired intervals.

Comparing two solvers (or two guessing policies) with independent boards per row
leaves the difference with the noise of both rows. `compare` runs every contender
on every board of one seeded stream (common random numbers), so a board both pass
or both fail says nothing about the difference and only the discordant boards
count: the interval of the difference (Newcombe's method for paired proportions,
`minestats.stats.paired_difference_interval`) is then narrower than the
independent-samples one at the same ``n`` by the ``width_ratio`` each pair reports,
and McNemar's exact test asks whether the two differ at all.

Each chunk of the sweep engine (`minestats.runs.sweeps`) returns, for ``k``
contenders, the ``k x k`` counts of boards both contender ``i`` and contender ``j``
passed (the diagonal: the boards ``i`` passed), from which every pair's 2x2 table
of concordant and discordant boards follows. A chunk draws its layouts exactly as
`minestats.pass_rate` (solvers) or `minestats.win_rate` (policies, with the same
per-game tie-break seeds for every policy) draws them, so each contender's count is
the one those functions give with the same seed, ``n`` and chunk size.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from itertools import combinations

import numpy as np
import pandas as pd

from minestats.foundations.board import Board, resolve_board
from minestats.foundations.defaults import PASS_RATE, WIN_RATE
from minestats.foundations.docstrings import shared_parameters
from minestats.foundations.result import Result, setting_columns
from minestats.foundations.validation import (
    DEFAULT_CONFIDENCE_LEVEL,
    DEFAULT_MAX_CONFIGURATIONS,
    check_policy,
    quoted,
)
from minestats.mechanics.rules import check_click
from minestats.mechanics.sampling import relocate_mines
from minestats.mechanics.setting import Setting, prepare_run
from minestats.players.player import Strategy, compile_player, play_games
from minestats.runs.sweeps import run_jobs
from minestats.runs.tally import Tally
from minestats.solvers import SolverOptions, solve_batch
from minestats.stats import (
    ConfidenceInterval,
    difference_interval,
    mcnemar_p_value,
    paired_difference_interval,
    wilson_interval,
)

__all__ = ["Comparison", "PairedComparison", "arm_label", "compare", "compare_clicks",
           "solver_label"]

DEFAULTS = {"solvers": PASS_RATE, "policies": WIN_RATE}
"""Rule, click and chunk size of each kind of contender: those of `pass_rate`, `win_rate`."""

_OUTCOME = {"solvers": "passed", "policies": "won", "clicks": "won"}


def arm_label(rule: str, click) -> str:
    """Name a first-click contender of `compare_clicks`: its rule and click.

    Examples
    --------
    >>> arm_label("winxp", (3, 0))
    'winxp (3, 0)'
    """
    return f"{rule} ({click[0]}, {click[1]})"


def solver_label(options: SolverOptions) -> str:
    """Name a solver contender: the solver, and what differs from its defaults.

    ``single-point`` never uses the mine count and only ``logic`` has a configuration
    cap, so two options with the same label solve every board alike.

    Examples
    --------
    >>> solver_label(SolverOptions("logic", use_mine_count=False))
    'logic (no mine count)'
    >>> solver_label(SolverOptions("single-point", use_mine_count=True))
    'single-point'
    >>> solver_label(SolverOptions("logic", max_configurations=1_000))
    'logic (max_configurations=1000)'
    """
    notes = []
    if not options.use_mine_count and options.solver != "single-point":
        notes.append("no mine count")
    if options.solver == "logic" and options.max_configurations != DEFAULT_MAX_CONFIGURATIONS:
        notes.append(f"max_configurations={options.max_configurations}")
    return options.solver + (f" ({', '.join(notes)})" if notes else "")


@dataclass(frozen=True, eq=False)
class PairedComparison(Result):
    """Two contenders on the same ``n`` boards: their 2x2 table and what follows from it.

    Attributes
    ----------
    board : Board
    rule : str or None
    click : tuple of int or None
        None when the contenders are first clicks (`compare_clicks`), which name
        their own rule and click.
    outcome : str
        What counts as a success: ``'passed'`` (solved without guessing) or ``'won'``.
    first, second : str
        The contenders (see `solver_label`); the difference is first minus second.
    n : int
        Boards both played.
    seed : int or str
    chunk_size : int
    both, first_only, second_only, neither : int
        Boards both passed, only the first, only the second, neither: the table
        ``[[both, first_only], [second_only, neither]]``.

    Examples
    --------
    >>> pair = PairedComparison(Board(9, 9, 10), "safe-opening", (4, 4), "passed",
    ...                         "subset", "logic", 2000, 1, 2000, 1500, 0, 300, 200)
    >>> pair.difference, round(pair.width_ratio(), 3)
    (-0.15, 0.68)
    """

    board: Board
    rule: str | None
    click: tuple[int, int] | None
    outcome: str
    first: str
    second: str
    n: int
    seed: int | str
    chunk_size: int
    both: int
    first_only: int
    second_only: int
    neither: int

    @property
    def table(self) -> list[list[int]]:
        """The 2x2 table ``[[both, first_only], [second_only, neither]]``."""
        return [[self.both, self.first_only], [self.second_only, self.neither]]

    @property
    def first_successes(self) -> int:
        """Boards the first contender passed."""
        return self.both + self.first_only

    @property
    def second_successes(self) -> int:
        """Boards the second contender passed."""
        return self.both + self.second_only

    @property
    def difference(self) -> float:
        """First rate minus second rate, ``(first_only - second_only) / n``."""
        return (self.first_only - self.second_only) / self.n

    def difference_ci(self, confidence_level=DEFAULT_CONFIDENCE_LEVEL) -> ConfidenceInterval:
        """Newcombe's paired interval of the difference (`paired_difference_interval`)."""
        return paired_difference_interval(self.table, confidence_level=confidence_level)

    def unpaired_ci(self, confidence_level=DEFAULT_CONFIDENCE_LEVEL) -> ConfidenceInterval:
        """Return the interval two independent samples of ``n`` with these rates would give.

        Newcombe's independent-samples interval (`difference_interval`), the paired one
        without the correlation: what comparing rows drawn on separate boards costs.
        """
        return difference_interval(self.first_successes, self.n, self.second_successes,
                                   self.n, confidence_level=confidence_level)

    def width_ratio(self, confidence_level=DEFAULT_CONFIDENCE_LEVEL) -> float:
        """Width of the paired interval over that of the unpaired one (below 1: narrower)."""
        low, high = self.difference_ci(confidence_level)
        unpaired_low, unpaired_high = self.unpaired_ci(confidence_level)
        return (high - low) / (unpaired_high - unpaired_low)

    @property
    def mcnemar_p(self) -> float:
        """McNemar's exact two-sided p-value that both succeed equally often."""
        return mcnemar_p_value(self.table)

    def to_dict(self, *, confidence_level=DEFAULT_CONFIDENCE_LEVEL) -> dict:
        """Return one table row: inputs, the 2x2 counts, both rates, the difference.

        Each rate has its Wilson interval, the difference its paired interval, the
        unpaired interval at the same ``n``, their width ratio and McNemar's p-value.
        """
        first_low, first_high = wilson_interval(self.first_successes, self.n,
                                                confidence_level=confidence_level)
        second_low, second_high = wilson_interval(self.second_successes, self.n,
                                                  confidence_level=confidence_level)
        low, high = self.difference_ci(confidence_level)
        unpaired_low, unpaired_high = self.unpaired_ci(confidence_level)
        return {
            **setting_columns(self.board, self.rule, self.click, size=True),
            "outcome": self.outcome,
            "first": self.first, "second": self.second, "n": self.n, "both": self.both,
            "first_only": self.first_only, "second_only": self.second_only,
            "neither": self.neither, "first_successes": self.first_successes,
            "first_rate": self.first_successes / self.n, "first_ci_low": first_low,
            "first_ci_high": first_high, "second_successes": self.second_successes,
            "second_rate": self.second_successes / self.n, "second_ci_low": second_low,
            "second_ci_high": second_high, "difference": self.difference,
            "difference_ci_low": low, "difference_ci_high": high,
            "unpaired_ci_low": unpaired_low, "unpaired_ci_high": unpaired_high,
            "width_ratio": (high - low) / (unpaired_high - unpaired_low),
            "mcnemar_p": self.mcnemar_p, "confidence_level": confidence_level,
            "seed": self.seed, "chunk_size": self.chunk_size,
        }


@dataclass(frozen=True, repr=False, eq=False)
class Comparison(Result):
    """Result of `compare`: ``k`` contenders on the same ``n`` boards, with the inputs.

    Attributes
    ----------
    board : Board
    rule : str or None
    click : tuple of int or None
        None for kind ``'clicks'``, whose contenders carry their own (`arm_label`).
    kind : {'solvers', 'policies', 'clicks'}
    contenders : tuple of str
        Their names, in the order given (see `solver_label`, `arm_label`).
    n : int
        Boards drawn; every contender played every one.
    seed : int or str
    chunk_size : int
    joint : numpy.ndarray of int, shape (k, k)
        ``joint[i, j]``: boards contenders ``i`` and ``j`` both passed (or won); the
        diagonal holds each contender's successes.
    capped : tuple of int
        Per contender: boards where a deduction hit its configuration cap (for
        solvers, counted as not passed, as `pass_rate` counts them).
    lost_first_click : tuple of int
        Per contender: boards lost on the first click (``uniform`` rule only).
    seconds : tuple of float
        Per contender: compute time summed over chunks (drawing layouts not included).

    Examples
    --------
    >>> result = compare("9x9/10", solvers=["single-point", "subset"], n=300, seed=2,
    ...                  workers=1)
    >>> result
    Comparison(board=Board(9x9/10), rule='safe-opening', click=(4, 4), kind='solvers', \
contenders=('single-point', 'subset'), n=300, seed=2, chunk_size=2000, joint=<array 2x2>)
    >>> result.per_contender()["contender"].tolist()
    ['single-point', 'subset']
    """

    board: Board
    rule: str | None
    click: tuple[int, int] | None
    kind: str
    contenders: tuple[str, ...]
    n: int
    seed: int | str
    chunk_size: int
    joint: np.ndarray
    capped: tuple[int, ...]
    lost_first_click: tuple[int, ...]
    seconds: tuple[float, ...]

    def __repr__(self) -> str:
        shape = "x".join(map(str, self.joint.shape))
        return (f"Comparison(board={self.board!r}, rule={self.rule!r}, click={self.click!r}, "
                f"kind={self.kind!r}, contenders={self.contenders!r}, n={self.n}, "
                f"seed={self.seed!r}, chunk_size={self.chunk_size}, joint=<array {shape}>)")

    @property
    def successes(self) -> tuple[int, ...]:
        """Boards each contender passed (or won)."""
        return tuple(int(count) for count in np.diag(self.joint))

    def _index(self, contender: str) -> int:
        if contender not in self.contenders:
            raise ValueError(f"contender {quoted(contender)} is not one of "
                             f"{', '.join(self.contenders)}")
        return self.contenders.index(contender)

    def pair(self, first: str, second: str) -> PairedComparison:
        """Return the 2x2 comparison of two contenders, by name (first minus second).

        Examples
        --------
        >>> result = compare("6x6/5", policies=["safest", "best"], n=40, seed=3, workers=1)
        >>> pair = result.pair("best", "safest")
        >>> pair.both + pair.first_only + pair.second_only + pair.neither
        40
        """
        i, j = self._index(first), self._index(second)
        both = int(self.joint[i, j])
        first_only = int(self.joint[i, i]) - both
        second_only = int(self.joint[j, j]) - both
        return PairedComparison(
            board=self.board, rule=self.rule, click=self.click, outcome=_OUTCOME[self.kind],
            first=first, second=second, n=self.n, seed=self.seed, chunk_size=self.chunk_size,
            both=both, first_only=first_only, second_only=second_only,
            neither=self.n - both - first_only - second_only)

    def pairs(self, *, adjacent: bool = False) -> list[PairedComparison]:
        """Every pair ``(i, j)`` with ``i < j`` in the order given, or only ``(i, i + 1)``."""
        indices = (zip(range(len(self.contenders) - 1), range(1, len(self.contenders)),
                       strict=True) if adjacent else combinations(range(len(self.contenders)), 2))
        return [self.pair(self.contenders[i], self.contenders[j]) for i, j in indices]

    def per_contender(self, *, confidence_level=DEFAULT_CONFIDENCE_LEVEL) -> pd.DataFrame:
        """One row per contender: its successes out of ``n`` with the Wilson interval.

        Examples
        --------
        >>> result = compare("9x9/10", solvers=["single-point", "subset"], n=300, seed=2,
        ...                  workers=1)
        >>> result.per_contender()[["contender", "n", "successes"]]
              contender    n  successes
        0  single-point  300        206
        1        subset  300        259
        """
        rows = []
        for index, name in enumerate(self.contenders):
            successes = int(self.joint[index, index])
            low, high = wilson_interval(successes, self.n, confidence_level=confidence_level)
            rows.append({
                **setting_columns(self.board, self.rule, self.click),
                "outcome": _OUTCOME[self.kind], "contender": name,
                "n": self.n, "successes": successes, "rate": successes / self.n,
                "ci_low": low, "ci_high": high, "confidence_level": confidence_level,
                "capped": self.capped[index],
                "lost_first_click": self.lost_first_click[index], "seed": self.seed,
                "chunk_size": self.chunk_size,
                "seconds_per_game": self.seconds[index] / self.n})
        return pd.DataFrame(rows)

    def per_pair(self, *, adjacent: bool = False,
                 confidence_level=DEFAULT_CONFIDENCE_LEVEL) -> pd.DataFrame:
        """One row per pair (`pairs`), as `PairedComparison.to_dict` writes it."""
        return pd.DataFrame([pair.to_dict(confidence_level=confidence_level)
                             for pair in self.pairs(adjacent=adjacent)])

    def to_dict(self) -> dict:
        """Return one table row: the setting, ``n``, the seed, and each contender's successes.

        Contender ``i`` (in the order given) has the columns ``contender_i`` (its name)
        and ``successes_i``; `per_contender` gives their rates and intervals,
        `per_pair` their paired differences.

        Examples
        --------
        >>> result = compare("9x9/10", solvers=["single-point", "subset"], n=300, seed=2,
        ...                  workers=1)
        >>> row = result.to_dict()
        >>> row["contender_1"], row["successes_1"], row["n"], row["seed"]
        ('subset', 259, 300, 2)
        """
        row = {**setting_columns(self.board, self.rule, self.click, size=True),
               "outcome": _OUTCOME[self.kind], "n": self.n}
        for index, (name, successes) in enumerate(zip(self.contenders, self.successes,
                                                      strict=True)):
            row |= {f"contender_{index}": name, f"successes_{index}": successes}
        return row | {"seed": self.seed, "chunk_size": self.chunk_size}


def _tally(outcomes: np.ndarray, capped, lost, seconds) -> Tally:
    """Chunk result: joint passes (``joint[i, j]``: both i and j), capped, lost, seconds."""
    passed = outcomes.astype(np.int64)
    return Tally({"joint": passed @ passed.T, "capped": capped, "lost_first_click": lost,
                  "seconds": seconds})


def _counters(contenders: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each contender's capped and lost boards (counts) and seconds, all zero."""
    return (np.zeros(contenders, dtype=np.int64), np.zeros(contenders, dtype=np.int64),
            np.zeros(contenders))


def _comparison(total: Tally, **inputs) -> Comparison:
    """Build the `Comparison` from the summed `_tally` of every chunk."""
    return Comparison(**inputs, joint=total["joint"],
                      capped=tuple(int(v) for v in total["capped"]),
                      lost_first_click=tuple(int(v) for v in total["lost_first_click"]),
                      seconds=tuple(float(v) for v in total["seconds"]))


def _solve_all(layouts, click, contenders) -> np.ndarray:
    """Every solver on every layout: the chunk result of `_tally` for these layouts."""
    outcomes = np.zeros((len(contenders), len(layouts)), dtype=bool)
    capped, lost, seconds = _counters(len(contenders))
    for index, (solver, use_mine_count, max_configurations) in enumerate(contenders):
        start = time.process_time()
        result = solve_batch(layouts, click, solver=solver, use_mine_count=use_mine_count,
                             max_configurations=max_configurations)
        outcomes[index] = result.solved
        capped[index], lost[index] = result.capped.sum(), result.lost.sum()
        seconds[index] = time.process_time() - start
    return _tally(outcomes, capped, lost, seconds)


def _solvers_chunk(config, size, seed_sequence):
    setting, contenders = config
    # The layouts of `pass_rate`'s chunk with the same seed.
    return _solve_all(setting.layouts(size, seed_sequence), setting.click, contenders)


def _policies_chunk(config, size, seed_sequence):
    setting, contenders = config
    # The games of `win_rate`'s chunk with the same seed, handed to every policy.
    layouts, game_seeds = setting.games(size, seed_sequence)
    outcomes = np.zeros((len(contenders), size), dtype=bool)
    capped, lost, seconds = _counters(len(contenders))
    clicks = np.full(size, setting.board.index(setting.click))
    compile_player()  # not on the clock of the first contender
    for index, (policy, strategy) in enumerate(contenders):
        start = time.process_time()
        games = play_games(layouts, clicks, policy=policy, seeds=game_seeds, strategy=strategy,
                           rule=setting.rule)
        outcomes[index] = games.won
        capped[index] = games.capped.sum()
        lost[index] = (~games.won & (games.guesses == 0)).sum()
        seconds[index] = time.process_time() - start
    return _tally(outcomes, capped, lost, seconds)


def _clicks_chunk(config, size, seed_sequence):
    board, arms, policy = config
    # The games of `win_rate`'s chunk with the same seed: drawn by `uniform`, they are
    # `win_rate`'s `winxp` layouts before the relocation. The seed's third child seeds
    # the moves of `safe-click` and `safe-opening`, the same for every arm.
    uniform, game_seeds = Setting(board, "uniform", (0, 0)).games(size, seed_sequence)
    [moves_seed] = seed_sequence.spawn(1)
    compile_player()  # not on the clock of the first arm
    outcomes = np.zeros((len(arms), size), dtype=bool)
    capped, lost, seconds = _counters(len(arms))
    for index, (rule, click) in enumerate(arms):
        start = time.process_time()
        layouts = relocate_mines(board, uniform, click, rule=rule,
                                 seed=np.random.default_rng(moves_seed))
        games = play_games(layouts, np.full(size, board.index(click)), policy=policy,
                           seeds=game_seeds, rule=rule)
        outcomes[index] = games.won
        capped[index] = games.capped.sum()
        lost[index] = (~games.won & (games.guesses == 0)).sum()
        seconds[index] = time.process_time() - start
    return _tally(outcomes, capped, lost, seconds)


def _contender_list(name: str, value, kinds: str) -> list:
    if isinstance(value, str) or not isinstance(value, list | tuple):
        raise ValueError(f"{name} ({quoted(value)}) must be a list of {kinds}")
    if len(value) < 2:
        shown = [solver_label(item) if isinstance(item, SolverOptions) else item
                 for item in value]
        raise ValueError(f"{name} ({quoted(shown)}) must list at least two contenders to compare")
    return list(value)


def _contenders(solvers, policies) -> tuple[str, tuple, tuple[str, ...]]:
    """Return the kind, the contenders as the chunk reads them, and their names."""
    if (solvers is None) == (policies is None):
        raise ValueError(f"compare takes solvers or policies, exactly one of them "
                         f"(solvers={quoted(solvers)}, policies={quoted(policies)})")
    if solvers is not None:
        items = _contender_list("solvers", solvers, "solver names or SolverOptions")
        options = [item if isinstance(item, SolverOptions) else SolverOptions(item)
                   for item in items]
        names = tuple(solver_label(option) for option in options)
        contenders = tuple((option.solver, option.use_mine_count, option.max_configurations)
                           for option in options)
        kind = "solvers"
    else:
        items = _contender_list("policies", policies, "policy names or Strategy")
        contenders = tuple(("best", item) if isinstance(item, Strategy)
                           else (check_policy(item), None) for item in items)
        names = tuple(item.label() if isinstance(item, Strategy) else item for item in items)
        kind = "policies"
    for index, label in enumerate(names):
        if label in names[:index]:
            raise ValueError(f"{kind} ({quoted(list(names))}) name {quoted(label)} twice")
    return kind, contenders, names


@shared_parameters(trials="Boards")
def compare(board, *, solvers=None, policies=None, rule=None, click=None, n, seed=None,
            chunk_size=None, workers=-1, store=None, progress=False) -> Comparison:
    """Run every contender on every board of one seeded stream and compare them in pairs.

    Parameters
    ----------
    board : Board or str
        A `Board`, a preset name or ``"WxH/M"``.
    solvers : list of str or SolverOptions, optional
        Solvers to compare, weakest first say: a board is a success when the solver
        opens every safe cell without guessing, as `minestats.pass_rate` counts it
        (capped boards are not successes). A name takes the default options; a
        `minestats.SolverOptions` sets the mine count and cap (``SolverOptions("logic",
        use_mine_count=False)`` is the contender ``'logic (no mine count)'``).
    policies : list of str or Strategy, optional
        Guessing policies (``'safest'``, ``'best'``) to compare: a success is a game
        won, as `minestats.win_rate` counts it; every policy plays the same layouts
        with the same per-game tie-break seed. A `minestats.players.Strategy` is the
        policy ``best`` guessing by it (named by `Strategy.label`). Give ``solvers``
        or ``policies``.
    rule : str, optional
        First-click rule; default ``'safe-opening'`` for solvers (as `pass_rate`) and
        ``'safe-click'`` for policies (as `win_rate`).
    click : tuple of int or str, optional
        First click; default ``"centre"`` for solvers and ``"corner"`` for policies.
    n : int
        Boards to draw; every contender plays every board.
    seed : int, str, numpy.random.SeedSequence, numpy.random.Generator or None
        Seed of the run (`minestats.foundations.seeds`). Each contender's count equals the
        count of `pass_rate` (or `win_rate`) with the same seed, n and chunk size.
    chunk_size : int, optional
        Boards per chunk; default 2,000 for solvers and 200 for policies. The result
        depends on (seed, n, chunk_size), never on the workers.
    %(workers)s
    %(store)s
    %(progress)s

    Returns
    -------
    Comparison
        ``pairs()`` (or ``per_pair()``) gives each pair's rates, paired difference
        with Newcombe's interval, the unpaired interval, their width ratio and
        McNemar's exact p-value; ``per_contender()`` each contender's rate.

    Raises
    ------
    ValueError
        For no or both contender lists, fewer than two contenders, an unknown or
        repeated name, and the checks of `pass_rate` or `win_rate`.

    Examples
    --------
    >>> result = compare("beginner", solvers=["single-point", "subset", "logic"], n=500,
    ...                  seed=1, workers=1)
    >>> [(pair.first, pair.second) for pair in result.pairs(adjacent=True)]
    [('single-point', 'subset'), ('subset', 'logic')]
    >>> pair = result.pair("subset", "logic")
    >>> pair.first_only  # logic proves all subset proves
    0
    >>> low, high = pair.difference_ci()
    >>> bool(low < pair.difference < high < 0), pair.width_ratio() < 0.75
    (True, True)
    >>> compare("beginner", solvers=["logic"], n=10)
    Traceback (most recent call last):
    ...
    ValueError: solvers (['logic']) must list at least two contenders to compare
    """
    kind, contenders, names = _contenders(solvers, policies)
    defaults = DEFAULTS[kind]
    rule = defaults.rule if rule is None else rule
    click = defaults.click if click is None else click
    setting = Setting.resolve(board, rule, click)
    plan = prepare_run(setting.board, n=n, seed=seed,
                       chunk_size=defaults.chunk_size if chunk_size is None else chunk_size)
    chunk = _solvers_chunk if kind == "solvers" else _policies_chunk
    [totals] = run_jobs(chunk, [((setting, contenders), plan.seed_sequence)], n=plan.n,
                        chunk_size=plan.chunk_size, workers=workers, store=store,
                        progress=progress)
    return _comparison(totals, board=setting.board, rule=setting.rule, click=setting.click,
                       kind=kind, contenders=names, n=plan.n, seed=plan.seed,
                       chunk_size=plan.chunk_size)


@shared_parameters(trials="Boards")
def compare_clicks(board, arms, *, policy="best", n, seed=None, chunk_size=None, workers=-1,
                   store=None, progress=False) -> Comparison:
    """Play first clicks (each under its rule) on the same boards and compare them in pairs.

    Every game draws one layout by ``uniform`` and one tie-break seed; each arm
    ``(rule, click)`` plays the layout its rule makes of it (`minestats.mechanics.sampling.
    relocate_mines`: Windows XP's move to the top-left for ``winxp``, a move to a
    uniformly random free cell for ``safe-click`` and ``safe-opening``, which gives
    each rule its own distribution), with that seed. A board no rule's move touches
    is the same board for every arm, so the arms' difference has a paired interval,
    as `compare` gives contenders at one click.

    Parameters
    ----------
    board : Board or str
    arms : list of (str, click)
        At least two distinct ``(rule, click)`` pairs, e.g. ``[("winxp", (3, 0)),
        ("winxp", (0, 0)), ("safe-click", (0, 0))]``; named by `arm_label`.
    policy : {'best', 'safest'}, optional
        The policy every arm plays (its default strategy; under ``winxp`` it weighs
        the rule).
    n : int
        Games; every arm plays every one.
    seed : int, str, numpy.random.SeedSequence, numpy.random.Generator or None
        Seed of the run. A ``winxp`` arm's count equals that of `minestats.win_rate`
        with the same rule, click, policy, seed, n and chunk size.
    chunk_size : int, optional
        Games per chunk, default that of `win_rate`.
    %(workers)s
    %(store)s
    %(progress)s

    Returns
    -------
    Comparison
        Of kind ``'clicks'``: ``rule`` and ``click`` are None, the contenders name
        their own.

    Raises
    ------
    ValueError
        For fewer than two arms, a repeated arm, and the checks of `win_rate`.

    Examples
    --------
    >>> result = compare_clicks("6x6/5", [("winxp", (2, 2)), ("winxp", (0, 0))], n=40,
    ...                         seed=3, workers=1)
    >>> result.contenders
    ('winxp (2, 2)', 'winxp (0, 0)')
    >>> pair = result.pair(*result.contenders)
    >>> pair.both + pair.first_only + pair.second_only + pair.neither
    40
    """
    board = resolve_board(board)
    arms = _contender_list("arms", arms, "(rule, click) pairs")
    arms = tuple((rule, check_click(board, click, rule)) for rule, click in arms)
    names = tuple(arm_label(rule, click) for rule, click in arms)
    for index, label in enumerate(names):
        if label in names[:index]:
            raise ValueError(f"arms ({quoted(list(names))}) name {quoted(label)} twice")
    policy = check_policy(policy)
    plan = prepare_run(board, n=n, seed=seed,
                       chunk_size=WIN_RATE.chunk_size if chunk_size is None else chunk_size)
    [totals] = run_jobs(_clicks_chunk, [((board, arms, policy), plan.seed_sequence)], n=plan.n,
                        chunk_size=plan.chunk_size, workers=workers, store=store,
                        progress=progress)
    return _comparison(totals, board=board, rule=None, click=None, kind="clicks",
                       contenders=names, n=plan.n, seed=plan.seed, chunk_size=plan.chunk_size)
