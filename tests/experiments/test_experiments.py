"""Each experiment script runs end to end on small n and writes its files and sidecars."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportion_confint

from minestats.experiments import common
from minestats.experiments.common import base_parser, p_text, row_seeds
from minestats.reproduction.index import script_of
from minestats.reproduction.registry import EXPERIMENTS as REGISTRY
from minestats.reproduction.registry import experiment
from minestats.stats import format_p_value, ratio_interval

ROOT = Path(__file__).resolve().parents[2]
EXPERIMENTS = ROOT / "minestats" / "experiments"


def run_script(name, tmp_path, *options):
    """Run ``EXPERIMENTS / name`` as ``reproduce`` does, ``python -m``, outside the checkout."""
    command = [sys.executable, "-m", experiment(Path(name).stem).module, "--out", str(tmp_path),
               "--seed", "7", "--workers", "1", *options]
    run = subprocess.run(command, capture_output=True, text=True, timeout=600, cwd=tmp_path.parent)
    assert run.returncode == 0, run.stderr
    return run.stdout


def sidecar(path):
    return json.loads(Path(f"{path}.json").read_text())


def assert_sidecar(path, *, seed):
    """The sidecar records the experiment's own stream of root ``seed`` (None: exact)."""
    metadata = sidecar(path)
    assert metadata["command"].split()[1] == "-m"
    stream = experiment(Path(script_of(metadata["command"])).stem).stream
    assert metadata["seed"] == (None if seed is None else f"{seed}/{stream}")
    assert {"n", "chunk_size", "versions", "git_revision", "wall_time_s"} <= set(metadata)


def assert_wilson(table, proportion):
    """The proportion is successes / n and its interval is statsmodels' Wilson interval."""
    assert np.allclose(table[proportion], table["successes"] / table["n"], rtol=0, atol=1e-15)
    low, high = proportion_confint(table["successes"], table["n"], alpha=0.05, method="wilson")
    assert np.allclose(table["ci_low"], low, rtol=0, atol=1e-12)
    assert np.allclose(table["ci_high"], high, rtol=0, atol=1e-12)


def test_first_click(tmp_path):
    out = run_script("first_click.py", tmp_path, "--n", "3000")
    table = pd.read_csv(tmp_path / "first_click.csv")
    assert len(table) == 12 and (table["n"] == 3000).all()
    assert {"board", "rule", "click_x", "click_y", "exact", "mc", "ci_low", "ci_high", "z",
            "n", "seed"} <= set(table.columns)
    assert_sidecar(tmp_path / "first_click.csv", seed=7)
    assert_wilson(table, "mc")
    assert "n = 3,000 boards per row" in out
    first = table.iloc[0]
    assert f"{first.mc:7.5f} [{first.ci_low:.5f}, {first.ci_high:.5f}]" in out
    # --rules keeps some rows, each with the seed and the counts it has in the full table.
    run_script("first_click.py", tmp_path / "some", "--n", "3000", "--rules", "winxp")
    some = pd.read_csv(tmp_path / "some" / "first_click.csv")
    full = table[table["rule"] == "winxp"].reset_index(drop=True)
    assert len(some) == 3
    pd.testing.assert_frame_equal(some[["board", "seed", "successes"]],
                                  full[["board", "seed", "successes"]])


def test_opening_maps(tmp_path):
    out = run_script("opening_maps.py", tmp_path, "--n", "2000", "--n-safe-opening", "20")
    ranges = pd.read_csv(tmp_path / "opening_ranges.csv")
    assert len(ranges) == 16
    assert_sidecar(tmp_path / "opening_ranges.csv", seed=None)  # exact: no randomness
    assert_sidecar(tmp_path / "opening_maps" / "monte_carlo.csv", seed=7)
    simulated = pd.read_csv(tmp_path / "opening_maps" / "monte_carlo.csv")
    assert set(simulated["n"]) == {2000, 20}
    assert len(list(tmp_path.rglob("*.png"))) == 32
    holm = pd.read_csv(tmp_path / "opening_maps" / "holm.csv")
    assert np.allclose(holm["holm_first_level"], 0.05 / holm["cells"])
    assert (holm["holm_family"] == "the " + holm["cells"].astype(str) + " cells of "
            + holm["board"] + " " + holm["rule"]).all()
    largest = simulated.groupby(["board", "rule"], sort=False)["detectable_deviation"].max()
    assert np.allclose(holm["detectable_deviation"], largest.to_numpy())
    # safe-opening: p = 1, so the deviation that shows one failure in 20 boards
    opening = holm[holm["rule"] == "safe-opening"]
    assert np.allclose(opening["detectable_deviation"], 1 - 0.2 ** (1 / 20))
    assert opening["neighbour_z_correlation"].isna().all()
    assert holm.loc[holm["rule"] != "safe-opening", "neighbour_z_correlation"].between(-1, 1).all()
    assert "spatially correlated" in out and "What the test could detect" in out


