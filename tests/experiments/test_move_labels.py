"""The labels of best's decisions: pieces written once, checked on resume, summarised."""

import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from minestats.experiments import move_labels
from tests.experiments.test_experiments import run_script, sidecar


def test_a_piece_is_labelled_once_resumed_by_its_settings_and_summarised(tmp_path):
    data = tmp_path / "data"
    options = ("--pieces", "0:1", "--games", "2", "--layouts", "6", "--data", str(data))
    run_script("move_labels.py", tmp_path, *options)
    piece = data / "piece-00000.csv"
    labels = pd.read_csv(piece)
    assert sidecar(piece)["seed"] == "7/19/0" and sidecar(piece)["n"] == 2
    decisions = labels.groupby(["game", "guess"], sort=False)
    assert len(decisions) > 0
    for _, decision in decisions:
        assert decision["pick"].tolist() == [True] + [False] * (len(decision) - 1)
        assert 2 <= len(decision) <= 6 and decision["cell"].is_unique
        assert set(decision["kind"]) <= {"frontier", "off-frontier"}
    wins = labels["wins_a"] + labels["wins_b"]
    assert ((wins >= 0) & (wins <= labels["n"])).all()
    picks = labels[labels["pick"]]
    assert (picks["only_this"] == 0).all() and (picks["only_pick"] == 0).all()
    # a candidate's wins differ from its pick's by exactly the layouts only one of them won
    pick_wins = wins[labels["pick"]].reindex(labels.index, method="ffill")
    assert (wins - pick_wins == labels["only_this"] - labels["only_pick"]).all()
    assert ((labels["x"] + 30 * labels["y"]) == labels["cell"]).all()
    # resumed: the piece is not labelled again, and other settings are refused
    before = piece.stat().st_mtime_ns
    out = run_script("move_labels.py", tmp_path, *options)
    assert piece.stat().st_mtime_ns == before and "piece 0:" not in out
    summary = pd.read_csv(tmp_path / "move_labels.csv").set_index("kind")
    assert summary.loc["all", "decisions"] == len(decisions)
    assert summary.loc["all", "games"] == 2
    assert np.isclose(summary.loc["all", "pick_value"], wins[labels["pick"]].sum()
                      / labels.loc[labels["pick"], "n"].sum())


def test_other_settings_for_a_written_piece_are_refused(tmp_path):
    data = tmp_path / "data"
    run_script("move_labels.py", tmp_path, "--pieces", "0:1", "--games", "1", "--layouts", "4",
               "--data", str(data))
    command = [sys.executable, "-m", "minestats.experiments.move_labels", "--out", str(tmp_path),
               "--seed", "7", "--workers", "1", "--pieces", "0:1", "--games", "1",
               "--layouts", "8", "--data", str(data)]
    run = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert run.returncode != 0
    assert "piece-00000.csv was labelled with other settings" in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1


def test_choosing_by_one_half_gains_nothing_when_every_candidate_wins_alike():
    same = pd.DataFrame({"piece": 0, "game": 0, "guess": 0, "wins_a": [3, 3, 3],
                         "wins_b": [2, 2, 2], "n": 10})
    assert move_labels.split_half_gains(same).tolist() == [0.0]
    # the alternative wins more on both halves: chosen by either half, it gains there
    better = same.assign(wins_a=[3, 5, 1], wins_b=[2, 4, 2])
    assert move_labels.split_half_gains(better).tolist() == [((4 - 2) / 5 + (5 - 3) / 5) / 2]


def synthetic_labels(decisions, value_of):
    """Labels of ``decisions`` decisions, a piece each: the pick at (5, 5) on the frontier,
    P(mine) 0.2, and two others, (0, 0) off the frontier and (6, 5) on it, P(mine) 0.15
    and 0.25; each candidate wins ``value_of(candidate)`` of 100 layouts (50 a half)."""
    rows = []
    for piece in range(decisions):
        for cell, (x, y), pick, p_mine, frontier in ((0, (5, 5), True, 0.2, True),
                                                     (1, (0, 0), False, 0.15, False),
                                                     (2, (6, 5), False, 0.25, True)):
            wins = value_of(cell, piece)
            rows.append({"piece": piece, "game": 0, "guess": 0, "kind": "frontier",
                         "cell": cell, "x": x, "y": y, "pick": pick, "p_mine": p_mine,
                         "on_frontier": frontier, "wins_a": wins // 2,
                         "wins_b": wins - wins // 2, "n": 100, "only_this": 0,
                         "only_pick": 0})
    return pd.DataFrame(rows, columns=move_labels.COLUMNS)


