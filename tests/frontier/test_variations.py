"""The variations against brute force and against the varied position analysed again.

`chance_given_mines` against the position with its given cells flagged;
`chance_given_reveal` against the position with its cell revealed and showing each
number it can.
"""

import math

import numpy as np
import pytest

from minestats.frontier.engine import FITS, NO_FIT, OVER_BUDGET, analyse_position
from minestats.frontier.variations import (
    chance_given_mines,
    chance_given_reveal,
    reveal_variation,
    variation_basis,
)
from minestats.mechanics.game import neighbour_table
from minestats.mechanics.sampling import sample_mines
from minestats.solvers import SolverOptions, deduce
from minestats.solvers.state import CheckedGame
from tests.oracles.probabilities import brute_force, random_position


def _flat(numbers, unknown, flags):
    height, width = numbers.shape
    return (np.where(unknown, 0, numbers).ravel().astype(np.int8), neighbour_table(width, height),
            ~unknown.ravel(), flags.ravel().copy())


def test_equals_brute_force_with_the_given_cells_flagged_on_random_small_positions():
    rng = np.random.default_rng(20261203)
    compared = no_fit = off_frontier = several_groups = 0
    while compared < 600:
        numbers, unknown, flags, mines = random_position(rng)
        if mines is None or (unknown & ~flags).sum() > 12:
            continue
        flat, table, revealed, flagged = _flat(numbers, unknown, flags)
        width = numbers.shape[1]
        basis = variation_basis(flat, table, revealed, flagged, width, mines, 10**6)
        open_cells = np.flatnonzero(~revealed & ~flagged)
        if open_cells.size == 0 or brute_force(numbers, unknown, flags, mines)[0] == 0:
            continue
        assert basis.status == FITS
        given = rng.permutation(open_cells)[:rng.integers(1, min(open_cells.size, 3) + 1)]
        given = np.concatenate((given, np.flatnonzero(flagged)[:1]))  # a flag may be given too
        targets = rng.permutation(flat.size)[:4]
        probability = np.empty(targets.size)
        status, log_solutions = chance_given_mines(basis, given, targets, probability, 10**6)
        with_given = flags.ravel().copy()
        with_given[given] = True
        fits, expected = brute_force(numbers, unknown, with_given.reshape(flags.shape), mines)
        if not fits:
            assert status == NO_FIT and log_solutions == -np.inf
            assert np.isnan(probability).all()
            no_fit += 1
            continue
        assert status == FITS
        assert log_solutions == pytest.approx(math.log(fits), rel=1e-9)
        for target, value in zip(targets, probability, strict=True):
            y, x = divmod(int(target), width)
            if revealed[target]:
                assert np.isnan(value)
            elif with_given[target]:
                assert value == 1.0
            else:
                assert value == pytest.approx(float(expected[y, x]), rel=1e-9, abs=1e-12)
        off_frontier += (basis.cell_group[given] == -1).any()
        several_groups += np.unique(basis.cell_group[given][basis.cell_group[given] >= 0]).size > 1
        compared += 1
    assert no_fit > 50 and off_frontier > 50 and several_groups > 50


def test_a_revealed_given_cell_fits_no_layout():
    numbers = np.array([1, 0, 0, 0, 0, 0], dtype=np.int8)
    revealed = np.array([1, 0, 0, 0, 0, 0], dtype=bool)
    basis = variation_basis(numbers, neighbour_table(3, 2), revealed, np.zeros(6, bool), 3, 2,
                              1000)
    probability = np.empty(1)
    assert chance_given_mines(basis, np.array([0]), np.array([1]), probability, 1000) == (
        NO_FIT, -np.inf)
    assert np.isnan(probability).all()


def test_equals_the_position_analysed_again_with_the_cells_flagged_on_expert_stalls():
    # Positions of the size the player meets: many components, most of them reused.
    rng = np.random.default_rng(20261204)
    compared = 0
    for layout in sample_mines("expert", 40, rule="safe-click", click=(0, 0), seed=rng):
        state = CheckedGame(layout, (0, 0))
        while not state.over and compared < 400:
            deduce(state, SolverOptions())
            if state.over:
                break
            numbers, revealed, flagged = state.numbers, state.revealed, state.flagged
            basis = variation_basis(numbers, state.table, revealed, flagged, 30, 99, 10**5)
            open_cells = np.flatnonzero(~revealed & ~flagged)
            if open_cells.size < 4:
                break
            for _ in range(5):
                given = rng.choice(open_cells, size=rng.integers(1, 4), replace=False)
                targets = rng.choice(open_cells, size=3, replace=False)
                probability = np.empty(3)
                status, log_solutions = chance_given_mines(basis, given, targets, probability,
                                                           10**5)
                marked = flagged.copy()
                marked[given] = True
                expected = np.empty(numbers.size)
                scratch = np.empty(numbers.size, dtype=np.int64)
                again, log_again, _, _ = analyse_position(
                    numbers, state.table, revealed, marked, 30, 99, 10**5, True, True, expected,
                    scratch, scratch.copy(), np.empty(0, dtype=np.int64))
                assert again != OVER_BUDGET
                assert status == again
                if status == FITS:
                    assert log_solutions == pytest.approx(log_again, rel=1e-12, abs=1e-9)
                    np.testing.assert_allclose(probability, expected[targets], rtol=1e-9,
                                               atol=1e-12)
                compared += 1
            safe = np.flatnonzero(~revealed & ~state.mines)
            state.open_index(int(rng.choice(safe)))  # go on as if a guess had been safe
    assert compared == 400


