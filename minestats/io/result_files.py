"""Writing results: atomic tables and figures with their twins, each with a JSON sidecar.

Every result file ``name.ext`` gets a sidecar ``name.ext.json`` beside it (so
``first_click.csv`` and a ``first_click.png`` never share one) recording how it was
made: seed, n, chunk size, package versions, git revision, wall time, command line
and a UTC timestamp (`collect_metadata`).

Twins are the same result in another format, written in the same call: every figure
as PNG and PDF (`write_figure`), every summary table as CSV, LaTeX and Markdown
(`write_csv` with ``summary=True``, formatted by `minestats.io.tables`). A twin's
sidecar names the file it is a twin of in ``twin_of``; the results index
(`minestats.reproduction.index`) lists them on one line.

Every file is written atomically: its content is encoded in memory first, then
goes to a temporary file in the same folder (written and flushed to disk), which
replaces the target by `os.replace`, a rename; a reader never sees a half-written
file. The files of one call (a result, its twins, their sidecars) are all encoded
and staged before any of them replaces its target: a failure while encoding or
writing changes none of them and leaves no temporary file behind. The renames that
follow are atomic one by one, not together: should one fail (a full disk cannot
make it fail; a permissions change or a vanished folder could), the targets renamed
before it are already new and the rest still old.
"""

from __future__ import annotations

import errno
import functools
import json
import os
import platform
import shlex
import stat
import subprocess
import sys
import tempfile
from datetime import UTC, datetime
from importlib import metadata as importlib_metadata
from pathlib import Path

import numpy as np

