"""Does knowing Windows XP's rule pay? The rule-aware player against the uniform one, paired.

Under ``winxp`` the layouts that fit a position are not alike: a layout weighs 1 +
the mines at the start of the rule's row-major order (the click skipped), the cells
a mine under the click would have moved to (`minestats.inference.probabilities`,
module notes). ``best`` weighs them so by default (its probabilities and its end
game); with ``weigh_winxp=False`` it takes them as alike, as every published player
does. Both play the same Expert games (30x16/99, Windows XP's deal, first click at
the corner) with the same tie-break seeds, through `minestats.compare`: the
rule-aware player's win rate minus the uniform one's, with Newcombe's interval for
paired proportions and McNemar's exact p (the table of
``minestats.experiments.policy_ablation``, one row).

Run with a fixed ``--n`` written down before the run; the games draw from the
experiment's stream ``seed/k``.

Writes ``winxp_player.csv`` with its sidecar and its summary twins.
"""

from __future__ import annotations

from minestats.experiments.policy_ablation import run

BOARD, RULE, CLICK = "30x16/99", "winxp", (0, 0)
COMPONENTS = {"Windows XP's weighing off (every layout alike)": {"weigh_winxp": False}}
"""The one row: the uniform-assuming player."""


def main(argv=None):
    run(argv, description=__doc__.splitlines()[0], experiment="winxp_player", board=BOARD,
        rule=RULE, click=CLICK, components=COMPONENTS,
        games="Expert games (Windows XP's deal, corner")


if __name__ == "__main__":
    main()
