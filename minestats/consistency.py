r"""The consistency problem: do the clues fit a mine placement, how many, which cells are forced.

Two input forms share one engine:

- A partially revealed standard board (`board_consistency`): revealed numbers count
  the mines among a cell's 8 neighbours; flags are taken as mines; the total mine
  count is optional.
- A full count matrix (`reconstruct`): every cell holds the number of mines in its
  closed neighbourhood *including itself* (0..9); every cell is unknown.

Both become constraints "these unknown cells hold exactly n mines", solved in three
steps, never by trying cells one by one in board order:

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
count matrices (30x30, densities 0.05 to 0.7) are solved by step 1 alone.
"""

from __future__ import annotations

from collections import defaultdict, deque
from dataclasses import dataclass
from math import comb
from typing import NamedTuple

import numpy as np

from minestats.bitsets import sumset
from minestats.board import Board
from minestats.game import _neighbour_table, as_layouts, neighbour_counts

__all__ = [
    "ConsistencyResult",
    "ReconstructResult",
    "board_consistency",
    "counts_from_mines",
    "parse_counts",
    "random_counts",
    "reconstruct",
]


class _Outcome(NamedTuple):
    """What the engine found over cells ``0..n-1``."""

    count: int
    can_mine: np.ndarray
    can_safe: np.ndarray
    example: np.ndarray | None


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

    def __init__(self, groups, need, *, by_total: bool):
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
                for mines in range(low, min([size] + wanted) + 1):
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


def _ways(counts: list, free: int, left) -> int:
    """Sum of ``counts[s]`` times the ways to put ``left - s`` mines on ``free`` cells.

    ``left`` None means any number of mines: every subset of the free cells counts.
    """
    if left is None:
        return sum(counts) << free
    return sum(count * comb(free, left - s) for s, count in enumerate(counts) if s <= left)


def _solve(constraints, cells: int, *, mines=None) -> _Outcome:
    """Count and decide the placements on cells ``0..cells-1`` that meet ``constraints``.

    ``constraints`` is a list of ``(cells, mines)``; ``mines`` (optional) is the total
    over all the cells; cells in no constraint are free, bound only by that total.
    """
    nothing = np.zeros(cells, dtype=bool)
    propagated = _propagate(constraints)
    if propagated is None:
        return _Outcome(0, nothing, nothing, None)
    values, rest = propagated
    need = [needed for _, needed in rest]
    grouped, frontier = _components(rest)
    components = [_Component(groups, need, by_total=mines is not None) for groups in grouped]
    free = [cell for cell in range(cells) if cell not in values and cell not in frontier]
    target = None if mines is None else mines - sum(values.values())

    def left(used):
        return None if target is None else target - used

    suffix = [[1]]
    for component in reversed(components):
        suffix.append(_times(component.counts, suffix[-1]))
    suffix.reverse()
    count = _ways(suffix[0], len(free), left(0))
    if count == 0:
        return _Outcome(0, nothing, nothing, None)
    can_mine, can_safe = nothing.copy(), nothing.copy()
    for cell, value in values.items():
        (can_mine if value else can_safe)[cell] = True
    if free:
        can_mine[free] = _ways(suffix[0], len(free) - 1, left(1)) > 0
        can_safe[free] = _ways(suffix[0], len(free) - 1, left(0)) > 0
    example = nothing.copy()
    example[[cell for cell, value in values.items() if value]] = True
    prefix, used = [1], 0
    for k, component in enumerate(components):
        others = _times(prefix, suffix[k + 1])
        totals = _support([_ways(others, len(free), left(t)) if n else 0
                           for t, n in enumerate(component.counts)])
        for members, may_mine, may_be_safe in component.decided(totals):
            can_mine[members], can_safe[members] = may_mine, may_be_safe
        total = next(t for t, n in enumerate(component.counts)
                     if n and _ways(suffix[k + 1], len(free), left(used + t)))
        example[list(component.example(total))] = True
        used += total
        prefix = _times(prefix, component.counts)
    example[free[: 0 if target is None else target - used]] = True
    return _Outcome(count, can_mine, can_safe, example)


def counts_from_mines(mines) -> np.ndarray:
    """Count the mines in every cell's closed neighbourhood, the cell itself included.

    Parameters
    ----------
    mines : array_like of bool, shape (height, width)
        A layout (0/1 integers are accepted).

    Returns
    -------
    numpy.ndarray of int64, shape (height, width)
        Values 0..9; this is the count matrix that `reconstruct` inverts.

    Examples
    --------
    >>> counts_from_mines([[1, 0, 0],
    ...                    [0, 0, 1]])
    array([[1, 2, 1],
           [1, 2, 1]])
    """
    layout = as_layouts(mines, ndims=(2,))
    return neighbour_counts(layout).astype(np.int64) + layout


