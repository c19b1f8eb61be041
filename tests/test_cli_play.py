"""The probabilities, play and win-rate subcommands against the library."""

import io
from fractions import Fraction

import numpy as np
import pandas as pd

from minestats.io.boards import parse_position
from minestats.play import win_rate
from tests.test_cli_commands import run


def test_probabilities_prints_the_exact_values(capsys, tmp_path):
    path = tmp_path / "position.txt"
    path.write_text("1??\n???\n???\n")
    status, out, _ = run(capsys, "probabilities", str(path), "--mines", "2", "--csv")
    assert status == 0
    table = pd.read_csv(io.StringIO(out)).set_index(["x", "y"])
    # One mine among the 1's three neighbours, one among the five far cells.
    assert table.loc[(1, 1), "probability"] == float(Fraction(1, 3))
    assert table.loc[(2, 2), "probability"] == float(Fraction(1, 5))
    status, out, _ = run(capsys, "probabilities", str(path), "--mines", "2")
    assert status == 0 and "layouts that fit: 15" in out and "0.333" in out


def test_probabilities_refuses_an_impossible_position_in_one_line(capsys, tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("2?\n")
    status, out, err = run(capsys, "probabilities", str(path), "--mines", "1")
    assert status == 2 and out == ""
    assert err.strip() == "minestats probabilities: error: no layout fits these numbers, " \
                          "flags and mine count"
    path.write_text("1x\n")
    status, _, err = run(capsys, "probabilities", str(path))
    assert status == 2 and "'x' is not a number 0-8" in err and "Traceback" not in err


def test_parse_position_reads_flags_and_unknowns():
    numbers, flags = parse_position("1 ? F\n0 1 ?\n")
    assert numbers.tolist() == [[1, -1, -1], [0, 1, -1]]
    assert flags.tolist() == [[False, False, True], [False, False, False]]


def test_play_reproduces_from_its_seed(capsys):
    first = run(capsys, "play", "--board", "beginner", "--seed", "4", "--policy", "safest")
    again = run(capsys, "play", "--board", "beginner", "--seed", "4", "--policy", "safest")
    assert first[0] == 0 and first == again
    assert "(policy safest, seed 4)" in first[1]


def test_win_rate_matches_the_library(capsys):
    status, out, _ = run(capsys, "win-rate", "--board", "6x6/5", "-n", "80", "--seed", "9",
                         "--policy", "safest", "--workers", "1", "--quiet", "--csv")
    assert status == 0
    row = pd.read_csv(io.StringIO(out)).iloc[0]
    library = win_rate("6x6/5", policy="safest", n=80, seed=9, workers=1)
    assert row["successes"] == library.successes and row["n"] == 80
    assert np.isclose(row["ci_low"], library.proportion_ci()[0])
