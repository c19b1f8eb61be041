"""Many estimated effects at once: how much the true effects differ beneath the noise.

When each of many effects (a candidate's value gap to the pick, say) is estimated with
a known sampling variance, the observed variance of the estimates is the variance of
the true effects plus the mean sampling variance; `effect_spread` separates the two
by the method of moments (the unweighted form of DerSimonian and Laird's estimator of
the between-study variance), floored at 0.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

__all__ = ["EffectSpread", "effect_spread"]


class EffectSpread(NamedTuple):
    """Spread of many estimated effects (`effect_spread`); standard deviations."""

    mean: float
    observed_sd: float
    noise_sd: float
    true_sd: float


def effect_spread(estimates, variances) -> EffectSpread:
    """Mean of many estimated effects and the spread of the true effects beneath them.

    Parameters
    ----------
    estimates : array_like
        One estimate per effect, one dimension.
    variances : array_like
        The sampling variance of each estimate, the same length.

    Returns
    -------
    EffectSpread
        ``mean`` of the estimates; ``observed_sd``, their standard deviation
        (``ddof=1``); ``noise_sd``, the root of the mean sampling variance; and
        ``true_sd``, the root of the observed variance less that mean, or 0 when it
        is negative: how far the true effects differ. nan where too few estimates
        (none for the mean and noise, fewer than two for the rest).

    References
    ----------
    R. DerSimonian and N. Laird, "Meta-analysis in clinical trials", Controlled
    Clinical Trials 7 (1986), 177-188.

    Examples
    --------
    Estimates whose spread is all noise have no true spread:

    >>> found = effect_spread([0.1, -0.1, 0.1, -0.1], [0.02, 0.02, 0.02, 0.02])
    >>> round(found.observed_sd, 4), round(found.noise_sd, 4), found.true_sd
    (0.1155, 0.1414, 0.0)
    >>> round(effect_spread([0.0, 1.0, 2.0], [0.25, 0.25, 0.25]).true_sd, 4)
    0.866
    """
    estimates = np.asarray(estimates, dtype=float)
    variances = np.asarray(variances, dtype=float)
    if estimates.ndim != 1 or variances.shape != estimates.shape:
        raise ValueError(f"estimates and variances must be one-dimensional and alike, not of "
                         f"shapes {list(estimates.shape)} and {list(variances.shape)}")
    if np.any(variances < 0):
        raise ValueError("sampling variances must be non-negative")
    if estimates.size == 0:
        return EffectSpread(math.nan, math.nan, math.nan, math.nan)
    noise = float(variances.mean())
    if estimates.size == 1:  # one estimate has no spread
        return EffectSpread(float(estimates[0]), math.nan, math.sqrt(noise), math.nan)
    observed = float(estimates.var(ddof=1))
    return EffectSpread(float(estimates.mean()), math.sqrt(observed), math.sqrt(noise),
                        math.sqrt(max(observed - noise, 0.0)))
