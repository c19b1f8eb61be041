"""No-guess boards: layouts that a solver finishes from the first click without guessing.

Two methods, both returning only a board that a full re-solve from the click (the
public `minestats.solvers.solve`, no solver state kept, no perturbation after it)
passes: ``solved=True`` and not capped. Both stop at ``max_tries`` placements or
``timeout`` seconds and then report failure (``ok=False``, ``layout=None``); they
never loop forever and never return an unverified board.

``retry``
    Place the mines under the first-click rule (`minestats.mechanics.sampling.sample_mines`
    with the generator's own stream), solve from the click, keep the first board
    the solver passes. The result is uniform among the rule's boards that the
    solver passes.
``perturb``
    Simon Tatham's method: when the solver stalls, move mines between the stuck
    frontier and unknown cells elsewhere so that a deduction becomes possible,
    keeping the mine count, then solve again from scratch. It reaches densities
    where ``retry`` would wait forever, but its boards are not uniform (see
    `generate_no_guess` for the move and the rounds).

A generator is deterministic given its seed: an int, a `numpy.random.SeedSequence`,
or a string such as a date (``"2026-11-29"``), which is mapped portably to an int
(SHA-256 of its UTF-8 bytes, read big-endian; see `minestats.foundations.seeds`), so a
"daily board" is the same board on every machine. Only the time limit depends on
the machine: it can turn a success into a failure, never into another board.
"""

from __future__ import annotations

import math
import sys
import time
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from minestats.foundations.board import Board, resolve_board
from minestats.foundations.defaults import NO_GUESS
from minestats.foundations.deprecation import RenamedAttribute
from minestats.foundations.docstrings import shared_parameters
from minestats.foundations.result import Result, setting_columns
from minestats.foundations.seeds import resolve_seed, seed_label
from minestats.foundations.validation import (
    DEFAULT_CONFIDENCE_LEVEL,
    DEFAULT_MAX_CONFIGURATIONS,
    check_count,
    check_n,
    check_timeout,
    quoted,
    resolve_rule,
)
from minestats.mechanics.perturb import perturb_once
from minestats.mechanics.setting import Setting
from minestats.runs.chunks import chunk_seeds, chunk_sizes, map_chunks
from minestats.runs.sweeps import run_jobs
from minestats.runs.tally import Tally
from minestats.solvers import SolverOptions, solve, solve_batch
from minestats.stats import ProportionResult

__all__ = [
    "DEFAULT_BATCH_CHUNK_SIZE",
    "DEFAULT_MAX_DRAWS",
    "DEFAULT_MAX_TRIES",
    "DEFAULT_PATIENCE",
    "DEFAULT_SOLVABLE_CHUNK",
    "DEFAULT_TIMEOUT",
    "METHODS",
    "NoGuessBatch",
    "NoGuessResult",
    "NoGuessSettings",
    "generate_no_guess",
    "generate_no_guess_batch",
    "solvable_layouts",
]

METHODS = ("retry", "perturb")
DEFAULT_MAX_TRIES = 10_000
DEFAULT_TIMEOUT = 60.0
DEFAULT_PATIENCE = 20
DEFAULT_BATCH_CHUNK_SIZE = NO_GUESS.chunk_size


@dataclass(frozen=True, eq=False)
class NoGuessSettings:
    """The validated inputs of a generator run (everything but the seed).

    Declared once: `NoGuessResult` and `NoGuessBatch` open with these fields, and
    their table rows with `settings_columns`. ``eq=False`` leaves equality to
    `minestats.foundations.result.Result`, their other base.

    Attributes
    ----------
    board : Board
    click : tuple of int
    method, solver, rule : str
    use_mine_count : bool
    max_configurations, max_tries : int
    timeout : float or None
    patience : int
    """

    board: Board
    click: tuple[int, int]
    method: str
    solver: str
    rule: str
    use_mine_count: bool
    max_configurations: int
    max_tries: int
    timeout: float | None
    patience: int

    def settings_columns(self) -> dict:
        """Return the columns that open a result's table row: the setting, then the limits."""
        return {**setting_columns(self.board, self.rule, self.click, size=True),
                "method": self.method, "solver": self.solver,
                "use_mine_count": self.use_mine_count,
                "max_configurations": self.max_configurations, "max_tries": self.max_tries,
                "timeout": self.timeout, "patience": self.patience}


