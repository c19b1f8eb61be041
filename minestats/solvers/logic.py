"""Perfect logic over the frontier, split into independent components.

A cell is safe (a mine) iff it is safe (a mine) in every mine placement consistent
with the revealed numbers and, optionally, the total mine count.

- The *frontier* is the unknown cells next to a revealed number; each number gives
  one constraint: its unknown neighbours hold exactly ``rem`` mines.
- Frontier cells that lie in exactly the same constraints form a *group*; all cells
  of a group are alike, so only the number of mines per group is enumerated.
- Groups that share no constraint, directly or through others, form independent
  *components*. Grouping, components and the search order are compiled.
- For each component and each achievable mine total t, a compiled depth-first
  search with interval pruning records which groups can hold a mine and which can
  hold a safe cell.
- With the mine count, total t of one component is feasible iff the other components
  can reach some sum s with ``0 <= remaining - t - s <= unconstrained`` (the rest go
  to the unconstrained cells beyond the frontier); those cells are decided the same
  way from the sums of all components. Sets of sums are Python int bitsets.
- Without the mine count, every consistent component configuration is feasible and
  the unconstrained cells can never be decided.
"""

from __future__ import annotations

import numba
import numpy as np

from minestats.bitsets import sumset
from minestats.solvers.state import CheckedGame, Moves

__all__ = ["enumerate_groups", "frontier_groups", "logic_moves"]


@numba.njit(cache=True)
def frontier_groups(counts, table, revealed, flagged, width):
    """Constraints, groups and components of the frontier, in search order.

    A constraint is a revealed number with unknown neighbours; the constraints that
    contain an unknown cell are exactly its revealed neighbours with a constraint, so
    a group's key is its least such neighbour plus a 15-bit mask of where the others
    lie in the 5x3 window starting two columns left of it. Constraints are ranked
    breadth-first through shared groups, component after component, and groups are
    sorted by their best-ranked constraint: each component is then one run of
    groups, and each constraint is completed soon after it starts.

    Returns ``(frontier, sizes, starts, members, need, component_starts,
    cell_starts, group_cells)``: the frontier mask; per group (in search order) its
    size and constraints ``members[starts[g]:starts[g + 1]]``; each constraint's
    mines ``need``; the first group of each component; and the cells of group g,
    ``group_cells[cell_starts[g]:cell_starts[g + 1]]``.
    """
    cells = counts.size
    constraint = np.full(cells, -1, dtype=np.int64)
    need = np.zeros(cells, dtype=np.int64)
    constraints = 0
    for cell in range(cells):
        if not revealed[cell]:
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
        if unknown:
            constraint[cell] = constraints
            need[constraints] = left
            constraints += 1
    need = need[:constraints]
    frontier = np.zeros(cells, dtype=np.bool_)
    keys = np.empty(cells, dtype=np.int64)
    members_of = np.empty(cells, dtype=np.int64)
    found = 0
    for cell in range(cells):
        if revealed[cell] or flagged[cell]:
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
        if anchor >= 0:
            frontier[cell] = True
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
    return (frontier, ordered_sizes, ordered_starts, ordered_members, need,
            component_starts, cell_starts, group_cells)


@numba.njit(cache=True)
def _binomials(top):
    """Pascal's triangle as floats: ``table[n, k] = C(n, k)`` for ``n, k <= top``."""
    table = np.zeros((top + 1, top + 1))
    for n in range(top + 1):
        table[n, 0] = 1.0
        for k in range(1, n + 1):
            table[n, k] = table[n - 1, k - 1] + table[n - 1, k]
    return table


