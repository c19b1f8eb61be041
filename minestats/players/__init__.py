"""Players, policies and exact optimal play.

- `player`: one game that can be lost, deductions first and a policy at each stall;
- `endgame`: the exact end game of a position with few layouts, for ``best``;
- `optimal`: the exact optimal win probability on small boards, the ground truth;
- `values`: the value of each move of a position, by rollouts from its exact posterior,
  and the move ``best`` makes in a position (`best_move`).

Win rates over many seeded games are a driver (`minestats.drivers.win_rates`); until
0.4 ``minestats.players.win_rate`` (and ``win_rate_sweep``, ``WinRate``, the module
``minestats.players.winrate``) still reach them, with a `DeprecationWarning`.
"""

import importlib
import warnings

from minestats.foundations.deprecation import renamed_module
from minestats.players.optimal import optimal_win_probability
from minestats.players.player import POLICIES, GameResult, Games, Move, Strategy, play, play_games
from minestats.players.values import BestMove, MoveValues, best_move, move_values

__all__ = ["POLICIES", "BestMove", "GameResult", "Games", "Move", "MoveValues", "Strategy",
           "best_move", "move_values", "optimal_win_probability", "play", "play_games"]

_MOVED_TO_DRIVERS = ("WinRate", "win_rate", "win_rate_sweep")

renamed_module("minestats.players.winrate", "minestats.drivers.win_rates", removed_in="0.4")


def __getattr__(name: str):
    if name not in _MOVED_TO_DRIVERS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    warnings.warn(f"minestats.players.{name} is deprecated and will be removed in 0.4: use "
                  f"minestats.{name} (minestats.drivers.win_rates)", DeprecationWarning,
                  stacklevel=2)
    return getattr(importlib.import_module("minestats.drivers.win_rates"), name)
