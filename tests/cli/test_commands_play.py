"""The probabilities, play and win-rate subcommands against the library."""

import io
from fractions import Fraction

import numpy as np
import pandas as pd

from minestats.drivers.win_rates import win_rate
from minestats.foundations.board import resolve_board
from minestats.foundations.defaults import WIN_RATE
from minestats.foundations.seeds import resolve_seed
from minestats.io.boards import parse_position
from minestats.mechanics.sampling import chunk_games
from minestats.players import play
from tests.cli.test_commands import run


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


def test_probabilities_under_winxp_weigh_the_layouts_as_the_library_does(capsys, tmp_path):
    # Clicked at (1, 1) of a 3x2 board with one mine: a mine drawn on the click moved to
    # (0, 0), the first cell of the rule's order, which so weighs twice as much.
    path = tmp_path / "position.txt"
    path.write_text("???\n?1?\n")
    status, out, _ = run(capsys, "probabilities", str(path), "--mines", "1", "--rule",
                         "winxp", "--click", "1,1", "--exact", "--csv")
    assert status == 0
    table = pd.read_csv(io.StringIO(out)).set_index(["x", "y"])
    assert table.loc[(0, 0), "fraction"] == "1/3" and table.loc[(2, 1), "fraction"] == "1/6"
    status, out, err = run(capsys, "probabilities", str(path), "--rule", "winxp", "--click",
                           "1,1")
    assert status == 2 and out == ""
    assert err.strip() == ("minestats probabilities: error: rule 'winxp' needs mines: the "
                           "total number of mines")


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


def test_play_json_gives_its_lists_as_lists(capsys):
    import json

    status, out, _ = run(capsys, "play", "--board", "intermediate", "--seed", "6", "--json")
    assert status == 0
    [row] = json.loads(out)
    game = library_game("intermediate", 6)  # the first game of a win_rate chunk seeded 6
    assert row["won"] is bool(game.won) and row["guesses"] == game.guesses == 2
    assert row["guess_kinds"] == [move.kind for move in game.moves]
    assert row["guess_cells"] == [[move.x, move.y] for move in game.moves]
    assert all(isinstance(cell, list) and len(cell) == 2 for cell in row["guess_cells"])
    assert all(0 <= p <= 1 for p in row["guess_mine_probabilities"])
    status, out, _ = run(capsys, "play", "--board", "intermediate", "--seed", "6", "--csv")
    assert pd.read_csv(io.StringIO(out))["guess_kinds"][0] == " ".join(row["guess_kinds"])


def library_game(board, seed):
    """The game ``minestats play --board BOARD --seed SEED`` plays, by the library."""
    board = resolve_board(board)
    click = board.resolve_click(WIN_RATE.click)
    layouts, seeds = chunk_games(board, 1, resolve_seed(seed)[0], rule=WIN_RATE.rule,
                                 click=click)
    return play(layouts[0], click, seed=seeds[0])


def test_play_out_saves_the_game_and_replay_steps_through_every_guess(capsys, tmp_path):
    import json

    game = tmp_path / "game.json"
    status, played, _ = run(capsys, "play", "--board", "intermediate", "--seed", "12", "--out",
                            str(game))
    assert status == 0
    saved = json.loads(game.read_text())  # plain JSON, never pickle
    assert saved["format"] == "minestats game" and len(saved["layout"]) == 16
    expected = library_game("intermediate", 12)  # lost, at its fifth guess
    assert not expected.won and expected.guesses >= 2
    assert saved["click"] == [0, 0] and [m["kind"] for m in saved["moves"]] == [
        move.kind for move in expected.moves]
    status, replayed, _ = run(capsys, "play", "--replay", str(game))
    assert status == 0
    guesses = [line for line in played.splitlines() if line.startswith("  guess")]
    assert guesses == [line for line in replayed.splitlines() if line.startswith("  guess")]
    lines = replayed.splitlines()
    # the board before each guess: column indices, 16 rows each after its index, the
    # guessed cell still hidden in it and marked @
    for number, move in enumerate(saved["moves"], start=1):
        start = lines.index(f"before guess {number} (# hidden, F flag, . empty, @ the guess):")
        assert lines[start + 1].split() == [str(x) for x in range(16)]
        board = [row.split() for row in lines[start + 2:start + 18]]
        assert [row[0] for row in board] == [str(y) for y in range(16)]
        assert board[move["y"]][1 + move["x"]] == "@"
        assert lines[start + 18].startswith(f"  guess {number}: ({move['x']}, {move['y']})")
    final = [row.split()[1:] for row in lines[-16:]]
    assert sum(row.count("*") for row in final) == 1  # lost: the mine the last guess opened
