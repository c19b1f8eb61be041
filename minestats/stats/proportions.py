"""`ProportionResult`: the one base of every result that counts successes out of n.

Opening simulations, pass rates, win rates, no-guess batches and 3BV shares derive
from it; it gives them ``proportion``, ``proportion_ci`` (a
`minestats.stats.intervals.ConfidenceInterval`), ``to_dict``, ``to_frame``, and three
views that lead with the figure: a repr that opens with the estimate, its 95% Wilson
interval, n and the seed, a `~ProportionResult.summary` text and a small HTML table
(``_repr_html_``, which Jupyter shows).
"""

from __future__ import annotations

import dataclasses
import html
import math

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


def _decimals(low: float, high: float) -> int:
    """Decimals that show an interval's width to two significant digits (at least 3).

    Examples
    --------
    >>> _decimals(0.760, 0.810), _decimals(0.0003, 0.0036), _decimals(0.5, 0.5)
    (3, 4, 3)
    """
    width = high - low
    return 3 if not width > 0 else max(3, 1 - math.floor(math.log10(width)))


def _estimate_text(proportion, low, high) -> str:
    """``0.786 [0.760, 0.810]``: the estimate and its interval, or a range of many."""
    if np.ndim(proportion):
        return (f"{np.size(proportion):,} estimates from {np.min(proportion):.3f} to "
                f"{np.max(proportion):.3f}")
    decimals = _decimals(low, high)
    return f"{proportion:.{decimals}f} [{low:.{decimals}f}, {high:.{decimals}f}]"


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
    >>> coin  # the estimate, its 95% Wilson interval and n first
    Coin 0.637 [0.616, 0.658] n=2,000 (successes=1274)
    >>> coin.proportion, [round(v, 4) for v in coin.proportion_ci()]
    (0.637, [0.6157, 0.6578])
    >>> coin.to_frame().columns.tolist()
    ['successes', 'n', 'proportion', 'ci_low', 'ci_high', 'confidence_level']
    >>> print(coin.summary())
    Coin
    estimate  0.637 [0.616, 0.658] (95% Wilson interval)
    n         2,000
    successes 1274
    """

    __slots__ = ()

    def __init_subclass__(cls, **kwargs):
        """Keep this repr ahead of one a dataclass base defines (NoGuessBatch's settings)."""
        super().__init_subclass__(**kwargs)
        if "__repr__" not in cls.__dict__:
            cls.__repr__ = ProportionResult.__repr__

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

    def _rows(self, confidence_level) -> list[tuple[str, str]]:
        """``(name, text)`` rows: the estimate and interval, n, the seed, then the fields.

        The fields are those a dataclass repr shows (arrays by their shape), but n and
        the seed, which come first.
        """
        low, high = self.proportion_ci(confidence_level)
        rows = [("estimate", _estimate_text(self.proportion, low, high)),
                ("n", f"{self.n:,}")]
        if hasattr(self, "seed"):
            rows.append(("seed", str(self.seed)))
        return rows + [(field.name, _short(getattr(self, field.name)))
                       for field in dataclasses.fields(self)
                       if field.repr and field.name not in ("n", "seed")]

    def summary(self, confidence_level=DEFAULT_CONFIDENCE_LEVEL) -> str:
        """Return the result as text: the estimate with its Wilson interval, n, seed, inputs.

        One line per item under the class name (see the class's example).
        """
        rows = self._rows(confidence_level)
        rows[0] = ("estimate", f"{rows[0][1]} ({confidence_level:.0%} Wilson interval)")
        width = max(len(name) for name, _ in rows)
        return "\n".join([type(self).__name__, *(f"{name:<{width}} {text}"
                                                  for name, text in rows)])

    def __repr__(self) -> str:
        (_, estimate), (_, n), *rest = self._rows(DEFAULT_CONFIDENCE_LEVEL)
        head = [type(self).__name__, estimate, f"n={n}"]
        if hasattr(self, "seed"):
            head.append(f"seed={rest.pop(0)[1]}")
        fields = ", ".join(f"{name}={text}" for name, text in rest)
        return " ".join(head) + (f" ({fields})" if fields else "")

    def _repr_html_(self) -> str:
        """Return a small table for Jupyter: the estimate and its interval, then the rest."""
        rows = self._rows(DEFAULT_CONFIDENCE_LEVEL)
        rows[0] = (f"estimate [{DEFAULT_CONFIDENCE_LEVEL:.0%} Wilson]", rows[0][1])
        body = "".join(f"<tr><th style=\"text-align:left\">{html.escape(name)}</th>"
                       f"<td style=\"text-align:left\">{html.escape(text)}</td></tr>"
                       for name, text in rows)
        return (f"<table><caption style=\"text-align:left\"><b>"
                f"{html.escape(type(self).__name__)}</b></caption>{body}</table>")
