"""The subcommands beyond opening/opening-map/reconstruct, and their error paths."""

import io
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from statsmodels.stats.proportion import proportion_confint

from minestats.cli import main
from minestats.drivers.bbbv_histograms import bbbv_histogram
from minestats.drivers.comparisons import compare
from minestats.drivers.no_guess import generate_no_guess
from minestats.drivers.pass_rates import pass_rate
from minestats.io.boards import format_text, from_mbf, parse_text, to_mbf
from minestats.mechanics.game import bbbv
from minestats.solvers import SolverOptions, solve

CHECKOUT = Path(__file__).resolve().parents[2]
"""The source checkout these tests run in: its notebooks/."""


def run(capsys, *argv):
    try:
        status = main(list(argv))
    except SystemExit as exit:
        status = exit.code
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_simulate_csv_is_the_result_table(capsys):
    status, out, err = run(capsys, "simulate", "--board", "8x8/10", "--rule", "winxp",
                           "--all-clicks", "-n", "3000", "--seed", "5", "--workers", "1",
                           "--csv", "--progress")
    assert status == 0
    table = pd.read_csv(io.StringIO(out))
    assert len(table) == 64 and (table["n"] == 3000).all() and (table["seed"] == 5).all()
    assert "board/s" in err  # the bar asked for goes to stderr, never into the CSV


def test_pass_rate_json_matches_the_library(capsys):
    status, out, _ = run(capsys, "pass-rate", "--board", "beginner", "--solver", "subset",
                         "-n", "600", "--seed", "4", "--workers", "1", "--quiet", "--json")
    assert status == 0
    [row] = json.loads(out)
    expected = pass_rate("beginner", solver="subset", n=600, seed=4, workers=1)
    assert row["successes"] == expected.successes and row["n"] == 600 and row["seed"] == 4
    low, high = proportion_confint(expected.successes, 600, alpha=0.05, method="wilson")
    assert [row["ci_low"], row["ci_high"]] == pytest.approx([low, high], rel=1e-14)


def test_compare_prints_the_library_pairs(capsys):
    status, out, err = run(capsys, "compare", "--board", "8x8/10", "--solvers", "subset",
                           "logic", "logic:no-mine-count", "-n", "300", "--seed", "4",
                           "--workers", "1", "--adjacent", "--csv")
    assert status == 0, err
    printed = pd.read_csv(io.StringIO(out))
    expected = compare("8x8/10", solvers=["subset", "logic",
                                          SolverOptions("logic", use_mine_count=False)],
                       n=300, seed=4, workers=1).per_pair(adjacent=True)
    assert list(zip(printed["first"], printed["second"], strict=True)) == [
        ("subset", "logic"), ("logic", "logic (no mine count)")]
    pd.testing.assert_frame_equal(printed, expected, check_dtype=False)
    status, out, err = run(capsys, "compare", "--board", "6x6/5", "--policies", "safest",
                           "best", "-n", "40", "--seed", "4", "--workers", "1", "--quiet")
    assert status == 0 and err == ""
    assert "safest" in out and "McNemar p" in out and "seed 4" in out


def test_sweep_covers_the_product_of_its_lists(capsys):
    status, out, _ = run(capsys, "sweep", "--boards", "8x8/10", "beginner", "--solvers",
                         "single-point", "logic", "--clicks", "centre", "0,0", "-n", "200",
                         "--seed", "3", "--workers", "1", "--quiet", "--csv")
    assert status == 0
    table = pd.read_csv(io.StringIO(out))
    assert len(table) == 8
    assert table["seed"].tolist() == [f"3/{i}" for i in range(8)]


@pytest.mark.parametrize("argv", [
    ["pass-rate", "--board", "8x8/10", "-n", "200"],
    ["win-rate", "--board", "6x6/5", "--policy", "safest", "-n", "50"],
    ["sweep", "--boards", "8x8/10", "6x6/5", "--solvers", "single-point", "logic", "-n", "100"],
    ["simulate", "--board", "8x8/10", "--rule", "uniform", "-n", "100"],
    ["compare", "--board", "8x8/10", "--solvers", "logic", "logic:no-mine-count", "-n", "50"],
])
def test_rate_tables_fit_100_columns_and_show_estimate_interval_n_and_seed(capsys, argv):
    # no --seed: the drawn seed, 39 digits, is the longest a table meets
    status, out, err = run(capsys, *argv, "--workers", "1", "--quiet")
    assert status == 0
    lines = out.splitlines()
    assert max(map(len, lines)) <= 100, out
    title, header, *rows = lines
    assert "seed" in title and "95% Wilson" in title
    assert "95% interval" in header and {"board", "click", "n"} <= set(header.split())
    assert all("[" in row and "]" in row for row in rows[:2])
    assert len(rows) == {"sweep": 4, "compare": 6}.get(argv[0], 1)  # compare: 2 tables


