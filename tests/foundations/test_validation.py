import numpy as np
import pytest

from minestats import opening_probability, opening_probability_map, pass_rate
from minestats.foundations.board import EXPERT, Board, resolve_board
from minestats.foundations.validation import (
    MAX_N,
    check_confidence_level,
    check_count,
    check_n,
    check_rule_name,
    check_solver_options,
    check_timeout,
)
from minestats.mechanics.rules import check_click
from minestats.solvers import SolverOptions


def test_n_is_a_positive_integer_up_to_the_cap():
    assert check_n(np.int32(5)) == 5 and type(check_n(np.int32(5))) is int
    assert check_n(MAX_N) == MAX_N
    for bad in (0, -3, 2.5, True, "10"):
        with pytest.raises(ValueError, match=r"^n \(.*\) must be a positive integer$"):
            check_n(bad)
    with pytest.raises(ValueError, match="must be at most 1_000_000_000_000"):
        check_n(MAX_N + 1)
    assert check_count("n", 0, minimum=0) == 0


def test_every_entry_point_gives_the_same_n_message():
    from minestats import bbbv_histogram, generate_no_guess_batch, simulate_opening

    calls = [lambda: simulate_opening("beginner", rule="uniform", n=0),
             lambda: pass_rate("beginner", solver="subset", n=0),
             lambda: bbbv_histogram("beginner", n=0),
             lambda: generate_no_guess_batch("beginner", "centre", n=0)]
    for call in calls:
        with pytest.raises(ValueError, match=r"^n \(0\) must be a positive integer$"):
            call()


def test_board_accepts_a_board_a_preset_or_a_size():
    assert resolve_board(EXPERT) is EXPERT
    assert resolve_board(" Expert ") == Board(30, 16, 99)
    assert resolve_board("16x16/40") == Board(16, 16, 40)
    with pytest.raises(ValueError, match="neither a preset"):
        resolve_board("huge")


def test_every_board_taking_function_accepts_a_preset_name():
    assert opening_probability("expert", "centre", rule="uniform") == opening_probability(
        EXPERT, "centre", rule="uniform")
    assert np.array_equal(opening_probability_map("beginner", rule="winxp"),
                          opening_probability_map(Board(9, 9, 10), rule="winxp"))


def test_rule_click_level_and_timeout():
    assert check_rule_name("uniform") == "uniform"
    with pytest.raises(ValueError, match="rule 'xp' is not one of"):
        check_rule_name("xp")
    assert check_click("beginner", "centre") == (4, 4)
    assert check_click(EXPERT, (0, 0), "safe-opening") == (0, 0)
    with pytest.raises(ValueError, match=r"click \(9, 9\) is off"):
        check_click("beginner", (9, 9))
    assert check_confidence_level(0.9) == 0.9
    for bad in (0, 1, 1.5, True):
        with pytest.raises(ValueError, match="confidence_level"):
            check_confidence_level(bad)
    assert check_timeout(None) is None and check_timeout(2) == 2.0
    with pytest.raises(ValueError, match="timeout"):
        check_timeout(0)


def test_solver_options_share_one_check():
    assert check_solver_options("logic", np.bool_(True), np.int64(7)) == ("logic", True, 7)
    options = SolverOptions("subset", use_mine_count=np.bool_(False), max_configurations=5)
    assert options == SolverOptions("subset", False, 5)
    for entry in (lambda: SolverOptions("psychic"),
                  lambda: pass_rate("beginner", solver="psychic", n=10)):
        with pytest.raises(ValueError, match="solver 'psychic' is not one of"):
            entry()
    with pytest.raises(ValueError, match="use_mine_count"):
        check_solver_options("logic", 1, 10)
