"""The value of a move: the chance of winning if a cell is opened now and a policy plays on.

A heuristic score looks one or two reveals ahead; the value of a move is what the
rest of the game makes of it. `move_values` measures it by rollouts (Bertsekas'
rollout algorithm; Tesauro and Galperin's Monte Carlo evaluation of backgammon
moves): it draws layouts exactly from what the position leaves
(`minestats.frontier.posterior.draw_layouts`), opens each candidate on every layout,
and lets a policy that sees only what a player sees (``best`` by default) finish the
game. Every candidate meets the same layouts and the same tie-break seeds (common
random numbers), so differences between candidates are measured paired: their
intervals are Newcombe's for paired proportions and are much narrower than the
values' own.

Every layout that fits counts alike (the rules that deal layouts alike: not Windows
XP's relocation). ``tests/players/test_values.py`` checks the values against exact optimal
play on small boards, where ``best`` itself plays the exact end game.

`best_move` answers the question one step short of that: the cell ``best`` would open
in a position, as a game of its own would (a proven safe cell while there is one, else
its guess, weighed by Windows XP's rule when asked), for a reader of played games
(`minestats.drivers.game_analysis`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import pandas as pd

from minestats.foundations.compiled import compiled
from minestats.foundations.grids import parse_position
from minestats.foundations.seeds import resolve_seed
from minestats.foundations.validation import (
    DEFAULT_MAX_CONFIGURATIONS,
    check_n,
    quoted,
    resolve_policy,
    resolve_rule,
)
from minestats.frontier.engine import analyse
from minestats.frontier.posterior import draw_layouts
from minestats.mechanics.game import _flood, neighbour_counts, neighbour_table
from minestats.mechanics.rules import winxp_order
from minestats.players.kernel import BEST, BUG, WON, choose, play_on
from minestats.players.player import (
    GUESS_KINDS,
    _position_memo,
    check_strategy,
    tie_seed,
)
from minestats.players.weighing import weigh_position
from minestats.solvers.logic import logic_game
from minestats.stats.intervals import paired_difference_interval
from minestats.stats.proportions import ProportionResult

__all__ = ["DEFAULT_CANDIDATES", "BestMove", "MoveValues", "best_move", "move_values",
           "guess_positions", "rollouts", "stall_before_guess"]

DEFAULT_CANDIDATES = 10
"""Cells valued when none are named: the policy's own pick and the safest others."""


@compiled
def rollouts(layouts, table, width, mines, revealed, flagged, candidates, policy, settings,
             seeds, memo):
    """Open each candidate on each layout and play on: who won, shape (layouts, candidates).

    Parameters
    ----------
    layouts : numpy.ndarray of bool, shape (n, cells)
        Layouts that fit the position (flags mined).
    table : numpy.ndarray of int64
        The neighbour table.
    width, mines : int
    revealed, flagged : numpy.ndarray of bool, shape (cells,)
        The position; copied for every rollout.
    candidates : numpy.ndarray of int64
        The cells to open first.
    policy : int
        The continuation's policy code (`minestats.players.kernel.BEST` or ``SAFEST``).
    settings : Settings
        How ``best`` guesses.
    seeds : numpy.ndarray of int64, shape (n,)
        The tie-break seed of the games on each layout, the same for every candidate.
    memo : numba.typed.Dict
        The end game's memo (`minestats.players.kernel.new_position_memo`).

    Returns
    -------
    won : numpy.ndarray of bool, shape (n, candidates)
    sound : bool
        False if a deduction contradicted a layout (a bug).
    """
    n, cells = layouts.shape
    won = np.zeros((n, candidates.size), dtype=np.bool_)
    numbers = np.empty(cells, dtype=np.int8)
    queue = np.empty(cells, dtype=np.int64)
    moves = np.empty(cells, dtype=np.int64)
    chances = np.empty(cells)
    kinds = np.empty(cells, dtype=np.int8)
    no_relocation = np.empty(0, dtype=np.int64)
    opened_before = 0
    for cell in range(cells):
        if revealed[cell]:
            opened_before += 1
    for d in range(n):
        layout = layouts[d]
        for cell in range(cells):
            shown = 0
            for t in range(table.shape[1]):
                j = table[cell, t]
                if j < 0:
                    break
                if layout[j]:
                    shown += 1
            numbers[cell] = shown
        for c in range(candidates.size):
            if layout[candidates[c]]:
                continue
            open_cells = revealed.copy()
            flags = flagged.copy()
            np.random.seed(seeds[d])  # noqa: NPY002 (numba's generator: common ties)
            opened = _flood(candidates[c], numbers, table, open_cells, queue, opened_before)
            outcome, _, _, _ = play_on(layout, numbers, table, width, mines, open_cells, flags,
                                       opened, policy, True, DEFAULT_MAX_CONFIGURATIONS,
                                       settings, no_relocation, moves, chances, kinds, memo)
            if outcome == BUG:
                return won, False
            won[d, c] = outcome == WON
    return won, True