def random_counts(width: int, height: int, p: float, *, rng=None):
    """Draw a layout with each cell a mine independently with probability ``p``.

    Parameters
    ----------
    width, height : int
        Board size, both at least 1.
    p : float
        Per-cell mine probability, in [0, 1].
    rng : numpy.random.Generator, int or None, optional
        Random source or seed, passed to `numpy.random.default_rng`.

    Returns
    -------
    counts : numpy.ndarray of int64, shape (height, width)
        The count matrix of the layout (`counts_from_mines`).
    mines : numpy.ndarray of bool, shape (height, width)
        The hidden layout.

    Examples
    --------
    >>> counts, mines = random_counts(4, 3, 0.25, rng=1)
    >>> counts.shape, bool((counts == counts_from_mines(mines)).all())
    ((3, 4), True)
    """
    board = Board(width, height, 0)
    if not 0 <= p <= 1:
        raise ValueError(f"p ({p!r}) must be a probability in [0, 1]")
    mines = np.random.default_rng(rng).random(board.shape) < p
    return counts_from_mines(mines), mines


def parse_counts(text: str) -> np.ndarray:
    r"""Read a count matrix written as whitespace-separated rows of digits 0..9.

    Blank lines are skipped; line numbers in errors count them.

    Raises
    ------
    ValueError
        If there are no rows, a value is not an integer in 0..9, or rows differ in
        length; the message names the line.

    Examples
    --------
    >>> parse_counts("1 2 1\n1 2 1\n")
    array([[1, 2, 1],
           [1, 2, 1]])
    >>> parse_counts("1 2 1\n1 2\n")
    Traceback (most recent call last):
    ...
    ValueError: line 2: 2 values, but line 1 has 3
    """
    rows, first = [], None
    for number, line in enumerate(text.splitlines(), start=1):
        words = line.split()
        if not words:
            continue
        row = []
        for word in words:
            try:
                value = int(word)
            except ValueError:
                raise ValueError(f"line {number}: {word!r} is not an integer") from None
            if not 0 <= value <= 9:
                raise ValueError(f"line {number}: value {value} is outside 0..9")
            row.append(value)
        if first is None:
            first = (number, len(row))
        elif len(row) != first[1]:
            raise ValueError(f"line {number}: {len(row)} values, "
                             f"but line {first[0]} has {first[1]}")
        rows.append(row)
    if not rows:
        raise ValueError("no rows of counts: the input is empty")
    return np.array(rows, dtype=np.int64)


def _as_counts(counts) -> np.ndarray:
    """Return ``counts`` as a 2-D int64 array of values 0..9, or raise ValueError."""
    array = np.asarray(counts)
    if array.ndim != 2 or 0 in array.shape:
        raise ValueError(f"counts has shape {array.shape}; expected (height, width), "
                         "both at least 1")
    if not np.issubdtype(array.dtype, np.integer):
        raise ValueError(f"counts (dtype {array.dtype}) must hold integers")
    bad = np.argwhere((array < 0) | (array > 9))
    if bad.size:
        y, x = bad[0].tolist()
        raise ValueError(f"counts[{y}, {x}] ({array[y, x]}) must be in 0..9")
    return _frozen(array.astype(np.int64))


def _frozen(array: np.ndarray) -> np.ndarray:
    """Mark an array the function owns read-only, for a frozen result."""
    array.setflags(write=False)
    return array


@dataclass(frozen=True, eq=False)
class ReconstructResult:
    """The layouts whose closed-neighbourhood counts equal a count matrix.

    Attributes
    ----------
    counts : numpy.ndarray of int, shape (height, width)
        The input.
    mines : numpy.ndarray of bool or None
        One solution, or None when there is none.
    n_solutions : int
        The exact number of solutions.
    """

    counts: np.ndarray
    mines: np.ndarray | None
    n_solutions: int

    @property
    def unique(self) -> bool:
        """True iff exactly one layout fits."""
        return self.n_solutions == 1

    def to_dict(self) -> dict:
        """Return the size and the scalar results as a table row.

        Examples
        --------
        >>> reconstruct([[1, 1, 1]]).to_dict()
        {'width': 3, 'height': 1, 'n_solutions': 1, 'unique': True}
        """
        height, width = self.counts.shape
        return {"width": width, "height": height, "n_solutions": self.n_solutions,
                "unique": self.unique}

    def to_text(self) -> str:
        """Write the solution as rows of ``X`` (mine) and ``_`` (safe), or ``-1`` if none.

        Examples
        --------
        >>> print(reconstruct([[1, 1], [1, 1]]).to_text())
        X _
        _ _
        >>> reconstruct([[9]]).to_text()
        '-1'
        """
        if self.mines is None:
            return "-1"
        return "\n".join(" ".join("X" if mine else "_" for mine in row)
                         for row in self.mines.tolist())


