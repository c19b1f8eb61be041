"""Today's player in plain Python: the reference the compiled player is checked against.

This is the player as it was before its game was compiled (`minestats.players.kernel`):
deductions by `minestats.solvers.deduce`, mine probabilities from the frontier
enumeration combined in numpy (the exact engine past its budget), the policies
``safest`` and ``best`` of `minestats.players.player`, and the end game listed and
searched in Python by `minestats.players.optimal.LayoutSolver`. It shares with the
compiled player only the frontier's grouping and enumeration kernels.
``tests/players/test_player.py`` plays the same seeded layouts with both and compares
their moves.
"""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import combinations, product
from typing import NamedTuple

import numpy as np
from scipy.special import gammaln

from minestats.foundations.seeds import as_seed_sequence, seed_label
from minestats.foundations.validation import SearchBudgetExceeded, check_policy
from minestats.frontier.engine import enumerate_groups, frontier_groups
from minestats.inference import mine_probabilities
from minestats.inference.probabilities import PositionProbabilities
from minestats.players.endgame import ENDGAME_LAYOUTS, SEARCH_BUDGET, EndgameMove
from minestats.players.optimal import LayoutSolver
from minestats.players.player import GameResult, Move
from minestats.solvers import SolverOptions, deduce
from minestats.solvers.state import CheckedGame

LISTING_BUDGET = 50_000


class _TooMany(Exception):
    """The listing passed its layout limit or its budget."""


def _group_configurations(sizes, starts, members, need, left, free, budget):
    """Mines per group for every consistent configuration: list of (values, mines left over).

    A depth-first search over the groups in order, each given a mine count within the
    bounds its constraints leave (as in `minestats.solvers.logic.enumerate_groups`),
    pruned by the mine count: the mines left over must fit the ``free`` cells.
    """
    groups = len(sizes)
    need = list(need)
    room = [0] * len(need)
    for g in range(groups):
        for k in range(starts[g], starts[g + 1]):
            room[members[k]] += sizes[g]
    capacity = np.append(np.cumsum(np.asarray(sizes)[::-1])[::-1], 0).tolist()
    values = [0] * groups
    found = []
    visited = 0

    def search(g, total):
        nonlocal visited
        if g == groups:
            found.append((tuple(values), left - total))
            return
        if total + capacity[g] < left - free:  # too few mines can still be placed
            return
        mine_constraints = members[starts[g]:starts[g + 1]]
        for c in mine_constraints:
            room[c] -= sizes[g]
        low = max([0, *(need[c] - room[c] for c in mine_constraints)])
        high = min([sizes[g], left - total, *(need[c] for c in mine_constraints)])
        for value in range(low, high + 1):
            visited += 1
            if visited > budget:
                raise _TooMany
            for c in mine_constraints:
                need[c] -= value
            values[g] = value
            search(g + 1, total + value)
            for c in mine_constraints:
                need[c] += value
        for c in mine_constraints:
            room[c] += sizes[g]

    search(0, 0)
    return found


def consistent_layouts(numbers, table, revealed, flagged, width, mines, *,
                       limit=ENDGAME_LAYOUTS, budget=LISTING_BUDGET):
    """Every layout of the unknown cells that fits, or None past ``limit`` or ``budget``."""
    unknown = np.flatnonzero(~revealed & ~flagged)
    if closed_number_disagrees(numbers, table, revealed, flagged):
        return unknown, np.zeros((0, unknown.size), dtype=bool)
    (frontier, sizes, starts, members, need, _, cell_starts,
     group_cells) = frontier_groups(numbers, table, revealed, flagged, width)
    free = np.flatnonzero(~revealed & ~flagged & ~frontier)
    left = mines - int(flagged.sum())
    sizes_list = sizes.tolist()
    try:
        found = _group_configurations(sizes_list, starts.tolist(), members.tolist(),
                                      need.tolist(), left, free.size, budget)
    except _TooMany:
        return None
    total = sum(math.prod(math.comb(s, v) for s, v in zip(sizes_list, values, strict=True))
                * math.comb(free.size, rest) for values, rest in found)
    if total > limit:
        return None
    column = np.full(revealed.size, -1)
    column[unknown] = np.arange(unknown.size)
    group_columns = [column[group_cells[cell_starts[g]:cell_starts[g + 1]]].tolist()
                     for g in range(len(sizes_list))]
    free_columns = column[free].tolist()
    layouts = np.zeros((total, unknown.size), dtype=bool)
    row = 0
    for values, rest in found:
        choices = [combinations(cells, v) for cells, v in zip(group_columns, values,
                                                               strict=True)]
        for picked in product(*choices, combinations(free_columns, rest)):
            for cells in picked:
                layouts[row, list(cells)] = True
            row += 1
    return unknown, layouts


