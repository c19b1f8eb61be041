"""The Windows XP check: best's float weighing against exact fractions at every guess."""

import pandas as pd

from tests.experiments.test_experiments import assert_sidecar, run_script


def test_every_guess_of_the_games_is_checked_and_the_weighing_bites(tmp_path):
    out = run_script("winxp_probabilities.py", tmp_path, "--n", "4")
    table = pd.read_csv(tmp_path / "winxp_probabilities_positions.csv")
    assert len(table) > 4 and (table.groupby("game")["guess"].apply(
        lambda guesses: list(guesses) == list(range(len(guesses))))).all()
    assert (table["largest_difference"] < 1e-9).all()
    weighed = table[table["weighed"]]
    assert (weighed["rule_moves_by"] > 0.01).any()
    assert (table.loc[~table["weighed"], "rule_moves_by"] == 0).all()
    assert (table["unknown"] + table["flagged"] <= 479).all()
    assert_sidecar(tmp_path / "winxp_probabilities_positions.csv", seed=7)
    summary = pd.read_csv(tmp_path / "winxp_probabilities.csv").set_index("positions_of")
    assert summary.loc["every guess", "positions"] == len(table)
    assert summary.loc["weighed", "positions"] == len(weighed)
    assert summary.loc["every guess", "games"] == table["game"].nunique() <= 4
    assert summary.loc["every guess", "largest_difference"] == table["largest_difference"].max()
    assert summary.loc["weighed", "rule_moves_by_max"] == weighed["rule_moves_by"].max()
    assert (tmp_path / "winxp_probabilities.tex").exists()
    assert f"{len(table)} positions" in out
