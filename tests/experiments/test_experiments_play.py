"""The win-rate experiment scripts run end to end on small n and write their files."""

import json
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pandas as pd
from scipy.stats import fisher_exact, norm
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportion_confint

from minestats import optimal_win_probability
from minestats.drivers.win_rates import win_rate
from minestats.experiments.held_out_challenger import COMPONENTS as CHALLENGER
from minestats.experiments.policy_ablation import COMPONENTS as ABLATION
from minestats.foundations.board import Board
from minestats.players.player import GUESS_KINDS
from minestats.reproduction.registry import experiment
from tests.experiments.test_experiments import ROOT, assert_sidecar, assert_wilson, run_script

SHARED = {"board", "rule", "click_x", "click_y", "policy", "n", "successes", "ci_low",
          "ci_high", "seed"}


def test_win_rates(tmp_path):
    out = run_script("win_rates.py", tmp_path, "--n-small", "20", "--n-intermediate", "4",
                     "--n-expert", "2", "--n-paper", "3")
    table = pd.read_csv(tmp_path / "win_rates.csv")
    assert len(table) == 4 * 4 * 2 and SHARED <= set(table.columns)
    sizes = table.set_index(["width", "rule", "policy"])["n"]
    for width, n in ((8, 20), (9, 20), (16, 4), (30, 2)):
        board = sizes[width]
        assert board[("safe-click", "best")] == 3, "--n-paper sets every board's corner row"
        assert board[("safe-opening", "best")] == n  # no --n-paper-opening: the board's n
        assert set(board.drop(("safe-click", "best"))) == {n}
    assert_sidecar(tmp_path / "win_rates.csv", seed=7)
    bins = pd.read_csv(tmp_path / "loss_analysis_bins.csv")
    losses = pd.read_csv(tmp_path / "loss_analysis.csv")
    expert = table[(table["width"] == 30) & (table["policy"] == "best")
                   & table["rule"].isin(["safe-click", "safe-opening"])]
    lost_at_guess = (expert["n"] - expert["successes"] - expert["lost_first_click"]).sum()
    assert bins["losses"].sum() == lost_at_guess == losses["losses"].sum()
    assert set(losses["kind"]) == set(GUESS_KINDS)
    wrote = next(line for line in out.splitlines() if line.startswith("Wrote "))
    for name in ("win_rates.csv", "loss_analysis.csv", "loss_analysis_bins.csv",
                 "loss_analysis.png", "loss_analysis.pdf"):
        assert str(tmp_path / name) in wrote and (tmp_path / name).exists()
    assert "PosixPath" not in wrote  # the files by name, not a tuple's repr
    assert (tmp_path / "loss_analysis.png").exists() and (tmp_path / "loss_analysis.pdf").exists()
    assert not (tmp_path / "win_rates_paired.csv").exists()  # its own experiment
    assert not (tmp_path / "win_rates_published.csv").exists()  # and this one
    out = run_script("win_rates_published.py", tmp_path)
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
    assert (published["test"] == "fisher").all()
    assert_wilson(published, "win_rate")
    for row in published.itertuples():  # Fisher's exact p, recomputed from the table
        other = round(row.published_win_rate * row.published_n)
        expected = fisher_exact([[row.successes, row.n - row.successes],
                                 [other, row.published_n - other]]).pvalue
        assert row.p_value == expected
    assert "Against the published figures" in out
    sidecar = json.loads((tmp_path / "win_rates_published.csv.json").read_text())
    assert sidecar["input"].endswith("win_rates.csv")
    assert sidecar["input_metadata"]["seed"] == "7/10"
    assert_sidecar(tmp_path / "win_rates_published.csv", seed=None)


