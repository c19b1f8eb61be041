r"""Summary tables as a paper prints them: one set of formatting rules, LaTeX and Markdown.

`format_table` turns a result DataFrame (as written to CSV) into cells of text by
these rules:

* **Bookkeeping columns are left out** (`OMITTED_COLUMNS`; the CSV keeps them):
  seeds, chunk sizes, timings, solver limits, ``*_reported`` (p-values already
  formatted as text), and columns another column says: ``width``, ``height``,
  ``mines`` and ``density`` beside ``board`` (``16x16/40``), ``width`` and
  ``height`` beside ``size``, ``click_x`` and ``click_y`` beside ``click``,
  ``first_successes`` and ``second_successes`` beside the paired counts ``both``
  (`IMPLIED_COLUMNS`). A ``confidence_level`` that is one value throughout is
  stated once above the table (`confidence_note`: ``95% intervals``) instead of
  in every row; one that varies stays a column.
* **Intervals.** Every pair of columns ``S_low`` and ``S_high`` is an interval. Its
  estimate is found from the stem ``S`` with a trailing ``ci``, ``wilson``,
  ``profile`` or ``models`` word removed, leaving a prefix ``P``: the first column
  of ``P_rate``, ``P_win_rate``, ``P_share`` and ``P`` (so ``first_ci_low`` goes with
  ``first_rate``, ``pooled_ci_low`` with ``pooled_win_rate``, ``capped_ci_low`` with
  ``capped_share``, ``difference_ci_low``
  with ``difference``, ``published_wilson_low`` with ``published``); a bare
  ``ci_low``/``ci_high`` pair goes with the numeric column just before ``ci_low``
  (``mc``, ``pass_rate``, ``win_rate``, ``share`` ...). The three become one column
  ``estimate [low, high]`` holding ``0.4068 [0.4047, 0.4090]``, at the estimate's
  place. An estimate is used once: a second interval of it (or one without an
  estimate) becomes a column ``[low, high]`` of its own.
* **Decimals of intervals** are chosen per kind of quantity, not per column: the
  kind of an interval is the last word of its estimate's name (``first_rate`` and
  ``second_rate`` are both ``rate``; ``capped_share`` is ``share``;
  ``difference``, ``ed50``), and an interval without an estimate is of the kind of
  the interval before it (``unpaired_ci_*`` after ``difference``,
  ``ed50_profile_*`` after ``ed50``). Every interval of a kind prints to the same
  decimals, at least 4 and at most 6, so that its narrowest interval shows two
  significant digits of its width.
* **p-values**: a numeric column one of whose underscore-separated words is ``p``
  (`is_p_value_column`: ``p_value``, ``p_holm``, ``mcnemar_p``, ``exact_p``,
  ``gof_p``, ``logit_gof_p``, ``lrt_p``, ``min_p_value``; not ``tries_p95``)
  prints by `minestats.stats.format_p_value`: ``< 1e-10`` below
  `minestats.stats.P_VALUE_FLOOR`, otherwise three significant digits.
* **Counts** (integer columns, and float columns whose values are all whole
  numbers): thousands separators, ``200,000`` (`format_count`).
* **Other numbers**: four significant digits; **booleans**: ``yes``/``no``;
  **missing values** (NaN, None): an en dash, ``–``.

`latex_table` writes the cells as a booktabs ``tabular`` (``\toprule``,
``\midrule``, ``\bottomrule``; numbers right-aligned, text escaped), to be
``\input`` inside a write-up's own ``table`` environment with its caption; the
confidence level, when stated once, is a first comment line ``% 95% intervals``
for that caption. `markdown_table` writes a pipe table, the confidence level as a
line above it. Neither needs jinja2 or pandas' Styler.
`minestats.io.result_files.write_csv` writes both beside a summary CSV.
"""

from __future__ import annotations

import fnmatch
import math
from numbers import Integral, Real

import numpy as np
import pandas as pd

from minestats.stats import format_p_value

__all__ = [
    "IMPLIED_COLUMNS",
    "MISSING",
    "OMITTED_COLUMNS",
    "confidence_note",
    "escape_latex",
    "format_count",
    "format_interval",
    "format_table",
    "is_p_value_column",
    "latex_table",
    "markdown_table",
    "printed_columns",
]

MISSING = "\N{EN DASH}"
"""What a missing value (NaN, None) prints as."""

