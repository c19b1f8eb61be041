"""The one protocol of result objects: equality that holds arrays and leaves out timings.

Every result of the package (a simulation, a pass rate, a win rate, a comparison, a
solved board, a reconstruction...) is a frozen dataclass deriving from `Result`,
declared with ``eq=False`` so that the dataclass keeps this base's methods:

- two results are equal when they are of the same class and every field is equal:
  arrays element by element (NaN equal to NaN), containers item by item; timing
  fields (`TIMING_FIELDS`: the CPU seconds a run spent) and fields declared with
  ``compare=False`` are left out, so a run repeated from its seed equals the first;
- a result hashes without raising, consistently with equality (from its integer and
  text fields, the ones equality can never see differ while the hash does);
- every array a result holds is a read-only view (`read_only`, applied to each field
  when the result is made): the result cannot change after the fact, and the array it
  was made from is left as it was;
- ``to_dict()`` is its one table row, opened by `setting_columns` where it has a
  board, and ``to_frame()`` that row as a one-row `pandas.DataFrame`, always; a
  result made of many items names their tables after them (``per_click()``,
  ``per_board()``, ``per_pair()``, ...).

Examples
--------
>>> from dataclasses import dataclass
>>> import numpy as np
>>> @dataclass(frozen=True, eq=False)
... class Count(Result):
...     n: int
...     counts: np.ndarray
...     seconds: float
...     def to_dict(self):
...         return {"n": self.n, "found": int(np.isfinite(self.counts).sum())}
>>> first = Count(3, np.array([1.0, np.nan]), seconds=0.5)
>>> again = Count(3, np.array([1.0, np.nan]), seconds=0.7)
>>> first == again, hash(first) == hash(again), first == Count(3, np.zeros(2), 0.5)
(True, True, False)
>>> first.to_frame()
   n  found
0  3      1
"""

from __future__ import annotations

import dataclasses
import math
from numbers import Integral

import numpy as np

__all__ = ["TIMING_FIELDS", "Result", "read_only", "same", "setting_columns"]

TIMING_FIELDS = frozenset({"seconds"})
"""Fields that measure how long a run took, not what it found: never compared."""


def read_only(array: np.ndarray) -> np.ndarray:
    """Mark an array read-only in place and return it: the package's one idiom for it.

    Examples
    --------
    >>> array = read_only(np.zeros(2))
    >>> array.flags.writeable
    False
    """
    array.flags.writeable = False
    return array


def same(first, second) -> bool:
    """Return whether two field values are equal: arrays elementwise, NaN equal to NaN.

    Examples
    --------
    >>> same(np.array([1, 2]), np.array([1, 2])), same(float("nan"), float("nan"))
    (True, True)
    >>> same({"a": (1, np.ones(2))}, {"a": (1, np.zeros(2))})
    False
    """
    if isinstance(first, np.ndarray) or isinstance(second, np.ndarray):
        first, second = np.asarray(first), np.asarray(second)
        if first.shape != second.shape:
            return False
        kinds = {first.dtype.kind, second.dtype.kind}
        return bool(np.array_equal(first, second, equal_nan=kinds <= {"f", "c"}))
    if type(first).__name__ in ("DataFrame", "Series") and type(first) is type(second):
        return bool(first.equals(second))  # pandas tables, cell by cell (NaN equal to NaN)
    if isinstance(first, dict) and isinstance(second, dict):
        return first.keys() == second.keys() and all(same(first[k], second[k])
                                                      for k in first)
    if isinstance(first, list | tuple) and isinstance(second, list | tuple):
        return (type(first) is type(second) and len(first) == len(second)
                and all(same(a, b) for a, b in zip(first, second, strict=True)))
    if isinstance(first, float) and isinstance(second, float):
        return first == second or (math.isnan(first) and math.isnan(second))
    return bool(first == second)


def _hash_part(value):
    """Return what a hash may read of a field: ints and text (tuples of them), else its type."""
    if isinstance(value, bool | Integral):
        return int(value)
    if isinstance(value, str) or value is None:
        return value
    if isinstance(value, tuple):
        return tuple(_hash_part(item) for item in value)
    return type(value).__name__


class Result:
    """Base of every result class: array-safe equality without timings, and a hash."""

    __slots__ = ()

    def __post_init__(self):
        for item in dataclasses.fields(self):
            value = getattr(self, item.name, None)
            if isinstance(value, np.ndarray):  # a view: the array it was made from stays
                object.__setattr__(self, item.name, read_only(value.view()))

    def _compared(self):
        return [getattr(self, item.name) for item in dataclasses.fields(self)
                if item.compare and item.name not in TIMING_FIELDS]

    def __eq__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        return all(same(a, b) for a, b in zip(self._compared(), other._compared(),
                                              strict=True))

    def __hash__(self):
        return hash((type(self).__name__, *(_hash_part(value) for value in self._compared())))

    def to_dict(self, **options) -> dict:
        """Return the result's one table row (each result class says what it holds)."""
        raise NotImplementedError(f"{type(self).__name__} defines no table row")

    def to_frame(self, **options):
        """Return the result as a one-row `pandas.DataFrame`: its `to_dict` row.

        ``options`` (such as ``confidence_level``) are passed on to ``to_dict``.
        """
        import pandas as pd

        return pd.DataFrame([self.to_dict(**options)])


def setting_columns(board, rule, click, *, size: bool = False) -> dict:
    """Return the columns that open a result's table row: its board, rule and click.

    Every result's ``to_dict`` starts with them, in this order, so that tables of
    different drivers line up.

    Parameters
    ----------
    board : minestats.Board
        Written as its text, ``"30x16/99"``; with ``size`` followed by its ``width``,
        ``height``, ``mines`` and ``density``.
    rule : str or None
        The first-click rule.
    click : tuple of int or None
        Written as ``click_x`` and ``click_y``; None (a comparison of first clicks,
        whose contenders each have their own) writes None in both.
    size : bool, optional
        Add the board's dimensions (default False).

    Returns
    -------
    dict

    Examples
    --------
    >>> from minestats.foundations.board import EXPERT
    >>> setting_columns(EXPERT, "safe-click", (0, 0))
    {'board': '30x16/99', 'rule': 'safe-click', 'click_x': 0, 'click_y': 0}
    >>> list(setting_columns(EXPERT, "safe-click", None, size=True))
    ['board', 'width', 'height', 'mines', 'density', 'rule', 'click_x', 'click_y']
    """
    columns = {"board": str(board)}
    if size:
        columns |= {"width": board.width, "height": board.height, "mines": board.mines,
                    "density": board.density}
    return columns | {"rule": rule, "click_x": None if click is None else click[0],
                      "click_y": None if click is None else click[1]}
