"""Does best's strongest development variant beat it on games no earlier run used? Paired.

The challenger was fixed before this experiment ran, by one rule: of every variant
``minestats.experiments.policy_ablation`` measured on its development stream (42/14,
100,000 Expert games), the one whose paired difference leaned furthest the variant's
way. That is wider candidate lists (up to 12 candidates, 4 of them off the frontier,
instead of 6 and 2): +0.023 points [-0.134, +0.180] there, noise-sized. The learned
rankers of ``minestats.experiments.move_labels`` are not contenders: none passed the
offline gate that a game run needs (their implied gain's lower bound is not above
zero).

Both players play the same Expert games (30x16/99, safe first click at the corner,
``safe-click``) with the same tie-break seeds, on this experiment's own stream
``seed/k``, which no development run drew from, through `minestats.compare`: best's
win rate minus the challenger's, with Newcombe's interval for paired proportions and
McNemar's exact p (the table of ``minestats.experiments.policy_ablation``, one row).

The bar, written before the run: the challenger is stronger only if the whole 95%
interval of best minus challenger lies below zero. The paper-grade size, 400,000 games
each, fixed before the run: with the 6.4% discordant games of the development run its
standard error is about 0.04 points.

Writes ``held_out_challenger.csv`` with its sidecar and its summary twins.
"""

from __future__ import annotations

from minestats.experiments.policy_ablation import BOARD, CLICK, RULE, run

COMPONENTS = {"wider candidate lists (up to 12, 4 off the frontier), held out":
              {"max_candidates": 12, "off_frontier_cells": 4}}
"""The one row: the challenger, as its change to best's strategy."""


def main(argv=None):
    run(argv, description=__doc__.splitlines()[0], experiment="held_out_challenger",
        board=BOARD, rule=RULE, click=CLICK, components=COMPONENTS,
        games="Expert games (safe corner")


if __name__ == "__main__":
    main()