OMITTED_COLUMNS = (
    "seed", "seeds", "reference_seed", "chunk_size", "seconds_per_game", "wall_time_s",
    "outcome", "max_configurations", "max_tries", "timeout", "patience", "*_reported",
)
"""Bookkeeping columns (shell patterns) a printed table leaves out and the CSV keeps.

Seeds and chunk sizes are in every sidecar and the results index; timings per board
describe the machine, not the game; ``outcome`` names what a paired table counts
(``passed``), ``max_configurations``, ``max_tries``, ``timeout`` and ``patience``
are the solver's and generator's limits; ``*_reported`` are p-values already
formatted as text, duplicates of the numeric p-value columns.
"""

IMPLIED_COLUMNS = {
    "width": ("board", "size"), "height": ("board", "size"), "mines": ("board",),
    "density": ("board",), "click_x": ("click",), "click_y": ("click",),
    "first_successes": ("both",), "second_successes": ("both",),
}
"""Columns a printed table leaves out when one of the columns named beside it is there.

``board`` (``16x16/40``) says width, height, mines and so density; ``size``
(``16x16``) says width and height; ``click`` (``centre``) says the click's cell; the
paired counts ``both`` and ``first_only`` say ``first_successes``.
"""

_CONFIDENCE_LEVEL = "confidence_level"
_INTERVAL_WORDS = ("ci", "wilson", "profile", "models")
_LATEX_SPECIALS = str.maketrans({
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
    "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
    "<": r"\textless{}", ">": r"\textgreater{}", MISSING: "--",
})


def _missing(value) -> bool:
    return value is None or (not isinstance(value, str) and bool(pd.isna(value)))


def is_p_value_column(name) -> bool:
    """Whether a column named ``name`` holds p-values: one of its ``_`` words is ``p``.

    Examples
    --------
    >>> names = ["p_value", "p_holm", "mcnemar_p", "logit_gof_p", "min_p_value", "p",
    ...          "tries_p95", "pass_rate", "p_reported"]
    >>> [name for name in names if is_p_value_column(name)]
    ['p_value', 'p_holm', 'mcnemar_p', 'logit_gof_p', 'min_p_value', 'p', 'p_reported']

    (``p_reported`` is text, and a bookkeeping column: `OMITTED_COLUMNS`.)
    """
    return "p" in str(name).split("_")


def printed_columns(frame) -> list[str]:
    """Return the columns of ``frame`` a printed table shows, in order.

    All but `OMITTED_COLUMNS`, `IMPLIED_COLUMNS` whose saying column is there, and a
    ``confidence_level`` that is one value throughout (`confidence_note` states it).

    Examples
    --------
    >>> frame = pd.DataFrame({"board": ["9x9/10"], "width": [9], "mines": [10],
    ...                       "rate": [0.5], "confidence_level": [0.95], "seed": ["42/3"],
    ...                       "p_reported": ["0.5"], "click_x": [4]})
    >>> printed_columns(frame)
    ['board', 'rate', 'click_x']
    """
    names = [str(column) for column in frame.columns]
    present = set(names)

    def shown(name):
        if any(fnmatch.fnmatchcase(name, pattern) for pattern in OMITTED_COLUMNS):
            return False
        if present.intersection(IMPLIED_COLUMNS.get(name, ())):
            return False
        return name != _CONFIDENCE_LEVEL or confidence_note(frame) is None

    return [name for name in names if shown(name)]


def confidence_note(frame) -> str | None:
    """``'95% intervals'`` if ``frame`` has one confidence level throughout, else None.

    Examples
    --------
    >>> confidence_note(pd.DataFrame({"confidence_level": [0.95, 0.95]}))
    '95% intervals'
    >>> confidence_note(pd.DataFrame({"confidence_level": [0.95, 0.99]})) is None
    True
    """
    if _CONFIDENCE_LEVEL not in frame.columns:
        return None
    levels = frame[_CONFIDENCE_LEVEL].dropna().unique()
    if len(levels) != 1 or not isinstance(levels[0], Real):
        return None
    return f"{100 * float(levels[0]):g}% intervals"


def format_count(value) -> str:
    """Format a whole number with thousands separators.

    Examples
    --------
    >>> format_count(200000), format_count(1987.0), format_count(-3), format_count(None)
    ('200,000', '1,987', '-3', '–')
    """
    return MISSING if _missing(value) else f"{int(value):,}"


def _number(value) -> str:
    """Four significant digits; whole numbers from 10,000 up with separators."""
    if _missing(value):
        return MISSING
    if abs(value) >= 1e4 and math.isfinite(value):
        return f"{value:,.0f}"
    return f"{value:.4g}"


