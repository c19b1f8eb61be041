"""The cells ``best`` scores at a guess, and the rules that add, defer or replace them.

`rank_candidates` lists the nearly safest cells (and those two steps out, and those
the 50/50 weight lifts); `off_frontier_in_reach`, `in_large_space` and
`two_steps_out` are Hill's rules for cells off the frontier and small spaces;
`dominating` replaces the choice by a safer cell its safety proves safe;
`isolated_move` plays a region no number ties to the rest by the exact end game.
"""

from __future__ import annotations

import numpy as np

from minestats.foundations.compiled import compiled
from minestats.players.endgame import LISTING_BUDGET, SEARCH_BUDGET, endgame_cells, list_layouts
from minestats.players.picks import TIE, unknown_neighbours

__all__ = ["DOMINANCE_MARGIN", "dominating", "in_large_space", "isolated_move",
           "off_frontier_in_reach", "rank_candidates", "two_steps_out"]

DOMINANCE_MARGIN = 0.001
"""A candidate dominates the choice only when safer by more than this (`dominating`)."""


@compiled
def rank_candidates(safety, crowd, frontier, boost, share, most, off_frontier_most, two_step,
                    two_step_most):
    """Return the cells ``best`` scores as ``(ranks, first)``, positions in ``safety``.

    The safest cells, at least ``share`` as safe as the safest, ``most`` of them, at
    most ``off_frontier_most`` off the frontier (those with the fewest unknown
    neighbours, ``crowd``, first); then up to ``two_step_most`` of the ``two_step``
    cells (`two_steps_out`) that pass the same bar, in the same order; then up to
    ``most`` more whose safety plus ``boost`` (the 50/50 weight times the chance that
    the cell is the safe half of a 50/50 that may form) passes the same bar. The boost
    only adds candidates: were it to rank them, a trace of influence would displace the
    corners that represent the cells off the frontier (on 40,000 paired 16x16/40 games
    of a development stream that cost 0.78 points at weight 0.9). ``first`` is the
    safest cell, for a position where no cell may be a candidate.
    """
    threshold = share * safety.max() - TIE
    by_crowd = np.argsort(crowd, kind="mergesort")
    ranked = by_crowd[np.argsort(-safety[by_crowd], kind="mergesort")]
    ranks = np.empty(2 * most + two_step_most, dtype=np.int64)
    taken = np.zeros(safety.size, dtype=np.bool_)
    count = off_frontier = 0
    for rank in ranked:
        if safety[rank] < threshold or count >= most:
            break
        if not frontier[rank]:
            if off_frontier >= off_frontier_most:
                continue
            off_frontier += 1
        ranks[count] = rank
        taken[rank] = True
        count += 1
    stepped = 0
    for rank in ranked:
        if safety[rank] < threshold or stepped >= two_step_most:
            break
        if two_step[rank] and not taken[rank]:
            ranks[count] = rank
            taken[rank] = True
            count += 1
            stepped += 1
    if boost.max() <= 0:
        return ranks[:count], ranked[0]
    standing = safety + boost
    extra = 0
    for rank in by_crowd[np.argsort(-standing[by_crowd], kind="mergesort")]:
        if standing[rank] < threshold or extra >= most:
            break
        if not taken[rank] and boost[rank] > 0:
            ranks[count] = rank
            count += 1
            extra += 1
    return ranks[:count], ranked[0]


@compiled
def dominating(cell, candidates, scores, probability, always_safe):
    """Return the candidate that dominates ``cell``, the choice by score, else ``cell``.

    Of the candidates that ``cell``'s safety proves safe (``always_safe``, a row per
    candidate) and that are safer than it by more than `DOMINANCE_MARGIN`, the one of
    highest score: it is safe whenever ``cell`` is, so opening it first gives up
    nothing (``cell`` may still be opened after it) and shows a number more, as
    Hill's player reasons [1]_.

    References
    ----------
    .. [1] D. N. Hill, "JSMinesweeper", https://github.com/DavidNHill/JSMinesweeper
       (its guess: a safer move that the chosen one's safety implies is played
       instead).
    """
    at = np.flatnonzero(candidates == cell)[0]
    for k in np.argsort(-scores, kind="mergesort"):
        alternative = candidates[k]
        if (k != at and always_safe[at, alternative]
                and probability[cell] - probability[alternative] > DOMINANCE_MARGIN):
            return alternative
    return cell


@compiled
def two_steps_out(unknown, frontier, numbers, table, revealed, flagged, width):
    """Mark the cells off the frontier two steps in line from a number with unknown neighbours.

    Such a cell shares unknown neighbours with the frontier, so its number tells about
    the frontier too; Hill's player scores these cells among its guesses off the
    frontier [1]_.

    References
    ----------
    .. [1] D. N. Hill, "JSMinesweeper", https://github.com/DavidNHill/JSMinesweeper
       (its candidates off the edge: the cells two steps across or down from a
       witness).
    """
    height = revealed.size // width
    marked = np.zeros(unknown.size, dtype=np.bool_)
    for i in range(unknown.size):
        if frontier[i]:
            continue
        x, y = unknown[i] % width, unknown[i] // width
        for dx, dy in ((2, 0), (-2, 0), (0, 2), (0, -2)):
            if 0 <= x + dx < width and 0 <= y + dy < height:
                j = (y + dy) * width + x + dx
                if revealed[j] and numbers[j] > 0 and unknown_neighbours(j, table, revealed,
                                                                         flagged) > 0:
                    marked[i] = True
                    break
    return marked


