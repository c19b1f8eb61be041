"""Write, for every experiment, its figures, tables and downloads as a Markdown include.

Each results page (``docs/results/NAME.md``) is written by hand: a findings box with
the key numbers, then ``{include} _files/NAME.md``, then how the experiment was run.
This extension writes that include at ``config-inited`` from the sidecars of
``results/`` (`minestats.reproduction.index.results_by_script`): every figure the
script wrote, under a caption (what it shows, from its file name, then its n, seed and
commit, `minestats.reproduction.index.describe_result`), with its PNG and PDF to
download; more than `MULTIPLES` figures are laid out as small multiples, a grid of
thumbnails. Then every summary table as its Markdown twin under the same kind of
caption, and every file to download, CSV and notebooks included. Paths are relative to
the page that includes the file. So a page shows whatever the experiment last
committed, and a file no page shows cannot go unnoticed (the docs test checks every
group has a page).

It also writes ``_files/gallery.md``, the thumbnails of the results index: the first
figure of every page with a figure and of every rendered notebook (taken from its
stored outputs into ``_files/thumbnails/``), each linking to its page.
"""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path

from generated import write_generated

from minestats.reproduction.index import describe_result, results_by_script, script_title

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "results"
PAGES = ROOT / "docs" / "results"
FILES = PAGES / "_files"
THUMBNAILS = FILES / "thumbnails"
NOTEBOOK_PAGES = PAGES / "_notebooks"
NOTEBOOKS = "notebooks/"
FROM_PAGE = "../../results/"
"""The results folder as seen from a results page (the page that includes a file)."""
MULTIPLES = 4
"""Pages with more figures than this show them as a grid of thumbnails."""
_BOARD_SLUG = re.compile(r"^(\d+x\d+)-(\d+)$")
_WORDS = {"z": "z-scores (Monte Carlo against exact)", "exact": "exact",
          "solvable-rule": "solvable boards of the rule", "classes": "by symmetry class",
          "paired": "paired", "published": "against the published figures",
          "agreement": "agreement of the two samples", "expert": "Expert"}


def page_name(script: str) -> str:
    """Return the results page of a script group: ``minestats/experiments/bbbv.py`` -> ``bbbv``."""
    return "notebooks" if script == NOTEBOOKS else Path(script).stem


def page_title(name: str) -> str:
    """Return the title of the hand-written page ``docs/results/NAME.md`` (its first line)."""
    return (PAGES / f"{name}.md").read_text(encoding="utf-8").splitlines()[0].lstrip("# ")


def what_it_shows(name: str, page: str, fallback: str) -> str:
    """Say in words what a file shows, from its name, less the page's own name.

    ``opening_maps/z_16x16-40_winxp.png`` on the page ``opening_maps`` reads
    "z-scores (Monte Carlo against exact), 16x16/40, winxp"; a file named after its
    page alone (``bbbv.png``) gets ``fallback``, less its closing full stop (the caption
    adds one).
    """
    stem = Path(name).with_suffix("").as_posix()
    for prefix in (f"{page}/", page):
        stem = stem.removeprefix(prefix)
    phrases = []
    plain = False  # whether the last phrase is plain words, which the next word joins
    for part in filter(None, stem.strip("_").split("_")):
        board = _BOARD_SLUG.match(part)
        if board or part in _WORDS:
            phrases.append(f"{board[1]}/{board[2]}" if board else _WORDS[part])
            plain = False
        elif plain:
            phrases[-1] += f" {part}"
        else:
            phrases.append(part)
            plain = True
    text = ", ".join(phrases)
    return (text[0].upper() + text[1:]) if text else fallback.removesuffix(".")


def download(path: str) -> str:
    """Return a MyST download link to a file of ``results/``, its text the file's path."""
    return f"{{download}}`results/{path} <{FROM_PAGE}{path}>`"


def _twin_links(twins) -> str:
    return " ".join(f"{{download}}`{Path(twin).suffix.lstrip('.').upper()} "
                    f"<{FROM_PAGE}{twin}>`" for twin in twins)


def figure_block(name, meta, twins, *, page, fallback) -> str:
    """Return a MyST figure of one committed image: its caption, path and downloads."""
    shown = what_it_shows(name, page, fallback)
    return (f":::{{figure}} {FROM_PAGE}{name}\n:alt: {shown}\n\n**{shown}.** "
            f"{describe_result(meta)}. {download(name)} {_twin_links(twins)}\n:::\n")


