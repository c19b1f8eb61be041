"""Sphinx configuration of the minestats documentation site (``make docs``)."""

import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS / "_ext"))

project = "minestats"
author = "the minestats developers"
copyright = "2026, the minestats developers"

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "numpydoc",
    "myst_nb",
    "sphinx_copybutton",
    "api_pages",
    "cli_reference",
    "results_pages",
    "game_views",
]

autosummary_generate = True
autosummary_ignore_module_all = False
autodoc_default_options = {"members": False}
numpydoc_show_class_members = False
numpydoc_xref_param_type = False
numpydoc_validation_checks = set()

nitpicky = True

html_theme = "pydata_sphinx_theme"
html_title = "minestats"
html_static_path = ["_static"]
html_css_files = ["minestats.css"]  # findings boxes, small multiples, the gallery
html_extra_path = ["_games"]  # the example games drawn step by step (game_views)
# The game pages frame a whole Expert board: no sidebar beside it.
html_sidebars = {"guide/expert-*": []}
templates_path = ["_templates"]
exclude_patterns = ["_build", "_templates", "_games", "results/_files"]
nb_execution_mode = "off"
myst_enable_extensions = ["dollarmath", "colon_fence"]
suppress_warnings = []

# Names from other projects: there is no network to fetch their inventories from, so
# references to them stay plain text instead of failing the build.
nitpick_ignore_regex = [
    (r"py:.*", r"(numpy|np|pandas|pd|scipy|matplotlib|pathlib|sqlite3|concurrent|dask|"
               r"distributed|numba|statsmodels|fractions|collections|typing|argparse|os|io)"
               r"(\..*)?"),
]

# The numpydoc sections give every type; signatures stay free of annotations.
autodoc_typehints = "none"
numpydoc_attributes_as_param_list = True
