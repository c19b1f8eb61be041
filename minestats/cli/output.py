"""What the command prints and reads: tables, grids, board files, workers.

Tables go to stdout as a readable block, as CSV (``--csv``) or as JSON (``--json``);
progress bars and errors go to stderr, so piped CSV stays clean.
"""

from __future__ import annotations

import contextlib
import errno
import json
import math
import os
import select
import stat
import sys
import textwrap
from pathlib import Path

import numpy as np
import pandas as pd

from minestats.foundations.validation import PATH_LIMIT, quoted
from minestats.io.boards import from_mbf, parse_text
from minestats.runs.chunks import check_workers
from minestats.runs.cluster import SCHEDULER_SECONDS, connect_scheduler

__all__ = ["MAX_INPUT_BYTES", "MAX_TEXT_DIGITS", "TEXT_COLUMNS", "emit_table", "fit_text",
           "fold_frame", "format_count", "format_fraction", "json_records", "print_grid",
           "rate_table", "read_board_file", "read_bytes", "read_text", "use_colour",
           "workers_for"]

FIFO_SECONDS = 10
"""How long an input FIFO may stay silent before the command gives up on its writer."""
MAX_INPUT_BYTES = 16 * 2**20
"""The most bytes an input file may hold (16 MiB, far above any board the library can
solve): a bigger or endless one (``/dev/zero``) is refused, never read whole."""


def _plain(value):
    """Return a table entry as JSON: numpy scalars as Python ones, NaN and inf as null."""
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


TEXT_COLUMNS = 100
"""The width the default text output keeps to; the rest of a table is in --csv/--json."""


def rate_table(frame: pd.DataFrame, estimate: str, *, keep=()) -> pd.DataFrame:
    """Select the columns of rates a person reads: what ran, the estimate, interval and n.

    ``frame`` holds rows of a rate result (``board``, ``rule``, ``click_x``,
    ``click_y``, the ``estimate`` column, ``ci_low``, ``ci_high``,
    ``confidence_level`` and ``n``); ``keep`` names further columns to show after the
    click. Every other column stays for ``--csv`` and ``--json``.

    Examples
    --------
    >>> row = {"board": "9x9/10", "rule": "uniform", "click_x": 4, "click_y": 4,
    ...        "solver": "logic", "pass_rate": 0.94, "ci_low": 0.8752, "ci_high": 0.9722,
    ...        "confidence_level": 0.95, "n": 100}
    >>> print(rate_table(pd.DataFrame([row]), "pass_rate", keep=["solver"]).to_string())
        board     rule click solver pass_rate      95% interval    n
    0  9x9/10  uniform   4,4  logic    0.9400  [0.8752, 0.9722]  100
    """
    shown = frame[["board", "rule"]].copy()
    shown["click"] = [f"{x},{y}" for x, y in zip(frame["click_x"], frame["click_y"],
                                                  strict=True)]
    for column in keep:
        shown[column] = frame[column]
    shown[estimate] = [f"{value:.4f}" for value in frame[estimate]]
    level = frame["confidence_level"].iloc[0]
    shown[f"{level:.0%} interval"] = [f"[{low:.4f}, {high:.4f}]" for low, high in zip(
        frame["ci_low"], frame["ci_high"], strict=True)]
    shown["n"] = frame["n"]
    return shown


def emit_table(frame: pd.DataFrame, args, *, title: str | None = None,
               text: pd.DataFrame | None = None) -> None:
    """Print a table in the format the flags ask for.

    JSON is always a list of row objects (one shape, whatever the row count), with
    every float at full precision (the shortest text that reads back the same). The
    default text output prints ``text`` instead of ``frame`` when it is given (the
    columns a person reads, `rate_table`), folded into `TEXT_COLUMNS` (`fold_frame`).
    """
    if getattr(args, "csv", False):
        frame.to_csv(sys.stdout, index=False)
    elif getattr(args, "json", False):
        print(json.dumps(json_records(frame), indent=2, allow_nan=False))
    else:
        if title:
            print(fit_text(title))
        with pd.option_context("display.max_colwidth", 40):
            print(fold_frame(frame if text is None else text))


