"""Hostile input: every bad value gets one clear line, never a traceback, hang or lost file.

The command-line cases run the ``minestats`` command (its `main`, in this process) in a
folder of fixture files (an existing output file, a foreign SQLite file, a
corrupt store, malformed boards and count matrices); each must exit with status 2 and
one line on stderr naming the fault, print nothing on stdout, and leave every file of
the folder byte for byte as it was. The API cases call the library directly and expect a
one-line ValueError naming the bad value. The parsers of board text, MBF bytes,
positions and count matrices are fuzzed with hypothesis: whatever the input, they
return a well-formed array or raise a one-line ValueError.
"""

import sqlite3
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minestats
from minestats.cli import main
from minestats.inference import board_consistency, parse_counts, reconstruct
from minestats.io.boards import from_mbf, parse_position, parse_text

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
}
BIG = "99999999999999999999999"
BEGINNER_RULE = ["--board", "beginner", "--rule", "uniform"]

CLI_CASES = [
    # messages a person can read
    (["opening", "--board", "beginner", "--rule", "uniform", "--seed", "9" * 5000],
     "MAX_SEED_CHARACTERS = 1,000"),
    (["generate", "--board", "beginner", "--out", ""], "an empty name names no file"),
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


@pytest.mark.parametrize(("argv", "message"), CLI_CASES, ids=[" ".join(a) for a, _ in CLI_CASES])
def test_bad_command_line_is_one_line_exit_2_and_changes_no_file(fixture_folder, monkeypatch,
                                                                  capsys, argv, message):
    monkeypatch.chdir(fixture_folder)
    before = snapshot(fixture_folder)
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
    assert snapshot(fixture_folder) == before


def test_the_command_runs_as_a_module_and_fails_in_one_line(fixture_folder):
    run = subprocess.run([sys.executable, "-m", "minestats", "opening", "--board", "9x9/100",
                          "--rule", "uniform"], cwd=fixture_folder, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr == ("minestats opening: error: board '9x9/100': mines (100) must be "
                          "between 0 and 81 on a 9x9 board\n")


API_CASES = [
    (lambda: minestats.opening_probability("beginner", (0, 0), rule="nope"), "rule 'nope'"),
    (lambda: minestats.opening_probability("beginner", (9, 0), rule="uniform"), "(9, 0)"),
    (lambda: minestats.opening_probability("9x9/82", (0, 0), rule="uniform"), "mines (82)"),
    (lambda: minestats.opening_probability_map("2000x1000/1", rule="uniform"), "MAX_MAP_CELLS"),
    (lambda: minestats.simulate_opening("beginner", rule="uniform", n=0), "n (0)"),
    (lambda: minestats.simulate_opening("beginner", rule="uniform", n=1.5), "n (1.5)"),
    (lambda: minestats.simulate_opening("beginner", rule="uniform", n=True), "n (True)"),
    (lambda: minestats.simulate_opening("beginner", rule="uniform", n=10, seed=-1), "-1"),
    (lambda: minestats.simulate_opening("beginner", rule="uniform", n=10, seed=1.5), "1.5"),
    (lambda: minestats.pass_rate("beginner", solver="logic", n=10, chunk_size=0),
     "chunk_size (0)"),
    (lambda: minestats.pass_rate("beginner", solver="logic", n=10, workers=0), "workers (0)"),
    (lambda: minestats.pass_rate_sweep([{"board": "beginner"}], n=10), "lacks solver"),
    (lambda: minestats.pass_rate_sweep(["beginner"], n=10), "is not a dict"),
    (lambda: minestats.win_rate_sweep([{"board": "beginner", "colour": 1}], n=10),
     "unknown keys ['colour']"),
    (lambda: minestats.solve(np.zeros((3, 3)), (0, 0), max_configurations=10**30),
     "max_configurations"),
    (lambda: minestats.solve(np.ones((2, 2, 2), dtype=bool), (0, 0)), "shape (2, 2, 2)"),
    (lambda: minestats.play(np.zeros((3, 3), dtype=bool), (0, 0), policy="lucky"),
     "policy 'lucky'"),
    (lambda: minestats.mine_probabilities([[9, -1]]), "9"),
    (lambda: minestats.mine_probabilities([[4, -1], [-1, -1]]), "no layout fits"),
    (lambda: minestats.mine_probabilities([[1, -1]], mines=5), "mines (5)"),
    (lambda: board_consistency([[1, -1]], flags=[[True, False]]), "flag"),
    (lambda: reconstruct([[10]]), "10"),
    (lambda: reconstruct([[1, 1], [1]]), "rows differ in length"),
    (lambda: minestats.optimal_win_probability("10x10/10"), "MAX_LAYOUTS"),
    (lambda: minestats.generate_no_guess("beginner", "centre", method="magic"), "'magic'"),
    (lambda: minestats.bbbv_histogram("beginner", n=10, seed=1).share(5, 1), "low <= high"),
]


@pytest.mark.parametrize("call, message", API_CASES)
def test_bad_api_call_is_a_one_line_value_error(call, message):
    with pytest.raises(ValueError) as caught:
        call()
    text = str(caught.value)
    assert "\n" not in text and message in text, text


def one_line_value_error(parse, data):
    try:
        return parse(data)
    except ValueError as error:
        assert "\n" not in str(error), str(error)
        return None


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="*.x \n\r\t01", max_size=60))
def test_fuzzed_board_text_parses_or_fails_in_one_line(text):
    layout = one_line_value_error(parse_text, text)
    if layout is not None:
        assert layout.dtype == bool and layout.ndim == 2 and layout.size > 0


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=40))
def test_fuzzed_mbf_bytes_parse_or_fail_in_one_line(data):
    layout = one_line_value_error(from_mbf, data)
    if layout is not None:
        assert layout.dtype == bool and layout.shape == (data[1], data[0])
        assert layout.sum() == data[2] * 256 + data[3]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123456789?F \n", max_size=40))
