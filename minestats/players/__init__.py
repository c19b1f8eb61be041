"""Players, policies, win rates and exact optimal play.

- `player`: one game that can be lost, deductions first and a policy at each stall;
- `winrate`: win rates over many seeded games, on the sweep engine;
- `endgame`: the exact end game of a position with few layouts, for ``best``;
- `optimal`: the exact optimal win probability on small boards, the ground truth.
"""

from minestats.players.optimal import optimal_win_probability
from minestats.players.player import POLICIES, GameResult, Games, Move, Strategy, play, play_games
from minestats.players.winrate import WinRate, win_rate, win_rate_sweep

__all__ = ["POLICIES", "GameResult", "Games", "Move", "Strategy", "WinRate",
           "optimal_win_probability", "play", "play_games", "win_rate", "win_rate_sweep"]
