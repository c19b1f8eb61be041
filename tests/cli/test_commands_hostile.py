"""Hostile input on the command line: one clear line, never a traceback, hang or lost file.

The cases run the ``minestats`` command (its `main`, in this process) in a folder of
fixture files (an existing output file, a foreign SQLite file, a corrupt store,
malformed boards, count matrices and game files), in a folder of special files (a FIFO,
symlinks in a loop or to nowhere and, as root, null, zero and full devices made there,
never in ``/dev``), on inputs past a size limit, or on an endless stdin; each must exit
with status 2 and one line on stderr naming the fault, print nothing on stdout, and
leave every file of the folder as it was (a special file still of its kind). No test
here reads the clock: waits on a FIFO or a scheduler are cut short, and a refusal that
never ends is caught by the suite's hang guard (pytest-timeout, far above any normal
run). The library's own refusals are in ``tests/test_hostile.py``, the parsers' fuzzing
in ``tests/io/test_boards_hostile.py``.
"""

import io
import json
import os
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from minestats.cli import main

GAME = {"format": "minestats game", "version": 1, "board": "3x2/1", "layout": ["..*", "..."],
        "click": [0, 1], "policy": "best", "seed": 1, "won": True, "moves": []}
"""A valid game file of ``play --out``; the ``game_*.json`` fixtures each break one field."""
FIXTURES = {
    "board.txt": b"..*.\n....\n*...\n",
    "ragged.txt": b"..*\n....\n",
    "letters.txt": b"..x\n...\n",
    "empty.txt": b"",
    "binary.txt": bytes(range(256)),
    "short.mbf": bytes([3, 3, 0, 5]),
    "huge.mbf": bytes([255, 255, 255, 255]),
    "counts_ragged.txt": b"1 1\n1\n",
    "counts_ten.txt": b"10 1\n1 1\n",
    "counts_letters.txt": b"1 a\n1 1\n",
    "counts_negative.txt": b"-1 1\n1 1\n",
    "counts_none.txt": b"9 9\n9 9\n",
    "position.txt": b"1?\n??\n",
    "position_nine.txt": b"9?\n??\n",
    "position_bad.txt": b"1?\nQ?\n",
    "position_inconsistent.txt": b"4?\n??\n",
    "existing.mbf": b"an earlier board\n",
    "existing.txt": b"an earlier board\n",
    "corrupt.sqlite": b"this is not a database at all" * 10,
    "utf16.txt": "1?\n??\n".encode("utf-16"),
    **{f"game_{name}.json": json.dumps(GAME | change).encode() for name, change in {
        "format": {"format": "pickle"}, "version": {"version": 2},
        "board": {"board": "3x2/2"}, "click": {"click": [5, 0]},
        "clicktype": {"click": "corner"}, "policy": {"policy": "lucky"},
        "seed": {"seed": 1.5}, "won": {"won": "yes"},
        "move": {"moves": [{"x": 9, "y": 0, "mine_probability": 0.5, "kind": "frontier"}]},
        "chance": {"moves": [{"x": 2, "y": 0, "mine_probability": 2, "kind": "frontier"}]},
        "kind": {"moves": [{"x": 2, "y": 0, "mine_probability": 0.5, "kind": "hunch"}]},
        "open": {"moves": [{"x": 0, "y": 1, "mine_probability": 0.5, "kind": "frontier"}]},
        "layout": {"layout": ["*..", "x.."]}, "extra": {"colour": "red"}}.items()},
    "game_list.json": b"[1, 2, 3]",
    "game_deep.json": b"[" * 100_000,
    "game_digits.json": b'{"format": "minestats game", "x": ' + b"9" * 5000 + b"}",
}
BIG = "99999999999999999999999"
BEGINNER_RULE = ["--board", "beginner", "--rule", "uniform"]

