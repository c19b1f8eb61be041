"""Two classes of refusal, closed in general: values outside their domain, and messages
that repeat a huge input whole.

Every public statistic checks its domain and names what it accepts in a one-line
ValueError; every refusal quotes at most about 80 characters of what the user typed
(`minestats.foundations.validation.quoted`), however long the input.
"""

import os
import stat
from pathlib import Path

import numpy as np
import pytest

import minestats
import minestats.cli
from minestats.foundations.seeds import resolve_seed
from minestats.foundations.validation import check_policy, check_rule_name, check_timeout
from minestats.stats import holm_adjust, holm_reject, proportion_interval, wilson_interval

# --- values outside their domain ------------------------------------------------------

BAD_P_VALUES = [[np.nan, 0.01], [0.01, np.nan], [-0.1, 0.2], [1.5], [0.2, np.inf],
                [-np.inf], ["a"], [[0.1, np.nan], [0.2, 0.3]]]


@pytest.mark.parametrize("p_values", BAD_P_VALUES, ids=[str(p) for p in BAD_P_VALUES])
@pytest.mark.parametrize("holm", [holm_reject, holm_adjust])
def test_holm_refuses_what_is_not_a_p_value(holm, p_values):
    with pytest.raises(ValueError, match=r"p_values") as raised:
        holm(p_values)
    assert "\n" not in str(raised.value)


def test_holm_still_takes_the_edges_of_its_domain():
    assert holm_reject([0.0, 1.0, 0.5]).tolist() == [True, False, False]
    assert holm_adjust([[0.01, 1.0], [0.0, 0.02]]).shape == (2, 2)


@pytest.mark.parametrize("method", ["foo", "WILSON", "clopper-pearson", "", None, 3])
def test_an_unknown_interval_method_is_named_with_the_ones_accepted(method):
    with pytest.raises(ValueError, match=r"method .* must be one of wilson, .*beta"):
        proportion_interval(3, 10, method=method)


@pytest.mark.parametrize("level", [0, 1, 1.5, -0.2, np.nan])
def test_a_confidence_level_outside_zero_one_is_refused(level):
    with pytest.raises(ValueError, match="confidence_level"):
        wilson_interval(3, 10, confidence_level=level)


# --- messages a person can read -------------------------------------------------------

HUGE = "q" * 13_000

REFUSALS = {
    "board name": lambda: minestats.Board.parse(HUGE),
    "board through a driver": lambda: minestats.pass_rate(HUGE, n=10, seed=1),
    "seed label": lambda: resolve_seed(HUGE + "/1"),
    "rule name": lambda: check_rule_name(HUGE),
    "policy name": lambda: check_policy(HUGE),
    "timeout": lambda: check_timeout(HUGE),
    "interval method": lambda: proportion_interval(1, 2, method=HUGE),
    "a list of p-values": lambda: holm_adjust([2.0] * 5000),
}


@pytest.mark.parametrize("name", REFUSALS)
def test_a_refusal_quotes_a_huge_input_in_about_eighty_characters(name):
    with pytest.raises(ValueError) as raised:
        REFUSALS[name]()
    message = str(raised.value)
    assert len(message) < 300 and "\n" not in message, message[:400]
    assert "characters)" in message  # it says how long the input was


def _every_value_option():
    """Each subcommand's arguments that take a value: (subcommand, flag or None, count)."""
    import argparse

    from minestats.cli.parser import build_parser

    commands = next(action for action in build_parser()._actions
                    if isinstance(action, argparse._SubParsersAction)).choices
    return [(name, action.option_strings[0] if action.option_strings else None,
             action.nargs if isinstance(action.nargs, int) else 1)
            for name, parser in commands.items() for action in parser._actions
            if action.nargs != 0 and not isinstance(action, argparse._HelpAction)]


VALUE_OPTIONS = _every_value_option()


