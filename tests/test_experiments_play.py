"""The win-rate experiment scripts run end to end on small n and write their files."""

from fractions import Fraction

import numpy as np
import pandas as pd
from test_experiments import assert_sidecar, run_script

from minestats import optimal_win_probability
from minestats.players.player import GUESS_KINDS

SHARED = {"board", "rule", "click_x", "click_y", "policy", "n", "successes", "ci_low",
          "ci_high", "seed"}


def test_win_rates(tmp_path):
    out = run_script("win_rates.py", tmp_path, "--n-small", "20", "--n-intermediate", "4",
                     "--n-expert", "2", "--n-paper", "3", "--n-paired-small", "12",
                     "--n-paired-intermediate", "3", "--n-paired-expert", "1")
    table = pd.read_csv(tmp_path / "win_rates.csv")
    assert len(table) == 4 * 4 * 2 and SHARED <= set(table.columns)
    expert = table[table["width"] == 30].set_index(["rule", "policy"])["n"]
    assert expert[("safe-click", "best")] == 3 and expert[("safe-opening", "best")] == 2
    assert set(expert.drop(("safe-click", "best"))) == {2}
    published = pd.read_csv(tmp_path / "win_rates_published.csv")
    assert len(published) == 10
    expert = published[(published["board"] == "30x16/99") & (published["rule"] == "safe-click")]
    assert set(expert["published_win_rate"]) == {0.4004, 0.4113}
    assert (published["difference_method"] == "newcombe").all()
    assert (published["difference_ci_low"] <= published["difference"]).all()
    assert (published["difference"] <= published["difference_ci_high"]).all()
    assert published["p_value"].between(0, 1).all()
    assert (published["holm_p"] >= published["p_value"]).all()
    hill = published[published["source"] == "Hill"].set_index("rule")
    assert hill.loc["safe-opening", "rounding"] == 0.0005
    assert hill.loc["safe-click", "rounding"] == 0.00005
    assert (published["difference_low_with_rounding"]
            == published["difference_ci_low"] - published["rounding"]).all()
    assert published["citation"].str.contains("10\\^").all()
    assert_sidecar(tmp_path / "win_rates.csv", seed=7)
    assert "Against the published figures" in out
    bins = pd.read_csv(tmp_path / "loss_analysis_bins.csv")
    losses = pd.read_csv(tmp_path / "loss_analysis.csv")
    expert = table[(table["width"] == 30) & (table["policy"] == "best")
                   & table["rule"].isin(["safe-click", "safe-opening"])]
    lost_at_guess = (expert["n"] - expert["successes"] - expert["lost_first_click"]).sum()
    assert bins["losses"].sum() == lost_at_guess == losses["losses"].sum()
    assert set(losses["kind"]) == set(GUESS_KINDS)
    assert (tmp_path / "loss_analysis.png").exists() and (tmp_path / "loss_analysis.pdf").exists()
    paired = pd.read_csv(tmp_path / "win_rates_paired.csv")
    assert len(paired) == 4 * 4
    assert set(zip(paired["first"], paired["second"], strict=True)) == {("safest", "best")}
    assert list(paired["n"]) == [12] * 8 + [3] * 4 + [1] * 4
    counts = paired[["both", "first_only", "second_only", "neither"]].sum(axis=1)
    assert (counts == paired["n"]).all()
    assert (paired["first_rate"] == (paired["both"] + paired["first_only"]) / paired["n"]).all()
    # the common games draw from their own children of the stream, not the table's rows
    assert not set(paired["seed"]) & set(table["seed"])
    assert_sidecar(tmp_path / "win_rates_paired.csv", seed=7)
    assert "Adjacent policies on common games" in out


def test_win_rate_by_click(tmp_path):
    out = run_script("win_rate_by_click.py", tmp_path, "--n", "2", "--n-intermediate", "1",
                     "--rules", "winxp")
    table = pd.read_csv(tmp_path / "win_rate_by_click.csv")
    assert len(table) == 81 + 256 and set(table["rule"]) == {"winxp"}
    assert SHARED <= set(table.columns)
    assert len(list(tmp_path.glob("win_rate_by_click_*.png"))) == 2
    # winxp favours the top-left, so its cells are not pooled by symmetry class
    assert not (tmp_path / "win_rate_by_click_classes.csv").exists()
    assert "not pooled by class: winxp is not symmetric" in out
    assert "Bonferroni-adjusted" in out and "not selection-aware" not in out
    out = run_script("win_rate_by_click.py", tmp_path, "--n", "2", "--n-intermediate", "1",
                     "--rules", "uniform", "winxp")
    table = pd.read_csv(tmp_path / "win_rate_by_click.csv")
    classes = pd.read_csv(tmp_path / "win_rate_by_click_classes.csv")
    assert len(classes) == 2 * 6 and set(classes["rule"]) == {"uniform"}
    between = classes[classes["cell_class"] == "between classes"].set_index("board")
    totals = table[table["rule"] == "uniform"].groupby("board")[["n", "successes"]].sum()
    assert (between[["n", "successes"]] == totals.loc[between.index]).all().all()


def test_win_rate_by_density(tmp_path):
    run_script("win_rate_by_density.py", tmp_path, "--n", "4", "--densities", "0.1", "0.2")
    table = pd.read_csv(tmp_path / "win_rate_by_density.csv")
    assert sorted(table["mines"].unique().tolist()) == [26, 48, 51, 96]
    assert (tmp_path / "win_rate_by_density.png").exists()


def test_optimal_play(tmp_path):
    run_script("optimal_play.py", tmp_path, "--n", "50", "--boards", "4x4/4")
    table = pd.read_csv(tmp_path / "optimal_play.csv")
    assert len(table) == 4 * 2 and SHARED <= set(table.columns)
    uniform = table[table["rule"] == "uniform"].iloc[0]
    # From the corner, the optimal player does no better than from the best first click
    # (961/1820, the published optimum), and the script reports the corner's value.
    corner = Fraction(uniform["optimal_fraction"])
    assert corner < Fraction(961, 1820)
    assert corner == optimal_win_probability("4x4/4", rule="uniform", click=(0, 0))


def test_policy_ablation(tmp_path):
    out = run_script("policy_ablation.py", tmp_path, "--n", "6", "--chunk-size", "3")
    table = pd.read_csv(tmp_path / "policy_ablation.csv")
    assert len(table) >= 3 and (table["n"] == 6).all()
    assert table["full"].nunique() == 1 and table["variant"].nunique() == len(table)
    assert (table["difference"] * 6 == table["full_only"] - table["variant_only"]).all()
    assert np.allclose(table["difference"], table["full_rate"] - table["variant_rate"])
    assert (table["difference_ci_low"] <= table["difference"]).all()
    assert (table["holm_p"] >= table["mcnemar_p"]).all()
    assert_sidecar(tmp_path / "policy_ablation.csv", seed=7)
    assert "switched against the full player" in out


def test_winxp_player(tmp_path):
    out = run_script("winxp_player.py", tmp_path, "--n", "6", "--chunk-size", "3")
    table = pd.read_csv(tmp_path / "winxp_player.csv")
    assert table["variant"].tolist() == ["best (weigh_winxp=False)"] and table["n"].item() == 6
    assert table["difference"].item() * 6 == table["full_only"].item() - table[
        "variant_only"].item()
    assert_sidecar(tmp_path / "winxp_player.csv", seed=7)
    assert "Windows XP's deal" in out
