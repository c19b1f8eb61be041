"""``minestats analyse``: replays judged click by click, as text, JSON, CSV, Markdown and HTML.

The replays are EVF files written here (`tests.io.test_replays.evf_file`): small games
whose answers are derived by hand, and an Expert game of ``best``'s own (``play
--seed 16``, lost at its twelfth guess) clicked cell by cell as a person would.
"""

import contextlib
import io
import json
import os

import numpy as np
import pandas as pd
import pytest

from minestats.drivers.game_analysis import analyse_game
from minestats.inference import mine_probabilities
from minestats.io.games import parse_game, replay
from minestats.io.replays import read_replay
from minestats.mechanics.game import neighbour_counts
from minestats.stats import wilson_interval
from tests.cli.test_commands import run
from tests.inference.test_html import Boards, check_board
from tests.io.test_replays import FIFTY, click, evf_file, write

pytest.importorskip("ms_toollib")

WON = evf_file(FIFTY, click(0, 0, 0) + click(2, 0, 2000), completed=True)
"""3x2/1: the first click opens four cells, then a forced 50/50 at (2, 0) that wins."""
LOST = evf_file(FIFTY, click(0, 0, 0) + click(2, 1, 900), completed=False)
"""The same 50/50 taken at (2, 1): a forced loss."""


@pytest.fixture(scope="module")
def expert(tmp_path_factory):
    """An EVF of an Expert game: best's game of seed 16, every cell it opened clicked."""
    from minestats.cli import main

    folder = tmp_path_factory.mktemp("expert")
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["play", "--board", "expert", "--seed", "16", "--out",
                     str(folder / "game.json"), "--quiet"]) == 0
    record = parse_game((folder / "game.json").read_text())
    cells, before = [tuple(record.click)], np.zeros(record.mines.shape, bool)
    for step in replay(record):  # what opened since, in reading order, then the guess
        cells += [(int(x), int(y)) for y, x in np.argwhere(step.revealed & ~before)
                  if (x, y) != tuple(record.click)]
        if step.move is not None:
            cells.append((step.move.x, step.move.y))
        before = step.revealed
    rows = ["".join("*" if mine else "." for mine in row) for row in record.mines]
    events = [event for k, cell in enumerate(cells) for event in click(*cell, 500 * k)]
    return write(folder, "expert.evf", evf_file(rows, events, completed=record.won))


def test_an_expert_game_is_a_line_per_click_within_100_columns(capsys, expert):
    status, out, err = run(capsys, "analyse", str(expert))
    assert status == 0 and err == ""
    assert max(map(len, out.splitlines())) <= 100, out
    expected = analyse_game(read_replay(expert)).per_click()
    name, about, header, *rows = out.splitlines()
    assert name == str(expert) and about.startswith("board 30x16/99 ") and about.endswith("lost")
    assert header.split()[:5] == ["move", "time", "s", "click", "cell"]
    clicks, verdict = rows[:len(expected)], rows[len(expected):]
    assert [int(row.split()[0]) for row in clicks] == expected["number"].tolist()
    assert [row.split()[5] for row in clicks] == [f"{p:.4f}" for p in
                                                   expected["mine_probability"]]
    assert verdict[-1].startswith("the loss was forced: the click that lost (move")
    # best opens a proven safe cell while there is one, and guesses otherwise
    assert ((expected["best_kind"] == "safe") == expected["safe_existed"]).all()
    assert (expected.loc[expected["safe_existed"], "best_probability"] == 0).all()


def test_csv_and_json_carry_every_click_at_full_precision(capsys, expert):
    status, out, _ = run(capsys, "analyse", str(expert), "--csv")
    assert status == 0
    expected = analyse_game(read_replay(expert)).per_click()
    pd.testing.assert_frame_equal(pd.read_csv(io.StringIO(out)), expected, check_dtype=False)
    status, out, _ = run(capsys, "analyse", str(expert), "--json")
    document = json.loads(out)
    assert document["game"]["outcome"] == "lost" and document["game"]["loss_forced"] is True
    assert [row["mine_probability"] for row in document["clicks"]] == expected[
        "mine_probability"].tolist()


def test_a_forced_fifty_fifty_by_hand(capsys, tmp_path):
    # After the first click the 1s at (1, 0) and (1, 1) leave the one mine at (2, 0)
    # or (2, 1): no safe cell, each 1/2; best takes one half of the 50/50.
    path = write(tmp_path, "won.evf", WON)
    status, out, _ = run(capsys, "analyse", str(path), "--json")
    assert status == 0
    document = json.loads(out)
    [row] = document["clicks"]
    assert (row["x"], row["y"], row["mine_probability"]) == (2, 0, 0.5)
    assert (row["safe_existed"], row["guess"], row["forced"]) == (False, True, True)
    assert (row["best_x"], row["best_probability"]) == (2, 0.5) and row["best_y"] in (0, 1)
    assert (document["game"]["luck"], document["game"]["forced_guesses"]) == (0.5, 1)
    status, out, _ = run(capsys, "analyse", str(path))
    assert "guesses 1, forced 1 (no safe cell left)" in out.splitlines()
    assert "luck (the product of the clicks' survival chances) 0.5" in out.splitlines()