def _numbers_table(table, flagged, unknown, layouts) -> np.ndarray:
    """``L x U`` int8: each unknown cell's number in each layout, -1 for a mine."""
    column = np.full(flagged.size + 1, -1)
    column[unknown] = np.arange(unknown.size)
    neighbours = table[unknown]
    adjacency = np.zeros((unknown.size, unknown.size), dtype=np.int16)
    rows, slots = np.nonzero(neighbours >= 0)
    targets = column[neighbours[rows, slots]]
    keep = (targets >= 0) & (targets != rows)
    adjacency[targets[keep], rows[keep]] = 1
    flags_around = np.append(flagged, False)[np.where(neighbours >= 0, neighbours,
                                                      flagged.size)].sum(axis=1)
    counts = layouts.astype(np.int16) @ adjacency + flags_around
    counts[layouts] = -1
    return counts.astype(np.int8)



def _solve_endgame(numbers, table, revealed, flagged, width, mines, *, limit, budget):
    listed = consistent_layouts(numbers, table, revealed, flagged, width, mines,
                                limit=limit)
    if listed is None:
        return None
    unknown, layouts = listed
    if len(layouts) == 0 or unknown.size == 0:
        return None
    counts = _numbers_table(table, flagged, unknown, layouts)
    if len(layouts) == 1:  # nothing uncertain: any safe cell wins
        safe = np.flatnonzero(counts[0] >= 0)
        return EndgameMove(tuple(unknown[safe].tolist()), Fraction(1)) if safe.size else None
    solver = LayoutSolver(counts, budget=budget)
    states = np.arange(len(layouts), dtype=np.int32)
    differs = np.flatnonzero((counts != counts[0]).any(axis=0))
    try:
        wins, columns = solver.best_openings(states, counts, differs)
    except SearchBudgetExceeded:
        return None
    if not columns:
        return None
    return EndgameMove(tuple(unknown[columns].tolist()), Fraction(wins, len(layouts)))


def _convolve_all(polynomials):
    """``prefix[k]`` and ``suffix[k]``: products of polynomials before k and from k on."""
    prefix, suffix = [np.ones(1)], [np.ones(1)]
    for poly in polynomials:
        prefix.append(np.convolve(prefix[-1], poly))
    for poly in reversed(polynomials):
        suffix.append(np.convolve(suffix[-1], poly))
    suffix.reverse()
    return prefix, suffix


def closed_number_disagrees(numbers, table, revealed, flagged) -> bool:
    """Whether a revealed number with no unknown neighbour left disagrees with its flags.

    The frontier search sees only numbers with unknown neighbours; this is the check
    of the others.
    """
    cells = revealed.size
    rows = np.where(table >= 0, table, cells)
    unknown = np.append(~revealed & ~flagged, False)[rows].any(axis=1)
    flags = np.append(flagged, False)[rows].sum(axis=1)
    return bool((revealed & ~unknown & (flags != numbers)).any())


def position_probabilities(numbers, table, revealed, flagged, width, mines, *,
                           budget) -> PositionProbabilities | None:
    """Mine probabilities of a position as floats, or None past ``budget`` (numpy)."""
    probability = np.full(revealed.size, np.nan)
    probability[flagged] = 1.0
    if closed_number_disagrees(numbers, table, revealed, flagged):
        return PositionProbabilities(probability, -math.inf)
    (frontier, sizes, starts, members, need, component_starts, cell_starts,
     group_cells) = frontier_groups(numbers, table, revealed, flagged, width)
    _, _, _, layouts, mined, visited = enumerate_groups(sizes, starts, members, need,
                                                         component_starts, budget)
    if visited > budget:
        return None
    free = ~revealed & ~flagged & ~frontier
    free_cells, left = int(free.sum()), mines - int(flagged.sum())
    widths = [int(sizes[first:last].sum()) + 1  # mine totals 0..cells of component k
              for first, last in zip(component_starts[:-1], component_starts[1:], strict=True)]
    polynomials = [layouts[k, :widths[k]] for k in range(len(widths))]
    prefix, suffix = _convolve_all(polynomials)
    combined = suffix[0]
    totals = np.arange(combined.size)
    fits = (totals <= left) & (left - totals <= free_cells) & (combined > 0)
    if not fits.any():
        return PositionProbabilities(probability, -math.inf)
    log_ways = np.full(combined.size, -np.inf)
    rest = left - totals[fits]
    log_ways[fits] = (gammaln(free_cells + 1) - gammaln(rest + 1)
                      - gammaln(free_cells - rest + 1))
    scale = log_ways.max()
    ways = np.exp(log_ways - scale)
    solutions = float(combined @ ways)
    if free_cells:
        mined_free = combined * ways * np.clip(left - totals, 0, None) / free_cells
        probability[free] = mined_free.sum() / solutions
    for k, size in enumerate(widths):
        others = np.convolve(prefix[k], suffix[k + 1])
        weight = np.array([others @ ways[t:t + others.size] for t in range(size)])
        first, last = component_starts[k], component_starts[k + 1]
        for g in range(first, last):
            share = mined[g, :size] @ weight / (sizes[g] * solutions)
            probability[group_cells[cell_starts[g]:cell_starts[g + 1]]] = share
    return PositionProbabilities(probability, math.log(solutions) + scale)