__all__ = [
    "FIGURE_TWIN",
    "PACKAGES",
    "TABLE_TWINS",
    "collect_metadata",
    "git_revision",
    "package_versions",
    "sidecar_path",
    "write_bytes",
    "write_csv",
    "write_figure",
    "write_json",
    "write_with_sidecar",
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


# The revision of the code this process runs is the one checked out when it started: pin
# it now, at import, before any computation, so that a commit or an edit made while a
# long run computes does not end up in the sidecars of numbers the older code computed.
git_revision()


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
        The command line; default the interpreter's name and ``sys.argv``, shell-quoted,
        with a module of this package run by ``python -m`` named as such
        (``python -m minestats.experiments.bbbv --n 1000``).
    extra : mapping, optional
        Further JSON-serialisable entries (for example the confidence level).

    Returns
    -------
    dict
        Keys ``seed``, ``n``, ``chunk_size``, ``wall_time_s``, ``command``,
        ``timestamp_utc`` (ISO 8601), ``git_revision`` (see `git_revision`: the
        revision when this module was imported, at the start of the run, with
        ``-dirty`` if tracked files had changed) and ``versions`` (see
        `package_versions`), then those of ``extra``.

    Raises
    ------
    ValueError
        If ``wall_time_s`` is negative or ``extra`` reuses a standard key.

    Examples
    --------
    >>> meta = collect_metadata(seed=42, n=1000, chunk_size=500, wall_time_s=0.25,
    ...                         command="python -m minestats.experiments.first_click",
    ...                         extra={"confidence_level": 0.95})
    >>> meta["seed"], meta["n"], meta["confidence_level"]
    (42, 1000, 0.95)
    >>> import minestats
    >>> meta["versions"]["minestats"] == minestats.__version__
    True
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
        "command": (shlex.join([Path(sys.executable).name, *_command_words(sys.argv)])
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


def _command_words(argv: list[str]) -> list[str]:
    """Return ``argv`` as a sidecar records it: a module of this package as ``-m MODULE``.

    ``python -m minestats.experiments.bbbv`` leaves the module's file in ``sys.argv[0]``;
    named as a module, the recorded command runs wherever the package is installed.
    Other paths are made relative to the checkout (`_relative_to_repository`).

    Examples
    --------
    >>> _command_words([str(_PACKAGE_ROOT.parent / "experiments" / "bbbv.py"), "--n", "9"])
    ['-m', 'minestats.experiments.bbbv', '--n', '9']
    >>> _command_words(["-c"]), _command_words([])
    (['-c'], [])
    """
    words = [_relative_to_repository(argument) for argument in argv]
    if argv and argv[0].endswith(".py") and Path(argv[0]).is_absolute():
        try:
            module = Path(argv[0]).resolve().relative_to(_PACKAGE_ROOT.parent)
        except ValueError:
            return words
        words[:1] = ["-m", ".".join(("minestats", *module.with_suffix("").parts))]
    return words


def _relative_to_repository(argument: str) -> str:
    """Make an absolute path inside the source checkout relative to its root.

    Sidecars then name ``benchmarks/bench_bbbv.py``, not where one machine keeps it.

    Examples
    --------
    >>> _relative_to_repository(str(_PACKAGE_ROOT.parents[1] / "benchmarks" / "bench_bbbv.py"))
    'benchmarks/bench_bbbv.py'
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


def _target(path: Path) -> tuple[Path, bool]:
    """Return where a write to ``path`` lands, and whether it must write through.

    A symlink is followed to the file it names, so the link stays and its target is
    written. A regular file, or none yet, is replaced atomically; anything else that
    exists (a device such as ``/dev/null``, a FIFO, a socket) is written through,
    never replaced. A folder is refused.
    """
    real = Path(os.path.realpath(path))
    try:
        mode = os.stat(real).st_mode
    except FileNotFoundError:
        return real, False
    if stat.S_ISDIR(mode):
        raise IsADirectoryError(errno.EISDIR, "Is a directory", os.fspath(path))
    return real, not stat.S_ISREG(mode)


def _write_through(path: Path, data: bytes) -> None:
    """Write into a device or FIFO as it is; a FIFO nobody reads is an error, not a hang."""
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
    except OSError as error:
        if error.errno == errno.ENXIO:  # a FIFO with no reader
            raise OSError(errno.ENXIO, "no process is reading this FIFO",
                          os.fspath(path)) from None
        raise
    try:
        os.set_blocking(descriptor, True)
        view = memoryview(data)
        while view:
            view = view[os.write(descriptor, view):]
    finally:
        os.close(descriptor)


def _umask() -> int:
    """Return this process's umask without changing it for other threads, where Linux says."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)  # elsewhere: read it by setting it, and put it back at once
    os.umask(mask)
    return mask


def _mode_for(target: Path) -> int:
    """Return the mode a written file gets: an existing file's own, else what the umask leaves.

    Examples
    --------
    >>> import tempfile
    >>> mine = Path(tempfile.mkdtemp()) / "private.csv"
    >>> _ = mine.write_text("x"); mine.chmod(0o600)
    >>> oct(_mode_for(mine))
    '0o600'
    >>> _mode_for(mine.with_name("new.csv")) == 0o666 & ~_umask()
    True
    """
    try:
        return stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        return 0o666 & ~_umask()


def _write_all(contents: dict[Path, bytes]) -> None:
    """Write several files, each atomically, all staged before any replaces its target.

    Every file goes to a temporary file beside its target first; only when all are
    written and flushed do they replace their targets (`os.replace`, a rename within
    one folder). A failure before that point leaves every target untouched and no
    temporary file behind. The renames are atomic each, not together: a rename that
    fails leaves the targets renamed before it new, the rest old. A symlink is
    followed (its target is replaced, the link kept), and a target that is not a
    regular file (a device, a FIFO) is written through last, never replaced, and gets
    no sidecar beside it (``/dev/stdout.json`` would be a new file in ``/dev``). A new
    file gets the mode the umask leaves; a replaced file keeps its own (`_mode_for`).
    """
    targets = {path: _target(path) for path in contents}
    through = {path for path, (_, direct) in targets.items() if direct}
    skipped = {sidecar_path(path) for path in through}
    staged: list[tuple[str, Path]] = []
    try:
        for path, data in contents.items():
            real, direct = targets[path]
            if direct or path in skipped:
                continue
            real.parent.mkdir(parents=True, exist_ok=True)
            descriptor, temporary = tempfile.mkstemp(dir=real.parent, prefix=f".{real.name}.",
                                                     suffix=".tmp")
            staged.append((temporary, real))
            with os.fdopen(descriptor, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(temporary, _mode_for(real))  # mkstemp makes files 0600
        for temporary, real in staged:
            os.replace(temporary, real)
    except BaseException:
        for temporary, _ in staged:
            Path(temporary).unlink(missing_ok=True)
        raise
    for path in through:
        _write_through(targets[path][0], contents[path])


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
    if not os.fspath(path):  # Path("") would be the current folder
        raise FileNotFoundError(errno.ENOENT, "an empty name names no file", "")
    path = Path(path)
    _write_all({path: bytes(data)})
    return path


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
    return write_bytes(path, _json_text(data).encode())


def _json_text(data) -> str:
    """Encode ``data`` as `write_json` writes it; ValueError if it is not JSON."""
    try:
        return json.dumps(data, indent=2, default=_json_default, allow_nan=False) + "\n"
    except (TypeError, ValueError) as error:
        raise ValueError(str(error)) from None


def _check_suffix(path, suffix: str) -> Path:
    path = Path(path)
    if path.suffix.lower() != suffix:
        raise ValueError(f"path {os.fspath(path)!r} must end in {suffix!r}")
    return path


def _with_sidecars(files: dict[Path, bytes], metadata) -> dict[Path, bytes]:
    """Add each file's sidecar to ``files``; twins name the first file in ``twin_of``.

    Raises ValueError (before anything is written) if the metadata is not JSON.
    """
    primary, *twins = files
    everything = dict(files)
    for path in files:
        record = {"file": path.name, **({"twin_of": primary.name} if path in twins else {})}
        everything[sidecar_path(path)] = _json_text({**record, **metadata}).encode()
    return everything


def write_with_sidecar(path, data: bytes, *, metadata, twins=None) -> Path:
    """Write ``data`` to ``path`` with its metadata sidecar, all or nothing, atomically.

    For a result that is already encoded, such as a rendered page.

    Parameters
    ----------
    path : str or path-like
        Target; missing folders are created.
    data : bytes
    metadata : mapping
        The sidecar content, normally from `collect_metadata`; ``file`` (the
        result's name) is added.
    twins : mapping of path-like to bytes, optional
        The same result in other formats, written in the same call, each with a
        sidecar that names ``path`` in ``twin_of`` (a rendered notebook's executed
        ``.ipynb``, for instance).

    Returns
    -------
    pathlib.Path
        ``path``.

    Raises
    ------
    ValueError
        If a twin has the path of the result, or the metadata is not JSON: nothing
        is written then.

    Examples
    --------
    >>> import tempfile
    >>> meta = collect_metadata(seed=None, n=None, chunk_size=None, wall_time_s=0.0)
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     page = write_with_sidecar(Path(folder) / "p.html", b"<p>hi</p>", metadata=meta,
    ...                               twins={Path(folder) / "p.txt": b"hi"})
    ...     page.read_bytes(), json.loads(sidecar_path(page).read_text())["file"]
    ...     json.loads((Path(folder) / "p.txt.json").read_text())["twin_of"]
    (b'<p>hi</p>', 'p.html')
    'p.html'
    """
    path = Path(path)
    twins = {Path(twin): bytes(content) for twin, content in (twins or {}).items()}
    if path in twins:
        raise ValueError(f"a twin of {os.fspath(path)!r} cannot be written to the same path")
    _write_all(_with_sidecars({path: bytes(data), **twins}, metadata))
    return path


TABLE_TWINS = (".tex", ".md")
"""Suffixes of the twins `write_csv` writes beside a summary table: LaTeX, Markdown."""
FIGURE_TWIN = ".pdf"
"""Suffix of the vector twin `write_figure` writes beside every PNG."""


def _columns(frame, names):
    """``frame`` cut to the columns ``names``; ValueError naming any it lacks."""
    names = list(names)
    missing = [name for name in names if name not in frame.columns]
    if missing or not names:
        raise ValueError(f"summary columns {missing or names} are not columns of the table")
    return frame[names]


def write_csv(frame, path, *, metadata, summary=False) -> Path:
    """Write a DataFrame as CSV (no index) atomically, with its metadata sidecar.

    A summary table (what a write-up prints) also gets its LaTeX (booktabs) and
    Markdown twins, ``name.tex`` and ``name.md``, formatted from the same frame by
    `minestats.io.tables` (which leaves bookkeeping columns such as seeds out of them;
    the CSV keeps every column), each with its own sidecar (which names the CSV in
    ``twin_of``). All files are encoded and staged before any replaces its target: a
    failure while encoding or writing leaves none of them changed.

    Parameters
    ----------
    frame : pandas.DataFrame
    path : str or path-like
        Target, ending in ``.csv``; missing folders are created.
    metadata : mapping
        The sidecar content, normally from `collect_metadata`; ``file`` (the
        result's name) is added.
    summary : bool or sequence of str, optional
        Also write the ``.tex`` and ``.md`` twins (default False: raw data, such as
        a per-cell map or a histogram, stays CSV only). True prints every column
        but the bookkeeping ones (`minestats.io.tables.printed_columns`); a sequence
        of column names prints only those, in that order (with an interval, name its
        estimate and both bounds), for a table whose CSV keeps more than a page holds.

    Returns
    -------
    pathlib.Path
        The path of the CSV file; the sidecar is `sidecar_path` of it, the twins
        are it with the suffixes `TABLE_TWINS`.

    Raises
    ------
    ValueError
        If the metadata cannot be written as JSON, or ``summary`` names a column the
        frame lacks: nothing is written then.

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
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = write_csv(pd.DataFrame({"n": [1000]}), Path(folder) / "t.csv",
    ...                      metadata=meta, summary=True)
    ...     sorted(file.name for file in path.parent.iterdir())
    ['t.csv', 't.csv.json', 't.md', 't.md.json', 't.tex', 't.tex.json']
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = write_csv(pd.DataFrame({"n": [1000], "note": ["x"]}), Path(folder) / "t.csv",
    ...                      metadata=meta, summary=["n"])
    ...     print(path.with_suffix(".md").read_text(), end="")
    | n |
    | ---: |
    | 1,000 |
    """
    from minestats.io.tables import latex_table, markdown_table

    path = _check_suffix(path, ".csv")
    files = {path: frame.to_csv(index=False).encode()}
    if summary is not False:
        printed = frame if summary is True else _columns(frame, summary)
        for suffix, encode in zip(TABLE_TWINS, (latex_table, markdown_table), strict=True):
            files[path.with_suffix(suffix)] = encode(printed).encode()
    _write_all(_with_sidecars(files, metadata))
    return path


def write_figure(figure, path, *, metadata, dpi=150) -> tuple[Path, Path]:
    r"""Save a matplotlib Figure as PNG and as PDF, atomically, each with its sidecar.

    The PDF is the vector twin a write-up includes (``\includegraphics`` takes it
    directly, where SVG needs a converter); fonts are embedded as TrueType
    (``pdf.fonttype`` 42), so text stays text, and no creation date is written, so
    an unchanged figure gives an unchanged file. Both images are rendered to memory
    and staged before either replaces its target: a failure while rendering or
    writing leaves neither changed.

    Parameters
    ----------
    figure : matplotlib.figure.Figure
    path : str or path-like
        The PNG's path, ending in ``.png``; the PDF is the same path with the
        suffix `FIGURE_TWIN`. Missing folders are created.
    metadata : mapping
        The sidecar content, normally from `collect_metadata`; the PDF's sidecar
        names the PNG in ``twin_of``.
    dpi : float, optional
        Resolution of the PNG, default 150.

    Returns
    -------
    tuple of pathlib.Path
        The PNG and the PDF.

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
    ...     png, pdf = write_figure(Figure(figsize=(1, 1)), Path(folder) / "f.png",
    ...                             metadata=meta)
    ...     png.read_bytes()[1:4], pdf.read_bytes()[:4], sidecar_path(pdf).exists()
    (b'PNG', b'%PDF', True)
    """
    import io

    import matplotlib

    path = _check_suffix(path, ".png")
    twin = path.with_suffix(FIGURE_TWIN)
    images = {}
    for target, options in ((path, {"format": "png", "dpi": dpi}),
                            (twin, {"format": "pdf", "metadata": {"CreationDate": None}})):
        buffer = io.BytesIO()
        with matplotlib.rc_context({"pdf.fonttype": 42}):
            figure.savefig(buffer, **options)
        images[target] = buffer.getvalue()
    _write_all(_with_sidecars(images, metadata))
    return path, twin
