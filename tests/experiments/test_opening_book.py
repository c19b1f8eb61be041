"""The opening-book experiment: exact chances of the corner's number, paired counts, its table."""

import numpy as np
import pandas as pd
from scipy.stats import hypergeom
from statsmodels.stats.multitest import multipletests

from minestats.experiments.opening_book import (
    BOOK_CELLS,
    SHOWN,
    shown_chance,
    value_chunk,
)
from minestats.players.values import best_move
from tests.experiments.test_experiments import assert_sidecar, run_script


def test_the_chance_of_each_number_is_the_hypergeometric_one():
    for shown in range(4):
        assert abs(float(shown_chance(shown)) - hypergeom.pmf(shown, 479, 99, 3)) < 1e-15
    assert sum(shown_chance(shown) for shown in range(4)) == 1


def test_swapping_two_candidates_swaps_their_counts():
    """The pick is the first column: the counts are paired game by game, so putting the
    other cell first mirrors them (same layouts, same tie-break seeds)."""
    first = value_chunk((2, ((29, 0), (2, 1))), 12, np.random.SeedSequence(5))
    second = value_chunk((2, ((2, 1), (29, 0))), 12, np.random.SeedSequence(5))
    assert (first["wins"] == second["wins"][::-1]).all()
    assert first["pick_only"][1] == second["cell_only"][1]
    assert first["cell_only"][1] == second["pick_only"][1]
    assert first["pick_only"][0] == first["cell_only"][0] == 0
    assert first["wins"][1] - first["wins"][0] == first["cell_only"][1] - first["pick_only"][1]


def test_the_table_compares_every_cell_with_bests_own_pick(tmp_path):
    out = run_script("opening_book.py", tmp_path, "--n", "8", "--chunk-size", "4")
    table = pd.read_csv(tmp_path / "opening_book.csv")
    assert table["shown"].tolist() == [shown for shown in SHOWN for _ in BOOK_CELLS]
    for (shown, rows), seed in zip(table.groupby("shown"), ("7/20/0", "7/20/1", "7/20/2"),
                                   strict=True):
        pick = rows.iloc[0]
        assert rows["pick"].tolist() == [True] + [False] * (len(BOOK_CELLS) - 1)
        grid = np.full((16, 30), -1)
        grid[0, 0] = shown
        move = best_move(grid, mines=99, seed=seed)
        assert (pick.x, pick.y) == (move.x, move.y), shown
        assert set(rows["seed"]) == {seed}, set(rows["seed"])
        assert sorted(zip(rows["x"], rows["y"], strict=True)) == sorted(BOOK_CELLS)
        assert (rows["wins"] - pick.wins == rows["cell_only"] - rows["pick_only"]).all()
    assert np.allclose(table["difference"], (table["cell_only"] - table["pick_only"]) / 8)
    assert np.allclose(table["game_gain"], table["p_shown"] * table["difference"])
    assert (table["difference_ci_low"] <= table["difference"]).all()
    assert (table["difference"] <= table["difference_ci_high"]).all()
    others = table[~table["pick"]]
    reject, holm, _, _ = multipletests(others["mcnemar_p"], alpha=0.05, method="holm")
    assert np.allclose(others["holm_p"], holm) and (others["holm_reject"] == reject).all()
    assert_sidecar(tmp_path / "opening_book.csv", seed=7)
    assert "best plays" in out