def reconstruct(counts) -> ReconstructResult:
    """Find the layouts whose closed-neighbourhood counts (self included) equal ``counts``.

    Parameters
    ----------
    counts : array_like of int, shape (height, width)
        Each cell's number of mines among itself and its up-to-8 neighbours (0..9).

    Returns
    -------
    ReconstructResult
        One solution (None if there is none), the exact number of solutions and
        whether it is unique.

    Raises
    ------
    ValueError
        If ``counts`` is not a 2-D integer array with values 0..9.

    Examples
    --------
    A 2x2 board: every cell sees all four, so a 1 everywhere fits any one mine.

    >>> result = reconstruct([[1, 1], [1, 1]])
    >>> result.n_solutions, result.unique
    (4, False)
    >>> result = reconstruct([[1, 1, 0], [1, 1, 0]])
    >>> result.n_solutions, result.unique, result.mines.astype(int).tolist()
    (2, False, [[1, 0, 0], [0, 0, 0]])
    >>> print(reconstruct([[1, 1, 1], [1, 1, 1], [0, 0, 0]]).to_text())
    _ X _
    _ _ _
    _ _ _
    """
    array = _as_counts(counts)
    height, width = array.shape
    table = _neighbour_table(width, height)
    constraints = [(tuple(row[row >= 0].tolist()), need)
                   for row, need in zip(table, array.ravel().tolist(), strict=True)]
    outcome = _solve(constraints, width * height)
    mines = None if outcome.example is None else _frozen(outcome.example.reshape(height, width))
    return ReconstructResult(array, mines, outcome.count)


@dataclass(frozen=True, eq=False)
class ConsistencyResult:
    """The mine placements that fit a partially revealed board.

    Attributes
    ----------
    numbers : numpy.ndarray of int, shape (height, width)
        The revealed numbers (entries at unknown cells are meaningless).
    unknown : numpy.ndarray of bool
        Cells not revealed (flagged cells included).
    flags : numpy.ndarray of bool
        Flagged cells, taken to be mines.
    mines : int or None
        The total mine count, if it was given.
    n_solutions : int
        The exact number of placements on the unknown, unflagged cells that fit
        every revealed number (and the total, if given).
    forced_safe, forced_mine : numpy.ndarray of bool
        Unknown, unflagged cells that are safe (mined) in every placement; all
        False when there is no placement.
    example : numpy.ndarray of bool or None
        One fitting layout, flags included, or None when there is none.
    """

    numbers: np.ndarray
    unknown: np.ndarray
    flags: np.ndarray
    mines: int | None
    n_solutions: int
    forced_safe: np.ndarray
    forced_mine: np.ndarray
    example: np.ndarray | None

    @property
    def consistent(self) -> bool:
        """True iff some placement fits."""
        return self.n_solutions > 0

    @property
    def unique(self) -> bool:
        """True iff exactly one placement fits."""
        return self.n_solutions == 1

    def to_dict(self) -> dict:
        """Return the scalar results as a table row.

        Examples
        --------
        >>> row = board_consistency([[1, -1]]).to_dict()
        >>> row["consistent"], row["n_solutions"], row["forced_safe"], row["forced_mine"]
        (True, 1, 0, 1)
        """
        return {"mines": self.mines, "consistent": self.consistent,
                "n_solutions": self.n_solutions, "unique": self.unique,
                "forced_safe": int(self.forced_safe.sum()),
                "forced_mine": int(self.forced_mine.sum())}


def _mask(name: str, mask, shape) -> np.ndarray:
    """Return a read-only copy of a boolean mask of the board's shape, or raise ValueError."""
    array = np.array(mask)
    if array.shape != shape:
        raise ValueError(f"{name} has shape {array.shape}; expected {shape} like numbers")
    if array.dtype != np.bool_:
        raise ValueError(f"{name} (dtype {array.dtype}) must be a boolean array")
    return _frozen(array)