@pytest.mark.parametrize("command", ["", "opening", "opening-map", "simulate", "solve",
                                     "pass-rate", "sweep", "generate", "bbbv", "reconstruct",
                                     "probabilities", "play", "win-rate", "compare",
                                     "reproduce", "analyse"])
def test_help_is_wrapped_to_100_columns_on_a_wide_terminal(capsys, monkeypatch, command):
    monkeypatch.setenv("COLUMNS", "300")
    status, out, _ = run(capsys, *[command][:bool(command)], "--help")
    assert status == 0 and "usage: minestats" in out
    assert max(map(len, out.splitlines())) <= 100, out


def test_probabilities_exact_prints_the_fractions(capsys, tmp_path):
    (tmp_path / "position.txt").write_text("F1?\n???\n???\n")
    status, out, _ = run(capsys, "probabilities", str(tmp_path / "position.txt"), "--mines",
                         "3", "--exact")
    # the flag is the 1's mine: every other neighbour is safe, 2 mines among the far 3
    assert status == 0
    assert out.splitlines()[1:] == ["    0   1   2", "0   F   .   0", "1   0   0   0",
                                    "2 2/3 2/3 2/3"]  # under column, beside row indices
    status, out, _ = run(capsys, "probabilities", str(tmp_path / "position.txt"), "--mines",
                         "3", "--exact", "--csv")
    table = pd.read_csv(io.StringIO(out), dtype={"fraction": str}).set_index(["x", "y"])
    assert table.loc[(1, 2), "fraction"] == "2/3" and table.loc[(0, 0), "fraction"] == "1"


def test_solve_reads_text_and_mbf_files(capsys, tmp_path):
    layout = parse_text("..*.\n....\n....\n*...\n")
    (tmp_path / "board.txt").write_text(format_text(layout))
    (tmp_path / "board.mbf").write_bytes(to_mbf(layout))
    expected = solve(layout, (2, 2), solver="logic").to_dict()
    for name in ("board.txt", "board.mbf"):
        status, out, _ = run(capsys, "solve", "--file", str(tmp_path / name), "--click", "2,2",
                             "--json")
        assert status == 0
        [row] = json.loads(out)
        assert (row["solved"], row["revealed_cells"]) == (expected["solved"],
                                                          expected["revealed_cells"])
    status, out, _ = run(capsys, "solve", "--file", str(tmp_path / "board.txt"),
                         "--click", "2,2")
    assert status == 0 and "final view" in out


def test_generate_writes_the_library_board(capsys, tmp_path):
    target = tmp_path / "daily.mbf"
    status, _, err = run(capsys, "generate", "--board", "beginner", "--seed", "2026-11-29",
                         "--out", str(target))
    assert status == 0 and "seed 2026-11-29" in err
    expected = generate_no_guess("beginner", "centre", seed="2026-11-29")
    assert (from_mbf(target.read_bytes()) == expected.layout).all()


@pytest.mark.parametrize("name", ["board.mbf", "board.txt"])
def test_generate_that_cannot_encode_leaves_an_existing_file_untouched(capsys, tmp_path,
                                                                        name):
    target = tmp_path / name
    target.write_bytes(b"an earlier board\n")
    status, out, err = run(capsys, "generate", "--board", "300x300/10", "--seed", "1",
                           "--format", "mbf", "--out", str(target))
    assert status == 2 and out == ""
    assert err == "minestats generate: error: MBF holds boards up to 255x255; got 300x300\n"
    assert target.read_bytes() == b"an earlier board\n"
    assert sorted(path.name for path in tmp_path.iterdir()) == [name]


def test_bbbv_of_a_file_and_of_many_boards(capsys, tmp_path):
    layout = parse_text("*...\n....\n...*\n")
    (tmp_path / "b.txt").write_text(format_text(layout))
    status, out, _ = run(capsys, "bbbv", "--file", str(tmp_path / "b.txt"), "--json")
    assert status == 0 and json.loads(out)[0]["bbbv"] == bbbv(layout)
    status, out, _ = run(capsys, "bbbv", "--board", "beginner", "-n", "2000", "--seed", "1",
                         "--workers", "1", "--between", "10", "20", "--json")
    [summary] = json.loads(out)
    assert status == 0 and summary["n"] == 2000 and summary["low"] == 10
    inside = bbbv_histogram("beginner", n=2000, seed=1, workers=1).counts[10:21].sum()
    low, high = proportion_confint(inside, 2000, alpha=0.05, method="wilson")
    assert summary["successes"] == inside and summary["share"] == inside / 2000
    assert [summary["ci_low"], summary["ci_high"]] == pytest.approx([low, high])


