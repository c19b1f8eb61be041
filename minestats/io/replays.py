"""Replays of the games people play (AVF, EVF, MVF, RMV), read into a `RecordedGame`.

The files are parsed by ms_toollib (the extra ``minestats[replays]``), in a child
process (`minestats.io.replay_worker`), because ms_toollib ends its process on many
malformed files; the child's answer is then checked here, field by field, and the
game is played again by minestats' own rules (`minestats.mechanics.recorded_games`):

- the board is a grid of ``height`` rows of ``width`` numbers, its mines (-1) as many
  as the header says, and its numbers those minestats counts around the mines;
- every mouse event that changed the board becomes one action: cells opened from a
  hidden clicked cell an ``open``, from an open number a ``chord``; one flag put or
  taken away a ``flag`` or ``unflag``; the first open is the first click;
- each action, played by minestats, must open exactly the cells ms_toollib opened,
  and a file whose header says whether its game was completed (`STATES_COMPLETION`)
  must end won exactly when it says so.

A file fails with one line naming it and what is wrong with it: too big, empty, not
of the format its suffix names, truncated, or with clicks that contradict its board.
Every file is read once, at most `MAX_REPLAY_BYTES`, and never written; each parse
has `PARSE_SECONDS` (then the child is ended and another started) and the child's
memory is bounded (`minestats.io.replay_worker.MEMORY_BYTES`).
"""

from __future__ import annotations

import base64
import importlib.util
import json
import os
import select
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

from minestats.foundations.validation import quoted
from minestats.mechanics.game import neighbour_counts
from minestats.mechanics.recorded_games import Action, RecordedGame, replay_actions

__all__ = ["INSTALL", "MAX_REPLAY_BYTES", "PARSE_SECONDS", "REPLAY_FORMATS", "STATES_COMPLETION",
           "ReplayReader", "game_from_parse", "read_replay", "replay_files"]

REPLAY_FORMATS = ("avf", "evf", "mvf", "rmv")
"""The suffixes read: Arbiter, Metasweeper, Minesweeper Clone, Viennasweeper replays."""

STATES_COMPLETION = frozenset({"evf", "mvf", "rmv"})
"""The formats that say whether the game was completed (EVF in a flag, MVF as 3BV solved
against 3BV, RMV in the code that ends its events); AVF does not, and ms_toollib knows
it only from the clicks."""

MAX_REPLAY_BYTES = 4 * 2**20
"""The most bytes a replay may hold (4 MiB; an Expert game takes tens of kB)."""

PARSE_SECONDS = 30.0
"""How long ms_toollib may take over one file before its process is ended."""

INSTALL = ("reading replays needs ms_toollib: pip install 'minestats[replays]' (or "
           "pip install ms-toollib)")
"""What a replay command says when ms_toollib is not installed."""

MAX_SIDE = 1000
"""The widest and tallest board read (no replay format records a bigger one)."""

PACKAGE_PARENT = Path(__file__).resolve().parents[2]
"""The folder holding this copy of minestats: the worker imports from there, so it runs
this copy. It runs in a temporary folder of its own, because ms_toollib writes
``crash.log`` into the working folder when it fails on a file."""

OPEN_CODES = frozenset(range(9)) | {15}
"""ms_toollib's codes of a cell that an action opened: a number, or the mine that lost."""
HIDDEN, FLAG, QUESTION = 10, 11, 12


def _ms_toollib_installed() -> bool:
    return importlib.util.find_spec("ms_toollib") is not None


def _fail(message: str):
    raise ValueError(message)