SMALL_RUNS = {  # a quick valid call of each subcommand, run in a folder holding EXAMPLES
    "opening": ["--board", "9x9/10", "--rule", "uniform"],
    "opening-map": ["--board", "9x9/10", "--rule", "uniform"],
    "simulate": ["--board", "9x9/10", "--rule", "uniform", "-n", "10", "--seed", "1",
                 "--workers", "1"],
    "solve": ["--board", "9x9/10", "--seed", "1"],
    "pass-rate": ["--board", "9x9/10", "-n", "10", "--seed", "1", "--workers", "1"],
    "sweep": ["--boards", "9x9/10", "-n", "10", "--seed", "1", "--workers", "1"],
    "generate": ["--board", "9x9/10", "--seed", "1"],
    "bbbv": ["--board", "9x9/10", "-n", "10", "--seed", "1", "--workers", "1"],
    "reconstruct": ["counts.txt"],
    "probabilities": ["position.txt", "--mines", "10"],
    "play": ["--board", "9x9/10", "--seed", "1"],
    "win-rate": ["--board", "9x9/10", "-n", "10", "--seed", "1", "--workers", "1"],
    "compare": ["--board", "9x9/10", "--policies", "best", "safest", "-n", "10", "--seed", "1",
                "--workers", "1"],
    "reproduce": ["--only", "first_click", "--out", "out", "--workers", "1"],
    "results": ["list"],
    "analyse": ["game.evf"],
}
EXCLUSIVE = {("bbbv", "--file"): ["--board", "-n", "--seed"],
             ("solve", "--file"): ["--board", "--seed"],
             ("play", "--file"): ["--board", "--seed"],
             ("play", "--replay"): ["--board", "--seed"],
             ("compare", "--solvers"): ["--policies"]}
"""The options of the small run that a flag may not be given with."""
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def with_value(command, flag, count, value):
    """The small run of ``command`` with ``flag`` (None: its positional) set to ``value``."""
    argv = list(SMALL_RUNS[command])
    if flag is None:
        return [command, value, *argv[1:]]
    for dropped in [flag, *EXCLUSIVE.get((command, flag), [])]:
        if dropped in argv:
            at = argv.index(dropped)
            end = at + 1
            while end < len(argv) and not argv[end].startswith("-"):
                end += 1
            del argv[at:end]
    return [command, *argv, flag, *[value] * count]


def test_every_option_of_every_subcommand_is_tried_with_a_huge_value():
    assert set(SMALL_RUNS) == {name for name, _, _ in VALUE_OPTIONS}
    assert len(VALUE_OPTIONS) > 100


@pytest.mark.parametrize(("command", "flag", "count"), VALUE_OPTIONS,
                         ids=[f"{name} {flag or 'ARG'}" for name, flag, _ in VALUE_OPTIONS])
def test_a_huge_value_of_any_option_is_never_repeated_whole(tmp_path, monkeypatch, capfd,
                                                            command, flag, count):
    for example in ("counts.txt", "position.txt", "game.evf"):
        (tmp_path / example).write_bytes((EXAMPLES / example).read_bytes())
    monkeypatch.chdir(tmp_path)
    try:
        status = minestats.cli.main(with_value(command, flag, count, HUGE))
    except SystemExit as exit:
        status = exit.code
    out, err = capfd.readouterr()
    assert "Traceback" not in err and HUGE[:100] not in out + err, (out + err)[:700]
    if status != 0:  # refused: in one line that says how long the value was
        assert status in (1, 2) and err.count("\n") == 1, err[:700]
        assert "characters)" in err or "too long" in err, err[:700]


# --- rows split where a person sees none ----------------------------------------------

HIDDEN_BREAKS = ["\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029", "\x00",
                 "\x1b", "\x7f"]


def _parsers():
    from minestats.io.boards import parse_counts, parse_position, parse_text

    return {"layout": (parse_text, ".*{}..\n..*..\n"),
            "counts": (parse_counts, "1 2 {}3 4\n1 2 3 4\n"),
            "position": (parse_position, "1?{}??\n????\n")}


@pytest.mark.parametrize("kind", ["layout", "counts", "position"])
@pytest.mark.parametrize("character", HIDDEN_BREAKS, ids=[f"U+{ord(c):04X}"
                                                           for c in HIDDEN_BREAKS])
def test_a_control_character_inside_a_row_is_refused_by_line_and_column(kind, character):
    parse, template = _parsers()[kind]
    with pytest.raises(ValueError, match=rf"line 1, column \d+: control character "
                                         rf"U\+{ord(character):04X}"):
        parse(template.format(character))


@pytest.mark.parametrize("ending", ["\n", "\r\n", "\r"])
def test_rows_end_at_the_three_line_breaks_alone(ending):
    from minestats.io.boards import parse_position

    numbers, flags = parse_position(ending.join(["1?\t?", "?F ?", ""]))
    assert numbers.shape == (2, 3) and flags.sum() == 1
    assert minestats.mine_probabilities(ending.join(["1??", "???"]), mines=1).probability.shape \
        == (2, 3)


