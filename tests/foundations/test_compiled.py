"""Every kernel's disk cache is keyed to the code it compiles in (`foundations.compiled`)."""

import importlib
import os
import pkgutil
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import numba
import pytest

from minestats.foundations.compiled import PACKAGE, SOURCES, CodeKeyedCache, code_fingerprint
from minestats.players import kernel


def copy_sources(root):
    for folder in (*SOURCES, "cli"):
        shutil.copytree(PACKAGE / folder, root / folder,
                        ignore=shutil.ignore_patterns("__pycache__"))
    return root


def test_a_changed_added_or_removed_source_file_changes_the_fingerprint(tmp_path):
    root = copy_sources(tmp_path)
    code_fingerprint.cache_clear()
    seen = {code_fingerprint(root, SOURCES)}
    assert seen == {code_fingerprint(PACKAGE, SOURCES)}  # the same files, elsewhere
    engine = root / "frontier" / "engine.py"
    text = engine.read_text()
    steps = [lambda: engine.write_text(text.replace("budget", "budgeT", 1)),  # one byte
             lambda: (root / "players" / "extra.py").write_text(""),  # a file added
             lambda: (root / "players" / "extra.py").unlink(),  # and removed: as before
             lambda: (root / "mechanics" / "game.py").rename(root / "mechanics" / "b.py")]
    fingerprints = []
    for step in steps:
        step()
        code_fingerprint.cache_clear()
        fingerprints.append(code_fingerprint(root, SOURCES))
    assert fingerprints[0] not in seen and fingerprints[1] not in seen | {fingerprints[0]}
    assert fingerprints[2] == fingerprints[0]
    assert fingerprints[3] not in seen | set(fingerprints[:3])
    (root / "cli" / "parser.py").write_text("# not compiled into the player\n")
    code_fingerprint.cache_clear()
    assert code_fingerprint(root, SOURCES) == fingerprints[3]


def test_the_kernels_cache_is_stamped_with_the_fingerprint():
    cache = kernel.play_chunk._cache
    assert isinstance(cache, CodeKeyedCache)
    assert cache._cache_file._source_stamp[1] == code_fingerprint(PACKAGE, SOURCES)


def kernel_modules():
    """Every module under `SOURCES`, imported: ``{name: module}``."""
    modules = {}
    for folder in SOURCES:
        package = importlib.import_module(f"minestats.{folder}")
        for info in pkgutil.iter_modules(package.__path__, f"minestats.{folder}."):
            modules[info.name] = importlib.import_module(info.name)
    return modules


def defined_kernels(module):
    """The numba-compiled functions ``module`` defines (not those it imports)."""
    return [value for value in vars(module).values()
            if isinstance(value, numba.core.registry.CPUDispatcher)
            and value.py_func.__module__ == module.__name__]


def compiled_modules():
    """The package's modules that define a function compiled by `compiled`, by file."""
    return {name: Path(module.__file__) for name, module in kernel_modules().items()
            if any(isinstance(function._cache, CodeKeyedCache)
                   for function in defined_kernels(module))}


def test_the_kernels_modules_are_all_found():
    assert {"minestats.players.kernel", "minestats.players.chooser",
            "minestats.players.scoring", "minestats.solvers.logic",
            "minestats.solvers.single_point", "minestats.frontier.engine",
            "minestats.mechanics.game", "minestats.mechanics.sampling"} <= set(compiled_modules())


def test_every_kernel_of_the_package_is_keyed_to_the_code():
    """A kernel cached by numba alone, keyed to its own file, would run stale code
    after a change to a function it compiles in from another file: perfect logic's
    cached solve kept the single-point rules it was compiled with."""
    kernels = [function for module in kernel_modules().values()
               for function in defined_kernels(module)]
    assert len(kernels) > 100
    plain = sorted(f"{function.py_func.__module__}.{function.py_func.__qualname__}"
                   for function in kernels if not isinstance(function._cache, CodeKeyedCache))
    assert plain == []
    other = {str(path.relative_to(PACKAGE)) for path in PACKAGE.rglob("*.py")
             if "njit" in path.read_text() and path.parent.name not in SOURCES}
    assert other == {"foundations/compiled.py", "foundations/compiling.py"}


@pytest.mark.parametrize("module", sorted(compiled_modules()))
def test_a_change_in_any_module_of_the_kernel_changes_the_key(tmp_path, module):
    """Every module whose functions `compiled` compiles is under `SOURCES`: a byte
    changed there changes the key every kernel's cache is stamped with."""
    root = copy_sources(tmp_path)
    code_fingerprint.cache_clear()
    before = code_fingerprint(root, SOURCES)
    path = root / compiled_modules()[module].relative_to(PACKAGE)
    path.write_text(path.read_text() + "\n")
    code_fingerprint.cache_clear()
    assert code_fingerprint(root, SOURCES) != before
    code_fingerprint.cache_clear()