CLI_CASES = [
    # messages a person can read
    (["opening", "--board", "beginner", "--rule", "uniform", "--seed", "9" * 5000],
     "MAX_SEED_CHARACTERS = 1,000"),
    (["generate", "--board", "beginner", "--out", ""], "an empty name names no file"),
    (["play", "--board", "expert", "--out", ""], "an empty name names no file"),
    # reproduce checks everything before it starts a script
    (["reproduce", "--workers", "0"], "workers (0)"),
    (["reproduce", "--out", "existing.txt"], "--out ('existing.txt') must name a folder"),
    (["reproduce", "--seed", "-4"], "seed (-4)"),
    # workers, checked before any work or progress bar
    (["pass-rate", "--board", "beginner", "-n", "100", "--workers", "0"], "workers (0)"),
    (["win-rate", "--board", "beginner", "-n", "10", "--workers", "-5"], "workers (-5)"),
    (["win-rate", "--board", "beginner", "-n", "10", "--workers", "1000"], "MAX_WORKERS = 64"),
    (["sweep", "--boards", "beginner", "-n", "10", "--workers", "0"],
     "workers (0)"),
    # boards
    (["opening", "--board", "100000x100000/1", "--rule", "uniform"], "MAX_CELLS"),
    (["opening-map", "--board", "2000x1000/1", "--rule", "uniform"], "MAX_MAP_CELLS"),
    (["opening", "--board", "0x0/0", "--rule", "uniform"], "width (0) must be at least 1"),
    (["opening", "--board", "9x0/0", "--rule", "uniform"], "height (0) must be at least 1"),
    (["opening", "--board", "9x9/100", "--rule", "uniform"], "mines (100) must be between"),
    (["opening", "--board", "nine", "--rule", "uniform"], "'nine' is neither a preset"),
    (["opening", "--board", "9x9/-1", "--rule", "uniform"], "'9x9/-1' is neither a preset"),
    (["opening", "--board", "3x3/1", "--rule", "safe-opening"], "must be at most 0"),
    (["opening-map", "--board", "3x3/1", "--rule", "safe-opening"], "for a map of every click"),
    # rules, clicks, policies, solvers
    (["opening", "--board", "beginner", "--rule", "xp"], "rule 'xp' is not one of"),
    ([*["opening"], *BEGINNER_RULE, "--click", "9,9"], "click (9, 9) is off the 9x9 board"),
    ([*["opening"], *BEGINNER_RULE, "--click", "a,b"], "'a,b'"),
    ([*["opening"], *BEGINNER_RULE, "--click", "-1,0"], "--click: expected one argument"),
    ([*["opening"], *BEGINNER_RULE, "--click=-1,0"], "-1"),
    ([*["opening"], *BEGINNER_RULE, "--click", "middle"], "'middle'"),
    (["solve", "--board", "beginner", "--solver", "psychic"], "solver 'psychic' is not one of"),
    (["solve", "--board", "beginner", "--max-configurations", BIG], "max_configurations"),
    (["solve", "--board", "beginner", "--max-configurations", "0"], "max_configurations (0)"),
    (["play", "--board", "beginner", "--policy", "lucky"], "policy 'lucky' is not one of"),
    (["win-rate", "--board", "beginner", "-n", "10", "--policy", "x"], "policy 'x'"),
    (["win-rate", "--board", "beginner", "-n", "10", "--rule", "nope"], "rule 'nope'"),
    (["sweep", "--boards", "beginner", "--rules", "nope", "-n", "10"], "rule 'nope'"),
    (["sweep", "--boards", "beginner", "--solvers", "guess", "-n", "10"], "solver 'guess'"),
    (["generate", "--board", "beginner", "--method", "magic"], "'magic'"),
    # counts
    ([*["opening"], *BEGINNER_RULE, "-n", "0"], "n (0) must be a positive integer"),
    ([*["opening"], *BEGINNER_RULE, "-n", "-5"], "n (-5) must be a positive integer"),
    ([*["opening"], *BEGINNER_RULE, "-n", "abc"], "invalid int value: 'abc'"),
    ([*["opening"], *BEGINNER_RULE, "-n", BIG], "must be at most"),
    (["simulate", *BEGINNER_RULE], "required: -n"),
    (["win-rate", "--board", "beginner", "-n", "0"], "n (0) must be a positive integer"),
    (["generate", "--board", "beginner", "--max-tries", "0"], "max_tries (0)"),
    (["generate", "--board", "beginner", "--timeout", "-1"], "timeout (-1.0)"),
    (["generate", "--board", "beginner", "--timeout", "nan"], "timeout (nan)"),
    (["bbbv", "--board", "beginner", "-n", "10", "--between", "20", "10"],
     "LOW must be at most HIGH"),
    (["probabilities", "position.txt", "--mines", "-1"], "mines (-1)"),
    (["probabilities", "position.txt", "--mines", "1000"], "mines (1000)"),
    (["probabilities", "position_nine.txt"], "'9' is not a number 0-8"),
    # flags
    ([*["opening"], *BEGINNER_RULE, "--csv", "--json"], "not allowed with argument"),
    (["frobnicate"], "invalid choice: 'frobnicate'"),
    (["solve"], "give either --file or --board"),
    (["solve", "--file", "board.txt", "--board", "beginner"], "give either --file or --board"),
    (["play", "--file", "board.txt", "--board", "beginner"], "give either --file or --board"),
    (["bbbv", "--board", "expert"], "give --file, or --board with -n"),
    (["bbbv", "--file", "board.txt", "--board", "beginner"], "cannot be combined with --board"),
    (["bbbv", "--file", "board.txt", "-n", "5"], "cannot be combined with -n"),
    (["reproduce", "--only", "everything"], "unknown experiments ['everything']"),
    (["pass-rate", "--board", "beginner", "--solver", "logic", "-n", "10", "--store",
      "run.sqlite"], "--store needs --seed"),
    # files
    (["solve", "--file", "missing.txt"], "cannot read 'missing.txt'"),
    (["solve", "--file", "."], "cannot read '.'"),
    (["solve", "--file", "ragged.txt"], "row has 4 cells, expected 3"),
    (["solve", "--file", "letters.txt"], "unexpected character 'x'"),
    (["solve", "--file", "empty.txt"], "empty.txt"),
    (["solve", "--file", "binary.txt"], "binary.txt"),
    (["bbbv", "--file", "short.mbf"], "says 5 mines"),
    (["bbbv", "--file", "huge.mbf"], "huge.mbf"),
    (["reconstruct", "empty.txt"], "empty.txt"),
    (["reconstruct", "counts_ragged.txt"], "counts_ragged.txt"),
    (["reconstruct", "counts_ten.txt"], "10"),
    (["reconstruct", "counts_letters.txt"], "'a'"),
    (["reconstruct", "counts_negative.txt"], "-1"),
    (["reconstruct", "missing.txt"], "cannot read 'missing.txt'"),
    (["probabilities", "missing.txt"], "cannot read 'missing.txt'"),
    (["probabilities", "position_bad.txt"], "'Q'"),
    (["probabilities", "position_inconsistent.txt"], "no layout fits"),
    (["probabilities", "binary.txt"], "binary.txt"),
    # outputs and stores
    (["generate", "--board", "300x300/10", "--seed", "1", "--format", "mbf", "--out",
      "existing.mbf"], "MBF holds boards up to 255x255"),
    (["generate", "--board", "beginner", "--seed", "1", "--out", "adir"],
     "cannot write 'adir': Is a directory"),
    (["pass-rate", "--board", "beginner", "--solver", "logic", "-n", "10", "--seed", "1",
      "--store", "foreign.sqlite"], "not a minestats chunk store"),
    (["pass-rate", "--board", "beginner", "--solver", "logic", "-n", "10", "--seed", "1",
      "--store", "corrupt.sqlite"], "corrupt.sqlite"),
    (["pass-rate", "--board", "beginner", "--solver", "logic", "-n", "10", "--seed", "1",
      "--store", "no/such/dir/run.sqlite"], "no/such/dir/run.sqlite"),
    (["simulate", *BEGINNER_RULE, "-n", "5", "--scheduler", "tcp://127.0.0.1:9"],
     "cannot reach the Dask scheduler"),
    (["simulate", *BEGINNER_RULE, "-n", "5", "--scheduler", "notaurl"],
     "cannot reach the Dask scheduler at 'notaurl'"),
    (["pass-rate", "--board", "beginner", "-n", "10", "--seed", "1", "--store", ""],
     "chunk store '': an empty name names no file"),
    (["generate", "--board", "beginner", "--seed", "1", "--out", "board.txt/x"],
     "cannot write 'board.txt/x': Not a directory"),
    (["probabilities", "utf16.txt"], "cannot read 'utf16.txt': not UTF-8 text"),
    # --chunk-size, where the library takes chunk_size, checked before any work
    (["pass-rate", "--board", "beginner", "-n", "10", "--chunk-size", "0"], "chunk_size (0)"),
    (["win-rate", "--board", "beginner", "-n", "10", "--chunk-size", "-3"], "chunk_size (-3)"),
    ([*["opening"], *BEGINNER_RULE, "-n", "10", "--chunk-size", "0"], "chunk_size (0)"),
    (["bbbv", "--board", "beginner", "-n", "10", "--chunk-size", "0"], "chunk_size (0)"),
    (["sweep", "--boards", "beginner", "-n", "10", "--chunk-size", "0"], "chunk_size (0)"),
    (["compare", "--board", "beginner", "--policies", "safest", "best", "-n", "10",
      "--chunk-size", "0"], "chunk_size (0)"),
    (["simulate", *BEGINNER_RULE, "-n", "10", "--chunk-size", "x"], "invalid int value: 'x'"),
    # sizes: every one either runs in bounded memory or is refused, naming the limit
    (["opening", "--board", "2001x2000/1", "--rule", "uniform"], "MAX_CELLS = 4,000,000"),
    (["solve", "--board", "5000x5000/10", "--seed", "1"], "MAX_CELLS"),
    (["play", "--board", "5000x5000/10", "--seed", "1"], "MAX_CELLS"),
    (["generate", "--board", "5000x5000/10", "--seed", "1"], "MAX_CELLS"),
    (["opening", "--board", "300x300/80000", "--rule", "winxp"], "MAX_FRACTION_TERMS = 20,000"),
    (["bbbv", "--board", "1000x1000/10", "-n", "1000000000"], "MAX_SAMPLE_CELLS"),
    (["pass-rate", "--board", "1000x1000/10", "-n", "10000"], "MAX_SAMPLE_CELLS"),
    (["sweep", "--boards", "beginner", "1000x1000/10", "-n", "10000"], "MAX_SAMPLE_CELLS"),
    (["compare", "--board", "1000x1000/10", "--solvers", "logic", "subset", "-n", "10000"],
     "MAX_SAMPLE_CELLS"),
    (["win-rate", "--board", "beginner", "-n", "100000000", "--chunk-size", "100000000",
      "--quiet"], "MAX_SAMPLE_CELLS"),
    (["probabilities", "position.txt", "--max-configurations", BIG], "max_configurations"),
    # more values
    ([*["opening"], *BEGINNER_RULE, "--seed", ""], "seed must not be empty"),
    (["generate", "--board", "beginner", "--timeout", "inf"], "timeout (inf)"),
    (["reproduce", "--workers", "1000"], "MAX_WORKERS = 64"),
    (["compare", "--board", "beginner", "--solvers", "logic", "logic", "-n", "10"],
     "'logic' twice"),
    (["compare", "--board", "beginner", "--solvers", "logic:foo", "subset", "-n", "10"],
     "'logic:foo'"),
    (["compare", "--board", "beginner", "--policies", "best", "-n", "10"],
     "at least two contenders"),
    (["solve", "--board", "beginner", "--seed", "1", "--click", "4,3,2"], "'4,3,2'"),
    # game files of play --out, read back by play --replay
    (["play", "--replay", "game_format.json"], "not a minestats game file"),
    (["play", "--replay", "game_version.json"], "version (2) must be 1"),
    (["play", "--replay", "game_board.json"], "board ('3x2/2') does not match the layout"),
    (["play", "--replay", "game_click.json"], "click x (5)"),
    (["play", "--replay", "game_clicktype.json"], "click ('corner') must be a list [x, y]"),
    (["play", "--replay", "game_policy.json"], "policy ('lucky')"),
    (["play", "--replay", "game_seed.json"], "seed (1.5)"),
    (["play", "--replay", "game_won.json"], "won ('yes')"),
    (["play", "--replay", "game_move.json"], "move 1 x (9)"),
    (["play", "--replay", "game_chance.json"], "mine_probability (2)"),
    (["play", "--replay", "game_kind.json"], "kind ('hunch')"),
    (["play", "--replay", "game_open.json"], "guess 1 (0, 1) does not fit the game"),
    (["play", "--replay", "game_layout.json"], "unexpected character 'x'"),
    (["play", "--replay", "game_extra.json"], "unknown: colour"),
    (["play", "--replay", "game_list.json"], "its format ('list')"),
    (["play", "--replay", "game_deep.json"], "game_deep.json: not"),
    (["play", "--replay", "game_digits.json"], "game_digits.json: not JSON"),
    (["play", "--replay", "binary.txt"], "not UTF-8 text"),
    (["play", "--replay", "missing.json"], "cannot read 'missing.json'"),
    (["play", "--replay", "game_won.json", "--board", "beginner"],
     "--replay cannot be combined with --board"),
    (["play", "--board", "beginner", "--seed", "1", "--out", "adir"],
     "cannot write 'adir': Is a directory"),
]


