import io
import subprocess
import sys

import pandas as pd
import pytest

from minestats.cli import main
from minestats.foundations.board import BEGINNER, EXPERT, Board
from minestats.mechanics.opening_probabilities import opening_probability, opening_probability_map


def test_opening_prints_the_exact_fraction(capsys):
    assert main(["opening", "--board", "expert", "--rule", "winxp", "--click", "0,0"]) == 0
    out = capsys.readouterr().out
    exact = opening_probability(EXPERT, (0, 0), rule="winxp")
    assert f"({exact})" in out
    assert "board 30x16/99  rule winxp  click (0, 0)" in out


def test_opening_with_n_prints_interval_n_and_seed(capsys):
    argv = ["opening", "--board", "beginner", "--rule", "safe-click", "--click", "corner",
            "-n", "20000", "--seed", "7", "--workers", "1"]
    assert main(argv) == 0
    mc_line = capsys.readouterr().out.splitlines()[-1]
    assert "95% Wilson [" in mc_line and "n 20000" in mc_line and "seed 7" in mc_line


def test_opening_map_csv_round_trips(capsys):
    assert main(["opening-map", "--board", "5x4/3", "--rule", "winxp", "--csv"]) == 0
    frame = pd.read_csv(io.StringIO(capsys.readouterr().out))
    grid = opening_probability_map(Board(5, 4, 3), rule="winxp")
    assert len(frame) == 20
    for row in frame.itertuples():
        assert row.exact == pytest.approx(grid[row.click_y, row.click_x], rel=1e-15)


def test_opening_map_simulation_reports_holm(capsys):
    argv = ["opening-map", "--board", "4x4/3", "--rule", "uniform", "-n", "2000", "--seed",
            "1", "--workers", "1"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "n 2000 per click, seed 1" in out
    assert "positions disagree with the closed form" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["opening", "--board", "expert", "--rule", "xp"], "rule 'xp' is not one of"),
        (["opening", "--board", "3x3/5", "--rule", "safe-opening"],
         r"mines (5) must be at most 0 for rule 'safe-opening'"),
        (["opening", "--board", "expert", "--rule", "uniform", "--click", "30,0"],
         "click (30, 0) is off the 30x16 board"),
        (["opening", "--board", "expert", "--rule", "uniform", "-n", "-5"],
         "n (-5) must be a positive integer"),
        (["opening", "--board", "10x10", "--rule", "uniform"], "board '10x10' is neither"),
        (["opening-map", "--board", "expert", "--rule", "uniform", "-n", "x"],
         "invalid int value: 'x'"),
        (["opening", "--rule", "uniform"], "the following arguments are required: --board"),
    ],
)
def test_bad_input_is_one_line_and_exit_status_2(capsys, argv, message):
    assert exit_status(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], captured.err


def exit_status(argv):
    """Exit status of the command, whether it returns or argparse exits."""
    try:
        return main(argv)
    except SystemExit as exit:
        return exit.code


def test_installed_command_runs_as_a_process():
    run = subprocess.run([sys.executable, "-m", "minestats.cli", "opening", "--board",
                          "9x9/10", "--rule", "uniform"], capture_output=True, text=True)
    assert run.returncode == 0
    assert str(opening_probability(BEGINNER, (4, 4), rule="uniform")) in run.stdout
    bad = subprocess.run([sys.executable, "-m", "minestats.cli", "opening", "--board",
                          "expert", "--rule", "nope"], capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1
