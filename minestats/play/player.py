"""A player that can lose: deduce what is certain, guess by a policy at every stall.

A game starts from one click on a known layout. Between guesses the player makes
the ``logic`` solver's sound deductions (with the mine count by default) until they
stall; then the policy picks a cell to open, using the mine probabilities of the
position (`minestats.frontier.analyse_position`; the exact engine,
`minestats.inference.mine_probabilities`, where the float search passes its
budget). The layout is read only to play the moves and to check that every
deduction is sound; a policy sees what a player sees. The whole game, end game
included, runs compiled (`minestats.play.kernel`): `play` plays one game,
`play_games` a batch, each from its own seed.

Policies (`POLICIES`):

``safest``
    The unknown cell with the lowest mine probability. Ties go to the cell with the
    fewest unknown neighbours (corners and walls first: a safe cell there is more
    likely to open up its area, and fewer cells can be cut off), then to the seeded
    generator.
``best``
    Once at most `~minestats.play.endgame.ENDGAME_LAYOUTS` (750) layouts fit the
    position, the cell of highest exact win probability
    (`minestats.play.endgame.endgame_move`: every layout listed, the rest of the
    game searched exactly; ties to the safest, then the seeded generator). Before
    that, or when the search passes its budget: among the nearly safest cells
    (safety at least `CANDIDATE_SHARE` of the best, at most `MAX_CANDIDATES` of them,
    cells off the frontier represented by the ones with the fewest unknown
    neighbours), the one that maximises the chance of
    surviving this guess *and* the next: for every number the cell can show, the
    position is re-solved exactly and the safest cell of the new position is taken
    as the next move (secondary safety). A *dead* candidate, one that can show only
    one number and so teaches nothing, is dropped while a live one remains. Ties go
    to the cell whose number most often proves some cell safe (progress), then as
    for ``safest``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from minestats.game import as_layouts, neighbour_counts, neighbour_table
from minestats.board import Board
from minestats.play.endgame import ENDGAME_LAYOUTS
from minestats.play.kernel import BUG, WON, play_chunk
from minestats.runs.seeds import as_seed_sequence, seed_label
from minestats.solvers import SolverOptions
from minestats.solvers.state import unsound
from minestats.validation import POLICIES, check_policy

__all__ = ["CANDIDATE_SHARE", "FAST_BUDGET", "MAX_CANDIDATES", "POLICIES", "GameResult", "Games",
           "Move", "play", "play_games"]

CANDIDATE_SHARE = 0.9
"""``best`` looks at cells whose safety is at least this share of the best safety."""
MAX_CANDIDATES = 6
"""``best`` evaluates at most this many candidates per guess (the safest ones)."""
FAST_BUDGET = 100_000
"""Configurations the float search may visit on a position ``best`` imagines before
the exact engine takes over."""


class Move(NamedTuple):
    """A guess: the cell opened and its mine probability when it was chosen."""

    x: int
    y: int
    mine_probability: float


@dataclass(frozen=True)
class GameResult:
    """One game played by `play`.

    Attributes
    ----------
    won : bool
    lost : bool
        A mine was opened (the first click, or a guess; deductions never open one).
    guesses : int
        Guesses made (the first click not counted).
    opened : int
        Safe cells open at the end.
    capped : bool
        A deduction step hit its configuration cap at some stall (the player then
        guessed there anyway, from the exact probabilities).
    moves : tuple of Move
        The guesses in order.
    policy : str
    seed : int or str
        The seed the game's tie-breaks drew from.
    """

    won: bool
    lost: bool
    guesses: int
    opened: int
    capped: bool
    moves: tuple = field(repr=False)
    policy: str = "best"
    seed: int | str | None = None


class Games(NamedTuple):
    """A batch of games played by `play_games`, as arrays (one entry per game).

    ``won``, ``capped`` (bool); ``guesses`` (int); ``moves`` (int, shape
    ``(games, cells)``: each game's guessed cells as linear indices, -1 after its
    last) and ``chances`` (their mine probabilities when guessed, NaN after);
    ``opened``, the safe cells open at the end.
    """

    won: np.ndarray
    capped: np.ndarray
    guesses: np.ndarray
    opened: np.ndarray
    moves: np.ndarray
    chances: np.ndarray


def _check_options(options) -> SolverOptions:
    options = SolverOptions() if options is None else options
    if not isinstance(options, SolverOptions):
        raise ValueError(f"options ({options!r}) must be a SolverOptions")
    if options.solver != "logic":
        raise ValueError(f"options.solver ({options.solver!r}) must be 'logic': the player "
                         f"deduces with perfect logic only")
    return options


def tie_seed(sequence: np.random.SeedSequence) -> int:
    """The 32-bit seed of a game's tie-breaks, drawn from its seed sequence."""
    return int(sequence.generate_state(1)[0])


