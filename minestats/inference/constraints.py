r"""The exact enumeration engine: count and decide mine placements under constraints.

A problem is a list of constraints "these cells hold exactly n mines" over cells
``0..cells-1``, optionally with a total mine count over all the cells. `solve_constraints`
answers it in three steps, never by trying cells one by one in board order:

1. Propagation to a fixed point: a constraint needing 0 mines makes its cells safe,
   one needing as many mines as it has cells makes them all mines, and for two
   overlapping constraints A and B, ``B \ A`` holds exactly ``need(B) - need(A)``
   more mines than ``A \ B``; when that difference equals ``|B \ A|`` (or
   ``-|A \ B|``) both differences are decided (the subset rule is the case
   ``A \ B`` empty). A constraint that cannot be met proves there is no solution.
2. The cells left are grouped (cells in the same constraints are alike) and split
   into independent components (groups linked through shared constraints).
3. Each component is searched group by group, in an order that completes each
   constraint soon after it starts, memoizing partial assignments by the mines still
   needed by the constraints left open (a dynamic program over the search tree):
   for every search state it counts the completions by their number of mines,
   exactly (Python ints, a group of k cells with v mines counting C(k, v) times).
   Components combine by multiplying counts; with a total mine count they combine
   through it, and the cells beyond the frontier add binomial factors.

A cell is forced safe (a mine) iff no solution mines it (leaves it safe). Deciding
consistency is NP-complete (Kaye 2000), so the worst case is exponential; random
count matrices (30x30, densities 0.05 to 0.7) are solved by step 1 alone, but a
crafted one (mines in every third column, a random phase per row) keeps step 3 busy
for minutes and gigabytes. `solve_constraints` therefore takes a budget,
``max_configurations``: the search of step 3 stops once it has visited that many
configurations, summed over the components, and the outcome says ``capped``, with no
count. A configuration is a search state with the mines given to its next group;
with a total mine count, a state also counts once for every further total its
completions can hold, because it keeps one count per total. Time and memory grow in
proportion: about 6 microseconds and 250 bytes a configuration, and a tenth of a
microsecond and 25 bytes for each further total (measured on a shared 2-core
machine). Propagation (step 1) is not counted: it is polynomial in the input.

This is the library's one exact engine. The ``logic`` solver and the player use the
compiled frontier engine instead (`minestats.frontier.engine`), which counts in floats
because it runs at every stall of every game. Past that search's budget the solver
gives the board up as ``capped``, and only the player hands the position (its mine
probabilities) to this engine; ``tests/inference/test_consistency.py`` and
``tests/inference/test_probabilities.py`` cross-check the two.
"""

from __future__ import annotations

import math
from collections import defaultdict, deque
from math import comb
from typing import NamedTuple

import numpy as np

from minestats.foundations.bitsets import sumset
from minestats.foundations.validation import SearchBudgetExceeded

__all__ = ["Budget", "Outcome", "count_mined", "solve_constraints"]


class Outcome(NamedTuple):
    """What the engine found over cells ``0..n-1``.

    When ``capped`` the search stopped at its budget: ``count`` is None, nothing is
    decided (``can_mine`` and ``can_safe`` all True) and ``example`` is None.
    """

    count: int | None
    can_mine: np.ndarray
    can_safe: np.ndarray
    example: np.ndarray | None
    capped: bool = False


class Budget:
    """The configurations a search may still visit (``math.inf``: no cap).

    Examples
    --------
    >>> budget = Budget(3)
    >>> budget.spend(2)
    >>> budget.spend(2)
    Traceback (most recent call last):
    ...
    minestats.foundations.validation.SearchBudgetExceeded
    """

    def __init__(self, limit=None):
        self.left = math.inf if limit is None else limit

    def spend(self, configurations: int) -> None:
        """Count ``configurations`` more visited; raise `SearchBudgetExceeded` past the budget."""
        self.left -= configurations
        if self.left < 0:
            raise SearchBudgetExceeded


