"""The index of a results folder: one line per table or figure, from the sidecars.

Every table and figure minestats writes has a JSON sidecar (`minestats.io.results`)
recording its n, seed and the command that wrote it. `write_results_index` reads
them all and writes ``README.md`` in the folder: files grouped by the experiment
script that wrote them (titled with the first line of the script's docstring, read
without running it), one line each with n, seed and the command that regenerates it.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

from minestats.io.results import write_bytes

__all__ = ["results_index", "write_results_index"]

_TITLE = (
    "# Results\n\nEvery table and figure in this folder, grouped by the script that writes "
    "it. Each line gives its n, its seed and the command that regenerates it (run from the "
    "repository root; `minestats reproduce --only NAME` does the same). The JSON sidecar "
    "beside each file has the rest: chunk size, versions, git revision, wall time.\n"
)


def _format_n(n) -> str:
    if isinstance(n, dict):
        return "; ".join(f"{key}: {_format_n(value)}" for key, value in n.items())
    return f"{n:,}" if isinstance(n, int) else str(n)


def _script_title(script: Path) -> str:
    """First line of the script's module docstring, or its name if it has none."""
    try:
        docstring = ast.get_docstring(ast.parse(script.read_text(encoding="utf-8")))
    except (OSError, SyntaxError, UnicodeDecodeError):
        docstring = None
    return docstring.strip().splitlines()[0] if docstring else script.stem


def results_index(folder, *, repository=None) -> str:
    """Return the Markdown index of the tables and figures under ``folder``.

    Parameters
    ----------
    folder : str or pathlib.Path
        A results folder: files with a ``NAME.json`` sidecar beside them.
    repository : str or pathlib.Path, optional
        Where the scripts the sidecars name live (default: the folder's parent).

    Examples
    --------
    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "rates.csv").write_text("a,b")
    >>> sidecar = {"n": 1000, "seed": 42, "command": "python experiments/rates.py --seed 42"}
    >>> _ = (folder / "rates.csv.json").write_text(json.dumps(sidecar))
    >>> print(results_index(folder).splitlines()[-1])
    - [rates.csv](rates.csv): n 1,000, seed 42; `python experiments/rates.py --seed 42`
    """
    folder = Path(folder)
    repository = folder.parent if repository is None else Path(repository)
    groups: dict[str, list[str]] = {}
    for sidecar in sorted(folder.rglob("*.json")):
        target = sidecar.with_suffix("")
        if not target.is_file():
            continue
        try:
            meta = json.loads(sidecar.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if not isinstance(meta, dict):
            continue
        command = str(meta.get("command", ""))
        script = next((word for word in command.split() if word.endswith(".py")), "")
        name = target.relative_to(folder).as_posix()
        line = (f"- [{name}]({name}): n {_format_n(meta.get('n'))}, seed {meta.get('seed')}; "
                f"`{command}`")
        groups.setdefault(script, []).append(line)
    parts = [_TITLE]
    for script, lines in sorted(groups.items()):
        title = _script_title(repository / script) if script else "other files"
        parts.append(f"\n## {title}\n\n" + (f"`{script}`\n\n" if script else "")
                     + "\n".join(lines) + "\n")
    return "".join(parts)


def write_results_index(folder, *, repository=None) -> Path:
    """Write `results_index` of ``folder`` to ``folder/README.md``, atomically."""
    return write_bytes(Path(folder) / "README.md",
                       results_index(folder, repository=repository).encode())
