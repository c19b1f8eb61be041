"""Plain-Python references and random layouts shared by the tests and the benchmarks.

Written independently of minestats: lists, sets and tuples only, no numpy kernels,
so the compiled solvers can be checked against them board by board.
"""

import numpy as np

__all__ = ["plain_single_point", "random_layouts"]


def random_layouts(rng, n, width, height, mines, click=None):
    """``n`` layouts with ``mines`` mines placed uniformly.

    With ``click = (x, y)`` the mines avoid the click's 3x3 neighbourhood (the
    ``safe-opening`` rule); otherwise they go anywhere.
    """
    allowed = np.ones((height, width), dtype=bool)
    if click is not None:
        x, y = click
        allowed[max(y - 1, 0): y + 2, max(x - 1, 0): x + 2] = False
    cells = np.flatnonzero(allowed)
    if mines > cells.size:
        raise ValueError(f"mines ({mines}) must be at most {cells.size}")
    chosen = np.argsort(rng.random((n, cells.size)), axis=1)[:, :mines]
    layouts = np.zeros((n, height * width), dtype=bool)
    np.put_along_axis(layouts, cells[chosen], True, axis=1)
    return layouts.reshape(n, height, width)


def plain_single_point(mines, click):
    """The published single-point method in plain Python.

    ``mines`` is a list of rows of bools (``mines[y][x]``); ``click`` is ``(x, y)``.
    Returns ``(opened, flags)``, sets of ``(x, y)``, or ``None`` if the click is a mine.
    """
    height, width = len(mines), len(mines[0])

    def around(cell):
        x, y = cell
        return [(x + dx, y + dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1)
                if (dx or dy) and 0 <= x + dx < width and 0 <= y + dy < height]

    number = {(x, y): sum(mines[v][u] for u, v in around((x, y)))
              for y in range(height) for x in range(width)}
    if mines[click[1]][click[0]]:
        return None
    opened, flags = set(), set()

    def open_from(cell):
        todo = [cell]
        while todo:
            here = todo.pop()
            if here not in opened:
                opened.add(here)
                if number[here] == 0:
                    todo.extend(around(here))

    open_from(click)
    changed = True
    while changed:
        changed = False
        for cell in list(opened):
            neighbours = around(cell)
            hidden = [c for c in neighbours if c not in opened and c not in flags]
            flagged = sum(c in flags for c in neighbours)
            if not hidden:
                continue
            if flagged + len(hidden) == number[cell]:
                flags.update(hidden)
                changed = True
            elif flagged == number[cell]:
                for c in hidden:
                    open_from(c)
                changed = True
    return opened, flags