def snapshot(folder: Path) -> dict:
    return {path.name: path.read_bytes() if path.is_file() else sorted(path.iterdir())
            for path in sorted(folder.iterdir())}


@pytest.fixture
def fixture_folder(tmp_path):
    for name, data in FIXTURES.items():
        (tmp_path / name).write_bytes(data)
    (tmp_path / "adir").mkdir()
    with sqlite3.connect(tmp_path / "foreign.sqlite") as connection:
        connection.execute("CREATE TABLE mine (id INTEGER)")
    connection.close()
    return tmp_path


def test_there_are_at_least_sixty_distinct_bad_command_lines():
    assert len({tuple(argv) for argv, _ in CLI_CASES}) == len(CLI_CASES) >= 60


def assert_refused(monkeypatch, capsys, argv, message, *, stdin=None):
    """Run the command; assert exit 2, one line naming ``message``, nothing on stdout.

    The scheduler and FIFO waits are shortened so a refusal that waits for them ends
    soon; the test's hang guard (``pytest.mark.timeout``) catches one that never ends.
    """
    from minestats.cli import output

    monkeypatch.setattr(output, "SCHEDULER_SECONDS", 2)
    monkeypatch.setattr(output, "FIFO_SECONDS", 0.2)
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", stdin)
    try:
        status = main(argv)
    except SystemExit as exit_:  # argparse's usage errors
        status = exit_.code
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert status == 2, err
    assert len(lines) == 1 and lines[0].startswith("minestats"), err
    assert message in lines[0], err
    assert out == ""


