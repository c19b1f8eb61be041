"""The test oracles: references written apart from the code they check.

Shared by the tests and the benchmarks (run from the repository's root as
``python -m benchmarks.bench_NAME``, so ``tests.oracles`` imports as it is):

- `reference`: the published single-point method in plain Python; random layouts;
- `rules_reference`: the first-click rules' layouts, written from the definitions;
- `reference_player`: the player as it was in plain Python, before its game was
  compiled;
- `forced_play`: perfect logic played through the consistency engine, a path
  independent of the solvers;
- `count_matrices`: count matrices by plain Python, by shifted slices and by the
  engine without the row-by-row program; the crafted hard case;
- `probabilities`: mine probabilities by enumerating every layout.
"""