def test_store_makes_a_rerun_resume(capsys, tmp_path):
    argv = ["pass-rate", "--board", "8x8/10", "--solver", "single-point", "-n", "3000",
            "--seed", "2", "--workers", "1", "--quiet", "--json", "--store",
            str(tmp_path / "run.sqlite")]
    [first] = json.loads(run(capsys, *argv)[1])
    [second] = json.loads(run(capsys, *argv)[1])
    assert first["successes"] == second["successes"]


def test_store_without_a_seed_is_refused_before_anything_runs(capsys, tmp_path):
    path = tmp_path / "run.sqlite"
    status, out, err = run(capsys, "pass-rate", "--board", "8x8/10", "--solver",
                           "single-point", "-n", "3000", "--workers", "1", "--quiet",
                           "--store", str(path))
    assert (status, out) == (2, "")
    assert err == ("minestats pass-rate: error: --store needs --seed: without a seed every "
                   "run draws a new one and never resumes from the store\n")
    assert not path.exists()


def test_reproduce_lists_the_files_written_or_echoes_the_reports(capfd, tmp_path):
    out = tmp_path / "results"
    assert main(["reproduce", "--only", "first_click", "--out", str(out), "--workers",
                 "1"]) == 0
    listed = capfd.readouterr().out
    meta = json.loads((out / "first_click.csv.json").read_text())
    assert listed == (f"first_click: first_click.csv, .md, .tex: n {meta['n']:,}, seed "
                      f"{meta['seed']}, git {meta['git_revision'][:7]}"
                      f"{'-dirty' if meta['git_revision'].endswith('-dirty') else ''}\n")
    assert main(["reproduce", "--only", "first_click", "--out", str(out), "--workers", "1",
                 "--echo"]) == 0
    echoed = capfd.readouterr().out  # the experiment's own report, from its process
    assert echoed.startswith("Centre-click opening probability: exact vs Monte Carlo")
    assert f"Wrote {out / 'first_click.csv'} and its sidecar" in echoed


