"""How many times each seed stream was read: every committed run, from git's history.

A held-out stream is worth its name only while its numbers have been seen once: a
stream whose tables were rewritten by several versions of the code has been read by
each of them, and a choice made after the first reading is no longer made blind.
`stream_reads` finds every such reading that reached the repository. It walks the git
history of a results folder's table sidecars (``*.csv.json``), and the sidecars in the
folder now, and counts for each seed stream the distinct commits whose code wrote one
of its tables (the sidecar's ``git_revision``). A read that reproduced every number of
the tables before it (a new commit whose player plays the same games) shows nothing new,
so the log also counts each stream's distinct results: the most versions any one of its
tables took, its timing columns set aside. `reads_section` writes that log as Markdown;
the results index (`minestats.reproduction.index`) ends with it.

Runs whose tables were never committed (a development run, a run thrown away) leave
no trace here: the log is a floor on how often a stream was read, not a ceiling.
"""

from __future__ import annotations

import csv
import io
import json
import subprocess
from collections import defaultdict
from pathlib import Path

__all__ = ["reads_section", "stream_reads"]

_GIT_SECONDS = 120
"""Longest a git command may take before the log is left out."""


def _git(repository: Path, *arguments: str, stdin: bytes | None = None) -> bytes | None:
    """Return a git command's output in ``repository``, or None where git cannot answer.

    A `subprocess.Popen` of its own (not `subprocess.run`, which the runner uses to
    start the experiments), killed after `_GIT_SECONDS`.
    """
    try:
        with subprocess.Popen(["git", "-C", str(repository), *arguments],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL) as process:
            try:
                output, _ = process.communicate(stdin, timeout=_GIT_SECONDS)
            except subprocess.TimeoutExpired:
                process.kill()
                return None
    except OSError:
        return None
    return output if process.returncode == 0 else None


def _committed_sidecars(repository: Path, folder: Path) -> list[tuple[str, bytes, bytes]]:
    """Return every version of every table sidecar under ``folder`` in git's history.

    Each as ``(table, sidecar, contents)``: the table's path relative to ``folder``, the
    sidecar's bytes in one commit and the table's bytes in the same commit (empty where
    the commit holds no such table).
    """
    top = _git(repository, "rev-parse", "--show-toplevel")
    if top is None:
        return []
    root = Path(top.decode().strip()).resolve()
    try:
        relative = folder.resolve().relative_to(root).as_posix()
    except ValueError:  # the folder is not in this repository
        return []
    pattern = "*.csv.json" if relative == "." else f"{relative}/*.csv.json"
    log = _git(root, "log", "--format=@%H", "--name-only", "--", pattern)
    if not log:
        return []
    objects, names, commit = [], [], None
    for line in log.decode().splitlines():
        if line.startswith("@"):
            commit = line[1:]
        elif line.strip() and commit:
            sidecar = line.strip()
            objects += [f"{commit}:{sidecar}", f"{commit}:{sidecar.removesuffix('.json')}"]
            name = sidecar.removesuffix(".json")
            names.append(name if relative == "." else name[len(relative) + 1:])
    batch = _git(root, "cat-file", "--batch", stdin="\n".join(objects).encode() + b"\n")
    if batch is None:
        return []
    blobs, position = [], 0
    for _ in objects:  # one answer per object asked, in order; b"" for a missing one
        end = batch.index(b"\n", position)
        header = batch[position:end].split()
        position = end + 1
        if len(header) == 3 and header[1] == b"blob":
            size = int(header[2])
            blobs.append(batch[position:position + size])
            position += size + 1
        else:
            blobs.append(b"")
    return [(name, blobs[2 * i], blobs[2 * i + 1]) for i, name in enumerate(names)]


def _numbers(contents: bytes) -> str:
    """Return a table's numbers as text to compare, its timing columns set aside.

    Timing columns (``seconds...``, ``..._per_second``) differ from run to run of the
    same games; numbers are compared to 9 significant digits, so that a sum taken in
    another order by other code is the same result. Empty for a table that is not CSV.
    """
    try:
        rows = list(csv.reader(io.StringIO(contents.decode())))
    except (UnicodeDecodeError, csv.Error):
        return ""
    if not rows:
        return ""
    kept = [i for i, column in enumerate(rows[0])
            if not (column.startswith("seconds") or column.endswith("_per_second"))]
    return "\n".join(",".join(_rounded(row[i]) if i < len(row) else "" for i in kept)
                     for row in rows)


def _rounded(cell: str) -> str:
    """Return a CSV cell's number to 9 significant digits, or the cell as written."""
    try:
        return format(float(cell), ".9g")
    except ValueError:
        return cell