def json_records(frame: pd.DataFrame) -> list[dict]:
    """Return a table as JSON's list of row objects: NaN as null, numpy scalars as Python's.

    Examples
    --------
    >>> json_records(pd.DataFrame({"x": [1], "p": [float("nan")]}))
    [{'x': 1, 'p': None}]
    """
    return [{str(key): _plain(value) for key, value in row.items()}
            for row in frame.to_dict(orient="records")]


def format_count(count: int, *, grouped: bool = True) -> str:
    """Format an exact count for a person: thousands separators, or a power of ten.

    Past 15 digits the count is given as a mantissa and a power of ten (a count may
    have more digits than Python prints); below, with thousands separators when
    ``grouped``.

    Examples
    --------
    >>> format_count(123456), format_count(10**40 * 3 + 7)
    ('123,456', 'about 3.000000e+40')
    """
    if count < 10**15:
        return f"{count:,}" if grouped else str(count)
    exponent = int(math.log10(count))
    while 10**exponent > count:  # log10 of a huge int may round up
        exponent -= 1
    mantissa = (count // 10**(exponent - 15)) / 10**15
    return f"about {mantissa:.6f}e+{exponent}"


MAX_TEXT_DIGITS = 4_000
"""The most digits of an exact number written out in full, below Python's limit of 4,300
digits for converting an int to text; longer ones are described by their size."""


def format_fraction(value, *, limit: int = MAX_TEXT_DIGITS) -> str:
    """Write a Fraction as ``p/q``, or past ``limit`` characters say how long it is.

    Examples
    --------
    >>> from fractions import Fraction
    >>> format_fraction(Fraction(2, 3)), format_fraction(Fraction(1, 3**9000))
    ('2/3', 'a fraction of about 1 / 4,295 digits')
    >>> format_fraction(Fraction(10**30, 7), limit=20)
    'a fraction of about 31 / 1 digits'
    """
    digits = [max(1, math.ceil(abs(part).bit_length() * math.log10(2)))
              for part in (value.numerator, value.denominator)]
    if sum(digits) + 1 <= limit:
        return str(value)
    return f"a fraction of about {digits[0]:,} / {digits[1]:,} digits"


def _format_cell(value, fmt: str) -> str:
    """Format one grid value; a float that rounds to zero never prints as ``-0``."""
    text = format(value, fmt)
    if isinstance(value, float | np.floating) and text.startswith("-") and not any(
            digit in "123456789" for digit in text):
        return format(0.0, fmt)
    return text


def use_colour(stream=None) -> bool:
    """Whether to colour what goes to ``stream`` (stdout): only a terminal that takes it.

    Never when ``NO_COLOR`` is set to anything but the empty string
    (https://no-color.org) or ``TERM`` is ``dumb``, nor into a pipe or a file.
    """
    stream = sys.stdout if stream is None else stream
    return (stream.isatty() and not os.environ.get("NO_COLOR")
            and os.environ.get("TERM") != "dumb")


def _painted(texts: np.ndarray, shades, marked) -> np.ndarray:
    """Wrap each cell's text in ANSI colours: its shade's, and reverse video where marked."""
    from minestats.inference.html import probability_colours

    painted = texts.astype(object)
    if shades is not None:
        shades = np.asarray(shades, dtype=float)
        shaded = ~np.isnan(shades)
        for (y, x), (background, colour) in zip(np.argwhere(shaded),
                                                probability_colours(shades[shaded]),
                                                strict=True):
            red, green, blue = (int(background[i:i + 2], 16) for i in (1, 3, 5))
            ink = "30" if colour == "black" else "97"
            painted[y, x] = f"\x1b[{ink};48;2;{red};{green};{blue}m{texts[y, x]}\x1b[0m"
    if marked is not None:
        x, y = marked
        painted[y, x] = f"\x1b[7m{painted[y, x]}\x1b[0m"
    return painted


def print_grid(title: str, grid: np.ndarray, fmt: str, *, shades=None, marked=None) -> None:
    """Print a 2-D array under a title, its column indices above and row indices beside.

    Every cell is formatted by ``fmt`` and right-aligned to one width, at least that
    of the largest column index. A grid too wide for `TEXT_COLUMNS` is printed in
    blocks of columns, each under its own indices; the title is wrapped to it. On a
    terminal that takes colour (`use_colour`), ``shades`` (a probability per cell,
    NaN for none) colours the cells on the scale of
    `minestats.inference.html.PROBABILITY_COLOURS`, and the ``marked`` cell ``(x, y)``
    is shown in reverse video.

    Examples
    --------
    >>> print_grid("a 2x3 grid:", np.array([[0.5, 0.25, 1.0], [0.0, 0.75, 0.125]]), ".2f")
    a 2x3 grid:
         0    1    2
    0 0.50 0.25 1.00
    1 0.00 0.75 0.12
    """
    texts = np.array([[_format_cell(value, fmt) for value in row] for row in grid])
    height, width = texts.shape
    cell = max(len(str(width - 1)), *map(len, texts.ravel()))
    label = len(str(height - 1))
    texts = np.char.rjust(texts, cell)
    shown = _painted(texts, shades, marked) if use_colour() and (
        shades is not None or marked is not None) else texts
    per_block = max(1, (TEXT_COLUMNS - label) // (cell + 1))
    print(textwrap.fill(title, TEXT_COLUMNS))
    for start in range(0, width, per_block):
        columns = range(start, min(width, start + per_block))
        if start:
            print()
        print(" " * label + "".join(f" {x:>{cell}}" for x in columns))
        for y in range(height):
            print(f"{y:>{label}}" + "".join(f" {shown[y, x]}" for x in columns))


def fit_text(text: str, width: int = TEXT_COLUMNS) -> str:
    r"""Wrap every line of prose wider than ``width`` at its spaces, keeping its indent.

    Lines that fit are left as they are; a word longer than ``width`` (a path) is not
    broken. Tables are folded by `fold_frame`, which knows their columns.

    Examples
    --------
    >>> print(fit_text("short\n  an indented line longer than the width", 20))
    short
      an indented line
      longer than the
      width
    """
    folded = []
    for line in text.splitlines():
        indent = line[:len(line) - len(line.lstrip())]
        folded.extend([line] if len(line) <= width else textwrap.wrap(
            line, width, initial_indent="", subsequent_indent=indent,
            break_long_words=False, break_on_hyphens=False))
    return "\n".join(folded) + ("\n" if text.endswith("\n") else "")


def fold_frame(frame: pd.DataFrame, width: int = TEXT_COLUMNS) -> str:
    """Print a table without its index, in blocks of columns at most ``width`` wide.

    As pandas prints a wide frame, but each block is led by the table's first column
    (what the row is), and no cell is cut: a block holds as many of the remaining
    columns, in order, as fit beside it, a blank line between blocks. A single column
    wider than ``width`` still gets a block of its own.

    Examples
    --------
    >>> frame = pd.DataFrame({"board": ["30x16/99", "9x9/10"], "rule": ["winxp", "uniform"],
    ...                       "interval": ["[0.1226, 0.1250]", "[0.2810, 0.2850]"]})
    >>> print(fold_frame(frame, 30))
       board    rule
    30x16/99   winxp
      9x9/10 uniform
    <BLANKLINE>
       board         interval
    30x16/99 [0.1226, 0.1250]
      9x9/10 [0.2810, 0.2850]
    """
    whole = frame.to_string(index=False)
    if frame.shape[1] < 2 or max(map(len, whole.splitlines())) <= width:
        return whole
    spans = [max(map(len, frame.iloc[:, [at]].to_string(index=False).splitlines()))
             for at in range(frame.shape[1])]
    blocks, block, used = [], [], spans[0]
    for at in range(1, frame.shape[1]):
        if block and used + 1 + spans[at] > width:
            blocks.append(block)
            block, used = [], spans[0]
        block.append(at)
        used += 1 + spans[at]
    blocks.append(block)
    return "\n\n".join(frame.iloc[:, [0, *block]].to_string(index=False) for block in blocks)


def read_bytes(name: str) -> tuple[str, bytes]:
    """Return (display name, bytes) of a file, or of stdin for ``-``, at most `MAX_INPUT_BYTES`.

    A FIFO is read like a file, but one that no process writes to is an error after
    `FIFO_SECONDS`; nothing is read past the limit, so an endless input ends in an
    error, not in all of the machine's memory.
    """
    try:
        if name == "-":
            stream = getattr(sys.stdin, "buffer", None)  # None for a text stream in tests
            display = "<stdin>"
            data = (stream.read(MAX_INPUT_BYTES + 1) if stream is not None
                    else sys.stdin.read(MAX_INPUT_BYTES + 1).encode("utf-8"))
        else:
            display = name
            if Path(name).is_dir():
                raise IsADirectoryError(errno.EISDIR, "Is a directory")
            if stat.S_ISFIFO(os.stat(name).st_mode):
                data = _read_fifo(name)
            else:
                with open(name, "rb") as handle:
                    data = handle.read(MAX_INPUT_BYTES + 1)
    except OSError as error:
        raise ValueError(f"cannot read {quoted(name, PATH_LIMIT)}: "
                         f"{getattr(error, 'strerror', None) or error}"
                         ) from None
    if len(data) > MAX_INPUT_BYTES:
        raise ValueError(f"cannot read {quoted(name, PATH_LIMIT)}: more than MAX_INPUT_BYTES = "
                         f"{MAX_INPUT_BYTES:_} bytes")
    return display, data


def _read_fifo(name: str) -> bytes:
    """Read a FIFO to its end, at most one byte past `MAX_INPUT_BYTES`.

    Opened without blocking, so a FIFO that no process writes is an error after
    `FIFO_SECONDS` of silence, not a hang (a blocking open would wait for a writer
    for ever).
    """
    descriptor = os.open(name, os.O_RDONLY | os.O_NONBLOCK)
    try:
        chunks, size = [], 0
        while size <= MAX_INPUT_BYTES:
            ready, _, _ = select.select([descriptor], [], [], FIFO_SECONDS)
            if not ready:
                raise OSError(errno.ETIMEDOUT, f"no process wrote to this FIFO within "
                                               f"{FIFO_SECONDS:g} s")
            chunk = os.read(descriptor, 2**16)
            if not chunk:  # the writer closed it
                break
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks)
    finally:
        os.close(descriptor)


def read_text(name: str) -> tuple[str, str]:
    """Return (display name, text) of a UTF-8 file, or of stdin for ``-``.

    A byte-order mark at the start (as some editors save UTF-8) is dropped; the size is
    bounded as in `read_bytes`.
    """
    display, data = read_bytes(name)
    try:
        return display, data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ValueError(f"cannot read {quoted(name, PATH_LIMIT)}: not UTF-8 text ("
                         f"{error.reason} at byte "
                         f"{error.start})") from None


def read_board_file(name: str) -> np.ndarray:
    """Read a layout from a text grid (``*``/``.``) or, for ``*.mbf``, MBF bytes."""
    try:
        if name.lower().endswith(".mbf"):
            return from_mbf(read_bytes(name)[1])
        return parse_text(read_text(name)[1])
    except ValueError as error:
        message = str(error)
        raise ValueError(message if message.startswith("cannot read") else f"{name}: {message}"
                         ) from None


@contextlib.contextmanager
def workers_for(args):
    """Yield what to pass as ``workers``: a Dask client when a scheduler is named."""
    address = getattr(args, "scheduler", None) or os.environ.get("DASK_SCHEDULER_ADDRESS")
    if not address:
        check_workers(args.workers)  # before any work or progress bar
        yield args.workers
        return
    client = connect_scheduler(address, seconds=SCHEDULER_SECONDS)
    with client:
        yield client
