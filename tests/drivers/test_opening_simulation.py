import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from minestats.drivers.opening_simulation import simulate_opening
from minestats.foundations.board import BEGINNER, CLASSIC_BEGINNER, EXPERT, INTERMEDIATE, Board
from minestats.mechanics.opening_probabilities import opening_probability_map
from minestats.mechanics.rules import RULES
from minestats.stats import holm_reject, two_sided_p_values, z_scores

PRESETS = [CLASSIC_BEGINNER, BEGINNER, INTERMEDIATE, EXPERT]


def monte_carlo_p_values(n_boards, n_safe_opening):
    """p-values of every preset x rule x click position, plus the centre clicks."""
    p_values = []
    for index, board in enumerate(PRESETS):
        for rule in RULES:
            n = n_safe_opening if rule == "safe-opening" else n_boards
            seed = np.random.SeedSequence(2024, spawn_key=(index, RULES.index(rule)))
            result = simulate_opening(board, rule=rule, n=n, seed=seed, workers=1)
            assert result.exact.shape == board.shape
            p_values.append(result.p_values().ravel())
            centre = simulate_opening(board, rule=rule, n=4 * n, click="centre", seed=seed,
                                      workers=1)
            p_values.append(np.atleast_1d(centre.p_values()))
    return np.concatenate(p_values)


def test_monte_carlo_agrees_with_closed_forms_on_presets():
    p_values = monte_carlo_p_values(n_boards=20_000, n_safe_opening=200)
    assert p_values.size > 4 * 881
    assert not holm_reject(p_values, alpha=0.01).any(), np.sort(p_values)[:5]


@pytest.mark.slow
def test_monte_carlo_agrees_with_closed_forms_on_presets_at_scale():
    p_values = monte_carlo_p_values(n_boards=1_000_000, n_safe_opening=2_000)
    assert not holm_reject(p_values, alpha=0.01).any(), np.sort(p_values)[:5]


def test_holm_check_detects_the_wrong_closed_form():
    # Uniform boards judged against the XP closed form must be rejected somewhere:
    # the check can fail.
    result = simulate_opening(BEGINNER, rule="uniform", n=20_000, seed=1, workers=1)
    wrong = opening_probability_map(BEGINNER, rule="winxp")
    assert holm_reject(two_sided_p_values(z_scores(result.counts, result.n, wrong)),
                       alpha=0.01).any()


def test_results_do_not_depend_on_workers():
    kwargs = {"rule": "winxp", "n": 45_000, "seed": 99, "chunk_size": 10_000}
    serial = simulate_opening(EXPERT, **kwargs, workers=1)
    pooled = simulate_opening(EXPERT, **kwargs, workers=2)
    with ThreadPoolExecutor(max_workers=3) as executor:
        handed_in = simulate_opening(EXPERT, **kwargs, workers=executor.map)
    assert (serial.counts == pooled.counts).all()
    assert (serial.counts == handed_in.counts).all()
    single = simulate_opening(EXPERT, **kwargs, click="centre", workers=1)
    assert single.counts == simulate_opening(EXPERT, **kwargs, click="centre", workers=2).counts


def test_fresh_entropy_is_recorded_and_reproduces_the_run():
    first = simulate_opening(BEGINNER, rule="uniform", n=5_000, click="corner", workers=1)
    again = simulate_opening(BEGINNER, rule="uniform", n=5_000, click="corner",
                             seed=first.seed, workers=1)
    assert isinstance(first.seed, int)
    assert again.counts == first.counts


def test_result_carries_its_inputs_and_intervals():
    result = simulate_opening("9x9/10", rule="safe-click", n=10_000, click="centre", seed=4,
                              workers=1)
    row = result.to_dict()
    assert row["board"] == "9x9/10" and row["rule"] == "safe-click"
    assert (row["click_x"], row["click_y"], row["n"], row["seed"]) == (4, 4, 10_000, 4)
    assert row["ci_low"] < row["mc"] < row["ci_high"]
    assert row["successes"] == result.counts
    every = simulate_opening(Board(4, 3, 2), rule="uniform", n=100, seed=4, workers=1)
    frame = every.per_click()
    assert len(frame) == 12
    assert set(frame.columns) >= {"board", "rule", "click_x", "click_y", "exact", "mc",
                                  "ci_low", "ci_high", "z", "n", "seed"}
    summary = every.to_dict()
    assert (summary["click_x"], summary["positions"], summary["n"]) == (None, 12, 100)
    assert summary["max_abs_z"] == pytest.approx(frame["z"].abs().max())
    assert summary["holm_rejections"] == int(every.holm_reject().sum())


PEAK_MEMORY_SCRIPT = """
import resource, sys
from minestats.drivers.opening_simulation import simulate_opening
n = int(sys.argv[1])
simulate_opening("expert", rule="winxp", n=n, click="centre", seed=0, chunk_size=10_000,
                 workers=1)
simulate_opening("expert", rule="safe-click", n=n // 10, seed=0, chunk_size=10_000, workers=1)
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def peak_memory_kib(n):
    run = subprocess.run([sys.executable, "-c", PEAK_MEMORY_SCRIPT, str(n)],
                         capture_output=True, text=True, check=True)
    return int(run.stdout.split()[-1])


def assert_memory_bounded(n_large):
    small, large = peak_memory_kib(10_000), peak_memory_kib(n_large)
    # Keeping the layouts would cost 480 bytes per Expert board (about 460 MiB for a
    # million); at ten million even one byte per board would show. Allow 4 MiB of
    # noise between two processes.
    assert large < small + 4_096, (small, large)


def test_memory_is_bounded_by_the_chunk_size():
    assert_memory_bounded(1_000_000)


@pytest.mark.slow
def test_ten_million_boards_need_no_more_memory_than_ten_thousand():
    assert_memory_bounded(10_000_000)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"n": 0}, r"n \(0\) must be a positive integer"),
        ({"board": "10x10"}, "board '10x10' is neither a preset"),
        ({"rule": "safe"}, "rule 'safe' is not one of"),
        ({"click": (40, 0)}, r"click \(40, 0\) is off the 30x16 board"),
        ({"chunk_size": 0}, r"chunk_size \(0\) must be a positive integer"),
        ({"seed": -5}, r"seed \(-5\) must be a non-negative integer"),
        ({"workers": 0}, r"workers \(0\) must be -1 \(all cores\) or from 1 to MAX_WORKERS"),
        ({"board": "3x3/5", "rule": "safe-opening", "click": None},
         r"mines \(5\) must be at most 0 for a map of every click under rule 'safe-opening'"),
    ],
)
def test_input_validation(kwargs, match):
    arguments = {"board": EXPERT, "rule": "uniform", "n": 10, "click": "centre", "seed": 0,
                 "workers": 2} | kwargs
    board = arguments.pop("board")
    with pytest.raises(ValueError, match=match):
        simulate_opening(board, **arguments)
