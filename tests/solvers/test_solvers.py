import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minestats.foundations.board import Board
from minestats.mechanics.sampling import sample_mines
from minestats.solvers import SOLVERS, solve, solve_batch
from minestats.solvers.single_point import propagate
from minestats.solvers.state import CheckedGame
from tests.oracles.logic_reference import reference_logic_solve
from tests.oracles.reference import plain_single_point, random_layouts

TINY_SHAPES = [(4, 4), (5, 4), (4, 5), (5, 3), (3, 6), (6, 3), (2, 8)]


def _tiny_boards(seed, per_case):
    """Random (layout, click) pairs on boards of at most 20 cells, several densities.

    Half use the safe-opening placement around the centre, half a uniform placement
    with a random click (which may hit a mine or a number).
    """
    rng = np.random.default_rng(seed)
    for width, height in TINY_SHAPES:
        cells = width * height
        for mines in sorted({1, cells // 6, cells // 4, cells // 3, cells // 2}):
            centre = Board(width, height, 0).centre
            if mines <= cells - 9:
                for layout in random_layouts(rng, per_case, width, height, mines, centre):
                    yield layout, centre
            for layout in random_layouts(rng, per_case, width, height, mines):
                yield layout, (int(rng.integers(width)), int(rng.integers(height)))


def _same_outcome(first, second):
    return (first.solved == second.solved and first.lost == second.lost
            and np.array_equal(first.revealed, second.revealed)
            and np.array_equal(first.flagged, second.flagged))


def _assert_sound(layout, result):
    assert not (result.flagged & ~layout).any()
    if not result.lost:
        assert not (result.revealed & layout).any()
        assert result.solved == bool((result.revealed | layout).all())


def _check_logic_against_exhaustive(seed, per_case, use_mine_count):
    checked = solved = 0
    for layout, click in _tiny_boards(seed=seed, per_case=per_case):
        logic = solve(layout, click, solver="logic", use_mine_count=use_mine_count)
        reference = solve(layout, click, solver="exhaustive", use_mine_count=use_mine_count)
        assert not logic.capped
        assert _same_outcome(logic, reference), (layout.astype(int), click)
        checked += 1
        solved += logic.solved
    return checked, solved


@pytest.mark.parametrize("use_mine_count", [True, False])
def test_logic_agrees_with_exhaustive_on_tiny_boards(use_mine_count):
    checked, solved = _check_logic_against_exhaustive(21 + use_mine_count, 30, use_mine_count)
    assert checked >= 2000
    assert 0.2 * checked < solved < 0.95 * checked  # the sample holds both outcomes


@pytest.mark.slow
@pytest.mark.parametrize("use_mine_count", [True, False])
def test_logic_agrees_with_exhaustive_on_many_tiny_boards(use_mine_count):
    checked, _ = _check_logic_against_exhaustive(23 + use_mine_count, 400, use_mine_count)
    assert checked >= 25_000


@pytest.mark.parametrize("use_mine_count", [True, False])
def test_the_compiled_logic_solve_reaches_the_python_driven_solves_states(use_mine_count):
    # Same revealed and flagged cells, rounds and caps as the solve driven from Python
    # one stall at a time (tests/oracles/logic_reference.py), on boards of every size
    # and density, with budgets small enough that some stalls are capped.
    rng = np.random.default_rng(20261205 + use_mine_count)
    capped = solved = 0
    for board, rule, budget in [("9x9/10", "safe-click", 200_000),
                                ("16x16/40", "safe-opening", 200_000),
                                ("30x16/99", "safe-opening", 200_000),
                                ("30x16/99", "safe-opening", 40),
                                ("20x20/90", "safe-click", 15)]:
        click = (rng.integers(0, int(board.split("x")[0])), 2)
        for layout in sample_mines(board, 60, rule=rule, click=click, seed=rng):
            compiled = solve(layout, click, solver="logic", use_mine_count=use_mine_count,
                             max_configurations=budget)
            state, rounds, was_capped = reference_logic_solve(
                layout, click, use_mine_count=use_mine_count, max_configurations=budget)
            assert (compiled.rounds, compiled.capped, compiled.solved, compiled.lost) == (
                rounds, was_capped, state.won, state.lost), (board, budget)
            assert (compiled.revealed.ravel() == state.revealed).all()
            assert (compiled.flagged.ravel() == state.flagged).all()
            capped += compiled.capped
            solved += compiled.solved
    assert capped > 5 and solved > 30  # both ends are exercised


def test_solve_batch_runs_logic_as_solve_does_board_by_board():
    layouts = sample_mines("30x16/99", 80, rule="safe-opening", click="centre", seed=5)
    batch = solve_batch(layouts, "centre", max_configurations=50)
    one_by_one = [solve(layout, "centre", max_configurations=50) for layout in layouts]
    for name in ("solved", "capped", "lost"):
        assert getattr(batch, name).tolist() == [getattr(r, name) for r in one_by_one]
    assert batch.capped.any() and batch.solved.any()


def test_mine_count_helps_logic():
    # 1x5 "..X..": from the corner the 1 at x = 1 pins the mine at x = 2; only the
    # count tells that x = 3, 4, beyond the frontier, are free.
    layout = np.array([[0, 0, 1, 0, 0]], dtype=bool)
    assert solve(layout, "corner", use_mine_count=True).solved
    assert not solve(layout, "corner", use_mine_count=False).solved
    assert solve(layout, "corner", solver="exhaustive", use_mine_count=True).solved


def test_single_point_matches_plain_python():
    rng = np.random.default_rng(31)
    cases = [(9, 9, 10, 150), (16, 16, 40, 60), (30, 16, 99, 30), (8, 8, 10, 150),
             (5, 4, 4, 100), (1, 12, 3, 50)]
    for width, height, mines, n in cases:
        for safe_opening in (True, False):
            click = (width // 2, height // 2)
            layouts = random_layouts(rng, n, width, height, mines,
                                     click if safe_opening else None)
            batch = solve_batch(layouts, click, solver="single-point")
            for layout, batch_solved, batch_lost in zip(
                    layouts, batch.solved, batch.lost, strict=True):
                result = solve(layout, click, solver="single-point")
                reference = plain_single_point(layout.tolist(), click)
                assert (batch_solved, batch_lost) == (result.solved, result.lost)
                if reference is None:
                    assert result.lost
                    continue
                opened, flags = reference
                expected_open = np.zeros(layout.shape, dtype=bool)
                expected_flags = np.zeros(layout.shape, dtype=bool)
                for x, y in opened:
                    expected_open[y, x] = True
                for x, y in flags:
                    expected_flags[y, x] = True
                np.testing.assert_array_equal(result.revealed, expected_open)
                np.testing.assert_array_equal(result.flagged, expected_flags)



def test_single_point_stays_inside_its_arrays_on_every_tiny_layout(tmp_path):
    """The kernel writes a list's next entry before it knows whether to keep it (no
    branch on a cell's state), relying on that entry being inside the array. Compiled
    with numba's bounds checks (a fresh cache), every layout of five tiny boards from
    every click must pass without an IndexError and open and flag what the plain
    method does, and `propagate` must agree from each opening too."""
    script = textwrap.dedent("""
        import itertools
        import numpy as np
        from minestats.solvers.single_point import propagate, single_point_batch
        from minestats.solvers.state import CheckedGame
        from tests.oracles.reference import plain_single_point
        checked = 0
        for width, height in ((1, 1), (1, 2), (2, 2), (1, 5), (3, 3), (4, 3)):
            cells = width * height
            layouts = np.array(list(itertools.product((False, True), repeat=cells)),
                               dtype=bool).reshape(-1, height, width)
            for start in range(cells):
                click = (start % width, start // width)
                solved, lost = single_point_batch(layouts, start)
                for layout, won, died in zip(layouts, solved, lost, strict=True):
                    reference = plain_single_point(layout.tolist(), click)
                    assert died == (reference is None)
                    if died:
                        continue
                    state = CheckedGame(layout, click)
                    propagate(state)
                    opened, flags = reference
                    for mask, expected in ((state.revealed, opened), (state.flagged, flags)):
                        cells_set = {(i % width, i // width) for i in np.flatnonzero(mask)}
                        assert cells_set == expected
                    assert won == (len(opened) == cells - layout.sum())
                    checked += 1
        print(checked)
    """)
    root = Path(__file__).resolve().parents[2]
    environment = {**os.environ, "NUMBA_BOUNDSCHECK": "1", "NUMBA_CACHE_DIR": str(tmp_path)}
    answer = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            env=environment, cwd=root, timeout=600)
    assert answer.returncode == 0, answer.stderr[-500:]
    # every safe click of every layout: a board of c cells has c * 2 ** (c - 1)
    assert int(answer.stdout) == sum(c * 2 ** (c - 1) for c in (1, 2, 4, 5, 9, 12))


def _rule_still_applies(layout, result, use_mine_count):
    """Plain-Python check: can a single-point, pair or global-count rule still move?"""
    height, width = layout.shape
    hidden = {(x, y) for y in range(height) for x in range(width)
              if not result.revealed[y, x] and not result.flagged[y, x]}
    rules = []
    for y in range(height):
        for x in range(width):
            if not result.revealed[y, x]:
                continue
            around = [(x + dx, y + dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1)
                      if (dx or dy) and 0 <= x + dx < width and 0 <= y + dy < height]
            unknown = frozenset(c for c in around if c in hidden)
            left = sum(layout[v, u] for u, v in around) - sum(
                result.flagged[v, u] for u, v in around)
            if unknown:
                rules.append((unknown, left))
    for cells, mines in rules:
        if mines in (0, len(cells)):
            return True
        for other, other_mines in rules:
            extra = other - cells
            if cells < other and other_mines - mines in (0, len(extra)):
                return True
    remaining = int(layout.sum() - result.flagged.sum())
    return bool(hidden) and use_mine_count and remaining in (0, len(hidden))


@pytest.mark.parametrize("use_mine_count", [True, False])
def test_subset_stops_only_when_no_rule_applies(use_mine_count):
    rng = np.random.default_rng(35)
    boards = list(_tiny_boards(seed=36, per_case=6))
    for width, height, mines, n in ((9, 9, 10, 100), (16, 16, 40, 40), (30, 16, 99, 20)):
        centre = (width // 2, height // 2)
        boards += [(layout, centre)
                   for layout in random_layouts(rng, n, width, height, mines, centre)]
    for layout, click in boards:
        result = solve(layout, click, solver="subset", use_mine_count=use_mine_count)
        if not result.lost:
            assert not _rule_still_applies(layout, result, use_mine_count), (
                layout.astype(int), click)


def test_subset_flags_the_one_two_one_pattern():
    # The corner click opens the top two rows of this 3x3 board, showing 1 2 1 above
    # three hidden cells. Single-point is stuck (each number has more hidden cells
    # than mines); the pair {6, 7} < {6, 7, 8} with 2 - 1 = 1 extra mine flags 8,
    # the mirror pair flags 6, and then the 2 is satisfied, opening 7.
    layout = np.array([[0, 0, 0], [0, 0, 0], [1, 0, 1]], dtype=bool)
    assert not solve(layout, "corner", solver="single-point").solved
    result = solve(layout, "corner", solver="subset", use_mine_count=False)
    assert result.solved
    np.testing.assert_array_equal(result.flagged, layout)


def _check_monotone(boards):
    counts = np.zeros(3, dtype=int)
    for layout, click in boards:
        for use_mine_count in (True, False):
            results = [solve(layout, click, solver=solver, use_mine_count=use_mine_count)
                       for solver in ("single-point", "subset", "logic")]
            passed = [r.solved for r in results]
            assert passed == sorted(passed), (layout.astype(int), click, use_mine_count)
            # Each solver also opens at least what the weaker one opens.
            for weaker, stronger in zip(results, results[1:], strict=False):
                assert not (weaker.revealed & ~stronger.revealed).any()
            counts += passed
    return counts


def test_monotone_on_tiny_and_standard_boards():
    boards = list(_tiny_boards(seed=41, per_case=8))
    rng = np.random.default_rng(42)
    for width, height, mines, n in ((9, 9, 10, 150), (16, 16, 40, 60), (30, 16, 99, 30)):
        centre = (width // 2, height // 2)
        boards += [(layout, centre)
                   for layout in random_layouts(rng, n, width, height, mines, centre)]
    counts = _check_monotone(boards)
    assert counts[0] < counts[1] < counts[2]  # each step strictly helps somewhere


@pytest.mark.slow
def test_monotone_on_many_standard_boards():
    rng = np.random.default_rng(43)
    boards = []
    for width, height, mines, n in ((9, 9, 10, 15000), (16, 16, 40, 6000), (30, 16, 99, 3000)):
        centre = (width // 2, height // 2)
        boards += [(layout, centre)
                   for layout in random_layouts(rng, n, width, height, mines, centre)]
    _check_monotone(boards)


@st.composite
def _layouts_and_clicks(draw):
    width = draw(st.integers(1, 5))
    height = draw(st.integers(1, 4))  # at most 20 cells keeps exhaustive quick
    cells = draw(st.lists(st.booleans(), min_size=width * height, max_size=width * height))
    layout = np.array(cells, dtype=bool).reshape(height, width)
    click = (draw(st.integers(0, width - 1)), draw(st.integers(0, height - 1)))
    return layout, click


@settings(max_examples=150, deadline=None)
@given(_layouts_and_clicks(), st.booleans())
def test_no_solver_makes_an_unsound_move(board, use_mine_count):
    layout, click = board
    for solver in SOLVERS:
        result = solve(layout, click, solver=solver, use_mine_count=use_mine_count)
        _assert_sound(layout, result)
        assert result.lost == bool(layout[click[1], click[0]])


def test_unsound_moves_raise():
    layout = np.array([[0, 0, 0], [0, 0, 0], [0, 1, 1]], dtype=bool)
    state = CheckedGame(layout, "corner")
    with pytest.raises(RuntimeError, match=r"would flag cell \(0, 2\), which is safe"):
        state.flag_proven([6])
    with pytest.raises(RuntimeError, match=r"would open cell \(1, 2\), which is a mine"):
        state.open_proven([7])
    # A wrong flag (forced in, bypassing the check) makes single-point open a mine.
    state.flagged[6] = True
    with pytest.raises(RuntimeError, match=r"'single-point' would open cell \(1, 2\)"):
        propagate(state)


def test_capped_boards_are_reported_not_failed():
    rng = np.random.default_rng(51)
    layouts = random_layouts(rng, 40, 30, 16, 99, (15, 8))
    capped = [solve(layout, "centre", max_configurations=1) for layout in layouts]
    assert any(r.capped for r in capped)
    for layout, result in zip(layouts, capped, strict=True):
        full = solve(layout, "centre")
        assert not full.capped
        if result.capped:
            assert not result.solved
            # Capping only stops the solver early: what it did is part of the full run.
            assert not (result.revealed & ~full.revealed).any()
        else:
            assert _same_outcome(result, full)


def test_first_click_on_a_mine_loses():
    layout = np.array([[1, 0], [0, 0]], dtype=bool)
    for solver in SOLVERS:
        result = solve(layout, (0, 0), solver=solver)
        assert (result.lost, result.solved, result.capped, result.rounds) == (
            True, False, False, 0)
        np.testing.assert_array_equal(result.revealed, [[True, False], [False, False]])


def test_result_carries_inputs_and_converts_to_a_row():
    layout = np.array([[0, 0, 0, 0], [0, 0, 0, 0], [1, 0, 0, 1]], dtype=bool)
    result = solve(layout, "1,0", solver="subset", use_mine_count=False)
    assert (result.board, result.click, result.solver) == (Board(4, 3, 2), (1, 0), "subset")
    assert result.to_dict() == {
        "board": "4x3/2", "width": 4, "height": 3, "mines": 2, "density": 2 / 12,
        "rule": None, "click_x": 1, "click_y": 0,
        "solver": "subset", "use_mine_count": False, "max_configurations": 200_000,
        "solved": True, "capped": False, "lost": False, "rounds": 2,
        "revealed_cells": 10, "flagged_cells": 2}
    with pytest.raises(AttributeError):
        result.solved = False
    with pytest.raises(ValueError, match="read-only"):
        result.revealed[0, 0] = False


def test_batch_matches_single_boards_for_every_solver():
    rng = np.random.default_rng(61)
    layouts = random_layouts(rng, 40, 5, 4, 5)
    for solver in SOLVERS:
        batch = solve_batch(layouts, "corner", solver=solver, use_mine_count=False)
        singles = [solve(layout, "corner", solver=solver, use_mine_count=False)
                   for layout in layouts]
        assert batch.n == 40 and batch.board == Board(5, 4, 5)
        for name in ("solved", "capped", "lost"):
            np.testing.assert_array_equal(getattr(batch, name),
                                          [getattr(r, name) for r in singles])
        row = batch.to_dict()
        assert (row["n"], row["solved"]) == (40, sum(r.solved for r in singles))


def test_single_point_reproduces_published_beginner_rate():
    # Published: 0.637 +/- 0.021 (n = 2000, centre, safe-opening). Our rate over 4000
    # boards must lie within 4 combined standard errors of it.
    rng = np.random.default_rng(71)
    layouts = random_layouts(rng, 4000, 9, 9, 10, (4, 4))
    rate = solve_batch(layouts, "centre", solver="single-point").solved.mean()
    error = np.sqrt(0.637 * 0.363 * (1 / 2000 + 1 / 4000))
    assert abs(rate - 0.637) < 4 * error


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [({"solver": "guess"}, "solver 'guess' is not one of"),
     ({"use_mine_count": 1}, r"use_mine_count \(1\) must be True or False"),
     ({"max_configurations": 0}, r"max_configurations \(0\) must be a positive integer"),
     ({"max_configurations": 2.5}, r"max_configurations \(2.5\)"),
     ({"max_configurations": 10**30}, r"max_configurations \(10+\) must be at most 1_000_")],
)
def test_bad_options_raise(kwargs, match):
    with pytest.raises(ValueError, match=match):
        solve(np.zeros((3, 3), dtype=bool), "centre", **kwargs)


def test_bad_layouts_and_clicks_raise():
    with pytest.raises(ValueError, match="shape"):
        solve(np.zeros((2, 3, 3), dtype=bool), "centre")
    with pytest.raises(ValueError, match="shape"):
        solve_batch(np.zeros((3, 3), dtype=bool), "centre")
    with pytest.raises(ValueError, match=r"click \(5, 0\) is off the 3x3 board"):
        solve(np.zeros((3, 3), dtype=bool), (5, 0))
    with pytest.raises(ValueError, match=r"at most 30 cells; this one has 36 \(6x6\)"):
        solve(np.zeros((6, 6), dtype=bool), "centre", solver="exhaustive")
