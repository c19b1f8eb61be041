"""Every notebook in notebooks/ runs top to bottom and renders as HTML with its outputs."""

import json
from pathlib import Path

import nbformat
import pytest

from minestats.io.index import results_index
from minestats.io.notebooks import NOTEBOOK_COMMAND, render_notebook

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.stem)
def test_notebook_runs_and_renders_with_its_outputs(path, tmp_path):
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


def test_a_failing_cell_writes_nothing_and_says_which_error(tmp_path):
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1 / 0")])
    nbformat.write(notebook, tmp_path / "broken.ipynb")
    with pytest.raises(ValueError, match="notebook broken.ipynb failed: ZeroDivisionError"):
        render_notebook(tmp_path / "broken.ipynb", tmp_path / "broken.html")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["broken.ipynb"]


def test_rendered_notebooks_get_their_own_section_of_the_index(tmp_path):
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("print(6 * 7)")])
    nbformat.write(notebook, tmp_path / "answer.ipynb")
    render_notebook(tmp_path / "answer.ipynb", tmp_path / "results" / "notebooks" / "answer.html")
    index = results_index(tmp_path / "results")
    assert "## Notebooks, run top to bottom" in index and 'pip install -e \\".[notebooks]\\"' \
        not in index and 'pip install -e ".[notebooks]"' in index
    line = next(line for line in index.splitlines() if "notebooks/answer.html" in line)
    assert line.startswith("- [notebooks/answer.html](notebooks/answer.html): rendered from "
                           "answer.ipynb (n and seeds in its cells), git ")
    assert line.endswith(f"; `{NOTEBOOK_COMMAND}`")
    assert "set in the notebook's cells" not in index
