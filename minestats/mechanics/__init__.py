"""Mechanics: the first-click rules, the game, and the chance that a first click opens.

- `rules`: the first-click rules, the cells each may mine, check_click, winxp_order;
- `game`: numbers, flood fill, a Game that can be lost, openings, islands, 3BV;
- `opening_probabilities`: the closed forms of the first click's opening, exact and as
  maps;
- `sampling`: compiled samplers of whole layouts by each rule's placement procedure;
- `perturb`: Tatham's perturbation move, which the ``perturb`` generator applies;
- `recorded_games`: a game a person played, its actions played again by the rules.
"""

# Kernels compile here and below: a first compilation says so, once, on stderr.
import minestats.foundations.compiling  # noqa: F401

__all__ = []
