"""Players, policies, win rates and exact optimal play.

- `player`: one game that can be lost, deductions first and a policy at each stall;
- `winrate`: win rates over many seeded games, on the sweep engine;
- `endgame`: the exact end game of a position with few layouts, for ``best``;
- `optimal`: the exact optimal win probability on small boards, the ground truth;
- `values`: the value of each move of a position, by rollouts from its exact posterior,
  and the move ``best`` makes in a position (`best_move`).
"""

from minestats.players.optimal import optimal_win_probability
from minestats.players.player import POLICIES, GameResult, Games, Move, Strategy, play, play_games
from minestats.players.values import BestMove, MoveValues, best_move, move_values
from minestats.players.winrate import WinRate, win_rate, win_rate_sweep

__all__ = ["POLICIES", "BestMove", "GameResult", "Games", "Move", "MoveValues", "Strategy",
           "WinRate", "best_move", "move_values", "optimal_win_probability", "play",
           "play_games", "win_rate", "win_rate_sweep"]
