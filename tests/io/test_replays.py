"""Replays read (minestats.io.replays) and analysed (minestats.drivers.game_analysis).

Files come from two independent kinds of writer: ms_toollib itself (`BaseVideo`, stepped
by hand, saved as EVF), and a few lines written here for each format, for small games
whose answers are derived by hand: `evf_file` from the EVF format's published layout
(version 3), and `avf_file`, `rmv_file` and `mvf_file` from the layouts of Arbiter's,
Viennasweeper's (version 2) and Minesweeper Clone 0.97's files as ms_toollib 1.5 reads
them. Every file read is compared with ms_toollib's own parse of it: its board, and
the board ms_toollib shows after each event.
"""

import itertools
import math
import os
from fractions import Fraction

import numpy as np
import pytest

from minestats.drivers.game_analysis import analyse_game, summarise_games
from minestats.inference import mine_probabilities
from minestats.io import replays
from minestats.io.replay_analysis import analyse_replay, analyse_replays
from minestats.io.replays import read_replay
from minestats.mechanics.game import neighbour_counts
from minestats.mechanics.recorded_games import Action, RecordedGame, replay_actions

ms_toollib = pytest.importorskip("ms_toollib")

PIXELS = 16
BUTTONS = {"lc": 2, "lr": 3, "rc": 4, "rr": 5}


