"""Writing results: atomic CSV and PNG files, each with a JSON metadata sidecar.

Every result file ``name.ext`` gets a sidecar ``name.ext.json`` beside it (so
``first_click.csv`` and a ``first_click.png`` never share one) recording how it was
made: seed, n, chunk size, package versions, git revision, wall time, command line
and a UTC timestamp (`collect_metadata`).

Files are written atomically: the content goes to a temporary file in the same
folder, which then replaces the target with `os.replace`. A write that fails leaves
any earlier file untouched and no temporary file behind; a reader never sees a
half-written file.
"""

from __future__ import annotations

import functools
import json
import os
import platform
import shlex
import subprocess
import sys
import tempfile
from collections.abc import Callable
from datetime import UTC, datetime
from importlib import metadata as importlib_metadata
from pathlib import Path

import numpy as np

__all__ = [
    "PACKAGES",
    "collect_metadata",
    "git_revision",
    "package_versions",
    "sidecar_path",
    "write_bytes",
    "write_csv",
    "write_json",
    "write_png",
]

PACKAGES = ("numpy", "scipy", "pandas", "statsmodels", "numba", "matplotlib", "minestats")
_PACKAGE_ROOT = Path(__file__).resolve().parent


def package_versions() -> dict:
    """Versions of Python and of the packages results depend on; None if not installed.

    Examples
    --------
    >>> versions = package_versions()
    >>> list(versions) == ["python", *PACKAGES]
    True
    >>> versions["python"] == platform.python_version()
    True
    """
    versions = {"python": platform.python_version()}
    for name in PACKAGES:
        try:
            versions[name] = importlib_metadata.version(name)
        except importlib_metadata.PackageNotFoundError:
            versions[name] = None
    return versions


def _git(folder: Path, *arguments: str) -> str | None:
    try:
        done = subprocess.run(["git", "-C", str(folder), *arguments], capture_output=True,
                              text=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


@functools.cache
def git_revision(folder=_PACKAGE_ROOT) -> str | None:
    """Return the git commit of ``folder``'s work tree, ``"<sha>-dirty"`` if tracked files changed.

    As ``git describe --dirty``, only changes to tracked files count, and changes
    under ``results/`` do not: they are what a run writes, so one experiment's output
    never marks the next experiment's files dirty. The answer is computed once per
    folder and process.

    Parameters
    ----------
    folder : str or path-like, optional
        Any folder inside the work tree; default the folder of the minestats package.

    Returns
    -------
    str or None
        None outside a git work tree, or if git is missing or fails; never raises.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as outside:
    ...     git_revision(outside) is None
    True
    """
    folder = Path(folder)
    if not folder.is_dir():
        return None
    sha = _git(folder, "rev-parse", "--verify", "HEAD")
    if not sha:
        return None
    # Result files are outputs, not inputs: rewriting them does not make a run dirty.
    changes = _git(folder, "status", "--porcelain", "--untracked-files=no", "--",
                   ":(top)", ":(top,exclude)results")
    if changes is None:
        return None
    return f"{sha}-dirty" if changes else sha


def collect_metadata(*, seed, n, chunk_size, wall_time_s, command=None, extra=None) -> dict:
    """How a result was made: inputs, software, revision, timing; for a sidecar.

    Parameters
    ----------
    seed : int, str, mapping or None
        The run's seed or seed label(s); None for exact (non-random) results.
    n : int, mapping or None
        Trials (boards) per estimate, or a mapping such as ``{rule: n}``.
    chunk_size : int, mapping or None
        Trials per chunk; with ``seed`` and ``n`` it fixes a Monte Carlo result.
    wall_time_s : float
        Seconds the computation took.
    command : str, optional
        The command line; default the interpreter's name and ``sys.argv``, shell-quoted.
    extra : mapping, optional
        Further JSON-serialisable entries (for example the confidence level).

    Returns
    -------
    dict
        Keys ``seed``, ``n``, ``chunk_size``, ``wall_time_s``, ``command``,
        ``timestamp_utc`` (ISO 8601), ``git_revision`` (see `git_revision`) and
        ``versions`` (see `package_versions`), then those of ``extra``.

    Raises
    ------
    ValueError
        If ``wall_time_s`` is negative or ``extra`` reuses a standard key.

    Examples
    --------
    >>> meta = collect_metadata(seed=42, n=1000, chunk_size=500, wall_time_s=0.25,
    ...                         command="python experiments/first_click.py",
    ...                         extra={"confidence_level": 0.95})
    >>> meta["seed"], meta["n"], meta["versions"]["minestats"], meta["confidence_level"]
    (42, 1000, '0.1.0', 0.95)
    >>> meta["timestamp_utc"].endswith("+00:00")
    True
    """
    try:
        wall_time_s = float(wall_time_s)
    except (TypeError, ValueError):
        wall_time_s = float("nan")
    if not wall_time_s >= 0:
        raise ValueError(f"wall_time_s ({wall_time_s!r}) must be a non-negative number")
    record = {
        "seed": seed,
        "n": n,
        "chunk_size": chunk_size,
        "wall_time_s": wall_time_s,
        "command": (shlex.join([Path(sys.executable).name,
                                *map(_relative_to_repository, sys.argv)])
                    if command is None else str(command)),
        "timestamp_utc": datetime.now(UTC).isoformat(timespec="seconds"),
        "git_revision": git_revision(),
        "versions": package_versions(),
    }
    clashes = sorted(set(record) & set(extra or {}))
    if clashes:
        raise ValueError(f"extra metadata keys {clashes} clash with the standard keys")
    record.update(extra or {})
    return record


def _relative_to_repository(argument: str) -> str:
    """Make an absolute path inside the source checkout relative to its root.

    Sidecars then name ``experiments/first_click.py``, not where one machine keeps it.

    Examples
    --------
    >>> _relative_to_repository(str(_PACKAGE_ROOT.parents[1] / "experiments" / "bbbv.py"))
    'experiments/bbbv.py'
    >>> _relative_to_repository("--seed")
    '--seed'
    """
    path = Path(argument)
    if not path.is_absolute():
        return argument
    try:
        return path.resolve().relative_to(_PACKAGE_ROOT.parents[1]).as_posix()
    except ValueError:
        return argument


def sidecar_path(path) -> Path:
    """Return the metadata sidecar of a result file: its name with ``.json`` appended.

    Examples
    --------
    >>> sidecar_path("results/first_click.csv").as_posix()
    'results/first_click.csv.json'
    """
    return Path(f"{os.fspath(path)}.json")


def _atomic_write(path: Path, write: Callable, *, binary: bool) -> Path:
    """Call ``write(handle)`` on a temporary file beside ``path``, then move it into place."""
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.",
                                             suffix=".tmp")
    try:
        with os.fdopen(descriptor, "wb" if binary else "w", **({} if binary else {
                "encoding": "utf-8", "newline": ""})) as handle:
            write(handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, 0o644)  # mkstemp makes files readable by their owner only
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return path


