"""A game a person played, as a replay records it: played again, action by action.

A `RecordedGame` is the layout, the first click and every action that changed the
board, in order, with its time: ``open`` (a hidden cell), ``chord`` (a number whose
flags match it: its other hidden neighbours open), ``flag`` and ``unflag``. Clicks
that changed nothing (on an open cell, released off the board) are not actions.
`replay_actions` plays the actions on a `minestats.mechanics.game.Game`, checks each
against the rules of the game, and returns what the board looked like before each
one; `minestats.io.replays` reads replay files into this form and
`minestats.drivers.game_analysis` asks, of each click, how safe it was.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from minestats.mechanics.game import Game, as_layouts

__all__ = ["ACTION_KINDS", "Action", "RecordedGame", "Turn", "replay_actions"]

ACTION_KINDS = ("open", "chord", "flag", "unflag")
"""What an action does: open a hidden cell, chord a number, put or take away a flag."""


class Action(NamedTuple):
    """One action: ``kind`` (one of `ACTION_KINDS`) at cell ``(x, y)``, ``seconds`` in."""

    seconds: float
    kind: str
    x: int
    y: int


class RecordedGame(NamedTuple):
    """A played game: layout ``(height, width)``, first click ``(x, y)``, its actions.

    ``source`` says where it was read from (format and software), for the reader;
    nothing is computed from it.
    """

    mines: np.ndarray
    click: tuple[int, int]
    actions: tuple[Action, ...]
    source: str = ""


class Turn(NamedTuple):
    """The board before one action (``revealed``, ``flagged``: bool ``(height, width)``).

    ``opened`` is the cells the action opened (flat indices; a mine opened last), empty
    for a flag.
    """

    action: Action
    revealed: np.ndarray
    flagged: np.ndarray
    opened: tuple[int, ...]


def _chord_cells(game: Game, index: int, number: int) -> list[int]:
    """Return the hidden, unflagged cells a chord on ``index`` opens (its flags must match).

    A chord opens all of them, as the games do: when a flag is wrong, the safe cells
    open (and flood) beside the mine that loses.
    """
    around = [j for j in game.table[index] if j >= 0 and j != index]
    flags = sum(bool(game.flagged[j]) for j in around)
    x, y = game.cell(index)
    if not game.revealed[index]:
        raise ValueError(f"cannot chord cell ({x}, {y}): it is hidden")
    if flags != game.numbers[index]:
        raise ValueError(f"cannot chord cell ({x}, {y}): it shows {game.numbers[index]} "
                         f"but has {flags} flag{'' if flags == 1 else 's'} around it")
    cells = [int(j) for j in around if not game.revealed[j] and not game.flagged[j]]
    if not cells:
        raise ValueError(f"cannot chord cell ({x}, {y}): it opens nothing")
    return cells


def _play(game: Game, action: Action, layout: np.ndarray) -> tuple[int, ...]:
    """Play one action on ``game`` (its flat ``layout``); return the cells it opened."""
    index = game.board.index((action.x, action.y))
    before = game.revealed.copy()
    if action.kind == "open":
        game.open_index(index)
    elif action.kind == "chord":
        if game.over:
            game.open_index(index)  # says the game is over
        cells = _chord_cells(game, index, int(game.numbers[index]))
        mined = [cell for cell in cells if layout[cell]]
        for cell in cells:  # every cell opens, so the safe ones first, then the mines
            if cell not in mined and not game.revealed[cell]:
                game.open_index(cell)
        if mined:
            game.open_index(mined[0])  # lost: the other mines it opened show too
            game.revealed[mined[1:]] = True
    elif action.kind == "flag":
        if game.flagged[index]:
            raise ValueError(f"cannot flag cell {(action.x, action.y)}: it is flagged already")
        game.flag_index(index)
    else:
        if not game.flagged[index] or game.over:
            raise ValueError(f"cannot unflag cell {(action.x, action.y)}: it holds no flag "
                             "or the game is over")
        game.flagged[index] = False
    return tuple(np.flatnonzero(game.revealed & ~before).tolist())


def replay_actions(game: RecordedGame) -> tuple[list[Turn], Game]:
    """Play a recorded game's actions again; return the board before each, and the end.

    Parameters
    ----------
    game : RecordedGame

    Returns
    -------
    turns : list of Turn
        One per action, in order.
    end : minestats.mechanics.game.Game
        The game after the last action (``won``, ``lost``, ``revealed``...).

    Raises
    ------
    ValueError
        Naming the first action that does not fit: a kind not in `ACTION_KINDS`, a
        cell off the board, a time that is negative, not finite or earlier than the
        action before, a first open that is not the first click, an open of an open
        or flagged cell, a chord whose flags do not match its number, any action
        once the game is over.

    Examples
    --------
    A 5x1 board with a mine at (3, 0): the first click at (0, 0) opens three cells (the
    third shows 1), the mine is flagged, and opening (4, 0) wins.

    >>> game = RecordedGame(np.array([[0, 0, 0, 1, 0]], bool), (0, 0),
    ...                     (Action(0.0, "open", 0, 0), Action(0.8, "flag", 3, 0),
    ...                      Action(1.1, "open", 4, 0)))
    >>> turns, end = replay_actions(game)
    >>> [(turn.action.kind, turn.opened) for turn in turns], end.won
    ([('open', (0, 1, 2)), ('flag', ()), ('open', (4,))], True)
    >>> replay_actions(game._replace(actions=(Action(0.0, "open", 3, 0),)))
    Traceback (most recent call last):
    ...
    ValueError: action 1 (open (3, 0) at 0.000 s): the first open must be the first click (0, 0)
    """
    layout = as_layouts(game.mines, ndims=(2,))
    state = Game(layout)
    turns, last, started = [], 0.0, False
    for number, action in enumerate(game.actions, start=1):
        try:
            seconds = float(action.seconds)
            where = f"action {number} ({action.kind} ({action.x}, {action.y}) at {seconds:.3f} s)"
        except (TypeError, ValueError):
            raise ValueError(f"action {number}: its time ({action.seconds!r}) must be a "
                             "number") from None
        if action.kind not in ACTION_KINDS:
            raise ValueError(f"{where}: the kind must be one of {', '.join(ACTION_KINDS)}")
        if not math.isfinite(seconds) or seconds < last:
            raise ValueError(f"{where}: times must be finite, from 0 and never go back "
                             f"(the action before was at {last:.3f} s)")
        last = seconds
        if action.kind == "open" and not started:
            if (action.x, action.y) != tuple(game.click):
                raise ValueError(f"{where}: the first open must be the first click "
                                 f"{tuple(game.click)}")
            started = True
        revealed = state.revealed.reshape(layout.shape).copy()
        flagged = state.flagged.reshape(layout.shape).copy()
        try:
            opened = _play(state, action, layout.ravel())
        except ValueError as error:
            raise ValueError(f"{where}: {error}") from None
        turns.append(Turn(action, revealed, flagged, opened))
    return turns, state
