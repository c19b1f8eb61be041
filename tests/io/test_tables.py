import numpy as np
import pandas as pd
import pytest

from minestats.io.tables import (
    MISSING,
    escape_latex,
    format_interval,
    format_table,
    latex_table,
    markdown_table,
)

# Column names as the experiments write them.
PAIRED = pd.DataFrame({
    "board": ["9x9/10", "16x16/40"],
    "first": ["single-point", "subset"],
    "n": [10000, 10000],
    "first_rate": [0.6488, 0.8102],
    "first_ci_low": [0.63939, 0.80240],
    "first_ci_high": [0.65810, 0.81777],
    "difference": [-0.1614, -0.0907],
    "difference_ci_low": [-0.16862, -0.09640],
    "difference_ci_high": [-0.15419, -0.08512],
    "unpaired_ci_low": [-0.17348, -0.10037],
    "unpaired_ci_high": [-0.14926, -0.08104],
    "mcnemar_p": [0.0, 0.0123456],
    "holm_reject": [True, False],
})


def test_intervals_merge_with_their_estimate_at_its_place():
    table = format_table(PAIRED)
    assert list(table.columns) == [
        "board", "first", "n", "first_rate [first_ci_low, first_ci_high]",
        "difference [difference_ci_low, difference_ci_high]",
        "[unpaired_ci_low, unpaired_ci_high]", "mcnemar_p", "holm_reject"]
    assert table.iloc[0].tolist() == [
        "9x9/10", "single-point", "10,000", "0.6488 [0.6394, 0.6581]",
        "-0.1614 [-0.1686, -0.1542]", "[-0.1735, -0.1493]", "< 1e-10", "yes"]
    assert table.iloc[1, -2:].tolist() == ["0.0123", "no"]


@pytest.mark.parametrize(("columns", "header"), [
    ({"mc": 0.40683, "ci_low": 0.40471, "ci_high": 0.40902}, "mc [ci_low, ci_high]"),
    ({"pass_rate": 0.40683, "ci_low": 0.40471, "ci_high": 0.40902},
     "pass_rate [ci_low, ci_high]"),
    ({"exact": 0.5, "mc": 0.40683, "ci_low": 0.40471, "ci_high": 0.40902},
     "mc [ci_low, ci_high]"),
    ({"pooled_n": 2, "pooled_win_rate": 0.40683, "pooled_ci_low": 0.40471,
      "pooled_ci_high": 0.40902}, "pooled_win_rate [pooled_ci_low, pooled_ci_high]"),
    ({"capped": 3, "capped_share": 0.40683, "capped_ci_low": 0.40471,
      "capped_ci_high": 0.40902}, "capped_share [capped_ci_low, capped_ci_high]"),
    ({"published": 0.40683, "published_wilson_low": 0.40471, "published_wilson_high": 0.40902},
     "published [published_wilson_low, published_wilson_high]"),
])
def test_each_naming_of_an_interval_finds_its_estimate(columns, header):
    table = format_table(pd.DataFrame({key: [value] for key, value in columns.items()}))
    assert table.columns[-1] == header
    assert table.iloc[0, -1] == "0.4068 [0.4047, 0.4090]"


def test_a_second_interval_of_one_estimate_stands_alone():
    frame = pd.DataFrame({"ed50": [0.13282], "ed50_ci_low": [0.13238], "ed50_ci_high": [0.13326],
                          "ed50_profile_low": [0.13238], "ed50_profile_high": [0.13326]})
    table = format_table(frame)
    # widths under 0.001: five decimals show two significant digits of them
    assert table.iloc[0].tolist() == ["0.13282 [0.13238, 0.13326]", "[0.13238, 0.13326]"]


def test_interval_decimals_follow_the_narrowest_width_within_limits():
    assert format_table(pd.DataFrame({"share": [0.009904], "ci_low": [0.009712],
                                      "ci_high": [0.010100]})).iloc[0, 0] == (
        "0.00990 [0.00971, 0.01010]")
    assert format_table(pd.DataFrame({"share": [0.0], "ci_low": [0.0],
                                      "ci_high": [1.9e-7]})).iloc[0, 0] == (
        "0.000000 [0.000000, 0.000000]")  # at most six decimals
    assert format_interval(0.5, 0.4, 0.6, digits=2) == "0.50 [0.40, 0.60]"


