"""A played game as a JSON file (``minestats play --out``), both ways; replayed, as HTML.

The file holds what it takes to see the game again: the layout (rows of ``*`` and
``.``, as `minestats.io.boards` writes them), the first click, and every guess with
the mine probability the player saw and its kind; then the policy, the seed, the
outcome and, where it is known, the rule that dealt the layout (a file without it
reads as None). It is plain data, never pickled, and `parse_game` checks every field,
so a file from anywhere is either a game or a one-line ValueError::

    {"format": "minestats game", "version": 1, "board": "4x3/2",
     "layout": ["*...", "....", "...*"], "click": [1, 1], "policy": "best",
     "seed": "7", "won": true, "rule": "safe-click",
     "moves": [{"x": 3, "y": 0, "mine_probability": 0.5, "kind": "fifty-fifty"}]}

`replay` plays a game again from its file, redoing the player's deductions between
the guesses and checking that every guess and the outcome fit the layout;
`game_html` draws it, step by step (`minestats.inference.html`).
"""

from __future__ import annotations

import json
from numbers import Integral, Real
from typing import NamedTuple

import numpy as np

from minestats.foundations.validation import POLICIES, check_rule_name
from minestats.inference import mine_probabilities
from minestats.inference.html import KIND_LABELS, board_html, moves_html, steps_html
from minestats.io.boards import format_text, parse_text
from minestats.mechanics.game import as_layouts, neighbour_counts
from minestats.players.player import GUESS_KINDS, Move
from minestats.solvers import SolverOptions
from minestats.solvers.api import deduce
from minestats.solvers.state import CheckedGame

__all__ = ["FORMAT", "GameRecord", "Step", "format_game", "game_html", "parse_game", "replay"]

FORMAT = "minestats game"
"""The ``format`` field of a game file (its ``version`` is 1)."""


class GameRecord(NamedTuple):
    """A game read from a file: layout ``(height, width)``, click ``(x, y)``, guesses.

    ``rule`` is the rule that dealt the layout, None where it is not known.
    """

    mines: np.ndarray
    click: tuple[int, int]
    moves: tuple[Move, ...]
    policy: str
    seed: int | str | None
    won: bool
    rule: str | None = None


def format_game(record: GameRecord) -> bytes:
    """Write a game as the JSON of a game file (UTF-8, one field a line).

    Examples
    --------
    >>> record = GameRecord(np.array([[1, 0, 0]], bool), (2, 0),
    ...                     (Move(1, 0, 0.5, "fifty-fifty"),), "best", 7, True)
    >>> back = parse_game(format_game(record).decode())
    >>> back.mines.tolist(), back.click, back.moves[0].mine_probability, back.won
    ([[True, False, False]], (2, 0), 0.5, True)
    """
    layout = as_layouts(record.mines, ndims=(2,))
    height, width = layout.shape
    data = {"format": FORMAT, "version": 1, "board": f"{width}x{height}/{int(layout.sum())}",
            "layout": format_text(layout).splitlines(), "click": list(record.click),
            "policy": record.policy, "seed": record.seed, "won": bool(record.won),
            "moves": [{"x": int(m.x), "y": int(m.y),
                       "mine_probability": float(m.mine_probability), "kind": m.kind}
                      for m in record.moves]}
    if record.rule is not None:
        data["rule"] = check_rule_name(record.rule)
    return (json.dumps(data, indent=1) + "\n").encode()


def _integer(value, what: str, below: int) -> int:
    if isinstance(value, bool) or not isinstance(value, Integral) or not 0 <= value < below:
        raise ValueError(f"{what} ({value!r}) must be an integer from 0 to {below - 1}")
    return int(value)


def _cell(value, what: str, width: int, height: int) -> tuple[int, int]:
    if not isinstance(value, list) or len(value) != 2:
        raise ValueError(f"{what} ({value!r}) must be a list [x, y]")
    return _integer(value[0], f"{what} x", width), _integer(value[1], f"{what} y", height)


