"""Named totals of a chunk of Monte Carlo trials, added up chunk by chunk by name.

A chunk function of `minestats.runs.sweeps.run_jobs` returns what its trials found;
when that is several totals (games won, games lost at the first click, seconds, a
histogram of losses...), it returns them as a `Tally`: each total under its name, so
that the driver reading the sum asks for ``total["won"]`` instead of unpacking a
flat vector by offset, and a total added or reordered cannot shift the others.
Tallies add name by name (the same additions, in the same order, as the flat
vectors they replace, so the sums are the same to the last bit), and the chunk
store (`minestats.runs.store`) keeps one as its names and arrays, plain data.

Results of trials kept one per trial rather than summed (``per_chunk=True``) are
joined with `Tally.concatenate`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping

import numpy as np

from minestats.foundations.result import read_only
from minestats.foundations.validation import quoted

__all__ = ["Tally"]


class Tally(Mapping):
    """Totals of a chunk of trials, by name: a read-only mapping of names to arrays.

    Parameters
    ----------
    totals : mapping of str to array_like
        Each total under its name, in the order the tally keeps them; a number is
        kept as a 0-d array.

    Notes
    -----
    ``a + b`` adds two tallies with the same names, in the same order, name by name;
    ``0 + tally`` is the tally itself, so a list of them can be given to `sum`. Two
    tallies with other names, or a total of another shape, are a `ValueError` naming
    the difference. The arrays are read-only.

    Examples
    --------
    >>> first = Tally({"won": 3, "losses": [1, 0, 2]})
    >>> second = Tally({"won": 4, "losses": [0, 1, 1]})
    >>> total = sum([first, second])
    >>> int(total["won"]), total["losses"].tolist(), list(total)
    (7, [1, 1, 3], ['won', 'losses'])
    >>> first + Tally({"lost": 1, "losses": [0, 0, 0]})
    Traceback (most recent call last):
    ...
    ValueError: cannot add a tally of ['won', 'losses'] to one of ['lost', 'losses']
    >>> Tally.concatenate([Tally({"ok": [True]}), Tally({"ok": [False, True]})])["ok"]
    array([ True, False,  True])
    """

    __slots__ = ("_totals",)

    def __init__(self, totals: Mapping):
        if not isinstance(totals, Mapping):
            raise TypeError(f"totals ({quoted(totals)}) must be a mapping of names to arrays")
        checked = {}
        for name, value in totals.items():
            if not isinstance(name, str):
                raise TypeError(f"a tally's names are strings, not {quoted(name)}")
            checked[name] = read_only(np.array(value))
        self._totals = checked

    def __getitem__(self, name: str) -> np.ndarray:
        return self._totals[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._totals)

    def __len__(self) -> int:
        return len(self._totals)

    def __repr__(self) -> str:
        shapes = ", ".join(f"{name}: {array.dtype}{list(array.shape)}"
                           for name, array in self._totals.items())
        return f"Tally({{{shapes}}})"

    def __eq__(self, other) -> bool:
        if not isinstance(other, Tally):
            return NotImplemented
        return list(self) == list(other) and all(
            self[name].shape == other[name].shape and np.array_equal(self[name], other[name])
            for name in self)

    __hash__ = None
    __array_ufunc__ = None  # numpy defers: an array plus a tally is a TypeError

    def _check_alike(self, other: Tally) -> None:
        if list(self) != list(other):
            raise ValueError(f"cannot add a tally of {list(self)} to one of {list(other)}")
        for name in self:
            if self[name].shape != other[name].shape:
                raise ValueError(f"cannot add a tally whose {name} has shape "
                                 f"{list(other[name].shape)} to one whose {name} has "
                                 f"{list(self[name].shape)}")

    def __add__(self, other) -> Tally:
        if isinstance(other, int) and not isinstance(other, bool) and other == 0:
            return self
        if not isinstance(other, Tally):
            return NotImplemented
        self._check_alike(other)
        return Tally({name: self[name] + other[name] for name in self})

    __radd__ = __add__

    @classmethod
    def concatenate(cls, tallies: Iterable[Tally]) -> Tally:
        """Join tallies of per-trial arrays, name by name, along their first axis.

        Parameters
        ----------
        tallies : iterable of Tally
            At least one, all with the same names in the same order.

        Returns
        -------
        Tally
        """
        tallies = list(tallies)
        if not tallies:
            raise ValueError("no tallies to concatenate")
        for tally in tallies[1:]:
            if list(tally) != list(tallies[0]):
                raise ValueError(f"cannot join a tally of {list(tally)} to one of "
                                 f"{list(tallies[0])}")
        return cls({name: np.concatenate([tally[name] for tally in tallies])
                    for name in tallies[0]})
