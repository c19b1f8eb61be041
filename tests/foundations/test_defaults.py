"""Every driver, the sweeps, compare and the command take their defaults from one place."""

import inspect

import pytest

import minestats
from minestats.cli.parser import build_parser
from minestats.drivers import comparisons
from minestats.foundations import defaults

SIGNATURES = [
    ("simulate_opening", defaults.OPENING_SIMULATION, ("click", "chunk_size")),
    ("pass_rate", defaults.PASS_RATE, ("rule", "click", "chunk_size")),
    ("pass_rate_sweep", defaults.PASS_RATE, ("chunk_size",)),
    ("bbbv_histogram", defaults.BBBV_HISTOGRAM, ("rule", "click", "chunk_size")),
    ("win_rate", defaults.WIN_RATE, ("rule", "click", "chunk_size")),
    ("win_rate_sweep", defaults.WIN_RATE, ("chunk_size",)),
    ("generate_no_guess", defaults.NO_GUESS, ("rule",)),
    ("generate_no_guess_batch", defaults.NO_GUESS, ("rule", "chunk_size")),
]


@pytest.mark.parametrize(("name", "expected", "fields"), SIGNATURES,
                         ids=[name for name, _, _ in SIGNATURES])
def test_a_drivers_signature_shows_its_declared_defaults(name, expected, fields):
    parameters = inspect.signature(getattr(minestats, name)).parameters
    for field in fields:
        assert parameters[field].default == getattr(expected, field), field


def test_compare_pairs_contenders_on_the_defaults_of_their_own_driver():
    assert comparisons.DEFAULTS == {"solvers": defaults.PASS_RATE,
                                    "policies": defaults.WIN_RATE}


COMMANDS = [(["pass-rate", "--board", "beginner", "-n", "1"], defaults.PASS_RATE),
            (["win-rate", "--board", "beginner", "-n", "1"], defaults.WIN_RATE),
            (["play", "--board", "beginner"], defaults.WIN_RATE),
            (["bbbv", "--board", "beginner", "-n", "1"], defaults.BBBV_HISTOGRAM)]


@pytest.mark.parametrize(("argv", "expected"), COMMANDS, ids=[argv[0] for argv, _ in COMMANDS])
def test_the_command_defaults_are_the_drivers(argv, expected):
    args = build_parser().parse_args(argv)
    assert (args.rule, args.click) == (expected.rule, expected.click)
    assert getattr(args, "chunk_size", None) is None  # None: the driver's own default


def test_the_sweep_and_generate_commands_default_to_their_drivers_rule():
    sweep = build_parser().parse_args(["sweep", "-n", "1"])
    assert (sweep.rules, sweep.clicks) == ([defaults.PASS_RATE.rule], [defaults.PASS_RATE.click])
    generate = build_parser().parse_args(["generate", "--board", "beginner"])
    assert generate.rule == defaults.NO_GUESS.rule
