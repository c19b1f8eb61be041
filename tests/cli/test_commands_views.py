"""The command's views: --html pages read back, grids within 100 columns, colour, refusals."""

import argparse
import os
import stat
import sys

import numpy as np
import pandas as pd
import pytest

from minestats.cli.output import fit_text, fold_frame
from minestats.cli.parser import build_parser
from minestats.drivers import warmup
from minestats.inference import mine_probabilities
from minestats.io.boards import format_text, parse_position
from minestats.io.games import parse_game, replay
from minestats.mechanics.game import neighbour_counts
from tests.cli.test_commands import run
from tests.inference.test_html import ROOT, Boards, check_board
from tests.io.test_replays import toollib_game

EXPERT_GAME = ["play", "--board", "expert", "--seed", "16"]
"""A lost Expert game with twelve guesses (safe click at the corner, policy best)."""


def position_text(numbers, flags) -> str:
    """Write a position as `parse_position` reads it."""
    return "\n".join("".join("F" if flag else "?" if number < 0 else str(number)
                             for number, flag in zip(row, flag_row, strict=True))
                     for row, flag_row in zip(numbers, flags, strict=True)) + "\n"


@pytest.fixture(scope="module")
def expert(tmp_path_factory):
    """An Expert game file, and the position before its last guess as a position file."""
    folder = tmp_path_factory.mktemp("expert")
    from minestats.cli import main

    assert main([*EXPERT_GAME, "--out", str(folder / "game.json"), "--quiet"]) == 0
    record = parse_game((folder / "game.json").read_text())
    step = replay(record)[-2]
    numbers = np.where(step.revealed, neighbour_counts(record.mines), -1)
    (folder / "position.txt").write_text(position_text(numbers, step.flagged))
    (folder / "board.txt").write_text(format_text(record.mines) + "\n")
    counts = sum(np.roll(np.pad(record.mines, 1).astype(int), (dy, dx), (0, 1))
                 for dy in (-1, 0, 1) for dx in (-1, 0, 1))[1:-1, 1:-1]
    (folder / "counts.txt").write_text("\n".join(" ".join(map(str, row)) for row in counts))
    (folder / "replays").mkdir()
    recorded = next(data for seed in range(20) if (data := toollib_game(record.mines, seed)))
    (folder / "replays" / "expert.evf").write_bytes(recorded)
    return folder


def test_probabilities_html_prints_what_mine_probabilities_says(capsys, tmp_path):
    page = tmp_path / "position.html"
    status, out, _ = run(capsys, "probabilities", str(ROOT / "examples" / "position.txt"),
                         "--mines", "10", "--html", str(page))
    assert status == 0 and out.splitlines()[1].split() == [str(x) for x in range(9)]
    numbers, flags = parse_position((ROOT / "examples" / "position.txt").read_text())
    [tiles] = Boards(page.read_text(encoding="utf-8")).boards
    check_board(tiles, numbers, flags, mine_probabilities(numbers, flags=flags,
                                                          mines=10).probability)
    assert "http" not in page.read_text() and "//" not in page.read_text()


def test_play_and_replay_write_the_same_game_as_html(capsys, tmp_path):
    status, played, _ = run(capsys, "play", "--board", "intermediate", "--seed", "12", "--out",
                            str(tmp_path / "game.json"), "--html", str(tmp_path / "played.html"))
    assert status == 0
    status, replayed, _ = run(capsys, "play", "--replay", str(tmp_path / "game.json"),
                              "--html", str(tmp_path / "replayed.html"))
    assert status == 0
    record = parse_game((tmp_path / "game.json").read_text())
    assert record.rule == "safe-click" and not record.won
    pages = [Boards((tmp_path / name).read_text()) for name in ("played.html", "replayed.html")]
    assert pages[0].boards == pages[1].boards
    assert len(pages[0].boards) == len(record.moves) + 1
    for tiles, step in zip(pages[0].boards, replay(record), strict=True):
        if step.move is not None:
            numbers = np.where(step.revealed, neighbour_counts(record.mines), -1)
            check_board(tiles, numbers, step.flagged, mine_probabilities(
                numbers, flags=step.flagged, mines=40).probability)
    text = (tmp_path / "played.html").read_text()
    assert "http" not in text and "//" not in text


GRID_COMMANDS = ["opening-map", "opening-map -n", "solve", "probabilities", "play",
                 "play --replay"]
"""The outputs that print the board as a grid, with its indices."""
COMMANDS = [*GRID_COMMANDS, "opening", "simulate", "simulate --click", "pass-rate", "sweep",
            "generate", "bbbv", "bbbv --file", "reconstruct", "win-rate", "compare",
            "reproduce", "results list", "analyse", "analyse FOLDER", "warmup"]


