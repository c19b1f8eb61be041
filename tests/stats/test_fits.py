import math

import numpy as np
import pytest
import statsmodels.api as sm
from scipy.special import expit
from scipy.stats import chi2

from minestats.stats.fits import MODELS, PassRateCurve, fit_pass_rate_curve

# The grid of minestats.experiments.pass_rate_by_density: 11 densities from 0.05 to 0.30.
DENSITIES = np.round(np.arange(0.05, 0.30 + 1e-9, 0.025), 3)
TRUE_ED50 = 0.17
TRUE_SLOPE = -30.0  # logit P(pass) = -30 (density - 0.17)


def logistic_sample(rng, n=200):
    counts = np.full(DENSITIES.size, n)
    return rng.binomial(counts, expit(TRUE_SLOPE * (DENSITIES - TRUE_ED50))), counts


def binomial_deviance(successes, n, fitted):
    with np.errstate(divide="ignore", invalid="ignore"):
        passes = np.where(successes > 0, successes * np.log(successes / (n * fitted)), 0.0)
        fails = np.where(successes < n, (n - successes) * np.log(
            (n - successes) / (n * (1 - fitted))), 0.0)
    return 2 * float(np.sum(passes + fails))


def test_ed50_intervals_cover_the_truth_at_their_nominal_rate():
    # 200 seeded replicates through the whole procedure (degree chosen each time):
    # at 95%, the count covered is about Binomial(200, 0.95), 190 +/- 3.1.
    rng = np.random.default_rng(2026)
    replicates, covered = 200, {"delta": 0, "profile": 0}
    for _ in range(replicates):
        curve = fit_pass_rate_curve(*logistic_sample(rng), DENSITIES)
        covered["delta"] += curve.ed50_ci.low <= TRUE_ED50 <= curve.ed50_ci.high
        covered["profile"] += curve.ed50_profile_ci.low <= TRUE_ED50 <= curve.ed50_profile_ci.high
    tolerance = 3 * math.sqrt(replicates * 0.95 * 0.05)
    for method, count in covered.items():
        assert abs(count - 0.95 * replicates) <= tolerance, (method, count)


def test_plain_logit_matches_a_direct_fit_in_density_units():
    successes, n = logistic_sample(np.random.default_rng(1))
    curve = fit_pass_rate_curve(successes, n, DENSITIES, degree=1)
    direct = sm.GLM(np.column_stack([successes, n - successes]), sm.add_constant(DENSITIES),
                    family=sm.families.Binomial()).fit()
    (a, b), cov = direct.params, direct.cov_params()
    ed50 = -a / b
    # delta method for -a/b: gradient (-1/b, a/b^2)
    gradient = np.array([-1 / b, a / b**2])
    assert curve.model == "logit" and curve.degree == 1
    assert curve.ed50 == pytest.approx(ed50, rel=1e-7)
    assert curve.ed50_se == pytest.approx(math.sqrt(gradient @ cov @ gradient), rel=1e-5)
    assert curve.deviance == pytest.approx(direct.deviance, rel=1e-8)
    assert curve.deviance == pytest.approx(
        binomial_deviance(successes, n, direct.fittedvalues), rel=1e-8)
    assert curve.gof_p == pytest.approx(chi2.sf(direct.deviance, 9))
    assert curve.pearson_chi2 == pytest.approx(direct.pearson_chi2)
    assert curve.ed50_ci.low == pytest.approx(ed50 - 1.959963984540054 * curve.ed50_se)
    low, high = curve.ed50_profile_ci
    assert low < ed50 < high
    # At each profile bound the best line through 0.5 there, b (d - t), has a deviance
    # the chi-square(1) 95% quantile above the best.
    for bound in (low, high):
        forced = sm.GLM(np.column_stack([successes, n - successes]), DENSITIES - bound,
                        family=sm.families.Binomial()).fit()
        assert forced.deviance - direct.deviance == pytest.approx(chi2.ppf(0.95, 1), abs=1e-5)


def test_delta_method_matches_a_numerical_gradient_of_the_root():
    # A curve that needs a cubic term: the logit falls faster at high density.
    counts = np.full(DENSITIES.size, 5000)
    truth = expit(3 - 40 * (DENSITIES - 0.05) - 200 * (DENSITIES - 0.05) ** 3)
    successes = np.random.default_rng(3).binomial(counts, truth)
    curve = fit_pass_rate_curve(successes, counts, DENSITIES, profile=False)
    assert curve.degree >= 2 and curve.candidates[0].gof_p < 1e-6

    def root(coefficients):
        roots = np.polynomial.polynomial.polyroots(coefficients)
        real = roots[(abs(roots.imag) < 1e-9) & (abs(roots.real) <= 1)].real
        assert real.size == 1
        return curve.centre + curve.scale * real[0]

    step = 1e-6
    gradient = np.array([(root(curve.coefficients + step * unit)
                          - root(curve.coefficients - step * unit)) / (2 * step)
                         for unit in np.eye(curve.degree + 1)])
    assert curve.ed50 == pytest.approx(root(curve.coefficients), abs=1e-12)
    assert curve.ed50_se == pytest.approx(math.sqrt(gradient @ curve.covariance @ gradient),
                                          rel=1e-5)
    assert np.isnan(curve.ed50_profile_ci.low) and curve.ed50_note == ""


