"""Running big computations: seeded chunks, sweeps over a pool or Dask, the chunk store.

The seeds they draw from are the foundation's (`minestats.foundations.seeds`).

- `chunks`: cutting n trials into seeded chunks and mapping them over workers;
- `sweeps`: many jobs at once, with an optional resumable store;
- `tally`: a chunk's totals by name, added up name by name;
- `store`: the SQLite chunk store that makes long runs resumable.
"""

__all__ = []
