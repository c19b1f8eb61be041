"""Layouts drawn exactly from the posterior of a position, compiled.

A position (the revealed numbers, the flags and the total mine count) leaves every
layout that fits it equally likely, when the layouts were dealt alike (every rule but
Windows XP's relocation, `minestats.mechanics.rules`). `draw_layouts` draws such
layouts independently and exactly, in three steps, each by its exact weights:

1. The mines of each component of the frontier (`minestats.frontier.engine`), given
   the mines left for the components after it and for the cells off the frontier:
   ``P(t_k = t) ∝ L_k(t) W_{k+1}(r - t)``, where ``L_k(t)`` counts the component's
   layouts with t mines and ``W_{k+1}(r)`` the ways to place r mines on everything
   after it (the last factor being C(free, r) for the cells off the frontier).
2. The configuration of each component with that total (mines per group), weighted by
   its layouts, ``prod C(size_g, v_g)``, from the list `list_configurations` makes.
3. The cells: ``v_g`` of group g's cells, and the mines left of the cells off the
   frontier, uniformly.

``tests/frontier/test_posterior.py`` checks the draws against every layout of small boards
(each consistent layout equally often, within a chi-square) and every cell's
frequency against `minestats.inference.mine_probabilities` on Expert positions.
"""

from __future__ import annotations

import numpy as np

from minestats.foundations.compiled import compiled
from minestats.frontier.engine import _log_factorial, closed_number_disagrees, frontier_groups

__all__ = ["CONFIGURATION_BUDGET", "draw_layouts", "list_configurations"]

CONFIGURATION_BUDGET = 2_000_000
"""Most partial configurations `list_configurations` visits before giving up."""


@compiled
def list_configurations(sizes, starts, members, need, component_starts, budget):
    """List every configuration of every component: its total, weight and mines per group.

    The search is `minestats.frontier.engine.enumerate_groups`' (the same groups,
    bounds and order), keeping each leaf instead of summing it.

    Parameters
    ----------
    sizes, starts, members, need, component_starts : numpy.ndarray of int64
        As in `minestats.frontier.engine.Frontier`.
    budget : int
        Most partial configurations to visit.

    Returns
    -------
    component, total : numpy.ndarray of int64, shape (leaves,)
        Each configuration's component and mine count.
    weight : numpy.ndarray of float64, shape (leaves,)
        Its layouts, ``prod C(sizes[g], values[g])`` over its component's groups.
    values : numpy.ndarray of int64, shape (leaves, groups)
        Its mines per group (zero outside its component).
    complete : bool
        False when the search passed ``budget`` (the lists are then partial).

    Examples
    --------
    One constraint needing 1 mine in two groups of 1 and 2 cells: two configurations,
    of 1 and 2 layouts.

    >>> import numpy as np
    >>> component, total, weight, values, complete = list_configurations(
    ...     np.array([1, 2]), np.array([0, 1, 2]), np.array([0, 0]), np.array([1]),
    ...     np.array([0, 2]), 100)
    >>> weight.tolist(), values.tolist(), complete
    ([2.0, 1.0], [[0, 1], [1, 0]], True)
    """
    groups = sizes.size
    widest = sizes.max() if groups else 0
    choose = np.zeros((widest + 1, widest + 1))
    for n in range(widest + 1):
        choose[n, 0] = 1.0
        for k in range(1, n + 1):
            choose[n, k] = choose[n - 1, k - 1] + choose[n - 1, k]
    capacity = 16
    leaf_component = np.empty(capacity, dtype=np.int64)
    leaf_total = np.empty(capacity, dtype=np.int64)
    leaf_weight = np.empty(capacity)
    leaf_values = np.zeros((capacity, groups), dtype=np.int64)
    leaves = 0
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
                if leaves == capacity:
                    capacity *= 2
                    leaf_component = np.resize(leaf_component, capacity)
                    leaf_total = np.resize(leaf_total, capacity)
                    leaf_weight = np.resize(leaf_weight, capacity)
                    grown = np.zeros((capacity, groups), dtype=np.int64)
                    grown[:leaves] = leaf_values[:leaves]
                    leaf_values = grown
                leaf_component[leaves] = component
                leaf_total[leaves] = total
                leaf_weight[leaves] = weight[last]
                leaf_values[leaves, first:last] = value[first:last]
                leaves += 1
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
                return (leaf_component[:leaves], leaf_total[:leaves], leaf_weight[:leaves],
                        leaf_values[:leaves], False)
            for k in range(starts[g], starts[g + 1]):
                need[members[k]] -= value[g]
            total += value[g]
            weight[g + 1] = (weight[g] if g > first else 1.0) * choose[sizes[g], value[g]]
            g, entering = g + 1, True
    return (leaf_component[:leaves], leaf_total[:leaves], leaf_weight[:leaves],
            leaf_values[:leaves], True)


@compiled
def _draw(weights):
    """Draw an index with probability proportional to ``weights`` (numba's generator)."""
    target = np.random.random() * weights.sum()  # noqa: NPY002 (numba's generator)
    for i in range(weights.size - 1):
        target -= weights[i]
        if target < 0.0:
            return i
    for i in range(weights.size - 1, -1, -1):  # float round-off: the last positive weight
        if weights[i] > 0.0:
            return i
    return weights.size - 1