def _check_board(reply: dict) -> np.ndarray:
    """Return the layout of a parse, its board checked against its header and our numbers."""
    height, width, mines, board = (reply.get(key) for key in ("height", "width", "mines",
                                                                "board"))
    for name, value in (("rows", height), ("columns", width)):
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_SIDE:
            _fail(f"its board has {quoted(value)} {name}; a board has 1 to {MAX_SIDE}")
    if (not isinstance(board, list) or len(board) != height
            or not all(isinstance(row, list) and len(row) == width for row in board)
            or not all(isinstance(v, int) and not isinstance(v, bool) and -1 <= v <= 8
                       for row in board for v in row)):
        _fail(f"its board is not {height} rows of {width} numbers from -1 (a mine) to 8")
    numbers = np.array(board, dtype=np.int64)
    layout = numbers == -1
    if mines != int(layout.sum()):
        _fail(f"its header says {quoted(mines)} mines, its board holds {int(layout.sum())}")
    if not layout.any() or layout.all():
        _fail(f"its {width}x{height} board has {int(layout.sum())} mines: a game needs a "
              "mine and a safe cell")
    counted = neighbour_counts(layout)
    wrong = np.argwhere(~layout & (counted != numbers))
    if wrong.size:
        y, x = wrong[0].tolist()
        _fail(f"its board shows {numbers[y, x]} at ({x}, {y}), where {counted[y, x]} mines "
              "touch the cell")
    return layout


def _action(event, number: int, shown: np.ndarray, pixels: int) -> tuple[Action | None, set]:
    """One changing event as an action (or None), and the cells it opened; updates ``shown``."""
    height, width = shown.shape
    if not (isinstance(event, list) and len(event) == 5 and isinstance(event[4], list)):
        _fail(f"event {number} is not [time, button, x, y, changes]")
    seconds, _, px, py, changes = event
    if (isinstance(seconds, bool) or not isinstance(seconds, int | float) or not
            np.isfinite(seconds) or not all(isinstance(v, int) and v >= 0 for v in (px, py))):
        _fail(f"event {number} has a bad time or place: {quoted(event[:4])}")
    before = shown.copy()
    for change in changes:
        if not (isinstance(change, list) and len(change) == 3
                and all(isinstance(v, int) for v in change)
                and 0 <= change[0] < height and 0 <= change[1] < width):
            _fail(f"event {number} changes a cell off the board: {quoted(change)}")
        shown[change[0], change[1]] = change[2]
    opened = {(c[1], c[0]) for c in changes if c[2] in OPEN_CODES and before[c[0], c[1]] in
              (HIDDEN, FLAG, QUESTION)}
    x, y = px // pixels, py // pixels
    if opened:
        if not (x < width and y < height):
            _fail(f"event {number} opened cells but was off the board, at pixel ({px}, {py})")
        kind = "chord" if 0 <= before[y, x] <= 8 else "open"
        return Action(float(seconds), kind, x, y), opened
    flags = [(c[1], c[0], before[c[0], c[1]], c[2]) for c in changes
             if FLAG in (before[c[0], c[1]], c[2])]
    if len(flags) == 1 and len(changes) == 1:
        fx, fy, old, new = flags[0]
        return Action(float(seconds), "flag" if new == FLAG else "unflag", fx, fy), set()
    return None, set()  # a question mark, or the mines shown once the game is over


