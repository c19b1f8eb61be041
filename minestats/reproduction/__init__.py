"""Reproducing the repository's results: the experiments, their index, the notebooks.

This is tooling apart from the library and from the file formats of `minestats.io`:
the experiments are the modules of `minestats.experiments`, run one process each;
the notebooks live in a source checkout's ``notebooks/``, which the caller names.

- `registry`: every experiment once, with its seed stream, full sizes and summary tables;
- `runner`: run the experiments and notebooks into a results folder (``minestats reproduce``);
- `index`: the results folder's ``README.md``, and the check of a folder against the rules;
- `notebooks`: notebooks run top to bottom and written as HTML with their outputs;
- `published`: the committed summary tables read back with their sidecars, from the
  checkout's ``results/`` or, installed, from the copy the wheel ships.
"""

__all__ = []
