"""Statistics: intervals, tests, multiple comparisons, maps of proportions, formatting.

The package's statistics, one module a job; every public name is also importable
from ``minestats.stats`` itself.

- `minestats.stats.intervals`: Wilson intervals of proportions, Newcombe's intervals
  of paired and independent differences, a difference from a published figure, the
  log-scale interval of a ratio, Student's t interval of a mean.
- `minestats.stats.significance`: Fisher's and the binomial exact test against a
  figure from elsewhere, and the whole comparison with a published figure;
  homogeneity of several proportions, McNemar's exact test, z-scores and two-sided
  p-values; samples of layouts against a uniform placement
  (the chi-square rescaled for sampling without replacement) and against each other
  (a permutation test).
- `minestats.stats.multiple`: Holm's method (decisions and adjusted p-values), and
  the Bonferroni level of an estimate picked as the extreme of many, and a table's
  rows with intervals that hold together (`simultaneous_intervals`).
- `minestats.stats.maps`: maps of one proportion per cell: the smallest deviation a
  corrected test finds, Moran's I of neighbouring cells, cells pooled by symmetry
  orbit or by click class, and the test that an orbit's cells agree.
- `minestats.stats.effects`: the spread of many true effects beneath their
  estimates' noise.
- `minestats.stats.selection`: what choosing the best of several candidates gains,
  measured on draws it was not chosen on, and a candidate's paired gap to a reference.
- `minestats.stats.formatting`: p-values printed with a floor.
- `minestats.stats.proportions`: `ProportionResult`, the base of every counting result.
- `minestats.stats.fits`: pass-rate curves against mine density (binomial GLMs).

scipy, statsmodels and pandas are imported when first needed, so importing the
package is cheap. ``Homogeneity`` is a deprecated name of `ChiSquareTest`, until 0.4.
"""

from minestats.foundations.deprecation import deprecated_names
from minestats.stats.effects import EffectSpread, effect_spread
from minestats.stats.formatting import (
    P_VALUE_FLOOR,
    format_p_value,
)
from minestats.stats.intervals import (
    ConfidenceInterval,
    Difference,
    MeanInterval,
    difference_from_reference,
    difference_interval,
    mean_interval,
    paired_difference_interval,
    proportion_interval,
    ratio_interval,
    wilson_interval,
)
from minestats.stats.maps import (
    CLICK_CLASSES,
    click_class,
    click_orbit,
    detectable_deviation,
    neighbour_correlation,
    orbit_test,
    pool_by_click_class,
    pool_by_orbit,
)
from minestats.stats.multiple import (
    bonferroni_level,
    holm_adjust,
    holm_reject,
    simultaneous_intervals,
)
from minestats.stats.proportions import ProportionResult
from minestats.stats.selection import (
    group_folds,
    least_squares_switch_gains,
    paired_gap,
    split_half_gain,
)
from minestats.stats.significance import (
    ChiSquareTest,
    PermutationTest,
    PublishedComparison,
    compare_to_published,
    exact_difference_p_value,
    fixed_total_chi_square,
    homogeneity_test,
    mcnemar_p_value,
    permutation_test,
    two_sided_p_values,
    z_scores,
)

__all__ = ["CLICK_CLASSES", "ChiSquareTest", "ConfidenceInterval", "Difference", "EffectSpread",
           "MeanInterval", "P_VALUE_FLOOR", "PermutationTest", "ProportionResult",
           "PublishedComparison", "bonferroni_level", "click_class", "click_orbit",
           "compare_to_published", "detectable_deviation", "difference_from_reference",
           "difference_interval", "effect_spread", "exact_difference_p_value",
           "fixed_total_chi_square", "format_p_value", "group_folds", "holm_adjust",
           "holm_reject",
           "homogeneity_test", "least_squares_switch_gains", "mcnemar_p_value",
           "mean_interval", "neighbour_correlation",
           "orbit_test", "paired_difference_interval", "paired_gap", "permutation_test",
           "pool_by_click_class", "pool_by_orbit", "proportion_interval", "ratio_interval",
           "simultaneous_intervals", "split_half_gain", "two_sided_p_values",
           "wilson_interval", "z_scores"]

__getattr__ = deprecated_names(__name__, {
    "Homogeneity": (ChiSquareTest, "minestats.stats.ChiSquareTest")}, removed_in="0.4")
