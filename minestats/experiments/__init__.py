"""The experiments behind the results, one module each: ``python -m minestats.experiments.X``.

Each module is a script: its ``main`` parses the flags every experiment takes
(`common.base_parser`: ``--seed``, ``--workers``, ``--scheduler``, ``--out``) and its
own sizes, computes its tables and figures and writes them, each with its sidecar,
into ``--out`` (default ``results``, relative to the current folder).
`minestats reproduce` runs them in the order of
`minestats.reproduction.registry.EXPERIMENTS`, which gives each its seed stream, its
paper-grade sizes and its summary tables. `common` holds what they share; a module
that builds on another's table (``win_rates_paired`` on ``win_rates``) imports it
from here. Importing a module runs nothing.
"""

__all__ = []
