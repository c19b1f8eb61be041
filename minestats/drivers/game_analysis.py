"""How safe each click of a played game was, and how lucky the game: forced guesses, luck.

For every click after the first (an ``open`` or a ``chord`` of a `RecordedGame`),
the position the player saw before it, the revealed numbers and the mine count (the
player's own flags are beliefs, not information, so they are left out), gives:

- ``mine_probability``: the chance that the click opens a mine, exactly
  (`minestats.inference.mine_probabilities`, under Windows XP's weighing for
  ``rule="winxp"``). For an open it is the cell's mine probability; for a chord, the
  chance that any cell it opens is a mine (the exact engine counts the layouts that
  leave them all safe; under ``winxp`` with two or more uncertain cells it is NaN);
- ``safe_existed``: whether some hidden cell was certainly safe;
- ``guess``: the click could open a mine; ``forced``: a guess with no safe cell left;
- ``best_x``, ``best_y``, ``best_kind``: the move ``best`` would have made there
  (`minestats.players.values.best_move`: a proven safe cell while one exists, else
  its guess, weighed by Windows XP's rule under ``winxp`` as in its own games), and
  ``best_probability``, that cell's exact mine probability.

A game's luck is the product of its clicks' survival chances, ``1 - mine_probability``;
a loss is forced when the click that lost was a forced guess. The first click is not
analysed: its safety is the software's rule, which the replay does not record.
`summarise_games` makes a folder of games a table per board with Wilson intervals.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import pandas as pd

from minestats.foundations.board import Board
from minestats.foundations.result import Result, setting_columns
from minestats.foundations.seeds import resolve_seed
from minestats.foundations.validation import (
    DEFAULT_CONFIDENCE_LEVEL,
    DEFAULT_EXACT_CONFIGURATIONS,
    check_confidence_level,
    check_rule_name,
    resolve_rule,
)
from minestats.inference import mine_probabilities
from minestats.inference.consistency import board_constraints
from minestats.inference.constraints import solve_constraints
from minestats.mechanics.game import neighbour_counts
from minestats.mechanics.recorded_games import RecordedGame, replay_actions
from minestats.players.values import best_move
from minestats.stats import wilson_interval

__all__ = ["CLICK_COLUMNS", "GameAnalysis", "analyse_game", "summarise_games"]

CLICK_COLUMNS = ("number", "seconds", "kind", "x", "y", "mine_probability", "safe_existed",
                 "guess", "forced", "hit_mine", "best_x", "best_y", "best_kind",
                 "best_probability")
"""The columns of `GameAnalysis.per_click`, one row a click after the first."""


@dataclass(frozen=True, eq=False)
class GameAnalysis(Result):
    """A played game, click by click: how safe each was, the forced guesses, the luck.

    ``clicks`` is `per_click`'s table; ``outcome`` is ``won``, ``lost`` or
    ``unfinished``; ``seed`` seeded the tie-breaks of ``best``'s moves. With
    ``analyse_game(..., positions=True)``, ``positions`` holds, for each row of
    ``clicks``, the numbers the player saw (-1 hidden) and every hidden cell's mine
    probability, both ``(height, width)``; else it is empty.
    """

    board: Board
    rule: str | None
    click: tuple[int, int]
    source: str
    outcome: str
    clicks: pd.DataFrame
    seed: int | str
    positions: tuple = ()

    @property
    def guesses(self) -> int:
        """The clicks that could open a mine."""
        return int(self.clicks["guess"].sum())

    @property
    def forced_guesses(self) -> int:
        """The guesses made with no certainly safe cell left."""
        return int(self.clicks["forced"].sum())

    @property
    def luck(self) -> float:
        """The product of the clicks' survival chances (1 when no click was a guess)."""
        return float(np.prod(1 - self.clicks["mine_probability"].to_numpy(float)))

    @property
    def loss_forced(self) -> bool | None:
        """On a loss, whether the click that lost was a forced guess; None otherwise."""
        if self.outcome != "lost":
            return None
        return bool(self.clicks["forced"].to_numpy()[self.clicks["hit_mine"].to_numpy()].any())

    def per_click(self) -> pd.DataFrame:
        """One row a click after the first: `CLICK_COLUMNS`."""
        return self.clicks.copy()

    def to_dict(self) -> dict:
        """Return the game's row: setting, source, outcome, clicks, guesses, forced, luck."""
        return setting_columns(self.board, self.rule, self.click) | {
            "source": self.source, "outcome": self.outcome, "clicks": len(self.clicks),
            "guesses": self.guesses, "forced_guesses": self.forced_guesses,
            "luck": self.luck, "loss_forced": self.loss_forced, "seed": self.seed}