@compiled
def _pick(numbers, table, revealed, flagged, width, mines, probability, log_solutions, policy,
          settings, relocation, seed, memo):
    """Return the guess ``(cell, kind)`` of the policy in the position, ties seeded by ``seed``.

    ``relocation`` is Windows XP's order of the cells when the layouts are weighed by
    its rule, else empty (as for `minestats.players.kernel.play_on`).
    """
    np.random.seed(seed)  # noqa: NPY002 (numba's generator)
    return choose(numbers, table, revealed, flagged, width, mines, probability,
                  log_solutions, policy, settings, relocation, memo)


def stall_before_guess(layout, numbers, table, width, click, moves, guess):
    """Return the position ``(revealed, flagged)`` at which a game made its guess ``guess``.

    A player deduces until nothing is proven, then guesses; what it has open and
    flagged at that stall depends only on what it opened before, not on the order of
    its deductions (proving a cell safe or mined only ever adds information, so every
    order reaches the same closure). So the stall before guess k is the first click
    and the guesses ``moves[:k]``, each followed by perfect logic
    (`minestats.solvers.logic.logic_game`) until it stalls.

    Parameters
    ----------
    layout : numpy.ndarray of bool, shape (cells,)
    numbers : numpy.ndarray of int8, shape (cells,)
        The layout's numbers.
    table : numpy.ndarray of int64
        The neighbour table.
    width, click : int
    moves : numpy.ndarray of int64
        The game's guesses in order (`minestats.players.player.Games.moves`).
    guess : int
        Which guess, from 0.

    Returns
    -------
    revealed, flagged : numpy.ndarray of bool, shape (cells,)

    Raises
    ------
    ValueError
        If a guess before ``guess`` opens a mine, or a stall passes the search budget.
    """
    cells = layout.size
    revealed = np.zeros(cells, dtype=bool)
    flagged = np.zeros(cells, dtype=bool)
    queue = np.empty(cells, dtype=np.int64)
    for cell in (click, *moves[:guess]):
        if layout[cell]:
            raise ValueError(f"the game's move {cell} before guess {guess} opens a mine")
        _flood(int(cell), numbers, table, revealed, queue)
        _, capped, bad, _ = logic_game(layout, numbers, table, width, True,
                                       DEFAULT_MAX_CONFIGURATIONS, revealed, flagged)
        if capped or bad >= 0:
            raise ValueError(f"the stall after move {cell} passes the search budget")
    return revealed, flagged


def guess_positions(layouts, click, games):
    """Yield every position at which played games guessed, in game and guess order.

    Parameters
    ----------
    layouts : numpy.ndarray of bool, shape (games, height, width)
        The games' layouts.
    click : int
        Their first click, a linear index ``x + y * width``.
    games : Games
        What `minestats.players.player.play_games` made of them.

    Yields
    ------
    game, guess : int
        Which game and which of its guesses, from 0.
    revealed, flagged : numpy.ndarray of bool, shape (cells,)
        The position at that stall (`stall_before_guess`).
    numbers : numpy.ndarray of int8, shape (cells,)
        The layout's numbers (shown where ``revealed``).

    Examples
    --------
    >>> from minestats.mechanics.sampling import sample_mines
    >>> from minestats.players.player import play_games
    >>> layouts = sample_mines("9x9/10", 3, rule="safe-click", click=(0, 0), seed=2)
    >>> games = play_games(layouts, [0, 0, 0], seeds=np.random.SeedSequence(2).spawn(3))
    >>> games.guesses.tolist()
    [0, 1, 1]

    Games 1 and 2 guessed once each, right after the corner showed a number:

    >>> [(game, guess, int(revealed.sum()))
    ...  for game, guess, revealed, _, _ in guess_positions(layouts, 0, games)]
    [(1, 0, 1), (2, 0, 1)]
    """
    count, height, width = layouts.shape
    table = neighbour_table(width, height)
    flat = layouts.reshape(count, -1)
    numbers = neighbour_counts(layouts).reshape(count, -1).astype(np.int8)
    for game in range(count):
        for guess in range(int(games.guesses[game])):
            revealed, flagged = stall_before_guess(flat[game], numbers[game], table, width,
                                                   click, games.moves[game], guess)
            yield game, guess, revealed, flagged, numbers[game]


