"""The index of a results folder: one line per table or figure, from the sidecars.

Every table and figure minestats writes has a JSON sidecar (`minestats.io.result_files`)
recording its n, seed and the command that wrote it. `write_results_index` reads
them all and writes ``README.md`` in the folder: files grouped by the experiment
script that wrote them (titled with the first line of the script's docstring, read
without running it), one line each with n, seed and the command that regenerates it,
and, in a git checkout, ends with how many times each seed stream was read
(`minestats.reproduction.reads`).
Twins (a figure's PDF, a table's LaTeX and Markdown: sidecars with ``twin_of``) are
linked on the line of the file they are twins of, so each result appears once.

`check_results` tests a folder against the rules: every PNG has its PDF twin, every
summary table of every experiment
(`minestats.reproduction.registry.Experiment.summary_tables`) is there with its LaTeX
and Markdown twins, and the index names every table and figure.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

from minestats.foundations.validation import PATH_LIMIT, quoted
from minestats.io.result_files import FIGURE_TWIN, TABLE_TWINS, write_bytes
from minestats.reproduction.reads import reads_section
from minestats.reproduction.registry import PACKAGE
from minestats.reproduction.registry import summary_tables as registered_summary_tables

__all__ = ["INDEX_MARK", "check_results", "describe_result", "is_results_index",
           "results_by_script", "results_index", "script_of", "script_title",
           "write_results_index"]

INDEX_MARK = "<!-- minestats results index: rewritten by minestats reproduce -->"
"""The first line of every index `write_results_index` writes: how it knows its own.

An HTML comment, so the rendered page does not show it."""

_TITLE = (
    f"{INDEX_MARK}\n# Results\n\nEvery table and figure in this folder, grouped by the "
    "script that writes it. Each line gives its n, its seed, the commit whose code wrote "
    "it and the command that regenerates it with that code (run from the "
    "repository root; `minestats reproduce --only NAME` does the same). The JSON sidecar "
    "beside each file has the rest: chunk size, versions, git revision, wall time.\n"
)


_NOTEBOOKS = "notebooks/"
_NOTEBOOKS_TITLE = (
    "Notebooks, run top to bottom and rendered with their outputs (to run them live: "
    "`pip install -e \".[notebooks]\"`, then `jupyter lab notebooks/`)")


_SOURCE = Path(__file__).resolve().parents[2]
"""The folder holding the ``minestats`` package: a checkout's root, or site-packages."""


def _format_n(n) -> str:
    if isinstance(n, dict):
        return "; ".join(f"{key}: {_format_n(value)}" for key, value in n.items())
    return f"{n:,}" if isinstance(n, int) else str(n)


def _revision(meta: dict) -> str:
    """``", git 060f342"``: the commit that wrote the file (``-dirty`` kept), if recorded.

    Files of one folder can come from different commits (an archived table, a table
    rerun alone), and the command regenerates a file only with the code that wrote it.
    """
    revision = meta.get("git_revision")
    if not isinstance(revision, str) or not revision:
        return ""
    sha, dirty, _ = revision.partition("-dirty")
    return f", git {sha[:7]}{'-dirty' if dirty else ''}"