def test_band_brackets_the_fit_and_matches_statsmodels():
    successes, n = logistic_sample(np.random.default_rng(4))
    curve = fit_pass_rate_curve(successes, n, DENSITIES, degree=2)
    grid = np.linspace(DENSITIES[0], DENSITIES[-1], 51)
    fit, low, high = curve.predict(grid)
    assert fit.shape == low.shape == high.shape == grid.shape
    assert np.all((0 < low) & (low < fit) & (fit < high) & (high < 1))
    assert np.allclose(fit, expit(curve.linear_predictor(grid)))
    _, low99, high99 = curve.predict(grid, 0.99)
    assert np.all((low99 < low) & (high < high99))
    # statsmodels' own prediction interval on the linear predictor, on the z scale
    z = (DENSITIES - curve.centre) / curve.scale
    design = np.vander(z, 3, increasing=True)
    direct = sm.GLM(np.column_stack([successes, n - successes]), design,
                    family=sm.families.Binomial()).fit()
    frame = direct.get_prediction(design).summary_frame(alpha=0.05)
    band = curve.predict(DENSITIES)
    assert np.allclose(band.fit, frame["mean"], rtol=1e-7)
    assert np.allclose(band.low, frame["mean_ci_lower"], rtol=1e-6)
    assert np.allclose(band.high, frame["mean_ci_upper"], rtol=1e-6)
    assert curve.predict(0.4, extrapolate=True).fit.shape == ()


def test_the_degree_is_the_lowest_the_largest_does_not_beat():
    counts = np.full(DENSITIES.size, 5000)
    truth = expit(3 - 40 * (DENSITIES - 0.05) - 200 * (DENSITIES - 0.05) ** 3)
    curve = fit_pass_rate_curve(np.random.default_rng(3).binomial(counts, truth), counts,
                                DENSITIES, profile=False)
    assert [c.model for c in curve.candidates] == list(MODELS.values())
    chosen = curve.candidates[curve.degree - 1]
    assert chosen.degree == curve.degree and (chosen.lrt_p >= curve.alpha
                                              or curve.degree == 4)
    assert all(c.lrt_p < curve.alpha for c in curve.candidates[:curve.degree - 1])
    logit = curve.candidates[0]
    assert curve.lrt_p == pytest.approx(chi2.sf(logit.deviance - curve.deviance,
                                                curve.degree - 1))
    assert curve.to_dict()["logit_gof_p"] == logit.gof_p
    # each candidate's ED50 is its own fit's; the spread covers the accepted ones
    assert curve.candidates[curve.degree - 1].ed50 == pytest.approx(curve.ed50, abs=1e-12)
    cubic = fit_pass_rate_curve(np.random.default_rng(3).binomial(counts, truth), counts,
                                DENSITIES, degree=3, profile=False)
    assert curve.candidates[2].ed50 == pytest.approx(cubic.ed50, abs=1e-12)
    accepted = [c.ed50 for c in curve.candidates if c.gof_p >= curve.alpha]
    assert len(accepted) == 3 and curve.ed50_models == (min(accepted), max(accepted))
    assert curve.ed50_models.low <= curve.ed50 <= curve.ed50_models.high
    # on plain logistic data the plain logit is kept
    plain = fit_pass_rate_curve(*logistic_sample(np.random.default_rng(5)), DENSITIES)
    assert plain.model == "logit" and math.isnan(plain.lrt_p) and plain.adequate


def test_residual_checks():
    successes, n = logistic_sample(np.random.default_rng(6))
    curve = fit_pass_rate_curve(successes, n, DENSITIES, degree=1, profile=False)
    fitted = curve.predict(DENSITIES).fit
    pearson = (successes - n * fitted) / np.sqrt(n * fitted * (1 - fitted))
    assert curve.pearson_chi2 == pytest.approx(float(np.sum(pearson**2)))
    # studentized: each Pearson residual over sqrt(1 - leverage), so a bit larger
    assert np.all(np.abs(curve.standardized_residuals) >= np.abs(pearson) - 1e-12)
    assert curve.sparse_points == int(np.sum((n * fitted < 5) | (n * (1 - fitted) < 5)))
    row = curve.to_dict()
    assert row["max_abs_std_residual"] == np.abs(curve.standardized_residuals).max()
    assert row["fit"] == "logit" and np.isnan(row["b2"]) and row["b1"] < 0
    assert repr(curve).startswith("PassRateCurve(model='logit', deviance=")


