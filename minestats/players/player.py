"""A player that can lose: deduce what is certain, guess by a policy at every stall.

A game starts from one click on a known layout. Between guesses the player makes
the ``logic`` solver's sound deductions (with the mine count by default) until they
stall; then the policy picks a cell to open, using the mine probabilities of the
position (`minestats.frontier.engine.analyse_position`; the exact engine,
`minestats.inference.mine_probabilities`, where the float search passes its
budget). The layout is read only to play the moves and to check that every
deduction is sound; a policy sees what a player sees. The whole game, end game
included, runs compiled (`minestats.players.kernel`): `play` plays one game,
`play_games` a batch, each from its own seed.

Policies (`POLICIES`):

``safest``
    The unknown cell with the lowest mine probability. Ties go to the cell with the
    fewest unknown neighbours (corners and walls first: a safe cell there is more
    likely to open up its area, and fewer cells can be cut off), then to the seeded
    generator.
``best``
    Its `Strategy` sets every component, each a switch so that its worth is a paired
    measurement (`minestats.experiments.policy_ablation`). An unavoidable 50/50 (two cells
    sharing one mine that nothing can ever tell apart) is guessed at once when
    ``fifty_fifty_first`` is set: it must be guessed some time, and its answer may
    inform its neighbours. On a board of at most ``small_board_cells`` cells (20) every
    guess but such a 50/50 is the exact end game's wherever its search can solve the
    position, from the first guess on. Elsewhere, once at most ``endgame_layouts`` layouts fit,
    the cell of highest exact win probability (`minestats.players.endgame.endgame_move`:
    every layout listed, the rest of the game searched exactly; ties to the safest, then
    the seeded generator). Before that, or when the search passes its budget: among the
    nearly safest cells (safety at least ``candidate_share`` of the best, at most
    ``max_candidates`` of them, at most ``off_frontier_cells`` off the frontier,
    represented by the ones with the fewest unknown neighbours), the one that maximises
    the chance of surviving this guess *and* the next: for every number the cell can
    show, the position is re-solved and its safest cell taken as the next move (with
    ``blend``, (4 x safest + second safest) / 5; with ``living_next``, among the living
    cells: a cell whose unknown neighbours are all proven teaches nothing), weighted by
    the chance of the number (secondary safety); ``progress_weight`` > 0 multiplies that
    by 1 + the weight x the chance that the number proves some cell safe (progress),
    which by default only breaks ties. A *dead* candidate, one that can show only one
    number and so teaches nothing, is dropped while a live one remains. Ties go to
    progress, then as for ``safest``. ``fifty_fifty_weight`` credits a candidate for the
    50/50s it may stop from forming, by its own tally of them with ``long_term_risk``
    (`minestats.players.fifty_fifty.tile_influence`): on by default, and worth 0.16
    points on paired development games (:doc:`/guide/how-best-was-chosen`).
    ``pseudo_first`` guesses a pseudo-50/50 (a cell that is safe or else one half of a
    50/50) before the candidates: a switch, off by default (measured no help here).
    ``dominance`` plays, instead of the choice, a candidate safer by more than 0.001
    that is safe in every layout where the choice is (opening it first gives up
    nothing). ``two_step_cells`` adds candidates off the frontier two steps in line
    from a number, as Hill's player does; ``small_space`` puts off candidates in small
    covered spaces and ``off_frontier_share`` holds cells off the frontier to a higher
    bar, as it also does. ``isolated_cells`` plays a region that no number ties to the
    rest, and whose mine count every layout agrees on, by the exact end game on it
    alone (on by default).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field, fields
from typing import NamedTuple

import numpy as np

from minestats.foundations.board import Board
from minestats.foundations.deprecation import renamed_parameters
from minestats.foundations.result import Result
from minestats.foundations.seeds import as_seed_sequence, seed_label
from minestats.foundations.validation import (
    POLICIES,
    check_policy,
    resolve_policy,
    resolve_rule,
)
from minestats.mechanics.game import as_layouts, neighbour_counts, neighbour_table
from minestats.players import kernel
from minestats.players.endgame import ENDGAME_LAYOUTS
from minestats.players.kernel import BUG, WON, play_chunk
from minestats.solvers import SolverOptions
from minestats.solvers.state import unsound

__all__ = ["CANDIDATE_SHARE", "FAST_BUDGET", "KERNEL_TYPES", "MAX_CANDIDATES", "MEMO_BOARDS",
           "POLICIES", "GUESS_KINDS", "GameResult", "Games", "Move", "Settings", "Strategy",
           "compile_player", "play", "play_games"]

CANDIDATE_SHARE = 0.9
"""``best`` looks at cells whose safety is at least this share of the best safety."""
MAX_CANDIDATES = 6
"""``best`` evaluates at most this many candidates per guess (the safest ones)."""
FAST_BUDGET = 100_000
"""Configurations the float search may visit on a position ``best`` imagines before
the exact engine takes over."""


GUESS_KINDS = ("frontier", "off-frontier", "fifty-fifty", "endgame", "pseudo-fifty-fifty")
"""What a guess was: a frontier cell, a cell off the frontier, one cell of an
unavoidable 50/50, a cell the exact end game chose, or a pseudo-50/50 (a cell that is
safe or else one half of a 50/50, `minestats.players.fifty_fifty`)."""


@dataclass(frozen=True)
class Strategy:
    """How ``best`` guesses: each component a switch, so each can be measured paired.

    Parameters
    ----------
    endgame_layouts : int, optional
        The exact end game takes over once at most this many layouts fit (0 for
        never), on boards larger than ``small_board_cells``.
    max_candidates : int, optional
        Most candidates scored by their outlook at a guess.
    candidate_share : float, optional
        Candidates are at least this share as safe as the safest cell.
    off_frontier_cells : int, optional
        Most candidates off the frontier (those with the fewest unknown neighbours).
    blend : bool, optional
        Score the next move's safety as (4 x safest + second safest) / 5 instead of
        the safest alone (default True).
    fifty_fifty_first : bool, optional
        Guess an unavoidable 50/50 as soon as it appears (it must be guessed some
        time; default True).
    progress_weight : float, optional
        Score a candidate by its secondary safety times 1 + this weight times its
        progress (the chance that its number proves some cell safe, with ``living_next``
        some living cell); 0, the default, scores by secondary safety alone, progress
        breaking ties.
    fifty_fifty_weight : float, optional
        Score a candidate also times 1 + this weight times the share of its safe
        layouts in which it is the safe half of a 2-cell or 2x2 50/50 that may form
        (opening it then stops the 50/50), and add as candidates the cells whose
        safety plus this weight times that chance is as good as a candidate's
        (`minestats.players.fifty_fifty.fifty_fifty_outlook`); 0 leaves 50/50s that
        may form out of the score (default 0.9).
    long_term_risk : bool, optional
        With a 50/50 weight, score each candidate by its own tally of the 50/50s that
        may form around it (`minestats.players.fifty_fifty.tile_influence`: any
        pair or 2x2 box that holds it, wherever it is, with up to three closing
        cells still unknown, the likeliest per direction, plus its credit as a
        closing cell of the likely ones) rather than by the sweep of the shapes next
        to the revealed area that adds candidates; those credits then lift
        candidates too (default True).
    pseudo_first : bool, optional
        Guess a pseudo-50/50 (a cell that is safe or else one half of a 50/50) before
        scoring candidates, once the end game has not answered (default False).
    weigh_winxp : bool, optional
        On layouts dealt by Windows XP's rule (``play_games(..., rule="winxp")``),
        weigh the layouts that fit by the rule in the probabilities and the end game
        (default True); False plays as if every layout were alike. The 50/50
        components count layouts alike under every rule.
    dominance : bool, optional
        Play a candidate that dominates the choice instead of it: one safer by more
        than 0.001 that the choice's safety proves safe (Hill's player does so;
        default False).
    two_step_cells : int, optional
        Most candidates added from the cells off the frontier two steps across or
        down from a number with unknown neighbours (their number tells about the
        frontier too; Hill's player scores them), fewest unknown neighbours first,
        on top of ``off_frontier_cells`` (default 0).
    small_space : int, optional
        Put off the candidates in a space of fewer than this many covered cells (a
        flood over covered cells that may hop over one revealed cell) while a
        candidate in a larger space remains, as Hill's player does with 8: the mine
        count, better known later, may settle a small space (default 0, off).
    off_frontier_share : float, optional
        Let cells off the frontier be candidates only when they are at least this
        share as safe as the safest cell; at or below ``candidate_share`` (the
        default) it changes nothing, Hill's player uses 0.95.
    isolated_cells : int, optional
        Play a region of at most this many unknown cells exactly, as the end game
        would, when no number sees both it and the rest and every layout that fits
        puts the same number of mines in it: it is then independent of the rest of
        the board (solved apart, as Hill's player does; default 40, 0 for off).
        Layouts weighed by Windows XP's rule are not solved apart.
    look_ahead : int, optional
        When the two best candidates score within ``look_ahead_margin`` of each other,
        rescore this many of the best two steps on: each number the cell may show
        followed by the best one-step score of the next guess among the 3 safest cells
        then (default 0, off; 1 changes nothing, 2 was the default for a while, see
        :doc:`/guide/how-best-was-chosen`). It looks among the candidates the score
        kept: one whose score bound fell below a better candidate's score is not
        rescored (``dominance`` keeps all).
        Layouts weighed by Windows XP's rule are not looked ahead on.
    look_ahead_margin : float, optional
        How close, as a share of the best score, the second best must be for the
        look-ahead (default 0.01).
    living_next : bool, optional
        Rank the next move among *living* cells only, as Hill's player does: a cell
        whose unknown neighbours are all proven safe or mines can show only one number,
        so opening it, even proven safe, leaves the next guess where it was (default
        True).
    small_board_cells : int, optional
        On a board of at most this many cells (0 to 20), every guess is the exact
        end game's whenever its search, with room for up to 100,000 layouts and two
        million states (`minestats.players.endgame.SMALL_BOARD_SEARCH_BUDGET`), can
        solve the position: the heuristic only guesses where it gives up. Its answers
        are remembered by position for the process, so each position of a board is
        searched once (default 20, the boards `minestats.players.optimal` solves
        whole; 0 plays small boards as large ones). Larger boards are refused: there
        the positions whose search gives up multiply (5x5/8 would play about one game
        a second, 8x4/8 one in six seconds).

    Notes
    -----
    The defaults are the guessing of the strongest published player, Hill's
    JSMinesweeper (blended safety, 50/50s at once, progress only as a tie-break, the
    next move among living cells), with the 50/50 tally of his Java solver and regions
    solved apart by the exact end game. Each default, and each switch left off, was
    set by paired runs on the same games, on development streams and then on held-out
    games (``results/policy_ablation.csv`` measures each component on 100,000):
    :doc:`/guide/how-best-was-chosen` gives every measurement, with its stream, its
    games, the difference and its interval.

    Examples
    --------
    >>> strategy = Strategy(blend=False)
    >>> strategy.blend, strategy.max_candidates
    (False, 6)
    >>> Strategy(max_candidates=0)
    Traceback (most recent call last):
    ...
    ValueError: max_candidates (0) must be an integer from 1 to 64
    """

    endgame_layouts: int = ENDGAME_LAYOUTS
    max_candidates: int = MAX_CANDIDATES
    candidate_share: float = CANDIDATE_SHARE
    off_frontier_cells: int = 2
    blend: bool = True
    fifty_fifty_first: bool = True
    progress_weight: float = 0.0
    fifty_fifty_weight: float = 0.9
    pseudo_first: bool = False
    weigh_winxp: bool = True
    long_term_risk: bool = True
    dominance: bool = False
    two_step_cells: int = 0
    small_space: int = 0
    off_frontier_share: float = CANDIDATE_SHARE
    isolated_cells: int = 40
    look_ahead: int = 0
    look_ahead_margin: float = 0.01
    living_next: bool = True
    small_board_cells: int = 20

    def __post_init__(self):
        for name, low, high in (("endgame_layouts", 0, 100_000), ("max_candidates", 1, 64),
                                ("off_frontier_cells", 0, 64), ("two_step_cells", 0, 64),
                                ("small_space", 0, 64), ("isolated_cells", 0, 64),
                                ("look_ahead", 0, 64), ("small_board_cells", 0, 20)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | np.integer) or not (
                    low <= value <= high):
                raise ValueError(f"{name} ({value!r}) must be an integer from {low} to {high}")
        for name in ("candidate_share", "off_frontier_share"):
            share = getattr(self, name)
            if isinstance(share, bool) or not isinstance(share, float | int) or not (
                    0 < share <= 1):
                raise ValueError(f"{name} ({share!r}) must be a number in (0, 1]")
        if isinstance(self.look_ahead_margin, bool) or not isinstance(
                self.look_ahead_margin, float | int) or not 0 <= self.look_ahead_margin <= 1:
            raise ValueError(f"look_ahead_margin ({self.look_ahead_margin!r}) must be a number "
                             "from 0 to 1")
        for name in ("progress_weight", "fifty_fifty_weight"):
            weight = getattr(self, name)
            if isinstance(weight, bool) or not isinstance(weight, float | int) or not (
                    0 <= weight <= 10):
                raise ValueError(f"{name} ({weight!r}) must be a number from 0 to 10")
        for name in ("blend", "fifty_fifty_first", "pseudo_first", "weigh_winxp",
                     "long_term_risk", "dominance", "living_next"):
            if not isinstance(getattr(self, name), bool | np.bool_):
                raise ValueError(f"{name} ({getattr(self, name)!r}) must be True or False")

    def label(self) -> str:
        """Name the strategy as a contender: ``best``, and what differs from the defaults.

        Examples
        --------
        >>> Strategy().label(), Strategy(blend=False, max_candidates=10).label()
        ('best', 'best (max_candidates=10, blend=False)')
        """
        default = Strategy()
        notes = [f"{name}={getattr(self, name)!r}" for name in self.__dataclass_fields__
                 if getattr(self, name) != getattr(default, name)]
        return "best" + (f" ({', '.join(notes)})" if notes else "")

    def settings(self) -> Settings:
        """Return the `Settings` the compiled kernel reads (`minestats.players.kernel`).

        Examples
        --------
        >>> settings = Strategy(candidate_share=0.85).settings()
        >>> settings.candidate_share, settings.blend, settings.fast_budget
        (0.85, True, 100000)
        """
        return Settings(**{name: KERNEL_TYPES[kind](getattr(self, name))
                           for name, kind in _strategy_types().items()},
                        fast_budget=FAST_BUDGET)


KERNEL_TYPES = {"int": int, "float": float, "bool": bool}
"""The Python type each `Strategy` field takes in `Settings`, by its annotation: numba
types a `Settings` by its values, so a field is always the same type."""


def _strategy_types() -> dict:
    """``{field: its annotation}`` of `Strategy`, in order."""
    return {item.name: item.type for item in fields(Strategy)}


Settings = NamedTuple("Settings", [(name, KERNEL_TYPES[kind])
                                   for name, kind in _strategy_types().items()]
                      + [("fast_budget", int)])
Settings.__doc__ = """`Strategy` as the compiled kernel reads it: a NamedTuple, one field a switch.

Its fields are `Strategy`'s, in order, each an int, a float or a bool
(`KERNEL_TYPES`), and ``fast_budget``, the configurations the float search may
visit on an imagined position (`FAST_BUDGET`). Made by `Strategy.settings`; numba
passes it through compiled code as a typed tuple.
"""


MEMO_BOARDS = 8
"""Boards (with mine count and weighing) whose end-game memo a process keeps, each of
at most `minestats.players.chooser.MEMO_POSITIONS` positions (about 70 MB when full)."""
_position_memos: dict = {}


def _position_memo(width: int, height: int, mines: int, settings: Settings, weighed: bool):
    """Return the memo of the end game's answers by position for this board.

    One memo (`minestats.players.chooser.new_position_memo`) serves every batch on the
    same board, mine count and weighing, so a position a small board reaches again is
    never searched twice; the process keeps the `MEMO_BOARDS` most recent. On a
    board the end game does not play from the first guess, an empty memo that stays
    empty.
    """
    if width * height > settings.small_board_cells:
        return _unused_memo()
    key = (width, height, mines, weighed)
    memo = _position_memos.pop(key, None)
    if memo is None:
        memo = kernel.new_position_memo()
    _position_memos[key] = memo
    while len(_position_memos) > MEMO_BOARDS:
        del _position_memos[next(iter(_position_memos))]
    return memo


@functools.cache
def _unused_memo():
    return kernel.new_position_memo()


def check_strategy(strategy) -> Strategy:
    """Return ``strategy``, or the default `Strategy` for None; raise for anything else."""
    if strategy is None:
        return Strategy()
    if not isinstance(strategy, Strategy):
        raise ValueError(f"strategy ({strategy!r}) must be a Strategy")
    return strategy


class Move(NamedTuple):
    """A guess: the cell opened, its mine probability when chosen, and its kind.

    The kind is one of `GUESS_KINDS`.
    """

    x: int
    y: int
    mine_probability: float
    kind: str = "frontier"


@dataclass(frozen=True, eq=False)
class GameResult(Result):
    """One game played by `play`.

    Attributes
    ----------
    won : bool
        Every safe cell was opened; otherwise a mine was (the first click, or a guess;
        deductions never open one), and `lost` is True.
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
    guesses: int
    opened: int
    capped: bool
    moves: tuple = field(repr=False)
    policy: str = "best"
    seed: int | str | None = None

    @property
    def lost(self) -> bool:
        """A mine was opened: every game ends won or lost."""
        return not self.won

    def _repr_html_(self) -> str:
        """Return the guesses as a table for Jupyter (`minestats.inference.html.moves_html`)."""
        from minestats.inference.html import moves_html

        return moves_html(self.moves, caption=f"{'won' if self.won else 'lost'} with "
                          f"{self.guesses} guess{'' if self.guesses == 1 else 'es'}, "
                          f"{self.opened} safe cells open (policy {self.policy}, seed "
                          f"{self.seed})")

    def to_dict(self) -> dict:
        """Return one table row: the policy, the outcome, the effort and the seed.

        Examples
        --------
        >>> from minestats.mechanics.sampling import sample_mines
        >>> layout = sample_mines("5x5/3", 1, rule="safe-click", click=(0, 0), seed=3)[0]
        >>> row = play(layout, (0, 0), seed=1).to_dict()
        >>> list(row)
        ['policy', 'won', 'lost', 'guesses', 'opened', 'capped', 'seed']
        """
        return {"policy": self.policy, "won": self.won, "lost": self.lost,
                "guesses": self.guesses, "opened": self.opened, "capped": self.capped,
                "seed": self.seed}


class Games(NamedTuple):
    """A batch of games played by `play_games`, as arrays (one entry per game).

    ``won``, ``capped`` (bool); ``guesses`` (int); ``moves`` (int, shape
    ``(games, cells)``: each game's guessed cells as linear indices, -1 after its
    last) and ``chances`` (their mine probabilities when guessed, NaN after);
    ``opened``, the safe cells open at the end; ``kinds`` (int8, like ``moves``:
    each guess's index in `GUESS_KINDS`, -1 after the last).
    """

    won: np.ndarray
    capped: np.ndarray
    guesses: np.ndarray
    opened: np.ndarray
    moves: np.ndarray
    chances: np.ndarray
    kinds: np.ndarray


def _check_options(options) -> SolverOptions:
    options = SolverOptions() if options is None else options
    if not isinstance(options, SolverOptions):
        raise ValueError(f"options ({options!r}) must be a SolverOptions")
    if options.solver != "logic":
        raise ValueError(f"options.solver ({options.solver!r}) must be 'logic': the player "
                         f"deduces with perfect logic only")
    return options


def tie_seed(sequence: np.random.SeedSequence) -> int:
    """Return the 32-bit seed of a game's tie-breaks, drawn from its seed sequence."""
    return int(sequence.generate_state(1)[0])


def _check_clicks(clicks, games: int, cells: int) -> np.ndarray:
    """Return ``clicks`` as int64, one linear index per game; raise for anything else."""
    array = np.asarray(clicks)
    if games == 0 and array.size == 0:
        return np.empty(0, dtype=np.int64)
    if array.shape != (games,) or array.dtype.kind not in "iu" or (
            games and not ((array >= 0) & (array < cells)).all()):
        shown = np.array2string(array.ravel()[:6], separator=", ")
        raise ValueError(f"clicks ({shown}{'...' if array.size > 6 else ''}, shape "
                         f"{array.shape}) must be {games} linear indices from 0 to "
                         f"{cells - 1}, one per layout")
    return array.astype(np.int64)


def _tie_seeds(seeds, games: int) -> np.ndarray:
    """Return each game's tie-break seed (`tie_seed`); raise unless one SeedSequence a game."""
    seeds = list(seeds)
    if len(seeds) != games or not all(isinstance(s, np.random.SeedSequence) for s in seeds):
        raise ValueError(f"seeds must be {games} numpy.random.SeedSequence, one per layout "
                         f"(got {len(seeds)} items, the first {seeds[0] if seeds else None!r})")
    return np.array([tie_seed(s) for s in seeds], dtype=np.int64)


def play_games(layouts, clicks, *, policy="best", seeds, options=None, strategy=None,
               rule=None) -> Games:
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
    strategy : Strategy, optional
        How ``best`` guesses (the default `Strategy` when None).
    rule : str, optional
        The rule that dealt the layouts. Only ``winxp`` changes the play: its layouts
        are not alike, and the player weighs them (see `Strategy`'s ``weigh_winxp``);
        None, or any other rule, takes every layout that fits as equally likely.

    Returns
    -------
    Games

    Raises
    ------
    ValueError
        For a bad policy, options, clicks (not one index on the board per layout) or
        seeds (not one SeedSequence per layout).
    RuntimeError
        If a deduction was unsound (a bug).

    Examples
    --------
    >>> from minestats.mechanics.sampling import sample_mines
    >>> layouts = sample_mines("9x9/10", 4, rule="safe-click", click=(0, 0), seed=5)
    >>> seeds = np.random.SeedSequence(5).spawn(4)
    >>> games = play_games(layouts, [0] * 4, policy="safest", seeds=seeds)
    >>> games.won.shape, games.guesses.dtype
    ((4,), dtype('int64'))
    """
    code = resolve_policy(policy).code
    options = _check_options(options)
    settings = check_strategy(strategy).settings()
    layouts = as_layouts(layouts, ndims=(3,))
    games, height, width = layouts.shape
    mines = layouts.reshape(games, height * width).sum(axis=1)
    if games and (mines != mines[0]).any():
        raise ValueError("layouts of one batch must hold the same number of mines")
    flat = layouts.reshape(games, height * width)
    relocates = rule is not None and resolve_rule(rule).relocates
    memo = _position_memo(width, height, int(mines[0]) if games else 0, settings,
                          relocates and settings.weigh_winxp)
    chunk = play_chunk(
        flat, neighbour_counts(layouts).reshape(games, height * width).astype(np.int8),
        neighbour_table(width, height), width, int(mines[0]) if games else 0,
        _check_clicks(clicks, games, width * height), code,
        options.use_mine_count, options.max_configurations, settings,
        _tie_seeds(seeds, games), relocates, memo)
    if (chunk.outcomes == BUG).any():
        game = int(np.flatnonzero(chunk.outcomes == BUG)[0])
        raise unsound("player (logic)", (-1, -1), flag=False, board=game)
    return Games(chunk.outcomes == WON, chunk.capped, chunk.guesses, chunk.opened, chunk.moves,
                 chunk.chances, chunk.kinds)


@functools.cache
def compile_player() -> None:
    """Compile the player's kernel in this process, once, before anything is timed.

    Numba compiles `play_chunk` on its first call in a process, or loads it from its
    disk cache: about two minutes of CPU on a fresh machine. Whatever a worker plays
    first would carry that time in its games/s. A chunk function calls this before
    it starts its clock: one game on a 2x1 board passes every argument with the types
    a real batch has, so the whole kernel, every policy and rule included, is compiled
    here and none of it later.

    Examples
    --------
    >>> compile_player()
    >>> len(kernel.play_chunk.signatures)
    1
    """
    play_games(np.array([[[True, False]]]), [1], policy="best",
               seeds=[np.random.SeedSequence(0)])


@renamed_parameters({"mines": "layout"}, removed_in="0.4")
def play(layout, click, *, policy="best", seed=None, options=None, strategy=None,
         rule=None) -> GameResult:
    """Play one whole game on a known layout from a given first click.

    Parameters
    ----------
    layout : array_like of bool, shape (height, width)
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
    strategy : Strategy, optional
        How ``best`` guesses (the default `Strategy` when None).
    rule : str, optional
        The rule that dealt the layout, as for `play_games` (only ``winxp`` changes
        the play).

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
    layout = as_layouts(layout, ndims=(2,))
    board = Board(layout.shape[1], layout.shape[0], int(layout.sum()))
    x, y = board.resolve_click(click)
    sequence = as_seed_sequence(seed)
    games = play_games(layout[None], [board.index((x, y))], policy=policy, seeds=[sequence],
                       options=options, strategy=strategy, rule=rule)
    guesses = int(games.guesses[0])
    cells = games.moves[0, :guesses].tolist()
    chances = games.chances[0, :guesses].tolist()
    kinds = games.kinds[0, :guesses].tolist()
    moves = tuple(Move(cell % board.width, cell // board.width, chance, GUESS_KINDS[kind])
                  for cell, chance, kind in zip(cells, chances, kinds, strict=True))
    won = bool(games.won[0])
    return GameResult(won=won, guesses=guesses, opened=int(games.opened[0]),
                      capped=bool(games.capped[0]), moves=moves, policy=policy,
                      seed=seed_label(sequence))
