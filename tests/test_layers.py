"""The package's layers, read from its imports: every arrow points down.

Each unit, a folder of the package with all its modules, sits on one layer of
`LAYERS`, and the folder's name says which; a module may import its own folder and
any folder on a lower layer, never one beside or above it. Every import statement
counts, those inside functions too (a lazy import is still an arrow), and so does a
string that is a module's dotted name (code that imports by name, as the chunk store
rebuilds its objects, is an arrow too; `NAMED_NOT_IMPORTED` lists the one name that
only starts processes, `DEPRECATED_ALIASES` the old names kept for one release). Inside a
folder the modules may import each other, but never in a circle. The package root,
``minestats/__init__.py``, only names the public functions lazily and is left out;
the one name below it may take from the root is ``__version__``. Only the units of
`FLAT` are modules directly under ``minestats/``. ``docs/architecture.md`` draws
the same layers.
"""

import ast
import re
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "minestats"

LAYERS = [
    {"foundations"},  # validation, seeds, the result protocol, the board, bitsets
    {"mechanics", "stats", "runs"},  # rules, game, closed forms, samplers; statistics; runs
    {"frontier"},  # the compiled frontier engine
    {"inference", "solvers"},  # exact inference; solvers that never guess
    {"players"},  # players that guess, and their win rates
    {"drivers"},  # random boards counted into results; paired comparisons
    {"io", "figures"},  # files; figures
    {"reproduction"},  # a checkout's experiments, their index and notebooks, run
    {"cli", "experiments"},  # the command; the experiments, each a script
    {"__main__"},  # ``python -m minestats``
]
"""The units of the package, lowest layer first."""

NAMED_NOT_IMPORTED = {
    # The registry names the experiments' package to run each one with ``python -m``:
    # a process, never an import.
    ("minestats.reproduction.registry", "minestats.experiments"),
}
"""``(module, string)``: dotted names in a module's code that are not arrows."""

DEPRECATED_ALIASES = {
    # Win rates moved from the players up to the drivers: the players' old names reach
    # them there, lazily, for one release.
    ("minestats.players", "minestats.drivers.win_rates"),
}
"""``(module, string)``: arrows up that only old names of moved objects draw, until 0.4."""

FLAT = {"__main__"}
"""The units that are a module directly under ``minestats/`` rather than a folder."""

LAYER_OF = {unit: level for level, units in enumerate(LAYERS) for unit in units}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def unit_of(module: str) -> str:
    """``minestats.players.kernel`` -> ``players``; ``minestats.foundations`` -> the same."""
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
        elif (isinstance(node, ast.Constant) and isinstance(node.value, str)
              and re.fullmatch(r"minestats(\.\w+)+", node.value)
              and (module, node.value) not in NAMED_NOT_IMPORTED | DEPRECATED_ALIASES):
            yield node.lineno, node.value, []


def modules():
    return sorted(path for path in PACKAGE.rglob("*.py") if path != PACKAGE / "__init__.py")


def test_every_unit_of_the_package_has_a_layer():
    units = {unit_of(module_name(path)) for path in modules()}
    assert units == set(LAYER_OF), "add the unit to LAYERS (and the architecture page)"


def test_every_unit_but_the_entry_point_is_a_folder():
    flat = {path.stem for path in PACKAGE.glob("*.py") if path.name != "__init__.py"}
    assert flat == FLAT, "put the module in the folder of its layer"


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


def arrows_within(unit):
    """``{module: the modules of the same unit it imports}`` for one folder."""
    names = {module_name(path): path for path in modules() if unit_of(module_name(path)) == unit}
    arrows = {}
    for module, path in names.items():
        arrows[module] = set()
        for _, target, imported in imports_of(path):
            # ``from minestats.players import kernel`` is an arrow to the module kernel
            targets = [f"{target}.{name}" if f"{target}.{name}" in names else target
                       for name in imported] or [target]
            arrows[module] |= {name for name in targets if name in names and name != module}
    return arrows


def circle_in(arrows):
    """Return one circle of imports as a list of modules, or None when there is none."""
    done, path = set(), []

    def visit(module):
        if module in path:
            return path[path.index(module):] + [module]
        if module in done:
            return None
        path.append(module)
        for target in sorted(arrows[module]):
            found = visit(target)
            if found:
                return found
        path.pop()
        done.add(module)
        return None

    for module in sorted(arrows):
        found = visit(module)
        if found:
            return found
    return None


@pytest.mark.parametrize("unit", sorted(LAYER_OF))
def test_the_modules_of_a_folder_import_each_other_in_no_circle(unit):
    circle = circle_in(arrows_within(unit))
    assert circle is None, " -> ".join(circle)