def _config(board, click, method, solver, rule, use_mine_count, max_configurations,
            max_tries, timeout, patience) -> NoGuessSettings:
    board = resolve_board(board)
    if method not in METHODS:
        raise ValueError(f"method {quoted(method)} is not one of {', '.join(METHODS)}")
    options = SolverOptions(solver, use_mine_count, max_configurations)
    setting = Setting.resolve(board, rule, click)
    return NoGuessSettings(board=board, click=setting.click, method=method,
                           solver=options.solver, rule=setting.rule,
                           use_mine_count=options.use_mine_count,
                           max_configurations=options.max_configurations,
                           max_tries=check_count("max_tries", max_tries),
                           timeout=check_timeout(timeout),
                           patience=check_count("patience", patience))


@dataclass(frozen=True, eq=False)
class NoGuessResult(NoGuessSettings, Result):
    """Outcome of `generate_no_guess`: the board (or failure), the effort, the inputs.

    Attributes
    ----------
    board, click, method, solver, rule, use_mine_count, max_configurations,
    max_tries, timeout, patience
        The inputs (`NoGuessSettings`).
    seed : int or str
        Seed label (see `minestats.foundations.seeds.resolve_seed`).
    layout : numpy.ndarray of bool, shape (height, width), or None
        The verified layout (read-only), or None when ``ok`` is False.
    ok : bool
        A verified board was found within the limits.
    tries : int
        Placements drawn (for ``perturb``, a regeneration is a new try).
    rounds : int
        Solves from scratch, over all tries.
    perturbations : int
        Mines relocated by ``perturb``, over all tries (0 for ``retry``).
    round_perturbations : tuple of int
        Mines relocated after each solve of the last try, in order; a success ends
        with the 0 of its verifying solve, and ``retry`` records just that ``(0,)``.
    seconds : float
        Wall time of the call.
    """

    seed: int | str
    layout: np.ndarray | None = field(repr=False)
    ok: bool
    tries: int
    rounds: int
    perturbations: int
    round_perturbations: tuple[int, ...]
    seconds: float
    mines = RenamedAttribute("layout", removed_in="0.4")

    def to_dict(self) -> dict:
        """One table row: inputs and effort; the layout as its mined linear indices.

        Examples
        --------
        >>> row = generate_no_guess("9x9/10", "centre", seed=1).to_dict()
        >>> row["ok"], row["method"], row["seed"], len(row["mine_cells"].split())
        (True, 'retry', 1, 10)
        """
        cells = "" if self.layout is None else " ".join(
            str(i) for i in np.flatnonzero(self.layout.ravel()))
        return {**self.settings_columns(), "seed": self.seed, "ok": self.ok, "tries": self.tries,
                "rounds": self.rounds, "perturbations": self.perturbations,
                "round_perturbations": " ".join(map(str, self.round_perturbations)),
                "seconds": self.seconds, "mine_cells": cells}


class _Clock:
    """Wall-clock deadline of one call; None means no time limit."""

    def __init__(self, timeout):
        self.start = time.perf_counter()
        self.deadline = math.inf if timeout is None else self.start + timeout

    def expired(self) -> bool:
        return time.perf_counter() >= self.deadline

    def elapsed(self) -> float:
        return time.perf_counter() - self.start


def _solve(config: NoGuessSettings, layout: np.ndarray):
    return solve(layout, config.click, solver=config.solver,
                 use_mine_count=config.use_mine_count,
                 max_configurations=config.max_configurations)


