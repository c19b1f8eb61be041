"""Drivers: many random boards through the layers below, counted into result objects.

- `opening_simulation`: simulated first-click openings, checked against the closed forms;
- `pass_rates`: the share of boards a solver finishes without guessing, and sweeps;
- `bbbv_histograms`: 3BV histograms over random boards, their summaries and shares;
- `no_guess`: no-guess boards (retry, perturb) and batches of them;
- `comparisons`: every solver or policy on the same boards, paired differences;
- `game_analysis`: a played game click by click (risk, forced guesses, best's move, luck);
- `win_rates`: the player's win rates over many seeded games, and sweeps, with a tally of
  the losses.
"""

__all__ = []