def _propagate(constraints):
    """Apply the single and pairwise rules to a fixed point.

    Returns ``(values, rest)``: the decided cells ``{cell: 0 or 1}`` and the
    constraints left on undecided cells, or None if some constraint cannot be met.
    """
    cells = [set(members) for members, _ in constraints]
    need = [mines for _, mines in constraints]
    touching = defaultdict(set)
    for index, members in enumerate(cells):
        for cell in members:
            touching[cell].add(index)
    values = {}
    queue = list(range(len(cells)))
    queued = set(queue)

    def decide(decided, value):
        for cell in decided:
            values[cell] = value
            for index in touching[cell]:
                cells[index].discard(cell)
                need[index] -= value
                if index not in queued:
                    queued.add(index)
                    queue.append(index)

    while queue:
        index = queue.pop()
        queued.discard(index)
        members, mines = cells[index], need[index]
        if not 0 <= mines <= len(members):
            return None
        if mines in (0, len(members)):
            decide(list(members), int(mines > 0))
            continue
        for other in set().union(*(touching[cell] for cell in members)) - {index}:
            # A is this constraint, B the other one.
            only_here, only_there = members - cells[other], cells[other] - members
            difference = need[other] - mines
            if not -len(only_here) <= difference <= len(only_there):
                return None
            if not (only_here or only_there):
                continue
            if difference == len(only_there):  # all of B \ A mined, A \ B safe
                decide(only_there, 1)
                decide(only_here, 0)
                break
            if difference == -len(only_here):  # all of A \ B mined, B \ A safe
                decide(only_here, 1)
                decide(only_there, 0)
                break
    rest = [(tuple(sorted(members)), need[index])
            for index, members in enumerate(cells) if members]
    return values, rest


def _components(constraints):
    """Group the cells by the constraints they lie in; split the groups into components.

    Returns ``(components, frontier)``: each component is a list of groups
    ``(constraint indices, cells)`` in search order (constraints ranked
    breadth-first through shared groups, groups sorted by their best-ranked
    constraint, so that each constraint is completed soon after it starts);
    ``frontier`` is the set of cells in some constraint.
    """
    membership = defaultdict(list)
    for index, (cells, _) in enumerate(constraints):
        for cell in cells:
            membership[cell].append(index)
    groups = defaultdict(list)
    for cell, indices in membership.items():
        groups[tuple(indices)].append(cell)
    touching = defaultdict(list)
    for indices in groups:
        for index in indices:
            touching[index].append(indices)
    rank, components = {}, []
    for seed in touching:
        if seed in rank:
            continue
        rank[seed], queue, found = len(rank), deque([seed]), set()
        while queue:
            for indices in touching[queue.popleft()]:
                found.add(indices)
                for other in indices:
                    if other not in rank:
                        rank[other] = len(rank)
                        queue.append(other)
        order = sorted(found, key=lambda indices: min(rank[index] for index in indices))
        components.append([(indices, groups[indices]) for indices in order])
    return components, set(membership)


