"""Foundations: what every other layer stands on; these modules import no other layer.

- `validation`: the argument checks every entry point shares, and the named defaults;
- `rules`, `policies`: the first-click rules and the guessing policies as objects, each
  in one table;
- `seeds`: the one seed vocabulary and the labels results record;
- `result`: the one protocol of results (array-safe equality without timings, hash);
- `board`: Board, presets, resolve_board, click positions, neighbourhoods;
- `bitsets`: small integer sets held as Python int bitsets;
- `grids`: text grids, one row a line, and positions written as text.
"""

__all__ = []