def _move(value, number: int, width: int, height: int) -> Move:
    what = f"move {number}"
    if not isinstance(value, dict) or set(value) != {"x", "y", "mine_probability", "kind"}:
        raise ValueError(f"{what} must be an object with the keys x, y, mine_probability "
                         "and kind")
    x, y = _cell([value["x"], value["y"]], what, width, height)
    chance = value["mine_probability"]
    if isinstance(chance, bool) or not isinstance(chance, Real) or not 0 <= chance <= 1:
        raise ValueError(f"{what}: mine_probability ({chance!r}) must be a number in [0, 1]")
    if value["kind"] not in GUESS_KINDS:
        raise ValueError(f"{what}: kind ({value['kind']!r}) must be one of "
                         f"{', '.join(GUESS_KINDS)}")
    return Move(x, y, float(chance), value["kind"])


def parse_game(text: str) -> GameRecord:
    """Read a game file's text, checking every field; a bad one is a one-line ValueError.

    Examples
    --------
    >>> parse_game('{"format": "minestats game"}')  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: a game file holds the fields board, click, ...; missing: board, click, ...
    >>> parse_game("[1, 2")
    Traceback (most recent call last):
    ...
    ValueError: not JSON: Expecting ',' delimiter: line 1 column 6 (char 5)
    """
    try:
        data = json.loads(text)
    except ValueError as error:  # JSONDecodeError, or a number of too many digits
        raise ValueError(f"not JSON: {error}") from None
    except RecursionError:
        raise ValueError("not a minestats game file: JSON nested too deep") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        found = data.get("format") if isinstance(data, dict) else type(data).__name__
        raise ValueError(f"not a minestats game file: its format ({found!r}) must be "
                         f"{FORMAT!r}")
    fields = {"format", "version", "board", "layout", "click", "policy", "seed", "won",
              "moves"}
    if not fields <= set(data) <= fields | {"rule"}:
        missing = ", ".join(sorted(fields - set(data))) or "none"
        unknown = ", ".join(sorted(map(str, set(data) - fields - {"rule"}))) or "none"
        raise ValueError(f"a game file holds the fields {', '.join(sorted(fields))} (and "
                         f"rule, if known); missing: {missing}; unknown: {unknown}")
    if data["version"] != 1 or isinstance(data["version"], bool):
        raise ValueError(f"version ({data['version']!r}) must be 1")
    layout = data["layout"]
    if not isinstance(layout, list) or not all(isinstance(row, str) for row in layout):
        raise ValueError("layout must be a list of rows of '*' and '.'")
    mines = parse_text("\n".join(layout))
    height, width = mines.shape
    if data["board"] != f"{width}x{height}/{int(mines.sum())}":
        raise ValueError(f"board ({data['board']!r}) does not match the layout, a "
                         f"{width}x{height} board with {int(mines.sum())} mines")
    click = _cell(data["click"], "click", width, height)
    if data["policy"] not in POLICIES:
        raise ValueError(f"policy ({data['policy']!r}) must be one of {', '.join(POLICIES)}")
    if not (data["seed"] is None or isinstance(data["seed"], str)
            or isinstance(data["seed"], int) and not isinstance(data["seed"], bool)):
        raise ValueError(f"seed ({data['seed']!r}) must be an integer, a string or null")
    if not isinstance(data["won"], bool):
        raise ValueError(f"won ({data['won']!r}) must be true or false")
    moves = data["moves"]
    if not isinstance(moves, list) or len(moves) > mines.size:
        raise ValueError(f"moves must be a list of at most {mines.size} guesses")
    rule = data.get("rule")
    if rule is not None:
        check_rule_name(rule)
    return GameRecord(mines, click, tuple(_move(move, number, width, height)
                                          for number, move in enumerate(moves, start=1)),
                      data["policy"], data["seed"], data["won"], rule)


class Step(NamedTuple):
    """What the player saw before a guess (``move``), or at the end (``move`` None).

    ``revealed`` and ``flagged`` are bool arrays ``(height, width)``; ``flagged`` holds
    the mines the player's deductions proved.
    """

    revealed: np.ndarray
    flagged: np.ndarray
    move: Move | None