def format_interval(estimate, low, high, *, digits=4) -> str:
    """Format an estimate and its interval as ``0.4068 [0.4047, 0.4090]``.

    Parameters
    ----------
    estimate : float or None
        None leaves the estimate out: ``[0.4047, 0.4090]``; NaN prints as an en dash.
    low, high : float
        Interval bounds; a missing bound prints as an en dash, and a row with
        nothing at all as a single en dash.
    digits : int, optional
        Decimals, default 4.

    Examples
    --------
    >>> format_interval(0.40683, 0.40471, 0.40902)
    '0.4068 [0.4047, 0.4090]'
    >>> format_interval(None, -0.1735, -0.1493)
    '[-0.1735, -0.1493]'
    >>> format_interval(0.1328, float("nan"), 0.1333, digits=3)
    '0.133 [–, 0.133]'
    >>> format_interval(float("nan"), float("nan"), None)
    '–'
    """
    def fixed(value):
        return MISSING if _missing(value) else f"{value:.{digits}f}"

    values = (low, high) if estimate is None else (estimate, low, high)
    if all(_missing(value) for value in values):
        return MISSING
    interval = f"[{fixed(low)}, {fixed(high)}]"
    return interval if estimate is None else f"{fixed(estimate)} {interval}"


def _interval_digits(frame: pd.DataFrame, intervals) -> int:
    """Decimals (4 to 6) that show two significant digits of the narrowest width.

    ``intervals`` are ``(low, high)`` column pairs of ``frame``, all printed alike.
    """
    widths = np.concatenate([(frame[high].astype(float) - frame[low].astype(float)).to_numpy()
                             for low, high in intervals])
    widths = widths[np.isfinite(widths) & (widths > 0)]
    if widths.size == 0:
        return 4
    return int(np.clip(math.ceil(-math.log10(widths.min())) + 1, 4, 6))


def _numeric(series: pd.Series) -> bool:
    return pd.api.types.is_numeric_dtype(series) and not pd.api.types.is_bool_dtype(series)


def _intervals(frame: pd.DataFrame) -> dict[str, tuple[str | None, str, str]]:
    """Map the first column of each interval to ``(estimate or None, low, high)``."""
    columns = [str(column) for column in frame.columns]
    used: set[str] = set()
    found = {}
    for position, low in enumerate(columns):
        stem = low.removesuffix("_low")
        high = f"{stem}_high"
        if stem in ("", low) or high not in columns:
            continue
        prefix = stem
        for word in _INTERVAL_WORDS:
            if prefix == word or prefix.endswith(f"_{word}"):
                prefix = prefix.removesuffix(word).removesuffix("_")
                break
        if prefix:
            candidates = [f"{prefix}_rate", f"{prefix}_win_rate", f"{prefix}_share", prefix]
        else:
            candidates = columns[position - 1:position] if position else []
        estimate = next((name for name in candidates if name in columns and name not in used
                         and not name.endswith(("_low", "_high")) and _numeric(frame[name])),
                        None)
        if estimate is not None:
            used.add(estimate)
        found[estimate if estimate is not None else low] = (estimate, low, high)
    return found


def _cell(value) -> str:
    """Format one value by its own type (for columns of mixed or object type)."""
    if _missing(value):
        return MISSING
    if isinstance(value, bool | np.bool_):
        return "yes" if value else "no"
    if isinstance(value, Integral):
        return format_count(value)
    if isinstance(value, Real):
        return _number(float(value))
    return str(value)


def _format_column(name: str, series: pd.Series) -> list[str]:
    if is_p_value_column(name) and _numeric(series):
        return [MISSING if _missing(value) else format_p_value(value) for value in series]
    if pd.api.types.is_float_dtype(series):
        values = series.dropna().to_numpy()
        if values.size and np.all(np.isfinite(values)) and np.all(values == np.round(values)):
            return [format_count(value) for value in series]
    return [_cell(value) for value in series]


def _layout(frame: pd.DataFrame) -> list[tuple[str, list[str], bool]]:
    """Return ``(header, cells, numeric)`` per output column: the rules of the module."""
    frame = frame.rename(columns=str)
    frame = frame[printed_columns(frame)]
    intervals = _intervals(frame)
    merged = {name for _, low, high in intervals.values() for name in (low, high)}
    kinds: dict[str, str] = {}  # first column of each interval -> its kind of quantity
    for first, (estimate, _, _) in intervals.items():
        kinds[first] = estimate.rsplit("_", 1)[-1] if estimate else next(
            reversed(kinds.values()), first)
    digits_of = {kind: _interval_digits(frame, [intervals[first][1:] for first in kinds
                                                if kinds[first] == kind])
                 for kind in set(kinds.values())}
    columns = []
    for name in frame.columns:
        if name in intervals:
            estimate, low, high = intervals[name]
            digits = digits_of[kinds[name]]
            lows, highs = frame[low].tolist(), frame[high].tolist()
            estimates = frame[estimate].tolist() if estimate else [None] * len(frame)
            header = f"{estimate} [{low}, {high}]" if estimate else f"[{low}, {high}]"
            columns.append((header, [format_interval(*values, digits=digits) for values
                                     in zip(estimates, lows, highs, strict=True)], True))
        elif name not in merged:
            columns.append((name, _format_column(name, frame[name]), _numeric(frame[name])))
    return columns