def board_consistency(numbers, *, unknown=None, flags=None, mines=None) -> ConsistencyResult:
    """Count the mine placements that fit a partially revealed board; find forced cells.

    Parameters
    ----------
    numbers : array_like of int, shape (height, width)
        Revealed numbers (mines among the 8 neighbours, 0..8); -1 marks an unknown
        cell unless ``unknown`` is given.
    unknown : array_like of bool, optional
        The unknown cells; their entries in ``numbers`` are ignored.
    flags : array_like of bool, optional
        Flagged cells, all unknown; they are taken to be mines.
    mines : int, optional
        The total number of mines (flags included). Without it, cells beyond the
        frontier are free and never forced.

    Returns
    -------
    ConsistencyResult
        The exact number of placements, the forced cells and one example.

    Raises
    ------
    ValueError
        If a revealed number is outside 0..8, a flag lies on a revealed cell, the
        shapes differ or ``mines`` is not an integer in ``0..cells``.

    Examples
    --------
    A 1 in the corner of a 3x3 board, everything else hidden. Without the mine
    count any of its 3 neighbours can be the mine and the 5 far cells are free:
    3 * 2**5 placements, nothing forced.

    >>> numbers = [[1, -1, -1],
    ...            [-1, -1, -1],
    ...            [-1, -1, -1]]
    >>> result = board_consistency(numbers)
    >>> result.n_solutions, bool(result.forced_safe.any() or result.forced_mine.any())
    (96, False)

    With one mine in all, it must be next to the 1: the far cells are safe.

    >>> result = board_consistency(numbers, mines=1)
    >>> result.n_solutions
    3
    >>> result.forced_safe.astype(int)
    array([[0, 0, 1],
           [0, 0, 1],
           [1, 1, 1]])

    A 2 in a corner with a flag on one neighbour, 2 mines in all: one of the two
    other neighbours holds the second mine.

    >>> flags = np.zeros((3, 3), dtype=bool)
    >>> flags[0, 1] = True
    >>> numbers[0][0] = 2
    >>> result = board_consistency(numbers, flags=flags, mines=2)
    >>> result.n_solutions, result.example.astype(int).tolist()
    (2, [[0, 1, 0], [1, 0, 0], [0, 0, 0]])
    """
    array = _frozen(np.array(numbers))
    if array.ndim != 2 or 0 in array.shape or not np.issubdtype(array.dtype, np.integer):
        raise ValueError(f"numbers (shape {array.shape}, dtype {array.dtype}) must be a 2-D "
                         "integer array with at least one cell")
    hidden = _mask("unknown", array == -1 if unknown is None else unknown, array.shape)
    flagged = _mask("flags", np.zeros(array.shape, bool) if flags is None else flags,
                    array.shape)
    bad = np.argwhere(~hidden & ((array < 0) | (array > 8)))
    if bad.size:
        y, x = bad[0].tolist()
        raise ValueError(f"revealed number at cell ({x}, {y}) ({array[y, x]}) must be in 0..8; "
                         "mark unknown cells with -1")
    bad = np.argwhere(flagged & ~hidden)
    if bad.size:
        y, x = bad[0].tolist()
        raise ValueError(f"flag at cell ({x}, {y}) lies on a revealed cell")
    height, width = array.shape
    if mines is not None:
        Board(width, height, mines)  # validates the total
        mines = int(mines)
    open_cells = (hidden & ~flagged).ravel()
    local = np.cumsum(open_cells) - 1
    table, constraints = _neighbour_table(width, height), []
    for cell in np.flatnonzero(~hidden.ravel()).tolist():
        around = table[cell][(table[cell] >= 0) & (table[cell] != cell)]
        constraints.append((tuple(local[around[open_cells[around]]].tolist()),
                            int(array.flat[cell]) - int(flagged.ravel()[around].sum())))
    left = None if mines is None else mines - int(flagged.sum())
    outcome = _solve(constraints, int(open_cells.sum()), mines=left)
    forced_safe = np.zeros(array.size, dtype=bool)
    forced_mine = np.zeros(array.size, dtype=bool)
    example = None
    if outcome.count:
        forced_safe[open_cells] = ~outcome.can_mine
        forced_mine[open_cells] = ~outcome.can_safe
        example = flagged.ravel().copy()
        example[open_cells] = outcome.example
        example = example.reshape(array.shape)
    return ConsistencyResult(array, hidden, flagged, mines, outcome.count,
                             _frozen(forced_safe.reshape(array.shape)),
                             _frozen(forced_mine.reshape(array.shape)),
                             None if example is None else _frozen(example))
