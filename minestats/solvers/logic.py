"""Perfect logic over the frontier, split into independent components.

A cell is safe (a mine) iff it is safe (a mine) in every mine placement consistent
with the revealed numbers and, optionally, the total mine count.

- The *frontier* is the unknown cells next to a revealed number; each number gives
  one constraint: its unknown neighbours hold exactly ``rem`` mines.
- Frontier cells that lie in exactly the same constraints form a *group*; all cells
  of a group are alike, so only the number of mines per group is enumerated.
- Groups that share no constraint, directly or through others, form independent
  *components*, enumerated one at a time by backtracking with interval pruning.
- For each component and each achievable mine total t, a compiled depth-first
  search records which groups can hold a mine and which can hold a safe cell.
- With the mine count, total t of one component is feasible iff the other components
  can reach some sum s with ``0 <= remaining - t - s <= unconstrained`` (the rest go
  to the unconstrained cells beyond the frontier); those cells are decided the same
  way from the sums of all components. Sets of sums are Python int bitsets.
- Without the mine count, every consistent component configuration is feasible and
  the unconstrained cells can never be decided.
"""

from __future__ import annotations

from collections import defaultdict, deque

import numba
import numpy as np

from minestats.solvers.state import GameState, Moves

__all__ = ["logic_moves"]


