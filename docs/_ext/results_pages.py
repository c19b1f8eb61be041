"""Write, for every experiment, the list of its committed files as a Markdown include.

Each results page (``docs/results/NAME.md``) is written by hand: what the experiment
asks and what its tables show. It ends with ``{include} _files/NAME.md``, which this
extension writes at ``config-inited`` from the sidecars of ``results/``
(`minestats.reproduction.index.results_by_script`): every figure the script wrote as an image,
every summary table as its Markdown twin, every raw table by name, each with its n,
seed, commit and the command that regenerates it; paths are relative to the page
that includes the file. So a page shows whatever the
experiment last committed, and a file no page shows cannot go unnoticed (the docs
test checks every group has a page).
"""

from __future__ import annotations

from pathlib import Path

from generated import write_generated

from minestats.reproduction.index import describe_result, results_by_script

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "results"
FILES = ROOT / "docs" / "results" / "_files"
NOTEBOOK_PAGES = ROOT / "docs" / "results" / "_notebooks"
NOTEBOOKS = "notebooks/"


def page_name(script: str) -> str:
    """Return the results page of a script group: ``experiments/bbbv.py`` -> ``bbbv``."""
    return "notebooks" if script == NOTEBOOKS else Path(script).stem


def files_markdown(files) -> str:
    """Return the Markdown that shows one experiment's files, as seen from its page.

    The command that wrote them is given once when they share it, else on every file.
    """
    commands = {str(meta.get("command", "")) for _, meta, _ in files}
    shared = commands.pop() if len(commands) == 1 else None
    parts = [f"Written by `{shared}`.\n"] if shared else []
    for name, meta, twins in files:
        caption = f"`results/{name}`: {describe_result(meta)}" + (
            "" if shared else f"; `{meta.get('command', '')}`")
        markdown_twin = next((twin for twin in twins if twin.endswith(".md")), None)
        if name.endswith(".png"):
            parts.append(f"### {name}\n\n![{name}](../../results/{name})\n\n{caption}\n")
        elif markdown_twin is not None:
            parts.append(f"### {name}\n\n{caption}\n\n```{{include}} "
                         f"../../results/{markdown_twin}\n```\n")
        else:
            parts.append(f"- {caption}\n")
    notebooks = [Path(twin).stem for _, _, twins in files for twin in twins
                 if twin.endswith(".ipynb")]
    if notebooks:
        parts.append("```{toctree}\n:maxdepth: 1\n\n"
                     + "".join(f"_notebooks/{name}\n" for name in notebooks) + "```\n")
    return "\n".join(parts)


def write_files():
    """Write ``docs/results/_files/NAME.md`` for every script group of ``results/``.

    The executed notebooks (``results/notebooks/NAME.ipynb``, the twins of the rendered
    pages) are copied into ``docs/results/_notebooks/``, where myst-nb shows them with
    their stored outputs, figures included, without running them again.
    """
    write_generated(NOTEBOOK_PAGES, {path.name: path.read_text(encoding="utf-8") for path
                                     in sorted((RESULTS / "notebooks").glob("*.ipynb"))},
                    "*.ipynb")
    pages = {f"{page_name(script)}.md": "## The files\n\n" + files_markdown(files)
             for script, files in results_by_script(RESULTS).items() if script}
    write_generated(FILES, pages, "*.md")


def setup(app):
    """Register the writer with Sphinx."""
    app.connect("config-inited", lambda app, config: write_files())
    return {"parallel_read_safe": True}