@pytest.mark.parametrize(("argv", "message"), CLI_CASES, ids=[" ".join(a) for a, _ in CLI_CASES])
def test_bad_command_line_is_one_line_exit_2_and_changes_no_file(fixture_folder, monkeypatch,
                                                                  capsys, argv, message):
    monkeypatch.chdir(fixture_folder)
    before = snapshot(fixture_folder)
    assert_refused(monkeypatch, capsys, argv, message)
    assert snapshot(fixture_folder) == before


UNWRITABLE_OUT_CASES = [
    (["generate", "--board", "beginner", "--seed", "1", "--out", "adir"], "Is a directory"),
    (["generate", "--board", "300x300/10", "--seed", "1", "--format", "mbf", "--out",
      "existing.mbf"], "MBF holds boards up to 255x255"),
    (["generate", "--board", "beginner", "--out", ""], "an empty name names no file"),
    (["generate", "--board", "beginner", "--seed", "1", "--out", "board.txt/x"],
     "cannot write 'board.txt/x': Not a directory"),
    (["play", "--board", "beginner", "--seed", "1", "--out", "board.txt/new/x"],
     "Not a directory"),
    (["play", "--board", "beginner", "--seed", "1", "--out", "adir"], "Is a directory"),
    (["play", "--board", "beginner", "--out", ""], "an empty name names no file"),
]