@dataclass(frozen=True, repr=False, eq=False)
class MoveValues(ProportionResult):
    """The value of each candidate move of a position (`move_values`).

    Attributes
    ----------
    cells : tuple of (int, int)
        The candidates ``(x, y)``, the policy's own pick first.
    chances : numpy.ndarray of float64
        Each candidate's exact mine probability.
    successes : numpy.ndarray of int64
        Games won after opening each candidate, out of ``n`` layouts.
    n : int
        Layouts drawn from the posterior (the same for every candidate).
    won : numpy.ndarray of bool, shape (n, candidates)
        Who won on which layout: the pairs behind the differences.
    continuation : str
        The policy that played on.
    seed : int or str
        The seed of the run (`minestats.foundations.seeds.resolve_seed`).
    """

    cells: tuple
    chances: np.ndarray
    successes: np.ndarray
    n: int
    won: np.ndarray
    continuation: str
    seed: int | str

    @property
    def win_rate(self) -> np.ndarray:
        """Each candidate's estimated chance of winning (the same as ``proportion``)."""
        return self.proportion

    @property
    def best(self) -> tuple:
        """The candidate of highest estimated value (the first of equals)."""
        return self.cells[int(np.argmax(self.successes))]

    def differences(self, confidence_level=0.95) -> list:
        """Return each candidate's value minus the best one's, with Newcombe's paired interval."""
        top = self.won[:, int(np.argmax(self.successes))]
        rows = []
        for k in range(len(self.cells)):
            mine = self.won[:, k]
            table = [[int((mine & top).sum()), int((mine & ~top).sum())],
                     [int((~mine & top).sum()), int((~mine & ~top).sum())]]
            low, high = paired_difference_interval(table, confidence_level=confidence_level)
            rows.append(((int(mine.sum()) - int(top.sum())) / self.n, low, high))
        return rows

    def per_move(self, confidence_level=0.95) -> pd.DataFrame:
        """Return one row a candidate: its cell, mine probability, value, paired difference."""
        low, high = self.proportion_ci(confidence_level)
        differences = self.differences(confidence_level)
        return pd.DataFrame({
            "x": [x for x, _ in self.cells], "y": [y for _, y in self.cells],
            "p_mine": self.chances, "wins": self.successes, "n": self.n,
            "win_rate": self.proportion, "ci_low": low, "ci_high": high,
            "difference": [d for d, _, _ in differences],
            "difference_low": [lo for _, lo, _ in differences],
            "difference_high": [hi for _, _, hi in differences],
            "continuation": self.continuation, "seed": self.seed})

    def to_dict(self, *, confidence_level=0.95) -> dict:
        """Return the best candidate's row: its cell, value, interval, n and seed."""
        k = int(np.argmax(self.successes))
        low, high = self.proportion_ci(confidence_level)
        return {"x": self.cells[k][0], "y": self.cells[k][1], "wins": int(self.successes[k]),
                "n": self.n, "win_rate": float(self.proportion[k]), "ci_low": float(low[k]),
                "ci_high": float(high[k]), "confidence_level": confidence_level,
                "continuation": self.continuation, "seed": self.seed}

    def __repr__(self) -> str:
        k = int(np.argmax(self.successes))
        low, high = self.proportion_ci()
        return (f"MoveValues best {self.cells[k]} {self.proportion[k]:.3f} "
                f"[{low[k]:.3f}, {high[k]:.3f}] n={self.n:,} seed={self.seed} "
                f"({len(self.cells)} candidates, continuation {self.continuation!r})")

    def summary(self) -> str:
        """Return the candidates as text, best value first."""
        table = self.per_move().sort_values("win_rate", ascending=False, kind="stable")
        lines = [f"Move values, n={self.n:,} layouts, seed={self.seed}, "
                 f"continuation {self.continuation!r}",
                 "cell       P(mine)  win rate [95% CI]        vs best [95% paired CI]"]
        for row in table.itertuples():
            lines.append(f"({row.x:>2}, {row.y:>2})  {row.p_mine:7.4f}  {row.win_rate:.3f} "
                         f"[{row.ci_low:.3f}, {row.ci_high:.3f}]  {row.difference:+.3f} "
                         f"[{row.difference_low:+.3f}, {row.difference_high:+.3f}]")
        return "\n".join(lines)


