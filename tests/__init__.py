"""The test suite; its oracles (`tests.oracles`) are shared with the benchmarks."""
