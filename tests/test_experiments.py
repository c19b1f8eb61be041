"""Each experiment script runs end to end on small n and writes its files and sidecars."""

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


def assert_sidecar(path, *, seed):
    metadata = json.loads(Path(f"{path}.json").read_text())
    assert metadata["seed"] == seed
    assert {"n", "chunk_size", "versions", "git_revision", "wall_time_s"} <= set(metadata)


def test_first_click(tmp_path):
    out = run_script("first_click.py", tmp_path, "--n", "3000")
    table = pd.read_csv(tmp_path / "first_click.csv")
    assert len(table) == 12 and (table["n"] == 3000).all()
    assert {"board", "rule", "click_x", "click_y", "exact", "mc", "ci_low", "ci_high", "z",
            "n", "seed"} <= set(table.columns)
    assert_sidecar(tmp_path / "first_click.csv", seed=7)
    assert "3,000" in out or "3000" in out


def test_opening_maps(tmp_path):
    run_script("opening_maps.py", tmp_path, "--n", "2000", "--n-safe-opening", "20")
    ranges = pd.read_csv(tmp_path / "opening_ranges.csv")
    assert len(ranges) == 16
    assert_sidecar(tmp_path / "opening_ranges.csv", seed=None)  # exact: no randomness
    assert_sidecar(tmp_path / "opening_maps" / "monte_carlo.csv", seed=7)
    simulated = pd.read_csv(tmp_path / "opening_maps" / "monte_carlo.csv")
    assert set(simulated["n"]) == {2000, 20}
    assert len(list(tmp_path.rglob("*.png"))) == 32
