"""The first-click rules on a board: validation and the cells each rule may mine.

The rules themselves, what each keeps free of mines and whether it moves a mine from
under the click, are the table of `minestats.foundations.rules`; every rule places
exactly ``board.mines`` mines, uniformly at random subject to its constraint. Here they
meet a board and a click: how many mines fit (`max_mines`), whether they do
(`check_rule`, `check_click`), the cells a rule places its mines among
(`placement_cells`), and the order Windows XP moves a mine in (`winxp_order`).
"""

from __future__ import annotations

import numpy as np

from minestats.foundations.board import Board, resolve_board
from minestats.foundations.compiled import compiled
from minestats.foundations.validation import RULES, quoted, resolve_rule

__all__ = ["RULES", "check_click", "check_rule", "max_mines", "placement_cells", "winxp_order"]


def max_mines(board: Board, click, rule) -> int:
    """Largest mine count that ``rule`` can place for this click on this board.

    Examples
    --------
    >>> from minestats.foundations.board import BEGINNER
    >>> [max_mines(BEGINNER, (4, 4), rule) for rule in RULES]
    [81, 80, 72, 80]
    >>> max_mines(BEGINNER, (0, 0), "safe-opening")
    77
    """
    rule = resolve_rule(rule)
    board = resolve_board(board)
    return rule.max_mines(board, board.resolve_click(click))


def check_rule(board: Board, click, rule) -> tuple[int, int]:
    """Validate a rule and click for a board; return the click as ``(x, y)``.

    ``safe-click`` and ``winxp`` need a mine-free cell besides the click, and
    ``safe-opening`` needs the whole closed neighbourhood of the click mine-free.

    Raises
    ------
    ValueError
        If the rule is unknown, the click is off the board, or the rule cannot
        place ``board.mines`` mines.

    Examples
    --------
    >>> from minestats.foundations.board import Board
    >>> check_rule(Board(9, 9, 10), "centre", "winxp")
    (4, 4)
    >>> check_rule(Board(3, 3, 1), "centre", "safe-opening")
    Traceback (most recent call last):
    ...
    ValueError: mines (1) must be at most 0 for rule 'safe-opening' on 3x3 with click (1, 1)
    """
    rule = resolve_rule(rule)
    board = resolve_board(board)
    click = board.resolve_click(click)
    limit = rule.max_mines(board, click)
    if board.mines > limit:
        raise ValueError(
            f"mines ({board.mines}) must be at most {limit} for rule {quoted(rule.name)} on "
            f"{board.width}x{board.height} with click {click}"
        )
    return click


def placement_cells(board: Board, click, rule) -> np.ndarray:
    """Linear indices, ascending, of the cells among which ``rule`` places its mines.

    Every cell the rule does not protect; for a relocating rule (``winxp``) these are
    all cells: its relocation happens after placement.

    Examples
    --------
    >>> from minestats.foundations.board import Board
    >>> placement_cells(Board(3, 2, 1), (0, 0), "safe-click")
    array([1, 2, 3, 4, 5])
    >>> placement_cells(Board(3, 2, 1), (0, 0), "safe-opening")
    array([2, 5])
    """
    board = resolve_board(board)
    click = check_rule(board, click, rule)
    allowed = np.ones(board.cells, dtype=bool)
    allowed[list(resolve_rule(rule).protected_cells(board, click))] = False
    return np.flatnonzero(allowed)


def check_click(board, click, rule=None) -> tuple[int, int]:
    """Return the click as ``(x, y)`` on the board; with a rule, check it can place the mines.

    The board is read by `minestats.foundations.board.resolve_board` and the click by
    `minestats.foundations.board.Board.resolve_click`. Given a first-click rule, the board's
    mines must also fit outside the cells the rule keeps free
    (`check_rule`).

    Examples
    --------
    >>> check_click("expert", "centre"), check_click("beginner", "2,3", "winxp")
    ((15, 8), (2, 3))
    >>> check_click("3x3/1", "centre", "safe-opening")
    Traceback (most recent call last):
    ...
    ValueError: mines (1) must be at most 0 for rule 'safe-opening' on 3x3 with click (1, 1)
    """
    board = resolve_board(board)
    if rule is None:
        return board.resolve_click(click)
    return check_rule(board, click, rule)


@compiled
def winxp_order(cells, click):
    """Return the cells Windows XP may move a mine under ``click`` to, in the order it tries.

    Row-major order (linear indices), the click skipped: the mine goes to the first
    of them without a mine (`minestats.mechanics.sampling`), so under ``winxp`` a layout weighs
    1 + the mines at the start of this order (`minestats.inference.probabilities`).

    Examples
    --------
    >>> winxp_order(6, 1).tolist()
    [0, 2, 3, 4, 5]
    """
    order = np.empty(cells - 1, dtype=np.int64)
    k = 0
    for cell in range(cells):
        if cell != click:
            order[k] = cell
            k += 1
    return order