def test_solver_pass_rates(tmp_path):
    out = run_script("solver_pass_rates.py", tmp_path, "--n", "20", "--n-single-point", "200",
                     "--n-paired", "30")
    table = pd.read_csv(tmp_path / "solver_pass_rates.csv")
    assert len(table) == 3 * 3 * 4
    assert {"board", "rule", "click", "solver", "use_mine_count", "n", "successes", "capped",
            "lost_first_click", "pass_rate", "ci_low", "ci_high", "seed",
            "seconds_per_game"} <= set(table.columns)
    assert set(table.loc[table["solver"] == "single-point", "n"]) == {200}
    assert set(table.loc[table["solver"] != "single-point", "n"]) == {20}
    assert table["seed"].is_unique and set(table["seed"].str.split("/").str[0]) == {"7"}
    published = pd.read_csv(tmp_path / "solver_pass_rates_published.csv")
    assert list(published["board"]) == ["9x9/10", "16x16/40", "30x16/99"]
    assert list(published["published_successes"]) == [1274, 482, 2]
    assert (published["difference_method"] == "newcombe").all()
    assert np.allclose(published["difference"], published["pass_rate"]
                       - published["published_successes"] / published["published_n"])
    assert (published["difference_ci_low"] <= published["difference"]).all()
    assert (published["difference"] <= published["difference_ci_high"]).all()
    assert published["exact_p"].between(0, 1).all() and "z" not in published.columns
    assert "agree" not in out and "Fisher exact p" in out
    for name in ("solver_pass_rates.csv", "solver_pass_rates_published.csv",
                 "solver_pass_rates_paired.csv"):
        assert_sidecar(tmp_path / name, seed=7)
    assert "published" in out and "Capped share" in out
    # Adjacent solvers on common boards: 9 boards and settings, 3 pairs each.
    paired = pd.read_csv(tmp_path / "solver_pass_rates_paired.csv")
    assert len(paired) == 3 * 3 * 3 and (paired["n"] == 30).all()
    assert list(zip(paired["first"][:3], paired["second"][:3], strict=True)) == [
        ("single-point", "subset"), ("subset", "logic"), ("logic", "logic (no mine count)")]
    stream = experiment("solver_pass_rates").stream
    assert list(paired["seed"]) == [f"7/{stream}/4/{j}" for j in range(9) for _ in range(3)]
    assert list(paired.drop_duplicates(["board", "rule", "click"])[["board", "rule", "click"]]
                .itertuples(index=False, name=None)) == list(
        table.drop_duplicates(["board", "rule", "click"])[["board", "rule", "click"]]
        .itertuples(index=False, name=None))
    cells = paired[["both", "first_only", "second_only", "neither"]]
    assert (cells.sum(axis=1) == paired["n"]).all()
    assert np.allclose(paired["difference"],
                       (paired["first_only"] - paired["second_only"]) / paired["n"])
    assert (paired["difference_ci_low"] <= paired["difference"]).all()
    assert (paired["difference"] <= paired["difference_ci_high"]).all()
    widths = paired["difference_ci_high"] - paired["difference_ci_low"]
    unpaired = paired["unpaired_ci_high"] - paired["unpaired_ci_low"]
    assert np.allclose(paired["width_ratio"], widths / unpaired)
    assert paired["mcnemar_p"].between(0, 1).all()
    for side in ("first", "second"):
        rates = paired.rename(columns={f"{side}_successes": "successes",
                                       f"{side}_ci_low": "ci_low", f"{side}_ci_high": "ci_high"})
        assert_wilson(rates, f"{side}_rate")
    assert "Adjacent solvers on common boards" in out