def test_win_rates_replication_plays_the_expert_rows_on_its_own_stream(tmp_path):
    out = run_script("win_rates_replication.py", tmp_path, "--n", "4", "--chunk-size", "3")
    table = pd.read_csv(tmp_path / "win_rates_replication.csv")
    assert_sidecar(tmp_path / "win_rates_replication.csv", seed=7)
    assert list(zip(table["source"], table["rule"], strict=True)) == [
        ("Tu et al. PSEQ-D256", "safe-click"), ("Tu et al. PSEQ-D256", "safe-opening"),
        ("Hill", "safe-click"), ("Hill", "safe-opening")]
    assert list(table["published_win_rate"]) == [0.4004, 0.5345, 0.4113, 0.543]
    assert (table["board"] == "30x16/99").all() and (table["n"] == 4).all()
    starts = {"safe-click": ((0, 0), "7/18/0"), "safe-opening": ((3, 3), "7/18/1")}
    for row in table.itertuples():  # each row replays from its own seed label
        click, seed = starts[row.rule]
        assert (row.click_x, row.click_y) == click and row.seed == seed
        again = win_rate(Board(30, 16, 99), rule=row.rule, click=click, policy="best", n=4,
                         seed=seed, chunk_size=3, workers=1)
        assert again.successes == row.successes
    assert_wilson(table, "win_rate")
    holm = multipletests(table["p_value"], method="holm")[1]
    assert np.allclose(table["holm_p"], holm, rtol=0, atol=1e-15)
    assert "Holm over the four" in out
    assert not (tmp_path / "win_rates_replication_agreement.csv").exists()  # no held-out table
    assert "the agreement table is not written" in out
    run_script("win_rates.py", tmp_path, "--n-small", "1", "--n-intermediate", "1",
               "--n-expert", "5")
    run_script("win_rates_replication.py", tmp_path, "--n", "4", "--chunk-size", "3")
    agreed = pd.read_csv(tmp_path / "win_rates_replication_agreement.csv")
    held_out = pd.read_csv(tmp_path / "win_rates.csv").set_index(["width", "rule", "policy"])
    assert list(agreed["rule"]) == ["safe-click", "safe-opening"]
    for row in agreed.itertuples():
        other = held_out.loc[(30, row.rule, "best")]
        assert (row.held_out_n, row.held_out_successes, row.held_out_seed) == (
            5, other["successes"], other["seed"])
        assert row.difference == row.successes / 4 - other["successes"] / 5
        assert row.difference_ci_low <= row.difference <= row.difference_ci_high
        assert (row.pooled_n, row.pooled_successes) == (9, row.successes + other["successes"])
    pooled = pd.DataFrame({"rate": agreed["pooled_win_rate"], "n": agreed["pooled_n"],
                           "successes": agreed["pooled_successes"],
                           "ci_low": agreed["pooled_ci_low"], "ci_high": agreed["pooled_ci_high"]})
    assert_wilson(pooled, "rate")
    sidecar = json.loads((tmp_path / "win_rates_replication_agreement.csv.json").read_text())
    assert sidecar["input_metadata"]["seed"] == "7/10"
    missing = subprocess.run(
        [sys.executable, "-m", experiment("win_rates_replication").module, "--out", str(tmp_path),
         "--n", "1", "--workers", "1", "--held-out", str(tmp_path / "none.csv")],
        capture_output=True, text=True, timeout=600)
    assert missing.returncode == 1
    assert missing.stderr == f"error: no win-rate table at {tmp_path / 'none.csv'}\n"


def test_win_rates_paired(tmp_path):
    out = run_script("win_rates_paired.py", tmp_path, "--n-small", "12", "--n-intermediate",
                     "3", "--n-expert", "1", "--chunk-size", "5")
    paired = pd.read_csv(tmp_path / "win_rates_paired.csv")
    assert len(paired) == 4 * 4
    assert set(zip(paired["first"], paired["second"], strict=True)) == {("safest", "best")}
    assert list(paired["n"]) == [12] * 8 + [3] * 4 + [1] * 4
    assert list(zip(paired["board"], paired["rule"], strict=True))[:4] == [
        ("8x8/10", rule) for rule in ("safe-click", "safe-opening", "winxp", "uniform")]
    counts = paired[["both", "first_only", "second_only", "neither"]].sum(axis=1)
    assert (counts == paired["n"]).all()
    assert (paired["first_rate"] == (paired["both"] + paired["first_only"]) / paired["n"]).all()
    # setting j draws from child j of the experiment's own stream
    stream = f"7/{experiment('win_rates_paired').stream}"
    assert list(paired["seed"]) == [f"{stream}/{j}" for j in range(16)]
    assert_sidecar(tmp_path / "win_rates_paired.csv", seed=7)
    assert "Adjacent policies on common games" in out


def test_a_resumed_run_says_how_many_chunks_it_read_back(tmp_path):
    """A sidecar's wall time is one invocation's; its store counts say what that covered."""
    store = tmp_path / "paired.sqlite"
    arguments = ("--n-small", "4", "--n-intermediate", "2", "--n-expert", "1",
                 "--chunk-size", "2", "--store", str(store))
    recorded = []
    for run in ("first", "again"):
        out_dir = tmp_path / run
        run_script("win_rates_paired.py", out_dir, *arguments)
        sidecar = json.loads((out_dir / "win_rates_paired.csv.json").read_text())
        recorded.append((sidecar["store"], pd.read_csv(out_dir / "win_rates_paired.csv")))
    (first, table), (again, table_again) = recorded
    assert first["chunks_read_back"] == 0 and first["chunks_computed"] > 0
    assert again == {"chunks_read_back": first["chunks_computed"], "chunks_computed": 0}
    pd.testing.assert_frame_equal(table, table_again)