def _protected(config: NoGuessSettings) -> np.ndarray:
    """Cells moves never mine (flat mask): those the rule protects, and always the click.

    The click's 3x3 for ``safe-opening``, else the click: under ``uniform`` the rule may
    mine the click, but a no-guess board may not.
    """
    protected = np.zeros(config.board.cells, dtype=bool)
    protected[list(resolve_rule(config.rule).protected_cells(config.board, config.click))] = True
    protected[config.board.index(config.click)] = True
    return protected


def _perturb_try(config, layout, rng, clock, table, protected):
    """Solve, move, solve again from scratch, until a solve passes or progress stops.

    Returns ``(passed, rounds, per_round)`` and leaves the final layout in ``layout``.
    """
    per_round = []
    fewest, stale = math.inf, 0
    while True:
        result = _solve(config, layout.reshape(config.board.shape))
        if result.solved and not result.capped:
            per_round.append(0)
            return True, len(per_round), per_round
        undecided = config.board.cells - int(result.revealed.sum() + result.flagged.sum())
        if undecided < fewest:
            fewest, stale = undecided, 0
        else:
            stale += 1
        if result.lost or stale >= config.patience or clock.expired():
            return False, len(per_round) + 1, per_round
        moved = perturb_once(layout, result, table, protected, rng)
        if moved == 0:
            return False, len(per_round) + 1, per_round
        per_round.append(moved)


def _generate(config: NoGuessSettings, seed_sequence, label) -> NoGuessResult:
    """Run one generator call from a resolved seed."""
    clock = _Clock(config.timeout)
    rng = np.random.default_rng(seed_sequence)
    table = config.board.neighbour_table
    protected = _protected(config)
    setting = Setting(config.board, config.rule, config.click)  # checked by `_config`
    tries = rounds = perturbations = 0
    per_round, passed, layout = [], False, None
    while not passed and tries < config.max_tries and not clock.expired():
        tries += 1
        layout = setting.layouts(1, rng)[0].ravel()
        if config.method == "retry":
            result = _solve(config, layout.reshape(config.board.shape))
            passed = result.solved and not result.capped
            used, per_round = 1, [0] if passed else []
        else:
            passed, used, per_round = _perturb_try(config, layout, rng, clock, table,
                                                   protected)
        rounds += used
        perturbations += sum(per_round)
    verified = layout.reshape(config.board.shape) if passed else None
    return NoGuessResult(**vars(config), seed=label, layout=verified, ok=passed, tries=tries,
                         rounds=rounds, perturbations=perturbations,
                         round_perturbations=tuple(per_round), seconds=clock.elapsed())