# --- seeds that do not repeat ---------------------------------------------------------

@pytest.mark.parametrize("sequence", [np.random.SeedSequence(42, pool_size=8),
                                      np.random.SeedSequence(42, pool_size=5),
                                      np.random.SeedSequence([1, 2, 3]),
                                      np.random.SeedSequence([42]),
                                      np.random.SeedSequence([7, 0], spawn_key=(2,))],
                         ids=["pool 8", "pool 5", "list", "one-item list", "list child"])
def test_a_seed_its_label_would_not_repeat_is_refused_before_the_run(sequence, monkeypatch):
    from minestats.drivers import pass_rates

    def no_run(*args, **kwargs):
        raise AssertionError("the run started")

    monkeypatch.setattr(pass_rates, "solve_batch", no_run)
    with pytest.raises(ValueError, match="cannot be recorded so that it repeats"):
        minestats.pass_rate("beginner", solver="logic", n=10, seed=sequence, workers=1)


@pytest.mark.parametrize("seed", [42, "2026-12-05", np.random.SeedSequence(42, spawn_key=(3,)),
                                  np.random.SeedSequence(2**130)])
def test_every_recorded_seed_gives_back_the_same_run(seed):
    first = minestats.pass_rate("beginner", solver="logic", n=40, seed=seed, workers=1)
    again = minestats.pass_rate("beginner", solver="logic", n=40, seed=first.seed, workers=1)
    assert again.successes == first.successes and again.seed == first.seed


# --- arguments in the forms people type -----------------------------------------------

@pytest.mark.parametrize("as_path", [str, Path], ids=["str", "Path"])
def test_a_store_is_taken_as_a_path_and_the_rerun_resumes_from_it(tmp_path, as_path):
    store = as_path(tmp_path / "run.sqlite")
    first = minestats.pass_rate("beginner", solver="logic", n=30, seed=3, chunk_size=10,
                                workers=1, store=store)
    again = minestats.pass_rate("beginner", solver="logic", n=30, seed=3, chunk_size=10,
                                workers=1, store=store)
    assert again == first and Path(store).stat().st_size > 0


@pytest.mark.parametrize("store", [3, b"run.sqlite", ["run.sqlite"]])
def test_a_store_that_is_no_path_is_refused(store):
    with pytest.raises(ValueError, match="store .* must be a path"):
        minestats.pass_rate("beginner", solver="logic", n=10, seed=3, workers=1, store=store)


# --- permissions: new files follow the umask, replaced files keep their mode ----------

def _with_umask(mask, function):
    old = os.umask(mask)
    try:
        return function()
    finally:
        os.umask(old)


@pytest.mark.parametrize("mask", [0o022, 0o077, 0o027, 0o002])
def test_a_new_file_gets_the_mode_the_umask_leaves(tmp_path, mask):
    import pandas as pd

    from minestats.io.result_files import write_bytes, write_csv, write_json

    _with_umask(mask, lambda: (write_bytes(tmp_path / "a.bin", b"x"),
                               write_json(tmp_path / "b.json", {"a": 1}),
                               write_csv(pd.DataFrame({"a": [1]}), tmp_path / "c.csv",
                                         metadata={"n": 1})))
    written = ["a.bin", "b.json", "c.csv", "c.csv.json"]
    assert {name: stat.S_IMODE((tmp_path / name).stat().st_mode) for name in written} == {
        name: 0o666 & ~mask for name in written}


@pytest.mark.parametrize("mode", [0o600, 0o640, 0o604, 0o664])
def test_an_overwritten_file_keeps_its_mode_whatever_the_umask(tmp_path, mode):
    from minestats.io.result_files import write_bytes

    target = tmp_path / "board.txt"
    target.write_text("old")
    target.chmod(mode)
    _with_umask(0o000, lambda: write_bytes(target, b"new"))
    assert stat.S_IMODE(target.stat().st_mode) == mode and target.read_bytes() == b"new"


def test_the_command_keeps_a_private_files_mode(tmp_path, monkeypatch, capsys):
    from minestats.cli import main

    out = tmp_path / "daily.txt"
    out.write_text("mine")
    out.chmod(0o600)
    monkeypatch.chdir(tmp_path)
    assert main(["generate", "--board", "beginner", "--seed", "4", "--out", str(out),
                 "--quiet"]) == 0
    assert stat.S_IMODE(out.stat().st_mode) == 0o600 and out.read_text() != "mine"