@pytest.mark.parametrize(("module", "text", "message"), [
    ("foundations/validation.py", "def f():\n    from minestats.mechanics.game import Game\n",
     r"foundations \(layer 0\) imports minestats.mechanics.game \(layer 1\)"),
    ("runs/store.py", '_OBJECTS = {("minestats.drivers.no_guess", "NoGuessResult")}\n',
     r"runs \(layer 1\) imports minestats.drivers.no_guess \(layer 5\)"),
], ids=["a lazy import", "a class named to rebuild"])
def test_the_check_finds_an_arrow_that_points_up(tmp_path, monkeypatch, module, text, message):
    """The check itself can fail: a foundation module that imports the game, and the chunk
    store naming a driver's class (it rebuilds the classes it names), are caught."""
    fake = tmp_path / "minestats"
    (fake / module).parent.mkdir(parents=True)
    (fake / module).write_text(text)
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", fake)
    with pytest.raises(AssertionError, match=message):
        test_imports_point_down(fake / module)


def test_the_check_finds_an_arrow_that_points_sideways(tmp_path, monkeypatch):
    """Two folders on one layer may not import each other: the statistics and the game."""
    fake = tmp_path / "minestats"
    (fake / "stats").mkdir(parents=True)
    (fake / "stats" / "__init__.py").write_text("from minestats.mechanics import game\n")
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", fake)
    with pytest.raises(AssertionError, match=r"stats \(layer 1\) imports minestats.mechanics"):
        test_imports_point_down(fake / "stats" / "__init__.py")


def test_the_check_finds_a_circle_inside_a_folder(tmp_path, monkeypatch):
    """Inside a folder: validation imports the board lazily, the board imports validation."""
    fake = tmp_path / "minestats" / "foundations"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("")
    (fake / "board.py").write_text("from minestats.foundations.validation import check_n\n")
    (fake / "validation.py").write_text(
        "def f():\n    from minestats.foundations import board\n")
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", fake.parent)
    with pytest.raises(AssertionError, match=r"minestats.foundations.board -> "
                                             r"minestats.foundations.validation -> "
                                             r"minestats.foundations.board"):
        test_the_modules_of_a_folder_import_each_other_in_no_circle("foundations")


TABLES = {"foundations/rules.py", "foundations/policies.py"}
"""The modules that define the rules and the policies, the one place their names mean
something by themselves."""


def names_compared(path: Path, names, keys=()) -> list[str]:
    """Return ``"line: code"`` for each comparison with one of ``names``, or dict keyed by
    one of ``keys``.

    A comparison (``==``, ``!=``, ``in``, ``not in``) whose operand is one of the names,
    or a tuple, list or set that holds one, and a dict literal with one of ``keys`` as a
    key: the code decides by a rule's name what it should ask the rule's properties.
    """
    def holds_name(node) -> bool:
        items = node.elts if isinstance(node, ast.Tuple | ast.List | ast.Set) else [node]
        return any(isinstance(item, ast.Constant) and item.value in names for item in items)

    found = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Compare) and any(
                holds_name(operand) for operand in (node.left, *node.comparators)):
            found.append(f"{node.lineno}: {ast.unparse(node)}")
        elif isinstance(node, ast.Dict) and any(
                isinstance(key, ast.Constant) and key.value in keys for key in node.keys):
            found.append(f"{node.lineno}: {ast.unparse(node)[:80]}")
    return found


@pytest.mark.parametrize("path", [path for path in modules()
                                  if path.parent.name != "experiments"
                                  and str(path.relative_to(PACKAGE)) not in TABLES],
                         ids=lambda path: str(path.relative_to(PACKAGE)))
def test_no_module_decides_by_a_rule_or_policy_name(path):
    """Below the experiments, code asks a rule or a policy (``rule.relocates``,
    ``policy.code``), never compares its name: a new rule is then one entry of the table.

    The experiments may: choosing which rule an arm of a measurement plays is their job.
    Dicts keyed by a policy's name are not counted: ``best`` is also a column's name.
    """
    from minestats.foundations.policies import POLICY_TABLE
    from minestats.foundations.rules import RULE_TABLE

    found = names_compared(path, set(RULE_TABLE) | set(POLICY_TABLE), keys=set(RULE_TABLE))
    assert not found, f"{path.relative_to(PACKAGE)} decides by a name:\n" + "\n".join(found)


