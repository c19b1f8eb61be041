"""Hostile input to the library: every bad value is a one-line ValueError naming it.

Each case calls a public function of the library directly. The command line's cases are
in ``tests/cli/test_commands_hostile.py`` (counted here with these: at least 150 distinct
bad inputs and faults in all), the parsers' fuzzing in ``tests/io/test_boards_hostile.py``
and the huge unconstrained position in ``tests/inference/test_probabilities_hostile.py``.
"""


import numpy as np
import pytest

import minestats
from minestats.inference import board_consistency, reconstruct
from tests.cli.test_commands_hostile import CLI_CASES, LARGE_CASES, SPECIAL_CASES, _argv

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
    (lambda: minestats.optimal_win_probability("100x100/1"), "MAX_LAYOUT_CELLS"),
    (lambda: minestats.optimal_win_probability("400x400/1", rule="safe-click", click=(0, 0)),
     "MAX_LAYOUT_CELLS"),
    (lambda: minestats.win_rate("1000x1000/10", n=10**4, chunk_size=1000, progress=True),
     "MAX_SAMPLE_CELLS"),
    (lambda: minestats.win_rate_sweep([{"board": "1000x1000/10"}], n=10**4, chunk_size=1000),
     "MAX_SAMPLE_CELLS"),
    (lambda: minestats.generate_no_guess("beginner", "centre", method="magic"), "'magic'"),
    (lambda: minestats.bbbv_histogram("beginner", n=10, seed=1).share(5, 1), "low <= high"),
    # sizes a caller can pass: refused at once, naming the limit
    (lambda: minestats.Board(2001, 2000, 1), "MAX_CELLS"),
    (lambda: minestats.sample_mines("beginner", 10**9, rule="uniform", click="centre"),
     "MAX_SAMPLE_CELLS"),
    (lambda: minestats.sample_mines("beginner", -1, rule="uniform", click="centre"), "n (-1)"),
    (lambda: minestats.pass_rate("1000x1000/10", solver="logic", n=10**4), "MAX_SAMPLE_CELLS"),
    (lambda: minestats.pass_rate_sweep([{"board": "1000x1000/10", "solver": "logic"}], n=10**4),
     "MAX_SAMPLE_CELLS"),
    (lambda: minestats.bbbv_histogram("1000x1000/10", n=10**5), "MAX_SAMPLE_CELLS"),
    (lambda: minestats.compare("1000x1000/10", solvers=["logic", "subset"], n=10**4),
     "MAX_SAMPLE_CELLS"),
    (lambda: minestats.opening_probability("300x300/80000", "centre", rule="winxp"),
     "MAX_FRACTION_TERMS"),
    (lambda: minestats.mine_probabilities(np.full((1001, 1000), -1)), "MAX_MAP_CELLS"),
    (lambda: reconstruct(np.zeros((501, 500), dtype=int)), "MAX_CONSTRAINTS = 250,000"),
    (lambda: board_consistency(np.tile([[1, -1]], (600, 500))), "MAX_CONSTRAINTS"),
]


@pytest.mark.parametrize("call, message", API_CASES)
def test_bad_api_call_is_a_one_line_value_error(call, message):
    with pytest.raises(ValueError) as caught:
        call()
    text = str(caught.value)
    assert "\n" not in text and message in text, text



def test_there_are_at_least_150_distinct_bad_inputs_and_faults():
    cases = [tuple(argv) for argv, _ in CLI_CASES]
    cases += [("special", *_argv(case)) for case in SPECIAL_CASES]
    cases += [("large", *argv) for argv, _ in LARGE_CASES] + [("stdin", "probabilities"),
                                                               ("stdin", "reconstruct")]
    assert len(set(cases)) == len(cases)
    assert len(cases) + len(API_CASES) >= 150