def evf_file(rows, events, *, completed):
    """EVF version 3 bytes: a layout of '*' and '.', events ``(button, ms, x, y)``.

    The fields, in order: version, summary bits (completed first), settings, rows,
    columns, mines, cell pixels, mode, 3BV, time in ms, eight strings ending in a
    zero byte, the mines as bits row by row, 8 bytes an event, 255 (no checksum).
    """
    height, width = len(rows), len(rows[0])
    bits = [cell == "*" for row in rows for cell in row]
    data = bytearray([3, 0x80 if completed else 0, 0, height, width])
    data += sum(bits).to_bytes(2, "big") + bytes([PIXELS]) + bytes(4) + bytes([0, 3, 232])
    data += b"hand\0" + b"\0" * 3 + b"0\0" + b"1\0" + b"\0" * 2
    packed = bytearray((len(bits) + 7) // 8)
    for index, mine in enumerate(bits):
        packed[index // 8] |= (0x80 >> index % 8) if mine else 0
    data += packed
    for button, ms, x, y in events:
        data += bytes([BUTTONS[button]]) + ms.to_bytes(3, "big")
        data += (x * PIXELS + 5).to_bytes(2, "big") + (y * PIXELS + 5).to_bytes(2, "big")
    return bytes(data + b"\xff")


AVF_BUTTONS = {"lc": 3, "lr": 5, "rc": 9, "rr": 17}
AVF_LEVELS = {(8, 8, 10): 3, (16, 16, 40): 4, (30, 16, 99): 5}
"""Arbiter's standard boards by (width, height, mines); any other board is level 6."""


def avf_file(rows, events):
    """AVF bytes, as ms_toollib 1.5 reads Arbiter's files: a layout of '*' and '.', events.

    The fields, in order: a version byte and four more, the level (3-5 a standard board,
    6 a custom one followed by columns - 1, rows - 1 and the mines in two bytes), each
    mine as (row + 1, column + 1), as many bytes as the digits of the board's checksum
    plus four (skipped by the reader), a country, the question-mark setting (127: none)
    and a byte, ``[0|``, on a custom board its size and ``|``, the start and end times,
    ``B`` the 3BV, ``T`` the time in seconds from 1 and ``]``; then 8 bytes an event
    (button, x high, whole seconds from 1 low, x low, hundredths, y high, seconds high,
    y low; times in whole hundredths), 8 zero bytes, and ``Skin:`` then a line and the
    player's name, each ending in a carriage return.
    """
    height, width = len(rows), len(rows[0])
    layout = np.array([[cell == "*" for cell in row] for row in rows])
    numbers = neighbour_counts(layout)
    mines = np.argwhere(layout)
    level = AVF_LEVELS.get((width, height, len(mines)), 6)
    data = bytearray([0, 0, 0, 0, 0, level])
    if level == 6:
        data += bytes([width - 1, height - 1]) + len(mines).to_bytes(2, "big")
    for row, column in mines:
        data += bytes([row + 1, column + 1])
    checksum = sum((10 if layout[y, x] else int(numbers[y, x]) + 1) * (x + x * y)
                   for x in range(width) for y in range(height))
    data += bytes(len(str(checksum)) + 4) + bytes([41, 127, 0]) + b"[0|"
    if level == 6:
        data += f"{width}x{height}x{len(mines)}|".encode()
    last = max(ms for _, ms, _, _ in events) / 1000
    data += f"6.12.2026.12:00:00:00|6.12:00:{int(last):02d}:00|B1T{last + 1:.2f}]".encode()
    for button, ms, x, y in events:
        hundredths = ms // 10 + 100  # from 1 second
        whole, part = divmod(hundredths, 100)
        px, py = x * PIXELS + 5, y * PIXELS + 5
        data += bytes([AVF_BUTTONS[button], px >> 8, whole & 255, px & 255, part, py >> 8,
                       whole >> 8, py & 255])
    return bytes(data + bytes(8) + b"Skin:hand\r\rhand\r")


RMV_BUTTONS = {"lc": 2, "lr": 3, "rc": 4, "rr": 5}


def rmv_file(rows, events, *, completed):
    """RMV version 2 bytes (Viennasweeper), as ms_toollib 1.5 reads them.

    ``*rmv``, the version (2 bytes), the clone (1: Viennasweeper) and its version, 4
    bytes, the sizes of the version text (0), 4 bytes, of the pre-flags (0), of the
    properties (7) and of the extension properties (0), 6 bytes, no player fields (2
    bytes), a time stamp (4), columns, rows, mines (2 bytes) and each mine as (column,
    row); the properties (a byte, no-flag play, mode, level - 3, the 3BV in 2 bytes low
    first, cell pixels), no extension properties (2 bytes); 9 bytes an event (button,
    milliseconds in 3 bytes and a byte, x and y in pixels), and 16 (completed) or 17.
    ms_toollib reads the first event as a press too, so each file opens with a release.
    """
    height, width = len(rows), len(rows[0])
    mines = [(x, y) for y, row in enumerate(rows) for x, cell in enumerate(row) if cell == "*"]
    data = bytearray(b"*rmv") + bytes([0, 2, 1, 0]) + bytes(4) + bytes(2) + bytes(4)
    data += bytes(2) + (7).to_bytes(2, "big") + bytes(2) + bytes(6) + bytes(2) + bytes(4)
    data += bytes([width, height]) + len(mines).to_bytes(2, "big")
    for x, y in mines:
        data += bytes([x, y])
    data += bytes([0, 0, 0, 3, 1, 0, PIXELS]) + bytes(2)
    for button, ms, x, y in events:
        data += bytes([RMV_BUTTONS[button]]) + (ms << 8).to_bytes(4, "big")
        data += (x * PIXELS + 5).to_bytes(2, "big") + (y * PIXELS + 5).to_bytes(2, "big")
    return bytes(data + bytes([16 if completed else 17]))


def mvf_bit_positions(leading):
    """Where Minesweeper Clone 0.97 keeps each of an event's 40 bits: (byte, bit mask).

    Five numbers from ``leading`` (square roots, sines and cosines), each written as 8
    digits, make 40 digits; the bits go to the positions of the 0s, then the 1s, ...
    """
    num1, num2 = math.sqrt(leading), math.sqrt(leading + 1000.0)
    num3 = math.sqrt(num1 + 1000.0)
    values = [math.cos(num3 + 1000.0), math.sin(math.sqrt(num2)), math.cos(num3),
              math.sin(math.sqrt(num1) + 1000.0), math.cos(math.sqrt(num2 + 1000.0))]
    digits = "".join(f"{math.floor(abs(value) * 1e8 + 0.5):08d}"[:8] for value in values)
    return [(j // 8, 1 << j % 8) for digit in "0123456789" for j in range(40)
            if digits[j] == digit]


def mvf_file(rows, events, *, completed, leading=1234):
    """MVF bytes of Minesweeper Clone 0.97, as ms_toollib 1.5 reads them.

    0x11 0x4D, 25 bytes, ``5``, 46 bytes; the date (month, day, year in 2 bytes, hour,
    minute, second), level - 2, mode, the score (2 bytes and hundredths), the 3BV and
    the 3BV solved (2 bytes each: equal when completed), 6 bytes, question marks; the
    columns, rows, mines (2 bytes) and each mine as (column + 1, row + 1); the name's
    length and the name; ``leading`` (2 bytes) and the events (3 bytes), each 5 bytes of
    bits placed by `mvf_bit_positions`: right, middle and left button held, y and x in
    pixels (9 bits each), hundredths (7 bits) and whole seconds (10 bits).
    """
    height, width = len(rows), len(rows[0])
    mines = [(x, y) for y, row in enumerate(rows) for x, cell in enumerate(row) if cell == "*"]
    data = bytearray([0x11, 0x4D]) + bytes(25) + b"5" + bytes(46)
    data += bytes([12, 6]) + (2026).to_bytes(2, "big") + bytes([12, 0, 0, 2, 1]) + bytes(3)
    data += (3).to_bytes(2, "big") + (3 if completed else 1).to_bytes(2, "big") + bytes(7)
    data += bytes([width, height]) + len(mines).to_bytes(2, "big")
    for x, y in mines:
        data += bytes([x + 1, y + 1])
    data += bytes([4]) + b"hand" + leading.to_bytes(2, "big") + len(events).to_bytes(3, "big")
    positions = mvf_bit_positions(leading)
    for button, ms, x, y in events:
        left, right = {"lc": (1, 0), "lr": (0, 0), "rc": (0, 1), "rr": (0, 0)}[button]
        seconds, thousandths = divmod(ms, 1000)
        fields = [(0, right, 1), (2, left, 1), (3, y * PIXELS + 5, 9),
                  (12, x * PIXELS + 5, 9), (21, thousandths // 10, 7), (28, seconds, 10)]
        event = bytearray(5)
        for start, value, bits in fields:
            for k in range(bits):
                if value >> k & 1:
                    byte, mask = positions[start + k]
                    event[byte] |= mask
        data += event
    return bytes(data)


FORMATS = ["evf", "avf", "rmv", "mvf"]


def replay_file(suffix, rows, events, *, completed):
    """The bytes of a hand-made game in one of the formats written here."""
    if suffix == "avf":
        return avf_file(rows, events)
    if suffix == "rmv":  # its first event is read as a press too
        return rmv_file(rows, events[1:] if events[0][0] == "lc" else events,
                        completed=completed)
    writer = {"evf": evf_file, "mvf": mvf_file}[suffix]
    return writer(rows, events, completed=completed)


def click(x, y, ms, button="l"):
    return [(f"{button}c", ms, x, y), (f"{button}r", ms + 50, x, y)]


def write(tmp_path, name, data):
    path = tmp_path / name
    path.write_bytes(data)
    return path


def toollib_parse(path):
    reader = getattr(ms_toollib, f"{path.suffix[1:].capitalize()}Video")
    video = reader(str(path))
    video.parse()
    video.analyse()
    return video


def check_against_toollib(path, game):
    """Our layout, and our board after each action, equal ms_toollib's parse of the file.

    Each mouse event after which ms_toollib's board changed is one of our actions; after
    it, our open safe cells are its numbers (0-8) and our flags its flags (11, or 14 for
    a wrong flag once the game is lost).
    """
    video = toollib_parse(path)
    assert np.array_equal(game.mines, np.array(video.board) == -1)
    boards = [np.array(event.next_game_board.game_board) for event in video.events
              if not np.array_equal(event.next_game_board.game_board,
                                    event.prior_game_board.game_board)]
    turns, end = replay_actions(game)
    after = [(turn.revealed, turn.flagged) for turn in turns[1:]]
    after.append((end.revealed.reshape(game.mines.shape), end.flagged.reshape(game.mines.shape)))
    assert len(boards) == len(after)
    for board, (revealed, flagged) in zip(boards, after, strict=True):
        assert np.array_equal(revealed & ~game.mines, board <= 8)
        assert np.array_equal(flagged, np.isin(board, (11, 14)))


# Hand-made games ------------------------------------------------------------------
# The 3x2 board "...", "..*" (one mine at (2, 1)). Clicked at (0, 0), a 0, it opens
# (0, 0), (1, 0), (0, 1), (1, 1); the 1s at (1, 0) and (1, 1) each touch (2, 0) and
# (2, 1) and nothing else hidden, and there is one mine: each is a mine with
# probability 1/2, no cell is safe. Opening (2, 0) is a forced 50/50 that wins (luck
# 1/2); opening (2, 1) is a forced 50/50 that loses.
FIFTY = ["...", "..*"]


@pytest.mark.parametrize("suffix", FORMATS)
def test_a_forced_fifty_fifty_won(tmp_path, suffix):
    path = write(tmp_path, f"won.{suffix}", replay_file(
        suffix, FIFTY, click(0, 0, 0) + click(2, 0, 2000), completed=True))
    game = read_replay(path)
    assert game.click == (0, 0) and [a.kind for a in game.actions] == ["open", "open"]
    assert [a.seconds for a in game.actions] == [0.05, 2.05]
    check_against_toollib(path, game)
    result = analyse_replay(path)
    row = result.per_click().iloc[0]
    assert (row["x"], row["y"], row["mine_probability"]) == (2, 0, 0.5)
    assert row["forced"] and not row["safe_existed"]
    assert (result.outcome, result.forced_guesses, result.luck, result.loss_forced) == (
        "won", 1, 0.5, None)


@pytest.mark.parametrize("suffix", FORMATS)
def test_a_forced_loss(tmp_path, suffix):
    path = write(tmp_path, f"lost.{suffix}", replay_file(
        suffix, FIFTY, click(0, 0, 0) + click(2, 1, 900), completed=False))
    result = analyse_replay(path)
    check_against_toollib(path, read_replay(path))
    assert (result.outcome, result.loss_forced, result.luck) == ("lost", True, 0.5)


@pytest.mark.parametrize("suffix", ["evf", "rmv", "mvf"])
def test_a_file_that_says_a_lost_game_was_completed_is_refused(tmp_path, suffix):
    """EVF, RMV and MVF say whether the game was completed; AVF leaves it to the clicks."""
    data = replay_file(suffix, FIFTY, click(0, 0, 0) + click(2, 1, 900), completed=True)
    path = write(tmp_path, f"claims.{suffix}", data)
    with pytest.raises(ValueError, match="says the game was completed, but its clicks lose"):
        read_replay(path)
    assert replays.STATES_COMPLETION == {"evf", "rmv", "mvf"}


# The 4x2 board "*...", "....": the click at (3, 0) opens every cell but (0, 0) and
# (0, 1), the 1s at (1, 0) and (1, 1) touch both, one mine: a 50/50. The player flags
# (0, 1), wrongly, then chords the 1 at (1, 1), which opens (0, 0): the chord's risk
# is (0, 0)'s, 1/2, with no safe cell, and it loses: a forced loss by a chord.
@pytest.mark.parametrize("suffix", FORMATS)
def test_a_chord_on_a_wrong_flag(tmp_path, suffix):
    events = click(3, 0, 0) + click(0, 1, 500, "r") + [
        ("lc", 900, 1, 1), ("rc", 910, 1, 1), ("lr", 950, 1, 1), ("rr", 960, 1, 1)]
    path = write(tmp_path, f"chord.{suffix}", replay_file(suffix, ["*...", "...."], events,
                                                          completed=False))
    game = read_replay(path)
    assert [(a.kind, a.x, a.y) for a in game.actions] == [
        ("open", 3, 0), ("flag", 0, 1), ("chord", 1, 1)]
    check_against_toollib(path, game)
    result = analyse_game(game)
    row = result.per_click().iloc[0]
    assert (row["kind"], row["mine_probability"], row["forced"]) == ("chord", 0.5, True)
    assert result.loss_forced is True


@pytest.mark.parametrize("suffix", FORMATS)
@pytest.mark.parametrize(("size", "seed"), [((8, 8, 10), 1), ((16, 16, 40), 2),
                                           ((30, 16, 99), 3)])
def test_the_standard_boards_read_as_toollib_parses_them(tmp_path, size, seed, suffix):
    """A game on each standard board, won by opening every safe cell in turn from a zero.

    AVF names these boards by a level instead of spelling them out, and says nothing of
    a win until its clicks are played.
    """
    width, height, mines = size
    rng = np.random.default_rng(seed)
    layout = np.zeros(width * height, bool)
    layout[rng.choice(layout.size, size=mines, replace=False)] = True
    layout = layout.reshape(height, width)
    rows = ["".join("*" if mine else "." for mine in row) for row in layout]
    zero = np.argwhere(~layout & (neighbour_counts(layout) == 0))[0]
    order = [(int(y), int(x)) for y, x in [zero, *np.argwhere(~layout)]]
    events = [event for step, (y, x) in enumerate(order) for event in click(x, y, 100 * step)]
    path = write(tmp_path, f"standard.{suffix}", replay_file(suffix, rows, events,
                                                             completed=True))
    game = read_replay(path)
    check_against_toollib(path, game)
    assert game.click == (zero[1], zero[0]) and replay_actions(game)[1].won


# ms_toollib's own files --------------------------------------------------------------
def toollib_game(layout, seed):
    """Play a layout with ms_toollib's BaseVideo, at random, and return its EVF bytes.

    Each step opens a random hidden cell, or sometimes flags a hidden cell or chords
    an open number; what it does is ms_toollib's business, read back by both parsers.
    """
    rng = np.random.default_rng(seed)
    height, width = layout.shape
    board = np.where(layout, -1, neighbour_counts(layout)).tolist()
    video = ms_toollib.BaseVideo(board, PIXELS)
    safe = np.argwhere(~layout)
    first = safe[rng.integers(len(safe))]
    video.step("lc", (int(first[0]) * PIXELS + 4, int(first[1]) * PIXELS + 4))
    video.step("lr", (int(first[0]) * PIXELS + 4, int(first[1]) * PIXELS + 4))
    for _ in range(200):
        if video.game_board_state in (3, 4):  # won, lost
            break
        shown = np.array(video.game_board)
        kind = rng.choice(["open", "open", "flag", "chord"])
        cells = np.argwhere(shown <= 8 if kind == "chord" else shown == 10)
        if not len(cells):
            continue
        row, column = (int(v) * PIXELS + 6 for v in cells[rng.integers(len(cells))])
        presses = {"open": ["lc", "lr"], "flag": ["rc", "rr"],
                   "chord": ["lc", "rc", "lr", "rr"]}[kind]
        for button in presses:
            video.step(button, (row, column))
    if video.game_board_state not in (3, 4):
        return None
    video.generate_evf_v4_raw_data()
    return bytes(video.raw_data)


@pytest.mark.parametrize("seed", range(6))
def test_toollib_games_read_as_toollib_parses_them(tmp_path, seed):
    rng = np.random.default_rng([50, seed])
    width, height = rng.integers(4, 9, size=2)
    layout = np.zeros(width * height, bool)
    layout[rng.choice(layout.size, size=int(rng.integers(2, layout.size // 4 + 2)),
                      replace=False)] = True
    layout = layout.reshape(height, width)
    data = toollib_game(layout, seed)
    assert data is not None
    path = write(tmp_path, f"game{seed}.evf", data)
    game = read_replay(path)
    check_against_toollib(path, game)
    result = analyse_game(game)
    # every click's probability is mine_probabilities of the position ms_toollib showed
    video = toollib_parse(path)
    before = [event.prior_game_board.game_board for event in video.events
              if event.event.unwrap_mouse().mouse != "mv"
              and event.next_game_board.game_board != event.prior_game_board.game_board]
    for _, row in result.per_click().iterrows():
        if row["kind"] != "open":
            continue
        shown = np.array(before[row["number"] - 1])
        numbers = np.where(shown <= 8, shown, -1)
        expected = mine_probabilities(numbers, mines=int(layout.sum()), exact=True)
        assert row["mine_probability"] == float(expected.fractions[row["y"], row["x"]])
        # best's move: a proven safe cell while one exists, and its exact chance
        assert row["best_probability"] == float(expected.fractions[row["best_y"],
                                                                   row["best_x"]])
        assert (row["best_kind"] == "safe") == row["safe_existed"]


# chords opening two uncertain cells: the exact engine against brute force -------------
def brute_risk(layout, revealed, cells):
    """The share of layouts fitting the revealed numbers that mine one of ``cells``."""
    numbers = neighbour_counts(layout)
    hidden = np.flatnonzero(~revealed.ravel())
    fits = hits = 0
    for chosen in itertools.combinations(hidden, int(layout.sum())):
        candidate = np.zeros(layout.size, bool)
        candidate[list(chosen)] = True
        candidate = candidate.reshape(layout.shape)
        if np.array_equal(neighbour_counts(candidate)[revealed], numbers[revealed]):
            fits += 1
            hits += bool(candidate.ravel()[cells].any())
    return Fraction(hits, fits)


def test_a_chord_risk_over_two_cells_is_exact():
    rng = np.random.default_rng(7)
    checked = 0
    while checked < 5:
        layout = rng.random((3, 4)) < 0.3
        if not layout.any() or layout.all():
            continue
        numbers = neighbour_counts(layout)
        start = np.argwhere(~layout & (numbers == 0))
        if not len(start):
            continue
        y, x = start[0]
        game = RecordedGame(layout, (int(x), int(y)), (Action(0, "open", int(x), int(y)),))
        turns, end = replay_actions(game)
        revealed = end.revealed.reshape(layout.shape)
        for cy, cx in np.argwhere(revealed & (numbers > 0)):
            around = [(j % 4, j // 4) for j in end.table[cx + cy * 4]
                      if j >= 0 and not end.revealed[j]]
            if len(around) < numbers[cy, cx] + 2:
                continue
            flags = around[:numbers[cy, cx]]  # right or wrong
            opened = [c for c in around if c not in flags]
            actions = (*game.actions, *(Action(1, "flag", fx, fy) for fx, fy in flags),
                       Action(2, "chord", int(cx), int(cy)))
            result = analyse_game(game._replace(actions=actions))
            risk = brute_risk(layout, revealed, [ox + oy * 4 for ox, oy in opened])
            assert result.per_click()["mine_probability"].iloc[0] == float(risk)
            checked += 1
            break


# bad input ---------------------------------------------------------------------------
def one_line_error(path):
    with pytest.raises(ValueError) as caught:
        read_replay(path)
    message = str(caught.value)
    assert "\n" not in message and message.startswith(str(path))
    return message


def test_bad_files_are_one_line_each_and_left_unchanged(tmp_path):
    good = evf_file(FIFTY, click(0, 0, 0) + click(2, 0, 2000), completed=True)
    files = {"empty.evf": b"", "cut.evf": good[:30], "cut-late.evf": good[:-9],
             "noise.evf": bytes(range(5, 200)), "other.avf": good, "other.rmv": good,
             "other.mvf": good, "text.evf": b"3 rows of text\n",
             "lies.evf": evf_file(FIFTY, click(0, 0, 0) + click(2, 1, 900), completed=True),
             "modest.evf": evf_file(FIFTY, click(0, 0, 0) + click(2, 0, 900),
                                    completed=False),
             "notes.txt": b"hello"}
    before = {}
    for name, data in files.items():
        path = write(tmp_path, name, data)
        before[name] = (data, os.stat(path).st_mtime_ns)
    messages = {name: one_line_error(tmp_path / name) for name in files}
    assert "empty" in messages["empty.evf"]
    assert "ms_toollib cannot read it as AVF" in messages["other.avf"]
    assert "does not start with *rmv" in messages["other.rmv"]
    assert "says the game was completed, but its clicks lose it" in messages["lies.evf"]
    assert "was not completed, but its clicks win it" in messages["modest.evf"]
    assert "suffix '.txt'" in messages["notes.txt"]
    for name, (data, mtime) in before.items():
        assert (tmp_path / name).read_bytes() == data
        assert os.stat(tmp_path / name).st_mtime_ns == mtime
    assert sorted(os.listdir(tmp_path)) == sorted(files)


def test_a_file_that_stops_ms_toollib_leaves_no_crash_log_behind(tmp_path, monkeypatch):
    """ms_toollib writes crash.log into its working folder when it panics: not ours."""
    working = tmp_path / "working"
    working.mkdir()
    monkeypatch.chdir(working)
    package_log = replays.PACKAGE_PARENT / "crash.log"
    before = package_log.stat().st_mtime_ns if package_log.exists() else None
    good = evf_file(FIFTY, click(0, 0, 0) + click(2, 0, 2000), completed=True)
    for name, data in {"cut.evf": good[:30], "other.avf": good}.items():
        assert "ms_toollib" in one_line_error(write(tmp_path, name, data))
    assert os.listdir(working) == []
    assert (package_log.stat().st_mtime_ns if package_log.exists() else None) == before


def test_special_files_and_big_files_are_refused(tmp_path):
    os.mkfifo(tmp_path / "pipe.evf")  # never opened for a blocking read
    assert "not a regular file" in one_line_error(tmp_path / "pipe.evf")
    big = write(tmp_path, "big.evf", bytes([3]) * (replays.MAX_REPLAY_BYTES + 1))
    assert "MAX_REPLAY_BYTES" in one_line_error(big)


def test_without_ms_toollib_the_command_says_how_to_install_it(monkeypatch):
    monkeypatch.setattr(replays, "_ms_toollib_installed", lambda: False)
    with pytest.raises(ValueError, match=r"pip install 'minestats\[replays\]'"):
        read_replay("game.evf")


def test_a_folder_of_10000_files_gives_one_line_each(tmp_path):
    for k in range(10_000):
        (tmp_path / f"{k:05}.evf").write_bytes(b"" if k % 2 else b"\x09")
    (tmp_path / "sub").mkdir()
    answers = list(analyse_replays(tmp_path))
    assert len(answers) == 10_000
    assert all(isinstance(answer, str) and "\n" not in answer for _, answer in answers)
    assert answers[1][1].endswith("the file is empty")
    assert answers[0][1].endswith("its version byte is 9, known are 0 to 4")


def test_a_folder_is_summarised_per_board(tmp_path):
    write(tmp_path, "a.evf", evf_file(FIFTY, click(0, 0, 0) + click(2, 0, 900),
                                      completed=True))
    write(tmp_path, "b.evf", evf_file(FIFTY, click(0, 0, 0) + click(2, 1, 900),
                                      completed=False))
    write(tmp_path, "c.evf", b"")
    answers = dict(analyse_replays(tmp_path))
    assert isinstance(answers[str(tmp_path / "c.evf")], str)
    games = [answer for answer in answers.values() if not isinstance(answer, str)]
    row = summarise_games(games).iloc[0]
    # two games, one lost by a forced guess: 1 of 1 losses forced; one guess a game
    assert (row["games"], row["lost"], row["forced_losses"], row["ci_high"]) == (2, 1, 1, 1.0)
    assert (row["guesses_per_game"], row["guesses_ci_low"]) == (1.0, 1.0)


# recorded games by hand -------------------------------------------------------------
@pytest.mark.parametrize(("actions", "message"), [
    ((Action(0, "open", 1, 0),), "the first open must be the first click"),
    ((Action(0, "open", 0, 0), Action(-1, "flag", 3, 0)), "never go back"),
    ((Action(0, "open", 0, 0), Action(1, "flag", 3, 0), Action(2, "open", 3, 0)),
     "it is flagged"),
    ((Action(0, "open", 0, 0), Action(1, "chord", 2, 0)), "has 0 flags around it"),
    ((Action(0, "open", 0, 0), Action(1, "open", 4, 0), Action(2, "open", 3, 0)),
     "the game is won"),
    ((Action(0, "jump", 0, 0),), "the kind must be one of"),
    ((Action(0, "open", 0, 9),), "must be"),
])
def test_actions_that_do_not_fit_the_game_are_named(actions, message):
    game = RecordedGame(np.array([[0, 0, 0, 1, 0]], bool), (0, 0), actions)
    with pytest.raises(ValueError, match=message):
        replay_actions(game)