def test_the_gate_scores_each_rule_by_the_values_of_what_it_switches_to():
    # the safer corner wins 10 layouts more than the pick, the riskier cell 20 fewer
    labels = synthetic_labels(24, lambda cell, piece: [40, 50, 20][cell])
    gate = move_labels.offline_gate(labels, games=12).set_index("rule")
    safest = gate.loc["safest candidate"]
    assert (safest.decisions, safest.switched) == (24, 24)
    assert np.isclose(safest.gain_per_decision, 0.10) and np.isclose(safest.gain_per_game, 0.2)
    assert np.isclose(safest.gain_ci_low, 0.10) and np.isclose(safest.gain_ci_high, 0.10)
    # the model, fitted on the other folds, learns the same and switches to the corner
    model = gate.loc[f"linear model ({move_labels.GATE_FOLDS}-fold by piece)"]
    assert model.switched == 24 and np.isclose(model.gain_per_decision, 0.10)


def test_the_gate_keeps_the_pick_where_nothing_beats_it_and_counts_its_losses():
    # every other cell is worse; the safest one by 10 layouts on even pieces, 30 on odd
    labels = synthetic_labels(24, lambda cell, piece: [50, 40 - 20 * (piece % 2), 20][cell])
    gate = move_labels.offline_gate(labels, games=24).set_index("rule")
    losses = np.array([-0.1, -0.3] * 12)
    safest = gate.loc["safest candidate"]
    assert np.isclose(safest.gain_per_decision, losses.mean())
    half = 2.0686576104190406 * losses.std(ddof=1) / np.sqrt(24)  # t(0.975, 23)
    assert np.isclose(safest.gain_ci_high, losses.mean() + half)
    model = gate.loc[f"linear model ({move_labels.GATE_FOLDS}-fold by piece)"]
    assert model.switched == 0 and model.gain_per_decision == 0.0


def test_the_kernel_features_rank_the_labelled_cells_as_best_ranked_its_candidates():
    labels = move_labels.label_piece(2, seed="7/19", games=3, layouts=4)
    features = move_labels.piece_features(labels, seed="7/19", games=3)
    merged = labels.merge(features, on=["piece", "game", "guess", "cell"],
                          validate="one_to_one")
    assert len(merged) == len(labels) > 0
    assert np.allclose(merged["safety"], 1 - merged["p_mine"])
    assert ((merged["survive"] <= merged["safety"] + 1e-12)
            & (merged["progress"] >= 0) & (merged["progress"] <= merged["safety"] + 1e-12)
            & (merged["crowd"] >= 0) & (merged["crowd"] <= 8)).all()
    for _, decision in merged.groupby(["game", "guess"]):
        pick = decision[decision["pick"]].iloc[0]
        # best chose by score among the living cells nearly as safe as the safest
        rivals = decision[~decision["pick"] & ~decision["dead"]
                          & (decision["safety"] >= 0.9 * decision["safety"].max() - 1e-9)]
        assert (rivals["score"] <= pick["score"] + 1e-9).all()


def test_labels_that_this_player_would_not_make_are_refused():
    labels = move_labels.label_piece(2, seed="7/19", games=3, layouts=4)
    first = labels.index[labels["pick"]][0]
    moved = labels.copy()
    moved.loc[first, "cell"] = int(moved.loc[first + 1, "cell"]) + 1000
    with pytest.raises(ValueError, match="does not make the labelled decision"):
        move_labels.piece_features(moved, seed="7/19", games=3)
    last = labels[["game", "guess"]].drop_duplicates().iloc[-1]
    extra = labels[(labels["game"] == last["game"]) & (labels["guess"] == last["guess"])]
    with pytest.raises(ValueError, match="were not made again"):
        move_labels.piece_features(pd.concat([labels, extra.assign(guess=99)]), seed="7/19",
                                   games=3)