INNER = "import numba\n\n@numba.njit(cache=True)\ndef value():\n    return {}\n"
OUTER = textwrap.dedent("""\
    from pathlib import Path

    from minestats.foundations.compiled import code_fingerprint, keyed_njit
    from toy.inner import value

    def twice():
        return 2 * value()

    twice = keyed_njit(twice, code_fingerprint(Path(__file__).parent, (".",)))
    """)


def run_toy(root):
    """Call the toy's kernel in a fresh process: ``(value, cache hits, cache misses)``."""
    code = ("from toy.outer import twice; value = twice(); "
            "print(value, sum(twice.stats.cache_hits.values()), "
            "sum(twice.stats.cache_misses.values()))")
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True,
                         text=True, check=True).stdout.split()
    return tuple(int(v) for v in out)


def test_a_change_in_a_function_compiled_in_from_another_file_is_compiled_again(tmp_path):
    """numba alone would load ``twice`` from its cache after ``inner.py`` changed
    (``outer.py``, its file, is the same): the fingerprint makes it compile again."""
    toy = tmp_path / "toy"
    toy.mkdir()
    (toy / "__init__.py").write_text("")
    (toy / "inner.py").write_text(INNER.format(1))
    (toy / "outer.py").write_text(OUTER)
    assert run_toy(tmp_path) == (2, 0, 1)  # compiled and saved
    assert run_toy(tmp_path) == (2, 1, 0)  # loaded from the cache
    (toy / "inner.py").write_text(INNER.format(21))
    assert run_toy(tmp_path) == (42, 0, 1)  # compiled again, not the stale 2
    assert run_toy(tmp_path) == (42, 1, 0)


def test_the_kernels_release_every_array_they_allocate():
    # Some helpers are compiled without reference counting (``compiled(_nrt=False)``):
    # they must only read and write arrays they are given. One that kept an array
    # from a callee would never release it; numba's allocation tally shows it. Each
    # batch is played twice and the second time tallied: on a small board the first
    # fills the end game's memo of answers, which keeps them for the process.
    script = textwrap.dedent("""
        import numpy as np
        from numba.core.runtime import rtsys
        from minestats.players.player import play_games
        from minestats.mechanics.sampling import sample_mines
        for board, rule in (("30x16/99", "safe-click"), ("9x9/10", "winxp"), ("5x4/4", "uniform")):
            layouts = sample_mines(board, 60, rule=rule, click=(0, 0), seed=3)
            seeds = np.random.SeedSequence(4).spawn(60)
            play_games(layouts, np.zeros(60, int), rule=rule, seeds=seeds)
            before = rtsys.get_allocation_stats()
            games = play_games(layouts, np.zeros(60, int), rule=rule, seeds=seeds)
            del games
            after = rtsys.get_allocation_stats()
            print(after.alloc - before.alloc, after.free - before.free,
                  after.mi_alloc - before.mi_alloc, after.mi_free - before.mi_free)
    """)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            env={**os.environ, "NUMBA_NRT_STATS": "1"}, cwd=PACKAGE.parent,
                            check=True)
    for line in result.stdout.splitlines():
        alloc, free, meminfos, meminfos_freed = map(int, line.split())
        assert alloc > 1000 and meminfos > 1000  # the games did allocate
        assert (alloc, meminfos) == (free, meminfos_freed)


def test_a_borrowing_helper_calls_only_borrowing_helpers():
    # numba compiles a callee first met from a function compiled without reference
    # counting the same way, and a callee that allocates then fails to compile: the
    # suite on a fresh cache failed so once.
    borrowing = {}
    for name in compiled_modules():
        for value in vars(importlib.import_module(name)).values():
            if isinstance(getattr(value, "_cache", None), CodeKeyedCache) and \
                    value.targetoptions.get("_nrt") is False:
                borrowing[value.py_func.__qualname__] = value
    assert {"unknown_neighbours", "_shape", "_slot"} <= set(borrowing)
    for name, dispatcher in borrowing.items():
        namespace = dispatcher.py_func.__globals__
        for called in dispatcher.py_func.__code__.co_names:
            callee = namespace.get(called)
            if isinstance(getattr(callee, "_cache", None), CodeKeyedCache):
                assert callee.targetoptions.get("_nrt") is False, (name, called)