class _Component:
    """One independent component, searched group by group with memoized states.

    The state after the first i groups is the tuple of mines still needed by the
    constraints that those groups touch and later groups touch too. ``below[i]``
    maps each state at depth i to its completions as a list ``counts[t]`` (t mines
    in the rest of the component; one entry only without ``by_total``), and
    ``above[i]`` to a bitset of the mine totals that reach it from the root.
    """

    def __init__(self, groups, need, *, by_total: bool, budget: Budget):
        self.groups = groups
        self.by_total = by_total
        capacity, last = defaultdict(int), {}
        for depth, (indices, members) in enumerate(self.groups):
            for index in indices:
                capacity[index] += len(members)
                last[index] = depth
        self.moves = []  # per depth: {state id: [(mines, next state id), ...]}
        states, open_, widths = {(): 0}, {}, [1]
        for depth, (indices, members) in enumerate(self.groups):
            size, position = len(members), {index: k for k, index in enumerate(open_)}
            for index in indices:
                capacity[index] -= size
                open_.setdefault(index)
            sources = [(position.get(index), need[index]) for index in indices]
            rooms = [capacity[index] for index in indices]
            for index in indices:
                if last[index] == depth:
                    del open_[index]
            plan = [(index in indices, indices.index(index) if index in indices
                     else position[index]) for index in open_]
            following, moves = {}, {}
            for state, source in states.items():
                wanted = [first if k is None else state[k] for k, first in sources]
                low = max([0] + [w - room for w, room in zip(wanted, rooms, strict=True)])
                high = min([size] + wanted)
                budget.spend(high + 1 - low)
                for mines in range(low, high + 1):
                    after = [w - mines for w in wanted]
                    key = tuple(after[k] if mine else state[k] for mine, k in plan)
                    target = following.setdefault(key, len(following))
                    moves.setdefault(source, []).append((mines, target))
            self.moves.append(moves)
            states = following
            widths.append(len(states))
        self.below = [None] * len(self.groups) + [[[1]] * widths[-1]]
        for depth in reversed(range(len(self.groups))):
            size = len(self.groups[depth][1])
            ways = [[] for _ in range(widths[depth])]
            for source, options in self.moves[depth].items():
                for mines, target in options:
                    _add(ways[source], self.below[depth + 1][target], comb(size, mines),
                         self._shift(mines))
            if by_total:  # a state counts once more per extra mine total it can complete
                budget.spend(sum(max(len(counts) - 1, 0) for counts in ways))
            self.below[depth] = ways
        self.counts = self.below[0][0]
        self.supports = [[_support(ways) for ways in level] for level in self.below]
        self.above = [[1]]
        for depth, moves in enumerate(self.moves):
            reach = [0] * widths[depth + 1]
            for source, options in moves.items():
                for mines, target in options:
                    reach[target] |= self.above[depth][source] << self._shift(mines)
            self.above.append(reach)

    def _shift(self, mines: int) -> int:
        return mines if self.by_total else 0

    def decided(self, totals: int):
        """Yield ``(members, can_mine, can_safe)`` per group, given the feasible ``totals``."""
        for depth, (_, members) in enumerate(self.groups):
            can_mine = can_safe = False
            for source, options in self.moves[depth].items():
                for mines, target in options:
                    reach = sumset(self.above[depth][source], self.supports[depth + 1][target])
                    if (reach << self._shift(mines)) & totals:
                        can_mine |= mines > 0
                        can_safe |= mines < len(members)
            yield members, can_mine, can_safe

    def example(self, total: int):
        """Yield the mined cells of one solution with ``total`` mines (any without totals)."""
        state, left = 0, total if self.by_total else 0
        for depth, (_, members) in enumerate(self.groups):
            for mines, target in self.moves[depth][state]:
                below = self.below[depth + 1][target]
                rest = left - self._shift(mines)
                if 0 <= rest < len(below) and below[rest]:
                    break
            yield from members[:mines]
            state, left = target, rest

    def mined(self, weight: list) -> list:
        """Per group, the solutions that mine one given cell of it, weighted by total.

        ``weight[t]`` is the number of ways the rest of the problem (other components
        and free cells) completes a solution in which this component holds t mines
        (a single entry without totals). Returns, per group of k cells, the sum over
        solutions of (mines in the group) / k times the weight, times k: that is, the
        weighted count of solutions times the expected mines in the group, an exact
        int; divided by k and by the total count it is each cell's mine probability.
        """
        above = [[[1]]]
        for depth, moves in enumerate(self.moves):
            size = len(self.groups[depth][1])
            reach = [[] for _ in self.below[depth + 1]]
            for source, options in moves.items():
                for mines, target in options:
                    _add(reach[target], above[depth][source], comb(size, mines),
                         self._shift(mines))
            above.append(reach)
        totals = []
        for depth, moves in enumerate(self.moves):
            size = len(self.groups[depth][1])
            by_total = []
            for source, options in moves.items():
                for mines, target in options:
                    if mines:
                        _add(by_total, _times(above[depth][source], self.below[depth + 1][target]),
                             mines * comb(size, mines), self._shift(mines))
            totals.append(sum(count * w for count, w in zip(by_total, weight, strict=False)))
        return totals


def _add(target: list, source: list, factor: int, shift: int) -> None:
    """``target += factor * x**shift * source`` for coefficient lists."""
    if not any(source):
        return
    target.extend([0] * (shift + len(source) - len(target)))
    for t, count in enumerate(source):
        target[t + shift] += factor * count


def _times(first: list, second: list) -> list:
    """Product of two coefficient lists."""
    result = []
    for shift, count in enumerate(first):
        if count:
            _add(result, second, count, shift)
    return result