def files_markdown(files, page: str, fallback: str) -> str:
    """Return the Markdown that shows one experiment's files, as seen from its page.

    Parameters
    ----------
    files : list of (str, dict, list of str)
        The group's files: name, sidecar and twins (`results_by_script`).
    page : str
        The page's name, which the captions leave out of the file names.
    fallback : str
        The caption of a file named after its page alone (the script's title).
    """
    commands = {str(meta.get("command", "")) for _, meta, _ in files}
    shared = commands.pop() if len(commands) == 1 else None
    own = sorted(files, key=lambda file: Path(file[0]).stem != page)  # the page's own first
    figures = [file for file in own if file[0].endswith(".png")]
    tables = [file for file in own if any(twin.endswith(".md") for twin in file[2])]
    parts = []
    if len(figures) > MULTIPLES:
        parts.append(f"## Figures\n\n{len(figures)} figures, small; each opens full size "
                     "from its PNG or PDF link.\n\n::::{container} ms-multiples\n"
                     + "".join(figure_block(*figure, page=page, fallback=fallback)
                               for figure in figures) + "::::\n")
    elif figures:
        parts.append("## Figures\n\n" + "\n".join(
            figure_block(*figure, page=page, fallback=fallback) for figure in figures))
    for name, meta, twins in tables:
        markdown = next(twin for twin in twins if twin.endswith(".md"))
        parts.append(f"{'## Tables' + chr(10) * 2 if name == tables[0][0] else ''}"
                     f"**{what_it_shows(name, page, fallback)}.** {describe_result(meta)}. "
                     f"{download(name)} {_twin_links(twins)}\n\n```{{include}} "
                     f"{FROM_PAGE}{markdown}\n```\n")
    rows = []
    for name, meta, twins in files:
        made = describe_result(meta) + ("" if shared else f"; `{meta.get('command', '')}`")
        rows.append(f"- {download(name)} {_twin_links(twins)}: {made}")
    parts.append("## Downloads\n\nEvery file this experiment committed, with its n, seed "
                 "and commit" + (f"; written by `{shared}`" if shared else "") + ".\n\n"
                 + "\n".join(rows) + "\n")
    notebooks = [Path(twin).stem for _, _, twins in files for twin in twins
                 if twin.endswith(".ipynb")]
    if notebooks:
        parts.append("The notebooks as pages, with their outputs:\n\n```{toctree}\n"
                     ":maxdepth: 1\n\n" + "".join(f"_notebooks/{name}\n" for name in notebooks)
                     + "```\n\nTheir sources, to run them yourself: "
                     + ", ".join(f"{{download}}`notebooks/{name}.ipynb "
                                 f"<../../notebooks/{name}.ipynb>`" for name in notebooks)
                     + ".\n")
    return "\n".join(parts)


def notebook_thumbnail(notebook: Path) -> str | None:
    """Write the first figure of an executed notebook into `THUMBNAILS`; return its name."""
    for cell in json.loads(notebook.read_text(encoding="utf-8"))["cells"]:
        for output in cell.get("outputs", []):
            png = output.get("data", {}).get("image/png")
            if png:
                THUMBNAILS.mkdir(parents=True, exist_ok=True)
                path = THUMBNAILS / f"{notebook.stem}.png"
                data = base64.b64decode("".join(png))
                if not path.exists() or path.read_bytes() != data:
                    path.write_bytes(data)
                return path.name
    return None


def gallery_markdown(groups) -> str:
    """Return the gallery of the results index: one thumbnail per page and notebook."""
    cards = []
    for script, files in groups.items():
        name = page_name(script)
        if name == "notebooks":
            continue
        figure = next((file for file, _, _ in files if file.endswith(".png")), None)
        if figure is not None:
            cards.append((f"{FROM_PAGE}{figure}", f"{name}.html", page_title(name), name))
    for notebook in sorted((RESULTS / "notebooks").glob("*.ipynb")):
        thumbnail = notebook_thumbnail(notebook)
        if thumbnail is not None:
            cards.append((f"_files/thumbnails/{thumbnail}", f"_notebooks/{notebook.stem}.html",
                          f"Notebook: {notebook_title(notebook)}", f"_notebooks/{notebook.stem}"))
    return "::::{container} ms-gallery\n" + "".join(
        f":::{{figure}} {image}\n:alt: {title}\n:target: {target}\n\n{{doc}}`{title} <{doc}>`"
        "\n:::\n" for image, target, title, doc in cards) + "::::\n"


def notebook_title(notebook: Path) -> str:
    """Return a notebook's title, the first line of its first cell."""
    source = json.loads(notebook.read_text(encoding="utf-8"))["cells"][0]["source"]
    return "".join(source).splitlines()[0].lstrip("# ")


def write_files():
    """Write ``docs/results/_files/NAME.md`` for every script group, and the gallery.

    The executed notebooks (``results/notebooks/NAME.ipynb``, the twins of the rendered
    pages) are copied into ``docs/results/_notebooks/``, where myst-nb shows them with
    their stored outputs, figures included, without running them again.
    """
    write_generated(NOTEBOOK_PAGES, {path.name: path.read_text(encoding="utf-8") for path
                                     in sorted((RESULTS / "notebooks").glob("*.ipynb"))},
                    "*.ipynb")
    groups = {script: files for script, files in results_by_script(RESULTS).items() if script}
    pages = {f"{page_name(script)}.md": files_markdown(
        files, page_name(script), script_title(ROOT / script) if script != NOTEBOOKS
        else "Notebooks") for script, files in groups.items()}
    pages["gallery.md"] = gallery_markdown(groups)
    write_generated(FILES, pages, "*.md")


def setup(app):
    """Register the writer with Sphinx."""
    app.connect("config-inited", lambda app, config: write_files())
    return {"parallel_read_safe": True}