@pytest.mark.parametrize(("argv", "message"), UNWRITABLE_OUT_CASES,
                         ids=[" ".join(a) for a, _ in UNWRITABLE_OUT_CASES])
def test_an_out_that_cannot_be_written_is_refused_before_anything_is_computed(
        fixture_folder, monkeypatch, capsys, argv, message):
    from minestats.cli import commands

    def computed(*args, **kwargs):
        raise AssertionError("the command computed before it checked --out")

    for name in ("generate_no_guess", "play", "chunk_games", "chunk_layouts"):
        monkeypatch.setattr(commands, name, computed)
    monkeypatch.chdir(fixture_folder)
    assert_refused(monkeypatch, capsys, argv, message)


def test_the_command_runs_as_a_module_and_fails_in_one_line(fixture_folder):
    run = subprocess.run([sys.executable, "-m", "minestats", "opening", "--board", "9x9/100",
                          "--rule", "uniform"], cwd=fixture_folder, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr == ("minestats opening: error: board '9x9/100': mines (100) must be "
                          "between 0 and 81 on a 9x9 board\n")



# --- special files: never replaced, never read without a bound -------------------------

GENERATE = ["generate", "--board", "4x4/2", "--click", "0,0", "--seed", "3"]


def special_folder(tmp_path, *, devices=True):
    """A folder with symlinks (to a file, in a loop, dangling), a FIFO and, as root, devices.

    The devices are char devices like null, zero and full, made in the folder (never
    the real ``/dev``); making them needs root.
    """
    (tmp_path / "target.txt").write_bytes(b"old\n")
    (tmp_path / "link.txt").symlink_to(tmp_path / "target.txt")
    (tmp_path / "loop").symlink_to(tmp_path / "loop2")
    (tmp_path / "loop2").symlink_to(tmp_path / "loop")
    (tmp_path / "dangling.txt").symlink_to(tmp_path / "nowhere.txt")
    os.mkfifo(tmp_path / "fifo")
    if devices:
        for name, minor in (("null", 3), ("zero", 5), ("full", 7)):
            os.mknod(tmp_path / name, stat.S_IFCHR | 0o666, os.makedev(1, minor))
    return tmp_path


def kinds(folder: Path) -> dict:
    """Each entry's kind (link and its target, FIFO, char device, file) and a file's bytes."""
    found = {}
    for path in sorted(folder.iterdir()):
        mode = path.lstat().st_mode
        found[path.name] = (("link", os.readlink(path)) if stat.S_ISLNK(mode)
                            else "fifo" if stat.S_ISFIFO(mode)
                            else "char" if stat.S_ISCHR(mode) else path.read_bytes())
    return found


needs_root = pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0,
                                reason="mknod of a char device needs root")


