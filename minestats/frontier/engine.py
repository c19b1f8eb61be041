"""The frontier engine: one compiled search shared by the solvers, inference and play.

A position is what a player sees: the revealed numbers, the flags and the total mine
count. Its *frontier* is the unknown cells next to a revealed number; each number
with unknown neighbours is one constraint (its unknown neighbours hold exactly the
mines it still needs). Frontier cells that lie in exactly the same constraints form
a *group*, whose cells are interchangeable, so only mines per group are enumerated;
groups that share no constraint, directly or through others, form independent
*components*.

- `frontier_groups` builds the constraints, groups and components, in search order.
- `enumerate_groups` searches each component depth-first and counts, per mine total,
  its layouts and the mines of each group.
- `analyse_position` combines the components with the cells off the frontier: the
  cells proven safe or mined (the ``logic`` solver's deductions) and every cell's mine
  probability, as floats, with log-scaled binomial weights for the cells off the
  frontier. It is the player's one call per position; `minestats.inference` holds
  the exact big-integer engine for the same numbers, and ``tests/inference/test_probabilities.py``
  checks the two against each other and against brute force.

Every kernel is compiled with numba and works on the flat arrays of a game
(`minestats.mechanics.game.Game`): numbers and masks of length ``cells`` and the neighbour
table (`minestats.mechanics.game.neighbour_table`).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from minestats.foundations.compiled import compiled

__all__ = ["FITS", "NO_FIT", "OVER_BUDGET", "Analysis", "Enumeration", "Frontier", "analyse",
           "analyse_frontier", "analyse_position", "closed_number_disagrees", "combine_components",
           "component_totals", "convolve_counts", "enumerate_groups", "flag_frontier_cell",
           "flags_and_hidden", "frontier_groups", "off_frontier_weights"]

FITS, NO_FIT, OVER_BUDGET = 0, 1, 2
"""Status codes of `analyse_position`: layouts fit; none fits; the search passed its budget."""


class Frontier(NamedTuple):
    """The frontier of a position, in search order (`frontier_groups`).

    ``frontier`` is the mask of frontier cells; group g has ``sizes[g]`` cells,
    ``group_cells[cell_starts[g]:cell_starts[g + 1]]``, and lies in the constraints
    ``members[starts[g]:starts[g + 1]]``; constraint c needs ``need[c]`` more mines;
    component k is groups ``component_starts[k]:component_starts[k + 1]``.
    """

    frontier: np.ndarray
    sizes: np.ndarray
    starts: np.ndarray
    members: np.ndarray
    need: np.ndarray
    component_starts: np.ndarray
    cell_starts: np.ndarray
    group_cells: np.ndarray


class Enumeration(NamedTuple):
    """What `enumerate_groups` found, per group or component and mine total t.

    ``mine[g, t]`` and ``safe[g, t]``: group g holds a mine (a safe cell) in some
    configuration of its component with t mines; ``seen[k, t]``: component k has a
    configuration with t mines; ``layouts[k, t]``: its layouts with t mines (a
    float); ``mined[g, t]``: the mines of group g summed over those layouts;
    ``visited``: configurations visited, partial ones included.
    """

    mine: np.ndarray
    safe: np.ndarray
    seen: np.ndarray
    layouts: np.ndarray
    mined: np.ndarray
    visited: int


class Analysis(NamedTuple):
    """A position analysed by `analyse`.

    ``status`` is `FITS`, `NO_FIT` or `OVER_BUDGET`; ``probability`` P(mine) per cell
    (NaN on revealed cells, 1 on flags; filled when the status is `FITS`);
    ``log_solutions`` the natural log of the number of layouts that fit;
    ``safe`` and ``mines`` the cells proven safe and mined.
    """

    status: int
    probability: np.ndarray
    log_solutions: float
    safe: np.ndarray
    mines: np.ndarray


@compiled
def frontier_groups(counts, table, revealed, flagged, width, settled=None):
    """Constraints, groups and components of the frontier, in search order.

    A constraint is a revealed number with unknown neighbours; the constraints that
    contain an unknown cell are exactly its revealed neighbours with a constraint, so
    a group's key is its least such neighbour plus a 15-bit mask of where the others
    lie in the 5x3 window starting two columns left of it. Constraints are ranked
    breadth-first through shared groups, component after component, and groups are
    sorted by their best-ranked constraint: each component is then one run of
    groups, and each constraint is completed soon after it starts.

    ``settled``, when given, marks revealed cells known to have no unknown neighbour
    (a game's own record, `minestats.players.kernel`): they are not looked at. The
    frontier is the unknown neighbours of the constraints, so only those cells are
    looked at for their groups.

    Returns a `Frontier`.
    """
    cells = counts.size
    constraint = np.full(cells, -1, dtype=np.int64)
    need = np.zeros(cells, dtype=np.int64)
    frontier = np.zeros(cells, dtype=np.bool_)
    constraints = 0
    for cell in range(cells):
        if not revealed[cell] or (settled is not None and settled[cell]):
            continue
        left, unknown = counts[cell], False
        for t in range(table.shape[1]):
            j = table[cell, t]
            if j < 0:
                break
            if flagged[j]:
                left -= 1
            elif not revealed[j]:
                unknown = True
                frontier[j] = True
        if unknown:
            constraint[cell] = constraints
            need[constraints] = left
            constraints += 1
    need = need[:constraints]
    keys = np.empty(cells, dtype=np.int64)
    members_of = np.empty(cells, dtype=np.int64)
    found = 0
    for cell in range(cells):
        if not frontier[cell]:
            continue
        anchor, mask = -1, 0
        for t in range(table.shape[1]):
            j = table[cell, t]
            if j < 0:
                break
            if constraint[j] >= 0:
                if anchor < 0:
                    anchor = j
                mask |= 1 << ((j // width - anchor // width) * 5 + j % width - anchor % width + 2)
        keys[found] = anchor * (1 << 15) + mask
        members_of[found] = cell
        found += 1
    order = np.argsort(keys[:found], kind="mergesort")
    # Groups: runs of equal keys.
    group_of = np.empty(found, dtype=np.int64)
    groups = 0
    for k in range(found):
        if k > 0 and keys[order[k]] != keys[order[k - 1]]:
            groups += 1
        group_of[k] = groups
    groups = groups + 1 if found else 0
    sizes = np.zeros(groups, dtype=np.int64)
    first_cell = np.empty(groups, dtype=np.int64)
    for k in range(found):
        if sizes[group_of[k]] == 0:
            first_cell[group_of[k]] = members_of[order[k]]
        sizes[group_of[k]] += 1
    # Constraints of each group, and groups of each constraint.
    starts = np.zeros(groups + 1, dtype=np.int64)
    members = np.empty(groups * 8, dtype=np.int64)
    for g in range(groups):
        starts[g + 1] = starts[g]
        for t in range(table.shape[1]):
            j = table[first_cell[g], t]
            if j < 0:
                break
            if constraint[j] >= 0:
                members[starts[g + 1]] = constraint[j]
                starts[g + 1] += 1
    touching_starts = np.zeros(constraints + 1, dtype=np.int64)
    for k in range(starts[groups]):
        touching_starts[members[k] + 1] += 1
    touching_starts = np.cumsum(touching_starts)
    touching = np.empty(starts[groups], dtype=np.int64)
    filled = touching_starts[:-1].copy()
    for g in range(groups):
        for k in range(starts[g], starts[g + 1]):
            touching[filled[members[k]]] = g
            filled[members[k]] += 1
    # Breadth-first ranks, component by component.
    rank = np.full(constraints, -1, dtype=np.int64)
    component = np.empty(constraints, dtype=np.int64)
    queue = np.empty(constraints, dtype=np.int64)
    ranked = components = 0
    for seed in range(constraints):
        if rank[seed] >= 0:
            continue
        rank[seed], component[seed], queue[ranked] = ranked, components, seed
        head, ranked = ranked, ranked + 1
        while head < ranked:
            c = queue[head]
            head += 1
            for k in range(touching_starts[c], touching_starts[c + 1]):
                g = touching[k]
                for m in range(starts[g], starts[g + 1]):
                    other = members[m]
                    if rank[other] < 0:
                        rank[other], component[other] = ranked, components
                        queue[ranked] = other
                        ranked += 1
        components += 1
    best = np.empty(groups, dtype=np.int64)
    for g in range(groups):
        best[g] = constraints
        for k in range(starts[g], starts[g + 1]):
            best[g] = min(best[g], rank[members[k]])
    search = np.argsort(best, kind="mergesort")
    # Everything again, in search order.
    ordered_sizes = sizes[search]
    ordered_starts = np.zeros(groups + 1, dtype=np.int64)
    ordered_members = np.empty(starts[groups], dtype=np.int64)
    component_starts = np.zeros(components + 1, dtype=np.int64)
    for position in range(groups):
        g = search[position]
        count = starts[g + 1] - starts[g]
        ordered_starts[position + 1] = ordered_starts[position] + count
        ordered_members[ordered_starts[position]:ordered_starts[position + 1]] = (
            members[starts[g]:starts[g + 1]])
        component_starts[component[members[starts[g]]] + 1] = position + 1
    position_of = np.empty(groups, dtype=np.int64)
    position_of[search] = np.arange(groups)
    cell_starts = np.zeros(groups + 1, dtype=np.int64)
    cell_starts[1:] = np.cumsum(ordered_sizes)
    group_cells = np.empty(found, dtype=np.int64)
    filled = cell_starts[:-1].copy()
    for k in range(found):
        position = position_of[group_of[k]]
        group_cells[filled[position]] = members_of[order[k]]
        filled[position] += 1
    return Frontier(frontier, ordered_sizes, ordered_starts, ordered_members, need,
                    component_starts, cell_starts, group_cells)


@compiled
def _binomials(top):
    """Pascal's triangle as floats: ``table[n, k] = C(n, k)`` for ``n, k <= top``."""
    table = np.zeros((top + 1, top + 1))
    for n in range(top + 1):
        table[n, 0] = 1.0
        for k in range(1, n + 1):
            table[n, k] = table[n - 1, k - 1] + table[n - 1, k]
    return table


@compiled
def enumerate_groups(sizes, starts, members, need, component_starts, budget):
    """Enumerate mines per group, component by component, by depth-first search.

    Group g has ``sizes[g]`` cells and lies in constraints
    ``members[starts[g]:starts[g + 1]]``; constraint c needs ``need[c]`` mines.
    Component k is groups ``component_starts[k]:component_starts[k + 1]``, in search
    order. Each step gives the next group a mine count within the bounds its
    constraints leave, so every leaf is a consistent configuration; a configuration
    with ``v_g`` mines in group g stands for ``prod C(sizes[g], v_g)`` layouts.

    Returns an `Enumeration`. ``visited`` counts one configuration per mine count
    tried for a group; the search stops once that exceeds ``budget``, so its time is
    bounded even where most partial configurations lead nowhere.
    """
    groups = sizes.size
    top = sizes.sum()
    widest = sizes.max() if groups else 0
    choose = _binomials(widest)
    mine = np.zeros((groups, top + 1), dtype=np.bool_)
    safe = np.zeros((groups, top + 1), dtype=np.bool_)
    seen = np.zeros((component_starts.size - 1, top + 1), dtype=np.bool_)
    layouts = np.zeros((component_starts.size - 1, top + 1))
    mined = np.zeros((groups, top + 1))
    need = need.copy()
    left = np.zeros(need.size, dtype=np.int64)
    for g in range(groups):
        for k in range(starts[g], starts[g + 1]):
            left[members[k]] += sizes[g]
    value = np.zeros(groups, dtype=np.int64)
    high = np.zeros(groups, dtype=np.int64)
    weight = np.ones(groups + 1)
    visited = 0
    for component in range(component_starts.size - 1):
        first, last = component_starts[component], component_starts[component + 1]
        g, total, entering = first, 0, True
        while g >= first:
            if g == last:
                seen[component, total] = True
                layouts[component, total] += weight[last]
                for h in range(first, last):
                    if value[h] > 0:
                        mine[h, total] = True
                        mined[h, total] += weight[last] * value[h]
                    if value[h] < sizes[h]:
                        safe[h, total] = True
                g, entering = g - 1, False
                continue
            if entering:
                low, high[g] = 0, sizes[g]
                for k in range(starts[g], starts[g + 1]):
                    c = members[k]
                    left[c] -= sizes[g]
                    low = max(low, need[c] - left[c])
                    high[g] = min(high[g], need[c])
                value[g] = low - 1
            else:
                for k in range(starts[g], starts[g + 1]):
                    need[members[k]] += value[g]
                total -= value[g]
            value[g] += 1
            if value[g] > high[g]:
                for k in range(starts[g], starts[g + 1]):
                    left[members[k]] += sizes[g]
                g, entering = g - 1, False
                continue
            visited += 1
            if visited > budget:
                return Enumeration(mine, safe, seen, layouts, mined, visited)
            for k in range(starts[g], starts[g + 1]):
                need[members[k]] -= value[g]
            total += value[g]
            weight[g + 1] = (weight[g] if g > first else 1.0) * choose[sizes[g], value[g]]
            g, entering = g + 1, True
    return Enumeration(mine, safe, seen, layouts, mined, visited)


@compiled
def flags_and_hidden(cell, table, revealed, flagged):
    """Count the flags and the unknown cells of a cell's closed neighbourhood (itself included).

    Examples
    --------
    >>> from minestats.mechanics.game import neighbour_table
    >>> revealed = np.array([1, 0, 0, 0, 0, 0], dtype=bool)
    >>> flagged = np.array([0, 1, 0, 0, 0, 0], dtype=bool)
    >>> flags_and_hidden(0, neighbour_table(3, 2), revealed, flagged)
    (1, 2)
    """
    flags = hidden = 0
    for t in range(table.shape[1]):
        j = table[cell, t]
        if j < 0:
            break
        if flagged[j]:
            flags += 1
        elif not revealed[j]:
            hidden += 1
    return flags, hidden


@compiled
def closed_number_disagrees(numbers, table, revealed, flagged):
    """Whether a revealed number with no unknown neighbour left disagrees with its flags.

    The frontier search sees only numbers with unknown neighbours; this is the check
    of the others.
    """
    for cell in range(revealed.size):
        if not revealed[cell]:
            continue
        flags, unknown = 0, False
        for t in range(table.shape[1]):  # flags_and_hidden, inlined: this loop is hot
            j = table[cell, t]
            if j < 0:
                break
            if flagged[j]:
                flags += 1
            elif not revealed[j]:
                unknown = True
        if not unknown and flags != numbers[cell]:
            return True
    return False


@compiled
def _sums(first, second, top):
    """Boolean convolution: which totals up to ``top`` are a sum of one of each."""
    out = np.zeros(top + 1, dtype=np.bool_)
    for a in range(min(first.size, top + 1)):
        if first[a]:
            for b in range(min(second.size, top + 1 - a)):
                if second[b]:
                    out[a + b] = True
    return out


@compiled
def _any_in(reach, low, high):
    """Whether ``reach`` holds some total in ``[low, high]``."""
    for total in range(max(low, 0), min(high, reach.size - 1) + 1):
        if reach[total]:
            return True
    return False


@compiled
def convolve_counts(first, second):
    """Layouts per mine total of two independent parts, from those of each (a convolution).

    Examples
    --------
    >>> convolve_counts(np.array([1.0, 2.0]), np.array([1.0, 1.0])).tolist()
    [1.0, 3.0, 2.0]
    """
    out = np.zeros(first.size + second.size - 1)
    for a in range(first.size):
        if first[a] != 0.0:
            for b in range(second.size):
                out[a + b] += first[a] * second[b]
    return out


@compiled
def _log_factorials(top):
    """``log(n!)`` for ``n < top``, as `math.lgamma` computes it in compiled code."""
    table = np.empty(top)
    for n in range(top):
        table[n] = math.lgamma(n + 1)
    return table


_LOG_FACTORIALS = _log_factorials(4096)
"""``log(n!)`` of the cell counts of every board up to 64x64, looked up rather than computed:
the weights of the cells off the frontier call for three per mine total, at every count."""


@compiled
def _log_factorial(n):
    return _LOG_FACTORIALS[n] if n < _LOG_FACTORIALS.size else math.lgamma(n + 1)


@compiled
def off_frontier_weights(combined, left, free):
    """Weights of the ways to place the mines left off the frontier, log-scaled.

    ``combined[t]`` counts the frontier's layouts with ``t`` mines; the rest,
    ``left - t``, go on the ``free`` cells off the frontier in C(free, left - t) ways.
    Returns those binomials divided by the largest of them, and that largest one's
    logarithm (``-inf`` when no count of frontier mines can be completed).

    Examples
    --------
    >>> import numpy as np
    >>> ways, scale = off_frontier_weights(np.array([1.0, 2.0]), 2, 3)
    >>> [round(float(w), 3) for w in ways], round(float(np.exp(scale)), 3)
    ([1.0, 1.0], 3.0)
    """
    log_ways = np.full(combined.size, -np.inf)
    scale = -np.inf
    log_free = _log_factorial(free)
    for total in range(combined.size):
        rest = left - total
        if 0 <= rest <= free and combined[total] > 0:
            log_ways[total] = log_free - _log_factorial(rest) - _log_factorial(free - rest)
            scale = max(scale, log_ways[total])
    return np.exp(log_ways - scale), scale


@compiled
def _weigh_run(run, flagged, left, free, combined, ways):
    """Weigh the layouts by 1 + the cells of ``run`` they mine before their first safe one.

    A layout weighs 1 + the length of its longest prefix of ``run`` mined whole,
    which is counting it once for each prefix of ``run`` it mines (the empty one
    included); ``prefixes[k]`` of those prefixes hold k unflagged cells. The
    unflagged cells of ``run`` are off the frontier, so of the ``ways[total]``
    layouts off the frontier of a frontier configuration with ``total`` mines
    (C(free, rest), scaled; rest = left - total) a share
    ``ratio[k]`` = prod_{j<k} (rest - j) / (free - j) mines its first k unflagged
    cells. The i-th unflagged cell (from 1) is then mined in all of them if k >= i,
    else in a share (rest - k) / (free - k): in ``ratio[k + 1]`` of the layouts.

    Returns
    -------
    weighed : numpy.ndarray of float64
        ``ways`` weighed: ``ways[total]`` times sum_k ``prefixes[k] ratio[k]``.
    mined_run : numpy.ndarray of float64
        Per unflagged cell of ``run``, in order, the weighed layouts that mine it,
        summed over the totals with the frontier's ``combined`` layouts.
    mined_free : float
        The same for each cell off the frontier outside ``run``.
    """
    prefixes = np.zeros(run.size + 1)
    unflagged = 0
    prefixes[0] = 1.0
    for cell in run:
        if not flagged[cell]:
            unflagged += 1
        prefixes[unflagged] += 1.0
    weighed = np.zeros(ways.size)
    mined_run = np.zeros(unflagged)
    mined_free = 0.0
    ratio = np.zeros(unflagged + 2)
    tail = np.zeros(unflagged + 2)  # tail[k] = sum_{k' >= k} prefixes[k'] ratio[k']
    for total in range(ways.size):
        if ways[total] == 0.0:  # no configuration, or no room off the frontier
            continue
        rest = left - total
        ratio[0] = 1.0
        for k in range(unflagged + 1):
            ratio[k + 1] = ratio[k] * (rest - k) / (free - k) if rest > k else 0.0
        for k in range(unflagged, -1, -1):
            tail[k] = tail[k + 1] + prefixes[k] * ratio[k]
        weighed[total] = ways[total] * tail[0]
        layouts = combined[total] * ways[total]
        head = 0.0  # sum_{k < i} prefixes[k] ratio[k + 1]
        for i in range(unflagged):
            head += prefixes[i] * ratio[i + 1]
            mined_run[i] += layouts * (head + tail[i + 1])
        mined_free += layouts * (head + prefixes[unflagged] * ratio[unflagged + 1])
    return weighed, mined_run, mined_free


@compiled
def analyse_position(numbers, table, revealed, flagged, width, mines, budget, use_mine_count,
                     want_probability, probability, proven_safe, proven_mine, run):
    """Deductions and mine probabilities of a position, in one compiled pass.

    Parameters
    ----------
    numbers : numpy.ndarray of int8, shape (cells,)
        Numbers of the cells (read only where ``revealed``).
    table : numpy.ndarray of int64
        The neighbour table.
    revealed, flagged : numpy.ndarray of bool, shape (cells,)
    width, mines : int
        Board width and total mines, flags included.
    budget : int
        Give up (`OVER_BUDGET`) once the search visits more configurations.
    use_mine_count : bool
        Whether the deductions may use the mine count (the probabilities always do).
    want_probability : bool
        Fill ``probability`` even when some cell is proven (else only at a stall).
    probability : numpy.ndarray of float64, shape (cells,)
        Filled with P(mine): NaN on revealed cells, 1 on flags.
    proven_safe, proven_mine : numpy.ndarray of int64, shape (cells,)
        Filled from the start with the cells proven safe and proven mined.
    run : numpy.ndarray of int64
        Cells flagged or off the frontier, in order; empty for layouts alike. Else a
        layout weighs 1 + the number of cells of ``run`` it mines before its first
        safe one, in the probabilities and ``log_solutions``: Windows XP's weighing
        along a stretch of its order (`minestats.players.weighing`).

    Returns
    -------
    status : int
        `FITS`, `NO_FIT` or `OVER_BUDGET` (then nothing else is filled).
    log_solutions : float
        Natural log of the number of layouts that fit (filled with the probabilities),
        weighed by ``run``.
    safe, mined : int
        How many cells ``proven_safe`` and ``proven_mine`` hold.
    """
    if closed_number_disagrees(numbers, table, revealed, flagged):
        return NO_FIT, -np.inf, 0, 0
    return analyse_frontier(frontier_groups(numbers, table, revealed, flagged, width),
                            revealed, flagged, mines, budget, use_mine_count, want_probability,
                            probability, proven_safe, proven_mine, run)


@compiled
def flag_frontier_cell(front, cell):
    """Return the `Frontier` ``front`` with its frontier ``cell`` flagged.

    The cell leaves its group, and each constraint of the group needs a mine fewer.
    A number left with no unknown neighbour stays a constraint of empty groups, which
    fits only if it needs no more mines: `closed_number_disagrees`, for this flag.
    """
    frontier = front.frontier.copy()
    frontier[cell] = False
    at = np.flatnonzero(front.group_cells == cell)[0]
    group = np.searchsorted(front.cell_starts, at, side="right") - 1
    sizes = front.sizes.copy()
    sizes[group] -= 1
    need = front.need.copy()
    for k in range(front.starts[group], front.starts[group + 1]):
        need[front.members[k]] -= 1
    cell_starts = front.cell_starts.copy()
    cell_starts[group + 1:] -= 1
    group_cells = np.concatenate((front.group_cells[:at], front.group_cells[at + 1:]))
    return Frontier(frontier, sizes, front.starts, front.members, need, front.component_starts,
                    cell_starts, group_cells)


@compiled
def analyse_frontier(front, revealed, flagged, mines, budget, use_mine_count, want_probability,
                     probability, proven_safe, proven_mine, run):
    """`analyse_position` from the position's `Frontier` (`frontier_groups`).

    For a caller that analyses one position with more and more of its frontier cells
    flagged (`flag_frontier_cell`), without building the frontier again each time;
    ``revealed`` and ``flagged`` are the position's.
    """
    cells = revealed.size
    left = mines
    for cell in range(cells):
        if flagged[cell]:
            left -= 1
    frontier, sizes, starts, members, need, component_starts, cell_starts, group_cells = front
    mine, safe, seen, layouts, mined, visited = enumerate_groups(
        sizes, starts, members, need, component_starts, budget)
    if visited > budget:
        return OVER_BUDGET, -np.inf, 0, 0
    components = component_starts.size - 1
    free = 0
    for cell in range(cells):
        if not revealed[cell] and not flagged[cell] and not frontier[cell]:
            free += 1
    if left < 0:
        return NO_FIT, -np.inf, 0, 0
    # Which totals each component can take, alone and with the mine count.
    prefix = np.zeros((components + 1, left + 1), dtype=np.bool_)
    suffix = np.zeros((components + 1, left + 1), dtype=np.bool_)
    prefix[0, 0] = True
    suffix[components, 0] = True
    for k in range(components):
        prefix[k + 1] = _sums(prefix[k], seen[k], left)
    for k in range(components - 1, -1, -1):
        suffix[k] = _sums(suffix[k + 1], seen[k], left)
    reach = prefix[components]
    if not _any_in(reach, left - free, left):
        return NO_FIT, -np.inf, 0, 0
    feasible = seen.copy()
    if use_mine_count:
        for k in range(components):
            others = _sums(prefix[k], suffix[k + 1], left)
            for total in range(seen.shape[1]):
                if seen[k, total]:
                    feasible[k, total] = _any_in(others, left - free - total, left - total)
    n_safe = n_mine = 0
    for k in range(components):
        for g in range(component_starts[k], component_starts[k + 1]):
            can_mine = can_safe = False
            for total in range(seen.shape[1]):
                if feasible[k, total]:
                    can_mine |= mine[g, total]
                    can_safe |= safe[g, total]
            if can_mine and can_safe:
                continue
            for j in range(cell_starts[g], cell_starts[g + 1]):
                if can_mine:
                    proven_mine[n_mine] = group_cells[j]
                    n_mine += 1
                else:
                    proven_safe[n_safe] = group_cells[j]
                    n_safe += 1
    if use_mine_count and free:
        free_safe = not _any_in(reach, left - free, left - 1)
        free_mine = not free_safe and not _any_in(reach, left - free + 1, left)
        if free_safe or free_mine:
            for cell in range(cells):
                if not revealed[cell] and not flagged[cell] and not frontier[cell]:
                    if free_safe:
                        proven_safe[n_safe] = cell
                        n_safe += 1
                    else:
                        proven_mine[n_mine] = cell
                        n_mine += 1
    if not want_probability and n_safe + n_mine > 0:
        return FITS, -np.inf, n_safe, n_mine
    status, log_solutions = combine_components(front, revealed, flagged, left, free, layouts,
                                               mined, run, probability)
    if status != FITS:
        return status, -np.inf, 0, 0
    return FITS, log_solutions, n_safe, n_mine


@compiled
def component_totals(sizes, component_starts, layouts):
    """Combine the components' layouts per mine total: all of them, and all but each one.

    Parameters
    ----------
    sizes, component_starts : numpy.ndarray of int64
        As in `Frontier`.
    layouts : numpy.ndarray of float64
        Per component, as in `Enumeration`.

    Returns
    -------
    spans : numpy.ndarray of int64, shape (components,)
        The mine totals each component can take (its cells + 1).
    combined : numpy.ndarray of float64
        The layouts per frontier mine total of all the components together.
    excluded : numpy.ndarray of float64, shape (components, combined.size)
        Row k: those of all but component k, in its first ``combined.size - spans[k]
        + 1`` entries (the components before k convolved with those after it).

    Examples
    --------
    Two components of one cell each, one layout per total: 1, 2, 1 layouts with 0, 1, 2
    mines; without either, 1 and 1.

    >>> spans, combined, excluded = component_totals(
    ...     np.array([1, 1]), np.array([0, 1, 2]), np.ones((2, 2)))
    >>> spans.tolist(), combined.tolist(), excluded[:, :2].tolist()
    ([2, 2], [1.0, 2.0, 1.0], [[1.0, 1.0], [1.0, 1.0]])
    """
    components = component_starts.size - 1
    spans = np.empty(components, dtype=np.int64)
    for k in range(components):
        spans[k] = sizes[component_starts[k]:component_starts[k + 1]].sum() + 1
    prefix = [np.ones(1)]
    for k in range(components):
        prefix.append(convolve_counts(prefix[k], layouts[k, :spans[k]]))
    excluded = np.zeros((components, prefix[components].size))
    suffix = np.ones(1)
    for k in range(components - 1, -1, -1):
        others = convolve_counts(prefix[k], suffix)
        excluded[k, :others.size] = others
        suffix = convolve_counts(suffix, layouts[k, :spans[k]])
    return spans, suffix, excluded


@compiled
def combine_components(front, revealed, flagged, left, free, layouts, mined, run, probability):
    """Fill every cell's mine probability from the counts of each component.

    The components are combined by convolution over their mine totals, each
    combination weighted by C(free, mines left over), log-scaled
    (`off_frontier_weights`); the rest of `analyse_frontier` after its search, for a
    caller that has the counts of each component another way
    (`minestats.frontier.variations.chance_given_reveal`).

    Parameters
    ----------
    front : Frontier
        The position's frontier (``starts``, ``members`` and ``need`` are not read).
    revealed, flagged : numpy.ndarray of bool, shape (cells,)
    left, free : int
        The mines not flagged, and the unknown cells off the frontier.
    layouts, mined : numpy.ndarray of float64
        Per component and per group, as in `Enumeration`.
    run : numpy.ndarray of int64
        As for `analyse_position`.
    probability : numpy.ndarray of float64, shape (cells,)
        Filled with P(mine): NaN on revealed cells, 1 on flags.

    Returns
    -------
    status : int
        `FITS`, or `NO_FIT` when no count of frontier mines can be completed.
    log_solutions : float
        Natural log of the (weighed) layouts that fit; -inf with `NO_FIT`.
    """
    cells = revealed.size
    frontier, sizes, component_starts = front.frontier, front.sizes, front.component_starts
    cell_starts, group_cells = front.cell_starts, front.group_cells
    components = component_starts.size - 1
    for cell in range(cells):
        probability[cell] = np.nan if revealed[cell] else (1.0 if flagged[cell] else 0.0)
    spans, combined, excluded = component_totals(sizes, component_starts, layouts)
    ways, scale = off_frontier_weights(combined, left, free)
    if scale == -np.inf:
        return NO_FIT, -np.inf
    mined_run, mined_free = np.zeros(0), 0.0
    if run.size:
        ways, mined_run, mined_free = _weigh_run(run, flagged, left, free, combined, ways)
    elif free:
        for total in range(combined.size):
            if left - total > 0:
                mined_free += combined[total] * ways[total] * (left - total) / free
    solutions = 0.0
    for total in range(combined.size):
        solutions += combined[total] * ways[total]
    if free:
        share = mined_free / solutions
        for cell in range(cells):
            if not revealed[cell] and not flagged[cell] and not frontier[cell]:
                probability[cell] = share
    k = 0
    for cell in run:
        if not flagged[cell]:
            probability[cell] = mined_run[k] / solutions
            k += 1
    for k in range(components):
        others = excluded[k, :combined.size - spans[k] + 1]
        weight = np.zeros(spans[k])
        for total in range(spans[k]):
            for j in range(others.size):
                weight[total] += others[j] * ways[total + j]
        for g in range(component_starts[k], component_starts[k + 1]):
            if sizes[g] == 0:  # emptied by `flag_frontier_cell`, or by a cell revealed
                continue
            share = 0.0
            for total in range(spans[k]):
                share += mined[g, total] * weight[total]
            share /= sizes[g] * solutions
            for j in range(cell_starts[g], cell_starts[g + 1]):
                probability[group_cells[j]] = share
    return FITS, math.log(solutions) + scale


def analyse(numbers, table, revealed, flagged, width, mines, *, budget, use_mine_count=True,
            want_probability=True, run=None) -> Analysis:
    """Deductions and mine probabilities of a position (`analyse_position`), allocated.

    ``run`` (cells flagged or off the frontier, in order; None for layouts alike)
    weighs the layouts as `analyse_position` does.

    Examples
    --------
    A 1 in the corner of a 3x2 board with 2 mines: one mine among its 3 neighbours,
    one among the 2 far cells; 3 * 2 layouts, nothing proven.

    >>> from minestats.mechanics.game import neighbour_table
    >>> numbers = np.array([1, 0, 0, 0, 0, 0], dtype=np.int8)
    >>> revealed = np.array([1, 0, 0, 0, 0, 0], dtype=bool)
    >>> result = analyse(numbers, neighbour_table(3, 2), revealed, ~revealed & False, 3, 2,
    ...                  budget=1000)
    >>> np.round(result.probability, 4)
    array([   nan, 0.3333, 0.5   , 0.3333, 0.3333, 0.5   ])
    >>> round(math.exp(result.log_solutions)), result.safe.size, result.mines.size
    (6, 0, 0)
    """
    cells = revealed.size
    probability = np.full(cells, np.nan)
    proven_safe = np.empty(cells, dtype=np.int64)
    proven_mine = np.empty(cells, dtype=np.int64)
    status, log_solutions, n_safe, n_mine = analyse_position(
        numbers, table, revealed, flagged, width, mines, budget, use_mine_count,
        want_probability, probability, proven_safe, proven_mine,
        np.empty(0, dtype=np.int64) if run is None else np.asarray(run, dtype=np.int64))
    return Analysis(status, probability, log_solutions, proven_safe[:n_safe],
                    proven_mine[:n_mine])