CANDIDATE_SHARE = 0.9
"""``best`` looks at cells whose safety is at least this share of the best safety."""
MAX_CANDIDATES = 6
"""``best`` evaluates at most this many candidates per guess (the safest ones)."""
FAST_BUDGET = 100_000
"""Configurations the compiled float path may visit before the exact engine takes over."""
_TIE = 1e-12
TIE_TOLERANCE = 1e-9
"""Keys this close to the best count as tied when `policy_ties` lists a tie."""
_LOG_ENDGAME = math.log(ENDGAME_LAYOUTS) + 1e-9


def _unknown_neighbours(state: CheckedGame) -> np.ndarray:
    """Per cell, its unknown (not open, not flagged) neighbours."""
    hidden = np.append(~state.revealed & ~state.flagged, False)
    return hidden[state.table].sum(axis=1) - hidden[:-1]


def _position(state: CheckedGame, numbers=None, revealed=None) -> PositionProbabilities:
    """Mine probabilities of the position, or of a hypothetical one.

    ``numbers`` and ``revealed`` replace the game's arrays (for a cell imagined open).
    The compiled float path is tried first; past its budget, the exact engine, with no
    cap (positions that arise in play on boards up to Expert never need one).
    """
    numbers = state.numbers if numbers is None else numbers
    revealed = state.revealed if revealed is None else revealed
    width, mines = state.board.width, state.board.mines
    fast = position_probabilities(numbers, state.table, revealed, state.flagged, width, mines,
                                  budget=FAST_BUDGET)
    if fast is not None:
        return fast
    view = np.where(revealed, numbers, -1).reshape(state.board.shape)
    try:
        exact = mine_probabilities(view, flags=state.flagged.reshape(state.board.shape),
                                   mines=mines, max_configurations=None)
    except ValueError:  # no layout fits
        return PositionProbabilities(np.full(revealed.size, np.nan), -math.inf)
    return PositionProbabilities(exact.probability.ravel(), math.log(exact.n_solutions))


def _pick(cells: np.ndarray, keys: list, rng):
    """Return the cell with the largest keys (compared in order), ties broken by ``rng``.

    With ``rng`` None, return every cell of the final tie instead, with keys within
    `TIE_TOLERANCE` of the best counted as tied (a float tie may flip between two
    implementations).
    """
    tolerance = _TIE if rng is not None else TIE_TOLERANCE
    best = cells
    for key in keys:
        values = key[best] if isinstance(key, np.ndarray) else np.array([key(c) for c in best])
        best = best[values >= values.max() - tolerance]
        if best.size == 1:
            break
    if rng is None:
        return best
    return int(best[0]) if best.size == 1 else int(rng.choice(best))


def _safest(state: CheckedGame, position, rng) -> int:
    probability = position.probability.ravel()
    unknown = np.flatnonzero(~state.revealed & ~state.flagged)
    safety = np.zeros(probability.size)
    safety[unknown] = 1 - probability[unknown]
    return _pick(unknown, [safety, -_unknown_neighbours(state)], rng)


class _Outlook(NamedTuple):
    survive: float  # chance of surviving the cell and then the safest next cell
    progress: float  # chance that the cell shows a number proving some cell safe
    dead: bool  # the cell can show only one number: opening it teaches nothing


