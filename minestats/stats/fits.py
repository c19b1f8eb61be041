"""Pass rate against mine density as a smooth curve: binomial GLMs and the half-pass density.

`fit_pass_rate_curve` fits ``logit P(pass) = b0 + b1 z + ... + bk z^k``, a binomial
GLM with the logit link (statsmodels), to ``successes`` out of ``n`` boards at each
mine density, where ``z = (density - centre) / scale`` maps the measured densities
onto [-1, 1] (so the polynomial terms are well conditioned). Degree 1 is the plain
logistic curve (``"logit"``); degrees 2 to `MAX_DEGREE` add a quadratic, cubic and
quartic term (``"logit+quadratic"``, ...) where the plain curve is not enough.

Choosing the degree: the candidates are nested, so each is compared with the
largest by a likelihood-ratio test, and the lowest degree that the largest does not
beat at level ``alpha`` is kept. The largest candidate is `MAX_DEGREE`, at most
``k - 2`` for ``k`` distinct densities (one residual degree of freedom is left for the
goodness-of-fit test), and lower if the data are separated at a degree (every
density passing all or none of its boards, split by a polynomial: no finite fit
exists, nor at any higher degree). Every candidate's deviance, AIC, goodness-of-fit
p-value and ED50 stays in the result (`CandidateFit`).

Checking the fit, honestly: the residual deviance and Pearson's chi-square are
compared with a chi-square on the residual degrees of freedom (``gof_p``,
``pearson_p``; small p-values say the curve misses the points by more than binomial
noise), and the standardized (studentized Pearson) residuals are kept. Both
chi-square approximations are rough where a density expects fewer than about 5
passes or failures; the result counts such densities (``sparse_points``). The
degree is chosen on the same data, so the chosen model's p-values are somewhat
optimistic, and its intervals do not count the choice: ``ed50_models`` shows how far
the ED50 moves over every candidate degree the goodness-of-fit test accepts.

The half-pass density (ED50) is where the fitted curve crosses 0.5. It is reported
only when the curve crosses 0.5 exactly once inside the measured densities; otherwise
it is NaN and ``ed50_note`` says why (the curve stays above or below 0.5, or crosses
it more than once): it is never extrapolated. Its delta-method interval comes from
the gradient of the root with respect to the coefficients (implicit function
theorem); its profile-likelihood interval collects the densities ``t`` whose best
fit forced through 0.5 at ``t`` is within the chi-square(1) quantile of the best
deviance, searched inside the measured range only (a bound beyond it is NaN).

Fits are deterministic; scipy and statsmodels are imported when first needed.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from minestats.foundations.result import Result
from minestats.foundations.validation import (
    DEFAULT_ALPHA,
    DEFAULT_CONFIDENCE_LEVEL,
    check_confidence_level,
    quoted,
)
from minestats.stats import ConfidenceInterval

__all__ = ["MAX_DEGREE", "MODELS", "CandidateFit", "CurveBand", "PassRateCurve",
           "fit_pass_rate_curve"]

MODELS = {1: "logit", 2: "logit+quadratic", 3: "logit+cubic", 4: "logit+quartic"}
"""Model name of each polynomial degree on the logit scale."""
MAX_DEGREE = max(MODELS)
SPARSE_COUNT = 5
"""A density expecting fewer passes or failures than this strains the chi-square tests."""
_MIN_DENSITIES = 3


class CurveBand(NamedTuple):
    """A fitted pass rate and its pointwise confidence band, as arrays (`PassRateCurve.predict`).

    Examples
    --------
    >>> band = CurveBand(fit=np.array([0.5]), low=np.array([0.4]), high=np.array([0.6]))
    >>> fit, low, high = band
    """

    fit: np.ndarray
    low: np.ndarray
    high: np.ndarray


class CandidateFit(NamedTuple):
    """One candidate degree of `fit_pass_rate_curve`: its fit and its test against the largest.

    ``lrt_p`` is the p-value of the likelihood-ratio test of this degree against the
    largest candidate (NaN for the largest itself); ``gof_p`` that of its residual
    deviance against chi-square on ``df`` degrees of freedom; ``ed50`` where its curve
    crosses 0.5 (NaN unless exactly once in the measured range).
    """

    model: str
    degree: int
    deviance: float
    df: int
    aic: float
    gof_p: float
    lrt_p: float
    ed50: float


def _short_float(value: float) -> str:
    return "nan" if math.isnan(value) else f"{value:.4g}"


@dataclass(frozen=True, repr=False, eq=False)
class PassRateCurve(Result):
    """Result of `fit_pass_rate_curve`: a fitted pass-rate curve, its checks and its ED50.

    Attributes
    ----------
    densities, successes, n : numpy.ndarray
        The data, as given.
    model : str
        The chosen model, a value of `MODELS` (``"logit"``, ``"logit+quadratic"``, ...).
    degree : int
        Its polynomial degree on the logit scale.
    centre, scale : float
        ``z = (density - centre) / scale``: the measured densities span [-1, 1].
    coefficients : numpy.ndarray
        ``b0, ..., b_degree`` of ``logit P(pass) = sum(b_j z^j)``.
    covariance : numpy.ndarray
        Their estimated covariance (inverse Fisher information).
    deviance : float
        Residual deviance of the chosen model.
    df : int
        Its residual degrees of freedom (points minus coefficients).
    gof_p : float
        P-value of ``deviance`` against chi-square on ``df``: small means lack of fit.
    pearson_chi2, pearson_p : float
        Pearson's chi-square and its p-value on ``df``.
    aic : float
    standardized_residuals : numpy.ndarray
        Studentized Pearson residuals, one per point; beyond about +/-3 a point is
        off the curve.
    sparse_points : int
        Points expecting fewer than `SPARSE_COUNT` passes or failures under the fit,
        where the chi-square approximations above are rough.
    candidates : tuple of CandidateFit
        Every degree tried, from 1 up.
    lrt_p : float
        Likelihood-ratio test of the chosen model against the plain logit (NaN if it
        is the plain logit): how much the extra terms help.
    monotone : bool
        Whether the fitted pass rate falls (or rises) throughout the measured range.
    ed50 : float
        Density at which the fitted pass rate is 0.5; NaN when the curve does not
        cross 0.5 exactly once in the measured range (see ``ed50_note``).
    ed50_se : float
        Its delta-method standard error.
    ed50_ci : ConfidenceInterval
        Delta-method interval, ``ed50 +/- z * ed50_se``; it does not count the choice
        of degree (see ``ed50_models``).
    ed50_profile_ci : ConfidenceInterval
        Profile-likelihood interval; a bound beyond the measured range is NaN.
    ed50_note : str
        Why the ED50 or a bound of it is missing; empty when nothing is.
    confidence_level, alpha : float
        Level of the intervals and of the degree selection.
    """

    densities: np.ndarray
    successes: np.ndarray
    n: np.ndarray
    model: str
    degree: int
    centre: float
    scale: float
    coefficients: np.ndarray
    covariance: np.ndarray
    deviance: float
    df: int
    gof_p: float
    pearson_chi2: float
    pearson_p: float
    aic: float
    standardized_residuals: np.ndarray
    sparse_points: int
    candidates: tuple[CandidateFit, ...]
    lrt_p: float
    monotone: bool
    ed50: float
    ed50_se: float
    ed50_ci: ConfidenceInterval
    ed50_profile_ci: ConfidenceInterval
    ed50_note: str
    confidence_level: float
    alpha: float
    _range: tuple[float, float] = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        super().__post_init__()
        object.__setattr__(self, "_range", (float(self.densities.min()),
                                            float(self.densities.max())))

    @property
    def ed50_models(self) -> ConfidenceInterval:
        """Lowest and highest ED50 over the candidate degrees whose ``gof_p >= alpha``.

        A spread wider than ``ed50_ci`` says the ED50 depends on the model more than
        on the noise; NaN when no candidate is accepted or none crosses 0.5 once.
        """
        values = [c.ed50 for c in self.candidates
                  if c.gof_p >= self.alpha and not math.isnan(c.ed50)]
        if not values:
            return ConfidenceInterval(math.nan, math.nan)
        return ConfidenceInterval(min(values), max(values))

    @property
    def adequate(self) -> bool:
        """Whether neither goodness-of-fit test rejects the curve at level ``alpha``."""
        return bool(self.gof_p >= self.alpha and self.pearson_p >= self.alpha)

    def linear_predictor(self, densities) -> np.ndarray:
        """Fitted logit of the pass rate at ``densities`` (no range check)."""
        z = (np.asarray(densities, dtype=float) - self.centre) / self.scale
        return np.polynomial.polynomial.polyval(z, self.coefficients)

    def predict(self, densities, confidence_level=None, *, extrapolate=False) -> CurveBand:
        """Fitted pass rate at ``densities`` with a pointwise confidence band.

        The band is the delta-method interval of the linear predictor,
        ``eta +/- z * sqrt(x' V x)``, carried through the inverse logit, so it stays
        inside (0, 1) and brackets the fit.

        Parameters
        ----------
        densities : float or array_like of float
        confidence_level : float, optional
            Coverage of the band; default the fit's ``confidence_level``.
        extrapolate : bool, optional
            Allow densities outside the measured range; default False, so a curve
            is never read beyond its data by accident.

        Returns
        -------
        CurveBand
            ``(fit, low, high)``, arrays of the shape of ``densities``.

        Raises
        ------
        ValueError
            If a density lies outside the measured range and ``extrapolate`` is False.

        Examples
        --------
        >>> curve = fit_pass_rate_curve([95, 80, 50, 20, 5], [100] * 5,
        ...                             [0.1, 0.15, 0.2, 0.25, 0.3])
        >>> fit, low, high = curve.predict([0.1, 0.2, 0.3])
        >>> bool(np.all((low < fit) & (fit < high))), round(float(fit[1]), 3)
        (True, 0.5)
        >>> curve.predict(0.35)
        Traceback (most recent call last):
        ...
        ValueError: densities [0.35] lie outside the measured range [0.1, 0.3]; \
pass extrapolate=True to read the curve there
        """
        from scipy.special import expit
        from scipy.stats import norm

        level = self.confidence_level if confidence_level is None else check_confidence_level(
            confidence_level)
        densities = np.asarray(densities, dtype=float)
        low, high = self._range
        outside = (densities < low - 1e-12) | (densities > high + 1e-12)
        if not extrapolate and np.any(outside):
            raise ValueError(f"densities {densities[outside].ravel().tolist()} lie outside "
                             f"the measured range [{low:g}, {high:g}]; pass extrapolate=True "
                             "to read the curve there")
        design = _design((densities.ravel() - self.centre) / self.scale, self.degree)
        eta = design @ self.coefficients
        se = np.sqrt(np.einsum("ij,jk,ik->i", design, self.covariance, design))
        half = norm.ppf(0.5 + level / 2) * se
        shape = densities.shape
        return CurveBand(expit(eta).reshape(shape), expit(eta - half).reshape(shape),
                         expit(eta + half).reshape(shape))

    def to_dict(self) -> dict:
        """One table row: the model, its checks, the ED50 with both intervals, coefficients.

        Coefficients ``b0`` to ``b4`` (NaN beyond the degree) are on the ``z`` scale
        given by ``centre`` and ``scale``, so the curve can be redrawn from the row.
        """
        logit = self.candidates[0]
        row = {"fit": self.model, "degree": self.degree, "points": int(self.densities.size),
               "density_min": self._range[0], "density_max": self._range[1],
               "deviance": self.deviance, "df": self.df, "gof_p": self.gof_p,
               "pearson_chi2": self.pearson_chi2, "pearson_p": self.pearson_p,
               "adequate": self.adequate,
               "max_abs_std_residual": float(np.abs(self.standardized_residuals).max()),
               "sparse_points": self.sparse_points, "aic": self.aic,
               "logit_deviance": logit.deviance, "logit_df": logit.df,
               "logit_gof_p": logit.gof_p, "logit_aic": logit.aic, "lrt_p": self.lrt_p,
               "monotone": self.monotone, "ed50": self.ed50, "ed50_se": self.ed50_se,
               "ed50_ci_low": self.ed50_ci.low, "ed50_ci_high": self.ed50_ci.high,
               "ed50_profile_low": self.ed50_profile_ci.low,
               "ed50_profile_high": self.ed50_profile_ci.high,
               "ed50_models_low": self.ed50_models.low,
               "ed50_models_high": self.ed50_models.high, "ed50_note": self.ed50_note,
               "confidence_level": self.confidence_level, "alpha": self.alpha,
               "centre": self.centre, "scale": self.scale}
        for j in range(MAX_DEGREE + 1):
            row[f"b{j}"] = float(self.coefficients[j]) if j <= self.degree else math.nan
        return row

    def __repr__(self) -> str:
        low, high = self.ed50_ci
        return (f"PassRateCurve(model={self.model!r}, deviance={self.deviance:.4g}, "
                f"df={self.df}, gof_p={self.gof_p:.3g}, "
                f"ed50={_short_float(self.ed50)} [{_short_float(low)}, {_short_float(high)}])")


def _is_int(value) -> bool:
    return isinstance(value, int | np.integer) and not isinstance(value, bool)


def _design(z: np.ndarray, degree: int) -> np.ndarray:
    """Columns ``1, z, ..., z^degree``."""
    return np.vander(z, degree + 1, increasing=True)


def _counts(values, name: str) -> np.ndarray:
    array = np.asarray(values)
    if array.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional; got shape {array.shape}")
    if not np.issubdtype(array.dtype, np.number) or not np.all(np.isfinite(array)) \
            or np.any(array != np.round(array)):
        raise ValueError(f"{name} must be whole numbers; got {array.tolist()}")
    return array.astype(np.int64)


def _check_data(successes, n, densities):
    successes = _counts(successes, "successes")
    n = _counts(n, "n")
    densities = np.asarray(densities, dtype=float)
    if densities.ndim != 1:
        raise ValueError(f"densities must be one-dimensional; got shape {densities.shape}")
    if not len(successes) == len(n) == len(densities):
        raise ValueError(f"successes ({len(successes)} values), n ({len(n)}) and densities "
                         f"({len(densities)}) must have the same length")
    if np.any(n < 1):
        raise ValueError(f"n ({n.min()}) must be at least 1 at every density")
    bad = np.flatnonzero((successes < 0) | (successes > n))
    if bad.size:
        i = bad[0]
        raise ValueError(f"successes[{i}] ({successes[i]}) must lie between 0 and "
                         f"n[{i}] ({n[i]})")
    if not np.all(np.isfinite(densities)) or np.any((densities < 0) | (densities > 1)):
        raise ValueError(f"densities must lie in [0, 1]; got {densities.tolist()}")
    distinct = np.unique(densities).size
    if distinct < _MIN_DENSITIES:
        raise ValueError(f"a curve needs at least {_MIN_DENSITIES} distinct densities to "
                         f"fit and check; got {distinct}")
    return successes, n, densities, distinct


def _separated(design: np.ndarray, successes: np.ndarray, n: np.ndarray) -> bool:
    """Whether the binomial MLE is infinite: a direction that only raises the likelihood.

    A direction ``beta`` does so when ``x_i beta`` is 0 at every point with both
    passes and failures, at least 0 where all pass, at most 0 where none does, and
    not 0 everywhere; a linear program looks for one (Konis 2007).
    """
    from scipy.optimize import linprog

    sign = np.where(successes == n, 1.0, np.where(successes == 0, -1.0, 0.0))
    pure = sign != 0
    if not pure.any():
        return False
    signed = sign[pure, None] * design[pure]
    mixed = design[~pure]
    result = linprog(-signed.sum(axis=0),
                     A_ub=np.vstack([-signed, signed]),
                     b_ub=np.concatenate([np.zeros(len(signed)), np.ones(len(signed))]),
                     A_eq=mixed if len(mixed) else None,
                     b_eq=np.zeros(len(mixed)) if len(mixed) else None,
                     bounds=[(None, None)] * design.shape[1], method="highs")
    return bool(result.status == 0 and -result.fun > 1e-7)


def _glm(successes, n, design, start=None, *, strict=True):
    """Fit the binomial GLM (logit link); with ``strict``, raise if it did not converge."""
    from statsmodels.genmod.families import Binomial
    from statsmodels.genmod.generalized_linear_model import GLM
    from statsmodels.tools.sm_exceptions import ConvergenceWarning, PerfectSeparationWarning

    endog = np.column_stack([successes, n - successes]).astype(float)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = GLM(endog, design, family=Binomial()).fit(start_params=start, maxiter=200)
    # statsmodels warns of "perfect prediction" whenever the fit matches the points
    # closely; true separation is found beforehand by `_separated`.
    for warning in caught:
        if not issubclass(warning.category, ConvergenceWarning | PerfectSeparationWarning):
            warnings.warn_explicit(warning.message, warning.category, warning.filename,
                                   warning.lineno)
    if strict and (not result.converged or any(issubclass(w.category, ConvergenceWarning)
                                               for w in caught)):
        raise ValueError("the binomial GLM did not converge")
    return result


def _roots_in_range(coefficients: np.ndarray) -> np.ndarray:
    """Real roots of the polynomial in [-1, 1], sorted, repeated roots merged."""
    roots = np.polynomial.polynomial.polyroots(coefficients)
    real = np.sort(roots[np.abs(roots.imag) < 1e-9].real)
    inside = real[(real >= -1 - 1e-12) & (real <= 1 + 1e-12)]
    return inside[np.concatenate([[True], np.diff(inside) > 1e-9])] if inside.size else inside


def _crossing(coefficients, centre, scale) -> float:
    """Return the density of the one crossing of 0.5 in the measured range, else NaN."""
    roots = _roots_in_range(coefficients)
    return float(centre + scale * roots[0]) if roots.size == 1 else math.nan


def _ed50(coefficients, covariance, centre, scale, level):
    """Find the one crossing of 0.5 in the measured range: (ed50, se, delta interval, note)."""
    from scipy.special import expit
    from scipy.stats import norm

    roots = _roots_in_range(coefficients)
    missing = (math.nan, math.nan, ConfidenceInterval(math.nan, math.nan))
    low, high = centre - scale, centre + scale
    if roots.size == 0:
        ends = expit(np.polynomial.polynomial.polyval(np.array([-1.0, 1.0]), coefficients))
        side = "above" if ends[0] > 0.5 else "below"
        return (*missing, f"no ED50: the fitted pass rate stays {side} 0.5 over the "
                          f"measured densities [{low:g}, {high:g}] (from {ends[0]:.3f} to "
                          f"{ends[1]:.3f}); not extrapolated")
    if roots.size > 1:
        shown = ", ".join(f"{centre + scale * root:.4g}" for root in roots)
        return (*missing, f"no ED50: the fitted pass rate crosses 0.5 {roots.size} times "
                          f"in the measured range (at {shown})")
    root = float(roots[0])
    slope = float(np.polynomial.polynomial.polyval(root, np.polynomial.polynomial.polyder(
        coefficients)))
    ed50 = centre + scale * root
    if slope == 0:
        return ed50, math.nan, ConfidenceInterval(math.nan, math.nan), \
            "no delta-method interval: the fitted curve is flat at its ED50"
    # Implicit function theorem: eta(z*, b) = 0, so dz*/db_j = -z*^j / eta'(z*).
    gradient = -scale * root ** np.arange(coefficients.size) / slope
    se = float(math.sqrt(gradient @ covariance @ gradient))
    half = float(norm.ppf(0.5 + level / 2)) * se
    return ed50, se, ConfidenceInterval(ed50 - half, ed50 + half), ""


def _profile_interval(successes, n, z, coefficients, deviance, root, level):
    """Profile-likelihood interval of the crossing ``root`` on the z scale, inside [-1, 1].

    The best fit forced through 0.5 at ``t`` has ``b0 = -sum(b_j t^j)``: a GLM with no
    intercept on the columns ``z^j - t^j``.
    """
    from scipy.optimize import brentq
    from scipy.stats import chi2

    critical = chi2.ppf(level, 1)
    degree = coefficients.size - 1
    powers = _design(z, degree)[:, 1:]

    def excess(t: float) -> float:
        # IRLS from the data (not from the free fit's coefficients, whose intercept
        # the constraint moves far off at the ends of the range)
        fit = _glm(successes, n, powers - t ** np.arange(1, degree + 1), strict=False)
        return fit.deviance - deviance - critical

    bounds = []
    for end in (-1.0, 1.0):
        if excess(end) <= 0:
            bounds.append(math.nan)  # the interval reaches past the measured range
        else:
            bounds.append(brentq(excess, min(root, end), max(root, end), xtol=1e-9))
    return bounds


def fit_pass_rate_curve(successes, n, densities, *, degree=None, max_degree=MAX_DEGREE,
                        confidence_level=DEFAULT_CONFIDENCE_LEVEL, alpha=DEFAULT_ALPHA,
                        profile=True) -> PassRateCurve:
    """Fit a smooth pass-rate curve against mine density: a binomial GLM with the logit link.

    Parameters
    ----------
    successes, n : array_like of int
        Boards passed and boards drawn at each density (``0 <= successes <= n``).
    densities : array_like of float
        Mine density of each point, in [0, 1]; at least 3 distinct values.
    degree : int, optional
        Polynomial degree on the logit scale (1 is the plain logit); default None
        chooses it by likelihood-ratio tests (see the module docstring).
    max_degree : int, optional
        Largest degree tried when ``degree`` is None, default `MAX_DEGREE`; lowered
        to the number of distinct densities minus 2, and below a degree at which the
        data are separated.
    confidence_level : float, optional
        Coverage of the ED50 intervals and of the default band of ``predict``,
        default 0.95.
    alpha : float, optional
        Level of the selection tests and of ``adequate``, default 0.05.
    profile : bool, optional
        Compute the profile-likelihood interval of the ED50 (a few dozen further
        fits); default True, else it is NaN.

    Returns
    -------
    PassRateCurve

    Raises
    ------
    ValueError
        If the arrays differ in length, counts are not whole numbers with
        ``0 <= successes <= n`` and ``n >= 1``, densities lie outside [0, 1] or take
        fewer than 3 distinct values, ``degree`` is out of range, or the data are
        separated (every density passes all or none of its boards, split by density),
        so that no finite logistic fit exists.

    Examples
    --------
    Points on a logistic curve through 0.5 at density 0.2 (the ED50):

    >>> from scipy.special import expit
    >>> densities = np.linspace(0.1, 0.3, 9)
    >>> n = np.full(9, 1000)
    >>> successes = np.round(n * expit(-40 * (densities - 0.2))).astype(int)
    >>> curve = fit_pass_rate_curve(successes, n, densities)
    >>> curve.model, curve.df, bool(curve.adequate)
    ('logit', 7, True)
    >>> round(curve.ed50, 4), [round(v, 4) for v in curve.ed50_ci]
    (0.2, [0.1984, 0.2016])
    >>> curve
    PassRateCurve(model='logit', deviance=0.005116, df=7, gof_p=1, ed50=0.2 [0.1984, 0.2016])

    A curve that never falls to 0.5 in the measured range has no ED50:

    >>> fit_pass_rate_curve([99, 95, 90, 80], [100] * 4, [0.1, 0.15, 0.2, 0.25]).ed50_note
    'no ED50: the fitted pass rate stays above 0.5 over the measured densities [0.1, 0.25] \
(from 0.983 to 0.794); not extrapolated'
    >>> fit_pass_rate_curve([5, 11], [10, 10], [0.1, 0.2])
    Traceback (most recent call last):
    ...
    ValueError: successes[1] (11) must lie between 0 and n[1] (10)
    """
    from scipy.stats import chi2

    successes, n, densities, distinct = _check_data(successes, n, densities)
    level = check_confidence_level(confidence_level)
    if not 0 < alpha < 1:
        raise ValueError(f"alpha ({alpha}) must lie strictly between 0 and 1")
    largest = min(MAX_DEGREE, distinct - 2)
    if not _is_int(max_degree) or not 1 <= max_degree <= MAX_DEGREE:
        raise ValueError(f"max_degree ({quoted(max_degree)}) must be an int from 1 to "
                         f"{MAX_DEGREE}")
    if degree is not None and (not _is_int(degree) or not 1 <= degree <= largest):
        raise ValueError(f"degree ({quoted(degree)}) must be an int from 1 to {largest} with "
                         f"{distinct} distinct densities")
    max_degree = min(max_degree, largest)
    low, high = float(densities.min()), float(densities.max())
    centre, scale = (low + high) / 2, (high - low) / 2
    z = (densities - centre) / scale

    degrees = [degree] if degree is not None else list(range(1, max_degree + 1))
    fits = {}
    for d in range(1, max(degrees) + 1):
        if _separated(_design(z, d), successes, n):
            break
        fits[d] = _glm(successes, n, _design(z, d))
    if 1 not in fits:
        raise ValueError("the data are separated (each density passes all or none of its "
                         "boards, split by density): no finite logistic fit exists")
    if degree is not None and degree not in fits:
        raise ValueError(f"degree ({degree}) separates the data: no finite fit exists; "
                         f"use a degree up to {max(fits)}")
    top = max(fits)
    candidates = tuple(
        CandidateFit(MODELS[d], d, float(fit.deviance), int(round(fit.df_resid)),
                     float(fit.aic), float(chi2.sf(fit.deviance, fit.df_resid)),
                     math.nan if d == top else float(chi2.sf(
                         max(fit.deviance - fits[top].deviance, 0.0), top - d)),
                     _crossing(np.asarray(fit.params, dtype=float), centre, scale))
        for d, fit in fits.items())
    if degree is None:
        chosen = next(c.degree for c in candidates if c.degree == top or c.lrt_p >= alpha)
    else:
        chosen = degree
    fit = fits[chosen]
    coefficients = np.asarray(fit.params, dtype=float)
    covariance = np.asarray(fit.cov_params(), dtype=float)
    df = int(round(fit.df_resid))
    expected = n * np.asarray(fit.fittedvalues, dtype=float)
    sparse = int(np.sum((expected < SPARSE_COUNT) | (n - expected < SPARSE_COUNT)))
    grid = np.linspace(-1, 1, 201)
    slopes = np.polynomial.polynomial.polyval(grid, np.polynomial.polynomial.polyder(
        coefficients))
    ed50, se, interval, note = _ed50(coefficients, covariance, centre, scale, level)
    profile_ci = ConfidenceInterval(math.nan, math.nan)
    if profile and not math.isnan(ed50):
        bounds = _profile_interval(successes, n, z, coefficients, float(fit.deviance),
                                   (ed50 - centre) / scale, level)
        profile_ci = ConfidenceInterval(*(float(centre + scale * b) for b in bounds))
        if any(math.isnan(b) for b in bounds):
            note = "; ".join(filter(None, [note, "a profile-likelihood bound lies beyond "
                                                 "the measured densities: left NaN"]))
    return PassRateCurve(
        densities=densities, successes=successes, n=n, model=MODELS[chosen], degree=chosen,
        centre=centre, scale=scale, coefficients=coefficients, covariance=covariance,
        deviance=float(fit.deviance), df=df, gof_p=float(chi2.sf(fit.deviance, df)),
        pearson_chi2=float(fit.pearson_chi2), pearson_p=float(chi2.sf(fit.pearson_chi2, df)),
        aic=float(fit.aic),
        standardized_residuals=np.asarray(fit.get_influence().resid_studentized, dtype=float),
        sparse_points=sparse, candidates=candidates,
        lrt_p=math.nan if chosen == 1 else float(chi2.sf(
            max(fits[1].deviance - fit.deviance, 0.0), chosen - 1)),
        monotone=bool(np.all(slopes <= 0) or np.all(slopes >= 0)),
        ed50=ed50, ed50_se=se, ed50_ci=interval, ed50_profile_ci=profile_ci, ed50_note=note,
        confidence_level=level, alpha=float(alpha))