def expert_commands(folder):
    """Every subcommand on the Expert board (an Expert replay for analyse), output default."""
    quick = ["--seed", "1", "--workers", "1", "--quiet"]
    return {
        "opening-map": ["opening-map", "--board", "expert", "--rule", "safe-click"],
        "opening-map -n": ["opening-map", "--board", "expert", "--rule", "uniform", "-n", "3",
                           *quick],
        "solve": ["solve", "--board", "expert", "--seed", "1"],
        "probabilities": ["probabilities", str(folder / "position.txt"), "--mines", "99"],
        "play": EXPERT_GAME,
        "play --replay": ["play", "--replay", str(folder / "game.json")],
        "opening": ["opening", "--board", "expert", "--rule", "winxp", "--click", "corner"],
        "simulate": ["simulate", "--board", "expert", "--rule", "winxp", "-n", "2000", *quick],
        "simulate --click": ["simulate", "--board", "expert", "--rule", "winxp", "--click",
                             "corner", "-n", "2000", *quick],
        "pass-rate": ["pass-rate", "--board", "expert", "-n", "100", *quick],
        "sweep": ["sweep", "--boards", "expert", "--rules", "uniform", "winxp", "--solvers",
                  "logic", "single-point", "-n", "50", *quick],
        "generate": ["generate", "--board", "expert", "--seed", "1", "--quiet"],
        "bbbv": ["bbbv", "--board", "expert", "-n", "500", "--between", "100", "200", *quick],
        "bbbv --file": ["bbbv", "--file", str(folder / "board.txt")],
        "reconstruct": ["reconstruct", str(folder / "counts.txt")],
        "win-rate": ["win-rate", "--board", "expert", "-n", "20", *quick],
        "compare": ["compare", "--board", "expert", "--policies", "best", "safest", "-n", "20",
                    *quick],
        "reproduce": ["reproduce", "--only", "first_click", "--out", "results", "--workers",
                      "1"],  # run in folder: the paths it names are the user's
        "results list": ["results", "list"],
        "analyse": ["analyse", str(folder / "replays" / "expert.evf")],
        "analyse FOLDER": ["analyse", str(folder / "replays")],
        "warmup": ["warmup"],
    }


def test_every_subcommand_is_measured(expert):
    subcommands = next(action for action in build_parser()._actions
                       if isinstance(action, argparse._SubParsersAction)).choices
    assert set(expert_commands(expert)) == set(COMMANDS)
    assert {name.split()[0] for name in COMMANDS} == set(subcommands)


@pytest.mark.parametrize("name", COMMANDS)
def test_every_default_output_on_the_expert_board_fits_100_columns(capsys, monkeypatch,
                                                                   expert, name):
    if name == "warmup":  # its lines, without compiling every kernel again here
        monkeypatch.setattr(warmup, "KERNELS", dict.fromkeys(warmup.KERNELS, lambda: None))
    monkeypatch.chdir(expert)
    status, out, err = run(capsys, *expert_commands(expert)[name])
    assert status == 0, err
    assert out and max(map(len, (out + err).splitlines())) <= 100, out + err
    if name in GRID_COMMANDS:
        # column indices above each grid: 0 to 29, whole or in blocks of columns
        numeric = [[int(x) for x in line.split()] for line in out.splitlines()
                   if line.startswith(" ") and line.split() and all(
                       x.isdigit() for x in line.split())]
        headers = [row for row in numeric if row == list(range(row[0], row[0] + len(row)))]
        assert headers and set().union(*map(set, headers)) == set(range(30))


def test_a_folded_table_keeps_every_cell_whole_and_names_each_row():
    frame = pd.DataFrame({"board": ["30x16/99", "9x9/10"], "rule": ["safe-click", "winxp"],
                          **{f"column {k}": [f"[0.{k}1234, 0.{k}5678]", "-"]
                             for k in range(6)}})
    blocks = [block.splitlines() for block in fold_frame(frame, 60).split("\n\n")]
    assert len(blocks) > 1 and all(len(line) <= 60 for block in blocks for line in block)
    assert all([line.split()[0] for line in block] == ["board", "30x16/99", "9x9/10"]
               for block in blocks)
    shown = [name for block in blocks for name in block[0].split("  ") if name.strip()]
    assert [name.strip() for name in shown if name.strip() != "board"] == list(frame)[1:]
    for k in range(6):  # each interval whole, once, in its own column's block
        assert sum(f"[0.{k}1234, 0.{k}5678]" in block[1] for block in blocks) == 1
    assert fold_frame(frame, 200) == frame.to_string(index=False)


def test_long_prose_is_wrapped_at_its_indent_and_short_lines_are_left_alone():
    text = "short\n   spaced   out\n    " + "word " * 30 + "\n"
    lines = fit_text(text, 40).splitlines()
    assert lines[:2] == ["short", "   spaced   out"] and fit_text(text, 40).endswith("\n")
    assert all(len(line) <= 40 and line.startswith("    word") for line in lines[2:])
    assert " ".join(lines[2:]).split() == ["word"] * 30


