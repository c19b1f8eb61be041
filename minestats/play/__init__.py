"""Players, policies and exact optimal play.

- `player`: one game that can be lost, deductions first and a policy at each stall;
- `winrate`: win rates over many seeded games, on the sweep engine.
"""

from minestats.play.player import POLICIES, GameResult, Move, play
from minestats.play.winrate import WinRate, win_rate, win_rate_sweep

__all__ = ["POLICIES", "GameResult", "Move", "WinRate", "play", "win_rate", "win_rate_sweep"]