def test_the_gate_with_kernel_features_learns_a_gap_the_score_explains():
    # each candidate's value gap to the pick is 2 x its score gap: the model finds the
    # better cell where the score is higher, from the kernel's features alone
    labels = synthetic_labels(24, lambda cell, piece: 50)
    rng = np.random.default_rng(5)
    scores = rng.uniform(0.5, 0.9, size=(24, 3))
    labels["wins_a"] = labels["wins_b"] = 0
    features = labels[["piece", "game", "guess", "cell"]].copy()
    for name in move_labels.KERNEL_FEATURES:
        features[name] = 0.0
    features["score"] = scores.ravel()
    wins = np.round(50 + 100 * (scores - scores[:, :1])).astype(int).ravel()
    labels["wins_a"], labels["wins_b"] = wins // 2, wins - wins // 2
    gate = move_labels.offline_gate(labels, games=24, features=features).set_index("rule")
    model = gate.loc[f"linear model with the kernel's features "
                     f"({move_labels.GATE_FOLDS}-fold by piece)"]
    best = np.maximum((wins.reshape(24, 3)[:, 1:] - wins.reshape(24, 3)[:, :1]).max(axis=1),
                      0) / 100
    assert np.isclose(model.gain_per_decision, best.mean(), atol=0.005)


def test_the_spread_of_true_gaps_is_the_observed_spread_less_the_layouts_noise():
    # alternatives whose gaps are -0.1 and +0.1 exactly, with no discordant noise beyond
    # what those gaps force: each pair of 100 layouts, 10 won by one side only
    labels = synthetic_labels(2, lambda cell, piece: 50)
    labels["only_this"] = np.where(labels["pick"], 0, [0, 0, 10, 0, 0, 10])
    labels["only_pick"] = np.where(labels["pick"], 0, [0, 10, 0, 0, 10, 0])
    spread = move_labels.gap_spread(labels)
    gaps = np.array([-0.1, 0.1, -0.1, 0.1])
    noise = (0.1 - 0.01) / 100  # (share discordant - gap^2) / n, the same for each
    assert spread["alternatives"] == 4 and np.isclose(spread["mean_gap"], 0.0)
    assert np.isclose(spread["gap_sd_observed"], gaps.std(ddof=1))
    assert np.isclose(spread["gap_sd_noise"], np.sqrt(noise))
    assert np.isclose(spread["gap_sd_true"], np.sqrt(gaps.var(ddof=1) - noise))


def test_the_weighted_rule_learns_on_other_folds_that_the_safer_cell_wins_more():
    # the kernel scores the pick highest, but the safer corner wins 10 layouts more: on
    # the training folds a = 1 (safety alone) gains most and is chosen for every fold
    labels = synthetic_labels(24, lambda cell, piece: [40, 50, 20][cell])
    features = labels[["piece", "game", "guess", "cell"]].assign(
        safety=1 - labels["p_mine"], score=np.tile([0.8, 0.7, 0.6], 24), dead=False)
    for name in ("survive", "progress", "fifty_fifty", "crowd"):
        features[name] = 0.0
    gains = move_labels.weighted_score_gains(labels, features)
    # a = 0 follows the score and keeps the pick; safety 0.85 vs 0.8 beats score 0.7 vs
    # 0.8 once a log(0.85 / 0.8) > (1 - a) log(0.8 / 0.7), from a = 0.7 on
    switch_from = next(a for a in move_labels.SAFETY_EXPONENTS
                       if a * np.log(0.85 / 0.8) > (1 - a) * np.log(0.8 / 0.7))
    assert switch_from == 0.7
    for a in move_labels.SAFETY_EXPONENTS:
        assert np.allclose(gains[a], 0.10 if a >= switch_from else 0.0)
    gate = move_labels.offline_gate(labels, games=12, features=features)
    assert gate.attrs["safety_exponents"] == [0.7] * move_labels.GATE_FOLDS
    row = gate.set_index("rule").loc[f"safety^a x score^(1-a), a chosen on the other folds "
                                     f"({move_labels.GATE_FOLDS}-fold by piece)"]
    assert row.switched == 24 and np.isclose(row.gain_per_decision, 0.10)
    # a dead cell is never switched to, however safe
    dead = features.assign(dead=features["cell"] == 1)
    assert (move_labels.weighted_score_gains(labels, dead)[1.0] == 0).all()