def stream_reads(folder, *, repository=None) -> list[dict]:
    """Return, for each seed stream, the runs whose tables reached ``folder``'s history.

    A run is a commit whose code wrote a table of the stream (its sidecar's
    ``git_revision``); every version of every table sidecar in the git history of
    ``folder`` counts, and so does every sidecar in the folder now. Sidecars of no
    stream (an exact table, ``seed`` null) are left out.

    Parameters
    ----------
    folder : str or pathlib.Path
        A results folder.
    repository : str or pathlib.Path, optional
        A git checkout holding ``folder`` (default the folder itself: git finds the
        checkout around it). Without git, or outside a checkout, only the sidecars in
        the folder now count.

    Returns
    -------
    list of dict
        One per stream, in the order of their numbers: ``stream``, ``reads`` (the
        distinct revisions), ``results`` (the most distinct versions any one of its
        tables took, timing columns aside: 1 where every read reproduced the same
        numbers), ``revisions`` (their short hashes, oldest first by the sidecars'
        time stamps) and ``tables`` (the file names, sorted).

    Examples
    --------
    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> for name, revision in (("a.csv", "1234567aa"), ("b.csv", "89abcdeff")):
    ...     _ = (folder / f"{name}.json").write_text(json.dumps(
    ...         {"seed": "42/3", "git_revision": revision, "timestamp_utc": revision}))
    >>> [(read["stream"], read["reads"], read["revisions"]) for read in stream_reads(folder)]
    [('42/3', 2, ['1234567', '89abcde'])]
    """
    folder = Path(folder)
    repository = folder if repository is None else Path(repository)
    texts = _committed_sidecars(repository, folder)
    for path in sorted(folder.rglob("*.csv.json")):
        table = path.with_name(path.name.removesuffix(".json"))
        contents = table.read_bytes() if table.is_file() and not table.is_symlink() else b""
        texts.append((path.relative_to(folder).as_posix().removesuffix(".json"),
                      path.read_bytes(), contents))
    runs = defaultdict(dict)
    tables = defaultdict(set)
    versions = defaultdict(lambda: defaultdict(set))
    for table, text, contents in texts:
        try:
            meta = json.loads(text)
        except (UnicodeDecodeError, ValueError):
            continue
        if not isinstance(meta, dict) or meta.get("seed") is None:
            continue
        stream = json.dumps(meta["seed"], sort_keys=True) if isinstance(
            meta["seed"], (dict, list)) else str(meta["seed"])
        revision = str(meta.get("git_revision") or "unknown").removesuffix("-dirty")[:7]
        stamp = str(meta.get("timestamp_utc") or "")
        runs[stream][revision] = min(stamp, runs[stream].get(revision, stamp))
        tables[stream].add(table)
        numbers = _numbers(contents)
        if numbers:
            versions[stream][table].add(numbers)
    return [{"stream": stream, "reads": len(runs[stream]),
             "results": max((len(seen) for seen in versions[stream].values()), default=0),
             "revisions": sorted(runs[stream], key=lambda r: (runs[stream][r], r)),
             "tables": sorted(tables[stream])}
            for stream in sorted(runs, key=_stream_order)]


def _stream_order(stream: str) -> tuple:
    """Sort streams by their numbers: 42/2 before 42/10."""
    return tuple((0, int(part), "") if part.isdigit() else (1, 0, part)
                 for part in stream.split("/"))


def reads_section(folder, *, repository=None) -> str:
    """Return `stream_reads` of ``folder`` as a Markdown section.

    Empty where ``folder`` is in no git checkout (a results folder written outside a
    clone has no history to count), or no stream was read.

    Examples
    --------
    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "a.csv.json").write_text(json.dumps({"seed": "42/3"}))
    >>> reads_section(folder)
    ''
    """
    folder = Path(folder)
    repository = folder if repository is None else Path(repository)
    if _git(repository, "rev-parse", "--show-toplevel") is None:
        return ""
    reads = stream_reads(folder, repository=repository)
    if not reads:
        return ""
    rows = [f"| {read['stream']} | {read['reads']} | {read['results'] or '-'} | "
            f"{', '.join(read['revisions'])} | {', '.join(read['tables'])} |"
            for read in reads]
    return ("\n## How many times each seed stream was read\n\n"
            "Every run whose tables were committed here, from the git history of the "
            "tables' sidecars and the sidecars here now: a stream's reads are the "
            "distinct commits whose code wrote one of its tables, oldest first; its "
            "results, the most distinct versions any one of those tables took (timing "
            "columns aside, numbers to 9 significant digits). A stream read several "
            "times with one result was reproduced, number for number, by later code; "
            "a headline drawn from a stream with more than one result was seen before "
            "it was final. Runs never committed are not known, so these counts are "
            "floors.\n\n"
            "| stream | reads | results | commits that wrote its tables | tables |\n"
            "| :--- | ---: | ---: | :--- | :--- |\n" + "\n".join(rows) + "\n")
