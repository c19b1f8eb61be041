"""The solvers' game: a `minestats.mechanics.game.Game` whose proven moves are checked.

The solvers see only what a player sees: the revealed numbers, their own flags and
the total mine count. `CheckedGame` adds one thing to `Game`: a move a solver claims
to have proven is checked against the layout as it is made, and opening a mine or
flagging a safe cell is a solver bug that raises. A player's guesses go through
`Game.open_index`, which may lose.
"""

from __future__ import annotations

from typing import NamedTuple

from minestats.mechanics.game import Game

__all__ = ["CheckedGame", "Moves", "unsound"]


class Moves(NamedTuple):
    """Cells a deduction step proved safe and proved mined (linear indices).

    ``capped`` is True when the step gave up because its enumeration cap was hit.
    """

    safe: frozenset
    mines: frozenset
    capped: bool = False


def unsound(solver: str, cell: tuple[int, int], *, flag: bool, board=None) -> RuntimeError:
    """Build the error for an unsound move: opening a mine, or flagging a safe cell.

    Examples
    --------
    >>> unsound("logic", (3, 4), flag=True)
    RuntimeError("solver 'logic' would flag cell (3, 4), which is safe")
    """
    move, truth = ("flag", "safe") if flag else ("open", "a mine")
    where = "" if board is None else f" on board {board} of the batch"
    return RuntimeError(f"solver {solver!r} would {move} cell {cell}{where}, which is {truth}")


class CheckedGame(Game):
    """A game after its first click, whose proven moves are checked against the layout.

    Parameters
    ----------
    layout : array_like of bool, shape (height, width)
        The true layout.
    click : tuple of int or str
        The first click, resolved like `Board.resolve_click`; it may hit a mine
        (then the game is lost at once).
    solver : str, optional
        Name of the solver or player, used in the error for an unsound move.

    Attributes
    ----------
    click : tuple of int
        The resolved first click ``(x, y)``.

    Examples
    --------
    >>> state = CheckedGame([[0, 0, 0, 1]], "corner")
    >>> state.revealed.astype(int), state.unknown
    (array([1, 1, 1, 0]), array([3]))
    >>> state.flag_proven([3])
    >>> state.won, state.remaining_mines
    (True, 0)
    >>> CheckedGame([[0, 0, 0, 1]], "corner", solver="demo").open_proven([3])
    Traceback (most recent call last):
    ...
    RuntimeError: solver 'demo' would open cell (3, 0), which is a mine
    """

    def __init__(self, layout, click, *, solver: str = "logic"):
        super().__init__(layout)
        self.solver = solver
        self.click = self.board.resolve_click(click)
        self._open(self.board.index(self.click))  # may lose; on a board of mines only, too

    @property
    def mines(self):
        """The true layout, flat: read only to check moves, never to choose them."""
        return self._mines

    def open_proven(self, cells) -> None:
        """Open cells the solver proved safe, flood-filling through zeros.

        Raises
        ------
        RuntimeError
            If a cell holds a mine: the solver made an unsound deduction.
        """
        for index in cells:
            if self._mines[index]:
                raise unsound(self.solver, self.cell(index), flag=False)
            self._open(index)

    def flag_proven(self, cells) -> None:
        """Flag cells the solver proved to be mines.

        Raises
        ------
        RuntimeError
            If a cell is safe: the solver made an unsound deduction.
        """
        for index in cells:
            if not self._mines[index]:
                raise unsound(self.solver, self.cell(index), flag=True)
            self.flagged[index] = True
