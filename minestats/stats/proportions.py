"""`ProportionResult`: the one base of every result that counts successes out of n.

Opening simulations, pass rates, no-guess batches and 3BV shares derive from it; it
gives them ``proportion``, ``proportion_ci`` (a
`minestats.stats.intervals.ConfidenceInterval`), ``to_dict``, ``to_frame`` and a short
repr.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from minestats.foundations.result import Result
from minestats.foundations.validation import DEFAULT_CONFIDENCE_LEVEL
from minestats.stats.intervals import ConfidenceInterval, proportion_interval

__all__ = ["ProportionResult"]


def _short(value):
    """Return the repr of a field, an array shortened to its shape."""
    if isinstance(value, np.ndarray):
        return f"<array {'x'.join(map(str, value.shape)) or 'scalar'}>"
    return repr(value)


class ProportionResult(Result):
    """Base of the results that count ``successes`` out of ``n`` trials.

    A subclass is a frozen dataclass (``eq=False``: equality and hashing are those of
    `minestats.foundations.result.Result`) with fields (or properties) ``successes`` and
    ``n``; this base adds the proportion, its interval, a table row (``to_dict``,
    which a subclass extends with its inputs), ``to_frame`` and a short repr (arrays
    show their shape only). ``successes`` may be an array (one count per click position,
    say), and then so are the proportion and the interval bounds.

    Examples
    --------
    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True, repr=False, eq=False)
    ... class Coin(ProportionResult):
    ...     successes: int
    ...     n: int
    >>> coin = Coin(successes=1274, n=2000)
    >>> coin
    Coin(successes=1274, n=2000)
    >>> coin.proportion, [round(v, 4) for v in coin.proportion_ci()]
    (0.637, [0.6157, 0.6578])
    >>> coin.to_frame().columns.tolist()
    ['successes', 'n', 'proportion', 'ci_low', 'ci_high', 'confidence_level']
    """

    __slots__ = ()

    @property
    def trials(self):
        """Trials drawn, the denominator of the proportion (the same as ``n``)."""
        return self.n

    @property
    def proportion(self):
        """Share of trials that succeeded, ``successes / n``."""
        return self.successes / self.n

    def proportion_ci(self, confidence_level=DEFAULT_CONFIDENCE_LEVEL,
                      method="wilson") -> ConfidenceInterval:
        """Confidence interval of the proportion (`proportion_interval`), Wilson by default."""
        return proportion_interval(self.successes, self.n, confidence_level=confidence_level,
                                   method=method)

    def to_dict(self, *, confidence_level=DEFAULT_CONFIDENCE_LEVEL) -> dict:
        """Return the counting columns of a table row.

        ``successes``, ``n``, ``proportion``, ``ci_low``, ``ci_high`` (Wilson) and
        ``confidence_level``. The results of the library write their inputs too, and
        name the proportion after what it estimates (``mc``, ``pass_rate``,
        ``success_rate``, ``share``), the columns of their committed result files.
        """
        low, high = self.proportion_ci(confidence_level)
        return {"successes": self.successes, "n": self.n, "proportion": self.proportion,
                "ci_low": low, "ci_high": high, "confidence_level": confidence_level}

    def __repr__(self) -> str:
        shown = ", ".join(f"{field.name}={_short(getattr(self, field.name))}"
                          for field in dataclasses.fields(self) if field.repr)
        return f"{type(self).__name__}({shown})"