def orbit_of(width, height, x, y):
    """A cell's symmetry orbit, worked out again: distances from the nearest sides."""
    a, b = min(x, width - 1 - x), min(y, height - 1 - y)
    return tuple(sorted((a, b))) if width == height else (a, b)


def test_win_rate_by_click_winxp(tmp_path):
    out = run_script("win_rate_by_click.py", tmp_path, "--n", "2", "--n-intermediate", "1",
                     "--n-winxp-expert", "1", "--n-paired", "4", "2", "1", "--rules", "winxp")
    table = pd.read_csv(tmp_path / "win_rate_by_click.csv")
    # the coarse grid (7 columns by 4 rows), the corners' 12 neighbours, (2, 2), (3, 3), (15, 8)
    assert table["board"].value_counts().to_dict() == {"16x16/40": 256, "9x9/10": 81,
                                                       "30x16/99": 28 + 12 + 3}
    assert set(table["rule"]) == {"winxp"} and SHARED <= set(table.columns)
    # board i, rule r draws from child 4i + r whatever --rules holds (winxp: r = 3)
    for board, child in (("9x9/10", 3), ("16x16/40", 7), ("30x16/99", 11)):
        rows = table[table["board"] == board]
        assert list(rows["seed"]) == [f"7/11/{child}/{j}" for j in range(len(rows))]
    small = table[table["board"] == "9x9/10"]
    assert (small["click_x"] + 9 * small["click_y"]).tolist() == list(range(81))
    assert {"30x16-99_winxp", "16x16-40_winxp", "9x9-10_winxp"} == {
        path.stem.removeprefix("win_rate_by_click_")
        for path in tmp_path.glob("win_rate_by_click_*.png")}
    assert not (tmp_path / "win_rate_by_click_classes.csv").exists()
    assert not (tmp_path / "win_rate_by_click_orbits.csv").exists()
    assert "not pooled: winxp is not symmetric" in out
    assert "Bonferroni-adjusted" in out
    paired = pd.read_csv(tmp_path / "win_rate_by_click_paired.csv")
    assert set(paired["board"]) == {"9x9/10", "16x16/40", "30x16/99"}
    for index, (board, n) in enumerate((("9x9/10", 4), ("16x16/40", 2), ("30x16/99", 1))):
        rows, cells = paired[paired["board"] == board], table[table["board"] == board]
        best = cells.loc[cells["win_rate"].idxmax()]
        assert (rows["best_x"] == best.click_x).all() and (rows["best_y"] == best.click_y).all()
        assert (rows["selection_seed"] == best.seed).all()
        corner = (best.click_x, best.click_y) == (0, 0)
        assert list(zip(rows["first"], rows["second"], strict=True)) == (
            [("winxp (0, 0)", "safe-click (0, 0)")] if corner else
            [(f"winxp ({best.click_x}, {best.click_y})", "winxp (0, 0)"),
             (f"winxp ({best.click_x}, {best.click_y})", "safe-click (0, 0)"),
             ("winxp (0, 0)", "safe-click (0, 0)")])
        # fresh games: child 12 + i, not the map's
        assert (rows["n"] == n).all() and (rows["seed"] == f"7/11/{12 + index}").all()
    counts = paired[["both", "first_only", "second_only", "neither"]].sum(axis=1)
    assert (counts == paired["n"]).all()
    assert (paired["first_successes"] == paired["both"] + paired["first_only"]).all()
    assert (paired["difference_ci_low"] <= paired["difference"]).all()
    assert_sidecar(tmp_path / "win_rate_by_click_paired.csv", seed=7)