def test_bounds_that_are_not_an_interval_are_left_alone():
    frame = pd.DataFrame({"low": [70], "high": [130], "density_min": [0.05],
                          "density_max": [0.3]})
    assert format_table(frame).iloc[0].tolist() == ["70", "130", "0.05", "0.3"]


def test_counts_p_values_booleans_and_missing_values():
    frame = pd.DataFrame({
        "n": [1_000_000, 20],
        "n_reference": [np.nan, 1987.0],  # whole numbers stored as float beside a NaN
        "p_value": [0.33817, 1e-11],
        "gof_p": [0.048, np.nan],
        "rule_seconds": [5.7177e-6, 12345.6],
        "adequate": [True, np.nan],
        "note": [None, "tie"],
    })
    table = format_table(frame)
    assert table.iloc[0].tolist() == ["1,000,000", MISSING, "0.338", "0.048", "5.718e-06",
                                      "yes", MISSING]
    assert table.iloc[1].tolist() == ["20", "1,987", "< 1e-10", MISSING, "12,346", MISSING,
                                      "tie"]


def test_every_p_value_column_the_experiments_write_prints_with_the_floor():
    """The test table of minestats.experiments.no_guess_bias: p_holm too prints '< 1e-10'."""
    tests = pd.DataFrame({
        "board": ["9x9/10", "30x16/99"], "sample": ["retry", "perturb"],
        "reference": ["rule", "solvable-rule"], "n": [2000, 2000],
        "n_reference": [np.nan, 1987.0], "test": ["chi-square", "permutation"],
        "statistic": [82.49, 1500.2], "df": pd.array([71, pd.NA], dtype="Int64"),
        "p_value": [0.16546, 6.35e-279], "p_holm": [0.33093, 1.905e-278],
        "p_reported": ["0.165", "< 1e-10"], "p_holm_reported": ["0.331", "< 1e-10"],
        "cells_holm_rejected": [0, 12], "cells_tested": [72, 470], "max_abs_z": [2.9, 7.1],
        "seed": ["42/0/0", "42/0/1"], "reference_seed": [np.nan, "42/0/2"]})
    table = format_table(tests)
    assert list(table.columns) == [
        "board", "sample", "reference", "n", "n_reference", "test", "statistic", "df",
        "p_value", "p_holm", "cells_holm_rejected", "cells_tested", "max_abs_z"]
    assert table["p_value"].tolist() == ["0.165", "< 1e-10"]
    assert table["p_holm"].tolist() == ["0.331", "< 1e-10"]
    assert table["df"].tolist() == ["71", MISSING]
    assert "e-278" not in latex_table(tests) + markdown_table(tests)
    assert r"\textless{} 1e-10 & \textless{} 1e-10" in latex_table(tests)
    assert "| < 1e-10 | < 1e-10 |" in markdown_table(tests)
    others = pd.DataFrame({name: [1e-300, 0.5] for name in (
        "mcnemar_p", "exact_p", "gof_p", "pearson_p", "lrt_p", "logit_gof_p", "min_p_value")})
    assert format_table(others.assign(tries_p95=[3.5, 2.25])).iloc[0].tolist() == [
        "< 1e-10"] * 7 + ["3.5"]