def play_games(layouts, clicks, *, policy="best", seeds, options=None) -> Games:
    """Play a batch of games on one board, each from its layout, click and seed, compiled.

    Parameters
    ----------
    layouts : array_like of bool, shape (games, height, width)
    clicks : array_like of int, shape (games,)
        Each game's first click as a linear index ``x + y * width``.
    policy : {'best', 'safest'}, optional
    seeds : sequence of numpy.random.SeedSequence
        One per game: the seed of its tie-breaks.
    options : SolverOptions, optional
        ``logic`` deductions, with the mine count (the default) or without.

    Returns
    -------
    Games

    Raises
    ------
    ValueError
        For a bad policy or options.
    RuntimeError
        If a deduction was unsound (a bug).

    Examples
    --------
    >>> from minestats.sampling import sample_mines
    >>> layouts = sample_mines("9x9/10", 4, rule="safe-click", click=(0, 0), seed=5)
    >>> seeds = np.random.SeedSequence(5).spawn(4)
    >>> games = play_games(layouts, [0] * 4, policy="safest", seeds=seeds)
    >>> games.won.shape, games.guesses.dtype
    ((4,), dtype('int64'))
    """
    check_policy(policy)
    options = _check_options(options)
    layouts = as_layouts(layouts, ndims=(3,))
    games, height, width = layouts.shape
    mines = layouts.reshape(games, -1).sum(axis=1)
    if games and (mines != mines[0]).any():
        raise ValueError("layouts of one batch must hold the same number of mines")
    flat = layouts.reshape(games, -1)
    settings = np.array([FAST_BUDGET, ENDGAME_LAYOUTS, MAX_CANDIDATES,
                         round(CANDIDATE_SHARE * 1e6)], dtype=np.int64)
    outcomes, guesses, capped, opened, moves, chances = play_chunk(
        flat, neighbour_counts(layouts).reshape(games, -1).astype(np.int8),
        neighbour_table(width, height), width, int(mines[0]) if games else 0,
        np.asarray(clicks, dtype=np.int64), POLICIES.index(policy), options.use_mine_count,
        options.max_configurations, settings,
        np.array([tie_seed(s) for s in seeds], dtype=np.int64))
    if (outcomes == BUG).any():
        game = int(np.flatnonzero(outcomes == BUG)[0])
        raise unsound("player (logic)", (-1, -1), flag=False, board=game)
    return Games(outcomes == WON, capped, guesses, opened, moves, chances)


def play(mines, click, *, policy="best", seed=None, options=None) -> GameResult:
    """Play one whole game on a known layout from a given first click.

    Parameters
    ----------
    mines : array_like of bool, shape (height, width)
        The layout; it defines the board (size and mine count).
    click : tuple of int or str
        The first click: ``(x, y)``, ``"x,y"``, ``"centre"`` or ``"corner"``. A mine
        there loses at once (no rule protects it here: draw the layout under the
        rule you want, e.g. with `minestats.sample_mines`).
    policy : {'best', 'safest'}, optional
        How to guess at a stall (see the module notes).
    seed : int, str, numpy.random.SeedSequence or None, optional
        Seed of the tie-breaks; None draws fresh entropy, recorded in the result.
    options : SolverOptions, optional
        The deductions used between guesses: ``logic``, with the mine count by
        default.

    Returns
    -------
    GameResult

    Raises
    ------
    ValueError
        For a bad layout, click, policy or options.

    Examples
    --------
    A 50/50 at the bottom: the player must guess once and wins or loses with it.

    >>> layout = np.array([[0, 0, 0],
    ...                    [0, 0, 0],
    ...                    [1, 0, 0]], dtype=bool)
    >>> result = play(layout, (2, 0), policy="safest", seed=1)
    >>> result.won, result.guesses
    (True, 0)
    >>> split = np.array([[0, 0], [0, 0], [1, 0]], dtype=bool)
    >>> outcomes = {play(split, (0, 0), seed=s).won for s in range(20)}
    >>> sorted(outcomes)
    [False, True]
    """
    check_policy(policy)
    options = _check_options(options)
    layout = as_layouts(mines, ndims=(2,))
    board = Board(layout.shape[1], layout.shape[0], int(layout.sum()))
    x, y = board.resolve_click(click)
    sequence = as_seed_sequence(seed)
    games = play_games(layout[None], [board.index((x, y))], policy=policy, seeds=[sequence],
                       options=options)
    guesses = int(games.guesses[0])
    cells = games.moves[0, :guesses].tolist()
    chances = games.chances[0, :guesses].tolist()
    moves = tuple(Move(cell % board.width, cell // board.width, chance)
                  for cell, chance in zip(cells, chances, strict=True))
    won = bool(games.won[0])
    return GameResult(won=won, lost=not won, guesses=guesses, opened=int(games.opened[0]),
                      capped=bool(games.capped[0]), moves=moves, policy=policy,
                      seed=seed_label(sequence))