def _chord_risk(numbers, unknown, cells, probability, mines, relocates, max_configurations):
    """Return the chance that a chord opening ``cells`` (flat) opens a mine.

    NaN for more than one uncertain cell under a relocating rule, whose joint chances
    the engine does not count.
    """
    uncertain = [cell for cell in cells if probability.flat[cell] > 0]
    if len(uncertain) <= 1:
        return float(probability.flat[uncertain[0]]) if uncertain else 0.0
    if relocates:
        return math.nan
    problem = board_constraints(numbers, unknown=unknown, mines=mines)
    local = np.cumsum(problem.open_cells) - 1
    constraints = list(problem.constraints)
    cells_total = int(problem.open_cells.sum())
    every = solve_constraints(constraints, cells_total, mines=problem.left,
                              max_configurations=max_configurations)
    safe = solve_constraints(constraints + [(tuple(int(local[c]) for c in cells), 0)],
                             cells_total, mines=problem.left,
                             max_configurations=max_configurations)
    if every.capped or safe.capped:
        return math.nan
    return float(1 - Fraction(safe.count, every.count))


def analyse_game(game: RecordedGame, *, rule=None, seed=0, positions=False,
                 max_configurations=DEFAULT_EXACT_CONFIGURATIONS) -> GameAnalysis:
    """Analyse every click of a played game after the first: its risk, and the game's luck.

    Parameters
    ----------
    game : minestats.mechanics.recorded_games.RecordedGame
        As `minestats.io.replays.read_replay` reads it.
    rule : {None, 'uniform', 'safe-click', 'safe-opening', 'winxp'}, optional
        The rule that dealt the board, when known: only ``winxp`` changes the
        probabilities (its layouts weigh unequally); None weighs every layout that
        fits alike.
    seed : int, str or numpy.random.SeedSequence, optional
        Seeds the tie-breaks of ``best``'s moves (click k draws from the k-th child
        of its sequence), so the same game and seed give the same answer.
    positions : bool, optional
        Keep each analysed position and its probabilities (`GameAnalysis.positions`),
        to draw the game; off by default, to keep a folder's games small.
    max_configurations : int or None, optional
        The exact search's budget per position, as in `mine_probabilities`.

    Returns
    -------
    GameAnalysis

    Raises
    ------
    ValueError
        If the game's actions do not fit its layout
        (`minestats.mechanics.recorded_games.replay_actions`).
    minestats.foundations.validation.SearchBudgetExceeded
        When a position needs more than ``max_configurations``.

    Examples
    --------
    A 3x2 board, one mine at (2, 1). The first click at (0, 0) shows 0 and opens
    (0, 0), (1, 0), (0, 1), (1, 1); the two 1s at (1, 0) and (1, 1) leave the mine
    at (2, 0) or (2, 1), one each: the click at (2, 0) is a forced 50/50, won.

    >>> from minestats.mechanics.recorded_games import Action
    >>> mines = np.array([[0, 0, 0], [0, 0, 1]], bool)
    >>> game = RecordedGame(mines, (0, 0), (Action(0.0, "open", 0, 0),
    ...                                     Action(2.5, "open", 2, 0)))
    >>> result = analyse_game(game)
    >>> result.per_click()[["x", "y", "mine_probability", "safe_existed", "forced"]]
       x  y  mine_probability  safe_existed  forced
    0  2  0               0.5         False    True
    >>> result.per_click()[["best_x", "best_y", "best_kind", "best_probability"]]
       best_x  best_y    best_kind  best_probability
    0       2       0  fifty-fifty               0.5
    >>> result.outcome, result.forced_guesses, result.luck
    ('won', 1, 0.5)
    """
    rule = None if rule is None else check_rule_name(rule)
    relocates = rule is not None and resolve_rule(rule).relocates
    layout = np.asarray(game.mines, dtype=bool)
    height, width = layout.shape
    board = Board(width, height, int(layout.sum()))
    turns, end = replay_actions(game)
    numbers = neighbour_counts(layout)
    sequence, label = resolve_seed(seed)
    ties = sequence.spawn(len(turns) + 1)
    rows, kept = [], []
    for number, turn in enumerate(turns, start=1):
        action = turn.action
        if action.kind not in ("open", "chord") or not turn.revealed.any():
            continue  # a flag, or the first click
        hidden = ~turn.revealed
        shown = np.where(turn.revealed, numbers, -1)
        # counted exactly: each float is its exact fraction rounded once
        probability = mine_probabilities(shown, unknown=hidden, mines=board.mines, exact=True,
                                         rule=rule,
                                         click=game.click if relocates else None,
                                         max_configurations=max_configurations).probability
        index = action.x + action.y * width
        if action.kind == "open":
            cells = [index]
        else:
            cells = [j for j in board.neighbour_table[index]
                     if j >= 0 and j != index and hidden.flat[j] and not turn.flagged.flat[j]]
        risk = _chord_risk(shown, hidden, cells, probability, board.mines, relocates,
                           max_configurations)
        safe_existed = bool(np.any(probability[hidden] == 0))
        guess = not risk == 0
        best = best_move(shown, mines=board.mines, unknown=hidden, rule=rule,
                         click=game.click, seed=ties[number])
        rows.append({"number": number, "seconds": action.seconds, "kind": action.kind,
                     "x": action.x, "y": action.y, "mine_probability": risk,
                     "safe_existed": safe_existed, "guess": guess,
                     "forced": guess and not safe_existed,
                     "hit_mine": bool(layout.flat[list(turn.opened)].any()),
                     "best_x": best.x, "best_y": best.y, "best_kind": best.kind,
                     "best_probability": float(probability[best.y, best.x])})
        if positions:
            kept.append((shown, probability))
    outcome = "won" if end.won else "lost" if end.lost else "unfinished"
    clicks = pd.DataFrame(rows, columns=list(CLICK_COLUMNS)).astype(
        {"number": int, "seconds": float, "x": int, "y": int, "mine_probability": float,
         "safe_existed": bool, "guess": bool, "forced": bool, "hit_mine": bool,
         "best_x": int, "best_y": int, "best_probability": float})
    return GameAnalysis(board, rule, tuple(game.click), game.source, outcome, clicks, label,
                        tuple(kept))


