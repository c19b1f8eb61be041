"""One entry point for all solvers: `solve` for a layout, `solve_batch` for many.

The solver opens the first click on the given layout (a mine there loses the game:
``lost=True``, not an error), flood-fills through zeros, then repeats its deductions
until it proves nothing more, opening proven-safe cells and flagging proven mines:

``single-point``
    one number at a time (compiled); never uses the mine count;
``subset``
    single-point, then the subset (pair) rule, and with the mine count its trivial use;
``logic``
    single-point, subset, then perfect logic over the frontier components;
``exhaustive``
    every placement over all unknown cells; boards of at most 30 cells.

A board passes iff every safe cell ends up open. A round is one batch of moves
(for single-point, one pass of its work list).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from minestats.foundations.board import Board
from minestats.foundations.deprecation import renamed_parameters
from minestats.foundations.result import Result, setting_columns
from minestats.foundations.validation import (
    DEFAULT_MAX_CONFIGURATIONS,
    SOLVERS,
    check_solver_options,
)
from minestats.mechanics.game import as_layouts, neighbour_counts, neighbour_table
from minestats.solvers.exhaustive import check_size, exhaustive_moves
from minestats.solvers.logic import logic_batch, logic_game
from minestats.solvers.single_point import propagate, single_point_batch
from minestats.solvers.state import CheckedGame, Moves, unsound
from minestats.solvers.subset import subset_moves

__all__ = ["DEFAULT_MAX_CONFIGURATIONS", "SOLVERS", "BatchSolveResult", "SolveResult",
           "SolverOptions", "deduce", "solve", "solve_batch"]

@dataclass(frozen=True)
class SolverOptions:
    """Which deductions a solver (or a player, between guesses) may use; validated.

    Parameters
    ----------
    solver : {'logic', 'subset', 'single-point', 'exhaustive'}, optional
    use_mine_count : bool, optional
        Whether the solver may use the total mine count (``single-point`` never does).
    max_configurations : int, optional
        ``logic`` gives up (``capped``) when one stall needs more configurations.

    Examples
    --------
    >>> SolverOptions()
    SolverOptions(solver='logic', use_mine_count=True, max_configurations=200000)
    >>> SolverOptions("subset", use_mine_count=False).solver
    'subset'
    >>> SolverOptions(max_configurations=0)
    Traceback (most recent call last):
    ...
    ValueError: max_configurations (0) must be a positive integer
    """

    solver: str = "logic"
    use_mine_count: bool = True
    max_configurations: int = DEFAULT_MAX_CONFIGURATIONS

    def __post_init__(self):
        _, use_mine_count, max_configurations = check_solver_options(
            self.solver, self.use_mine_count, self.max_configurations)
        object.__setattr__(self, "use_mine_count", use_mine_count)
        object.__setattr__(self, "max_configurations", max_configurations)


@dataclass(frozen=True, eq=False)
class SolveResult(Result):
    """Outcome of one solver run on one layout.

    Attributes
    ----------
    board : Board
        Size and mine count of the layout.
    click : tuple of int
        The first click ``(x, y)``.
    solver : str
    use_mine_count : bool
    max_configurations : int
    solved : bool
        Every safe cell was opened.
    capped : bool
        ``logic`` gave up: one stall needed more than ``max_configurations``
        configurations. A capped board is not solved, but it is not a proven failure.
    lost : bool
        The first click hit a mine.
    rounds : int
        Number of rounds of deductions that made a move.
    revealed, flagged : numpy.ndarray of bool, shape (height, width)
        Final open cells (a lost game shows only the clicked mine) and flags.
    """

    board: Board
    click: tuple[int, int]
    solver: str
    use_mine_count: bool
    max_configurations: int
    solved: bool
    capped: bool
    lost: bool
    rounds: int
    revealed: np.ndarray = field(repr=False)
    flagged: np.ndarray = field(repr=False)

    def to_dict(self) -> dict:
        """One table row: the setting, the solver, the outcome, the masks as their counts.

        It opens with `minestats.foundations.result.setting_columns`, whose rule is None:
        the layout was given, not drawn.

        Examples
        --------
        >>> layout = np.zeros((2, 3), dtype=bool)
        >>> solve(layout, "corner").to_dict()["revealed_cells"]
        6
        """
        return {
            **setting_columns(self.board, None, self.click, size=True), "solver": self.solver,
            "use_mine_count": self.use_mine_count,
            "max_configurations": self.max_configurations,
            "solved": self.solved, "capped": self.capped, "lost": self.lost,
            "rounds": self.rounds, "revealed_cells": int(self.revealed.sum()),
            "flagged_cells": int(self.flagged.sum()),
        }


def _moves(state: CheckedGame, options: SolverOptions) -> Moves:
    """Deductions of the solver beyond single-point (``logic`` runs compiled, whole)."""
    if options.solver == "exhaustive":
        return exhaustive_moves(state, use_mine_count=options.use_mine_count)
    return subset_moves(state, use_mine_count=options.use_mine_count)


def deduce(state: CheckedGame, options: SolverOptions) -> tuple[int, bool]:
    """Open and flag every cell the solver can prove, until it stalls.

    A won game goes on until every provable mine is flagged too, so the final flags
    are the solver's full knowledge.

    This is one step of a game: `solve` calls it once after the first click, and a
    player calls it again after each guess.

    Parameters
    ----------
    state : CheckedGame
        The game, changed in place; every move is checked against the layout.
    options : SolverOptions

    Returns
    -------
    rounds : int
        Rounds of deductions that made a move.
    capped : bool
        ``logic`` gave up at the stall (too many configurations).

    Examples
    --------
    >>> state = CheckedGame(np.array([[0, 0, 0], [0, 0, 0], [0, 1, 0]], dtype=bool),
    ...                     "corner")
    >>> deduce(state, SolverOptions("logic")), state.won
    ((2, False), True)
    """
    if options.solver == "logic" and not state.lost:
        rounds, capped, bad, flag = logic_game(
            state.mines, state.numbers, state.table, state.board.width,
            options.use_mine_count, options.max_configurations, state.revealed, state.flagged)
        if bad >= 0:
            raise unsound(state.solver, state.cell(bad), flag=bool(flag))
        return int(rounds), bool(capped)
    rounds, capped = 0, False
    while not state.lost:
        if options.solver != "exhaustive":
            rounds += propagate(state, solver=options.solver)
        if options.solver == "single-point":
            break
        moves = _moves(state, options)
        capped = moves.capped
        if capped or not (moves.safe or moves.mines):
            break
        state.open_proven(sorted(moves.safe))
        state.flag_proven(sorted(moves.mines))
        rounds += 1
    return rounds, capped


@renamed_parameters({"mines": "layout"}, removed_in="0.4")
def solve(layout, click, *, solver="logic", use_mine_count=True,
          max_configurations=DEFAULT_MAX_CONFIGURATIONS):
    """Play a board from one click using only sound deductions.

    Parameters
    ----------
    layout : array_like of bool, shape (height, width)
        The layout; it defines the board (size and mine count).
    click : tuple of int or str
        The first click: ``(x, y)``, ``"x,y"``, ``"centre"`` or ``"corner"``.
    solver : {'logic', 'subset', 'single-point', 'exhaustive'}, optional
        Which deductions to use (see the module notes).
    use_mine_count : bool, optional
        Whether the solver may use the total mine count (``single-point`` never does).
    max_configurations : int, optional
        ``logic`` gives up (``capped=True``) when one stall needs more configurations.

    Returns
    -------
    SolveResult

    Raises
    ------
    ValueError
        For a bad layout, click or option, or a board too big for ``exhaustive``.
    RuntimeError
        If a solver would make an unsound move (a bug).

    Examples
    --------
    Mines at (0, 2) and (3, 2) under a 4x3 board; clicking (1, 0) opens the top two
    rows, showing 1 1 1 1. Single-point is stuck; the subset rule finishes it.

    >>> layout = np.array([[0, 0, 0, 0],
    ...                    [0, 0, 0, 0],
    ...                    [1, 0, 0, 1]], dtype=bool)
    >>> solve(layout, (1, 0), solver="single-point").solved
    False
    >>> result = solve(layout, (1, 0), solver="subset")
    >>> result.solved, result.rounds, int(result.flagged.sum())
    (True, 2, 2)
    >>> solve(layout, (0, 2)).lost
    True
    """
    options = SolverOptions(solver, use_mine_count, max_configurations)
    layout = as_layouts(layout, ndims=(2,))
    if solver == "exhaustive":
        check_size(layout.shape[1], layout.shape[0])
    state = CheckedGame(layout, click, solver=solver)
    rounds, capped = deduce(state, options)
    revealed, flagged = (mask.reshape(layout.shape) for mask in (state.revealed, state.flagged))
    return SolveResult(
        board=state.board, click=state.click, solver=solver,
        use_mine_count=options.use_mine_count, max_configurations=options.max_configurations,
        solved=state.won, capped=capped, lost=state.lost, rounds=rounds,
        revealed=revealed, flagged=flagged,
    )


@dataclass(frozen=True, eq=False)
class BatchSolveResult(Result):
    """Outcome of one solver run on each layout of a batch.

    Attributes
    ----------
    board : Board
        Size of the layouts and the mine count of the first one.
    click, solver, use_mine_count, max_configurations
        The inputs, as in `SolveResult`.
    solved, capped, lost : numpy.ndarray of bool, shape (n,)
        Per board, as in `SolveResult`.
    """

    board: Board
    click: tuple[int, int]
    solver: str
    use_mine_count: bool
    max_configurations: int
    solved: np.ndarray = field(repr=False)
    capped: np.ndarray = field(repr=False)
    lost: np.ndarray = field(repr=False)

    @property
    def n(self) -> int:
        """Number of boards."""
        return int(self.solved.size)

    def to_dict(self) -> dict:
        """One table row: the setting (no rule), the solver, counts of solved, capped, lost.

        Examples
        --------
        >>> layouts = np.zeros((4, 2, 3), dtype=bool)
        >>> solve_batch(layouts, "corner", solver="single-point").to_dict()["solved"]
        4
        """
        return {
            **setting_columns(self.board, None, self.click, size=True),
            "solver": self.solver, "use_mine_count": self.use_mine_count,
            "max_configurations": self.max_configurations, "n": self.n,
            "solved": int(self.solved.sum()), "capped": int(self.capped.sum()),
            "lost": int(self.lost.sum()),
        }


@renamed_parameters({"mines": "layouts"}, removed_in="0.4")
def solve_batch(layouts, click, *, solver="logic", use_mine_count=True,
                max_configurations=DEFAULT_MAX_CONFIGURATIONS):
    """Run one solver on every layout of a batch, from the same click.

    ``single-point`` and ``logic`` solve the whole batch in one compiled call; the
    other solvers call `solve` board by board.

    Parameters
    ----------
    layouts : array_like of bool, shape (n, height, width)
        The layouts.
    click, solver, use_mine_count, max_configurations
        As in `solve`.

    Returns
    -------
    BatchSolveResult

    Examples
    --------
    >>> solvable = [[0, 0, 0], [0, 0, 0], [0, 1, 1]]
    >>> lost = [[1, 0, 0], [0, 0, 0], [0, 0, 0]]
    >>> stuck = [[0, 0, 0], [0, 0, 0], [1, 0, 1]]
    >>> result = solve_batch(np.array([solvable, lost, stuck], dtype=bool), "corner",
    ...                      solver="single-point")
    >>> result.solved, result.lost
    (array([ True, False, False]), array([False,  True, False]))
    >>> solve_batch(np.array([stuck]), "corner", use_mine_count=False).solved
    array([ True])
    """
    options = SolverOptions(solver, use_mine_count, max_configurations)
    layouts = as_layouts(layouts, ndims=(3,))
    boards, height, width = layouts.shape
    board = Board(width, height, int(layouts[0].sum()) if boards else 0)
    click = board.resolve_click(click)
    if solver == "single-point":
        solved, lost = single_point_batch(layouts, board.index(click))
        capped = np.zeros(boards, dtype=bool)
    elif solver == "logic":
        flat = layouts.reshape(boards, height * width)
        solved, capped, lost, bad_cell, bad_flag = logic_batch(
            flat, neighbour_counts(layouts).reshape(boards, height * width),
            neighbour_table(width, height), board.index(click), width,
            options.use_mine_count, options.max_configurations)
        wrong = np.flatnonzero(bad_cell >= 0)
        if wrong.size:
            at = int(wrong[0])
            cell = int(bad_cell[at])
            raise unsound("logic", (cell % width, cell // width), flag=bool(bad_flag[at]),
                          board=at)
    else:
        results = [solve(layout, click, solver=solver, use_mine_count=options.use_mine_count,
                         max_configurations=options.max_configurations)
                   for layout in layouts]
        solved, capped, lost = (
            np.array([getattr(r, name) for r in results], dtype=bool)
            for name in ("solved", "capped", "lost"))
    return BatchSolveResult(board=board, click=click, solver=solver,
                            use_mine_count=options.use_mine_count,
                            max_configurations=options.max_configurations,
                            solved=solved, capped=capped, lost=lost)