def _read_position(numbers, unknown, flags):
    """Return the position as a numbers grid, its unknown cells and flags (checked)."""
    if isinstance(numbers, str):
        if unknown is not None or flags is not None:
            raise ValueError("a position given as text holds its unknown cells and flags: "
                             "give neither unknown nor flags with it")
        numbers, flags = parse_position(numbers)
    grid = np.asarray(numbers)
    if grid.ndim != 2 or grid.size == 0 or grid.dtype.kind not in "iu":
        raise ValueError(f"numbers ({quoted(numbers)}) must be a 2-D grid of integers")
    unknown = grid < 0 if unknown is None else np.asarray(unknown, dtype=bool)
    flags = np.zeros(grid.shape, dtype=bool) if flags is None else np.asarray(flags, dtype=bool)
    if unknown.shape != grid.shape or flags.shape != grid.shape:
        raise ValueError(f"unknown and flags must have the numbers' shape {grid.shape}")
    if (flags & ~unknown).any():
        raise ValueError("a flag must be on an unknown cell")
    bad = grid[~unknown & ((grid < 0) | (grid > 8))]
    if bad.size:
        raise ValueError(f"a revealed number ({int(bad[0])}) must be 0 to 8")
    return np.where(unknown, 0, grid).astype(np.int8), unknown, flags


def _board_position(numbers, unknown, flags, mines):
    """Return the checked position, flat: ``grid, width, table, revealed, flagged, analysis``.

    ``analysis`` is `minestats.frontier.engine.analyse`'s (its proofs and the mine
    probabilities with every layout alike); a position no layout fits, or one whose
    deductions pass the search budget, is refused.
    """
    if isinstance(mines, bool) or not isinstance(mines, int | np.integer) or mines < 0:
        raise ValueError(f"mines ({quoted(mines)}) must be a non-negative integer")
    grid, unknown, flags = _read_position(numbers, unknown, flags)
    height, width = grid.shape
    if mines > grid.size:
        raise ValueError(f"mines ({mines}) must be at most the board's {grid.size} cells")
    table = neighbour_table(width, height)
    revealed, flagged = ~unknown.ravel(), flags.ravel()
    analysis = analyse(grid.ravel(), table, revealed, flagged, width, mines,
                       budget=DEFAULT_MAX_CONFIGURATIONS)
    if analysis.status != 0:
        raise ValueError("no layout fits the position" if analysis.status == 1 else
                         "the position's deductions pass their search budget")
    return grid, width, table, revealed, flagged, analysis


class BestMove(NamedTuple):
    """The move ``best`` makes in a position (`best_move`).

    ``x``, ``y``: the cell; ``mine_probability``: its chance of being a mine, under
    the weighing ``best`` used; ``kind``: ``"safe"`` for a proven safe cell, else the
    guess's kind (`minestats.players.GUESS_KINDS`).
    """

    x: int
    y: int
    mine_probability: float
    kind: str


