"""What the command prints and reads: tables, grids, board files, workers.

Tables go to stdout as a readable block, as CSV (``--csv``) or as JSON (``--json``);
progress bars and errors go to stderr, so piped CSV stays clean.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from minestats.io.boards import from_mbf, parse_text

__all__ = ["emit_table", "print_grid", "read_board_file", "read_text", "workers_for"]


def _plain(value):
    """Return a table entry as JSON: numpy scalars as Python ones, NaN and inf as null."""
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def emit_table(frame: pd.DataFrame, args, *, title: str | None = None) -> None:
    """Print a table in the format the flags ask for.

    JSON is always a list of row objects (one shape, whatever the row count), with
    every float at full precision (the shortest text that reads back the same).
    """
    if getattr(args, "csv", False):
        frame.to_csv(sys.stdout, index=False)
    elif getattr(args, "json", False):
        records = [{str(key): _plain(value) for key, value in row.items()}
                   for row in frame.to_dict(orient="records")]
        print(json.dumps(records, indent=2, allow_nan=False))
    else:
        if title:
            print(title)
        with pd.option_context("display.width", 200, "display.max_columns", 50,
                               "display.max_colwidth", 40):
            print(frame.to_string(index=False))


def _format_cell(value, fmt: str) -> str:
    """Format one grid value; a float that rounds to zero never prints as ``-0``."""
    text = format(value, fmt)
    if isinstance(value, float | np.floating) and text.startswith("-") and not any(
            digit in "123456789" for digit in text):
        return format(0.0, fmt)
    return text


def print_grid(title: str, grid: np.ndarray, fmt: str) -> None:
    """Print a 2-D array as rows of formatted values under a title."""
    print(title)
    for row in grid:
        print(" ".join(_format_cell(value, fmt) for value in row))


def read_text(name: str) -> tuple[str, str]:
    """Return (display name, text) of a file, or of stdin for ``-``."""
    if name == "-":
        return "<stdin>", sys.stdin.read()
    try:
        return name, Path(name).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(f"cannot read {name!r}: {getattr(error, 'strerror', None) or error}"
                         ) from None


def read_board_file(name: str) -> np.ndarray:
    """Read a layout from a text grid (``*``/``.``) or, for ``*.mbf``, MBF bytes."""
    try:
        if name.lower().endswith(".mbf"):
            return from_mbf(Path(name).read_bytes())
        return parse_text(read_text(name)[1])
    except OSError as error:
        raise ValueError(f"cannot read {name!r}: {error.strerror}") from None
    except ValueError as error:
        raise ValueError(f"{name}: {error}") from None


@contextlib.contextmanager
def workers_for(args):
    """Yield what to pass as ``workers``: a Dask client when a scheduler is named."""
    address = getattr(args, "scheduler", None) or os.environ.get("DASK_SCHEDULER_ADDRESS")
    if not address:
        yield args.workers
        return
    try:
        from distributed import Client
    except ImportError:
        raise ValueError("--scheduler needs dask.distributed: pip install "
                         "'minestats[dask]'") from None
    try:
        client = Client(address, timeout="5s")
    except (OSError, TimeoutError) as error:
        raise ValueError(f"cannot reach the Dask scheduler at {address!r}: {error}") from None
    with client:
        yield client
