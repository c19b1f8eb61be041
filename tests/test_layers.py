"""The package's layers, read from its imports: every arrow points down.

Each unit (a top-level module, or a subpackage with all its modules) sits on one
layer of `LAYERS`; a module may import its own unit and any unit on a lower
layer, never one beside or above it. Every import statement counts, those inside
functions too (a lazy import is still an arrow). The package root,
``minestats/__init__.py``, only names the public functions lazily and is left
out; the one name below it may take from the root is ``__version__``.
``docs/architecture.md`` draws the same layers.
"""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "minestats"

LAYERS = [
    {"validation", "seeds", "result", "bitsets"},  # foundations: checks, seeds, results
    {"board", "stats", "runs"},  # the board; statistics; running chunks, sweeps, the store
    {"rules", "game", "fits"},  # first-click rules; the game's mechanics; fitted curves
    {"exact", "sampling", "frontier", "perturb"},  # closed forms, samplers, the frontier
    {"inference", "solvers"},  # exact inference; solvers that never guess
    {"players", "montecarlo", "passrate", "metrics", "generators"},  # players and drivers
    {"paired"},  # comparisons of the drivers' contenders on the same boards
    {"io", "plots"},  # files and figures
    {"reproduction"},  # a checkout's experiments, their index and notebooks, run
    {"cli"},  # the command
    {"__main__"},  # ``python -m minestats``
]
"""The units of the package, lowest layer first."""

LAYER_OF = {unit: level for level, units in enumerate(LAYERS) for unit in units}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def unit_of(module: str) -> str:
    """``minestats.players.kernel`` -> ``players``; ``minestats.board`` -> ``board``."""
    return module.split(".")[1]


def imports_of(path: Path):
    """Yield ``(line, imported module, names)`` for every import in the file."""
    module = module_name(path)
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name, []
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module
            yield node.lineno, target, [alias.name for alias in node.names]


def modules():
    return sorted(path for path in PACKAGE.rglob("*.py") if path != PACKAGE / "__init__.py")


def test_every_unit_of_the_package_has_a_layer():
    units = {unit_of(module_name(path)) for path in modules()}
    assert units == set(LAYER_OF), "add the unit to LAYERS (and the architecture page)"


@pytest.mark.parametrize("path", modules(), ids=lambda path: module_name(path))
def test_imports_point_down(path):
    here = unit_of(module_name(path))
    wrong = []
    for line, target, names in imports_of(path):
        if target == "minestats":
            if set(names) - {"__version__"}:
                wrong.append(f"line {line}: imports {names} from the package root")
            continue
        if not target.startswith("minestats."):
            continue
        there = unit_of(target)
        if there != here and LAYER_OF[there] >= LAYER_OF[here]:
            wrong.append(f"line {line}: {here} (layer {LAYER_OF[here]}) imports {target} "
                         f"(layer {LAYER_OF[there]})")
    assert not wrong, "\n".join(wrong)


def test_the_check_finds_an_arrow_that_points_up(tmp_path, monkeypatch):
    """The check itself can fail: a foundation module that imports the game is caught."""
    fake = tmp_path / "minestats"
    fake.mkdir()
    (fake / "validation.py").write_text("def f():\n    from minestats.game import Game\n")
    monkeypatch.setattr(__import__(__name__), "PACKAGE", fake)
    with pytest.raises(AssertionError, match=r"validation \(layer 0\) imports minestats.game"):
        test_imports_point_down(fake / "validation.py")