def replay(record: GameRecord) -> list[Step]:
    """Play a recorded game again: the player's view before each guess, then at the end.

    Between guesses the player's sound deductions (``logic`` with the mine count) are
    redone, from the first click and after each guess.

    Raises
    ------
    ValueError
        If a guess does not fit the game (its cell already open or flagged, or the
        game already over) or the outcome differs from the record's: a game file
        whose guesses come from another board.

    Examples
    --------
    >>> record = GameRecord(np.array([[0, 0, 0], [1, 0, 0]], bool), (2, 0),
    ...                     (Move(0, 0, 0.5, "fifty-fifty"),), "best", 7, True)
    >>> [(int(step.revealed.sum()), step.move) for step in replay(record)]
    [(4, Move(x=0, y=0, mine_probability=0.5, kind='fifty-fifty')), (5, None)]
    """
    state = CheckedGame(record.mines, record.click, solver="player")
    options = SolverOptions("logic")
    shape = np.shape(record.mines)
    deduce(state, options)
    steps = []
    for number, move in enumerate(record.moves, start=1):
        steps.append(Step(state.revealed.reshape(shape).copy(),
                          state.flagged.reshape(shape).copy(), move))
        index = state.board.index((move.x, move.y))
        if state.over or state.revealed[index] or state.flagged[index]:
            raise ValueError(f"guess {number} ({move.x}, {move.y}) does not fit the game: the "
                             "cell is already open, flagged or the game is over")
        state.open_index(index)
        if not state.lost:
            deduce(state, options)
    if state.won != record.won:
        said, found = ("won", "lost" if state.lost else "unfinished") if record.won else (
            "lost", "won" if state.won else "unfinished")
        raise ValueError(f"the game does not fit its layout: the file says {said}, its "
                         f"guesses leave the game {found}")
    steps.append(Step(state.revealed.reshape(shape).copy(), state.flagged.reshape(shape).copy(),
                      None))
    return steps


def game_html(record: GameRecord, *, steps=None) -> str:
    """Draw a recorded game step by step as HTML, each guess with its mine probability.

    Each step is the board before a guess: the open cells' numbers, the flags, every
    hidden cell's mine probability (`minestats.inference.mine_probabilities`, weighed
    by Windows XP's rule when the record says ``winxp``) and the guessed cell ringed,
    with its kind and probability above; the last step shows the end and the mines.
    A table of the guesses follows (`minestats.inference.html`).

    Parameters
    ----------
    record : GameRecord
    steps : list of Step, optional
        ``replay(record)``, when it is at hand already.

    Returns
    -------
    str
        An HTML fragment (`minestats.inference.html.page` makes it a page).

    Raises
    ------
    ValueError
        As `replay`.

    Examples
    --------
    >>> record = GameRecord(np.array([[0, 0, 0], [1, 0, 0]], bool), (2, 0),
    ...                     (Move(0, 0, 0.5, "fifty-fifty"),), "best", 7, True)
    >>> fragment = game_html(record)
    >>> fragment.count('class="ms-frame"'), "guess 1 of 1 at (0, 0): 50/50" in fragment
    (2, True)
    """
    steps = replay(record) if steps is None else steps
    numbers = neighbour_counts(record.mines)
    mines = int(np.sum(record.mines))
    guesses = len(record.moves)
    frames, chances = [], []
    for number, step in enumerate(steps, start=1):
        shown = np.where(step.revealed, numbers, -1)
        if step.move is None:
            outcome = "won: every safe cell is open" if record.won else (
                f"lost: guess {guesses} opened a mine")
            frames.append(board_html(shown, flags=step.flagged, mines=record.mines,
                                     caption=f"the end, {outcome}"))
            continue
        probability = mine_probabilities(shown, flags=step.flagged, mines=mines,
                                         rule=record.rule, click=record.click).probability
        move = step.move
        chances.append(float(probability[move.y, move.x]))
        frames.append(board_html(shown, probability, flags=step.flagged,
                                 marked=(move.x, move.y),
                                 caption=f"guess {number} of {guesses} at ({move.x}, "
                                         f"{move.y}): {KIND_LABELS.get(move.kind, move.kind)}"
                                         f", P(mine) = {chances[-1]:.4f}"))
    height, width = np.shape(record.mines)
    caption = (f"{width}x{height}/{mines}, first click {record.click}, rule "
               f"{record.rule or 'not recorded'}, policy {record.policy}, seed "
               f"{record.seed}: {'won' if record.won else 'lost'} with {guesses} guess"
               f"{'' if guesses == 1 else 'es'}")
    return steps_html(frames, caption=caption) + moves_html(record.moves, chances)