def test_pass_rate_by_density(tmp_path):
    run_script("pass_rate_by_density.py", tmp_path, "--n", "10", "--n-single-point", "20")
    table = pd.read_csv(tmp_path / "pass_rate_by_density.csv")
    assert len(table) == 2 * 11 * 3 and set(table["size"]) == {"16x16", "30x16"}
    assert_wilson(table, "pass_rate")
    for name in ("pass_rate_by_density.csv", "pass_rate_by_density.png"):
        assert_sidecar(tmp_path / name, seed=7)


def test_pass_rate_fits(tmp_path):
    # The committed pass rates, read from --out by default (as `minestats reproduce` runs it).
    committed = ROOT / "results" / "pass_rate_by_density.csv"
    table = pd.read_csv(committed)
    for suffix in ("", ".json"):
        shutil.copyfile(f"{committed}{suffix}", tmp_path / f"pass_rate_by_density.csv{suffix}")
    out = run_script("pass_rate_fits.py", tmp_path)
    fits = pd.read_csv(tmp_path / "pass_rate_fits.csv")
    assert list(fits[["size", "solver"]].itertuples(index=False, name=None)) == [
        (size, solver) for solver in ("single-point", "subset", "logic")
        for size in ("16x16", "30x16")]
    assert set(fits["fit"]) <= {"logit", "logit+quadratic", "logit+cubic", "logit+quartic"}
    assert (fits["df"] == 11 - fits["degree"] - 1).all()
    assert (fits["logit_gof_p"] < 1e-10).all()  # the plain logit is not enough here
    assert fits["ed50"].between(fits["density_min"], fits["density_max"]).all()
    for low, high in (("ed50_ci_low", "ed50_ci_high"), ("ed50_profile_low", "ed50_profile_high")):
        assert ((fits[low] < fits["ed50"]) & (fits["ed50"] < fits[high])).all()
    assert np.allclose(fits["ed50_mines"], fits["ed50"] * fits["cells"])
    # The chosen degree's ED50 is among those of the accepted degrees when it is accepted
    # itself; a rejected fit (as at the paper-grade sizes) has only the others' range.
    accepted = fits[fits["gof_p"] >= fits["alpha"]]
    assert accepted["ed50"].between(accepted["ed50_models_low"],
                                    accepted["ed50_models_high"]).all()
    assert (fits["adequate"] <= (fits["gof_p"] >= fits["alpha"])).all()
    # logic passes more boards than subset, subset more than single-point
    for size, rows in fits.groupby("size"):
        ed50 = rows.set_index("solver")["ed50"]
        assert ed50["single-point"] < ed50["subset"] < ed50["logic"], size
    for name in ("pass_rate_fits.csv", "pass_rate_fits.png"):
        assert_sidecar(tmp_path / name, seed=None)  # fitting draws no random numbers
    metadata = sidecar(tmp_path / "pass_rate_fits.csv")
    # from the input's own sidecar: the density experiment's stream of root seed 42
    assert metadata["input_metadata"]["seed"] == f"42/{experiment('pass_rate_by_density').stream}"
    # The half-pass density agrees with the points: it lies between the last density whose
    # Wilson interval is above one half and the first whose interval is below.
    for row in fits.itertuples():
        points = table[(table["size"] == row.size) & (table["solver"] == row.solver)]
        above = points.loc[points["ci_low"] > 0.5, "density"].max()
        below = points.loc[points["ci_high"] < 0.5, "density"].min()
        assert above < row.ed50 < below, (row.size, row.solver)
    assert "ED50 0." in out and "plain logit" in out
    # Against a known truth: noise-free counts of a logistic curve, which the family holds,
    # at the committed points' densities; the fit recovers its ED50 (counts rounded to
    # whole boards of 10^6 move a rate by at most 5e-7).
    ed50_true, scale = 0.15, 0.02
    truth = table.assign(n=1_000_000)
    truth["successes"] = np.rint(1e6 / (1 + np.exp((truth["density"] - ed50_true) / scale)))
    truth["pass_rate"] = truth["successes"] / truth["n"]
    truth["ci_low"], truth["ci_high"] = proportion_confint(truth["successes"], truth["n"],
                                                           method="wilson")
    truth.to_csv(tmp_path / "truth.csv", index=False)
    run_script("pass_rate_fits.py", tmp_path / "truth", "--input", str(tmp_path / "truth.csv"))
    recovered = pd.read_csv(tmp_path / "truth" / "pass_rate_fits.csv")
    assert np.allclose(recovered["ed50"], ed50_true, rtol=0, atol=1e-5), recovered["ed50"]
    assert (recovered["ed50_ci_low"] < ed50_true).all() and (
        ed50_true < recovered["ed50_ci_high"]).all()
    # A solver that never falls to half in its measured densities gets no ED50, and says so.
    dense = (table["solver"] == "logic") & (table["density"] > 0.11)
    table[~dense].to_csv(tmp_path / "short.csv", index=False)
    run_script("pass_rate_fits.py", tmp_path / "short", "--input", str(tmp_path / "short.csv"))
    short = pd.read_csv(tmp_path / "short" / "pass_rate_fits.csv").set_index(["size", "solver"])
    for size in ("16x16", "30x16"):
        row = short.loc[(size, "logic")]
        assert row["points"] == 3 and row["fit"] == "logit" and np.isnan(row["ed50"])
        assert np.isnan(row["ed50_ci_low"]) and np.isnan(row["ed50_profile_high"])
        assert "stays above 0.5" in row["ed50_note"]
    assert short["ed50"].notna().sum() == 4


