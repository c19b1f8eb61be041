"""Every result class compares and hashes without raising: arrays elementwise, timings left out."""

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from minestats import (
    bbbv_histogram,
    compare,
    generate_no_guess,
    generate_no_guess_batch,
    pass_rate,
    simulate_opening,
    win_rate,
)
from minestats.foundations.result import TIMING_FIELDS, Result
from minestats.inference import board_consistency, counts_from_layout, mine_probabilities
from minestats.inference import reconstruct as reconstruct_counts
from minestats.io.replay_analysis import analyse_replay
from minestats.mechanics.sampling import sample_mines
from minestats.players import move_values, play
from minestats.solvers import solve, solve_batch
from minestats.stats.fits import fit_pass_rate_curve

LAYOUTS = sample_mines("6x6/5", 4, rule="safe-click", click=(0, 0), seed=3)
POSITION = np.array([[1, -1], [-1, -1]])

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

MAKERS = {  # each builds its result afresh from the same inputs and seed
    "OpeningSimulation": lambda: simulate_opening("6x6/5", rule="uniform", n=20, seed=1,
                                                  workers=1),
    "PassRate": lambda: pass_rate("6x6/5", solver="logic", n=20, seed=1, workers=1),
    "BBBVHistogram": lambda: bbbv_histogram("6x6/5", n=20, seed=1, workers=1),
    "BBBVShare": lambda: bbbv_histogram("6x6/5", n=20, seed=1, workers=1).share(3, 6),
    "WinRate": lambda: win_rate("5x5/3", policy="best", n=20, seed=1, workers=1),
    "Comparison": lambda: compare("5x5/3", policies=["safest", "best"], n=10, seed=1,
                                  workers=1),
    "PairedComparison": lambda: compare("5x5/3", policies=["safest", "best"], n=10, seed=1,
                                        workers=1).pair("best", "safest"),
    "NoGuessResult": lambda: generate_no_guess("6x6/4", (2, 2), seed=1),
    "NoGuessBatch": lambda: generate_no_guess_batch("6x6/4", (2, 2), n=3, seed=1, workers=1),
    "GameResult": lambda: play(LAYOUTS[0], (0, 0), seed=1),
    "SolveResult": lambda: solve(LAYOUTS[0], solver="logic", click=(0, 0)),
    "BatchSolveResult": lambda: solve_batch(LAYOUTS, (0, 0), solver="logic"),
    "ConsistencyResult": lambda: board_consistency(POSITION, mines=1),
    "MineProbabilities": lambda: mine_probabilities(POSITION, mines=1),
    "MoveValues": lambda: move_values("0111\n????\n????\n????", mines=3, n=20, seed=1),
    "GameAnalysis": lambda: analyse_replay(EXAMPLES / "game.evf"),
    "ReconstructResult": lambda: reconstruct_counts(counts_from_layout(LAYOUTS[0])),
    "PassRateCurve": lambda: fit_pass_rate_curve([90, 70, 40, 15], [100] * 4,
                                                 [0.1, 0.15, 0.2, 0.25], degree=1),
}


@pytest.mark.parametrize("name", MAKERS)
def test_a_result_equals_its_rerun_and_hashes_alike(name):
    first, again = MAKERS[name](), MAKERS[name]()
    assert type(first).__name__ == name and isinstance(first, Result)
    assert first == again and not first != again
    assert hash(first) == hash(again)
    assert len({first, again}) == 1