def summarise_games(games, *, confidence_level=DEFAULT_CONFIDENCE_LEVEL) -> pd.DataFrame:
    """Summarise many analysed games, one row a board, with intervals.

    Parameters
    ----------
    games : iterable of GameAnalysis
    confidence_level : float, optional

    Returns
    -------
    pandas.DataFrame
        Per board: ``games``, ``won``, ``lost``, ``forced_losses`` and their share of
        the losses (``forced_loss_share``, Wilson's ``ci_low``, ``ci_high``; NaN with
        no loss), ``guesses_per_game`` with Student's t interval of the mean
        (``guesses_ci_low``, ``guesses_ci_high``; NaN below two games),
        ``forced_guesses_per_game``, the median ``luck``.

    Examples
    --------
    >>> from minestats.mechanics.recorded_games import Action
    >>> mines = np.array([[0, 0, 0], [0, 0, 1]], bool)
    >>> won = analyse_game(RecordedGame(mines, (0, 0), (Action(0, "open", 0, 0),
    ...                                                 Action(1, "open", 2, 0))))
    >>> lost = analyse_game(RecordedGame(mines, (0, 0), (Action(0, "open", 0, 0),
    ...                                                  Action(1, "open", 2, 1))))
    >>> summary = summarise_games([won, lost])
    >>> summary[["board", "games", "lost", "forced_losses", "guesses_per_game"]]
       board  games  lost  forced_losses  guesses_per_game
    0  3x2/1      2     1              1               1.0
    """
    from scipy import stats

    level = check_confidence_level(confidence_level)
    rows = {}
    for game in games:
        rows.setdefault(str(game.board), []).append(game)
    table = []
    for board, played in rows.items():
        lost = [game for game in played if game.outcome == "lost"]
        forced = sum(bool(game.loss_forced) for game in lost)
        low, high = wilson_interval(forced, len(lost), confidence_level=level) if lost else (
            math.nan, math.nan)
        guesses = np.array([game.guesses for game in played], dtype=float)
        mean = float(guesses.mean())
        spread = float(guesses.std(ddof=1)) if len(guesses) > 1 else math.nan
        if len(guesses) > 1 and spread > 0:
            g_low, g_high = stats.t.interval(level, len(guesses) - 1, loc=mean,
                                             scale=spread / math.sqrt(len(guesses)))
        else:
            g_low = g_high = mean if len(guesses) > 1 else math.nan
        table.append({"board": board, "games": len(played),
                      "won": sum(game.outcome == "won" for game in played),
                      "lost": len(lost), "forced_losses": forced,
                      "forced_loss_share": forced / len(lost) if lost else math.nan,
                      "ci_low": float(low), "ci_high": float(high),
                      "guesses_per_game": mean, "guesses_ci_low": float(g_low),
                      "guesses_ci_high": float(g_high),
                      "forced_guesses_per_game": float(np.mean(
                          [game.forced_guesses for game in played])),
                      "median_luck": float(np.median([game.luck for game in played])),
                      "confidence_level": level})
    return pd.DataFrame(table)
