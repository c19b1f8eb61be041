"""The documentation site builds with no warning and shows every public name, every
subcommand and every committed result.

The build is the one ``make docs`` runs (warnings are errors, cross-references checked
nitpickily), in a process of its own, into a temporary folder; the checks then read the
pages it wrote.
"""

import importlib
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import minestats
from minestats.cli.parser import build_parser
from minestats.reproduction.index import results_by_script

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
sys.path.insert(0, str(DOCS / "_ext"))

api_pages = importlib.import_module("api_pages")
cli_reference = importlib.import_module("cli_reference")
results_pages = importlib.import_module("results_pages")
game_views = importlib.import_module("game_views")

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
    missing = [f"{module}.{name}" for module, name in names if (module, name) not in
               constant_names() and not (html / "api" / "generated" /
                                         f"{module}.{name}.html").is_file()]
    assert missing == []


def test_every_module_has_a_page_and_the_entry_points_none(site):
    _, html, _ = site
    modules = api_pages.public_modules()
    assert "minestats.players.kernel" in modules and "minestats.__main__" not in modules
    assert [module for module in modules
            if not (html / "api" / f"{module}.html").is_file()] == []


def article(page):
    """The page's own text, without the navigation around it."""
    text = page.read_text()
    return text[text.index("<article"):text.index("</article>")]


def test_the_reference_groups_the_names_by_task_and_lists_only_the_public_faces(site):
    _, html, _ = site
    grouped = [name for names in api_pages.TASKS.values() for name in names]
    assert sorted(grouped) == sorted(minestats.__all__)  # each name in exactly one task
    index = article(html / "api" / "index.html")
    for task in api_pages.TASKS:
        assert f">{task}<" in index, task
    linked = set(re.findall(r'href="(minestats[\w.]*)\.html[#"]', index))  # module pages
    assert linked == {"minestats", *api_pages.FACES}
    internals = (html / "api" / "internals.html").read_text()
    assert 'href="minestats.players.kernel.html"' in internals


def constant_names():
    return [("minestats", name) for name in api_pages.constants()]


def test_every_constant_says_what_it_holds_not_what_its_class_is(site):
    _, html, _ = site
    page = (html / "api" / "minestats.html").read_text()
    assert ("minestats", "EXPERT") in constant_names()
    described = {name: re.search(rf'id="minestats\.{name}".*?<dd><p>(.*?)</p>', page,
                                 re.DOTALL) for _, name in constant_names()}
    assert [name for name, found in described.items() if not found] == []
    board_doc = minestats.Board.__doc__.splitlines()[0]
    assert [name for name, found in described.items() if board_doc in found[1]
            or "immutable sequence" in found[1]] == []


def test_every_subcommand_has_a_reference_entry(site):
    _, html, _ = site
    page = (html / "cli.html").read_text()
    names = list(cli_reference.subcommands(build_parser()))
    assert "win-rate" in names
    assert [name for name in names if f'id="cli-{name}"' not in page] == []
    assert "--chunk-size" in page


def test_every_option_is_a_row_of_a_table_with_its_own_anchor(site):
    _, html, _ = site
    page = (html / "cli.html").read_text()
    parser = build_parser()
    anchors = [cli_reference.anchor(name, action)
               for name, subparser in cli_reference.subcommands(parser).items()
               for action in cli_reference.options(subparser)]
    assert "cli-win-rate-board" in anchors and len(anchors) == len(set(anchors))
    assert [anchor for anchor in anchors if f'id="{anchor}"' not in page] == []
    assert len(re.findall(r'<table class="[^"]*\bms-options\b', page)) == len(
        cli_reference.subcommands(parser))
    assert "highlight-python" not in page  # no help text coloured as Python


def results_page(html, script):
    page = html / "results" / f"{results_pages.page_name(script)}.html"
    return page.read_text() if page.is_file() else ""


def test_every_committed_result_is_shown_on_a_results_page(site):
    _, html, _ = site
    groups = results_by_script(ROOT / "results")
    assert "minestats/experiments/win_rates.py" in groups
    unshown = []
    for script, files in groups.items():
        text = results_page(html, script)
        unshown += [name for name, _, _ in files if f"results/{name}" not in text]
        unshown += [f"{name} (image)" for name, _, _ in files if name.endswith(".png")
                    and not re.search(rf'<img [^>]*src="[^"]*/{Path(name).stem}\w*\.png"',
                                      text)]
    assert unshown == []