def test_missing_ed50_says_why():
    above = fit_pass_rate_curve([99, 97, 95, 90, 85], [100] * 5, [0.1, 0.12, 0.14, 0.16, 0.18])
    assert math.isnan(above.ed50) and math.isnan(above.ed50_ci.low)
    assert math.isnan(above.ed50_profile_ci.high)
    assert "stays above 0.5" in above.ed50_note and "not extrapolated" in above.ed50_note
    below = fit_pass_rate_curve([40, 30, 20, 10], [100] * 4, [0.1, 0.2, 0.3, 0.4])
    assert "stays below 0.5" in below.ed50_note
    twice = fit_pass_rate_curve([80, 30, 25, 30, 80], [100] * 5, [0.1, 0.2, 0.3, 0.4, 0.5],
                                degree=2)
    assert math.isnan(twice.ed50) and "crosses 0.5 2 times" in twice.ed50_note
    assert not twice.monotone


def test_separation_lowers_the_largest_degree():
    # Mixed counts at three densities: a cubic through them separates the ends.
    curve = fit_pass_rate_curve([10, 9, 5, 1, 0], [10] * 5, [0.1, 0.15, 0.2, 0.25, 0.3])
    assert [c.degree for c in curve.candidates] == [1, 2]
    with pytest.raises(ValueError, match=r"^degree \(3\) separates the data"):
        fit_pass_rate_curve([10, 9, 5, 1, 0], [10] * 5, [0.1, 0.15, 0.2, 0.25, 0.3], degree=3)
    with pytest.raises(ValueError, match="separated"):
        fit_pass_rate_curve([10, 10, 5, 0, 0], [10] * 5, [0.1, 0.15, 0.2, 0.25, 0.3])
    with pytest.raises(ValueError, match="separated"):
        fit_pass_rate_curve([0, 0, 0], [10] * 3, [0.1, 0.2, 0.3])


@pytest.mark.parametrize(("arguments", "keywords", "message"), [
    (([1, 2, 3], [10, 10], [0.1, 0.2, 0.3]), {},
     r"successes \(3 values\), n \(2\) and densities \(3\) must have the same length"),
    (([5, 11, 3], [10, 10, 10], [0.1, 0.2, 0.3]), {},
     r"successes\[1\] \(11\) must lie between 0 and n\[1\] \(10\)"),
    (([5, -1, 3], [10, 10, 10], [0.1, 0.2, 0.3]), {}, r"successes\[1\] \(-1\)"),
    (([5, 4], [10, 10], [0.1, 0.2]), {}, "at least 3 distinct densities to fit and check; got 2"),
    (([5, 4, 3], [10, 10, 10], [0.1, 0.1, 0.1]), {}, "at least 3 distinct densities"),
    (([5, 4, 3], [10, 0, 10], [0.1, 0.2, 0.3]), {}, r"n \(0\) must be at least 1"),
    (([5.5, 4, 3], [10, 10, 10], [0.1, 0.2, 0.3]), {}, "successes must be whole numbers"),
    (([5, 4, 3], [10, 10, 10], [0.1, 0.2, 1.3]), {}, r"densities must lie in \[0, 1\]"),
    (([5, 4, 3], [10, 10, 10], [0.1, 0.2, 0.3]), {"degree": 2},
     r"degree \(2\) must be an int from 1 to 1 with 3 distinct densities"),
    (([5, 4, 3], [10, 10, 10], [0.1, 0.2, 0.3]), {"max_degree": 0}, r"max_degree \(0\)"),
    (([5, 4, 3], [10, 10, 10], [0.1, 0.2, 0.3]), {"confidence_level": 95},
     r"confidence_level \(95\)"),
    (([5, 4, 3], [10, 10, 10], [0.1, 0.2, 0.3]), {"alpha": 0}, r"alpha \(0\)"),
])
def test_bad_input_gets_one_line(arguments, keywords, message):
    with pytest.raises(ValueError, match=message) as error:
        fit_pass_rate_curve(*arguments, **keywords)
    assert "\n" not in str(error.value)


def test_predict_refuses_to_extrapolate():
    curve = fit_pass_rate_curve([9, 5, 1], [10] * 3, [0.1, 0.2, 0.3])
    assert isinstance(curve, PassRateCurve) and curve.df == 1
    with pytest.raises(ValueError, match=r"densities \[0.05\] lie outside the measured range "
                                         r"\[0.1, 0.3\]"):
        curve.predict([0.05, 0.2])
    with pytest.raises(ValueError, match=r"confidence_level \(2\)"):
        curve.predict(0.2, 2)