def _support(counts: list) -> int:
    """Bitset of the indices of the nonzero entries."""
    return sum(1 << t for t, count in enumerate(counts) if count)


class _Binomials:
    """C(n, k) for the few n and many nearby k one problem asks for, each computed once.

    A value is derived from a known neighbour, C(n, k +- 1), C(n + 1, k) or
    C(n + 1, k + 1), by one multiplication and one exact division by small numbers, so
    a region of a million free cells costs one full binomial (up to 300,000 digits,
    about 12 s at half mines), not one per question.
    """

    STEPS = 64
    """The farthest a value is walked from a known one before it is computed afresh."""

    def __init__(self):
        self.known = {}

    def __call__(self, n: int, k: int) -> int:
        if not 0 <= k <= n:
            return 0
        if (n, k) in self.known:
            return self.known[n, k]
        steps, j = min(((abs(k - j), j) for m, j in self.known if m == n),
                       default=(self.STEPS + 1, k))
        if steps <= self.STEPS:
            value = self.known[n, j]
            for i in range(j, k):  # up: C(n, i + 1) = C(n, i) (n - i) / (i + 1)
                value = value * (n - i) // (i + 1)
            for i in range(j, k, -1):  # down: C(n, i - 1) = C(n, i) i / (n - i + 1)
                value = value * i // (n - i + 1)
        elif (n + 1, k) in self.known:  # C(n, k) = C(n + 1, k) (n + 1 - k) / (n + 1)
            value = self.known[n + 1, k] * (n + 1 - k) // (n + 1)
        elif (n + 1, k + 1) in self.known:  # C(n, k) = C(n + 1, k + 1) (k + 1) / (n + 1)
            value = self.known[n + 1, k + 1] * (k + 1) // (n + 1)
        else:
            value = comb(n, k)
        self.known[n, k] = value
        return value


def _ways(counts: list, free: int, left, binomial) -> int:
    """Sum of ``counts[s]`` times the ways to put ``left - s`` mines on ``free`` cells.

    ``left`` None means any number of mines: every subset of the free cells counts.
    ``binomial(n, k)`` gives C(n, k) (a problem's `_Binomials`).
    """
    if left is None:
        return sum(counts) << free
    return sum(count * binomial(free, left - s) for s, count in enumerate(counts) if s <= left)


class _Problem(NamedTuple):
    """A propagated problem: decided cells, components, free cells, mines left for them."""

    values: dict
    components: list
    free: list
    target: int | None
    binomial: _Binomials

    def ways(self, counts: list, free: int, left) -> int:
        """`_ways` with this problem's cache of binomials."""
        return _ways(counts, free, left, self.binomial)

    def left(self, used: int):
        """Mines left for the free cells when the components hold ``used``; None: any."""
        return None if self.target is None else self.target - used

    def suffixes(self) -> list:
        """``suffix[k]``: counts by total of components ``k..`` together."""
        suffix = [[1]]
        for component in reversed(self.components):
            suffix.append(_times(component.counts, suffix[-1]))
        suffix.reverse()
        return suffix


def _prepare(constraints, cells: int, mines, budget: Budget) -> _Problem | None:
    """Propagate, split into components and find the free cells; None if infeasible.

    Raises `SearchBudgetExceeded` when the components' search visits more than the budget allows.
    """
    propagated = _propagate(constraints)
    if propagated is None:
        return None
    values, rest = propagated
    need = [needed for _, needed in rest]
    grouped, frontier = _components(rest)
    components = [_Component(groups, need, by_total=mines is not None, budget=budget)
                  for groups in grouped]
    free = [cell for cell in range(cells) if cell not in values and cell not in frontier]
    target = None if mines is None else mines - sum(values.values())
    return _Problem(values, components, free, target, _Binomials())


