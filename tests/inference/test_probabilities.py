"""Exact mine probabilities against brute-force enumeration of every layout."""

import math
from collections import Counter
from fractions import Fraction
from itertools import combinations

import numpy as np
import pytest

from minestats.inference import board_consistency, mine_probabilities
from minestats.inference.probabilities import MineProbabilities, exact_probabilities
from minestats.mechanics.game import neighbour_counts
from tests.oracles.probabilities import brute_force, random_position


def test_equals_brute_force_exactly_on_2000_random_small_positions():
    rng = np.random.default_rng(20261130)
    checked = inconsistent = 0
    while checked < 2000:
        numbers, unknown, flags, mines = random_position(rng)
        if (unknown & ~flags).sum() > 12:
            continue
        fits, expected = brute_force(numbers, unknown, flags, mines)
        checked += 1
        if not fits:
            inconsistent += 1
            with pytest.raises(ValueError, match="no layout fits"):
                mine_probabilities(numbers, flags=flags, mines=mines)
            continue
        result = mine_probabilities(numbers, flags=flags, mines=mines, exact=True)
        assert result.n_solutions == fits
        for (y, x), fraction in expected.items():
            assert result.fractions[y, x] == fraction, (numbers, flags, mines, (x, y))
            assert result.probability[y, x] == float(fraction)
        assert (result.probability[flags] == 1).all()
        assert np.isnan(result.probability[~unknown]).all()
        assert all(f is None for f in result.fractions[~unknown])
    assert 20 < inconsistent < 600


def test_the_float_path_equals_brute_force_without_entering_the_exact_engine(monkeypatch):
    # The float path is the compiled frontier engine: the exact counts are taken only
    # when the layout count is read (it must be an exact int), never for the floats.
    from minestats.inference import probabilities

    entered = []

    def exact_count(*args, **kwargs):
        entered.append(args)
        return original(*args, **kwargs)

    original = probabilities._probabilities
    monkeypatch.setattr(probabilities, "_probabilities", exact_count)
    rng = np.random.default_rng(20261205)
    checked = 0
    while checked < 1000:
        numbers, unknown, flags, mines = random_position(rng)
        if mines is None or (unknown & ~flags).sum() > 12:
            continue
        fits, expected = brute_force(numbers, unknown, flags, mines)
        checked += 1
        if not fits:
            with pytest.raises(ValueError, match="no layout fits"):
                mine_probabilities(numbers, flags=flags, mines=mines)
            continue
        result = mine_probabilities(numbers, flags=flags, mines=mines)
        for (y, x), fraction in expected.items():
            assert result.probability[y, x] == pytest.approx(float(fraction), rel=1e-12,
                                                             abs=1e-15)
            if fraction in (0, 1):  # proven cells are exactly 0 or 1
                assert result.probability[y, x] == fraction
        assert (result.probability[flags] == 1).all()
        assert np.isnan(result.probability[~unknown]).all()
        assert not entered
        assert result.n_solutions == fits and len(entered) == 1
        entered.clear()


def test_the_float_paths_result_pickles_and_compares_by_its_exact_count():
    import pickle

    numbers = [[1, -1, -1], [-1, -1, -1], [-1, -1, -1]]
    fast = mine_probabilities(numbers, mines=2)
    assert fast.fractions is None
    again = pickle.loads(pickle.dumps(fast))
    assert again == fast == MineProbabilities(fast.probability, None, 15, 2)
    assert fast != MineProbabilities(fast.probability, None, 16, 2)
    assert again.n_solutions == 15 and hash(again) == hash(fast)
    assert "n_solutions=15" in repr(fast)


def test_agrees_with_the_consistency_count_and_forced_cells():
    rng = np.random.default_rng(7)
    for _ in range(200):
        numbers, unknown, flags, mines = random_position(rng)
        counted = board_consistency(numbers, flags=flags, mines=mines)
        if not counted.consistent:
            continue
        result = mine_probabilities(numbers, flags=flags, mines=mines)
        assert result.n_solutions == counted.n_solutions
        assert ((result.probability == 0) == counted.forced_safe).all()
        open_cells = unknown & ~flags
        assert ((result.probability == 1) & open_cells == counted.forced_mine).all()


