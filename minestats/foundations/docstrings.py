"""The parameter paragraphs the drivers share, written once.

Every driver (`minestats.simulate_opening`, `minestats.pass_rate`, `minestats.win_rate`,
...) takes ``seed``, ``chunk_size``, ``workers``, ``store`` and ``progress`` with one
meaning. Their paragraphs live here, and a driver's docstring names each by a line that
holds only its placeholder, ``%(seed)s`` say; `shared_parameters` puts the paragraph
in its place, indented as the placeholder was, when the module is imported.

Examples
--------
>>> @shared_parameters(trials="Games", chunk_size=200)
... def run(n, *, seed=None, chunk_size=200):
...     '''Play.
...
...     Parameters
...     ----------
...     n : int
...     %(chunk_size)s
...     '''
>>> print(run.__doc__.splitlines()[6])
        Games per chunk, the unit of resumption and of parallel work (default 200).
"""

from __future__ import annotations

import re

__all__ = ["SHARED_PARAMETERS", "shared_parameters"]

SHARED_PARAMETERS = {
    "seed": """\
seed : int, str, numpy.random.SeedSequence, numpy.random.Generator or None
    Seed of the run (`minestats.foundations.seeds`): the result's ``seed`` records
    the label given, and that label passed back repeats the run. None draws fresh
    entropy, recorded in the result the same way.""",
    "chunk_size": """\
chunk_size : int, optional
    {trials} per chunk, the unit of resumption and of parallel work (default {default:,}).
    The result depends on (seed, n, chunk_size) only, never on the workers.""",
    "workers": """\
workers : int, executor or map-like callable, optional
    ``-1`` every CPU this process may use (default), ``1`` this process, or a pool
    or Dask client; see `minestats.runs.chunks.map_chunks`.""",
    "store": """\
store : str, pathlib.Path or minestats.runs.store.ChunkStore, optional
    Keep finished chunks there, and take those already there: a rerun resumes. A
    path is opened as a store for the run and closed after it.""",
    "progress": """\
progress : bool, optional
    Show a progress bar on stderr.""",
}
"""Each shared parameter's numpydoc paragraph; ``chunk_size`` names its trials and default."""

_PLACEHOLDER = re.compile(r"^( *)%\((\w+)\)s$", re.MULTILINE)


def shared_parameters(*, trials: str, chunk_size: int | None = None):
    """Return a decorator that fills a docstring's placeholders from `SHARED_PARAMETERS`.

    Parameters
    ----------
    trials : str
        What a chunk holds, capitalised (``"Boards"``, ``"Games"``).
    chunk_size : int, optional
        The driver's default chunk size, shown in its ``chunk_size`` paragraph
        (needed only when the docstring has that placeholder).

    Returns
    -------
    callable
        Takes a function and returns it, its ``__doc__`` filled in. A placeholder
        that names no shared parameter raises KeyError at import, so a typo cannot
        reach the documentation.
    """
    def fill(match):
        indent, name = match.groups()
        text = SHARED_PARAMETERS[name]
        if name == "chunk_size":
            if chunk_size is None:
                raise ValueError("the chunk_size paragraph needs the driver's default")
            text = text.format(trials=trials, default=chunk_size)
        return "\n".join(indent + line for line in text.splitlines())

    def decorate(function):
        if function.__doc__:  # None under python -OO
            function.__doc__ = _PLACEHOLDER.sub(fill, function.__doc__)
        return function

    return decorate