@compiled
def _choose_cells(cells, count, layout):
    """Mine ``count`` of ``cells``, uniformly (a partial Fisher-Yates shuffle of a copy)."""
    pool = cells.copy()
    for i in range(count):
        j = i + np.random.randint(pool.size - i)  # noqa: NPY002
        pool[i], pool[j] = pool[j], pool[i]
        layout[pool[i]] = True


@compiled
def _draw_many(layouts, flagged, front, free_cells, left, component, total, weight, values,
               seed):
    """Fill each row of ``layouts`` with one draw; return False if no layout fits."""
    components = front.component_starts.size - 1
    free = free_cells.size
    # spans[k]: mine totals component k can take; counts[k, t]: its layouts with t mines.
    top = front.sizes.sum()
    counts = np.zeros((components, top + 1))
    for leaf in range(component.size):
        counts[component[leaf], total[leaf]] += weight[leaf]
    # after[k, r]: the ways to place r mines on components k.. and the free cells,
    # each row scaled to its largest entry (a draw needs only the ratios of a row).
    after = np.zeros((components + 1, left + 1))
    log_ways = np.full(left + 1, -np.inf)
    for r in range(min(left, free) + 1):
        log_ways[r] = _log_factorial(free) - _log_factorial(r) - _log_factorial(free - r)
    after[components] = np.exp(log_ways - log_ways.max())
    for k in range(components - 1, -1, -1):
        row = after[k + 1]
        largest = row.max()
        if largest == 0.0:
            return False
        row = row / largest
        for r in range(left + 1):
            for t in range(min(r, top) + 1):
                after[k, r] += counts[k, t] * row[r - t]
    if after[0, left] == 0.0:
        return False
    np.random.seed(seed)  # noqa: NPY002 (numba's generator, seeded per call)
    for d in range(layouts.shape[0]):
        layout = layouts[d]
        layout[:] = flagged
        remaining = left
        for k in range(components):
            odds = np.zeros(min(remaining, top) + 1)
            for t in range(odds.size):
                odds[t] = counts[k, t] * after[k + 1, remaining - t]
            chosen = _draw(odds)
            remaining -= chosen
            matching = np.zeros(component.size)
            for leaf in range(component.size):
                if component[leaf] == k and total[leaf] == chosen:
                    matching[leaf] = weight[leaf]
            leaf = _draw(matching)
            for g in range(front.component_starts[k], front.component_starts[k + 1]):
                _choose_cells(front.group_cells[front.cell_starts[g]:front.cell_starts[g + 1]],
                              values[leaf, g], layout)
        _choose_cells(free_cells, remaining, layout)
    return True


def draw_layouts(numbers, table, revealed, flagged, width, mines, n, seed, *,
                 budget=CONFIGURATION_BUDGET):
    """Draw ``n`` layouts from the posterior of a position, each fitting it, exactly.

    Parameters
    ----------
    numbers : numpy.ndarray of int8, shape (cells,)
        The numbers of the revealed cells (read only where ``revealed``).
    table : numpy.ndarray of int64
        The neighbour table (`minestats.mechanics.game.neighbour_table`).
    revealed, flagged : numpy.ndarray of bool, shape (cells,)
        The open cells, and the cells known to hold a mine.
    width, mines : int
        The board's width and its total of mines.
    n : int
        How many layouts.
    seed : int
        Seeds numba's generator for the draws.
    budget : int, optional
        Most partial configurations to list (`list_configurations`).

    Returns
    -------
    numpy.ndarray of bool, shape (n, cells)
        One layout a row: True on mines, flags included.

    Raises
    ------
    ValueError
        If no layout fits the position, or if listing its configurations passes
        ``budget``.

    Examples
    --------
    A 1 in the corner of a 3x2 board with 2 mines: one mine among its three
    neighbours and one among the two far cells, in 3 x 2 = 6 layouts alike.

    >>> import numpy as np
    >>> from minestats.mechanics.game import neighbour_table
    >>> numbers = np.array([1, 0, 0, 0, 0, 0], dtype=np.int8)
    >>> revealed = np.arange(6) == 0
    >>> layouts = draw_layouts(numbers, neighbour_table(3, 2), revealed, ~revealed & False,
    ...                        3, 2, 6000, 7)
    >>> layouts.sum(axis=1).tolist() == [2] * 6000, bool(layouts[:, 0].any())
    (True, False)
    >>> np.round(layouts.mean(axis=0), 1)
    array([0. , 0.3, 0.5, 0.3, 0.3, 0.5])
    """
    if closed_number_disagrees(numbers, table, revealed, flagged):
        raise ValueError("no layout fits the position")
    front = frontier_groups(numbers, table, revealed, flagged, width)
    component, total, weight, values, complete = list_configurations(
        front.sizes, front.starts, front.members, front.need, front.component_starts, budget)
    if not complete:
        raise ValueError(f"the position's configurations pass the listing budget of {budget:,}")
    unknown = ~revealed & ~flagged
    free_cells = np.flatnonzero(unknown & ~front.frontier).astype(np.int64)
    left = int(mines) - int(flagged.sum())
    layouts = np.empty((int(n), revealed.size), dtype=np.bool_)
    if left < 0 or not _draw_many(layouts, flagged, front, free_cells, left, component, total,
                                  weight, values, int(seed)):
        raise ValueError("no layout fits the position")
    return layouts