def test_off_frontier_cells_share_the_mines_left_over():
    # Expert-sized board, one revealed 0 in the corner: its 3 neighbours are safe...
    numbers = np.full((16, 30), -1)
    numbers[0, 0] = 0
    result = mine_probabilities(numbers, mines=99, exact=True)
    assert result.fractions[15, 29] == Fraction(99, 480 - 4)
    assert result.fractions[0, 1] == 0 and result.n_solutions > 0


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [({"numbers": [[1, -1]], "exact": "yes"}, r"exact \('yes'\) must be True or False"),
     ({"numbers": [[9, -1]]}, r"revealed number at cell \(0, 0\) \(9\) must be in 0..8"),
     ({"numbers": [[1, -1]], "mines": 5}, r"mines \(5\) must be between 0 and 2")],
)
def test_bad_input_is_a_one_line_value_error(kwargs, message):
    with pytest.raises(ValueError, match=message):
        mine_probabilities(**kwargs)


def test_the_fast_float_path_agrees_with_the_exact_engine():
    # Positions that arise in play: a game after its first click and some safe opens.
    from minestats.inference.probabilities import position_probabilities
    from minestats.mechanics.game import Game
    from minestats.mechanics.sampling import sample_mines

    rng = np.random.default_rng(5)
    compared = 0
    for board in ("9x9/10", "16x16/40", "30x16/99", "8x8/20"):
        for layout in sample_mines(board, 15, rule="safe-click", click=(0, 0), seed=rng):
            game = Game(layout)
            game.open((0, 0))
            safe = np.flatnonzero(~layout.ravel() & ~game.revealed)
            for cell in rng.choice(safe, size=min(3, safe.size), replace=False):
                if not game.revealed[cell]:
                    game.open_index(int(cell))
            game.flagged[:] = layout.ravel() & (rng.random(layout.size) < 0.3)
            game.flagged &= ~game.revealed
            fast = position_probabilities(game.numbers, game.table, game.revealed,
                                          game.flagged, layout.shape[1], int(layout.sum()),
                                          budget=10**6)
            numbers = np.where(game.revealed, game.numbers, -1).reshape(layout.shape)
            exact = exact_probabilities(numbers, flags=game.flagged.reshape(layout.shape),
                                        mines=int(layout.sum()))
            np.testing.assert_allclose(fast.probability, exact.probability.ravel(),
                                       rtol=1e-9, atol=1e-12)
            assert np.isclose(fast.log_solutions, math.log(exact.n_solutions))
            compared += 1
    assert compared == 60


def test_the_fast_path_gives_up_past_its_budget_and_reports_no_fit():
    from minestats.inference.probabilities import position_probabilities
    from minestats.mechanics.game import neighbour_table

    revealed = np.zeros(16, dtype=bool)
    revealed[[0, 3]] = True
    numbers = np.zeros(16, dtype=np.int8)
    numbers[[0, 3]] = 3  # each corner's 3 neighbours all mined: 6 mines needed
    table = neighbour_table(4, 4)
    none = position_probabilities(numbers, table, revealed, ~revealed & False, 4, 5,
                                  budget=100)
    assert none.log_solutions == -np.inf
    assert position_probabilities(numbers, table, revealed, ~revealed & False, 4, 6,
                                  budget=1) is None


def test_the_fast_path_agrees_on_positions_no_game_reaches():
    # Revealed zeros with hidden neighbours (a player imagining a cell open) and
    # numbers revealed anywhere: the fast path must count them like the exact engine.
    from minestats.inference.probabilities import position_probabilities
    from minestats.mechanics.game import neighbour_table

    rng = np.random.default_rng(23)
    compared = 0
    while compared < 300:
        numbers, unknown, flags, mines = random_position(rng)
        if mines is None:
            continue
        height, width = numbers.shape
        fast = position_probabilities(np.where(unknown, 0, numbers).ravel().astype(np.int8),
                                      neighbour_table(width, height), ~unknown.ravel(),
                                      flags.ravel(), width, mines, budget=10**6)
        fits, _ = brute_force(numbers, unknown, flags, mines)
        if not fits:
            assert fast.log_solutions == -math.inf
            continue
        exact = exact_probabilities(numbers, flags=flags, mines=mines)
        np.testing.assert_allclose(fast.probability, exact.probability.ravel(), rtol=1e-9)
        assert np.isclose(fast.log_solutions, math.log(exact.n_solutions))
        compared += 1