def game_from_parse(reply: dict, *, suffix: str) -> RecordedGame:
    """Check ms_toollib's parse of a replay (the worker's answer) and build its game.

    Parameters
    ----------
    reply : dict
        `minestats.io.replay_worker.answer`'s answer.
    suffix : str
        The format read, for `RecordedGame.source`.

    Raises
    ------
    ValueError
        One line: what in the parse is wrong, or which action contradicts the board.

    Examples
    --------
    A 3x1 board, its mine on the right; the click at (0, 0) opens two cells (16
    pixels a cell), which wins:

    >>> reply = {"height": 1, "width": 3, "mines": 1, "board": [[0, 1, -1]],
    ...          "software": "hand", "completed": True, "pixels": 16,
    ...          "events": [[0.25, "lr", 3, 5, [[0, 0, 0], [0, 1, 1]]]]}
    >>> game = game_from_parse(reply, suffix="evf")
    >>> game.click, game.actions, game.source
    ((0, 0), (Action(seconds=0.25, kind='open', x=0, y=0),), "EVF, 'hand'")
    >>> game_from_parse({**reply, "completed": False}, suffix="evf")
    Traceback (most recent call last):
    ...
    ValueError: the file says the game was not completed, but its clicks win it
    """
    layout = _check_board(reply)
    pixels, events = reply.get("pixels"), reply.get("events")
    if isinstance(pixels, bool) or not isinstance(pixels, int) or pixels < 1:
        _fail(f"its cells are {quoted(pixels)} pixels wide")
    if not isinstance(events, list):
        _fail("its events are not a list")
    shown = np.full(layout.shape, HIDDEN, dtype=np.int64)
    actions, opened_by = [], []
    for number, event in enumerate(events, start=1):
        action, opened = _action(event, number, shown, pixels)
        if action is not None:
            actions.append(action)
            opened_by.append(opened)
    first = next((a for a in actions if a.kind == "open"), None)
    if first is None:
        _fail("no click of the replay opens a cell")
    software = reply.get("software")
    game = RecordedGame(layout, (first.x, first.y), tuple(actions), suffix.upper() + (
        f", {quoted(software, 60)}" if software else ""))
    try:
        turns, end = replay_actions(game)
    except ValueError as error:
        raise ValueError(f"its clicks contradict its board: {error}") from None
    width = layout.shape[1]
    for number, (turn, opened) in enumerate(zip(turns, opened_by, strict=True), start=1):
        ours = {(cell % width, cell // width) for cell in turn.opened}
        if ours != opened:
            _fail(f"its clicks contradict its board: action {number} ({turn.action.kind} "
                  f"{(turn.action.x, turn.action.y)}) opens {len(ours)} cells by the rules, "
                  f"{len(opened)} in the file")
    completed = reply.get("completed")
    if suffix in STATES_COMPLETION and completed is not bool(end.won):
        said = "was completed" if completed else "was not completed"
        found = "win it" if end.won else ("lose it" if end.lost else "leave it unfinished")
        _fail(f"the file says the game {said}, but its clicks {found}")
    return game


def _precheck(suffix: str, data: bytes) -> None:
    """Refuse what no replay of the format can be, before ms_toollib sees it."""
    if not data:
        _fail("the file is empty")
    if suffix == "rmv" and not data.startswith(b"*rmv"):
        _fail("not an RMV replay: it does not start with *rmv")
    if suffix == "evf" and data[0] > 4:
        _fail(f"not an EVF replay: its version byte is {data[0]}, known are 0 to 4")


class ReplayReader:
    """Read replay files through one ms_toollib process, started again whenever it dies.

    Use it as a context manager (the process ends with the block); `read_replay`
    reads one file, `replay_files` lists a folder's.

    Examples
    --------
    >>> with ReplayReader() as reader:  # doctest: +SKIP
    ...     game = reader.read("game.evf")
    """

    def __init__(self):
        if not _ms_toollib_installed():
            raise ValueError(INSTALL)
        self._process = None
        self._folder = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self) -> None:
        """End the ms_toollib process, if one runs."""
        if self._process is not None:
            self._process.stdin.close()
            try:
                self._process.wait(timeout=PARSE_SECONDS)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
            self._process.stdout.close()
            self._process = None
        if self._folder is not None:
            self._folder.cleanup()
            self._folder = None

    def _start(self):
        if self._folder is None:
            self._folder = tempfile.TemporaryDirectory(prefix="minestats-replays-")
        if self._process is None:
            search_path = [str(PACKAGE_PARENT), *filter(None, [os.environ.get("PYTHONPATH")])]
            self._process = subprocess.Popen(
                [sys.executable, "-m", "minestats.io.replay_worker"],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                text=True, encoding="utf-8", cwd=self._folder.name,
                env={**os.environ, "PYTHONPATH": os.pathsep.join(search_path)})
        return self._process

    def _ask(self, suffix: str, data: bytes) -> dict:
        """ms_toollib's parse of ``data``: the worker's answer, or a ValueError."""
        process = self._start()
        request = json.dumps({"format": suffix, "data": base64.b64encode(data).decode()})
        try:
            process.stdin.write(request + "\n")
            process.stdin.flush()
            ready, _, _ = select.select([process.stdout], [], [], PARSE_SECONDS)
            line = process.stdout.readline() if ready else None
        except (BrokenPipeError, OSError):
            line = ""
        if not line:
            self._process = None
            process.kill()
            process.wait()
            process.stdin.close()
            process.stdout.close()
            if line is None:
                _fail(f"ms_toollib took more than {PARSE_SECONDS:g} s over it")
            _fail(f"ms_toollib cannot read it as {suffix.upper()} (its parser stopped): a "
                  "truncated or corrupt file, or another format")
        try:
            reply = json.loads(line)
        except ValueError:
            _fail("ms_toollib's answer is not JSON")
        if not isinstance(reply, dict) or reply.get("ok") is not True:
            error = reply.get("error") if isinstance(reply, dict) else None
            _fail(f"ms_toollib cannot read it as {suffix.upper()}: {quoted(error, 120)}")
        return reply

    def read(self, path) -> RecordedGame:
        """Read one replay file; a bad one is a ValueError of one line, naming it.

        Raises
        ------
        ValueError
            ``"NAME: what is wrong"``.
        """
        name = os.fspath(path)
        try:
            suffix = Path(name).suffix.lower().lstrip(".")
            if suffix not in REPLAY_FORMATS:
                _fail(f"not a replay: the suffix {quoted(Path(name).suffix)} is none of "
                      f"{', '.join('.' + s for s in REPLAY_FORMATS)}")
            data = _read_bytes(name)
            _precheck(suffix, data)
            return game_from_parse(self._ask(suffix, data), suffix=suffix)
        except ValueError as error:
            raise ValueError(f"{name}: {error}") from None


def _read_bytes(name: str) -> bytes:
    """Return a regular file's bytes, at most `MAX_REPLAY_BYTES` (never a FIFO, a device)."""
    try:
        with open(name, "rb", opener=lambda path, flags: os.open(
                path, flags | os.O_NONBLOCK)) as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                _fail("not a regular file")
            data = handle.read(MAX_REPLAY_BYTES + 1)
    except OSError as error:
        _fail(f"cannot read it: {error.strerror or error}")
    if len(data) > MAX_REPLAY_BYTES:
        _fail(f"more than MAX_REPLAY_BYTES = {MAX_REPLAY_BYTES:_} bytes: no replay is this big")
    return data


def read_replay(path) -> RecordedGame:
    """Read one replay file (AVF, EVF, MVF or RMV, by its suffix) into a `RecordedGame`.

    Parameters
    ----------
    path : str or path-like

    Returns
    -------
    RecordedGame
        Its layout, first click and actions with times, checked against the board.

    Raises
    ------
    ValueError
        One line naming the file: ms_toollib missing (how to install it), a file
        too big, empty, of another format, truncated or corrupt, or whose clicks
        contradict its board.

    Examples
    --------
    >>> read_replay("notes.txt")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: notes.txt: not a replay: the suffix '.txt' is none of .avf, .evf, .mvf, .rmv
    """
    with ReplayReader() as reader:
        return reader.read(path)


def replay_files(folder) -> list[Path]:
    """Every entry of ``folder`` (not its sub-folders' entries), sorted by name.

    Raises
    ------
    ValueError
        When ``folder`` is not a folder that can be listed.
    """
    try:
        with os.scandir(folder) as entries:
            return sorted(Path(entry.path) for entry in entries if not entry.is_dir())
    except OSError as error:
        raise ValueError(f"cannot list {os.fspath(folder)!r}: {error.strerror or error}"
                         ) from None