def format_table(frame) -> pd.DataFrame:
    """Return ``frame`` with every cell formatted as text, by the rules of the module.

    Parameters
    ----------
    frame : pandas.DataFrame
        A result table, as written to CSV.

    Returns
    -------
    pandas.DataFrame
        Strings only; intervals merged into one column with their estimate.

    Examples
    --------
    >>> frame = pd.DataFrame({"board": ["9x9/10"], "mc": [0.40683], "ci_low": [0.40471],
    ...                       "ci_high": [0.40902], "n": [200000], "p_value": [3e-12],
    ...                       "holm_reject": [True], "published": [float("nan")]})
    >>> format_table(frame).iloc[0].tolist()
    ['9x9/10', '0.4068 [0.4047, 0.4090]', '200,000', '< 1e-10', 'yes', '–']
    >>> list(format_table(frame).columns)[1]
    'mc [ci_low, ci_high]'
    """
    layout = _layout(frame)
    return pd.DataFrame({header: cells for header, cells, _ in layout},
                        index=range(len(frame)), dtype=object)


def escape_latex(text: str) -> str:
    r"""Escape LaTeX's special characters in ``text`` (the en dash becomes ``--``).

    Examples
    --------
    >>> print(escape_latex("pass_rate & 5% < 1e-10 – #1 {x}"))
    pass\_rate \& 5\% \textless{} 1e-10 -- \#1 \{x\}
    """
    return str(text).translate(_LATEX_SPECIALS)


def latex_table(frame) -> str:
    r"""Return ``frame``, formatted by `format_table`, as a booktabs ``tabular``.

    Numeric columns are right-aligned, text columns left-aligned; every header and
    cell is escaped (`escape_latex`). Put it in a ``table`` environment with
    ``\usepackage{booktabs}`` in the preamble. A confidence level stated once
    (`confidence_note`) is a comment line first, ``% 95% intervals``, for the caption.

    Examples
    --------
    >>> frame = pd.DataFrame({"rule": ["safe_click"], "win_rate": [0.5],
    ...                       "ci_low": [0.45], "ci_high": [0.55], "confidence_level": [0.95]})
    >>> print(latex_table(frame), end="")
    % 95% intervals
    \begin{tabular}{lr}
    \toprule
    rule & win\_rate [ci\_low, ci\_high] \\
    \midrule
    safe\_click & 0.5000 [0.4500, 0.5500] \\
    \bottomrule
    \end{tabular}
    """
    layout = _layout(frame)

    def row(cells):
        return " & ".join(escape_latex(cell) for cell in cells) + r" \\"

    note = confidence_note(frame)
    align = "".join("r" if numeric else "l" for *_, numeric in layout)
    lines = [*([f"% {note}"] if note else []), r"\begin{tabular}{" + align + "}",
             r"\toprule", row(header for header, _, _ in layout), r"\midrule",
             *(row(cells) for cells in zip(*(cells for _, cells, _ in layout), strict=True)),
             r"\bottomrule", r"\end{tabular}"]
    return "\n".join(lines) + "\n"


def markdown_table(frame) -> str:
    """Return ``frame``, formatted by `format_table`, as a Markdown pipe table.

    Numeric columns are right-aligned; ``|`` in a cell is escaped. A confidence level
    stated once (`confidence_note`) is a line of its own above the table.

    Examples
    --------
    >>> frame = pd.DataFrame({"rule": ["uniform", "winxp"], "n": [1000, 20000]})
    >>> print(markdown_table(frame), end="")
    | rule | n |
    | :--- | ---: |
    | uniform | 1,000 |
    | winxp | 20,000 |
    """
    layout = _layout(frame)

    def row(cells):
        return "| " + " | ".join(str(cell).replace("|", r"\|") for cell in cells) + " |"

    note = confidence_note(frame)
    lines = [*([note, ""] if note else []), row(header for header, _, _ in layout),
             row("---:" if numeric else ":---" for *_, numeric in layout),
             *(row(cells) for cells in zip(*(cells for _, cells, _ in layout), strict=True))]
    return "\n".join(lines) + "\n"