def test_the_fast_path_weighs_a_run_off_the_frontier_like_brute_force():
    # `analyse`'s run (Windows XP's stretch of its order between frontier cells): each
    # layout counts 1 + the cells of the run it mines before its first safe one.
    from minestats.frontier.engine import NO_FIT, analyse
    from minestats.mechanics.game import neighbour_table

    rng = np.random.default_rng(29)
    compared = unflagged = 0
    while compared < 400:
        numbers, unknown, flags, mines = random_position(rng)
        if mines is None or (unknown & ~flags).sum() > 12:
            continue
        height, width = numbers.shape
        padded = np.pad(~unknown, 1)
        next_to_revealed = np.zeros_like(unknown)
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                next_to_revealed |= padded[1 + dy:1 + dy + height, 1 + dx:1 + dx + width]
        allowed = np.flatnonzero(unknown & (flags | ~next_to_revealed))
        if allowed.size == 0:
            continue
        run = rng.permutation(allowed)[:rng.integers(1, allowed.size + 1)]
        fits, expected = brute_force(
            numbers, unknown, flags, mines,
            weigh=lambda layout, run=run: 1 + next(
                (k for k, cell in enumerate(run) if not layout.flat[cell]), run.size))
        result = analyse(np.where(unknown, 0, numbers).ravel().astype(np.int8),
                         neighbour_table(width, height), ~unknown.ravel(), flags.ravel(),
                         width, mines, budget=10**6, run=run)
        if not fits:
            assert result.status == NO_FIT
            continue
        for (y, x), fraction in expected.items():
            assert result.probability[y * width + x] == pytest.approx(float(fraction),
                                                                      rel=1e-9, abs=1e-12)
        assert result.log_solutions == pytest.approx(math.log(fits), rel=1e-9)
        compared += 1
        unflagged += (~flags.ravel()[run]).sum() > 1
    assert unflagged > 100  # runs of several cells off the frontier, not only flags


def test_flagging_frontier_cells_on_a_built_frontier_equals_brute_force():
    # `flag_frontier_cell` then `analyse_frontier` (the Windows XP mixture's later
    # stretches), against every layout with those cells flagged: groups emptied, and
    # numbers closed by the flags, which must then need no more mines.
    from minestats.frontier.engine import (
        FITS,
        analyse_frontier,
        closed_number_disagrees,
        flag_frontier_cell,
        frontier_groups,
    )
    from minestats.mechanics.game import neighbour_table

    rng = np.random.default_rng(31)
    compared = no_fit = emptied = 0
    while compared < 400:
        numbers, unknown, flags, mines = random_position(rng)
        if mines is None or (unknown & ~flags).sum() > 12:
            continue
        height, width = numbers.shape
        table = neighbour_table(width, height)
        flat = np.where(unknown, 0, numbers).ravel().astype(np.int8)
        revealed, flagged = ~unknown.ravel(), flags.ravel().copy()
        if closed_number_disagrees(flat, table, revealed, flagged):
            continue
        front = frontier_groups(flat, table, revealed, flagged, width)
        cells = np.flatnonzero(front.frontier)
        if cells.size == 0:
            continue
        for cell in rng.permutation(cells)[:rng.integers(1, min(cells.size, 3) + 1)]:
            front = flag_frontier_cell(front, cell)
            flagged[cell] = True
        emptied += (front.sizes == 0).any()
        probability = np.empty(flat.size)
        status, log_solutions, _, _ = analyse_frontier(
            front, revealed, flagged, mines, 10**6, True, True, probability,
            np.empty(flat.size, dtype=np.int64), np.empty(flat.size, dtype=np.int64),
            np.empty(0, dtype=np.int64))
        fits, expected = brute_force(numbers, unknown, flagged.reshape(height, width), mines)
        if not fits:
            assert status != FITS
            no_fit += 1
            continue
        assert status == FITS
        for (y, x), fraction in expected.items():
            assert probability[y * width + x] == pytest.approx(float(fraction), rel=1e-9,
                                                               abs=1e-12)
        assert (probability[flagged] == 1).all()
        assert log_solutions == pytest.approx(math.log(fits), rel=1e-9)
        compared += 1
    assert no_fit > 100 and emptied > 100


def test_a_search_past_its_budget_says_capped_in_the_library_and_the_command(tmp_path,
                                                                               capsys):
    from minestats import SearchBudgetExceeded
    from minestats.cli import main

    numbers = [[1, -1, -1], [-1, -1, -1], [-1, -1, 1]]
    with pytest.raises(SearchBudgetExceeded, match="max_configurations = 1 configurations"):
        mine_probabilities(numbers, mines=2, max_configurations=1)
    assert mine_probabilities(numbers, mines=2).n_solutions > 0
    path = tmp_path / "position.txt"
    path.write_text("1??\n???\n??1\n")
    assert main(["probabilities", str(path), "--mines", "2", "--max-configurations", "1"]) == 3
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "capped" in err


