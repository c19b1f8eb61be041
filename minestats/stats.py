"""Intervals, z-scores and multiple-comparison corrections for Monte Carlo proportions.

Every Monte Carlo proportion carries a Wilson interval: unlike the normal
interval it stays inside [0, 1] and keeps its coverage near p = 0 or 1.

`ProportionResult` is the one base of every result that counts successes out of
``n`` trials (opening simulations, pass rates, no-guess batches, 3BV shares): it
gives them ``proportion``, ``proportion_ci`` (a `ConfidenceInterval`), ``to_frame``
and a short repr. scipy and statsmodels are imported when first needed, so
importing this module is cheap.
"""

from __future__ import annotations

import dataclasses
from typing import NamedTuple

import numpy as np

from minestats.validation import DEFAULT_ALPHA, DEFAULT_CONFIDENCE_LEVEL, check_confidence_level

__all__ = ["ConfidenceInterval", "ProportionResult", "holm_reject", "proportion_interval",
           "two_sided_p_values", "wilson_interval", "z_scores"]


class ConfidenceInterval(NamedTuple):
    """Bounds of a confidence interval; floats, or arrays for many proportions at once.

    Examples
    --------
    >>> interval = wilson_interval(1274, 2000)
    >>> round(interval.low, 4), round(interval.high, 4)
    (0.6157, 0.6578)
    >>> low, high = interval
    """

    low: float | np.ndarray
    high: float | np.ndarray


def _check_counts(successes, trials):
    successes = np.asarray(successes)
    trials = np.asarray(trials)
    if np.any(trials < 1):
        raise ValueError(f"trials ({trials.min()}) must be at least 1")
    if np.any(successes < 0) or np.any(successes > trials):
        raise ValueError(f"successes must lie between 0 and trials; got {successes!r}")
    return successes, trials


def proportion_interval(successes, trials, *, confidence_level=DEFAULT_CONFIDENCE_LEVEL,
                        method="wilson") -> ConfidenceInterval:
    """Confidence interval of a binomial proportion (statsmodels), inside [0, 1].

    Parameters
    ----------
    successes, trials : int or array_like of int
        Counts; broadcast together.
    confidence_level : float, optional
        Coverage of the interval, default 0.95.
    method : str, optional
        Any method of `statsmodels.stats.proportion.proportion_confint`; default
        ``'wilson'``.

    Returns
    -------
    ConfidenceInterval
        ``(low, high)``: floats for scalar counts, else arrays. At 0 successes the
        low bound is exactly 0 and at ``trials`` successes the high bound exactly 1.

    Examples
    --------
    >>> proportion_interval(1274, 2000, method="beta").low > 0.61
    True
    >>> proportion_interval(0, 10, method="normal")
    ConfidenceInterval(low=0.0, high=0.0)
    """
    from statsmodels.stats.proportion import proportion_confint

    successes, trials = _check_counts(successes, trials)
    level = check_confidence_level(confidence_level)
    low, high = proportion_confint(successes, trials, alpha=1 - level, method=method)
    # The formula's bound at 0 (or n) successes is exactly 0 (or 1); floating point
    # can leave it a rounding error inside, e.g. 0.9999999999999999 for 20000/20000.
    low = np.where(successes == 0, 0.0, low)
    high = np.where(successes == trials, 1.0, high)
    if low.ndim == 0:
        return ConfidenceInterval(float(low), float(high))
    return ConfidenceInterval(low, high)


def wilson_interval(successes, trials, *, confidence_level=DEFAULT_CONFIDENCE_LEVEL):
    """Wilson score interval for a binomial proportion: `proportion_interval`'s default.

    Every Monte Carlo proportion of the library carries this interval; the arguments
    and the returned `ConfidenceInterval` are those of `proportion_interval`.

    Examples
    --------
    >>> low, high = wilson_interval(2, 2000)
    >>> bool(0 < low < 0.001 < high)
    True
    >>> [round(float(v), 4) for v in wilson_interval(1274, 2000)]
    [0.6157, 0.6578]
    >>> wilson_interval(20_000, 20_000)[1]
    1.0
    """
    return proportion_interval(successes, trials, confidence_level=confidence_level,
                               method="wilson")


def z_scores(successes, trials, expected):
    """Standardised difference between observed and expected proportions.

    ``z = (successes / trials - p) / sqrt(p (1 - p) / trials)``, using the exact ``p``
    (the null hypothesis), not the estimate. Where ``p`` is 0 or 1 the variance is
    zero: z is 0 if the observation matches exactly and +/-inf otherwise.

    Examples
    --------
    >>> round(float(z_scores(60, 100, 0.5)), 12)
    2.0
    >>> z_scores([100, 99], 100, 1.0).tolist()
    [0.0, -inf]
    """
    successes, trials = _check_counts(successes, trials)
    expected = np.asarray(expected, dtype=float)
    if np.any((expected < 0) | (expected > 1)):
        raise ValueError(f"expected proportions must lie in [0, 1]; got {expected!r}")
    difference = successes / trials - expected
    spread = np.sqrt(expected * (1 - expected) / trials)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(spread > 0, difference / spread, np.sign(difference) * np.inf)
    return np.where((spread == 0) & (difference == 0), 0.0, z)


def two_sided_p_values(z):
    """Two-sided normal p-values of z-scores.

    Examples
    --------
    >>> round(float(two_sided_p_values(1.959964)), 4)
    0.05
    """
    from scipy import stats as scipy_stats

    return 2 * scipy_stats.norm.sf(np.abs(np.asarray(z, dtype=float)))


def holm_reject(p_values, *, alpha=DEFAULT_ALPHA):
    """Which hypotheses Holm's step-down method rejects at family-wise level ``alpha``.

    Holm's method is valid under any dependence between the tests, such as the
    correlated counts of one all-positions simulation.

    Examples
    --------
    >>> holm_reject([0.001, 0.04, 0.3], alpha=0.05).tolist()
    [True, False, False]
    """
    from statsmodels.stats.multitest import multipletests

    if not 0 < alpha < 1:
        raise ValueError(f"alpha ({alpha}) must lie strictly between 0 and 1")
    p_values = np.asarray(p_values, dtype=float)
    if p_values.size == 0:
        return np.zeros(p_values.shape, dtype=bool)
    reject = multipletests(p_values.ravel(), alpha=alpha, method="holm")[0]
    return reject.reshape(p_values.shape)


def _short(value):
    """Return the repr of a field, an array shortened to its shape."""
    if isinstance(value, np.ndarray):
        return f"<array {'x'.join(map(str, value.shape)) or 'scalar'}>"
    return repr(value)


class ProportionResult:
    """Base of the results that count ``successes`` out of ``n`` trials.

    A subclass is a frozen dataclass with fields (or properties) ``successes`` and
    ``n``; this base adds the proportion, its interval, a table row (``to_dict``,
    which a subclass extends with its inputs), ``to_frame`` and a short repr (arrays
    show their shape only). ``successes`` may be an array (one count per click position,
    say), and then so are the proportion and the interval bounds.

    Examples
    --------
    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True, repr=False)
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

    def to_frame(self, *, confidence_level=DEFAULT_CONFIDENCE_LEVEL):
        """Return the result as a one-row `pandas.DataFrame` (`to_dict`)."""
        import pandas as pd

        return pd.DataFrame([self.to_dict(confidence_level=confidence_level)])

    def __repr__(self) -> str:
        shown = ", ".join(f"{field.name}={_short(getattr(self, field.name))}"
                          for field in dataclasses.fields(self) if field.repr)
        return f"{type(self).__name__}({shown})"
