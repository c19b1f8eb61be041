"""The one build step ``pyproject.toml`` cannot say: the published tables as package data.

Every summary table the experiment registry names (``Experiment.summary_tables`` in
``minestats/reproduction/registry.py``) that is committed under ``results/`` goes into
the sdist, and into the wheel as ``minestats/_results/``, with its JSON sidecar; there
`minestats.reproduction.published` reads them outside a checkout. Git keeps one copy,
in ``results/``. The registry is parsed, not imported: a build has none of the
package's dependencies.
"""

import ast
from pathlib import Path

from setuptools import find_packages, setup

ROOT = Path(__file__).resolve().parent
REGISTRY = ROOT / "minestats" / "reproduction" / "registry.py"
RESULTS = ROOT / "results"


def summary_tables() -> dict[str, list[str]]:
    """Return the committed summary tables and their sidecars by the package they go in."""
    tree = ast.parse(REGISTRY.read_text(encoding="utf-8"))
    tables = [Path(table) for node in ast.walk(tree)
              if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Experiment"
              and len(node.args) > 3 for table in ast.literal_eval(node.args[3])]
    packages: dict[str, list[str]] = {}
    for table in sorted(tables):
        package = ".".join(("minestats._results", *table.parent.parts))
        packages.setdefault(package, []).extend(
            name for name in (table.name, f"{table.name}.json")
            if (RESULTS / table.parent / name).is_file())
    return packages


TABLES = summary_tables()
setup(packages=[*find_packages(include=["minestats*"]), *TABLES],
      package_dir={"minestats._results": "results"}, package_data=TABLES)