def generate_no_guess(board, click, *, method="retry", solver="logic", rule=NO_GUESS.rule,
                      seed=None, max_tries=DEFAULT_MAX_TRIES, timeout=DEFAULT_TIMEOUT,
                      use_mine_count=True, max_configurations=DEFAULT_MAX_CONFIGURATIONS,
                      patience=DEFAULT_PATIENCE) -> NoGuessResult:
    """Generate a board that ``solver`` finishes from ``click`` without guessing.

    Parameters
    ----------
    board : Board or str
        A `Board`, a preset name or ``"WxH/M"``.
    click : tuple of int or str
        The first click: ``(x, y)``, ``"x,y"``, ``"centre"`` or ``"corner"``.
    method : {'retry', 'perturb'}, optional
        See the notes.
    solver : {'logic', 'subset', 'single-point', 'exhaustive'}, optional
        The solver that must pass the board (`minestats.solvers.solve`).
    rule : str, optional
        First-click rule that places the mines (default ``'safe-opening'``).
    seed : str, int, numpy.random.SeedSequence, numpy.random.Generator or None
        See `minestats.foundations.seeds`; a date string gives a daily board.
    max_tries : int, optional
        Most placements to draw (``perturb``: regenerations count).
    timeout : float or None, optional
        Wall-clock limit in seconds, checked between solves (so it may be overrun by
        one solve); None for none.
    use_mine_count, max_configurations
        Passed to the solver; a capped solve does not pass.
    patience : int, optional
        ``perturb`` regenerates after this many solves in a row that leave no fewer
        undecided cells than its best solve of the placement.

    Returns
    -------
    NoGuessResult
        ``ok=True`` with ``layout`` verified, or ``ok=False`` and ``layout=None``.

    Raises
    ------
    ValueError
        For an unknown board, method, solver or rule, a click off the board, a rule
        that cannot place the mines, or a bad limit.

    Notes
    -----
    ``retry`` draws a placement, solves it from the click and keeps the first one
    that passes; the boards are uniform among the rule's boards the solver passes.

    ``perturb`` (after Simon Tatham) works in *rounds*. A round solves the current
    layout from scratch from the click, with the public `minestats.solvers.solve`:
    no solver state survives a move, because a move can invalidate deductions made
    before it. If the solve passes, that solve is the verification and the board is
    returned. Otherwise the solver is stuck: every revealed number with unknown
    neighbours (the stuck frontier) still has ``0 < r < u`` of its ``u`` unknown
    neighbours mined. The move picks one such number and makes its constraint
    trivial, either

    - *clear*: its ``r`` mined unknown neighbours become safe and ``r`` mine-free
      unknown cells elsewhere take their mines (the number then reads its flags
      only, and single-point opens its neighbours), or
    - *fill*: its ``u - r`` safe unknown neighbours become mines, taken from ``u - r``
      mined unknown cells elsewhere (single-point then flags them all).

    The move relocating the fewest mines is made, over all stuck numbers and both
    kinds, ties broken at random; the mine count is kept. The mines go to (come
    from) cells outside that neighbourhood and outside the protected cells (the
    click's closed neighbourhood for ``safe-opening``, the click for the other
    rules), chosen uniformly at random in this order of preference: unknown cells
    touching no revealed number (so no other revealed number changes), then other
    unknown cells, then cells already decided (opened or flagged), which are needed
    only in end games such as a 50/50 with no unknown cell elsewhere. When no
    revealed number has an unknown neighbour (the unknown cells are walled off by
    flagged mines), the move instead clears one flagged mine that touches an unknown
    cell, sending its mine to a free cell by the same preference.

    The mines relocated after a round's solve are that round's perturbations
    (`NoGuessResult.round_perturbations`). Unlike Tatham's solver, which carries its
    deductions across a move and re-solves from scratch only after a whole pass,
    every round here is a clean solve, so rounds cannot be compared by their number
    of moves (one each); progress is instead the number of cells a round leaves
    undecided (neither open nor flagged): fewer is progress. After ``patience``
    rounds in a row without a new fewest, when no move is possible, or when the first
    click loses (``uniform``), the placement is dropped and a fresh one drawn, which
    counts as a new try. Rounds per try are thus bounded, and ``max_tries`` and
    ``timeout`` bound the whole call.

    Clear moves relocate fewer mines whenever a stuck number has fewer mined than
    safe unknown neighbours, as it usually does, so mines drift away from the
    opened region. The boards are not uniform among solvable boards: at 30x16/130
    their mine frequencies differ from those of solvable rule boards, while on the
    presets no difference shows (see `minestats.experiments.no_guess_bias`).

    Examples
    --------
    >>> result = generate_no_guess("9x9/10", "centre", seed="2026-11-29")
    >>> result.ok, result.seed, int(result.layout.sum()), result.round_perturbations
    (True, '2026-11-29', 10, (0,))
    >>> solve(result.layout, "centre").solved
    True
    >>> dense = generate_no_guess("16x16/80", "centre", method="perturb", seed=3)
    >>> dense.ok, dense.round_perturbations[-1], solve(dense.layout, "centre").solved
    (True, 0, True)
    >>> generate_no_guess("16x16/80", "centre", seed=3, max_tries=1).layout is None
    True
    """
    config = _config(board, click, method, solver, rule, use_mine_count, max_configurations,
                     max_tries, timeout, patience)
    seed_sequence, label = resolve_seed(seed)
    return _generate(config, seed_sequence, label)


_PER_BOARD = ("ok", "tries", "rounds", "perturbations", "seconds")
"""The fields of `NoGuessResult` that `NoGuessBatch` keeps per board, besides the layout."""