def best_move(numbers, *, mines, unknown=None, flags=None, rule=None, click=None, seed=None,
              strategy=None) -> BestMove:
    r"""Return the cell ``best`` would open next in a position, and its mine probability.

    As in a game of ``best``'s own: while some cell is proven safe it opens one (the
    first in reading order here; it opens them all before it guesses, so which is
    first does not matter); else it flags the proven mines and guesses as at any stall
    (`minestats.players.chooser.choose`).

    Parameters
    ----------
    numbers : array_like of int, shape (height, width), or str
        The position as for `minestats.mine_probabilities`: revealed numbers and -1 on
        unknown cells, or its text (`minestats.parse_position`).
    mines : int
        The board's total of mines, flags included.
    unknown, flags : array_like of bool, optional
        As for `minestats.mine_probabilities`; flags are taken to be mines.
    rule : {None, 'uniform', 'safe-click', 'safe-opening', 'winxp'}, optional
        The rule that dealt the board. Only ``winxp`` changes the answer: ``best``
        then weighs the layouts by it, as it does in its own games (``click`` needed).
    click : tuple of (int, int), optional
        The game's first click ``(x, y)``, for ``rule="winxp"``.
    seed : int, str or numpy.random.SeedSequence, optional
        Seeds the tie-breaks between guesses that score alike.
    strategy : Strategy, optional
        How ``best`` guesses (the default `minestats.Strategy` when None).

    Returns
    -------
    BestMove

    Raises
    ------
    ValueError
        For bad input, or a position no layout fits.

    Examples
    --------
    The 3 proves the three cells below (2, 0) mines, so (2, 0) is safe:

    >>> best_move("???10\n???20\n???30\n???20", mines=4)
    BestMove(x=2, y=0, mine_probability=0.0, kind='safe')

    A 50/50 that no further cell can settle: ``best`` takes it at once.

    >>> best_move("1?\n1?", mines=1, seed=3).kind
    'fifty-fifty'
    """
    relocates = rule is not None and resolve_rule(rule).relocates
    grid, width, table, revealed, flagged, analysis = _board_position(numbers, unknown, flags,
                                                                      mines)
    height = grid.shape[0]
    if relocates and (
            not isinstance(click, tuple | list) or len(click) != 2
            or not all(isinstance(v, int | np.integer) for v in click)
            or not (0 <= click[0] < width and 0 <= click[1] < height)):
        raise ValueError(f"click ({quoted(click)}) must be the first click (x, y) of the "
                         f"{width}x{height} board: rule {quoted(resolve_rule(rule).name)} "
                         "weighs layouts by it")
    if analysis.safe.size:
        cell = int(analysis.safe.min())
        return BestMove(cell % width, cell // width, 0.0, "safe")
    settings = check_strategy(strategy).settings()
    flagged = flagged.copy()
    flagged[analysis.mines] = True  # as a game of best's own flags them before it guesses
    probability, log_solutions = analysis.probability.copy(), analysis.log_solutions
    relocation = np.empty(0, dtype=np.int64)
    if relocates and settings.weigh_winxp:
        relocation = winxp_order(grid.size, int(click[0]) + int(click[1]) * width)
        if not revealed[relocation[0]]:  # else no layout has a leading run: alike
            log_solutions = weigh_position(grid.ravel(), table, revealed, flagged, width,
                                           mines, settings.fast_budget, probability,
                                           relocation)
    memo = _position_memo(width, height, mines, settings, relocation.size > 0)
    cell, kind = _pick(grid.ravel(), table, revealed, flagged, width, mines, probability,
                       log_solutions, BEST, settings, relocation,
                       tie_seed(resolve_seed(seed)[0]), memo)
    cell = int(cell)
    return BestMove(cell % width, cell // width, float(probability[cell]),
                    GUESS_KINDS[int(kind)])


def _cells(candidates, width, height, open_cells):
    """Return the candidates ``(x, y)`` as linear indices of unknown, unflagged cells."""
    cells = []
    for candidate in candidates:
        if (not isinstance(candidate, tuple | list) or len(candidate) != 2
                or not all(isinstance(v, int | np.integer) for v in candidate)
                or not (0 <= candidate[0] < width and 0 <= candidate[1] < height)):
            raise ValueError(f"candidate ({quoted(candidate)}) must be a cell (x, y) of the "
                             f"{width}x{height} board")
        cell = int(candidate[0]) + int(candidate[1]) * width
        if not open_cells[cell]:
            raise ValueError(f"candidate ({quoted(candidate)}) must be an unknown, unflagged cell")
        if cell in cells:
            raise ValueError(f"candidate ({quoted(candidate)}) is named twice")
        cells.append(cell)
    if not cells:
        raise ValueError("candidates must name at least one cell")
    return cells


def move_values(numbers, *, mines, unknown=None, flags=None, candidates=None, n=1000,
                seed=None, continuation="best", strategy=None) -> MoveValues:
    r"""Estimate the chance of winning after each candidate move, by exact-posterior rollouts.

    Parameters
    ----------
    numbers : array_like of int, shape (height, width), or str
        The position as for `minestats.mine_probabilities`: revealed numbers and -1 on
        unknown cells, or its text (`minestats.parse_position`).
    mines : int
        The board's total of mines, flags included.
    unknown, flags : array_like of bool, optional
        As for `minestats.mine_probabilities`; flags are taken to be mines.
    candidates : sequence of (int, int), optional
        The cells ``(x, y)`` to value. By default the continuation's own pick and the
        `DEFAULT_CANDIDATES` - 1 safest other cells (ties in reading order).
    n : int, optional
        Layouts drawn from the posterior; every candidate is played on each.
    seed : int, str or numpy.random.SeedSequence, optional
        Seeds the layouts and the tie-breaks (`minestats.foundations.seeds`).
    continuation : {'best', 'safest'}, optional
        The policy that plays on after the candidate is opened.
    strategy : Strategy, optional
        How ``best`` guesses (the default `minestats.Strategy` when None).

    Returns
    -------
    MoveValues

    Raises
    ------
    ValueError
        For bad input, a position no layout fits, or a candidate that is not an
        unknown, unflagged cell of the board.

    Notes
    -----
    Each value is a proportion of ``n`` games with a Wilson interval; two candidates
    are compared on the same layouts, so `MoveValues.differences` is far more precise
    than the values. With the exact continuation the value of a move is its exact
    winning chance; with ``best`` it is the chance that ``best`` wins from there, a
    lower bound of the exact one (the rollout algorithm improves on its base policy:
    choosing the move of highest value is never worse than the base policy's move,
    up to the noise of ``n``).

    References
    ----------
    D. P. Bertsekas, J. N. Tsitsiklis and C. Wu, "Rollout algorithms for combinatorial
    optimization", Journal of Heuristics 3 (1997), 245-262.
    G. Tesauro and G. R. Galperin, "On-line policy improvement using Monte-Carlo
    search", Advances in Neural Information Processing Systems 9 (1996).

    Examples
    --------
    A 5x4 board with 4 mines, its two right columns open: the 3 proves the three mines
    below (2, 0), so that cell is safe, and the fourth mine is one of the 8 cells on the
    left. Opened now, the safe cell wins 3/4 of the time with optimal play after it, the
    far corner 5/8 (`minestats.players.optimal`); on this small board ``best`` plays the
    exact end game, so the rollouts estimate those values.

    >>> values = move_values("???10\n???20\n???30\n???20", mines=4,
    ...                      candidates=[(2, 0), (0, 0), (2, 2)], n=2000, seed=1)
    >>> values.chances.round(3).tolist(), values.best
    ([0.0, 0.125, 1.0], (2, 0))
    >>> [round(float(v), 2) for v in values.win_rate]
    [0.74, 0.63, 0.0]
    """
    policy = resolve_policy(continuation).code
    n = check_n(n)
    grid, width, table, revealed, flagged, analysis = _board_position(numbers, unknown, flags,
                                                                      mines)
    height = grid.shape[0]
    settings = check_strategy(strategy).settings()
    sequence, label = resolve_seed(seed)
    layout_seed, pick_seed, tie_seeds = sequence.spawn(3)
    flat = grid.ravel()
    open_cells = ~revealed & ~flagged
    memo = _position_memo(width, height, mines, settings, False)
    if candidates is None:
        pick = int(_pick(flat, table, revealed, flagged, width, mines,
                         analysis.probability.copy(), analysis.log_solutions, policy,
                         settings, np.empty(0, dtype=np.int64), tie_seed(pick_seed),
                         memo)[0])
        others = [cell for cell in np.argsort(np.where(open_cells, analysis.probability, 2.0),
                                              kind="stable")[:DEFAULT_CANDIDATES]
                  if open_cells[cell] and cell != pick]
        cells = [pick, *others[:DEFAULT_CANDIDATES - 1]]
    else:
        cells = _cells(candidates, width, height, open_cells)
    layouts = draw_layouts(flat, table, revealed, flagged, width, mines, n,
                           tie_seed(layout_seed))
    seeds = np.array([tie_seed(s) for s in tie_seeds.spawn(n)], dtype=np.int64)
    won, sound = rollouts(layouts, table, width, mines, revealed, flagged,
                          np.array(cells, dtype=np.int64), policy, settings, seeds, memo)
    if not sound:
        raise RuntimeError("a deduction contradicted a layout drawn from the posterior (a bug)")
    return MoveValues(cells=tuple((cell % width, cell // width) for cell in cells),
                      chances=analysis.probability[cells], successes=won.sum(axis=0),
                      n=n, won=won, continuation=continuation, seed=label)
