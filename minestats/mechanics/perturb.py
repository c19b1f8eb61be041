"""Simon Tatham's perturbation moves for no-guess generation.

When the solver stalls, `perturb_once` moves mines so that a deduction becomes
possible, keeping the mine count. It picks a stuck number (a revealed number with
unknown neighbours) whose unknown neighbours are cheapest to clear (move their mines
away) or fill (bring mines in); the mines that move go to, or come from, cells
elsewhere, preferring unknown cells far from every number, then unknown cells near
one, then decided cells. With no stuck number, it clears a flagged mine that walls
off unknown cells no number touches. The generator (`minestats.drivers.no_guess`) then
re-solves from scratch, because a move can invalidate earlier deductions.
"""

from __future__ import annotations

import numpy as np

from minestats.mechanics.game import neighbour_counts

__all__ = ["perturb_once"]


def _pick(rng, tiers, count):
    """``count`` distinct cells: uniformly from the first tier, then the next, and so on."""
    chosen = []
    for cells in tiers:
        take = min(count, cells.size)
        chosen.append(rng.choice(cells, take, replace=False))
        count -= take
    return np.concatenate(chosen)


def _stuck_move(layout, rows, hidden, allowed, rng):
    """Choose the cheapest clear or fill of a stuck number's unknown neighbours.

    ``rows`` are the neighbour-table rows of the stuck numbers and ``hidden`` marks
    their unknown neighbours. Returns ``(cells, fill)``, the unknown neighbours of
    the chosen number, or None when no cells elsewhere can take (give) the mines.
    """
    mined = (np.append(layout, False)[rows] & hidden).sum(axis=1)
    safe = hidden.sum(axis=1) - mined
    free_elsewhere = int((allowed & ~layout).sum()) - safe
    mines_elsewhere = int((allowed & layout).sum()) - mined
    impossible = layout.size + 1
    costs = np.stack([np.where(free_elsewhere >= mined, mined, impossible),   # clear
                      np.where(mines_elsewhere >= safe, safe, impossible)])   # fill
    best = costs.min()
    if best == impossible:
        return None
    fill, candidate = (int(v) for v in rng.choice(np.argwhere(costs == best)))
    around = rows[candidate][hidden[candidate]]
    return around, bool(fill)


def _wall_move(layout, unknown, flagged, table, allowed, rng):
    """Clear one flagged mine that walls off unknown cells no revealed number touches.

    Returns ``([cell], False)``, or None when there is no such mine or no free cell.
    """
    walls = np.flatnonzero(flagged & allowed & np.append(unknown, False)[table].any(axis=1))
    if walls.size == 0 or not (allowed & ~layout).any():
        return None
    return walls[[rng.integers(walls.size)]], False


def perturb_once(layout, result, table, protected, rng) -> int:
    """Apply one move at the solver's stall to the flat ``layout``; return mines moved.

    Returns 0, leaving the layout alone, when no move is possible.
    """
    revealed, flagged = result.revealed.ravel(), result.flagged.ravel()
    unknown = ~revealed & ~flagged
    counts = neighbour_counts(layout.reshape(result.revealed.shape)).ravel()
    rows = table[np.flatnonzero(revealed & (counts > 0))]
    near_number = np.zeros(layout.size, dtype=bool)
    near_number[rows[rows >= 0]] = True
    hidden = np.append(unknown, False)[rows]  # index -1 (padding) reads the False
    stuck = hidden.any(axis=1)
    allowed = ~protected
    if stuck.any():
        move = _stuck_move(layout, rows[stuck], hidden[stuck], allowed, rng)
    else:
        move = _wall_move(layout, unknown, flagged, table, allowed, rng)
    if move is None:
        return 0
    around, fill = move
    changed = around[layout[around] != fill]
    pool = allowed & (layout if fill else ~layout)
    pool[around] = False
    tiers = [np.flatnonzero(pool & unknown & ~near_number),
             np.flatnonzero(pool & unknown & near_number), np.flatnonzero(pool & ~unknown)]
    layout[_pick(rng, tiers, changed.size)] = not fill
    layout[changed] = fill
    return int(changed.size)