def changed(result):
    """A copy of ``result`` with one compared field changed (an array, where it has one)."""
    fields = [f for f in dataclasses.fields(result)
              if f.compare and f.init and f.name not in TIMING_FIELDS]
    for f in fields:
        value = getattr(result, f.name)
        if isinstance(value, np.ndarray) and value.size:
            other = value.copy()
            flat = other.reshape(-1)
            if other.dtype == bool:
                flat[0] = not flat[0]
            elif other.dtype.kind in "iuf" and np.isfinite(flat).any():
                k = int(np.flatnonzero(np.isfinite(flat))[0])
                flat[k] += 1
            else:
                continue
            return dataclasses.replace(result, **{f.name: other})
    for f in fields:
        value = getattr(result, f.name)
        if isinstance(value, int | np.integer) and not isinstance(value, bool):
            return dataclasses.replace(result, **{f.name: value + 1})
    raise AssertionError(f"{type(result).__name__} has no field to change")


@pytest.mark.parametrize("name", MAKERS)
def test_a_result_differs_when_what_it_found_differs(name):
    result = MAKERS[name]()
    assert result != changed(result)
    assert result != "something else"


@pytest.mark.parametrize("name", MAKERS)
def test_every_array_a_result_holds_is_read_only(name):
    result = MAKERS[name]()
    arrays = {f.name: getattr(result, f.name) for f in dataclasses.fields(result)
              if isinstance(getattr(result, f.name), np.ndarray)}
    assert all(not array.flags.writeable for array in arrays.values()), sorted(
        field for field, array in arrays.items() if array.flags.writeable)


def test_a_result_leaves_the_array_it_was_made_from_writeable():
    """The one rule makes read-only views: the caller's own array is not touched."""
    layout = np.zeros((2, 3), dtype=bool)
    result = dataclasses.replace(MAKERS["NoGuessResult"](), layout=layout)
    assert layout.flags.writeable and not result.layout.flags.writeable
    assert np.shares_memory(layout, result.layout)


def test_timings_are_left_out_of_equality():
    result = MAKERS["PassRate"]()
    assert dataclasses.replace(result, seconds=result.seconds + 5) == result


def result_classes():
    """Every subclass of `Result` the package defines, by name (its bases left out)."""
    import importlib
    import pkgutil

    import minestats
    from minestats.stats import ProportionResult

    found = {}
    for module in pkgutil.walk_packages(minestats.__path__, "minestats."):
        if not module.name.endswith("__main__"):
            for name, value in vars(importlib.import_module(module.name)).items():
                if isinstance(value, type) and issubclass(value, Result) \
                        and value not in (Result, ProportionResult):
                    found[name] = value
    return found


def test_every_result_class_is_exported_and_covered_here():
    import minestats

    classes = result_classes()
    assert "WinRate" in classes and "MineProbabilities" in classes
    assert sorted(classes) == sorted(MAKERS)
    assert [name for name in classes if getattr(minestats, name, None) is not classes[name]] == []
    assert set(classes) <= set(minestats.__all__)


@pytest.mark.parametrize("name", MAKERS)
def test_to_frame_is_always_the_one_row_of_to_dict(name):
    result = MAKERS[name]()
    row, frame = result.to_dict(), result.to_frame()
    assert len(frame) == 1 and list(frame.columns) == list(row)
    assert all(same_cell(frame.iloc[0][column], value) for column, value in row.items())


def same_cell(cell, value):
    """A frame's cell holds the row's value (NaN and None read back as missing)."""
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return cell is None or (isinstance(cell, float) and np.isnan(cell))
    return bool(cell == value) if np.ndim(value) == 0 else bool(np.all(cell == value))


def test_results_of_many_items_name_their_tables_after_them():
    simulation = simulate_opening("4x3/2", rule="uniform", n=50, seed=4, workers=1)
    assert len(simulation.per_click()) == 12 and simulation.to_dict()["positions"] == 12
    comparison = MAKERS["Comparison"]()
    assert len(comparison.per_contender()) == 2 and len(comparison.per_pair()) == 1
    assert comparison.to_dict()["contender_1"] == "best"
    assert len(MAKERS["NoGuessBatch"]().per_board()) == 3
    histogram = MAKERS["BBBVHistogram"]()
    assert histogram.per_value()["count"].sum() == histogram.to_dict()["n"] == 20
