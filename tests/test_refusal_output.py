"""Two classes of refusal, closed in general: replacing what the package did not write, and
output that could not be written.

`reproduce` writes only files this package wrote (its index knows itself by its first
line, a results file by its sidecar) and checks that ``--out`` can be written, all before
the first experiment runs. A write to standard output that fails (closed, or a full
disk) is one line on stderr and a non-zero status, for every command.
"""

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from minestats.cli import main
from minestats.reproduction import runner
from minestats.reproduction.index import INDEX_MARK, is_results_index
from minestats.reproduction.runner import reproduce

ROOT = Path(__file__).resolve().parents[1]

# --- replacing what it did not write --------------------------------------------------


@pytest.fixture
def ran(monkeypatch):
    """The experiments that would have run: their modules are recorded, not started."""
    started = []

    def record(command, **options):
        assert command[1] == "-m"  # python -m minestats.experiments.NAME
        started.append(command[2].rsplit(".", 1)[-1])
        return subprocess.CompletedProcess(command, 0)

    monkeypatch.setattr(runner.subprocess, "run", record)
    return started


def _refused(out, ran, names=("bbbv",), match=""):
    with pytest.raises(ValueError, match=match) as raised:
        reproduce(list(names), repository=ROOT, out=out, progress=lambda line: None)
    assert "\n" not in str(raised.value) and ran == []
    return str(raised.value)


@pytest.mark.parametrize("text", ["# My notes\n\nkeep me\n", "", "\ufeff" + INDEX_MARK + "x\n",
                                  "# Results\n" + INDEX_MARK + "\n"])
def test_a_readme_of_the_users_own_is_refused_before_anything_runs(tmp_path, ran, text):
    notes = tmp_path / "README.md"
    notes.write_text(text, encoding="utf-8")
    _refused(tmp_path, ran, match="README.md.* was not written by minestats")
    assert notes.read_text(encoding="utf-8") == text


def test_out_dot_at_the_root_of_a_checkout_keeps_the_projects_readme(ran, monkeypatch):
    monkeypatch.chdir(ROOT)
    before = (ROOT / "README.md").read_bytes()
    _refused(Path("."), ran, match="README.md")
    assert (ROOT / "README.md").read_bytes() == before


def test_a_binary_readme_is_not_taken_for_an_index(tmp_path, ran):
    (tmp_path / "README.md").write_bytes(b"\xff\xfe\x00")
    _refused(tmp_path, ran, match="not written by minestats")


def test_an_index_minestats_wrote_is_replaced(tmp_path, ran):
    index = tmp_path / "README.md"
    index.write_text(f"{INDEX_MARK}\n# Results\n\nan older index\n", encoding="utf-8")
    assert reproduce([], repository=ROOT, out=tmp_path) == index
    assert is_results_index(index) and "an older index" not in index.read_text(encoding="utf-8")


@pytest.mark.parametrize("name", ["bbbv_summary.csv", "bbbv_summary.md", "bbbv_summary.tex"])
def test_a_table_without_its_sidecar_is_refused_by_the_experiment_that_writes_it(
        tmp_path, ran, name):
    (tmp_path / name).write_text("mine")
    message = _refused(tmp_path, ran, match=f"{name}.* has no {name}.json")
    assert "experiment bbbv" in message
    assert (tmp_path / name).read_text() == "mine"
    (tmp_path / f"{name}.json").write_text("{}")  # with its sidecar, it is ours
    reproduce(["bbbv"], repository=ROOT, out=tmp_path, progress=lambda line: None)
    assert ran == ["bbbv"]


def test_an_experiment_not_run_leaves_its_tables_unchecked(tmp_path, ran):
    (tmp_path / "first_click.csv").write_text("mine")
    reproduce(["bbbv"], repository=ROOT, out=tmp_path, progress=lambda line: None)
    assert ran == ["bbbv"] and (tmp_path / "first_click.csv").read_text() == "mine"