def test_a_reveal_equals_brute_force_with_the_cell_showing_each_number_on_small_positions():
    rng = np.random.default_rng(20261205)
    compared = values = no_fit = merging = outside = 0
    while compared < 500:
        numbers, unknown, flags, mines = random_position(rng)
        if mines is None or (unknown & ~flags).sum() > 12:
            continue
        flat, table, revealed, flagged = _flat(numbers, unknown, flags)
        width = numbers.shape[1]
        open_cells = np.flatnonzero(~revealed & ~flagged)
        if open_cells.size == 0 or brute_force(numbers, unknown, flags, mines)[0] == 0:
            continue
        basis = variation_basis(flat, table, revealed, flagged, width, mines, 10**6)
        cell = int(rng.choice(open_cells))
        reveal = reveal_variation(basis, table, cell)
        y, x = divmod(cell, width)
        for value in range(-1, 10):  # every number, those no layout can show too
            probability = np.empty(flat.size)
            status, log_solutions = chance_given_reveal(reveal, value, probability, 10**6)
            shown, opened = numbers.copy(), unknown.copy()
            shown[y, x], opened[y, x] = value, False
            fits, expected = brute_force(shown, opened, flags, mines)
            if not fits:
                assert status == NO_FIT and log_solutions == -np.inf
                no_fit += 1
                continue
            assert status == FITS
            assert log_solutions == pytest.approx(math.log(fits), rel=1e-9)
            want = np.where(opened.ravel(), 0.0, np.nan)
            want[flags.ravel()] = 1.0
            for (row, column), share in expected.items():
                want[row * width + column] = float(share)
            np.testing.assert_allclose(probability, want, rtol=1e-9, atol=1e-12)
            values += 1
        merging += _components_touched(basis, table, cell) > 1
        outside += (basis.cell_group[table[cell][table[cell] >= 0]] == -1).any()
        compared += 1
    assert values > 400 and no_fit > 4000 and merging > 5 and outside > 100


def _components_touched(basis, table, cell):
    """How many components hold the cell or one of its neighbours."""
    around = table[cell][table[cell] >= 0]
    groups = basis.cell_group[around]
    return np.unique(basis.group_component[groups[groups >= 0]]).size


def test_a_reveal_equals_the_position_analysed_again_on_expert_stalls():
    rng = np.random.default_rng(20261206)
    compared = merging = 0
    table = None
    for layout in sample_mines("expert", 40, rule="safe-click", click=(0, 0), seed=rng):
        state = CheckedGame(layout, (0, 0))
        table = state.table
        while not state.over and compared < 300:
            deduce(state, SolverOptions())
            if state.over:
                break
            numbers, revealed, flagged = state.numbers, state.revealed, state.flagged
            basis = variation_basis(numbers, table, revealed, flagged, 30, 99, 10**5)
            open_cells = np.flatnonzero(~revealed & ~flagged)
            cells = list(rng.choice(open_cells, size=min(2, open_cells.size), replace=False))
            bridges = [cell for cell in open_cells if _components_touched(basis, table, cell) > 1]
            cells += list(rng.choice(bridges, size=min(1, len(bridges))))
            for cell in cells:
                reveal = reveal_variation(basis, table, cell)
                merging += reveal.front.component_starts.size - 1 < basis.component_starts.size - 1
                opened = revealed.copy()
                opened[cell] = True
                imagined = numbers.copy()
                for value in range(9):
                    imagined[cell] = value
                    probability = np.empty(numbers.size)
                    status, log_solutions = chance_given_reveal(reveal, value, probability,
                                                                10**5)
                    expected = np.empty(numbers.size)
                    scratch = np.empty(numbers.size, dtype=np.int64)
                    again, log_again, _, _ = analyse_position(
                        imagined, table, opened, flagged, 30, 99, 10**5, True, True, expected,
                        scratch, scratch.copy(), np.empty(0, dtype=np.int64))
                    assert again != OVER_BUDGET and status == again
                    if status == FITS:
                        assert log_solutions == pytest.approx(log_again, rel=1e-12, abs=1e-9)
                        np.testing.assert_allclose(probability, expected, rtol=1e-9,
                                                   atol=1e-12)
                compared += 1
            safe = np.flatnonzero(~revealed & ~state.mines)
            state.open_index(int(rng.choice(safe)))  # go on as if a guess had been safe
    assert compared >= 300 and merging > 50