def test_pass_rate_by_click(tmp_path):
    out = run_script("pass_rate_by_click.py", tmp_path, "--n", "4", "--n-intermediate", "2")
    table = pd.read_csv(tmp_path / "pass_rate_by_click.csv")
    assert len(table) == 81 + 256 and table["seed"].is_unique
    assert set(table.loc[table["board"] == "9x9/10", "n"]) == {4}
    assert set(table["rule"]) == {"safe-click"} and set(table["solver"]) == {"logic"}
    for name in ("pass_rate_by_click.csv", "pass_rate_by_click_classes.csv",
                 "pass_rate_by_click_9x9-10.png", "pass_rate_by_click_16x16-40.png"):
        assert_sidecar(tmp_path / name, seed=7)
    assert "half-widths" in out
    classes = pd.read_csv(tmp_path / "pass_rate_by_click_classes.csv")
    for board, rows in classes.groupby("board"):
        cells = table[table["board"] == board]
        within, between, orbits = rows.iloc[:-2], rows.iloc[-2], rows.iloc[-1]
        assert list(within["cell_class"]) == ["corner", "edge next to a corner", "edge",
                                              "interior"]
        assert between["cell_class"] == "between classes" and between["df"] == 3
        # 9x9 has 15 orbits (81 cells), 16x16 has 36 (256 cells): df = cells - orbits
        assert orbits["cell_class"] == "within symmetry orbits"
        assert orbits["df"] == {"9x9/10": 81 - 15, "16x16/40": 256 - 36}[board]
        # The pooled counts are the per-cell counts, summed.
        for column in ("cells", "n", "successes"):
            total = len(cells) if column == "cells" else cells[column].sum()
            assert within[column].sum() == between[column] == total
        assert (within["df"] == within["cells"] - 1).all()
    assert_wilson(classes, "pass_rate")
    assert "Bonferroni-adjusted" in out and "chi-square" in out