def _sidecars(folder: Path):
    """Yield ``(path relative to folder, metadata)`` of every file with a readable sidecar."""
    for sidecar in sorted(folder.rglob("*.json")):
        target = sidecar.with_suffix("")
        if not target.is_file():
            continue
        try:
            meta = json.loads(sidecar.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(meta, dict):
            yield target.relative_to(folder).as_posix(), meta


def _twin_of(name: str, meta: dict) -> str | None:
    """Return the file ``name`` is a twin of (a path relative to the folder), or None."""
    primary = meta.get("twin_of")
    return str(Path(name).with_name(primary).as_posix()) if isinstance(primary, str) else None


def script_of(command: str) -> str:
    """Return the script a sidecar's command ran, as a path in the source tree; "" if none.

    An experiment is named by its module, ``minestats/experiments/NAME.py``, whether
    the command runs it as a module (``python -m minestats.experiments.NAME``) or, as
    the commands written before the experiments were part of the package do, as
    ``experiments/NAME.py`` of a checkout. Any other script is its ``.py`` word.

    Examples
    --------
    >>> script_of("python -m minestats.experiments.bbbv --n 1000")
    'minestats/experiments/bbbv.py'
    >>> script_of("python experiments/bbbv.py --n 1000")
    'minestats/experiments/bbbv.py'
    >>> script_of("python benchmarks/bench_bbbv.py"), script_of("minestats bbbv")
    ('benchmarks/bench_bbbv.py', '')
    """
    words = command.split()
    for word, following in zip(words, [*words[1:], ""][:len(words)], strict=True):
        if word == "-m" and following.startswith(f"{PACKAGE}."):
            return f"{following.replace('.', '/')}.py"
        if word.endswith(".py"):
            legacy = Path(word)
            if legacy.parent.as_posix() == "experiments":
                return f"{PACKAGE.replace('.', '/')}/{legacy.name}"
            return word
    return ""


def results_by_script(folder) -> dict[str, list[tuple[str, dict, list[str]]]]:
    """Group the tables and figures under ``folder`` by the script that wrote them.

    Parameters
    ----------
    folder : str or pathlib.Path
        A results folder: files with a ``NAME.json`` sidecar beside them.

    Returns
    -------
    dict
        The script that wrote them (`script_of` its command; ``"notebooks/"`` for rendered
        notebooks, ``""`` for a file whose command names none) -> a list, sorted by
        name, of ``(name, sidecar, twins)``: the file's path relative to ``folder``,
        its metadata and the paths of its twins (a figure's PDF, a table's LaTeX and
        Markdown), which are not listed on their own.

    Examples
    --------
    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> sidecar = {"n": 1000, "seed": 42, "command": "python scripts/rates.py"}
    >>> for name, twin_of in (("rates.csv", None), ("rates.md", "rates.csv")):
    ...     _ = (folder / name).write_text("a,b")
    ...     _ = (folder / f"{name}.json").write_text(json.dumps({**sidecar, "twin_of": twin_of}))
    >>> [(name, twins) for name, _, twins in results_by_script(folder)["scripts/rates.py"]]
    [('rates.csv', ['rates.md'])]
    """
    entries = dict(_sidecars(Path(folder)))
    twins: dict[str, list[str]] = {}
    for name, meta in entries.items():
        primary = _twin_of(name, meta)
        if primary in entries:
            twins.setdefault(primary, []).append(name)
    groups: dict[str, list[tuple[str, dict, list[str]]]] = {}
    for name, meta in entries.items():
        if _twin_of(name, meta) in entries:
            continue  # listed with its primary
        script = script_of(str(meta.get("command", ""))) or (
            _NOTEBOOKS if "notebook" in meta else "")
        groups.setdefault(script, []).append((name, meta, twins.get(name, [])))
    return groups


def describe_result(meta: dict) -> str:
    """Return how a result was made, from its sidecar: n and seed, or its notebook.

    A value the sidecar does not record is said in words, never as ``None``: a table
    computed exactly gives its method and "nothing sampled", one drawn from the
    tables of another run has "no seed of its own".

    Parameters
    ----------
    meta : dict
        The file's sidecar.

    Returns
    -------
    str
        ``"n 1,000, seed 42, git 060f342"``, or for a rendered notebook
        ``"rendered from notebooks/NAME.ipynb (n and seeds in its cells)"``.

    Examples
    --------
    >>> describe_result({"n": 1000, "seed": "42/7", "git_revision": "060f342c0ffee"})
    'n 1,000, seed 42/7, git 060f342'
    >>> describe_result({"n": None, "seed": None, "method": "closed forms"})
    'closed forms, nothing sampled'
    >>> describe_result({"n": {"logic": 5000}, "seed": None})
    'n logic: 5,000, no seed of its own'
    """
    if "notebook" in meta:
        return f"rendered from {meta['notebook']} (n and seeds in its cells)" + _revision(meta)
    n, seed, method = meta.get("n"), meta.get("seed"), meta.get("method")
    if n is None and seed is None:
        made = f"{method}, nothing sampled" if method else "n and seed not recorded"
    else:
        made = (f"n {_format_n(n)}" if n is not None else "n not recorded") + (
            f", seed {seed}" if seed is not None else ", no seed of its own")
    return made + _revision(meta)


def script_title(script) -> str:
    r"""Return the first line of a script's module docstring, read without running it.

    Parameters
    ----------
    script : str or pathlib.Path
        A Python file.

    Returns
    -------
    str
        The docstring's first line, or the file's stem if it has none (or cannot be read).

    Examples
    --------
    >>> import tempfile
    >>> script = Path(tempfile.mkdtemp()) / "rates.py"
    >>> _ = script.write_text("'''Win rates of every policy.\n\nMore.'''")
    >>> script_title(script)
    'Win rates of every policy.'
    """
    script = Path(script)
    try:
        docstring = ast.get_docstring(ast.parse(script.read_text(encoding="utf-8")))
    except (OSError, SyntaxError, UnicodeDecodeError):
        docstring = None
    return docstring.strip().splitlines()[0] if docstring else script.stem


def results_index(folder, *, repository=None) -> str:
    r"""Return the Markdown index of the tables and figures under ``folder``.

    Parameters
    ----------
    folder : str or pathlib.Path
        A results folder: files with a ``NAME.json`` sidecar beside them.
    repository : str or pathlib.Path, optional
        Where the scripts the sidecars name live (default: the folder's parent); the
        experiments (`script_of`) are read from the package, wherever it is installed.

    Examples
    --------
    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> sidecar = {"n": 1000, "seed": 42, "command": "python scripts/rates.py"}
    >>> for name, twin_of in (("rates.csv", None), ("rates.tex", "rates.csv"),
    ...                       ("rates.md", "rates.csv")):
    ...     _ = (folder / name).write_text("a,b")
    ...     _ = (folder / f"{name}.json").write_text(json.dumps({**sidecar, "twin_of": twin_of}))
    >>> print(results_index(folder).splitlines()[-1].replace("; ", ";\n"))
    - [rates.csv](rates.csv) ([md](rates.md), [tex](rates.tex)): n 1,000, seed 42;
    `python scripts/rates.py`
    """
    folder = Path(folder)
    repository = folder.parent if repository is None else Path(repository)
    parts = [_TITLE]
    for script, files in sorted(results_by_script(folder).items()):
        lines = []
        for name, meta, twins in files:
            links = ", ".join(f"[{Path(twin).suffix.lstrip('.')}]({twin})" for twin in twins)
            lines.append(f"- [{name}]({name})" + (f" ({links})" if links else "")
                         + f": {describe_result(meta)}; `{meta.get('command', '')}`")
        title = (_NOTEBOOKS_TITLE if script == _NOTEBOOKS else
                 script_title((_SOURCE if script.startswith("minestats/") else repository)
                              / script) if script else "other files")
        parts.append(f"\n## {title}\n\n" + (f"`{script}`\n\n" if script else "")
                     + "\n".join(lines) + "\n")
    parts.append(reads_section(folder))  # in a git checkout: how often each stream was read
    return "".join(parts)


def is_results_index(path) -> bool:
    """Return whether ``path`` is an index minestats wrote: its first line is `INDEX_MARK`.

    A file that cannot be read as text, or does not exist, is not.

    Examples
    --------
    >>> import tempfile
    >>> notes = Path(tempfile.mkdtemp()) / "README.md"
    >>> _ = notes.write_text("# My notes")
    >>> is_results_index(notes), is_results_index(write_results_index(tempfile.mkdtemp()))
    (False, True)
    """
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.readline().rstrip("\n") == INDEX_MARK
    except (OSError, UnicodeDecodeError):
        return False


def write_results_index(folder, *, repository=None) -> Path:
    """Write `results_index` of ``folder`` to ``folder/README.md``, atomically.

    Only an index this package wrote is replaced (`is_results_index`): a
    ``README.md`` of the user's own is refused, and stays as it was.

    Parameters
    ----------
    folder : str or pathlib.Path
        A results folder: files with a ``NAME.json`` sidecar beside them.
    repository : str or pathlib.Path, optional
        Where the scripts the sidecars name live (default: the folder's parent).

    Returns
    -------
    pathlib.Path
        ``folder/README.md``.

    Raises
    ------
    ValueError
        If ``folder/README.md`` exists and is not an index minestats wrote.

    Examples
    --------
    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "rates.csv").write_text("a,b")
    >>> _ = (folder / "rates.csv.json").write_text(json.dumps(
    ...     {"n": 1000, "seed": 42, "command": "python experiments/rates.py"}))
    >>> index = write_results_index(folder)
    >>> index.name, index.read_text().splitlines()[-1]
    ('README.md', '- [rates.csv](rates.csv): n 1,000, seed 42; `python experiments/rates.py`')
    >>> check_results(folder, summary_tables=())
    []
    >>> _ = index.write_text("# My notes")
    >>> write_results_index(folder)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: '.../README.md' was not written by minestats (its first line is not ...
    """
    index = Path(folder) / "README.md"
    if index.exists() and not is_results_index(index):
        raise ValueError(
            f"{quoted(str(index), limit=PATH_LIMIT)} was not written by minestats (its first "
                         f"line is not {INDEX_MARK}): move it away, or choose another "
                         f"folder")
    return write_bytes(index, results_index(folder, repository=repository).encode())


def check_results(folder, *, summary_tables=None) -> list[str]:
    """Return what ``folder`` lacks under the rules for results; empty if nothing.

    The rules: every ``.png`` has its ``.pdf`` twin, every table named in
    ``summary_tables`` is there and has its ``.tex`` and ``.md`` twins, every twin has
    its sidecar, and ``README.md`` (`write_results_index`) links every file that has
    a sidecar.

    Parameters
    ----------
    folder : str or pathlib.Path
        A results folder.
    summary_tables : sequence of str, optional
        Paths, relative to ``folder``, of the tables that need twins; default every
        experiment's (`minestats.reproduction.registry.summary_tables`).

    Returns
    -------
    list of str
        One sentence per missing file or index entry.

    Examples
    --------
    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "map.png").write_bytes(b"")
    >>> _ = (folder / "map.png.json").write_text("{}")
    >>> check_results(folder, summary_tables=["rates.csv"])
    ['rates.csv is missing', 'map.png has no map.pdf', 'README.md is missing']
    """
    folder = Path(folder)
    if summary_tables is None:
        summary_tables = registered_summary_tables()
    problems = [f"{name} is missing" for name in summary_tables
                if not (folder / name).is_file()]
    wanted = {png: [png.with_suffix(FIGURE_TWIN)] for png in sorted(folder.rglob("*.png"))}
    wanted.update({folder / name: [(folder / name).with_suffix(suffix)
                                   for suffix in TABLE_TWINS]
                   for name in summary_tables if (folder / name).is_file()})
    for path, twins in wanted.items():
        for twin in twins:
            if not twin.is_file():
                problems.append(f"{path.relative_to(folder).as_posix()} has no {twin.name}")
            elif not Path(f"{twin}.json").is_file():
                problems.append(f"{twin.relative_to(folder).as_posix()} has no sidecar")
    index = folder / "README.md"
    if not index.is_file():
        return [*problems, "README.md is missing"]
    text = index.read_text(encoding="utf-8")
    problems.extend(f"README.md does not link {name}" for name in dict(_sidecars(folder))
                    if f"]({name})" not in text)
    return problems