def solve_constraints(constraints, cells: int, *, mines=None,
                      max_configurations=None) -> Outcome:
    """Count and decide the placements on cells ``0..cells-1`` that meet ``constraints``.

    ``constraints`` is a list of ``(cells, mines)``; ``mines`` (optional) is the total
    over all the cells; cells in no constraint are free, bound only by that total.
    ``max_configurations`` (an int already checked, or None for no cap) bounds the
    search: past it the outcome is ``capped`` and has no count.

    Examples
    --------
    >>> solve_constraints([((0, 1), 1), ((1, 2), 1)], 3).count
    2
    >>> solve_constraints([((0, 1), 1), ((1, 2), 1)], 3, max_configurations=1).capped
    True
    """
    nothing = np.zeros(cells, dtype=bool)
    try:
        problem = _prepare(constraints, cells, mines, Budget(max_configurations))
    except SearchBudgetExceeded:
        return Outcome(None, ~nothing, ~nothing, None, capped=True)
    if problem is None:
        return Outcome(0, nothing, nothing, None)
    values, components, free, left = (problem.values, problem.components, problem.free,
                                      problem.left)
    suffix = problem.suffixes()
    count = problem.ways(suffix[0], len(free), left(0))
    if count == 0:
        return Outcome(0, nothing, nothing, None)
    can_mine, can_safe = nothing.copy(), nothing.copy()
    for cell, value in values.items():
        (can_mine if value else can_safe)[cell] = True
    if free:
        can_mine[free] = problem.ways(suffix[0], len(free) - 1, left(1)) > 0
        can_safe[free] = problem.ways(suffix[0], len(free) - 1, left(0)) > 0
    example = nothing.copy()
    example[[cell for cell, value in values.items() if value]] = True
    prefix, used = [1], 0
    for k, component in enumerate(components):
        others = _times(prefix, suffix[k + 1])
        totals = _support([problem.ways(others, len(free), left(t)) if n else 0
                           for t, n in enumerate(component.counts)])
        for members, may_mine, may_be_safe in component.decided(totals):
            can_mine[members], can_safe[members] = may_mine, may_be_safe
        total = next(t for t, n in enumerate(component.counts)
                     if n and problem.ways(suffix[k + 1], len(free), left(used + t)))
        example[list(component.example(total))] = True
        used += total
        prefix = _times(prefix, component.counts)
    example[free[: 0 if problem.target is None else problem.target - used]] = True
    return Outcome(count, can_mine, can_safe, example)


def count_mined(constraints, cells: int, *, mines=None,
                max_configurations=None) -> tuple[int, list]:
    """Count the placements meeting ``constraints`` and, per class of alike cells, the mined.

    Same problem as `solve_constraints`; past ``max_configurations`` (None: no cap)
    it raises `SearchBudgetExceeded`. Returns ``(count, classes)``: the exact number of placements
    and a list of ``(members, mined)``, every cell in exactly one class, ``mined``
    the exact number of placements with a mine on each of ``members`` (Python ints,
    so ``mined / count`` is their mine probability and ``Fraction(mined, count)`` its
    exact value). Cells alike (decided, off the frontier, or in one group) form one
    class, so that a huge region, whose counts have thousands of digits, costs one
    division, not one per cell. ``(0, [])`` when none fits.

    Examples
    --------
    Two cells, one mine between them, and a third cell free; two mines in all:

    >>> count_mined([((0, 1), 1)], 3, mines=2)
    (2, [([2], 2), ([0, 1], 1)])
    >>> count_mined([((0, 1), 1)], 3)
    (4, [([2], 2), ([0, 1], 2)])
    """
    problem = _prepare(constraints, cells, mines, Budget(max_configurations))
    if problem is None:
        return 0, []
    components, free, left = problem.components, problem.free, problem.left
    suffix = problem.suffixes()
    count = problem.ways(suffix[0], len(free), left(0))
    if count == 0:
        return 0, []
    classes = [([cell for cell, value in problem.values.items() if value == mine],
                count * mine) for mine in (0, 1)]
    if free:
        classes.append((free, problem.ways(suffix[0], len(free) - 1, left(1))))
    prefix = [1]
    for k, component in enumerate(components):
        others = _times(prefix, suffix[k + 1])
        weight = [problem.ways(others, len(free), left(t))
                  for t in range(len(component.counts))]
        classes += [(list(members), total // len(members)) for (_, members), total in zip(
            component.groups, component.mined(weight), strict=True)]
        prefix = _times(prefix, component.counts)
    return count, [(members, mined) for members, mined in classes if members]
