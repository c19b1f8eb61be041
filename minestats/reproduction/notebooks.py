"""Notebooks for readers without jupyter: run top to bottom, written as HTML with outputs.

`render_notebook` executes a notebook in its own folder, as a reader who opened it
there would (nbclient, the ``python3`` kernel), and writes it with every output as one
standalone HTML page (nbconvert's HTML exporter), figures as embedded PNG images,
atomically, with a JSON sidecar that records how it was made. Beside the page goes
its twin, the executed notebook ``NAME.ipynb`` with every output stored, for tools
that show a notebook from its stored outputs without running it (myst-nb on the
documentation site); the notebooks of ``notebooks/`` themselves are kept without
outputs. `render_notebooks` renders every notebook of a folder; ``minestats
reproduce`` calls it last, writing ``results/notebooks/NAME.html`` and ``NAME.ipynb``.

The figures of `minestats.figures.plots` show as images in a fresh kernel with no
magic (each draws itself as a PNG); a plain `matplotlib.figure.Figure` built without
pyplot needs ``%matplotlib inline`` first, or the page shows ``<Figure size ...>``.

A notebook reads its data from where it stands, not from the folder it is rendered
into: the notebooks of ``notebooks/`` open ``../results/...``, the committed results
of the checkout. ``minestats reproduce --out X`` writes ``X/notebooks/NAME.html``, but
those pages show ``results/``, not the tables just written to ``X`` (unless ``X`` is
``results``). A notebook's n and seeds are in its own cells; its sidecar says so, and
the results index links the page with the notebook it was rendered from.

nbclient, nbconvert and ipykernel come with the ``notebooks`` and ``test`` extras;
without them rendering stops with a one-line error naming the extra.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from minestats.foundations.validation import quoted
from minestats.io.result_files import collect_metadata, write_with_sidecar

__all__ = ["NOTEBOOK_COMMAND", "render_notebook", "render_notebooks"]

NOTEBOOK_COMMAND = "minestats reproduce --only notebooks"
"""The command that renders every notebook again, recorded in each page's sidecar."""


def _notebook_tools():
    try:
        import nbclient
        import nbconvert
        import nbformat
    except ImportError as error:
        raise ValueError(f"rendering notebooks needs {error.name}: pip install -e "
                         "'.[notebooks]'") from None
    return nbclient, nbconvert, nbformat


def render_notebook(source, target, *, timeout=600) -> Path:
    """Run the notebook ``source`` top to bottom; write it as HTML and as executed notebook.

    Parameters
    ----------
    source : str or path-like
        A ``.ipynb`` file; it runs with its own folder as the working directory.
    target : str or path-like
        The HTML page to write, ending in ``.html``; its sidecar is ``target.json``.
        Its twin, the executed notebook with its outputs, is ``target`` with the
        suffix ``.ipynb``, with a sidecar that names the page in ``twin_of``.
        Missing folders are created; nothing is written if a cell fails.
    timeout : float, optional
        Seconds one cell may run, default 600.

    Returns
    -------
    pathlib.Path
        ``target``.

    Raises
    ------
    ValueError
        If ``target`` does not end in ``.html`` or its twin would replace ``source``,
        the notebook cannot be read, a cell raises (the message names the cell and
        the error) or the tools are missing.

    Examples
    --------
    >>> import json, tempfile
    >>> import nbformat
    >>> folder = Path(tempfile.mkdtemp())
    >>> notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("6 * 7")])
    >>> nbformat.write(notebook, folder / "answer.ipynb")
    >>> page = render_notebook(folder / "answer.ipynb", folder / "html" / "answer.html")
    >>> "42" in page.read_text(), json.loads(Path(f"{page}.json").read_text())["notebook"]
    (True, 'answer.ipynb')
    >>> executed = nbformat.read(folder / "html" / "answer.ipynb", as_version=4)
    >>> executed.cells[0].outputs[0]["data"]["text/plain"]
    '42'
    """
    nbclient, nbconvert, nbformat = _notebook_tools()
    source, target = Path(source), Path(target)
    if target.suffix.lower() != ".html":
        raise ValueError(f"path {quoted(os.fspath(target))} must end in '.html'")
    executed_path = target.with_suffix(".ipynb")
    if executed_path.resolve() == source.resolve():
        raise ValueError(f"rendering {source} to {target} would replace the notebook with "
                         "its executed twin; render it into another folder")
    start = time.perf_counter()
    try:
        notebook = nbformat.read(source, as_version=4)
    except (OSError, ValueError) as error:
        raise ValueError(f"cannot read notebook {source}: {error}") from None
    client = nbclient.NotebookClient(notebook, timeout=timeout, kernel_name="python3",
                                     record_timing=False,  # no clock times in the twin
                                     resources={"metadata": {"path": str(source.parent)}})
    try:
        client.execute()
    except nbclient.exceptions.CellExecutionError as error:
        raise ValueError(f"notebook {source.name} failed: {error.ename}: {error.evalue}"
                         ) from None
    except nbclient.exceptions.CellTimeoutError:
        raise ValueError(f"notebook {source.name}: a cell ran past {timeout} s") from None
    html, _ = nbconvert.HTMLExporter().from_notebook_node(notebook)
    metadata = collect_metadata(
        seed="set in the notebook's cells", n="set in the notebook's cells", chunk_size=None,
        wall_time_s=time.perf_counter() - start, command=NOTEBOOK_COMMAND,
        extra={"notebook": _display_path(source)})
    return write_with_sidecar(
        target, html.encode("utf-8"), metadata=metadata,
        twins={executed_path: nbformat.writes(notebook).encode("utf-8")})


def _display_path(source: Path) -> str:
    """``notebooks/NAME.ipynb`` for a notebook of a checkout; the bare name otherwise."""
    parent = source.resolve().parent
    return f"{parent.name}/{source.name}" if parent.name == "notebooks" else source.name


def render_notebooks(folder, out, *, timeout=600, progress=None) -> list[Path]:
    """Render every ``*.ipynb`` of ``folder`` as ``out/NAME.html`` and ``NAME.ipynb``.

    Parameters
    ----------
    folder : str or path-like
        Where the notebooks are; each runs there (see the module docstring for what
        it reads).
    out : str or path-like
        The folder of the pages; created if missing.
    timeout : float, optional
        Seconds one cell may run, default 600.
    progress : callable, optional
        Called with each notebook's path before it runs.

    Returns
    -------
    list of pathlib.Path
        The pages written, in the order of the notebooks' names.

    Raises
    ------
    ValueError
        As `render_notebook`, at the first notebook that fails; the pages of the
        notebooks before it are written.

    Examples
    --------
    >>> import tempfile
    >>> import nbformat
    >>> folder = Path(tempfile.mkdtemp())
    >>> for name, code in (("b", "6 * 7"), ("a", "'hello'")):
    ...     notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code)])
    ...     nbformat.write(notebook, folder / f"{name}.ipynb")
    >>> pages = render_notebooks(folder, folder / "html", progress=lambda path: print(path.name))
    a.ipynb
    b.ipynb
    >>> [page.name for page in pages], "42" in pages[1].read_text()
    (['a.html', 'b.html'], True)
    """
    pages = []
    for source in sorted(Path(folder).glob("*.ipynb")):
        if progress is not None:
            progress(source)
        pages.append(render_notebook(source, Path(out) / f"{source.stem}.html",
                                     timeout=timeout))
    return pages
