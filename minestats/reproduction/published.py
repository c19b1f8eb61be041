"""The published summary tables, read back with their sidecars, in a checkout or an install.

The summary tables of the experiments (`minestats.reproduction.registry.summary_tables`)
are committed under ``results/`` with their JSON sidecars; a wheel ships the same
files as package data, in ``minestats/_results/`` (``setup.py`` puts them there). A
table is named as its path without ``.csv``: ``"win_rates"``, ``"opening_maps/holm"``.
`load_results` reads one as a DataFrame whose ``attrs`` hold how it was made;
`published_results` lists them all (``minestats results list``). Reading runs no
code: the CSV is read by pandas, the sidecar as JSON, and a sidecar that is not what
`minestats.io.result_files` writes is refused in one line.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from minestats.foundations.validation import quoted
from minestats.reproduction.registry import summary_tables

__all__ = ["ATTRIBUTES", "load_results", "published_folder", "published_names",
           "published_results"]

_PACKAGE = Path(__file__).resolve().parents[1]

ATTRIBUTES = ("n", "seed", "chunk_size", "commit", "command")
"""What `load_results` puts in a table's ``attrs`` from its sidecar (with ``name``);
``commit`` is the sidecar's ``git_revision``."""


def published_folder() -> Path:
    """Return the folder the published tables are read from.

    The package data of an installed wheel (``minestats/_results``) if there is one,
    else the ``results/`` folder of the source checkout the package is imported from.

    Examples
    --------
    >>> (published_folder() / "win_rates.csv").is_file()
    True
    """
    packaged = _PACKAGE / "_results"
    return packaged if packaged.is_dir() else _PACKAGE.parent / "results"


def published_names() -> tuple[str, ...]:
    """Return the names of the summary tables that are there, sorted.

    A table the registry names but nobody has committed yet (or a wheel left out) is
    not listed.

    Examples
    --------
    >>> names = published_names()
    >>> "win_rates" in names, "opening_maps/holm" in names
    (True, True)
    """
    folder = published_folder()
    return tuple(table.removesuffix(".csv") for table in summary_tables()
                 if (folder / table).is_file())


def _sidecar(path: Path) -> dict:
    """Read and check the sidecar of a published table; ValueError in one line if it is bad."""
    sidecar = Path(f"{path}.json")
    try:
        meta = json.loads(sidecar.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise ValueError(f"cannot read the sidecar {sidecar}: {error}") from None
    missing = [key for key in ("file", "n", "seed", "command") if key not in meta] if isinstance(
        meta, dict) else ["every key"]
    if missing:
        raise ValueError(f"the sidecar {sidecar} lacks {', '.join(missing)}")
    if meta["file"] != path.name:
        raise ValueError(f"the sidecar {sidecar} describes {quoted(meta['file'])}, "
                         f"not {quoted(path.name)}")
    return meta


def _attributes(name: str, meta: dict) -> dict:
    return {"name": name, "n": meta["n"], "seed": meta["seed"],
            "chunk_size": meta.get("chunk_size"), "commit": meta.get("git_revision"),
            "command": meta["command"]}


def load_results(name: str) -> pd.DataFrame:
    """Return a published summary table, with how it was made in its ``attrs``.

    Parameters
    ----------
    name : str
        The table's name, its path under ``results/`` without ``.csv``
        (`published_names`): ``"win_rates"``, ``"first_click"``, ``"opening_maps/holm"``.

    Returns
    -------
    pandas.DataFrame
        The table as committed. Its ``attrs`` hold ``name`` and, from the sidecar,
        `ATTRIBUTES`: ``n`` (an int, or a mapping such as ``{board: n}``), ``seed``,
        ``chunk_size``, ``commit`` (the git revision that wrote it) and ``command``
        (the command line that regenerates it with that code).

    Raises
    ------
    ValueError
        If no published table has that name (the message lists those there), or its
        sidecar cannot be read or does not describe it.

    Examples
    --------
    >>> table = load_results("first_click")
    >>> table.attrs["seed"], table.attrs["n"]
    ('42/1', 2000000)
    >>> sorted(table.attrs)
    ['chunk_size', 'command', 'commit', 'n', 'name', 'seed']
    >>> try:
    ...     load_results("first_clicks")
    ... except ValueError as error:
    ...     print(str(error)[:64], "...")
    unknown results table 'first_clicks'; choose from bbbv_expert_at ...
    """
    names = published_names()
    if name not in names:
        raise ValueError(f"unknown results table {quoted(name)}; choose from "
                         + ", ".join(names))
    path = published_folder() / f"{name}.csv"
    meta = _sidecar(path)
    table = pd.read_csv(path)
    table.attrs.update(_attributes(name, meta))
    return table


def published_results() -> pd.DataFrame:
    """Return one row per published table: its name and `ATTRIBUTES`, from the sidecars.

    Examples
    --------
    >>> listing = published_results()
    >>> list(listing.columns)
    ['name', 'n', 'seed', 'chunk_size', 'commit', 'command']
    >>> listing.set_index("name").loc["first_click", "seed"]
    '42/1'
    >>> listing.set_index("name").loc["opening_ranges", "seed"] is None  # exact, no seed
    True
    """
    folder = published_folder()
    return pd.DataFrame([_attributes(name, _sidecar(folder / f"{name}.csv"))
                         for name in published_names()], columns=["name", *ATTRIBUTES],
                        dtype=object)  # a value the sidecar lacks stays None
