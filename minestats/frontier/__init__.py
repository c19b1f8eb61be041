"""The frontier engine: one compiled search shared by the solvers, inference and players.

- `engine`: groups, components, enumeration, and the one pass that gives a position's
  proven cells and float mine probabilities.
"""

__all__ = []
