"""Reproducing the repository's results: the experiments, their index, the notebooks.

This is tooling for a source checkout, apart from the library and from the file
formats of `minestats.io`: the scripts live in the checkout's ``experiments/`` and
``notebooks/`` folders, which the caller names.

- `registry`: every experiment once, with its seed stream, full sizes and summary tables;
- `runner`: run experiments and notebooks into a results folder (``minestats reproduce``);
- `index`: the results folder's ``README.md``, and the check of a folder against the rules;
- `notebooks`: notebooks run top to bottom and written as HTML with their outputs;
- `published`: the committed summary tables read back with their sidecars, from the
  checkout's ``results/`` or, installed, from the copy the wheel ships.
"""

__all__ = []