def test_bbbv(tmp_path):
    out = run_script("bbbv.py", tmp_path, "--n", "500")
    histogram = pd.read_csv(tmp_path / "bbbv_histogram.csv")
    assert list(histogram.columns[:2]) == ["board", "rule"]
    assert (histogram.groupby(["board", "rule"])["count"].sum() == 500).all()
    summary = pd.read_csv(tmp_path / "bbbv_summary.csv")
    assert len(summary) == 12 and {"mean", "sd", "q05", "q25", "q50", "q75", "q95", "n",
                                   "seed"} <= set(summary.columns)
    share = pd.read_csv(tmp_path / "bbbv_expert_at_most_130.csv")
    assert set(share["board"]) == {"30x16/99"} and len(share) == 4
    assert (share["low"] == 0).all() and (share["high"] == 130).all()
    expert = histogram[histogram["board"] == "30x16/99"].groupby("rule", sort=False)
    assert list(share["min_bbbv"]) == list(expert["bbbv"].min()[share["rule"]])
    at_most = expert.apply(lambda rows: rows.loc[rows["bbbv"] <= 130, "count"].sum())
    assert list(share["successes"]) == list(at_most[share["rule"]])
    for name in ("bbbv_histogram.csv", "bbbv_summary.csv", "bbbv_expert_at_most_130.csv",
                 "bbbv.png", "bbbv.pdf", "bbbv_summary.tex", "bbbv_summary.md",
                 "bbbv_expert_at_most_130.tex", "bbbv_expert_at_most_130.md"):
        assert_sidecar(tmp_path / name, seed=7)
    assert sorted(path.name for path in tmp_path.glob("bbbv_histogram.*")) == [
        "bbbv_histogram.csv", "bbbv_histogram.csv.json"]  # raw data: no twins
    assert "3BV <= 130" in out and "smallest 3BV" in out


def test_no_guess_generation(tmp_path):
    out = run_script("no_guess_generation.py", tmp_path, "--n", "4", "--n-dense-retry", "1",
                     "--max-tries", "50")
    table = pd.read_csv(tmp_path / "no_guess_generation.csv")
    assert len(table) == 5 * 2 and table["seed"].is_unique
    dense_retry = (table["method"] == "retry") & (table["mines"] >= 130)
    assert set(table.loc[dense_retry, "n"]) == {1} and set(table.loc[~dense_retry, "n"]) == {4}
    assert_wilson(table, "success_rate")
    perturb = table[table["method"] == "perturb"]
    assert (perturb["successes"] == perturb["n"]).all()
    retry_170 = table[(table["method"] == "retry") & (table["mines"] == 170)]
    assert (retry_170["successes"] == 0).all() and (retry_170["tries_max"] == 50).all()
    metadata = sidecar(tmp_path / "no_guess_generation.csv")
    assert metadata["seed"] == f"7/{experiment('no_guess_generation').stream}"
    assert metadata["max_tries"] == 50
    assert "Wilson" in out