def winxp_deals(width, height, mines, click):
    """Every layout Windows XP deals from ``click``, with how many draws give it.

    The rule itself, not the weight formula: each of the C(cells, mines) draws, a
    mine on the click moved to the first mine-free cell in row-major order.
    """
    cells, start = width * height, click[0] + click[1] * width
    order = [cell for cell in range(cells) if cell != start]
    deals = Counter()
    for drawn in combinations(range(cells), mines):
        layout = np.zeros(cells, dtype=bool)
        layout[list(drawn)] = True
        if layout[start]:
            layout[start] = False
            layout[next(cell for cell in order if not layout[cell])] = True
        deals[layout.tobytes()] += 1
    layouts = np.array([np.frombuffer(key, dtype=bool) for key in deals])
    return layouts, np.array(list(deals.values()))


def test_winxp_probabilities_equal_the_rules_own_deals_on_2000_positions():
    rng = np.random.default_rng(19)
    checked = weighted = 0
    for width, height, mines in [(3, 3, 2), (4, 3, 3), (3, 4, 4), (4, 4, 3), (4, 4, 5)]:
        for _ in range(8):
            click = (int(rng.integers(width)), int(rng.integers(height)))
            layouts, draws = winxp_deals(width, height, mines, click)
            numbers = neighbour_counts(layouts.reshape(-1, height, width)).reshape(
                len(layouts), -1)
            for _ in range(50):
                truth = rng.choice(len(layouts), p=draws / draws.sum())
                safe = np.flatnonzero(~layouts[truth])
                shown = rng.random(safe.size) < rng.random()
                shown[safe == click[0] + click[1] * width] = True
                revealed = np.zeros(width * height, dtype=bool)
                revealed[safe[shown]] = True
                flags = layouts[truth] & (rng.random(width * height) < 0.3)
                fits = ((numbers[:, revealed] == numbers[truth, revealed]).all(axis=1)
                        & ~layouts[:, revealed].any(axis=1) & layouts[:, flags].all(axis=1))
                expected = [Fraction(int(draws[fits] @ layouts[fits, cell]),
                                     int(draws[fits].sum())) for cell in range(width * height)]
                view = np.where(revealed, numbers[truth], -1).reshape(height, width)
                result = mine_probabilities(view, flags=flags.reshape(height, width),
                                            mines=mines, exact=True, rule="winxp",
                                            click=click)
                got = result.fractions.ravel()
                for cell in np.flatnonzero(~revealed):
                    assert got[cell] == expected[cell], (width, height, mines, click, cell)
                assert result.n_solutions == int(fits.sum())
                checked += 1
                weighted += len(set(draws[fits].tolist())) > 1
    assert checked == 2000 and weighted > 500  # most positions weigh their layouts unequally


def test_winxp_needs_the_click_and_the_mine_count():
    with pytest.raises(ValueError, match="needs click"):
        mine_probabilities([[1, -1]], mines=1, rule="winxp")
    with pytest.raises(ValueError, match="needs mines"):
        mine_probabilities([[1, -1]], rule="winxp", click=(0, 0))
    with pytest.raises(ValueError, match=r"click \(1, 0\) must be a revealed cell"):
        mine_probabilities([[1, -1]], mines=1, rule="winxp", click=(1, 0))
    with pytest.raises(ValueError, match="rule 'xp' is not one of"):
        mine_probabilities([[1, -1]], mines=1, rule="xp", click=(0, 0))


def test_binomials_walked_from_their_neighbours_are_exact(monkeypatch):
    from math import comb

    from minestats.inference import constraints as engine

    computed = []
    monkeypatch.setattr(engine, "comb", lambda n, k: computed.append((n, k)) or comb(n, k))
    binomial = engine._Binomials()
    rng = np.random.default_rng(5)
    asked = [(200, 100), (199, 99), (199, 100), (200, 37), (200, 163), (0, 0), (5, 7)]
    asked += [(int(n), int(k)) for n, k in zip(rng.integers(195, 201, 300),
                                               rng.integers(-2, 203, 300), strict=True)]
    for n, k in asked:
        assert binomial(n, k) == (comb(n, k) if 0 <= k <= n else 0), (n, k)
    assert len(computed) <= 12  # the rest came from a neighbour: one step each
