"""A setting (board, first-click rule, click) checked once, and the plan of a run on it.

Every driver takes a board, a rule and a click at its public boundary, and draws its
boards in seeded chunks. `Setting.resolve` reads and checks the three together there;
below it the drivers pass the `Setting` on, and its chunks are drawn without reading
the board again (`Setting.layouts`, `Setting.games`): the same boards as
`minestats.mechanics.sampling.chunk_layouts` and ``chunk_games`` draw from the same
seed. `prepare_run` checks the size of the run and reads its seed, once.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple

import numpy as np

from minestats.foundations.board import Board, resolve_board
from minestats.foundations.seeds import resolve_seed
from minestats.foundations.validation import check_count, check_n, resolve_rule
from minestats.mechanics.rules import check_click, placement_cells
from minestats.mechanics.sampling import check_sample_size, draw_layouts

__all__ = ["RunPlan", "Setting", "prepare_run"]


@dataclass(frozen=True)
class Setting:
    """A board, the rule that deals it and the first click, checked together.

    Build one with `Setting.resolve`; its fields are then in canonical form (a
    `Board`, a rule's name or None, a click ``(x, y)`` or None).

    Examples
    --------
    >>> setting = Setting.resolve("beginner", "safe-click", "corner")
    >>> setting
    Setting(board=Board(9x9/10), rule='safe-click', click=(0, 0))
    >>> setting.layouts(3, np.random.SeedSequence(1)).shape
    (3, 9, 9)
    """

    board: Board
    rule: str | None
    click: tuple[int, int] | None

    @classmethod
    def resolve(cls, board, rule=None, click=None) -> Setting:
        """Read and check a board, rule and click (either may be None) into a `Setting`.

        Without a click, the rule is checked by name only: whether it fits the mines
        depends on the click.

        Raises
        ------
        ValueError
            For a bad board, rule or click, or a rule that cannot place the board's
            mines for that click (`minestats.mechanics.rules.check_click`).
        """
        board = resolve_board(board)
        rule = None if rule is None else resolve_rule(rule).name
        return cls(board, rule, None if click is None else check_click(board, click, rule))

    @cached_property
    def _placement(self) -> tuple[int, np.ndarray, bool]:
        """The click's index, the cells the rule may mine, and whether it relocates."""
        return (self.board.index(self.click), placement_cells(self.board, self.click, self.rule),
                resolve_rule(self.rule).relocates)

    def layouts(self, size: int, seed_sequence) -> np.ndarray:
        """Draw one chunk's layouts from its seed, as `chunk_layouts` does.

        Examples
        --------
        >>> from minestats.mechanics.sampling import chunk_layouts
        >>> seed = np.random.SeedSequence(4)
        >>> setting = Setting.resolve("5x5/3", "safe-opening", (2, 2))
        >>> bool((setting.layouts(6, seed) == chunk_layouts(
        ...     setting.board, 6, seed, rule="safe-opening", click=(2, 2))).all())
        True
        """
        return draw_layouts(self.board, size, *self._placement, seed=seed_sequence)

    def games(self, size: int, seed_sequence) -> tuple[np.ndarray, list]:
        """Draw one chunk's games from its seed: layouts and a tie-break seed per game.

        As `minestats.mechanics.sampling.chunk_games`: the seed's first child draws the
        layouts, its second the games' seeds.
        """
        layouts_seed, games_seed = seed_sequence.spawn(2)
        return self.layouts(size, layouts_seed), games_seed.spawn(size)


class RunPlan(NamedTuple):
    """The checked size and seed of a run: what `minestats.runs.sweeps.run_jobs` needs."""

    n: int
    chunk_size: int
    seed_sequence: np.random.SeedSequence
    seed: int | str


def prepare_run(*boards: Board, n, seed, chunk_size) -> RunPlan:
    """Check a run of ``n`` boards in chunks of ``chunk_size`` and read its seed, once.

    ``n`` and ``chunk_size`` must be positive integers, and one chunk's layouts of each
    of ``boards`` (every board of a sweep) must fit in
    `minestats.mechanics.sampling.MAX_SAMPLE_CELLS`; a run that draws its boards one at a
    time names no board.

    Examples
    --------
    >>> plan = prepare_run(Board(9, 9, 10), n=1_000, seed="2026-11-29", chunk_size=200)
    >>> plan.n, plan.chunk_size, plan.seed
    (1000, 200, '2026-11-29')
    >>> prepare_run(Board(9, 9, 10), n=0, seed=1, chunk_size=200)
    Traceback (most recent call last):
    ...
    ValueError: n (0) must be a positive integer
    """
    n = check_n(n)
    chunk_size = check_count("chunk_size", chunk_size)
    for board in boards:
        check_sample_size(board, n, chunk_size)
    seed_sequence, label = resolve_seed(seed)
    return RunPlan(n, chunk_size, seed_sequence, label)