def test_fuzzed_positions_parse_or_fail_in_one_line(text):
    parsed = one_line_value_error(parse_position, text)
    if parsed is not None:
        numbers, flags = parsed
        assert numbers.shape == flags.shape and numbers.ndim == 2
        assert ((numbers == -1) | ((numbers >= 0) & (numbers <= 8))).all()


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123456789- \n", max_size=40))
def test_fuzzed_count_matrices_parse_or_fail_in_one_line(text):
    counts = one_line_value_error(parse_counts, text)
    if counts is not None:
        assert counts.ndim == 2 and ((counts >= 0) & (counts <= 9)).all()


# --- special files: never replaced, never read without a bound -------------------------

GENERATE = ["generate", "--board", "4x4/2", "--click", "0,0", "--seed", "3"]


def special_folder(tmp_path):
    """A folder with a symlink to a board file, a FIFO, and char devices like null and zero."""
    import os
    import stat

    (tmp_path / "target.txt").write_bytes(b"old\n")
    (tmp_path / "link.txt").symlink_to(tmp_path / "target.txt")
    os.mkfifo(tmp_path / "fifo")
    os.mknod(tmp_path / "null", stat.S_IFCHR | 0o666, os.makedev(1, 3))
    os.mknod(tmp_path / "zero", stat.S_IFCHR | 0o666, os.makedev(1, 5))
    return tmp_path


def kinds(folder: Path) -> dict:
    """Each entry's kind (link, FIFO, char device, file) and a regular file's bytes."""
    import stat

    found = {}
    for path in sorted(folder.iterdir()):
        mode = path.lstat().st_mode
        found[path.name] = ("link" if stat.S_ISLNK(mode) else "fifo" if stat.S_ISFIFO(mode)
                            else "char" if stat.S_ISCHR(mode) else path.read_bytes())
    return found


needs_root = pytest.mark.skipif(not hasattr(__import__("os"), "geteuid")
                                or __import__("os").geteuid() != 0,
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
    import os
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


@pytest.mark.parametrize("reply", [b"", b"HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nhi"])
def test_a_server_that_is_no_dask_scheduler_is_one_line_within_the_time_out(
        capsys, monkeypatch, reply):
    """A listener on this machine's loopback that never answers, or answers as HTTP."""
    import socket
    import threading
    import time

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
    start = time.monotonic()
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
    assert time.monotonic() - start < 15