def test_every_csv_figure_and_notebook_can_be_downloaded(site):
    _, html, _ = site
    missing = []
    for script, files in results_by_script(ROOT / "results").items():
        text = results_page(html, script)
        for name, _, twins in files:
            for path in [name, *twins]:
                if not re.search(rf'href="[^"]*_downloads/\w+/{re.escape(Path(path).name)}"',
                                 text):
                    missing.append(path)
    assert missing == []
    notebooks = (html / "results" / "notebooks.html").read_text()
    sources = sorted((ROOT / "notebooks").glob("*.ipynb"))
    assert sources and [path.name for path in sources
                        if f"/{path.name}\"" not in notebooks] == []


def test_no_caption_on_the_site_says_none(site):
    _, html, _ = site
    captions = [caption for page in (html / "results").glob("*.html")
                for caption in re.findall(r"<figcaption>(.*?)</figcaption>", page.read_text(),
                                          re.DOTALL)]
    assert len(captions) > 50
    assert [caption for caption in captions if re.search(r"\bNone\b", caption)] == []
    # a caption that falls back on its script's title closes with one full stop
    bold = [line for page in (html / "results").glob("*.html")
            for line in re.findall(r"<strong>(.*?)</strong>", page.read_text(), re.DOTALL)]
    assert any("Every candidate against" in line for line in bold)
    assert [line for line in bold if line.endswith("..")] == []


FINDINGS = re.compile(r"^# [^\n]+\n\n:::\{admonition\} Findings\n:class: findings\n\n(.*?)\n:::\n",
                      re.DOTALL)


def test_every_results_page_opens_with_its_findings_then_its_files():
    for script in results_by_script(ROOT / "results"):
        name = results_pages.page_name(script)
        page = DOCS / "results" / f"{name}.md"
        assert page.is_file(), f"docs/results/{name}.md is missing"
        text = page.read_text()
        assert f"{{include}} _files/{name}.md" in text, name
        if name == "notebooks":
            continue
        findings = FINDINGS.match(text)
        assert findings, f"{name}.md does not open with its findings box"
        box = findings[1]
        assert "seed" in box and re.search(r"\[[-+]?\d", box), f"{name}: no seed or interval"
        # the figures and tables come right after the box, the method after them
        after = text[findings.end():].lstrip()
        assert after.startswith("```{include}") or after.startswith("| "), name
        assert text.index(f"_files/{name}.md") < text.index("## How it was measured"), name


def test_the_results_index_shows_a_gallery_of_every_page_and_notebook(site):
    _, html, _ = site
    index = (html / "results" / "index.html").read_text()
    gallery = index[index.index("ms-gallery"):]
    pages = [results_pages.page_name(script) for script, files
             in results_by_script(ROOT / "results").items()
             if any(name.endswith(".png") for name, _, _ in files)]
    notebooks = sorted((ROOT / "results" / "notebooks").glob("*.ipynb"))
    assert "opening_maps" in pages and notebooks
    assert [page for page in pages if f'href="{page}.html"' not in gallery] == []
    assert [path.stem for path in notebooks
            if f'href="_notebooks/{path.stem}.html"' not in gallery] == []
    assert gallery.count("<img") >= len(pages) + len(notebooks)


def test_many_figures_are_small_multiples_and_formulas_are_typeset(site):
    _, html, _ = site
    maps = (html / "results" / "opening_maps.html").read_text()
    grid = maps[maps.index('class="ms-multiples'):]
    assert grid.count("<img") == 32
    assert '<span class="math notranslate nohighlight">' in maps  # MathJax, not plain text
    assert "sqrt(p(1 - p)/n)" not in maps
    rules = article(html / "guide" / "first-click.html")
    assert rules.count('<span class="math notranslate nohighlight">') >= 10
    assert "C(N-k, M)" not in rules and r"\binom{N-k}{M}" in rules


def test_the_example_games_are_shown_step_by_step_as_the_command_draws_them(site, tmp_path):
    _, html, _ = site
    games = sorted(game_views.GAMES.glob("*.json"))
    assert [game.stem for game in games] == ["expert-lost", "expert-won"]
    for game in games:
        record = json.loads(game.read_text())
        shown = (html / "games" / f"{game.stem}.html").read_text()
        drawn = tmp_path / f"{game.stem}.html"
        subprocess.run([sys.executable, "-m", "minestats", "play", "--replay",
                        f"examples/games/{game.name}", "--html", str(drawn)], cwd=ROOT,
                       check=True, capture_output=True)
        assert shown == drawn.read_text()
        assert shown.count('class="ms-frame"') == len(record["moves"]) + 1
        assert "://" not in shown
        guide = article(html / "guide" / f"{game.stem}.html")
        assert f'<iframe src="../games/{game.stem}.html"' in guide
        assert f"--seed {record['seed']} " in guide and record["board"] == "30x16/99"
        assert ("lost" in game.stem) == (not record["won"])


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
