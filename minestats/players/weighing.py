"""The layouts a position fits, weighed by the rule: mine probabilities and their count.

`weigh_position` gives the mine probabilities of a position and the log of its
layouts: every layout alike, or, under Windows XP's rule, each weighed by how the
rule deals it (`_winxp_mixture`); the float search answers, and the exact
big-integer engine (`exact_position`, through `numba.objmode`) where it passes its
budget, as the player's reference does.
"""

from __future__ import annotations

import math

import numba
import numpy as np

from minestats.foundations.compiled import compiled
from minestats.frontier.engine import (
    FITS,
    NO_FIT,
    OVER_BUDGET,
    analyse_frontier,
    analyse_position,
    closed_number_disagrees,
    flag_frontier_cell,
    frontier_groups,
)

__all__ = ["exact_position", "weigh_position"]


def exact_position(numbers, revealed, flagged, width, mines, probability, relocation):
    """Fill ``probability`` from the exact engine; return the log of the weighed layouts.

    The kernel's way out for a position whose float search passed its budget. With a
    Windows XP ``relocation`` (`minestats.mechanics.rules.winxp_order`; empty for every other
    rule) the layouts are weighed as `weigh_position` weighs them
    (`minestats.inference.probabilities.winxp_counts`). -inf when no layout fits.
    """
    from minestats.inference.probabilities import exact_probabilities, winxp_counts

    shape = (revealed.size // width, width)
    view = np.where(revealed, numbers, -1).reshape(shape)
    try:
        if relocation.size:
            click = int(np.setdiff1d(np.arange(revealed.size), relocation)[0])
            total, mined, _, _ = winxp_counts(view, flags=flagged.reshape(shape),
                                              mines=int(mines), max_configurations=None,
                                              click=(click % width, click // width))
            probability[:] = [np.nan if m is None else m / total for m in mined.ravel()]
            return math.log(total)
        exact = exact_probabilities(view, flags=flagged.reshape(shape), mines=int(mines),
                                    max_configurations=None)
    except ValueError:  # no layout fits
        probability[:] = np.nan
        return -math.inf
    probability[:] = exact.probability.ravel()
    return math.log(exact.n_solutions)


@compiled
def weigh_position(numbers, table, revealed, flagged, width, mines, budget, probability,
                   relocation):
    """Probabilities of a position (the float search, else the exact engine).

    Returns the log of the layouts that fit, each weighed by the rule: alike when
    ``relocation`` is empty; under Windows XP (``relocation``, the rule's order of the
    cells, `minestats.mechanics.rules.winxp_order`) by 1 + the mines of its leading run
    (`_winxp_mixture`). -inf when none fits.
    """
    if relocation.size and not revealed[relocation[0]]:
        status, log_solutions = _winxp_mixture(numbers, table, revealed, flagged, width, mines,
                                               budget, probability, relocation)
    else:  # no layout has a leading run: alike
        unread = np.empty(revealed.size, dtype=np.int64)  # the cells proven, not wanted here
        status, log_solutions, _, _ = analyse_position(numbers, table, revealed, flagged,
                                                       width, mines, budget, True, True,
                                                       probability, unread, unread,
                                                       relocation[:0])
    if status == OVER_BUDGET:
        return _exact(numbers, revealed, flagged, width, mines, probability, relocation)
    if status != FITS:
        return -np.inf
    return log_solutions


@compiled
def _exact(numbers, revealed, flagged, width, mines, probability, relocation):
    """`exact_position`, called from compiled code (through `numba.objmode`)."""
    with numba.objmode(log_solutions="float64"):
        log_solutions = exact_position(numbers, revealed, flagged, width, mines, probability,
                                       relocation)
    return log_solutions


@compiled
def _stretch_end(order, start, revealed, flagged, frontier):
    """Return the end of the cells of ``order`` from ``start`` flagged or off the frontier."""
    end = start
    while end < order.size and not revealed[order[end]] and (flagged[order[end]]
                                                             or not frontier[order[end]]):
        end += 1
    return end


@compiled
def _all_mined_bound(stretch, revealed, flagged, frontier, mines):
    """Bound the share of the layouts that mine every unflagged cell of ``stretch``.

    Those cells are off the frontier: of the C(free, rest) ways to place the ``rest``
    mines a frontier configuration leaves there, a share prod_{j<n} (rest - j) /
    (free - j) mines n given cells, at most that with ``rest`` = the mines not flagged.
    """
    left = mines - flagged.sum()
    free = (~revealed & ~flagged & ~frontier).sum()
    bound = 1.0
    for cell in stretch:
        if not flagged[cell]:
            bound *= max(left, 0) / free
            left -= 1
            free -= 1
    return bound


@compiled
def _winxp_mixture(numbers, table, revealed, flagged, width, mines, budget, probability,
                   relocation):
    """Weigh the layouts by Windows XP's rule: ``(status, log of the weighed layouts)``.

    The mixture over r of the positions with the first r cells of the order flagged,
    each counted by its layouts (`minestats.inference.probabilities`, module notes),
    one stretch of r at a time: between two frontier cells of the order, the cells are
    flagged or off the frontier, and one analysis weighs them all (`analyse_position`'s
    ``run``); the next stretch has everything up to the next frontier cell flagged, on
    the same frontier (`flag_frontier_cell`). It stops at the first revealed cell of the
    order, or once the rest cannot move a float. `OVER_BUDGET` when an analysis passes
    the budget (``probability`` is then left half done).
    """
    if closed_number_disagrees(numbers, table, revealed, flagged):
        return NO_FIT, -np.inf
    front = frontier_groups(numbers, table, revealed, flagged, width)
    marked = flagged.copy()
    part = np.empty(probability.size)
    unread = np.empty(probability.size, dtype=np.int64)  # the cells proven, not wanted here
    mixed = np.zeros(probability.size)
    total = 0.0
    log_first = -np.inf
    start = 0
    while True:
        end = _stretch_end(relocation, start, revealed, marked, front.frontier)
        stretch = relocation[start:end]
        status, log_part, _, _ = analyse_frontier(front, revealed, marked, mines, budget, True,
                                                  True, part, unread, unread, stretch)
        if status == OVER_BUDGET or (status != FITS and start == 0):
            return status, -np.inf
        if status != FITS:  # no layout has the flagged cells mined: the run stops before
            break
        if start == 0:
            log_first = log_part
        weight = math.exp(log_part - log_first)
        mixed += weight * part
        total += weight
        if end == relocation.size or revealed[relocation[end]]:
            break  # no layout has a longer leading run
        # The next stretch's layouts mine the whole of this one and the frontier cell next.
        if weight * min(part[relocation[end]], _all_mined_bound(
                stretch, revealed, marked, front.frontier, mines)) < 1e-18:
            break
        marked[relocation[start:end + 1]] = True
        front = flag_frontier_cell(front, relocation[end])
        start = end + 1
    probability[:] = mixed / total
    return FITS, log_first + math.log(total)
