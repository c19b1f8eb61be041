"""Every driver records the seed label the user gave, and the label gives the run back."""

import numpy as np
import pytest

from minestats import (
    bbbv_histogram,
    compare,
    generate_no_guess_batch,
    pass_rate,
    simulate_opening,
    win_rate,
)
from minestats.drivers.pass_rates import pass_rate_sweep
from minestats.drivers.win_rates import win_rate_sweep

DRIVERS = {
    "simulate_opening": lambda seed: simulate_opening("6x6/5", rule="uniform", n=20,
                                                      seed=seed, workers=1),
    "pass_rate": lambda seed: pass_rate("6x6/5", solver="single-point", n=20, seed=seed,
                                        workers=1),
    "bbbv_histogram": lambda seed: bbbv_histogram("6x6/5", n=20, seed=seed, workers=1),
    "win_rate": lambda seed: win_rate("5x5/3", policy="safest", n=20, seed=seed, workers=1),
    "compare": lambda seed: compare("5x5/3", policies=["safest", "best"], n=10, seed=seed,
                                    workers=1),
    "generate_no_guess_batch": lambda seed: generate_no_guess_batch(
        "6x6/4", (2, 2), n=3, seed=seed, workers=1),
}
SEEDS = [42, "2026-11-29", "42/3/7"]


@pytest.mark.parametrize("seed", SEEDS, ids=str)
@pytest.mark.parametrize("driver", DRIVERS)
def test_a_driver_records_the_seed_it_was_given(driver, seed):
    assert DRIVERS[driver](seed).seed == seed


@pytest.mark.parametrize("driver", ["win_rate", "pass_rate"])
def test_a_child_label_gives_the_child_run(driver):
    """Seeded with the label "42/3", a run repeats the one seeded with child 3 of 42."""
    by_label = DRIVERS[driver]("42/3")
    by_sequence = DRIVERS[driver](np.random.SeedSequence(42, spawn_key=(3,)))
    assert by_label.successes == by_sequence.successes and by_sequence.seed == "42/3"


@pytest.mark.parametrize("seed", SEEDS, ids=str)
@pytest.mark.parametrize("sweep", [
    lambda seed: win_rate_sweep([{"board": "5x5/3", "policy": "safest"}] * 2, n=10,
                                seed=seed, workers=1),
    lambda seed: pass_rate_sweep([{"board": "6x6/5", "solver": "single-point"}] * 2, n=10,
                                 seed=seed, workers=1),
], ids=["win_rate_sweep", "pass_rate_sweep"])
def test_a_sweep_labels_row_i_as_child_i_of_the_seed_given(sweep, seed):
    assert sweep(seed)["seed"].tolist() == [f"{seed}/0", f"{seed}/1"]
