"""The first-click rules as objects, registered in one table.

A rule places ``board.mines`` mines uniformly at random subject to its constraint,
and every part of the package that depends on the rule asks the rule's properties,
never its name:

``protects``
    the cells the rule keeps free of mines: ``"nothing"``, the ``"click"``, or the
    click's closed ``"neighbourhood"``;
``relocates``
    whether a mine placed under the click is moved afterwards (Windows XP moves it to
    the first mine-free cell in row-major order from the top-left, skipping the click);
``symmetric``
    whether the rule commutes with the board's reflections and rotations, so that
    cells of one symmetry orbit share their statistics (a relocating rule does not: its
    row-major order breaks the symmetry).

The four rules:

``uniform``
    uniform over all N cells, independent of the click;
``safe-click``
    uniform over the N - 1 cells other than the click;
``safe-opening``
    uniform over the cells outside the click's closed neighbourhood;
``winxp``
    uniform over all N cells, a mine under the click relocated as Windows XP does.

Adding a rule is one entry in `RULE_TABLE` when it combines the properties above in
a new way; a rule with a new kind of constraint also needs its closed form
(`minestats.mechanics.opening_probabilities`) and its sampler
(`minestats.mechanics.sampling`). The experiments measure the rules they name
(`minestats.experiments.common.PAPER_RULES`), each seeded from a fixed table of
streams, so a rule added here moves no committed stream.

This module imports nothing, so that `minestats.foundations.validation` (and the
command line's help) can read the names without starting the library.

Examples
--------
>>> RULE_TABLE["safe-opening"].protects, RULE_TABLE["winxp"].relocates
('neighbourhood', True)
>>> [rule for rule in RULES if RULE_TABLE[rule].symmetric]
['uniform', 'safe-click', 'safe-opening']
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["PROTECTIONS", "RULES", "RULE_TABLE", "Rule"]

PROTECTIONS = ("nothing", "click", "neighbourhood")
"""What a rule may keep free of mines (`Rule.protects`)."""


@dataclass(frozen=True)
class Rule:
    """A first-click rule: which cells it keeps free, and whether it moves a mine.

    Parameters
    ----------
    name : str
        The name tables, files and the command line use.
    protects : {'nothing', 'click', 'neighbourhood'}
        The cells kept free of mines: none, the click, or the click's closed
        neighbourhood (the click and its up-to-8 neighbours).
    relocates : bool
        Whether a mine placed under the click is moved, after placement, to the first
        mine-free cell in row-major order (Windows XP).

    Examples
    --------
    >>> from minestats.foundations.board import BEGINNER
    >>> rule = Rule("safe-click", protects="click", relocates=False)
    >>> rule.protected_cells(BEGINNER, (1, 0)), rule.max_mines(BEGINNER, (1, 0))
    ((1,), 80)
    >>> RULE_TABLE["winxp"].max_mines(BEGINNER, (1, 0))
    80
    """

    name: str
    protects: str
    relocates: bool

    def __post_init__(self):
        if self.protects not in PROTECTIONS:
            raise ValueError(f"protects {self.protects!r} is not one of "
                             f"{', '.join(PROTECTIONS)}")
        if self.relocates and self.protects != "nothing":
            raise ValueError("a rule that protects cells has no mine to relocate")

    @property
    def symmetric(self) -> bool:
        """Whether the rule commutes with the board's symmetries (it relocates nothing)."""
        return not self.relocates

    @property
    def needs_click(self) -> bool:
        """Whether the layouts it deals depend on the first click."""
        return self.protects != "nothing" or self.relocates

    def protected_cells(self, board, click) -> tuple[int, ...]:
        """Linear indices, ascending, of the cells this rule keeps free of mines."""
        if self.protects == "click":
            return (board.index(click),)
        if self.protects == "neighbourhood":
            return tuple(int(cell) for cell in board.closed_neighbourhood(click))
        return ()

    def max_mines(self, board, click) -> int:
        """Largest mine count this rule can place for ``click`` on ``board``.

        A relocating rule needs one mine-free cell besides the click to move a mine to.
        """
        return board.cells - len(self.protected_cells(board, click)) - int(self.relocates)


RULE_TABLE = {rule.name: rule for rule in (
    Rule("uniform", protects="nothing", relocates=False),
    Rule("safe-click", protects="click", relocates=False),
    Rule("safe-opening", protects="neighbourhood", relocates=False),
    Rule("winxp", protects="nothing", relocates=True),
)}
"""Every rule the package knows, by name."""

RULES = tuple(RULE_TABLE)
"""The names of the rules, in the order of `RULE_TABLE`."""