@pytest.mark.parametrize("text", [
    'def f(rule):\n    return rule == "winxp"\n',
    'def f(rule):\n    return rule in ("uniform", "safe-click")\n',
    'SIZES = {"safe-opening": 2}\n',
    'def f(policy):\n    return "best" != policy\n',
], ids=["equal", "in a tuple", "a dict key", "a policy"])
def test_the_name_check_finds_a_decision_by_name(tmp_path, text):
    """The check itself can fail."""
    from minestats.foundations.rules import RULES

    module = tmp_path / "module.py"
    module.write_text(text)
    assert names_compared(module, {*RULES, "safest", "best"}, keys=set(RULES))


TESTS = Path(__file__).resolve().parent
SHARED = {"oracles"}
"""Test folders that are not a unit: the independent references every layer's tests use."""


def test_the_tests_mirror_the_package():
    """A unit's tests live in ``tests/<unit>/``, each file named after the module it tests
    (``test_<module>.py``, or ``test_<module>_<aspect>.py``) or after the unit itself;
    the tests of the whole package (its layers, vocabulary, docs, packaging, hostile
    input) stay at the top."""
    misplaced = []
    for folder in sorted(path for path in TESTS.iterdir()
                         if path.is_dir() and not path.name.startswith((".", "__"))):
        if folder.name in SHARED:
            continue
        unit = PACKAGE / folder.name
        if not unit.is_dir():
            misplaced.append(f"tests/{folder.name}/ is no unit of the package")
            continue
        names = {path.stem for path in unit.glob("*.py")} | {folder.name}
        for path in sorted(folder.glob("test_*.py")):
            tested = path.stem.removeprefix("test_")
            if not any(tested == name or tested.startswith(f"{name}_") for name in names):
                misplaced.append(f"tests/{folder.name}/{path.name} names no module of "
                                 f"minestats/{folder.name}/")
    assert not misplaced, "\n".join(misplaced)


def test_the_mirror_check_finds_a_misplaced_test(tmp_path, monkeypatch):
    (tmp_path / "tests" / "players").mkdir(parents=True)
    (tmp_path / "tests" / "players" / "test_sampling.py").write_text("")
    (tmp_path / "tests" / "widgets").mkdir()
    (tmp_path / "minestats" / "players").mkdir(parents=True)
    (tmp_path / "minestats" / "players" / "kernel.py").write_text("")
    monkeypatch.setattr(sys.modules[__name__], "TESTS", tmp_path / "tests")
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", tmp_path / "minestats")
    with pytest.raises(AssertionError, match=r"(?s)tests/players/test_sampling.py names no "
                                             r"module.*tests/widgets/ is no unit"):
        test_the_tests_mirror_the_package()


def test_the_arrows_of_old_names_go_with_them():
    """The old names that point up are dropped in 0.4: past it, this test fails until
    `DEPRECATED_ALIASES` and the aliases are gone."""
    import minestats

    major, minor = (int(part) for part in minestats.__version__.split(".")[:2])
    assert (major, minor) < (0, 4) or not DEPRECATED_ALIASES


STATISTICS_LIBRARIES = ("scipy", "statsmodels")
STATISTICS_CALLS = {"sqrt", "lstsq", "ppf", "cdf", "sf", "isf", "std", "var", "quantile",
                    "percentile"}
"""What computing a statistic looks like: its libraries, and the calls intervals, tests and
fits are made of."""


def statistics_computed(path: Path) -> list[str]:
    """Return ``"line: code"`` where a module imports a statistics library or makes one of
    `STATISTICS_CALLS`."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import | ast.ImportFrom):
            names = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""])
            if any(name.split(".")[0] in STATISTICS_LIBRARIES for name in names):
                found.append(f"{node.lineno}: {ast.unparse(node)}")
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in STATISTICS_CALLS):
            found.append(f"{node.lineno}: {ast.unparse(node)[:80]}")
    return found


@pytest.mark.parametrize("path", sorted((PACKAGE / "experiments").glob("*.py")),
                         ids=lambda path: path.name)
def test_no_experiment_computes_a_statistic_itself(path):
    """Intervals, tests, fits and estimators live in `minestats.stats`, tested there; an
    experiment runs them and lays out their rows."""
    found = statistics_computed(path)
    assert not found, f"{path.name} computes a statistic:\n" + "\n".join(found)


def test_the_statistics_check_finds_a_statistic(tmp_path):
    module = tmp_path / "experiment.py"
    module.write_text("import numpy as np\nfrom scipy.stats import norm\n\n"
                      "def half_width(p, n):\n"
                      "    return norm.ppf(0.975) * np.sqrt(p * (1 - p) / n)\n")
    assert [line.split(":")[0] for line in statistics_computed(module)] == ["2", "5", "5"]