def test_win_rate_by_click_pools_orbits_and_ranks_expert(tmp_path):
    out = run_script("win_rate_by_click.py", tmp_path, "--n", "2", "--n-intermediate", "1",
                     "--n-orbit", "safe-click", "9", "7", "--n-expert", "2",
                     "--rules", "safe-click", "uniform")
    table = pd.read_csv(tmp_path / "win_rate_by_click.csv")
    small = table[table["board"] == "9x9/10"].set_index("rule")
    assert set(small.loc["uniform", "n"]) == {2}
    # 9 games per orbit: the centre alone plays 9, a 4-cell orbit 3 a cell, an 8-cell one 2
    sizes = small.loc["safe-click"].set_index(["click_x", "click_y"])["n"]
    assert (sizes[(4, 4)], sizes[(0, 0)], sizes[(4, 0)], sizes[(1, 0)]) == (9, 3, 3, 2)
    middle = table[(table["board"] == "16x16/40") & (table["rule"] == "safe-click")]
    assert set(middle["n"]) == {2, 1}
    assert set(table.loc[table["board"] == "9x9/10", "seed"].str.rsplit("/", n=1).str[0]) == {
        "7/11/0", "7/11/1"}
    orbits = pd.read_csv(tmp_path / "win_rate_by_click_orbits.csv")
    assert orbits.groupby(["board", "rule"]).size().to_dict() == {
        ("16x16/40", "safe-click"): 36, ("16x16/40", "uniform"): 36,
        ("9x9/10", "safe-click"): 15, ("9x9/10", "uniform"): 15}
    for (board, rule), rows in orbits.groupby(["board", "rule"]):
        cells = table[(table["board"] == board) & (table["rule"] == rule)]
        side = int(board.split("x")[0])
        keys = [orbit_of(side, side, x, y) for x, y in zip(cells["click_x"], cells["click_y"],
                                                           strict=True)]
        expected = cells.assign(key=keys).groupby("key")[["n", "successes"]].sum()
        got = rows.set_index([rows["orbit_x"], rows["orbit_y"]])[["n", "successes"]]
        got.index = list(got.index)
        assert (got.loc[expected.index] == expected).all().all()
        assert rows["cells"].sum() == side * side
        assert set(rows["seed"]) == {cells["seed"].iloc[0].rsplit("/", 1)[0]}
    assert np.allclose(orbits["half_width"], (orbits["ci_high"] - orbits["ci_low"]) / 2)
    classes = pd.read_csv(tmp_path / "win_rate_by_click_classes.csv")
    between = classes[classes["cell_class"] == "between classes"].set_index(["board", "rule"])
    totals = table[table["board"] != "30x16/99"].groupby(["board", "rule"])[["n", "successes"]]
    assert (between[["n", "successes"]] == totals.sum().loc[between.index]).all().all()
    expert = pd.read_csv(tmp_path / "win_rate_by_click_expert.csv")
    assert list(expert["rule"]) == ["safe-click"] * 6 and list(expert["rank"]) == [1, 2, 3, 4,
                                                                                   5, 6]
    assert expert["win_rate"].is_monotonic_decreasing and (expert["n"] == 2).all()
    assert set(zip(expert["click_x"], expert["click_y"], strict=True)) == {
        (0, 0), (1, 1), (2, 2), (3, 3), (15, 0), (15, 8)}
    assert set(expert["seed"].str.rsplit("/", n=1).str[0]) == {"7/11/9"}
    # a ranking reads intervals that hold together: Bonferroni over the rule's 6 clicks,
    # over a map's 81 cells in the per-cell table
    assert np.allclose(expert["simultaneous_level"], 1 - 0.05 / 6)
    low, high = proportion_confint(expert["successes"], expert["n"], alpha=0.05 / 6,
                                   method="wilson")
    assert np.allclose(expert["simultaneous_ci_low"], low)
    assert np.allclose(expert["simultaneous_ci_high"], high)
    assert ((expert["simultaneous_ci_low"] <= expert["ci_low"])
            & (expert["simultaneous_ci_high"] >= expert["ci_high"])).all()
    nine = table[(table["board"] == "9x9/10") & (table["rule"] == "uniform")]
    assert np.allclose(nine["simultaneous_level"], 1 - 0.05 / 81)
    assert not (tmp_path / "win_rate_by_click_paired.csv").exists()
    assert "Expert handful, highest first" in out and "per orbit <=" in out


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
    # the gap in standard errors of a player winning at exactly the optimal rate
    optimal = table["optimal"]
    assert np.allclose(table["gap_z"], (optimal - table["successes"] / table["n"])
                       / np.sqrt(optimal * (1 - optimal) / table["n"]))
    # its two-sided p, and Holm over the rows of each policy, by statsmodels
    assert np.allclose(table["gap_p"], 2 * norm.sf(table["gap_z"].abs()))
    for _, rows in table.groupby("policy"):
        assert np.allclose(rows["gap_p_holm"], multipletests(rows["gap_p"], method="holm")[1])


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


def test_held_out_challenger(tmp_path):
    out = run_script("held_out_challenger.py", tmp_path, "--n", "6", "--chunk-size", "3")
    table = pd.read_csv(tmp_path / "held_out_challenger.csv")
    assert table["variant"].tolist() == ["best (max_candidates=12, off_frontier_cells=4)"]
    assert table["difference"].item() * 6 == table["full_only"].item() - table[
        "variant_only"].item()
    assert_sidecar(tmp_path / "held_out_challenger.csv", seed=7)
    assert "safe corner" in out


def test_held_out_challenger_is_the_development_leader():
    """The challenger is the committed ablation row that leaned furthest the variant's way."""
    ablation = pd.read_csv(ROOT / "results" / "policy_ablation.csv")
    leader = ablation.loc[ablation["difference"].idxmin(), "component"]
    (change,) = CHALLENGER.values()
    assert ABLATION[leader] == change
    assert ablation["seed"].str.endswith("/14").all()