@compiled
def _hop_flood(start, table, revealed, passable, seen, queue, stop):
    """Mark the ``passable`` cells reached from ``start``; return how many, at most ~``stop``.

    A step goes to a passable neighbour, or hops over a revealed neighbour to a
    passable neighbour of it. The cells reached are marked in ``seen`` (cells
    already marked are not entered) and listed first in ``queue``; the flood stops
    once it has listed ``stop`` cells or more.
    """
    seen[start] = True
    queue[0] = start
    head, tail = 0, 1
    while head < tail and tail < stop:
        here = queue[head]
        head += 1
        for t in range(table.shape[1]):
            step = table[here, t]
            if step < 0:
                break
            if passable[step]:
                if not seen[step]:
                    seen[step] = True
                    queue[tail] = step
                    tail += 1
                continue
            if not revealed[step]:
                continue
            for u in range(table.shape[1]):
                hop = table[step, u]
                if hop < 0:
                    break
                if passable[hop] and not seen[hop]:
                    seen[hop] = True
                    queue[tail] = hop
                    tail += 1
    return tail


@compiled
def in_large_space(cell, table, revealed, threshold):
    """Return whether ``cell`` lies in a space of at least ``threshold`` covered cells.

    The space is the covered cells (unknown or flagged) reached from ``cell`` by steps
    to a neighbour, where a step may hop over one revealed cell to a covered
    neighbour of it: a number between two covered areas ties them together. Hill's
    player puts off guessing in a space below 8 cells while a guess elsewhere is
    as good a candidate [1]_: the mine count, known better later, may settle it.

    References
    ----------
    .. [1] D. N. Hill, "Minesweeper" (Java solver),
       https://github.com/DavidNHill/Minesweeper (its space counter: a candidate in
       an area below 8 covered tiles is deferred).
    """
    passable = ~revealed
    reached = _hop_flood(cell, table, revealed, passable, np.zeros(revealed.size, np.bool_),
                         np.empty(revealed.size, dtype=np.int64), threshold)
    return reached >= threshold


@compiled
def off_frontier_in_reach(safety, frontier, share):
    """Return whether a cell off the frontier is at least ``share`` as safe as the safest.

    Hill's player looks at cells off the frontier only when they are more than 0.95
    times as safe as the best cell [1]_; ``best``'s own bar for every candidate is
    ``candidate_share``, so a ``share`` at or below it changes nothing.

    References
    ----------
    .. [1] D. N. Hill, "Minesweeper" (Java solver),
       https://github.com/DavidNHill/Minesweeper (its tolerance for tiles off the
       edge).
    """
    off_safety = -1.0
    for i in range(safety.size):
        if not frontier[i]:
            off_safety = max(off_safety, safety[i])
    return off_safety >= share * safety.max() - TIE


@compiled
def isolated_move(numbers, table, revealed, flagged, width, most_cells, limit):
    """Play a region cut off from the rest exactly: ``(cells, found)``.

    A region is a set of unknown cells closed under adjacency and under sharing a
    revealed neighbour, so no number sees both it and the rest. When every layout
    that fits it holds the same number of mines, it is independent of the rest of
    the board, and the exact end game (`minestats.players.endgame.endgame_cells`)
    solved on it alone, the rest taken as open, plays it perfectly whatever the
    other layouts are. The smallest such region of at most ``most_cells`` cells
    with at most ``limit`` layouts is chosen; Hill's player solves such regions
    apart in the same way [1]_.

    References
    ----------
    .. [1] D. N. Hill, "Minesweeper" (Java solver),
       https://github.com/DavidNHill/Minesweeper (its check for an isolated edge,
       brute-forced on its own).
    """
    cells = revealed.size
    unknown = ~revealed & ~flagged
    seen = np.zeros(cells, dtype=np.bool_)
    queue = np.empty(cells, dtype=np.int64)
    unknown_total = unknown.sum()
    flags = flagged.sum()
    best_cells = np.empty(0, dtype=np.int64)
    best_size = most_cells + 1
    for start in range(cells):
        if not unknown[start] or seen[start]:
            continue
        size = _hop_flood(start, table, revealed, unknown, seen, queue, cells)
        members = queue[:size].copy()
        if size < 2 or size >= best_size or size == unknown_total:
            continue
        # The position with only this region unknown: the rest open, numbers that do
        # not see the region showing just their flags.
        apart = revealed.copy()
        shown = numbers.copy()
        near = np.zeros(cells, dtype=np.bool_)
        for k in range(size):
            for t in range(table.shape[1]):
                j = table[members[k], t]
                if j < 0:
                    break
                near[j] = True
        inside = np.zeros(cells, dtype=np.bool_)
        inside[members] = True
        for cell in range(cells):
            if unknown[cell] and not inside[cell]:
                apart[cell] = True
            if apart[cell] and not near[cell]:
                around = 0
                for t in range(table.shape[1]):
                    j = table[cell, t]
                    if j < 0:
                        break
                    if j != cell and flagged[j]:
                        around += 1
                shown[cell] = around
        fixed, fitting = -1, 0
        for k in range(size + 1):
            status, _, _ = list_layouts(shown, table, apart, flagged, width, flags + k, limit,
                                        LISTING_BUDGET)
            if status < 0:  # too many: not solved apart
                fitting = 2
                break
            if status > 0:
                fixed = k
                fitting += 1
                if fitting > 1:
                    break
        if fitting != 1:
            continue
        found, _, layouts = endgame_cells(shown, table, apart, flagged, width, flags + fixed,
                                          limit, LISTING_BUDGET, SEARCH_BUDGET,
                                          np.empty(0, dtype=np.int64))
        if layouts > 1 and found.size:
            best_cells, best_size = found, size
    return best_cells, best_cells.size > 0