def test_reproduce_runs_the_named_experiment(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the experiments are the package's, run in any folder
    status, _, err = run(capsys, "reproduce", "--only", "first_click", "--out", "out",
                         "--workers", "1", "--quiet")
    assert status == 0 and "== first_click" in err
    tmp_path = tmp_path / "out"
    assert json.loads((tmp_path / "first_click.csv.json").read_text())["command"].startswith(
        "python -m minestats.experiments.first_click --out out ")
    assert (tmp_path / "first_click.csv").exists()
    from minestats.reproduction.index import check_results

    # its LaTeX and Markdown twins, all in the index (the other tables were not run)
    assert check_results(tmp_path, summary_tables=["first_click.csv"]) == []


def test_reproduce_full_puts_its_stores_in_the_output_folder(capsys, tmp_path, monkeypatch):
    import subprocess

    from minestats.reproduction import runner

    ran = []

    def record(command, **options):
        ran.append(command)
        return subprocess.CompletedProcess(command, 0)

    monkeypatch.setattr(runner.subprocess, "run", record)
    monkeypatch.setattr(runner, "write_results_index", lambda out, repository: out)
    out = tmp_path / "elsewhere"
    monkeypatch.chdir(tmp_path)  # the checkout is named, not found from the package
    status, _, _ = run(capsys, "reproduce", "--full", "--only", "policy_ablation", "win_rates",
                       "--out", str(out), "--repository", str(CHECKOUT))
    assert status == 0 and len(ran) == 2
    # in the registry's order, whatever the order asked, each as a module of the package
    assert [command[1:3] for command in ran] == [
        ["-m", "minestats.experiments.win_rates"], ["-m", "minestats.experiments.policy_ablation"]]
    for command in ran:
        store = command[command.index("--store") + 1]
        assert store.startswith(str(out)) and store.endswith(".sqlite")


def test_reproduce_of_the_notebooks_outside_a_checkout_says_so_and_runs_nothing(
        capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    status, _, err = run(capsys, "reproduce", "--only", "first_click", "notebooks", "--out",
                         "results")
    assert status == 2 and "no notebooks/ folder in" in err and "--repository" in err
    assert not (tmp_path / "results").exists()


def test_reproduce_of_everything_outside_a_checkout_leaves_the_notebooks_out(
        capsys, tmp_path, monkeypatch):
    from minestats.reproduction import runner

    ran = []
    monkeypatch.setattr(runner.subprocess, "run", lambda command, **options: ran.append(
        command) or runner.subprocess.CompletedProcess(command, 0))
    monkeypatch.setattr(runner, "render_notebooks", lambda *args, **options: 1 / 0)
    monkeypatch.chdir(tmp_path)
    status, _, err = run(capsys, "reproduce", "--out", "results")
    assert status == 0 and len(ran) == len(runner.EXPERIMENTS)
    assert "the notebooks are left out" in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["simulate", "--board", "expert", "--rule", "xp", "-n", "10"],
         "rule 'xp' is not one of"),
        (["pass-rate", "--board", "3x3/5", "--solver", "logic", "-n", "10"],
         r"mines (5) must be at most 0 for rule 'safe-opening'"),
        (["simulate", "--board", "expert", "--rule", "uniform", "--click", "30,0", "-n", "10"],
         "click (30, 0) is off the 30x16 board"),
        (["pass-rate", "--board", "expert", "--solver", "logic", "-n", "-3"],
         "n (-3) must be a positive integer"),
        (["sweep", "--boards", "expert", "-n", "0"], "n (0) must be a positive integer"),
        (["pass-rate", "--board", "expert", "--solver", "psychic", "-n", "5"],
         "solver 'psychic' is not one of"),
        (["solve", "--board", "expert"], None),  # fine: drawn with fresh entropy
        (["solve", "--board", "expert", "--file", "x.txt"], "give either --file or --board"),
        (["bbbv", "--board", "expert"], "give --file, or --board with -n"),
        (["generate", "--board", "30x16/300", "--max-tries", "2"],
         "no verified board within the limits"),
        (["reproduce", "--only", "everything"], "unknown experiments ['everything']"),
        (["compare", "--board", "expert", "--solvers", "logic", "-n", "5"],
         "solvers (['logic']) must list at least two contenders"),
        (["compare", "--board", "expert", "--solvers", "logic", "logic:count", "-n", "5"],
         "solver ('logic:count') must be a solver name, optionally followed by"),
        (["compare", "--board", "expert", "--policies", "safest", "bold", "-n", "5"],
         "policy 'bold' is not one of"),
        (["compare", "--board", "expert", "--policies", "best", "best", "-n", "5"],
         "name 'best' twice"),
        (["simulate", "--board", "expert", "--rule", "uniform", "-n", "5", "--scheduler",
          "tcp://127.0.0.1:9"], "cannot reach the Dask scheduler"),
    ],
)
def test_bad_input_is_one_line_and_exit_status_2(capsys, monkeypatch, argv, message):
    from minestats.cli import output

    # Nothing listens on port 9: a 2 s wait for a scheduler ends in the same refusal as
    # the default 10 s one (test_commands_hostile.py waits 2 s too).
    monkeypatch.setattr(output, "SCHEDULER_SECONDS", 2)
    status, out, err = run(capsys, *argv)
    if message is None:
        assert status == 0
        return
    assert status == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], err


@pytest.mark.parametrize(
    ("content", "message"),
    [("*.\n*x\n", "line 2: unexpected character 'x'"),
     ("*.\n*..\n", "line 2: row has 3 cells, expected 2")],
)
def test_malformed_board_file_names_file_and_line(capsys, tmp_path, content, message):
    path = tmp_path / "bad.txt"
    path.write_text(content)
    status, _, err = run(capsys, "solve", "--file", str(path))
    assert status == 2 and f"{path}: {message}" in err and err.count("\n") == 1


def test_malformed_mbf_and_missing_file(capsys, tmp_path):
    path = tmp_path / "bad.mbf"
    path.write_bytes(bytes([3, 3, 0, 5]))
    status, _, err = run(capsys, "bbbv", "--file", str(path))
    assert status == 2 and "says 5 mines" in err
    status, _, err = run(capsys, "solve", "--file", str(tmp_path / "missing.txt"))
    assert status == 2 and "cannot read" in err and "No such file" in err


def test_help_shows_examples(capsys):
    status, out, _ = run(capsys, "pass-rate", "--help")
    assert status == 0 and "examples:" in out and "minestats pass-rate --board" in out
    assert np.all([flag in out for flag in ("--board", "--rule", "--click", "--solver", "-n",
                                            "--seed", "--workers", "--scheduler", "--csv",
                                            "--json", "--store", "--quiet")])


def test_an_out_name_too_long_is_refused_before_the_board_is_generated(capsys, monkeypatch,
                                                                       tmp_path):
    """The work is checked: the generator is never called for an --out that cannot be."""
    from minestats.cli import commands

    def generate(*args, **kwargs):
        raise AssertionError("a board was generated for an --out that cannot be written")

    monkeypatch.setattr(commands, "generate_no_guess", generate)
    status, _, err = run(capsys, "generate", "--board", "beginner", "--out",
                         str(tmp_path / ("q" * 300)))
    assert status == 2 and "File name too long" in err and len(err.splitlines()) == 1
