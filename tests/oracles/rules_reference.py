"""Plain-Python references for the first-click rules, written from the definitions alone.

Shared by the tests of the closed forms and of the samplers.
"""

from fractions import Fraction
from itertools import combinations


def neighbourhood(board, cell):
    x, y = cell % board.width, cell // board.width
    return {
        (x + dx) + (y + dy) * board.width
        for dx in (-1, 0, 1)
        for dy in (-1, 0, 1)
        if 0 <= x + dx < board.width and 0 <= y + dy < board.height
    }


def xp_relocate(board, mines, click):
    """Windows XP: a mine under the click moves to the first free cell, row-major."""
    if click not in mines:
        return mines
    target = next(i for i in range(board.cells) if i not in mines and i != click)
    return (mines - {click}) | {target}


def layouts(board, click, rule):
    """Every equally likely placement of the rule (XP: with its relocation applied)."""
    around = neighbourhood(board, click)
    pool = {
        "uniform": range(board.cells),
        "winxp": range(board.cells),
        "safe-click": [i for i in range(board.cells) if i != click],
        "safe-opening": [i for i in range(board.cells) if i not in around],
    }[rule]
    for chosen in combinations(pool, board.mines):
        mines = frozenset(chosen)
        yield xp_relocate(board, mines, click) if rule == "winxp" else mines


def layout_distribution(board, click, rule):
    """Exact probability of each final layout (a frozenset of mined cells)."""
    weights = {}
    for mines in layouts(board, click, rule):
        weights[mines] = weights.get(mines, 0) + 1
    total = sum(weights.values())
    return {mines: Fraction(count, total) for mines, count in weights.items()}


def opening_probability_by_enumeration(board, click, rule):
    around = neighbourhood(board, click)
    hits = total = 0
    for mines in layouts(board, click, rule):
        total += 1
        hits += not (mines & around)
    return Fraction(hits, total)
