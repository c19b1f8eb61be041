import subprocess
import sys
from pathlib import Path

import pytest

import minestats
from minestats.drivers.pass_rates import pass_rate

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("numba", "scipy", "statsmodels", "pandas", "matplotlib", "tqdm")


def modules_after(code: str) -> set[str]:
    """Top-level modules loaded by a fresh interpreter running ``code``."""
    script = (f"{code}\nimport sys\n"
              "print(' '.join(sorted({m.split('.')[0] for m in sys.modules})))")
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         cwd=ROOT, check=True, env={"PYTHONPATH": str(ROOT)})
    return set(run.stdout.split())


def test_import_minestats_loads_no_heavy_library():
    loaded = modules_after("import minestats")
    assert not loaded & {*HEAVY, "numpy"}


def test_import_of_the_statistics_loads_only_numpy():
    assert not modules_after("import minestats.stats") & set(HEAVY)


def test_cli_help_loads_no_numeric_library():
    loaded = modules_after("import contextlib, io\nfrom minestats.cli import main\n"
                           "with contextlib.suppress(SystemExit), "
                           "contextlib.redirect_stdout(io.StringIO()):\n    main(['--help'])")
    assert not loaded & {*HEAVY, "numpy"}


def test_public_names_resolve_lazily():
    for name in minestats.__all__:
        assert getattr(minestats, name) is not None
    assert {"ConfidenceInterval", "SolverOptions", "Game"} <= set(minestats.__all__)
    assert set(minestats.__all__) <= set(dir(minestats))
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        minestats.nope  # noqa: B018


def test_a_run_of_one_chunk_spins_up_no_pool(monkeypatch):
    import minestats.runs.chunks as chunks

    def no_pool(*args, **kwargs):
        raise AssertionError("a process pool was started for one chunk")

    monkeypatch.setattr(chunks, "ProcessPoolExecutor", no_pool)
    result = pass_rate("beginner", solver="single-point", n=500, seed=1, workers=-1)
    assert result.n == 500
    with pytest.raises(AssertionError, match="process pool was started"):
        pass_rate("beginner", solver="single-point", n=500, seed=1, chunk_size=100,
                  workers=2)