@numba.njit(cache=True)
def enumerate_groups(sizes, starts, members, need, component_starts, budget):
    """Enumerate mines per group, component by component, by depth-first search.

    Group g has ``sizes[g]`` cells and lies in constraints
    ``members[starts[g]:starts[g + 1]]``; constraint c needs ``need[c]`` mines.
    Component k is groups ``component_starts[k]:component_starts[k + 1]``, in search
    order. Each step gives the next group a mine count within the bounds its
    constraints leave, so every leaf is a consistent configuration; a configuration
    with ``v_g`` mines in group g stands for ``prod C(sizes[g], v_g)`` layouts.

    Returns ``mine[g, t]`` (group g holds a mine in some configuration of its
    component with t mines in all), ``safe[g, t]`` (likewise, a safe cell),
    ``seen[k, t]`` (component k has a configuration with t mines), ``layouts[k, t]``
    (the layouts of component k with t mines, a float), ``mined[g, t]`` (over those
    layouts, the mines in group g, summed) and the number of configurations
    visited, partial ones included (one per mine count tried for a group); the
    search stops once that exceeds ``budget``, so its time is bounded even where
    most partial configurations lead nowhere.
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
                return mine, safe, seen, layouts, mined, visited
            for k in range(starts[g], starts[g + 1]):
                need[members[k]] -= value[g]
            total += value[g]
            weight[g + 1] = (weight[g] if g > first else 1.0) * choose[sizes[g], value[g]]
            g, entering = g + 1, True
    return mine, safe, seen, layouts, mined, visited


def _any_between(bits: int, low: int, high: int) -> bool:
    """Tell whether ``bits`` holds some value in ``[low, high]``."""
    low = max(low, 0)
    return high >= low and (bits >> low) & ((1 << (high - low + 1)) - 1) != 0


def logic_moves(state: CheckedGame, *, use_mine_count: bool, max_configurations: int) -> Moves:
    """Every cell that perfect logic proves safe or mined on the current state.

    Parameters
    ----------
    state : CheckedGame
        The game; not changed.
    use_mine_count : bool
        Require placements to use exactly the remaining mines.
    max_configurations : int
        Give up (``capped=True``) once the search has visited more configurations
        than this (partial ones included), summed over the components.

    Returns
    -------
    Moves
        The proven cells (linear indices), or empty sets with ``capped`` True.

    Examples
    --------
    Three hidden cells in the bottom row under numbers 1 1 1 (mine in the middle):
    only the centre placement fits all three numbers.

    >>> import numpy as np
    >>> layout = np.array([[0, 0, 0],
    ...                    [0, 0, 0],
    ...                    [0, 1, 0]], dtype=bool)
    >>> state = CheckedGame(layout, "corner")
    >>> moves = logic_moves(state, use_mine_count=False, max_configurations=100)
    >>> sorted(moves.safe), sorted(moves.mines), moves.capped
    ([6, 8], [7], False)

    With the mine count, cells beyond the frontier are decided too: here the one mine
    must be at the frontier cell 2, so the far cells 3 and 4 are safe.

    >>> state = CheckedGame(np.array([[0, 0, 1, 0, 0]], dtype=bool), "corner")
    >>> moves = logic_moves(state, use_mine_count=True, max_configurations=100)
    >>> sorted(moves.safe), sorted(moves.mines)
    ([3, 4], [2])
    """
    (frontier, sizes, starts, members, need, component_starts, cell_starts,
     group_cells) = frontier_groups(state.numbers, state.table, state.revealed,
                                     state.flagged, state.board.width)
    mine, safe, seen, _, _, visited = enumerate_groups(sizes, starts, members, need,
                                                       component_starts, max_configurations)
    if visited > max_configurations:
        return Moves(frozenset(), frozenset(), capped=True)
    unconstrained = np.flatnonzero(~state.revealed & ~state.flagged & ~frontier).tolist()
    remaining, free = state.remaining_mines, len(unconstrained)
    totals = [np.flatnonzero(row).tolist() for row in seen]
    feasible = seen.copy()
    if use_mine_count:
        lowest = sum(row[0] for row in totals)
        highest = sum(row[-1] for row in totals)
        if lowest < remaining - free or highest > remaining:
            # The count binds: combine the components' totals as bitsets of sums.
            limit = (1 << (remaining + 1)) - 1
            reach = [sum(1 << total for total in row) for row in totals]
            prefix, suffix = [1], [1]
            for bits in reach:
                prefix.append(sumset(prefix[-1], bits) & limit)
            for bits in reversed(reach):
                suffix.append(sumset(suffix[-1], bits) & limit)
            suffix.reverse()
            for k, row in enumerate(totals):
                others = sumset(prefix[k], suffix[k + 1])
                for total in row:
                    feasible[k, total] = _any_between(
                        others, remaining - free - total, remaining - total)

            def reachable(low, high):
                return _any_between(prefix[-1], low, high)
        else:
            # Every combination leaves between 0 and `free` mines for the unconstrained
            # cells, so all are feasible; and for the two windows asked below, which
            # contain one end of [lowest, highest] if they meet it, overlap is exact.
            def reachable(low, high):
                return low <= highest and lowest <= high
    component_of = np.repeat(np.arange(len(totals)), np.diff(component_starts))
    can_mine = (mine & feasible[component_of]).any(axis=1)
    can_safe = (safe & feasible[component_of]).any(axis=1)
    group_sizes = np.diff(cell_starts)
    safe_cells = set(group_cells[np.repeat(~can_mine, group_sizes)].tolist())
    mined = set(group_cells[np.repeat(can_mine & ~can_safe, group_sizes)].tolist())
    if use_mine_count and free:
        if not reachable(remaining - free, remaining - 1):
            safe_cells.update(unconstrained)
        elif not reachable(remaining - free + 1, remaining):
            mined.update(unconstrained)
    return Moves(frozenset(safe_cells), frozenset(mined))
