"""Throughput benchmarks, each a module run from the repository's root.

``python -m benchmarks.bench_NAME`` puts the root on the import path, so the
benchmarks import the test oracles (`tests.oracles`) as the tests do.
"""
