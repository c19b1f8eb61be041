"""Players, policies, win rates and exact optimal play.

- `player`: one game that can be lost, deductions first and a policy at each stall;
- `winrate`: win rates over many seeded games, on the sweep engine;
- `endgame`: the exact end game of a position with few layouts, for ``best``;
- `optimal`: the exact optimal win probability on small boards, the ground truth.
"""

import sys
import types

from minestats.play.optimal import optimal_win_probability
from minestats.play.player import POLICIES, GameResult, Games, Move, Strategy, play, play_games
from minestats.play.winrate import WinRate, win_rate, win_rate_sweep

__all__ = ["POLICIES", "GameResult", "Games", "Move", "Strategy", "WinRate",
           "optimal_win_probability", "play", "play_games", "win_rate", "win_rate_sweep"]


class _CallablePackage(types.ModuleType):
    """The `minestats.play` package, callable as the function `play`.

    ``minestats.play`` names both this package and the function. Importing a
    submodule (``minestats.play.optimal``) rebinds the name on ``minestats`` to the
    package, so the package must play a game too: ``minestats.play(mines, click)``
    works whichever was bound last.
    """

    def __call__(self, *args, **kwargs):
        return play(*args, **kwargs)


sys.modules[__name__].__class__ = _CallablePackage