def test_bookkeeping_columns_stay_out_of_the_twins():
    """solver_pass_rates_paired.csv's header: the twins print the comparison only."""
    header = ("board,rule,click,first,second,n,both,first_only,second_only,neither,first_rate,"
              "first_ci_low,first_ci_high,second_rate,second_ci_low,second_ci_high,difference,"
              "difference_ci_low,difference_ci_high,unpaired_ci_low,unpaired_ci_high,"
              "width_ratio,mcnemar_p,holm_reject,seed,width,height,mines,density,click_x,"
              "click_y,outcome,first_successes,second_successes,confidence_level,chunk_size")
    row = ["9x9/10", "safe-opening", "centre", "single-point", "subset", 10000, 6483, 0, 1697,
           1820, 0.6483, 0.63889, 0.65760, 0.818, 0.81032, 0.82544, -0.1697, -0.17707,
           -0.16235, -0.18170, -0.15764, 0.6118, 0.0, True, "42/3/4/0", 9, 9, 10, 0.1235, 4,
           4, "passed", 6483, 8180, 0.95, 2000]
    frame = pd.DataFrame([row], columns=header.split(","))
    assert list(format_table(frame).columns) == [
        "board", "rule", "click", "first", "second", "n", "both", "first_only",
        "second_only", "neither", "first_rate [first_ci_low, first_ci_high]",
        "second_rate [second_ci_low, second_ci_high]",
        "difference [difference_ci_low, difference_ci_high]",
        "[unpaired_ci_low, unpaired_ci_high]", "width_ratio", "mcnemar_p", "holm_reject"]
    latex, markdown = latex_table(frame).splitlines(), markdown_table(frame).splitlines()
    assert latex[0] == "% 95% intervals" and latex[1].startswith(r"\begin{tabular}")
    assert markdown[:2] == ["95% intervals", ""] and markdown[2].startswith("| board |")
    # without their saying columns, implied columns print
    assert list(format_table(frame[["width", "height", "click_x"]]).columns) == [
        "width", "height", "click_x"]
    # two confidence levels: the column stays, no note
    two = pd.concat([frame, frame.assign(confidence_level=0.99)])
    assert "confidence_level" in format_table(two).columns
    assert markdown_table(two).startswith("| board |")


def test_intervals_of_one_kind_share_their_decimals():
    frame = pd.DataFrame({"first_rate": [0.5], "first_ci_low": [0.49], "first_ci_high": [0.51],
                          "second_rate": [0.5], "second_ci_low": [0.49995],
                          "second_ci_high": [0.50005], "capped_share": [0.1],
                          "capped_ci_low": [0.05], "capped_ci_high": [0.15]})
    assert format_table(frame).iloc[0].tolist() == [
        "0.500000 [0.490000, 0.510000]", "0.500000 [0.499950, 0.500050]",
        "0.1000 [0.0500, 0.1500]"]


def test_latex_has_booktabs_rules_and_escapes():
    frame = pd.DataFrame({"rule_name": ["safe_click", "100% & more", "#1 {a}"],
                          "win_rate": [0.5, 0.25, np.nan], "ci_low": [0.45, 0.2, np.nan],
                          "ci_high": [0.55, 0.3, np.nan], "p_value": [1e-12, 0.5, 0.05]})
    lines = latex_table(frame).splitlines()
    assert lines[0] == r"\begin{tabular}{lrr}"
    assert lines[1] == r"\toprule" and lines[3] == r"\midrule"
    assert lines[-2:] == [r"\bottomrule", r"\end{tabular}"]
    assert lines[2] == r"rule\_name & win\_rate [ci\_low, ci\_high] & p\_value \\"
    assert lines[4] == r"safe\_click & 0.5000 [0.4500, 0.5500] & \textless{} 1e-10 \\"
    assert lines[5].startswith(r"100\% \& more & ")
    assert lines[6] == r"\#1 \{a\} & -- & 0.05 \\"
    assert all(line.replace(r"\&", "").count("&") == 2 for line in lines[2:-2]
               if line != r"\midrule")


def test_escape_latex_specials():
    assert escape_latex(r"a\b~c^d$e") == (
        r"a\textbackslash{}b\textasciitilde{}c\textasciicircum{}d\$e")


def test_markdown_column_counts_match_and_numbers_align_right():
    lines = markdown_table(PAIRED.assign(first=["a|b", "c"])).splitlines()
    assert len(lines) == 2 + len(PAIRED)
    cells = [len(line.replace(r"\|", "").split("|")) - 2 for line in lines]
    assert cells == [8] * len(lines)
    assert lines[1] == "| :--- | :--- | ---: | ---: | ---: | ---: | ---: | :--- |"
    assert lines[2].startswith(r"| 9x9/10 | a\|b | 10,000 | 0.6488 [0.6394, 0.6581] |")


def test_empty_table_keeps_its_header():
    frame = pd.DataFrame({"rule": pd.Series([], dtype=object), "n": pd.Series([], dtype=int)})
    assert markdown_table(frame).splitlines() == ["| rule | n |", "| :--- | ---: |"]
    assert latex_table(frame).splitlines()[2:4] == [r"rule & n \\", r"\midrule"]