def _batch_chunk(config, size, seed_sequence) -> Tally:
    """Generate a chunk's boards: board k from child k of its sequence (`chunk_seeds`).

    Returns the chunk's per-board arrays of `NoGuessBatch` (``layouts`` all False where a
    board failed), one entry per board.
    """
    results = [_generate(config, board_seed, seed_label(board_seed))
               for board_seed in chunk_seeds(seed_sequence, size)]
    layouts = np.zeros((size, *config.board.shape), dtype=bool)
    for index, result in enumerate(results):
        if result.ok:
            layouts[index] = result.layout
    return Tally({"layouts": layouts, **{name: np.array([getattr(result, name)
                                                         for result in results])
                                         for name in _PER_BOARD}})


@dataclass(frozen=True, repr=False, eq=False)
class NoGuessBatch(NoGuessSettings, ProportionResult):
    """Outcome of `generate_no_guess_batch`: per-board arrays and the inputs.

    Board ``k`` of chunk ``i`` was generated from child ``k`` of chunk ``i``'s seed
    sequence (seed label ``"seed/i/k"``): `generate_no_guess` with
    ``seed=SeedSequence(as_seed_sequence(seed).entropy, spawn_key=(i, k))`` (see
    `minestats.foundations.seeds`)
    returns the same board.

    Attributes
    ----------
    board, click, method, solver, rule, use_mine_count, max_configurations,
    max_tries, timeout, patience
        The inputs (`NoGuessSettings`).
    n : int
        Boards asked for.
    seed : int or str
        Seed label of the batch.
    chunk_size : int
    layouts : numpy.ndarray of bool, shape (n, height, width)
        The verified layouts; all False where ``ok`` is False.
    ok : numpy.ndarray of bool, shape (n,)
    tries, rounds, perturbations : numpy.ndarray of int, shape (n,)
    seconds : numpy.ndarray of float, shape (n,)
        Wall time per board, as in `NoGuessResult`.

    The success rate (``proportion``) and its interval (``proportion_ci``) come
    from `minestats.stats.ProportionResult`; `per_board` tabulates the boards.
    """

    n: int
    seed: int | str
    chunk_size: int
    layouts: np.ndarray = field(repr=False)
    ok: np.ndarray = field(repr=False)
    tries: np.ndarray = field(repr=False)
    rounds: np.ndarray = field(repr=False)
    perturbations: np.ndarray = field(repr=False)
    seconds: np.ndarray = field(repr=False)
    mines = RenamedAttribute("layouts", removed_in="0.4")

    @property
    def successes(self) -> int:
        """Boards generated within the limits."""
        return int(self.ok.sum())

    def board_seeds(self) -> list[str]:
        """Seed label of every board, ``"seed/i/k"`` for board ``k`` of chunk ``i``."""
        return [f"{self.seed}/{index // self.chunk_size}/{index % self.chunk_size}"
                for index in range(self.n)]

    def per_board(self) -> pd.DataFrame:
        """One row per board: its seed label, outcome and effort."""
        return pd.DataFrame({"seed": self.board_seeds(), "ok": self.ok, "tries": self.tries,
                             "rounds": self.rounds, "perturbations": self.perturbations,
                             "seconds": self.seconds})

    def to_dict(self, *, confidence_level=DEFAULT_CONFIDENCE_LEVEL) -> dict:
        """One table row: inputs, success rate with its Wilson interval, effort quantiles.

        Tries, rounds and perturbations are summarised over all boards (a failed
        board counts at the effort it spent before its limit), by mean, median, 95th
        percentile and maximum; wall time per board by median and 95th percentile.

        Examples
        --------
        >>> batch = generate_no_guess_batch("9x9/10", "centre", n=20, seed=5, workers=1)
        >>> row = batch.to_dict()
        >>> row["n"], row["successes"], row["seed"], row["perturbations_max"]
        (20, 20, 5, 0)
        >>> bool(row["ci_low"] < 1 == row["success_rate"])
        True
        """
        low, high = self.proportion_ci(confidence_level)
        row = {**self.settings_columns(), "n": self.n, "seed": self.seed,
               "chunk_size": self.chunk_size, "successes": self.successes,
               "success_rate": self.successes / self.n, "ci_low": low, "ci_high": high,
               "confidence_level": confidence_level}
        for name in ("tries", "rounds", "perturbations"):
            values = getattr(self, name)
            row |= {f"{name}_mean": float(values.mean()),
                    f"{name}_median": float(np.median(values)),
                    f"{name}_p95": float(np.quantile(values, 0.95)),
                    f"{name}_max": int(values.max())}
        return row | {"seconds_median": float(np.median(self.seconds)),
                      "seconds_p95": float(np.quantile(self.seconds, 0.95))}


