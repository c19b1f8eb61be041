"""Perfect logic over the frontier, split into independent components.

A cell is safe (a mine) iff it is safe (a mine) in every mine placement consistent
with the revealed numbers and, optionally, the total mine count.

- The *frontier* is the unknown cells next to a revealed number; each number gives
  one constraint: its unknown neighbours hold exactly ``rem`` mines.
- Frontier cells that lie in exactly the same constraints form a *group*; all cells
  of a group are alike, so only the number of mines per group is enumerated.
- Groups that share no constraint, directly or through others, form independent
  *components*, enumerated one at a time by backtracking with interval pruning.
- For each component and each achievable mine total t, the search records which
  groups can hold a mine and which can hold a safe cell.
- With the mine count, total t of one component is feasible iff the other components
  can reach some sum s with ``0 <= remaining - t - s <= unconstrained`` (the rest go
  to the unconstrained cells beyond the frontier); those cells are decided the same
  way from the sums of all components. Sets of sums are Python int bitsets.
- Without the mine count, every consistent component configuration is feasible and
  the unconstrained cells can never be decided.
"""

from __future__ import annotations

from collections import defaultdict

from minestats.solvers.state import GameState, Moves

__all__ = ["logic_moves"]


class _Capped(Exception):
    """Raised inside the search when the configuration budget is spent."""


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


def _search(groups, constraints, budget):
    """Enumerate mine counts per group for one component.

    Returns ``{total: [mine_bits, safe_bits]}``: bit g of ``mine_bits`` is set when
    group g holds a mine in some configuration with that total, and of ``safe_bits``
    when it holds a safe cell. ``budget`` is a one-item list of configurations left.
    """
    # Visit constraints breadth-first so each one is completed soon after it starts.
    touching = defaultdict(list)
    for g, (indices, _) in enumerate(groups):
        for index in indices:
            touching[index].append(g)
    rank, queue = {}, [groups[0][0][0]]
    while queue:
        index = queue.pop(0)
        if index in rank:
            continue
        rank[index] = len(rank)
        queue.extend(i for g in touching[index] for i in groups[g][0] if i not in rank)
    order = sorted(range(len(groups)), key=lambda g: min(rank[i] for i in groups[g][0]))
    sizes = [len(cells) for _, cells in groups]
    members = [[rank[i] for i in indices] for indices, _ in groups]
    need = [0] * len(rank)
    left = [0] * len(rank)
    for index, position in rank.items():
        need[position] = constraints[index][1]
    for g, positions in enumerate(members):
        for position in positions:
            left[position] += sizes[g]
    found = {}

    def extend(step, total, mine_bits, safe_bits):
        if step == len(order):
            budget[0] -= 1
            if budget[0] < 0:
                raise _Capped
            entry = found.setdefault(total, [0, 0])
            entry[0] |= mine_bits
            entry[1] |= safe_bits
            return
        g = order[step]
        size, positions, bit = sizes[g], members[g], 1 << g
        low, high = 0, size
        for position in positions:
            left[position] -= size
            low = max(low, need[position] - left[position])
            high = min(high, need[position])
        for mines in range(low, high + 1):
            for position in positions:
                need[position] -= mines
            extend(step + 1, total + mines,
                   mine_bits | (bit if mines else 0),
                   safe_bits | (bit if mines < size else 0))
            for position in positions:
                need[position] += mines
        for position in positions:
            left[position] += size

    extend(0, 0, 0, 0)
    return found


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


def logic_moves(state: GameState, *, use_mine_count: bool, max_configurations: int) -> Moves:
    """Every cell that perfect logic proves safe or mined on the current state.

    Parameters
    ----------
    state : GameState
        The game; not changed.
    use_mine_count : bool
        Require placements to use exactly the remaining mines.
    max_configurations : int
        Give up (``capped=True``) once more group configurations than this have been
        enumerated, summed over the components.

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
    >>> moves = logic_moves(state, use_mine_count=False, max_configurations=100)
    >>> sorted(moves.safe), sorted(moves.mines), moves.capped
    ([6, 8], [7], False)

    With the mine count, cells beyond the frontier are decided too: here the one mine
    must be at the frontier cell 2, so the far cells 3 and 4 are safe.

    >>> state = GameState(np.array([[0, 0, 1, 0, 0]], dtype=bool), "corner")
    >>> moves = logic_moves(state, use_mine_count=True, max_configurations=100)
    >>> sorted(moves.safe), sorted(moves.mines)
    ([3, 4], [2])
    """
    constraints = state.constraints()
    components, frontier = _groups_by_component(constraints)
    budget = [max_configurations]
    try:
        tables = [_search(groups, constraints, budget) for groups in components]
    except _Capped:
        return Moves(frozenset(), frozenset(), capped=True)
    unconstrained = [cell for cell in state.unknown.tolist() if cell not in frontier]
    remaining, free = state.remaining_mines, len(unconstrained)
    if use_mine_count:
        limit = (1 << (remaining + 1)) - 1
        reach = [sum(1 << total for total in table) for table in tables]
        prefix, suffix = [1], [1]
        for bits in reach:
            prefix.append(_sums(prefix[-1], bits) & limit)
        for bits in reversed(reach):
            suffix.append(_sums(suffix[-1], bits) & limit)
        suffix.reverse()
    safe, mined = set(), set()
    for i, (groups, table) in enumerate(zip(components, tables, strict=True)):
        if use_mine_count:
            others = _sums(prefix[i], suffix[i + 1])
        can_mine = can_safe = 0
        for total, (mine_bits, safe_bits) in table.items():
            if use_mine_count and not _any_between(
                    others, remaining - free - total, remaining - total):
                continue
            can_mine |= mine_bits
            can_safe |= safe_bits
        for g, (_, cells) in enumerate(groups):
            if not can_mine >> g & 1:
                safe.update(cells)
            elif not can_safe >> g & 1:
                mined.update(cells)
    if use_mine_count and free:
        if not _any_between(prefix[-1], remaining - free, remaining - 1):
            safe.update(unconstrained)
        elif not _any_between(prefix[-1], remaining - free + 1, remaining):
            mined.update(unconstrained)
    return Moves(frozenset(safe), frozenset(mined))
