"""Every notebook in notebooks/ runs top to bottom and renders as HTML with its outputs.

A figure counts as shown when its output carries a PNG: IPython always adds the text
``<Figure size ...>``, and for a plain matplotlib Figure without the inline backend that
text is all there is; the figures of `minestats.figures.plots` draw themselves as PNG.
"""

import json
import re
from pathlib import Path

import nbformat
import pytest

from minestats.reproduction.index import results_index
from minestats.reproduction.notebooks import NOTEBOOK_COMMAND, render_notebook

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))
FIGURE_TEXT = re.compile(r"^<Figure size [\d.]+x[\d.]+ with \d+ Axes>$")
PLOT_CALL = re.compile(r"\bplot_\w+\(")
EMBEDDED_PNG = re.compile(r'<img [^>]*src="data:image/png;base64,')


def figure_outputs(notebook):
    """The outputs of ``notebook``'s cells that are matplotlib Figures."""
    return [output for cell in notebook.cells if cell.cell_type == "code"
            for output in cell.outputs
            if FIGURE_TEXT.match(output.get("data", {}).get("text/plain", ""))]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.stem)
def test_notebook_runs_and_renders_with_its_outputs_and_figures(path, tmp_path):
    page = render_notebook(path, tmp_path / f"{path.stem}.html")  # raises if a cell fails
    html = page.read_text(encoding="utf-8")
    assert html.lstrip().lower().startswith("<!doctype html")
    # the outputs are in the page, not only the code
    code_cells = [cell for cell in nbformat.read(path, as_version=4).cells
                  if cell.cell_type == "code"]
    assert html.count('class="jp-OutputArea-child') >= len(code_cells) // 2
    sidecar = json.loads(Path(f"{page}.json").read_text())
    assert sidecar["notebook"] == f"notebooks/{path.name}"
    assert sidecar["command"] == NOTEBOOK_COMMAND
    # every figure drawn is an image, in the executed twin and in the page
    executed = nbformat.read(page.with_suffix(".ipynb"), as_version=4)
    figures = figure_outputs(executed)
    drawn = sum(len(PLOT_CALL.findall(cell.source)) for cell in code_cells)
    assert len(figures) >= drawn  # a call in a loop draws more than one
    assert all("image/png" in output["data"] for output in figures)
    assert len(EMBEDDED_PNG.findall(html)) == len(figures)
    assert "&lt;Figure size" not in html


def test_the_executed_twin_keeps_every_output_and_names_its_page(tmp_path):
    cells = ["%matplotlib inline\nfrom matplotlib.figure import Figure",
             "figure = Figure()\nfigure.add_subplot().plot([0, 1])\ndisplay(figure)",
             "print(6 * 7)"]
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code)
                                               for code in cells])
    nbformat.write(notebook, tmp_path / "drawing.ipynb")
    page = render_notebook(tmp_path / "drawing.ipynb", tmp_path / "out" / "drawing.html")
    executed = nbformat.read(tmp_path / "out" / "drawing.ipynb", as_version=4)
    nbformat.validate(executed)
    assert [cell.execution_count for cell in executed.cells] == [1, 2, 3]
    [figure] = figure_outputs(executed)
    assert figure["data"]["image/png"] and len(EMBEDDED_PNG.findall(page.read_text())) == 1
    assert executed.cells[2].outputs[0]["text"] == "42\n"
    assert all("execution" not in cell.metadata for cell in executed.cells)  # no clock times
    sidecar = json.loads((tmp_path / "out" / "drawing.ipynb.json").read_text())
    assert sidecar["twin_of"] == "drawing.html" and sidecar["file"] == "drawing.ipynb"
    # the source keeps no outputs
    assert not nbformat.read(tmp_path / "drawing.ipynb", as_version=4).cells[1].outputs


def test_a_plot_shows_as_an_image_in_a_fresh_kernel_without_any_magic(tmp_path):
    cells = ["import numpy as np\nfrom minestats.figures.plots import plot_probability_map",
             "plot_probability_map(np.eye(3) / 2, title='t')",  # a cell's last expression
             "display(plot_probability_map(np.eye(2), title='u'))"]
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code)
                                               for code in cells])
    nbformat.write(notebook, tmp_path / "plain.ipynb")
    page = render_notebook(tmp_path / "plain.ipynb", tmp_path / "out" / "plain.html")
    figures = figure_outputs(nbformat.read(page.with_suffix(".ipynb"), as_version=4))
    assert len(figures) == 2 and all("image/png" in output["data"] for output in figures)
    assert len(EMBEDDED_PNG.findall(page.read_text())) == 2


def test_no_notebook_needs_a_magic_to_show_its_figures():
    assert [path.name for path in NOTEBOOKS if "%matplotlib" in path.read_text()] == []


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.stem)
def test_a_notebook_asks_its_question_in_its_first_cell(path):
    first = nbformat.read(path, as_version=4).cells[0]
    title, _, rest = first.source.partition("\n\n")
    question = rest.split("\n\n")[0]
    assert first.cell_type == "markdown" and title.startswith("# ") and "?" in question, question


def test_a_matplotlib_figure_without_the_inline_backend_is_only_text(tmp_path):
    """What the checks above catch: a plain matplotlib Figure, without ``%matplotlib inline``."""
    code = ("from matplotlib.figure import Figure\nfigure = Figure()\n"
            "figure.add_subplot().plot([0, 1])\ndisplay(figure)")
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code)]),
                   tmp_path / "plain.ipynb")
    page = render_notebook(tmp_path / "plain.ipynb", tmp_path / "out" / "plain.html")
    [figure] = figure_outputs(nbformat.read(page.with_suffix(".ipynb"), as_version=4))
    assert "image/png" not in figure["data"]
    assert not EMBEDDED_PNG.search(page.read_text()) and "&lt;Figure size" in page.read_text()


@pytest.mark.parametrize(("target", "message"), [
    ("page.txt", "must end in '.html'"),
    ("source.html", "would replace the notebook"),
])
def test_a_target_that_is_not_a_page_beside_its_source_is_refused(tmp_path, target,
                                                                    message):
    nbformat.write(nbformat.v4.new_notebook(), tmp_path / "source.ipynb")
    with pytest.raises(ValueError, match=message):
        render_notebook(tmp_path / "source.ipynb", tmp_path / target)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["source.ipynb"]


def test_a_failing_cell_writes_nothing_and_says_which_error(tmp_path):
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1 / 0")])
    nbformat.write(notebook, tmp_path / "broken.ipynb")
    with pytest.raises(ValueError, match="notebook broken.ipynb failed: ZeroDivisionError"):
        render_notebook(tmp_path / "broken.ipynb", tmp_path / "out" / "broken.html")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["broken.ipynb"]


def test_rendered_notebooks_get_their_own_section_of_the_index(tmp_path):
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("print(6 * 7)")])
    nbformat.write(notebook, tmp_path / "answer.ipynb")
    render_notebook(tmp_path / "answer.ipynb", tmp_path / "results" / "notebooks" / "answer.html")
    index = results_index(tmp_path / "results")
    assert "## Notebooks, run top to bottom" in index and 'pip install -e \\".[notebooks]\\"' \
        not in index and 'pip install -e ".[notebooks]"' in index
    line = next(line for line in index.splitlines() if "notebooks/answer.html" in line)
    assert line.startswith("- [notebooks/answer.html](notebooks/answer.html) "
                           "([ipynb](notebooks/answer.ipynb)): rendered from "
                           "answer.ipynb (n and seeds in its cells), git ")
    assert line.endswith(f"; `{NOTEBOOK_COMMAND}`")
    assert "set in the notebook's cells" not in index