@shared_parameters(trials="Boards", chunk_size=DEFAULT_BATCH_CHUNK_SIZE)
def generate_no_guess_batch(board, click, *, n, method="retry", solver="logic",
                            rule=NO_GUESS.rule, seed=None, max_tries=DEFAULT_MAX_TRIES,
                            timeout=DEFAULT_TIMEOUT, use_mine_count=True,
                            max_configurations=DEFAULT_MAX_CONFIGURATIONS,
                            patience=DEFAULT_PATIENCE,
                            chunk_size=DEFAULT_BATCH_CHUNK_SIZE, workers=-1, store=None,
                            progress=False) -> NoGuessBatch:
    """Generate ``n`` no-guess boards in seeded chunks over workers.

    Each board is one `generate_no_guess` call with its own seed (see
    `NoGuessBatch`), so the boards depend only on ``seed``, ``n`` and
    ``chunk_size``, never on the number of workers (time limits aside).

    Parameters
    ----------
    board, click, method, solver, rule, max_tries, timeout, use_mine_count,
    max_configurations, patience
        As in `generate_no_guess`, the same for every board.
    n : int
        Boards to generate.
    %(seed)s
    %(chunk_size)s
    %(workers)s
    %(store)s
    %(progress)s

    Returns
    -------
    NoGuessBatch

    Examples
    --------
    >>> batch = generate_no_guess_batch("30x16/130", "centre", n=4, method="perturb",
    ...                                 seed="2026-11-29", chunk_size=2, workers=1)
    >>> batch.successes, batch.board_seeds()[3], batch.layouts.shape
    (4, '2026-11-29/1/1', (4, 16, 30))
    >>> int(batch.layouts[3].sum()), solve(batch.layouts[3], "centre").solved
    (130, True)
    """
    config = _config(board, click, method, solver, rule, use_mine_count, max_configurations,
                     max_tries, timeout, patience)
    n = check_n(n)
    seed_sequence, label = resolve_seed(seed)
    [chunks] = run_jobs(_batch_chunk, [(config, seed_sequence)], n=n,
                        chunk_size=chunk_size, workers=workers, store=store,
                        progress=progress, per_chunk=True)
    boards = Tally.concatenate(chunks)
    return NoGuessBatch(**vars(config), n=n, seed=label, chunk_size=int(chunk_size),
                        **boards)


DEFAULT_SOLVABLE_CHUNK = 2_000
"""Rule boards drawn a chunk by `solvable_layouts`."""
DEFAULT_MAX_DRAWS = 100_000_000
"""Rule boards `solvable_layouts` draws at most for ``count`` solvable ones."""


def _solvable_chunk(task):
    """Rule boards of one chunk that the solver passes, and their positions in the chunk."""
    setting, solver, size, seed_sequence = task
    layouts = setting.layouts(size, seed_sequence)
    solved = solve_batch(layouts, setting.click, solver=solver).solved
    return layouts[solved], np.flatnonzero(solved)


