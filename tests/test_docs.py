"""The documentation site builds with no warning and shows every public name, every
subcommand and every committed result.

The build is the one ``make docs`` runs (warnings are errors, cross-references checked
nitpickily), in a process of its own, into a temporary folder; the checks then read the
pages it wrote.
"""

import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from minestats.cli.parser import build_parser
from minestats.reproduction.index import results_by_script

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
sys.path.insert(0, str(DOCS / "_ext"))

api_pages = importlib.import_module("api_pages")
cli_reference = importlib.import_module("cli_reference")
results_pages = importlib.import_module("results_pages")

pytest.importorskip("sphinx", reason="the site needs the docs extra")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """Build the site once, warnings as errors; return its HTML folder and the log."""
    out = tmp_path_factory.mktemp("site")
    log = out / "warnings.txt"
    build = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b",
                            "html", "-d", str(out / "doctrees"), "-w", str(log), str(DOCS),
                            str(out / "html")], capture_output=True, text=True)
    return build.returncode, out / "html", log.read_text() + build.stderr


def test_the_site_builds_with_no_warning(site):
    status, html, warnings = site
    assert status == 0 and warnings == "", warnings
    assert (html / "index.html").is_file()


def public_names():
    return [(module, name) for module in api_pages.public_modules()
            for name in api_pages.public_names(module)
            if api_pages.home(module, name) == module]


def test_every_public_name_has_its_own_api_page(site):
    _, html, _ = site
    names = public_names()
    assert ("minestats", "win_rate") in names and len(names) > 200
    missing = [f"{module}.{name}" for module, name in names
               if not (html / "api" / "generated" / f"{module}.{name}.html").is_file()]
    assert missing == []


def test_every_module_has_a_page_and_the_entry_points_none(site):
    _, html, _ = site
    modules = api_pages.public_modules()
    assert "minestats.players.kernel" in modules and "minestats.__main__" not in modules
    assert [module for module in modules
            if not (html / "api" / f"{module}.html").is_file()] == []


def test_every_subcommand_has_a_reference_entry(site):
    _, html, _ = site
    page = (html / "cli.html").read_text()
    names = list(cli_reference.subcommands(build_parser()))
    assert "win-rate" in names
    assert [name for name in names if f'id="cli-{name}"' not in page] == []
    assert "--chunk-size" in page


def test_every_committed_result_is_shown_on_a_results_page(site):
    _, html, _ = site
    groups = results_by_script(ROOT / "results")
    assert "experiments/win_rates.py" in groups
    unshown = []
    for script, files in groups.items():
        page = html / "results" / f"{results_pages.page_name(script)}.html"
        text = page.read_text() if page.is_file() else ""
        unshown += [name for name, _, _ in files if f"results/{name}" not in text]
        unshown += [f"{name} (image)" for name, _, _ in files
                    if name.endswith(".png") and f'alt="{name}"' not in text]
    assert unshown == []


def test_every_results_page_is_written_by_hand_and_includes_its_files():
    for script in results_by_script(ROOT / "results"):
        name = results_pages.page_name(script)
        page = DOCS / "results" / f"{name}.md"
        assert page.is_file(), f"docs/results/{name}.md is missing"
        assert f"{{include}} _files/{name}.md" in page.read_text(), name


def test_every_rendered_notebook_is_a_page_with_its_figures(site):
    _, html, _ = site
    executed = sorted((ROOT / "results" / "notebooks").glob("*.ipynb"))
    assert executed, "no executed notebooks in results/notebooks"
    drawn = 0
    for notebook in executed:
        outputs = [output for cell in json.loads(notebook.read_text())["cells"]
                   for output in cell.get("outputs", [])]
        figures = sum("image/png" in output.get("data", {}) for output in outputs)
        page = html / "results" / "_notebooks" / f"{notebook.stem}.html"
        assert page.is_file(), notebook.name
        assert page.read_text().count("<img") == figures, notebook.name
        drawn += figures
    assert drawn >= 7