def test_no_guess_bias(tmp_path):
    out = run_script("no_guess_bias.py", tmp_path, "--n", "20", "--permutations", "19",
                     "--n-dense-reference", "2")
    tests = pd.read_csv(tmp_path / "no_guess_bias.csv",
                        dtype={"p_reported": str, "p_holm_reported": str})
    # 3 presets x (retry, perturb: 2 references; solvable-rule: 1); 30x16/130: perturb
    # against both, the solvable reference against the rule; 30x16/170: perturb alone
    assert len(tests) == 3 * 5 + 3 + 1
    assert tests["p_value"].between(0, 1).all()
    permutation = tests["reference"] == "solvable-rule"
    # perturb is compared with the solvable reference at the same density at 130 mines
    dense = tests[tests["board"] == "30x16/130"].set_index(["sample", "reference"])
    assert dense.loc[("perturb", "solvable-rule"), "n_reference"] == 2
    assert dense.loc[("solvable-rule", "rule"), "n"] == 2
    assert set(tests.loc[tests["board"] == "30x16/170", "reference"]) == {"rule"}
    # (1 + exceed) / (1 + 19): a whole number of twentieths, never zero
    twentieths = tests.loc[permutation, "p_value"] * 20
    assert np.allclose(twentieths, twentieths.round()) and (twentieths.round() >= 1).all()
    # df belongs to the chi-square rows only
    assert tests.loc[permutation, "df"].isna().all()
    assert (tests.loc[~permutation, "df"] == tests.loc[~permutation, "cells_tested"] - 1).all()
    # Holm over the whole table, as statsmodels adjusts it; printed with the floor
    assert np.allclose(tests["p_holm"], multipletests(tests["p_value"], method="holm")[1])
    assert (tests["p_holm"] >= tests["p_value"]).all()
    assert (tests["p_reported"] == tests["p_value"].map(format_p_value)).all()
    effects = pd.read_csv(tmp_path / "no_guess_bias_effects.csv")
    assert set(effects["region"]) == {"corners", "border", "click ring d=2"}
    rule = effects[effects["reference"] == "rule"]
    assert np.allclose(rule["ratio"], rule["frequency"] / rule["reference_frequency"])
    assert (rule["reference_se"] == 0).all()
    low, high = ratio_interval(rule["frequency"], rule["frequency_se"],
                               rule["reference_frequency"])
    assert np.allclose(rule["ratio_ci_low"], low, equal_nan=True)
    assert np.allclose(rule["ratio_ci_high"], high, equal_nan=True)
    against = effects[(effects["reference"] == "solvable-rule")]
    assert set(against["board"]) == {"9x9/10", "16x16/40", "30x16/99", "30x16/130"}
    profile = pd.read_csv(tmp_path / "no_guess_bias_distance.csv")
    assert (profile["distance"] >= 2).all() and (profile["ci_low"] <= profile["ci_high"]).all()
    assert len(list((tmp_path / "no_guess_bias").glob("*.png"))) == 3 * 5 + 3 + 2
    assert_sidecar(tmp_path / "no_guess_bias.csv", seed=7)
    metadata = sidecar(tmp_path / "no_guess_bias.csv")
    assert metadata["reference_draws"]["30x16/130"]["boards"] == 2
    # each map's sidecar has its own sample's n: the dense reference's 2, not --n
    assert sidecar(tmp_path / "no_guess_bias" / "30x16-130_solvable-rule.png")["n"] == 2
    assert sidecar(tmp_path / "no_guess_bias" / "30x16-130_perturb.png")["n"] == metadata["n"]
    assert "all 19 omnibus tests" in metadata["holm_family"]
    assert "Holm" in out and "compared with the rule's placement only" in out


def test_the_extreme_cells_get_bonferroni_widened_intervals():
    ys, xs = np.indices((4, 5))
    successes = np.arange(20) % 7
    rows = pd.DataFrame({"click_x": xs.ravel(), "click_y": ys.ravel(),
                         "successes": successes, "n": 10, "seed": "s"})
    # The interval is Wilson's at confidence 1 - 0.05 / 20.
    lines = common.describe_extremes(rows.assign(rate=rows["successes"] / 10), "rate")
    low, high = proportion_confint(6, 10, alpha=0.05 / 20, method="wilson")
    assert f"[{low:.4f}, {high:.4f}]" in lines[1] and "over 20 cells" in lines[1]




def test_every_experiment_draws_from_its_own_stream():
    # an experiment is a module with a main(); the others hold what experiments share
    scripts = {path.stem for path in EXPERIMENTS.glob("*.py") if "\ndef main(" in path.read_text()}
    assert {"common", "pass_rate_runs", "__init__"}.isdisjoint(scripts)
    names = [entry.name for entry in REGISTRY]
    assert set(names) == scripts and len(set(names)) == len(names)
    streams = [entry.stream for entry in REGISTRY]
    assert len(set(streams)) == len(streams)
    # first_click and bbbv both start with 9x9/10 under the first rule: they once drew the
    # same boards from the same root seed; each now has its own stream of root seed 42
    first_rows = {}
    for name in ("first_click", "bbbv"):
        args = base_parser(name, experiment=name).parse_args(["--seed", "42"])
        assert args.root_seed == 42 and args.seed == f"42/{experiment(name).stream}"
        first_rows[name] = np.random.default_rng(row_seeds(args.seed, 12)[0]).random(4)
    assert not np.array_equal(first_rows["first_click"], first_rows["bbbv"])


def test_printed_p_values_have_a_floor():
    assert p_text(5.58e-104) == "p < 1e-10" and p_text(0.0) == "p < 1e-10"
    assert p_text(0.04567) == "p = 0.0457" and p_text(0.04567, digits=2) == "p = 0.046"