def solvable_layouts(board, click, *, rule=NO_GUESS.rule, solver="logic", seed=None,
                     draws=None, count=None, chunk_size=DEFAULT_SOLVABLE_CHUNK,
                     round_chunks=1, max_draws=DEFAULT_MAX_DRAWS,
                     workers=-1) -> tuple[np.ndarray, int]:
    """Draw the rule's boards that a solver passes, by rejection: a generator's reference.

    Rule boards are drawn in chunks (`minestats.mechanics.sampling.chunk_layouts`: chunk
    ``j`` from child ``j`` of the seed), each solved from the click
    (`minestats.solvers.solve_batch`, with the mine count), and those solved are kept
    in the order drawn: a sample of the rule's distribution conditioned on the solver
    passing, which is what ``retry`` samples and what any no-guess generator is
    measured against. Either every solvable board among ``draws`` rule boards, or the
    first ``count``, running ``round_chunks`` chunks at a time until enough are found:
    the first ``count`` accepted draws of an i.i.d. sequence are i.i.d. solvable boards,
    and they do not depend on ``round_chunks``.

    Parameters
    ----------
    board : Board or str
    click : tuple of int or str
    rule : str, optional
        The first-click rule that draws the boards (default ``'safe-opening'``).
    solver : str, optional
        The solver that must pass them (default ``'logic'``).
    seed : int, str, numpy.random.SeedSequence or None
    draws : int, optional
        Rule boards to draw; every solvable one among them is kept.
    count : int, optional
        Without ``draws``: solvable boards to keep, the first ones found.
    chunk_size : int, optional
        Rule boards a chunk (default `DEFAULT_SOLVABLE_CHUNK`).
    round_chunks : int, optional
        With ``count``: chunks run at a time (the workers' share of one round).
    max_draws : int, optional
        With ``count``: give up after this many rule boards (default
        `DEFAULT_MAX_DRAWS`), where the solver passes almost none.
    workers : int, executor or map-like callable, optional
        As in `minestats.runs.chunks.map_chunks`.

    Returns
    -------
    layouts : numpy.ndarray of bool, shape (boards, height, width)
    draws : int
        Rule boards drawn for them: ``draws`` itself, or with ``count`` the draws up
        to and including the last board kept.

    Examples
    --------
    >>> layouts, used = solvable_layouts("9x9/10", "centre", seed=3, count=5, chunk_size=50,
    ...                                  workers=1)
    >>> layouts.shape, used <= 50, all(solve(layout, "centre").solved for layout in layouts)
    ((5, 9, 9), True, True)
    """
    setting = Setting.resolve(board, rule, click)
    options = SolverOptions(solver)
    chunk_size = check_count("chunk_size", chunk_size)
    round_chunks = check_count("round_chunks", round_chunks)
    seed_sequence, _ = resolve_seed(seed)
    if (draws is None) == (count is None):
        raise ValueError("give one of draws and count: every solvable board among draws "
                         "rule boards, or the first count solvable boards")
    task = (setting, options.solver)
    if draws is not None:
        sizes = chunk_sizes(check_count("draws", draws), chunk_size)
        tasks = [(*task, size, chunk_seed) for size, chunk_seed in
                 zip(sizes, chunk_seeds(seed_sequence, len(sizes)), strict=True)]
        return np.concatenate([layouts for layouts, _ in
                               map_chunks(_solvable_chunk, tasks, workers=workers)]), draws
    count, max_draws = check_count("count", count), check_count("max_draws", max_draws)
    seeds, kept, found, used = chunk_seeds(seed_sequence, sys.maxsize), [], 0, 0
    while found < count:
        if used >= max_draws:
            raise RuntimeError(f"{solver} passed {found} of {used:,} {rule} boards of "
                               f"{setting.board}, "
                               f"fewer than count ({count}) within max_draws ({max_draws:,})")
        tasks = [(*task, chunk_size, next(seeds)) for _ in range(round_chunks)]
        for layouts, positions in map_chunks(_solvable_chunk, tasks, workers=workers):
            take = min(count - found, len(layouts))
            kept.append(layouts[:take])
            found += take
            used += int(positions[take - 1]) + 1 if found == count else chunk_size
            if found == count:
                break
    return np.concatenate(kept), used
