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

from minestats.board import Board
from minestats.game import as_layouts
from minestats.solvers.exhaustive import check_size, exhaustive_moves
from minestats.solvers.logic import logic_moves
from minestats.solvers.single_point import propagate, single_point_batch
from minestats.solvers.state import GameState
from minestats.solvers.subset import subset_moves

__all__ = ["SOLVERS", "BatchSolveResult", "SolveResult", "check_options", "solve", "solve_batch"]

SOLVERS = ("single-point", "subset", "logic", "exhaustive")


def check_options(solver, use_mine_count, max_configurations) -> None:
    """Raise ValueError, naming the value, unless the solver options are valid.

    Examples
    --------
    >>> check_options("logic", True, 200_000)
    >>> check_options("psychic", True, 1)
    Traceback (most recent call last):
    ...
    ValueError: solver 'psychic' is not one of single-point, subset, logic, exhaustive
    """
    if solver not in SOLVERS:
        raise ValueError(f"solver {solver!r} is not one of {', '.join(SOLVERS)}")
    if not isinstance(use_mine_count, bool | np.bool_):
        raise ValueError(f"use_mine_count ({use_mine_count!r}) must be True or False")
    if (isinstance(max_configurations, bool)
            or not isinstance(max_configurations, int | np.integer)
            or max_configurations < 1):
        raise ValueError(f"max_configurations ({max_configurations!r}) must be a positive integer")


@dataclass(frozen=True)
class SolveResult:
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
    revealed: np.ndarray = field(repr=False, compare=False)
    flagged: np.ndarray = field(repr=False, compare=False)

    def to_dict(self) -> dict:
        """One table row: inputs and outcome, the masks summarized by their counts.

        Examples
        --------
        >>> layout = np.zeros((2, 3), dtype=bool)
        >>> solve(layout, "corner").to_dict()["revealed_cells"]
        6
        """
        return {
            "board": str(self.board), "width": self.board.width,
            "height": self.board.height, "mines": self.board.mines,
            "click": f"{self.click[0]},{self.click[1]}", "solver": self.solver,
            "use_mine_count": self.use_mine_count,
            "max_configurations": self.max_configurations,
            "solved": self.solved, "capped": self.capped, "lost": self.lost,
            "rounds": self.rounds, "revealed_cells": int(self.revealed.sum()),
            "flagged_cells": int(self.flagged.sum()),
        }


def _deduce(state, solver, use_mine_count, max_configurations):
    """Deductions of ``solver`` beyond single-point, cheapest first."""
    if solver == "exhaustive":
        return exhaustive_moves(state, use_mine_count=use_mine_count)
    moves = subset_moves(state, use_mine_count=use_mine_count)
    if solver == "subset" or moves.safe or moves.mines:
        return moves
    return logic_moves(state, use_mine_count=use_mine_count,
                       max_configurations=max_configurations)


def solve(mines, click, *, solver="logic", use_mine_count=True, max_configurations=200_000):
    """Play a board from one click using only sound deductions.

    Parameters
    ----------
    mines : array_like of bool, shape (height, width)
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
    check_options(solver, use_mine_count, max_configurations)
    layout = as_layouts(mines, ndims=(2,))
    if solver == "exhaustive":
        check_size(layout.shape[1], layout.shape[0])
    state = GameState(layout, click)
    rounds, capped = 0, False
    while not state.lost:
        if solver != "exhaustive":
            rounds += propagate(state, solver=solver)
        if solver == "single-point":
            break
        moves = _deduce(state, solver, use_mine_count, max_configurations)
        capped = moves.capped
        if capped or not (moves.safe or moves.mines):
            break
        state.open(sorted(moves.safe), solver=solver)
        state.flag(sorted(moves.mines), solver=solver)
        rounds += 1
    revealed, flagged = (mask.reshape(layout.shape) for mask in (state.revealed, state.flagged))
    revealed.flags.writeable = flagged.flags.writeable = False
    return SolveResult(
        board=state.board, click=state.click, solver=solver,
        use_mine_count=bool(use_mine_count), max_configurations=int(max_configurations),
        solved=state.solved, capped=capped, lost=state.lost, rounds=rounds,
        revealed=revealed, flagged=flagged,
    )


@dataclass(frozen=True)
class BatchSolveResult:
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
    solved: np.ndarray = field(repr=False, compare=False)
    capped: np.ndarray = field(repr=False, compare=False)
    lost: np.ndarray = field(repr=False, compare=False)

    @property
    def n(self) -> int:
        """Number of boards."""
        return int(self.solved.size)

    def to_dict(self) -> dict:
        """One table row: inputs and the counts of solved, capped and lost boards.

        Examples
        --------
        >>> layouts = np.zeros((4, 2, 3), dtype=bool)
        >>> solve_batch(layouts, "corner", solver="single-point").to_dict()["solved"]
        4
        """
        return {
            "board": str(self.board), "click": f"{self.click[0]},{self.click[1]}",
            "solver": self.solver, "use_mine_count": self.use_mine_count,
            "max_configurations": self.max_configurations, "n": self.n,
            "solved": int(self.solved.sum()), "capped": int(self.capped.sum()),
            "lost": int(self.lost.sum()),
        }


def solve_batch(mines, click, *, solver="logic", use_mine_count=True,
                max_configurations=200_000):
    """Run one solver on every layout of a batch, from the same click.

    ``single-point`` solves the whole batch in one compiled call; the other solvers
    call `solve` board by board.

    Parameters
    ----------
    mines : array_like of bool, shape (n, height, width)
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
    check_options(solver, use_mine_count, max_configurations)
    layouts = as_layouts(mines, ndims=(3,))
    boards, height, width = layouts.shape
    board = Board(width, height, int(layouts[0].sum()) if boards else 0)
    click = board.resolve_click(click)
    if solver == "single-point":
        solved, lost = single_point_batch(layouts, board.index(click))
        capped = np.zeros(boards, dtype=bool)
    else:
        results = [solve(layout, click, solver=solver, use_mine_count=use_mine_count,
                         max_configurations=max_configurations) for layout in layouts]
        solved, capped, lost = (
            np.array([getattr(r, name) for r in results], dtype=bool)
            for name in ("solved", "capped", "lost"))
    return BatchSolveResult(board=board, click=click, solver=solver,
                            use_mine_count=bool(use_mine_count),
                            max_configurations=int(max_configurations),
                            solved=solved, capped=capped, lost=lost)