def write_bytes(path, data: bytes) -> Path:
    """Write ``data`` to ``path`` atomically: a failed write leaves an old file untouched.

    Encode the content first, then call this, so that nothing is written when
    encoding fails. No metadata sidecar is written (a board file, for instance).

    Parameters
    ----------
    path : str or path-like
        Target; missing folders are created.
    data : bytes

    Returns
    -------
    pathlib.Path

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     write_bytes(Path(folder) / "b.txt", b"*..").read_text()
    '*..'
    """
    data = bytes(data)
    return _atomic_write(Path(path), lambda handle: handle.write(data), binary=True)


def _json_default(value):
    if isinstance(value, np.integer | np.floating | np.bool_):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, Path):
        return value.as_posix()
    raise TypeError(f"metadata value {value!r} of type {type(value).__name__} is not "
                    f"JSON-serialisable")


def write_json(path, data) -> Path:
    """Write ``data`` as indented JSON, atomically; numpy scalars and arrays are converted.

    Raises
    ------
    ValueError
        If a value cannot be written as JSON; the file is then left untouched.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = write_json(Path(folder) / "a.json", {"n": np.int64(3)})
    ...     json.loads(path.read_text())
    {'n': 3}
    """
    return _write_text(Path(path), _json_text(data))


def _json_text(data) -> str:
    """Encode ``data`` as `write_json` writes it; ValueError if it is not JSON."""
    try:
        return json.dumps(data, indent=2, default=_json_default, allow_nan=False) + "\n"
    except (TypeError, ValueError) as error:
        raise ValueError(str(error)) from None


def _write_text(path: Path, text: str) -> Path:
    return _atomic_write(path, lambda handle: handle.write(text), binary=False)


def _check_suffix(path, suffix: str) -> Path:
    path = Path(path)
    if path.suffix.lower() != suffix:
        raise ValueError(f"path {os.fspath(path)!r} must end in {suffix!r}")
    return path


def write_csv(frame, path, *, metadata) -> Path:
    """Write a DataFrame as CSV (no index) atomically, with its metadata sidecar.

    Parameters
    ----------
    frame : pandas.DataFrame
    path : str or path-like
        Target, ending in ``.csv``; missing folders are created.
    metadata : mapping
        The sidecar content, normally from `collect_metadata`; ``file`` (the
        result's name) is added.

    Returns
    -------
    pathlib.Path
        The path of the CSV file; the sidecar is `sidecar_path` of it.

    Raises
    ------
    ValueError
        If the metadata cannot be written as JSON: nothing is written then.

    Examples
    --------
    >>> import tempfile, pandas as pd
    >>> meta = collect_metadata(seed=1, n=10, chunk_size=10, wall_time_s=0.0)
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = write_csv(pd.DataFrame({"a": [1, 2]}), Path(folder) / "t.csv",
    ...                      metadata=meta)
    ...     print(path.read_text(), end="")
    ...     json.loads(sidecar_path(path).read_text())["file"]
    a
    1
    2
    't.csv'
    """
    path = _check_suffix(path, ".csv")
    sidecar = _json_text({"file": path.name, **metadata})  # checked before any write
    _atomic_write(path, lambda handle: frame.to_csv(handle, index=False), binary=False)
    _write_text(sidecar_path(path), sidecar)
    return path


def write_png(figure, path, *, metadata, dpi=150) -> Path:
    """Save a matplotlib Figure as PNG atomically, with its metadata sidecar.

    Parameters
    ----------
    figure : matplotlib.figure.Figure
    path : str or path-like
        Target, ending in ``.png``; missing folders are created.
    metadata : mapping
        The sidecar content, normally from `collect_metadata`.
    dpi : float, optional
        Resolution, default 150.

    Returns
    -------
    pathlib.Path

    Raises
    ------
    ValueError
        If the metadata cannot be written as JSON: nothing is written then.

    Examples
    --------
    >>> import tempfile
    >>> from matplotlib.figure import Figure
    >>> meta = collect_metadata(seed=None, n=None, chunk_size=None, wall_time_s=0.0)
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = write_png(Figure(figsize=(1, 1)), Path(folder) / "f.png", metadata=meta)
    ...     path.read_bytes()[1:4], sidecar_path(path).exists()
    (b'PNG', True)
    """
    path = _check_suffix(path, ".png")
    sidecar = _json_text({"file": path.name, **metadata})  # checked before any write
    _atomic_write(path, lambda handle: figure.savefig(handle, format="png", dpi=dpi),
                  binary=True)
    _write_text(sidecar_path(path), sidecar)
    return path