def test_a_folder_is_a_row_a_game_a_summary_and_a_line_per_bad_file(capsys, tmp_path):
    files = {"a-won.evf": WON, "b-lost.evf": LOST, "c-junk.evf": b"junk",
             "d-cut.evf": WON[:40]}
    stamps = {}
    for name, data in files.items():
        stamps[name] = os.stat(write(tmp_path, name, data)).st_mtime_ns
    status, out, err = run(capsys, "analyse", str(tmp_path))
    assert status == 2
    assert [line.split(": ")[1] for line in err.splitlines()] == [
        str(tmp_path / "c-junk.evf"), str(tmp_path / "d-cut.evf")]
    lines = out.splitlines()
    assert lines[0] == f"2 games of {tmp_path}, one row a game"
    assert [line.split()[:3] for line in lines[2:4]] == [["a-won.evf", "3x2/1", "won"],
                                                          ["b-lost.evf", "3x2/1", "lost"]]
    # one loss, forced: 1 of 1, Wilson's 95% interval
    low, high = wilson_interval(1, 1)
    assert any(line.startswith("3x2/1") and f"1.000 [{low:.3f}, {high:.3f}]" in line
               for line in lines[lines.index("") + 1:])  # in the table per board
    status, out, _ = run(capsys, "analyse", str(tmp_path), "--csv")
    table = pd.read_csv(io.StringIO(out))
    assert table["file"].tolist() == ["a-won.evf", "b-lost.evf"]
    assert table["outcome"].tolist() == ["won", "lost"] and table["luck"].tolist() == [0.5, 0.5]
    status, out, _ = run(capsys, "analyse", str(tmp_path), "--markdown")
    assert "| a-won.evf | 3x2/1 | won |" in out and "| share forced [95%] |" in out
    for name, data in files.items():
        assert (tmp_path / name).read_bytes() == data
        assert os.stat(tmp_path / name).st_mtime_ns == stamps[name]
    assert sorted(os.listdir(tmp_path)) == sorted(files)


def test_the_html_page_draws_each_click_with_its_probabilities(capsys, tmp_path):
    path = write(tmp_path, "lost.evf", LOST)
    page = tmp_path / "lost.html"
    status, _, _ = run(capsys, "analyse", str(path), "--html", str(page))
    assert status == 0
    text = page.read_text(encoding="utf-8")
    boards = Boards(text).boards
    assert len(boards) == 2  # the click, then the end
    layout = np.array([[0, 0, 0], [0, 0, 1]], bool)
    shown = np.where([[1, 1, 0], [1, 1, 0]], neighbour_counts(layout), -1)
    check_board(boards[0], shown, np.zeros_like(layout),
                mine_probabilities(shown, mines=1).probability)
    assert "move 2 at 0.95 s: open (2, 1), P(mine) 0.5000, forced guess" in text
    assert "http" not in text and "//" not in text


@pytest.mark.parametrize("target", ["folder", "device", "from a folder"])
def test_html_to_a_folder_or_a_device_or_of_a_folder_is_refused_in_one_line(capsys, tmp_path,
                                                                            target):
    path = write(tmp_path, "won.evf", WON)
    argv = {"folder": [str(path), "--html", str(tmp_path)],
            "device": [str(path), "--html", os.devnull],
            "from a folder": [str(tmp_path), "--html", str(tmp_path / "page.html")]}[target]
    status, out, err = run(capsys, "analyse", *argv)
    assert status == 2 and out == "" and len(err.splitlines()) == 1
    assert err.startswith("minestats analyse: error: ")
    assert os.listdir(tmp_path) == ["won.evf"]


@pytest.mark.parametrize(("data", "argv", "message"), [
    (b"junk", [], "not an EVF replay"),
    (WON[:40], [], "won.evf: "),
    (WON, ["--rule", "xp"], "xp"),
])
def test_bad_input_is_one_line_and_no_file_changes(capsys, tmp_path, data, argv, message):
    path = write(tmp_path, "won.evf", data)
    status, out, err = run(capsys, "analyse", str(path), *argv)
    assert status == 2 and out == "" and len(err.splitlines()) == 1 and message in err
    assert path.read_bytes() == data and os.listdir(tmp_path) == ["won.evf"]


def test_windows_xp_weighing_is_said(capsys, tmp_path):
    status, out, _ = run(capsys, "analyse", str(write(tmp_path, "won.evf", WON)), "--rule",
                         "winxp")
    assert status == 0 and "rule winxp: the probabilities and best's moves weigh" in out
