"""A player that can lose: deduce what is certain, guess by a policy at every stall.

A game starts from one click on a known layout. Between guesses the player runs the
solver's sound deductions (`minestats.solvers.deduce`, ``logic`` with the mine
count by default) until they stall; then the policy picks a cell to open, using the
exact mine probabilities of the position (`minestats.inference.mine_probabilities`).
The layout is read only to play the moves and to check that every deduction is
sound; a policy sees what a player sees.

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

import math
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from minestats.inference import mine_probabilities
from minestats.inference.probabilities import Position, position_probabilities
from minestats.play.endgame import ENDGAME_LAYOUTS, endgame_move
from minestats.runs.seeds import as_seed_sequence, seed_label
from minestats.solvers import SolverOptions, deduce
from minestats.solvers.state import CheckedGame
from minestats.validation import POLICIES, check_policy

__all__ = ["CANDIDATE_SHARE", "FAST_BUDGET", "MAX_CANDIDATES", "POLICIES", "GameResult", "Move",
           "play"]

CANDIDATE_SHARE = 0.9
"""``best`` looks at cells whose safety is at least this share of the best safety."""
MAX_CANDIDATES = 6
"""``best`` evaluates at most this many candidates per guess (the safest ones)."""
FAST_BUDGET = 100_000
"""Configurations the compiled float path may visit before the exact engine takes over."""
_TIE = 1e-12
_LOG_ENDGAME = math.log(ENDGAME_LAYOUTS) + 1e-9


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
        guessed there anyway).
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


def _unknown_neighbours(state: CheckedGame) -> np.ndarray:
    """Per cell, its unknown (not open, not flagged) neighbours."""
    hidden = np.append(~state.revealed & ~state.flagged, False)
    return hidden[state.table].sum(axis=1) - hidden[:-1]


def _position(state: CheckedGame, numbers=None, revealed=None) -> Position:
    """Mine probabilities of the position, or of a hypothetical one.

    ``numbers`` and ``revealed`` replace the game's arrays (for a cell imagined open).
    The compiled float path is tried first; past its budget, the exact engine, with no
    cap (positions that arise in play on boards up to Expert never need one).
    """
    numbers = state.numbers if numbers is None else numbers
    revealed = state.revealed if revealed is None else revealed
    width, mines = state.board.width, state.board.mines
    fast = position_probabilities(numbers, state.table, revealed, state.flagged, width, mines,
                                  budget=FAST_BUDGET)
    if fast is not None:
        return fast
    view = np.where(revealed, numbers, -1).reshape(state.board.shape)
    try:
        exact = mine_probabilities(view, flags=state.flagged.reshape(state.board.shape),
                                   mines=mines, max_configurations=None)
    except ValueError:  # no layout fits
        return Position(np.full(revealed.size, np.nan), -math.inf)
    return Position(exact.probability.ravel(), math.log(exact.n_solutions))


def _pick(cells: np.ndarray, keys: list, rng) -> int:
    """Return the cell with the largest keys (compared in order), ties broken by ``rng``."""
    best = cells
    for key in keys:
        values = key[best] if isinstance(key, np.ndarray) else np.array([key(c) for c in best])
        best = best[values >= values.max() - _TIE]
        if best.size == 1:
            return int(best[0])
    return int(rng.choice(best))


def _safest(state: CheckedGame, position, rng) -> int:
    probability = position.probability.ravel()
    unknown = np.flatnonzero(~state.revealed & ~state.flagged)
    safety = np.zeros(probability.size)
    safety[unknown] = 1 - probability[unknown]
    return _pick(unknown, [safety, -_unknown_neighbours(state)], rng)


class _Outlook(NamedTuple):
    survive: float  # chance of surviving the cell and then the safest next cell
    progress: float  # chance that the cell shows a number proving some cell safe
    dead: bool  # the cell can show only one number: opening it teaches nothing


def _outlook(state: CheckedGame, cell: int, log_total: float) -> _Outlook:
    """Secondary safety, progress and deadness of opening ``cell``.

    For every number ``cell`` can show, the position with that number revealed is
    solved: its share of the layouts is the chance of that number, and its safest
    cell (the cell itself left out) the best next move.
    """
    around = state.table[cell][state.table[cell] >= 0]
    flagged = int(state.flagged[around].sum())
    hidden = int((~state.revealed[around] & ~state.flagged[around]).sum()) - 1
    numbers, revealed = state.numbers.copy(), state.revealed.copy()
    revealed[cell] = True
    survive = progress = 0.0
    shown = 0
    for value in range(flagged, flagged + hidden + 1):
        numbers[cell] = value
        after = _position(state, numbers, revealed)
        if after.log_solutions == -math.inf:  # this number cannot show
            continue
        shown += 1
        chance = math.exp(after.log_solutions - log_total)
        rest = after.probability
        rest = rest[~np.isnan(rest) & (rest < 1)]  # unknown cells that may be safe
        lowest = rest.min() if rest.size else 0.0  # nothing left to open: won
        survive += chance * (1 - lowest)
        progress += chance * (lowest < _TIE)
    return _Outlook(survive, progress, shown == 1)


def _best(state: CheckedGame, position, rng) -> int:
    if position.log_solutions <= _LOG_ENDGAME:
        exact = endgame_move(state.numbers, state.table, state.revealed, state.flagged,
                             state.board.width, state.board.mines)
        if exact is not None:
            return _pick(np.array(exact.cells), [-position.probability.ravel()], rng)
    probability = position.probability.ravel()
    unknown = np.flatnonzero(~state.revealed & ~state.flagged)
    safety = 1 - probability[unknown]
    crowd = _unknown_neighbours(state)
    frontier = np.append(state.revealed & (state.numbers > 0), False)[state.table].any(axis=1)
    eligible = safety >= CANDIDATE_SHARE * safety.max() - _TIE
    order = np.lexsort((crowd[unknown], -safety))
    chosen, off_frontier = [], 0
    for rank in order:
        if not eligible[rank] or len(chosen) >= MAX_CANDIDATES:
            break
        cell = int(unknown[rank])
        if not frontier[cell]:
            if off_frontier >= 2:
                continue
            off_frontier += 1
        chosen.append(cell)
    if len(chosen) == 1:
        return chosen[0]
    outlook = {cell: _outlook(state, cell, position.log_solutions) for cell in chosen}
    alive = [cell for cell in chosen if not outlook[cell].dead]
    full_safety = np.zeros(probability.size)
    full_safety[unknown] = safety
    return _pick(np.array(alive or chosen), [lambda c: outlook[c].survive,
                                             lambda c: outlook[c].progress,
                                             full_safety, -crowd], rng)


_CHOOSERS = {"safest": _safest, "best": _best}


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
        The deductions used between guesses; ``logic`` with the mine count by default.

    Returns
    -------
    GameResult

    Raises
    ------
    ValueError
        For a bad layout, click or policy.

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
    options = SolverOptions() if options is None else options
    if not isinstance(options, SolverOptions):
        raise ValueError(f"options ({options!r}) must be a SolverOptions")
    sequence = as_seed_sequence(seed)
    rng = np.random.default_rng(sequence)
    state = CheckedGame(mines, click, solver=f"player ({options.solver})")
    choose = _CHOOSERS[policy]
    moves, capped = [], False
    while True:
        _, stalled_capped = deduce(state, options)
        capped |= stalled_capped
        if state.lost or state.won:
            break
        position = _position(state)
        cell = choose(state, position, rng)
        moves.append(Move(*state.cell(cell), float(position.probability.flat[cell])))
        state.open_index(cell)
    return GameResult(won=state.won, lost=state.lost, guesses=len(moves),
                      opened=int((state.revealed & ~state.mines).sum()), capped=capped,
                      moves=tuple(moves), policy=policy, seed=seed_label(sequence))