def _groups_by_component(constraints):
    """Group frontier cells by constraint set; collect the groups of each component."""
    membership = defaultdict(list)
    for index, (cells, _) in enumerate(constraints):
        for cell in cells:
            membership[cell].append(index)
    groups = defaultdict(list)
    for cell, indices in membership.items():
        groups[tuple(indices)].append(cell)
    parent = list(range(len(constraints)))

    def root(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for indices in groups:
        for other in indices[1:]:
            parent[root(other)] = root(indices[0])
    components = defaultdict(list)
    for indices, cells in groups.items():
        components[root(indices[0])].append((indices, cells))
    return list(components.values()), set(membership)


def _search_order(groups):
    """Order a component's groups so that each constraint is completed soon after it starts.

    Constraints are ranked breadth-first through shared groups; groups are sorted by
    their best-ranked constraint.
    """
    touching = defaultdict(list)
    for g, (indices, _) in enumerate(groups):
        for index in indices:
            touching[index].append(g)
    rank, queue = {}, deque([groups[0][0][0]])
    while queue:
        index = queue.popleft()
        if index in rank:
            continue
        rank[index] = len(rank)
        queue.extend(i for g in touching[index] for i in groups[g][0] if i not in rank)
    return sorted(groups, key=lambda group: min(rank[i] for i in group[0]))


@numba.njit(cache=True)
def _enumerate(sizes, starts, members, need, component_starts, budget):
    """Enumerate mines per group, component by component, by depth-first search.

    Group g has ``sizes[g]`` cells and lies in constraints
    ``members[starts[g]:starts[g + 1]]``; constraint c needs ``need[c]`` mines.
    Component k is groups ``component_starts[k]:component_starts[k + 1]``, in search
    order. Each step gives the next group a mine count within the bounds its
    constraints leave, so every leaf is a consistent configuration.

    Returns ``mine[g, t]`` (group g holds a mine in some configuration of its
    component with t mines in all), ``safe[g, t]`` (likewise, a safe cell),
    ``seen[k, t]`` (component k has a configuration with t mines) and the number of
    configurations visited, partial ones included (one per mine count tried for a
    group); the search stops once that exceeds ``budget``, so its time is bounded
    even where most partial configurations lead nowhere.
    """
    groups = sizes.size
    top = sizes.sum()
    mine = np.zeros((groups, top + 1), dtype=np.bool_)
    safe = np.zeros((groups, top + 1), dtype=np.bool_)
    seen = np.zeros((component_starts.size - 1, top + 1), dtype=np.bool_)
    need = need.copy()
    left = np.zeros(need.size, dtype=np.int64)
    for g in range(groups):
        for k in range(starts[g], starts[g + 1]):
            left[members[k]] += sizes[g]
    value = np.zeros(groups, dtype=np.int64)
    high = np.zeros(groups, dtype=np.int64)
    visited = 0
    for component in range(component_starts.size - 1):
        first, last = component_starts[component], component_starts[component + 1]
        g, total, entering = first, 0, True
        while g >= first:
            if g == last:
                seen[component, total] = True
                for h in range(first, last):
                    if value[h] > 0:
                        mine[h, total] = True
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
                return mine, safe, seen, visited
            for k in range(starts[g], starts[g + 1]):
                need[members[k]] -= value[g]
            total += value[g]
            g, entering = g + 1, True
    return mine, safe, seen, visited


def _sums(first: int, second: int) -> int:
    """Bitset of a + b for a in ``first`` and b in ``second``."""
    result, shift = 0, 0
    while second:
        if second & 1:
            result |= first << shift
        second >>= 1
        shift += 1
    return result


def _any_between(bits: int, low: int, high: int) -> bool:
    """Tell whether ``bits`` holds some value in ``[low, high]``."""
    low = max(low, 0)
    return high >= low and (bits >> low) & ((1 << (high - low + 1)) - 1) != 0


def logic_moves(state: GameState, constraints, *, use_mine_count: bool,
                max_configurations: int) -> Moves:
    """Every cell that perfect logic proves safe or mined on the current state.

    Parameters
    ----------
    state : GameState
        The game; not changed.
    constraints : list of (cells, mines)
        ``state.constraints()``.
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
    >>> state = GameState(layout, "corner")
    >>> moves = logic_moves(state, state.constraints(), use_mine_count=False,
    ...                     max_configurations=100)
    >>> sorted(moves.safe), sorted(moves.mines), moves.capped
    ([6, 8], [7], False)

    With the mine count, cells beyond the frontier are decided too: here the one mine
    must be at the frontier cell 2, so the far cells 3 and 4 are safe.

    >>> state = GameState(np.array([[0, 0, 1, 0, 0]], dtype=bool), "corner")
    >>> moves = logic_moves(state, state.constraints(), use_mine_count=True,
    ...                     max_configurations=100)
    >>> sorted(moves.safe), sorted(moves.mines)
    ([3, 4], [2])
    """
    components, frontier = _groups_by_component(constraints)
    ordered = [group for groups in components for group in _search_order(groups)]
    component_starts = np.cumsum([0] + [len(groups) for groups in components])
    mine, safe, seen, visited = _enumerate(
        np.array([len(cells) for _, cells in ordered], dtype=np.int64),
        np.cumsum([0] + [len(indices) for indices, _ in ordered], dtype=np.int64),
        np.array([i for indices, _ in ordered for i in indices], dtype=np.int64),
        np.array([mines for _, mines in constraints], dtype=np.int64),
        component_starts, max_configurations)
    if visited > max_configurations:
        return Moves(frozenset(), frozenset(), capped=True)
    unconstrained = [cell for cell in state.unknown.tolist() if cell not in frontier]
    remaining, free = state.remaining_mines, len(unconstrained)
    totals = [np.flatnonzero(row).tolist() for row in seen]
    feasible = seen.copy()
    if use_mine_count:
        limit = (1 << (remaining + 1)) - 1
        reach = [sum(1 << total for total in row) for row in totals]
        prefix, suffix = [1], [1]
        for bits in reach:
            prefix.append(_sums(prefix[-1], bits) & limit)
        for bits in reversed(reach):
            suffix.append(_sums(suffix[-1], bits) & limit)
        suffix.reverse()
        for k, row in enumerate(totals):
            others = _sums(prefix[k], suffix[k + 1])
            for total in row:
                feasible[k, total] = _any_between(
                    others, remaining - free - total, remaining - total)
    component_of = np.repeat(np.arange(len(components)), np.diff(component_starts))
    can_mine = (mine & feasible[component_of]).any(axis=1).tolist()
    can_safe = (safe & feasible[component_of]).any(axis=1).tolist()
    safe_cells, mined = set(), set()
    for (_, cells), may_mine, may_be_safe in zip(ordered, can_mine, can_safe, strict=True):
        if not may_mine:
            safe_cells.update(cells)
        elif not may_be_safe:
            mined.update(cells)
    if use_mine_count and free:
        if not _any_between(prefix[-1], remaining - free, remaining - 1):
            safe_cells.update(unconstrained)
        elif not _any_between(prefix[-1], remaining - free + 1, remaining):
            mined.update(unconstrained)
    return Moves(frozenset(safe_cells), frozenset(mined))
