"""Players, policies, win rates and exact optimal play.

- `player`: one game that can be lost, deductions first and a policy at each stall;
- `winrate`: win rates over many seeded games, on the sweep engine;
- `endgame`: the exact end game of a position with few layouts, for ``best``;
- `optimal`: the exact optimal win probability on small boards, the ground truth.
"""

from minestats.play.optimal import optimal_win_probability
from minestats.play.player import POLICIES, GameResult, Move, play
from minestats.play.winrate import WinRate, win_rate, win_rate_sweep

__all__ = ["POLICIES", "GameResult", "Move", "WinRate", "optimal_win_probability", "play",
           "win_rate", "win_rate_sweep"]
