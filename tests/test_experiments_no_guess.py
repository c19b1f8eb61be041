"""The no-guess experiment scripts run end to end on small n and write their files."""

import json
import subprocess
import sys
from pathlib import Path

import pandas as pd

EXPERIMENTS = Path(__file__).resolve().parents[1] / "experiments"


def run_script(name, tmp_path, *options):
    command = [sys.executable, str(EXPERIMENTS / name), "--out", str(tmp_path), "--seed", "7",
               "--workers", "1", *options]
    run = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    return run.stdout


def sidecar(path):
    return json.loads(Path(f"{path}.json").read_text())


def test_no_guess_generation(tmp_path):
    out = run_script("no_guess_generation.py", tmp_path, "--n", "4", "--n-dense-retry", "1",
                     "--max-tries", "50")
    table = pd.read_csv(tmp_path / "no_guess_generation.csv")
    assert len(table) == 5 * 2 and table["seed"].is_unique
    dense_retry = (table["method"] == "retry") & (table["mines"] >= 130)
    assert set(table.loc[dense_retry, "n"]) == {1} and set(table.loc[~dense_retry, "n"]) == {4}
    assert (table["ci_low"] <= table["success_rate"]).all()
    assert (table["success_rate"] <= table["ci_high"]).all()
    perturb = table[table["method"] == "perturb"]
    assert (perturb["successes"] == perturb["n"]).all()
    retry_170 = table[(table["method"] == "retry") & (table["mines"] == 170)]
    assert (retry_170["successes"] == 0).all() and (retry_170["tries_max"] == 50).all()
    metadata = sidecar(tmp_path / "no_guess_generation.csv")
    assert metadata["seed"] == 7 and metadata["max_tries"] == 50
    assert "Wilson" in out


def test_no_guess_bias(tmp_path):
    out = run_script("no_guess_bias.py", tmp_path, "--n", "30", "--permutations", "19")
    tests = pd.read_csv(tmp_path / "no_guess_bias.csv")
    # 3 presets x (retry, perturb: 2 references; solvable-rule: 1) + 2 dense boards x 1
    assert len(tests) == 3 * 5 + 2
    assert tests["p_value"].between(0, 1).all()
    permutation = tests["reference"] == "solvable-rule"
    assert (tests.loc[permutation, "p_value"] >= 1 / 20).all()
    assert (tests.loc[~permutation, "df"] == tests.loc[~permutation, "cells_tested"] - 1).all()
    profile = pd.read_csv(tmp_path / "no_guess_bias_distance.csv")
    assert (profile["distance"] >= 2).all() and (profile["ci_low"] <= profile["ci_high"]).all()
    assert len(list((tmp_path / "no_guess_bias").glob("*.png"))) == 3 * 5 + 2 * 2
    assert sidecar(tmp_path / "no_guess_bias.csv")["seed"] == 7
    assert "Holm" in out