def test_replay_marks_each_guessed_cell(capsys, expert):
    status, out, _ = run(capsys, "play", "--replay", str(expert / "game.json"))
    assert status == 0
    lines = out.splitlines()
    record = parse_game((expert / "game.json").read_text())
    for number, move in enumerate(record.moves, start=1):
        start = lines.index(f"before guess {number} (# hidden, F flag, . empty, @ the guess):")
        board = [row.split()[1:] for row in lines[start + 2:start + 18]]
        assert [(x, y) for y, row in enumerate(board) for x, cell in enumerate(row)
                if cell == "@"] == [(move.x, move.y)]


@pytest.mark.parametrize(("environment", "coloured"), [
    ({}, True), ({"NO_COLOR": "1"}, False), ({"TERM": "dumb"}, False),
    ({"NO_COLOR": ""}, True)])
def test_colour_only_on_a_terminal_that_takes_it(capsys, monkeypatch, expert, environment,
                                                 coloured):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    for key, value in environment.items():
        monkeypatch.setenv(key, value)
    status, piped, _ = run(capsys, "play", "--replay", str(expert / "game.json"))
    assert status == 0 and "\x1b[" not in piped  # captured: not a terminal
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    _, out, _ = run(capsys, "play", "--replay", str(expert / "game.json"))
    assert ("\x1b[7m" in out) is coloured  # the guessed cell in reverse video
    _, out, _ = run(capsys, "probabilities", str(expert / "position.txt"), "--mines", "99")
    assert ("\x1b[30;48;2;" in out or "\x1b[97;48;2;" in out) is coloured
    assert coloured or "\x1b[" not in out


def special_targets(folder):
    """An --html that names a folder, a FIFO, a symbolic link and, as root, a device."""
    (folder / "adir").mkdir()
    os.mkfifo(folder / "fifo")
    (folder / "page.html").write_text("an earlier page\n")
    (folder / "link.html").symlink_to(folder / "page.html")
    targets = {"adir": "Is a directory", "fifo": "not a regular file",
               "link.html": "symbolic link"}
    if os.geteuid() == 0:
        os.mknod(folder / "null", stat.S_IFCHR | 0o666, os.makedev(1, 3))
        targets["null"] = "not a regular file"
    return targets


def snapshot(folder):
    """Each entry's kind and, for a file, its bytes and mode."""
    found = {}
    for path in sorted(folder.iterdir()):
        mode = path.lstat().st_mode
        found[path.name] = (os.readlink(path) if stat.S_ISLNK(mode) else
                            (path.read_bytes(), stat.S_IMODE(mode)) if stat.S_ISREG(mode)
                            else stat.S_IFMT(mode))
    return found


def test_an_html_target_that_is_not_a_file_is_refused_and_nothing_changes(capsys, tmp_path,
                                                                          expert):
    targets = special_targets(tmp_path)
    for target, message in targets.items():
        for argv in (["probabilities", str(ROOT / "examples" / "position.txt"), "--mines", "10"],
                     ["play", "--replay", str(expert / "game.json")],
                     ["play", "--board", "beginner", "--seed", "1"]):
            before = snapshot(tmp_path)
            status, out, err = run(capsys, *argv, "--html", str(tmp_path / target))
            assert status == 2 and out == "", (argv, target)
            assert err.count("\n") == 1 and "cannot write" in err and message in err, err
            assert snapshot(tmp_path) == before


def test_bad_input_with_html_is_one_line_and_writes_nothing(capsys, tmp_path, expert):
    (tmp_path / "impossible.txt").write_text("4?\n??\n")
    game = parse_game((expert / "game.json").read_text())
    other = (expert / "game.json").read_text().replace(
        "".join("*" if mine else "." for mine in game.mines[0]),
        "".join("*" if mine else "." for mine in game.mines[0][::-1]))
    assert other != (expert / "game.json").read_text()  # the first row mirrored
    (tmp_path / "other.json").write_text(other)
    before = snapshot(tmp_path)
    for argv, message in (
            (["probabilities", str(tmp_path / "impossible.txt")], "no layout fits"),
            (["play", "--replay", str(tmp_path / "other.json")], "does not fit")):
        status, out, err = run(capsys, *argv, "--html", str(tmp_path / "new.html"))
        assert status == 2 and out == "" and err.count("\n") == 1 and message in err, err
        assert snapshot(tmp_path) == before


def test_html_is_written_by_the_umask_and_keeps_an_existing_files_mode(capsys, tmp_path):
    position = str(ROOT / "examples" / "position.txt")
    old = os.umask(0o027)
    try:
        assert run(capsys, "probabilities", position, "--html", str(tmp_path / "new.html"))[0] == 0
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.html").stat().st_mode) == 0o640
    existing = tmp_path / "existing.html"
    existing.write_text("an earlier page\n")
    existing.chmod(0o604)
    assert run(capsys, "probabilities", position, "--html", str(existing))[0] == 0
    assert stat.S_IMODE(existing.stat().st_mode) == 0o604
    assert existing.read_text().startswith("<!DOCTYPE html>")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["existing.html", "new.html"]