@pytest.mark.parametrize("below", ["plain.txt", "plain.txt/deeper"])
def test_an_out_below_a_plain_file_is_refused_before_the_first_experiment(tmp_path, ran, below):
    (tmp_path / "plain.txt").write_text("x")
    _refused(tmp_path / below, ran, match="--out .*(must name a folder|cannot be written)")


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into a read-only folder")
def test_an_out_that_cannot_be_written_is_refused(tmp_path, ran):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        _refused(locked, ran, match="cannot be written: Permission denied")
    finally:
        locked.chmod(0o700)


def test_the_probe_leaves_nothing_behind(tmp_path, ran):
    out = tmp_path / "new" / "results"
    reproduce(["bbbv"], repository=ROOT, out=out, progress=lambda line: None)
    assert ran == ["bbbv"] and sorted(path.name for path in out.iterdir()) == ["README.md"]


def test_the_command_refuses_in_one_line(tmp_path, ran, capsys):
    (tmp_path / "README.md").write_text("# My notes\n")
    assert main(["reproduce", "--only", "bbbv", "--out", str(tmp_path),
                 "--repository", str(ROOT)]) == 2
    error = capsys.readouterr().err.strip().splitlines()
    assert len(error) == 1 and error[0].startswith("minestats reproduce: error: ")
    assert ran == []


# --- output that could not be written -------------------------------------------------

SMALL = ["--board", "5x5/3", "--seed", "1", "--quiet"]
COMMANDS = {  # every command that prints a table or a board, on work of a moment
    "opening": ["opening", "--board", "9x9/10", "--rule", "uniform", "--click", "centre"],
    "opening-map": ["opening-map", "--board", "5x5/3", "--rule", "uniform"],
    "simulate": ["simulate", "--board", "5x5/3", "--rule", "uniform", "-n", "20", "--seed",
                 "1", "--workers", "1", "--quiet"],
    "solve": ["solve", *SMALL],
    "pass-rate": ["pass-rate", *SMALL, "--solver", "single-point", "-n", "10", "--workers",
                  "1"],
    "generate": ["generate", *SMALL],
    "bbbv": ["bbbv", *SMALL, "-n", "10", "--workers", "1"],
}


class _Full(io.StringIO):
    """Standard output on a full disk: every flush fails."""

    def flush(self):
        raise OSError(28, "No space left on device")


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_a_full_stdout_is_one_line_and_status_one(monkeypatch, capsys, name):
    capsys.readouterr()
    monkeypatch.setattr(sys, "stdout", _Full())
    assert main(COMMANDS[name]) == 1
    assert capsys.readouterr().err.splitlines() == [
        f"minestats {name}: error: cannot write to standard output: No space left on device"]


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_a_closed_stdout_is_one_line_and_status_one(monkeypatch, capsys, name):
    capsys.readouterr()
    monkeypatch.setattr(sys, "stdout", None)  # as Python leaves it when fd 1 is closed
    assert main(COMMANDS[name]) == 1
    assert capsys.readouterr().err.splitlines() == [
        f"minestats {name}: error: cannot write to standard output: standard output is "
        f"closed"]


@pytest.mark.parametrize("redirect", ["/dev/full", "closed"])
def test_the_process_ends_in_one_line_and_a_non_zero_status(redirect):
    options = ({"stdout": open(redirect, "w")} if redirect != "closed"  # noqa: SIM115
               else {"pass_fds": (), "preexec_fn": lambda: os.close(1)})
    try:
        run = subprocess.run([sys.executable, "-m", "minestats", *COMMANDS["opening"]],
                             stderr=subprocess.PIPE, text=True, timeout=300, **options)
    finally:
        if "stdout" in options:
            options["stdout"].close()
    assert run.returncode == 1
    assert len(run.stderr.splitlines()) == 1
    assert run.stderr.startswith("minestats opening: error: cannot write to standard output")


def test_a_reader_that_closes_the_pipe_is_still_a_quiet_stop():
    run = subprocess.run(f"{sys.executable} -m minestats opening-map --board 30x16/99 "
                         "--rule uniform | head -c 1 > /dev/null", shell=True,
                         stderr=subprocess.PIPE, text=True, timeout=300)
    assert run.stderr == ""
