"""The frontier engine: one compiled search shared by the solvers, inference and players.

- `engine`: groups, components, enumeration, and the one pass that gives a position's
  proven cells and float mine probabilities.
- `variations`: a position enumerated once, then its layout counts given that a few of
  its cells are mines, or that one more cell is revealed showing a number,
  re-enumerating only the components those cells touch.
"""

# Kernels compile here and below: a first compilation says so, once, on stderr.
import minestats.foundations.compiling  # noqa: F401

__all__ = []