def _outlook(state: CheckedGame, cell: int, log_total: float) -> _Outlook:
    """Secondary safety, progress and deadness of opening ``cell``.

    For every number ``cell`` can show, the position with that number revealed is
    solved: its share of the layouts is the chance of that number, and its safest
    cell (the cell itself left out) the best next move.
    """
    around = state.table[cell][state.table[cell] >= 0]
    flagged = int(state.flagged[around].sum())
    hidden = int((~state.revealed[around] & ~state.flagged[around]).sum()) - 1
    numbers, revealed = state.numbers.copy(), state.revealed.copy()
    revealed[cell] = True
    survive = progress = 0.0
    shown = 0
    for value in range(flagged, flagged + hidden + 1):
        numbers[cell] = value
        after = _position(state, numbers, revealed)
        if after.log_solutions == -math.inf:  # this number cannot show
            continue
        shown += 1
        chance = math.exp(after.log_solutions - log_total)
        rest = after.probability
        rest = rest[~np.isnan(rest) & (rest < 1)]  # unknown cells that may be safe
        lowest = rest.min() if rest.size else 0.0  # nothing left to open: won
        survive += chance * (1 - lowest)
        progress += chance * (lowest < _TIE)
    return _Outlook(survive, progress, shown == 1)


def _best(state: CheckedGame, position, rng) -> int:
    if position.log_solutions <= _LOG_ENDGAME:
        exact = _solve_endgame(state.numbers, state.table, state.revealed, state.flagged,
                               state.board.width, state.board.mines, limit=ENDGAME_LAYOUTS,
                               budget=SEARCH_BUDGET)
        if exact is not None:
            return _pick(np.array(exact.cells), [-position.probability.ravel()], rng)
    probability = position.probability.ravel()
    unknown = np.flatnonzero(~state.revealed & ~state.flagged)
    safety = 1 - probability[unknown]
    crowd = _unknown_neighbours(state)
    frontier = np.append(state.revealed & (state.numbers > 0), False)[state.table].any(axis=1)
    eligible = safety >= CANDIDATE_SHARE * safety.max() - _TIE
    order = np.lexsort((crowd[unknown], -safety))
    chosen, off_frontier = [], 0
    for rank in order:
        if not eligible[rank] or len(chosen) >= MAX_CANDIDATES:
            break
        cell = int(unknown[rank])
        if not frontier[cell]:
            if off_frontier >= 2:
                continue
            off_frontier += 1
        chosen.append(cell)
    if len(chosen) == 1:
        return chosen[0] if rng is not None else np.array(chosen)
    outlook = {cell: _outlook(state, cell, position.log_solutions) for cell in chosen}
    alive = [cell for cell in chosen if not outlook[cell].dead]
    full_safety = np.zeros(probability.size)
    full_safety[unknown] = safety
    return _pick(np.array(alive or chosen), [lambda c: outlook[c].survive,
                                             lambda c: outlook[c].progress,
                                             full_safety, -crowd], rng)


_CHOOSERS = {"safest": _safest, "best": _best}


def play(mines, click, *, policy="best", seed=None, options=None) -> GameResult:
    """Play one whole game on a known layout from a given first click (the reference)."""
    check_policy(policy)
    options = SolverOptions() if options is None else options
    if not isinstance(options, SolverOptions):
        raise ValueError(f"options ({options!r}) must be a SolverOptions")
    sequence = as_seed_sequence(seed)
    rng = np.random.default_rng(sequence)
    state = CheckedGame(mines, click, solver=f"player ({options.solver})")
    choose = _CHOOSERS[policy]
    moves, capped = [], False
    while True:
        _, stalled_capped = deduce(state, options)
        capped |= stalled_capped
        if state.lost or state.won:
            break
        position = _position(state)
        cell = choose(state, position, rng)
        moves.append(Move(*state.cell(cell), float(position.probability.flat[cell])))
        state.open_index(cell)
    assert state.won != state.lost  # a game ends won or lost, never both or neither
    return GameResult(won=state.won, guesses=len(moves),
                      opened=int((state.revealed & ~state.mines).sum()), capped=capped,
                      moves=tuple(moves), policy=policy, seed=seed_label(sequence))


def policy_ties(layout, click, policy, cells) -> list[set]:
    """The cells the reference policy might open at each stall of a forced line of play.

    The game is played from ``click`` with the reference's deductions, opening
    ``cells`` in order at its stalls; at each stall, the set of cells the policy
    holds tied for its choice (keys within `TIE_TOLERANCE`) is recorded.
    """
    state = CheckedGame(layout, click)
    choose = _CHOOSERS[policy]
    ties = []
    for cell in cells:
        deduce(state, SolverOptions())
        ties.append({int(c) for c in np.atleast_1d(choose(state, _position(state), None))})
        state.open_index(cell)
    return ties
