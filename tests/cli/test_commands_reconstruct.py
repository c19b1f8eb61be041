import io
import subprocess
import sys

import numpy as np
import pytest

from minestats.cli import main
from minestats.inference import counts_from_layout, random_counts

PUBLISHED = """1 1 0 0 1 1 1
2 3 2 1 1 2 2
3 5 3 2 1 2 2
3 6 5 3 0 2 2
2 4 3 2 0 1 1
2 3 3 2 1 2 1
1 1 1 1 1 1 0
"""


def exit_status(argv):
    """Exit status of the command, whether it returns or argparse exits."""
    try:
        return main(argv)
    except SystemExit as exit:
        return exit.code


def layout_of(lines):
    return np.array([[{"X": True, "_": False}[word] for word in line.split()]
                     for line in lines])


def test_reconstruct_reads_a_file_and_prints_rows_and_count(tmp_path, capsys):
    path = tmp_path / "counts.txt"
    path.write_text(PUBLISHED)
    assert main(["reconstruct", str(path)]) == 0
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert captured.err == ""
    assert lines[-1] == "solutions: 1, unique: yes"
    assert lines[:2] == ["_ _ _ _ _ _ _", "X _ _ _ _ X _"]
    expected = np.array([row.split() for row in PUBLISHED.splitlines()], dtype=int)
    np.testing.assert_array_equal(counts_from_layout(layout_of(lines[:-1])), expected)


@pytest.mark.parametrize("argv", [["reconstruct"], ["reconstruct", "-"]])
def test_reconstruct_reads_stdin(monkeypatch, capsys, argv):
    monkeypatch.setattr(sys, "stdin", io.StringIO("1 1\n1 1\n"))
    assert main(argv) == 0
    assert capsys.readouterr().out.splitlines() == ["X _", "_ _", "solutions: 4, unique: no"]


def test_reconstruct_says_no_layout_fits_and_exits_1(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("9 9\n9 9\n"))
    assert main(["reconstruct"]) == 1
    assert capsys.readouterr().out == "no layout fits these counts (solutions: 0)\n"


def test_reconstruct_solves_a_random_30x30(tmp_path, capsys):
    counts, mines = random_counts(30, 30, 0.2, seed=4)
    path = tmp_path / "big.txt"
    path.write_text("\n".join(" ".join(map(str, row)) for row in counts.tolist()))
    assert main(["reconstruct", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1] == "solutions: 1, unique: yes"
    np.testing.assert_array_equal(layout_of(lines[:-1]), mines)


@pytest.mark.parametrize(
    ("stdin", "argv", "message"),
    [
        ("1 1\n1 x\n", ["reconstruct"], "<stdin>: line 2: 'x' is not an integer"),
        ("1 1\n\n1 1 1\n", ["reconstruct", "-"],
         "<stdin>: line 3: row has 3 cells, expected 2 like line 1"),
        ("1 10\n", ["reconstruct"], "<stdin>: line 1: value 10 is outside 0..9"),
        ("", ["reconstruct"], "<stdin>: no rows of counts"),
        ("", ["reconstruct", "no/such/file.txt"],
         "cannot read 'no/such/file.txt': No such file or directory"),
        ("", ["reconstruct", "a", "b"], "unrecognized arguments: b"),
    ],
)
def test_reconstruct_bad_input_is_one_line_and_exit_status_2(monkeypatch, capsys, stdin, argv,
                                                             message):
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    assert exit_status(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], captured.err


def test_reconstruct_help_documents_the_output_format_with_its_own_output(capsys):
    assert exit_status(["reconstruct", "--help"]) == 0
    out = capsys.readouterr().out
    assert "unique: yes|no" in out and "no\nlayout fits these counts" in out
    command = "  $ printf '1 1 1\\n1 1 1\\n0 0 0\\n' | minestats reconstruct\n"
    assert command in out
    shown = out.split(command)[1].splitlines()
    run = subprocess.run([sys.executable, "-m", "minestats.cli", "reconstruct"],
                         input="1 1 1\n1 1 1\n0 0 0\n", capture_output=True, text=True,
                         check=True)
    assert run.stdout.splitlines() == [line.strip() for line in shown]


def crafted_text(size, seed=0):
    """Counts of mines in every third column with a random phase per row, as text."""
    phase = np.random.default_rng(seed).integers(3, size=size)
    counts = counts_from_layout(np.arange(size)[None, :] % 3 == phase[:, None])
    return "\n".join(" ".join(map(str, row)) for row in counts.tolist()) + "\n"


def test_a_capped_search_is_one_line_and_exit_status_3(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO(crafted_text(20)))
    assert main(["reconstruct", "--max-configurations", "20000"]) == 3
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        "minestats reconstruct: capped: <stdin>: the reconstruction search passed "
        "max_configurations = 20_000 configurations (raise --max-configurations to search "
        "further)\n")


def test_the_budget_flag_is_checked_and_raising_it_answers(monkeypatch, capsys):
    for flag, message in [("0", "max_configurations (0) must be a positive integer"),
                          ("10000000000000000", "must be at most 1_000_000_000_000_000")]:
        monkeypatch.setattr(sys, "stdin", io.StringIO("1 1\n1 1\n"))
        assert exit_status(["reconstruct", "--max-configurations", flag]) == 2
        captured = capsys.readouterr()
        assert captured.out == "" and message in captured.err
        assert len(captured.err.strip().splitlines()) == 1
    monkeypatch.setattr(sys, "stdin", io.StringIO(crafted_text(17)))
    assert main(["reconstruct", "--max-configurations", "200000"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "solutions: 5152, unique: no"


def test_reconstruct_help_documents_the_budget_and_its_exit_status(capsys):
    assert exit_status(["reconstruct", "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "--max-configurations" in out and "(default 500_000)" in out
    assert "3 capped" in out and "2 bad input" in out