@needs_root
def test_out_through_a_symlink_writes_its_target_and_keeps_the_link(tmp_path, capsys):
    folder = special_folder(tmp_path)
    assert main([*GENERATE, "--out", str(folder / "link.txt")]) == 0
    assert (folder / "link.txt").is_symlink()
    assert (folder / "target.txt").read_text().count("\n") == 4  # the new 4x4 board
    assert not list(folder.glob(".*.tmp"))


@needs_root
def test_out_to_a_device_writes_through_and_leaves_it_a_device(tmp_path, capsys):
    folder = special_folder(tmp_path)
    before = kinds(folder)
    assert main([*GENERATE, "--out", str(folder / "null")]) == 0
    assert kinds(folder) == before  # still a char device; no sidecar, no temporary file


@needs_root
def test_out_to_a_fifo_nobody_reads_is_one_line_not_a_hang(tmp_path, capsys):
    folder = special_folder(tmp_path)
    before = kinds(folder)
    assert main([*GENERATE, "--out", str(folder / "fifo")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1
    assert "no process is reading this FIFO" in err
    assert kinds(folder) == before


def test_out_to_a_fifo_being_read_delivers_the_board(tmp_path, capsys):
    import threading

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    received = []
    reader_ready = threading.Event()

    def read():
        descriptor = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
        reader_ready.set()
        chunks = []
        while True:
            try:
                chunk = os.read(descriptor, 4096)
            except BlockingIOError:
                continue
            if chunk:
                chunks.append(chunk)
            elif chunks:
                break
        os.close(descriptor)
        received.append(b"".join(chunks))

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    reader_ready.wait(5)
    assert main([*GENERATE, "--out", str(fifo)]) == 0
    thread.join(5)
    assert received and received[0].count(b"\n") == 4
    assert fifo.is_fifo()


STORE = ["pass-rate", "--board", "beginner", "-n", "10", "--seed", "1", "--store"]
SPECIAL_CASES = [
    # a FIFO no process writes: one line after FIFO_SECONDS, for every reading command
    (["probabilities", "fifo"], "no process wrote to this FIFO"),
    (["reconstruct", "fifo"], "no process wrote to this FIFO"),
    (["solve", "--file", "fifo"], "no process wrote to this FIFO"),
    (["bbbv", "--file", "fifo"], "no process wrote to this FIFO"),
    (["play", "--file", "fifo"], "no process wrote to this FIFO"),
    # symlinks that lead nowhere, read or written
    (["probabilities", "loop"], "cannot read 'loop': Too many levels of symbolic links"),
    (["probabilities", "dangling.txt"], "cannot read 'dangling.txt': No such file"),
    ([*GENERATE, "--out", "loop"], "cannot write 'loop': Too many levels of symbolic links"),
    ([*STORE, "loop"], "Too many levels of symbolic links"),
    ([*STORE, "fifo"], "is not a regular file"),
    ([*STORE, "link.txt"], "not a minestats chunk store"),
    # devices, as root: endless or empty inputs, a full disk, a store that is no file
    pytest.param(["reconstruct", "zero"], "MAX_INPUT_BYTES", marks=needs_root),
    pytest.param(["bbbv", "--file", "zero"], "MAX_INPUT_BYTES", marks=needs_root),
    pytest.param(["play", "--file", "zero"], "MAX_INPUT_BYTES", marks=needs_root),
    pytest.param(["probabilities", "full"], "MAX_INPUT_BYTES", marks=needs_root),
    pytest.param(["probabilities", "null"], "the position is empty", marks=needs_root),
    pytest.param(["reconstruct", "null"], "null", marks=needs_root),
    pytest.param([*GENERATE, "--out", "full"], "No space left on device", marks=needs_root),
    pytest.param([*STORE, "null"], "is not a regular file", marks=needs_root),
    pytest.param([*STORE, "zero"], "is not a regular file", marks=needs_root),
]


def _argv(case):
    return case.values[0] if hasattr(case, "values") else case[0]


@pytest.mark.parametrize(("argv", "message"), SPECIAL_CASES,
                         ids=[" ".join(_argv(case)) for case in SPECIAL_CASES])
def test_a_special_file_is_one_line_and_stays_as_it_was(tmp_path, monkeypatch, capsys, argv,
                                                         message):
    folder = special_folder(tmp_path, devices=os.geteuid() == 0)
    monkeypatch.chdir(folder)
    before = kinds(folder)
    assert_refused(monkeypatch, capsys, argv, message)
    assert kinds(folder) == before


LARGE_INPUTS = {
    "unknown.txt": ("?" * 1000 + "\n") * 1001,  # past MAX_MAP_CELLS
    "zeros.txt": ("0 " * 500 + "\n") * 501,  # past MAX_CONSTRAINTS
}
LARGE_CASES = [
    (["probabilities", "unknown.txt"], "MAX_MAP_CELLS = 1,000,000"),
    (["reconstruct", "zeros.txt"], "MAX_CONSTRAINTS = 250,000"),
]


@pytest.mark.parametrize(("argv", "message"), LARGE_CASES, ids=[a[1] for a, _ in LARGE_CASES])
def test_a_large_input_is_refused_naming_the_limit(tmp_path, monkeypatch, capsys, argv,
                                                   message):
    (tmp_path / argv[1]).write_text(LARGE_INPUTS[argv[1]])
    monkeypatch.chdir(tmp_path)
    before = snapshot(tmp_path)
    assert_refused(monkeypatch, capsys, argv, message)
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("argv", [["probabilities", "-"], ["reconstruct"]])
def test_an_endless_stdin_is_refused_without_reading_it_whole(monkeypatch, capsys, argv):
    from minestats.cli.output import MAX_INPUT_BYTES

    endless = io.TextIOWrapper(io.BytesIO(b"?" * (MAX_INPUT_BYTES + 10)))
    assert_refused(monkeypatch, capsys, argv, "more than MAX_INPUT_BYTES", stdin=endless)




def test_a_fifo_being_written_is_read_to_its_end(tmp_path, capsys):
    import threading

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)

    def write():
        with open(fifo, "wb") as handle:  # blocks until the command opens it
            handle.write(b"1?\n??\n")

    threading.Thread(target=write, daemon=True).start()
    assert main(["probabilities", str(fifo), "--mines", "1"]) == 0
    assert "layouts that fit: 3;" in capsys.readouterr().out
    assert fifo.is_fifo()




def test_a_long_exact_fraction_is_described_not_printed(capsys):
    # winxp at the centre of 200x200/20000: 19,900 factors, fractions of ~11,800 digits
    assert main(["opening", "--board", "200x200/20000", "--rule", "winxp"]) == 0
    exact = capsys.readouterr().out.splitlines()[1]
    assert exact == "exact  0.003904  (a fraction of about 11,790 / 11,792 digits)"
    assert main(["opening", "--board", "200x200/20000", "--rule", "winxp", "--json"]) == 0
    assert "a fraction of about" in capsys.readouterr().out


@needs_root
def test_an_endless_input_is_refused_without_reading_it_whole(tmp_path, capsys):
    folder = special_folder(tmp_path)
    for command in (["probabilities", str(folder / "zero")],
                    ["solve", "--file", str(folder / "zero")]):
        assert main(command) == 2
        out, err = capsys.readouterr()
        assert out == "" and len(err.strip().splitlines()) == 1
        assert "MAX_INPUT_BYTES" in err


def test_a_folder_given_as_out_or_as_input_is_one_line(tmp_path, capsys):
    assert main([*GENERATE, "--out", str(tmp_path)]) == 2
    assert "Is a directory" in capsys.readouterr().err
    assert main(["probabilities", str(tmp_path)]) == 2
    assert "Is a directory" in capsys.readouterr().err


def test_a_byte_order_mark_is_read_as_people_save_utf8(tmp_path, capsys):
    (tmp_path / "position.txt").write_bytes(b"\xef\xbb\xbf1?\n??\n")
    (tmp_path / "board.txt").write_bytes(b"\xef\xbb\xbf..*.\n....\n*...\n")
    assert main(["probabilities", str(tmp_path / "position.txt"), "--mines", "1"]) == 0
    assert main(["solve", "--file", str(tmp_path / "board.txt"), "--click", "0,0"]) == 0


def test_a_small_probability_never_prints_as_zero(tmp_path, capsys):
    # 1 mine among the 3 cells next to the 1, and 1 far away among 2,496 cells
    (tmp_path / "position.txt").write_text("1??" + "?" * 47 + "\n" + ("?" * 50 + "\n") * 49)
    assert main(["probabilities", str(tmp_path / "position.txt"), "--mines", "2"]) == 0
    grid = capsys.readouterr().out.splitlines()[1:]
    assert "<.001" in " ".join(grid) and " 0.000" not in " ".join(grid)


def test_a_huge_count_prints_as_a_power_of_ten(tmp_path, capsys):
    (tmp_path / "unknown.txt").write_text(("?" * 100 + "\n") * 100)
    assert main(["probabilities", str(tmp_path / "unknown.txt"), "--mines", "3000"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert "layouts that fit: about 7.757871e+2650;" in first  # C(10000, 3000)


@pytest.mark.timeout(120)  # a hang guard: the wait is cut to 2 s, and 3 s pass the join
@pytest.mark.parametrize("reply", [b"", b"HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nhi"])
def test_a_server_that_is_no_dask_scheduler_is_one_line_within_the_time_out(
        capsys, monkeypatch, reply):
    """A listener on this machine's loopback that never answers, or answers as HTTP."""
    import socket
    import threading

    from minestats.cli import output

    monkeypatch.setattr(output, "SCHEDULER_SECONDS", 2)
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(4)
    server.settimeout(20)
    held = []

    def serve():
        for _ in range(4):  # bounded: a few connections, then stop
            try:
                connection, _ = server.accept()
            except OSError:
                return
            held.append(connection)
            if reply:
                connection.sendall(reply)

    threading.Thread(target=serve, daemon=True).start()
    try:
        status = main(["pass-rate", "--board", "beginner", "-n", "10", "--scheduler",
                       f"tcp://127.0.0.1:{server.getsockname()[1]}"])
    finally:
        server.close()
        for connection in held:
            connection.close()
    out, err = capsys.readouterr()
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "cannot reach the Dask scheduler" in err
