"""The compiled game: batches, strategies, 50/50s (formed and forming) and the loss tally."""

import copy
import dataclasses
from itertools import product

import numba
import numpy as np
import pytest

from minestats.drivers.win_rates import win_rate
from minestats.foundations.board import Board
from minestats.frontier.variations import variation_basis
from minestats.inference import mine_probabilities
from minestats.mechanics.game import Game, neighbour_counts, neighbour_table
from minestats.mechanics.rules import winxp_order
from minestats.mechanics.sampling import sample_mines
from minestats.players import (
    Strategy,
    candidates,
    chooser,
    kernel,
    play,
    play_games,
    scoring,
)
from minestats.players.endgame import endgame_move
from minestats.players.fifty_fifty import (
    ENABLER_SHARE,
    fifty_fifty_outlook,
    tile_influence,
    unavoidable_pair,
)
from minestats.players.player import FAST_BUDGET, GUESS_KINDS, Settings, tie_seed
from minestats.solvers import SolverOptions, deduce
from minestats.solvers.state import CheckedGame


def stall_positions(count, seed):
    """Stalls of small games, each as a CheckedGame copy, going on as if guesses were safe."""
    rng = np.random.default_rng(seed)
    found = []
    while len(found) < count:
        width, height = (int(v) for v in rng.integers(2, 6, size=2))
        board = Board(width, height, int(rng.integers(1, width * height // 3 + 2)))
        layout = sample_mines(board, 1, rule="safe-click", click=(0, 0), seed=rng)[0]
        state = CheckedGame(layout, (0, 0))
        while True:
            deduce(state, SolverOptions())
            if state.over:
                break
            found.append(copy.deepcopy(state))
            safe = np.flatnonzero(~state.revealed & ~state.mines & ~state.flagged)
            state.open_index(int(rng.choice(safe)))
    return found


def consistent_layouts(state):
    """Every layout of the unknown cells that fits what the player sees, by brute force."""
    unknown = np.flatnonzero(~state.revealed & ~state.flagged)
    height, width = state.board.shape
    fits = []
    for bits in product((False, True), repeat=unknown.size):
        layout = state.flagged.copy()
        layout[unknown] = bits
        if layout.sum() != state.board.mines:
            continue
        numbers = neighbour_counts(layout.reshape(height, width)).ravel()
        if (numbers[state.revealed] == state.numbers[state.revealed]).all():
            fits.append(layout)
    return fits


def test_a_detected_fifty_fifty_cannot_be_told_apart_by_anything():
    """Checked by brute force: one mine in the pair in every layout that fits, and
    swapping the two cells maps the layouts onto themselves with every other cell's
    number unchanged."""
    detected = 0
    for state in stall_positions(300, 5):
        if (~state.revealed & ~state.flagged).sum() > 14:
            continue
        a, b = unavoidable_pair(state.numbers, state.table, state.revealed, state.flagged)
        if a < 0:
            continue
        detected += 1
        layouts = consistent_layouts(state)
        height, width = state.board.shape
        seen = {layout.tobytes() for layout in layouts}
        for layout in layouts:
            assert layout[a] != layout[b]
            swapped = layout.copy()
            swapped[[a, b]] = layout[[b, a]]
            assert swapped.tobytes() in seen
            before = neighbour_counts(layout.reshape(height, width)).ravel()
            after = neighbour_counts(swapped.reshape(height, width)).ravel()
            others = ~layout & ~swapped
            assert (before[others] == after[others]).all()
    assert detected >= 10


def test_the_classic_wall_fifty_fifty_is_found_and_played_as_one():
    split = np.array([[0, 0], [0, 0], [1, 0]], dtype=bool)
    state = CheckedGame(split, (0, 0))
    deduce(state, SolverOptions())
    assert sorted(unavoidable_pair(state.numbers, state.table, state.revealed,
                               state.flagged)) == [4, 5]
    result = play(split, (0, 0), seed=3, strategy=Strategy(fifty_fifty_first=True))
    assert [move.kind for move in result.moves] == ["fifty-fifty"]
    assert result.moves[0].mine_probability == 0.5


def test_a_batch_plays_each_game_as_play_does():
    layouts = sample_mines("16x16/40", 30, rule="safe-click", click=(0, 0), seed=8)
    seeds = np.random.SeedSequence(8).spawn(30)
    strategy = Strategy(blend=True, fifty_fifty_first=True)
    games = play_games(layouts, np.zeros(30, dtype=int), seeds=seeds, strategy=strategy)
    for k, (layout, seed) in enumerate(zip(layouts, seeds, strict=True)):
        one = play(layout, (0, 0), seed=seed, strategy=strategy)
        cells = [move.x + move.y * 16 for move in one.moves]
        assert one.won == games.won[k] and one.guesses == games.guesses[k]
        assert cells == games.moves[k, :one.guesses].tolist()
        assert one.opened == games.opened[k]


@numba.njit
def seed_ties(seed):
    np.random.seed(seed)  # noqa: NPY002 (numba's generator, which the kernel draws from)


@pytest.mark.parametrize(("board", "rule", "policy"), [("16x16/40", "safe-click", "best"),
                                                       ("9x9/10", "winxp", "best"),
                                                       ("9x9/10", "safe-click", "safest")])
def test_playing_on_from_the_first_click_plays_the_game_play_plays(board, rule, policy):
    """`kernel.play_on` from the position the first click opens, the tie-breaks seeded as
    a game's, makes the game's guesses and ends as it does."""
    games = 12 if board == "16x16/40" else 40
    layouts = sample_mines(board, games, rule=rule, click=(0, 0), seed=48)
    seeds = np.random.SeedSequence(48).spawn(games)
    height, width = layouts.shape[1:]
    table = neighbour_table(width, height)
    settings = Strategy().settings()
    weighed = rule == "winxp"
    relocation = winxp_order(width * height, 0) if weighed else np.empty(0, dtype=np.int64)
    guesses = 0
    for layout, seed in zip(layouts, seeds, strict=True):
        game = play(layout, (0, 0), policy=policy, seed=seed, rule=rule)
        clicked = Game(layout)
        clicked.open((0, 0))
        numbers, revealed = clicked.numbers.astype(np.int8), clicked.revealed.copy()
        flagged = np.zeros_like(revealed)
        moves = np.full(width * height, -1, dtype=np.int64)
        chances, kinds = np.full(width * height, np.nan), np.full(width * height, -1, np.int8)
        seed_ties(tie_seed(seed))
        outcome, count, _, opened = kernel.play_on(
            layout.ravel(), numbers, table, width, int(layout.sum()), revealed, flagged,
            int(revealed.sum()), kernel.BEST if policy == "best" else kernel.SAFEST, True,
            SolverOptions().max_configurations, settings, relocation, moves, chances, kinds,
            kernel.new_position_memo())
        assert (outcome == kernel.WON) == game.won and count == game.guesses
        assert moves[:count].tolist() == [m.x + m.y * width for m in game.moves]
        assert opened == game.opened == revealed[~layout.ravel()].sum()
        assert (flagged <= layout.ravel()).all()
        guesses += count
    assert guesses > 10


@pytest.mark.parametrize("clicks, seeds, message", [
    ((0, 0), 3, r"clicks \(\[0, 0\], shape \(2,\)\) must be 3 linear indices from 0 to 80"),
    ([0, 81, 5], 3, r"clicks \(\[ 0, 81,  5\], shape \(3,\)\) must be 3 linear"),
    ([0.0, 1.0, 2.0], 3, "must be 3 linear indices"),
    ([0, 0, 0], 2, r"seeds must be 3 numpy.random.SeedSequence, one per layout \(got 2"),
    ([0, 0, 0], [1, 2, 3], r"seeds must be 3 .* \(got 3 items, the first 1\)"),
])
def test_a_batch_with_a_click_or_seed_per_layout_missing_is_a_one_line_error(clicks, seeds,
                                                                             message):
    """A wrong count used to read past the clicks in compiled code (a segfault)."""
    layouts = sample_mines("9x9/10", 3, rule="safe-click", click=(0, 0), seed=1)
    if isinstance(seeds, int):
        seeds = np.random.SeedSequence(1).spawn(seeds)
    with pytest.raises(ValueError, match=message):
        play_games(layouts, clicks, seeds=seeds)


def test_an_empty_batch_plays_no_game():
    games = play_games(np.zeros((0, 9, 9), dtype=bool), [], seeds=[])
    assert games.won.shape == (0,) and games.moves.shape == (0, 81)


def test_the_loss_tally_counts_every_game_lost_at_a_guess_once():
    result = win_rate("16x16/40", n=300, seed=4, workers=1)
    assert result.losses.sum() == result.n - result.successes - result.lost_first_click
    table = result.loss_table()
    assert table["losses"].sum() == result.losses.sum()
    assert set(table["kind"]) == set(GUESS_KINDS)


def test_the_loss_tally_keeps_each_bins_mine_probabilities():
    result = win_rate("16x16/40", n=300, seed=4, workers=1)
    table = result.loss_table()
    counted = table[table["losses"] > 0]
    mean = counted["probability_sum"] / counted["losses"]
    assert ((mean >= counted["probability_low"] - 1e-12)
            & (mean <= counted["probability_high"] + 1e-12)).all()
    assert (table.loc[table["losses"] == 0, "probability_sum"] == 0).all()
    halves = counted[counted["kind"] == "fifty-fifty"]
    assert len(halves) and np.allclose(halves["probability_sum"] / halves["losses"], 0.5)


def test_the_kernels_settings_are_the_strategys_fields_with_their_values():
    strategy = Strategy(candidate_share=0.85, blend=False, progress_weight=1,
                        look_ahead=np.int32(2), living_next=np.bool_(False))
    settings = strategy.settings()
    names = [item.name for item in dataclasses.fields(Strategy)]
    assert list(Settings._fields) == [*names, "fast_budget"]
    for name in names:
        assert getattr(settings, name) == getattr(strategy, name), name
    assert settings.fast_budget == FAST_BUDGET
    assert type(settings.progress_weight) is float and type(settings.look_ahead) is int
    assert type(settings.living_next) is bool
    # One numba type whatever the values' types: the kernel compiles once.
    assert numba.typeof(settings) == numba.typeof(Strategy().settings())


def test_strategies_are_named_by_what_differs_and_recorded():
    assert Strategy().label() == "best"
    label = Strategy(off_frontier_cells=0).label()
    assert label == "best (off_frontier_cells=0)"
    assert win_rate("6x6/5", n=20, seed=1, workers=1,
                    strategy=Strategy(off_frontier_cells=0)).to_dict()["strategy"] == label


@pytest.mark.parametrize(("options", "message"), [
    ({"endgame_layouts": -1}, r"endgame_layouts \(-1\) must be an integer from 0 to 100000"),
    ({"max_candidates": 2.5}, r"max_candidates \(2.5\)"),
    ({"candidate_share": 0}, r"candidate_share \(0\) must be a number in \(0, 1\]"),
    ({"blend": "yes"}, r"blend \('yes'\) must be True or False"),
    ({"two_step_cells": 65}, r"two_step_cells \(65\) must be an integer from 0 to 64"),
    ({"look_ahead_margin": 1.5}, r"look_ahead_margin \(1.5\) must be a number from 0 to 1"),
    ({"small_board_cells": 21}, r"small_board_cells \(21\) must be an integer from 0 to 20"),
])
def test_a_bad_strategy_is_a_one_line_value_error(options, message):
    with pytest.raises(ValueError, match=message):
        Strategy(**options)


def test_a_strategy_must_be_a_strategy():
    with pytest.raises(ValueError, match=r"strategy \('best'\) must be a Strategy"):
        play(np.zeros((2, 2), bool), (0, 0), strategy="best")


def test_past_the_float_budget_the_exact_engine_answers_and_the_game_is_the_same():
    """With a float budget of 1, every position ``best`` imagines for a candidate is
    answered by the exact big-integer engine (through numba.objmode): the same games,
    up to float ties."""
    from minestats.mechanics.game import neighbour_table

    layouts = sample_mines("9x9/10", 60, rule="safe-click", click=(0, 0), seed=12)
    flat = layouts.reshape(60, -1)
    numbers = neighbour_counts(layouts).reshape(60, -1).astype(np.int8)
    seeds = np.arange(60, dtype=np.int64)
    normal = Strategy(endgame_layouts=0).settings()  # no end game: candidates everywhere
    tiny = normal._replace(fast_budget=1)
    float_run, exact_run = (
        kernel.play_chunk(flat, numbers, neighbour_table(9, 9), 9, 10,
                          np.zeros(60, dtype=np.int64), kernel.BEST, True, 200_000, settings,
                          seeds, False, kernel.new_position_memo())
        for settings in (normal, tiny))
    assert (exact_run.outcomes != kernel.BUG).all() and float_run.guesses.sum() > 30
    same = (exact_run.guesses == float_run.guesses) & (exact_run.moves == float_run.moves).all(
        axis=1)
    assert same.mean() > 0.9  # only float ties may differ
    assert np.allclose(exact_run.chances[same], float_run.chances[same], equal_nan=True)


def shape_shares(state, layouts):
    """Brute force of `fifty_fifty_outlook`: per cell, the layouts in which it is the
    safe half of a shape's 50/50 (pairs summed, boxes by their largest), and the
    pseudo-50/50s (every mined layout of the cell puts it in one of a shape)."""
    height, width = state.board.shape
    pairs, boxes = np.zeros(width * height), np.zeros(width * height)
    pseudo = np.zeros(width * height, dtype=bool)
    enablers = np.zeros(width * height)
    mine_chance = layouts.mean(axis=0)
    for kind, (dx, dy) in enumerate([(1, 0), (0, 1), (1, 1)]):
        for y, x in product(range(height - dy), range(width - dx)):
            if kind < 2:
                halves = ([(x, y)], [(x + dx, y + dy)])
                ends = [(x - 1 + 3 * dx * e + (1 - dx) * k, y - 1 + 3 * dy * e + dx * k)
                        for e in (0, 1) for k in range(3)]
            else:
                halves = ([(x, y), (x + 1, y + 1)], [(x + 1, y), (x, y + 1)])
                ends = [(x - 1, y - 1), (x + 2, y - 1), (x - 1, y + 2), (x + 2, y + 2)]
            cells = [a + b * width for a, b in halves[0] + halves[1]]
            closing = [a + b * width for a, b in ends if 0 <= a < width and 0 <= b < height]
            missing = [c for c in closing if not state.flagged[c]]
            near = [c for c in cells + missing
                    if state.revealed[state.table[c][state.table[c] >= 0]].any()]
            if (state.revealed[cells].any() or state.flagged[cells].any()
                    or state.revealed[closing].any() or not near
                    or len(missing) > (2 if kind == 2 else 1)):
                continue
            first = [a + b * width for a, b in halves[0]]
            second = [a + b * width for a, b in halves[1]]
            shares = []
            for mined, safe in ((first, second), (second, first)):
                fits = (layouts[:, closing].all(axis=1) & layouts[:, mined].all(axis=1)
                        & ~layouts[:, safe].any(axis=1))
                shares.append(fits.mean())
                for cell in mined:
                    pseudo[cell] |= fits.mean() > 0 and np.isclose(fits.mean(),
                                                                   mine_chance[cell])
            assert np.isclose(shares[0], shares[1])  # a 50/50's mirror fits as well
            if shares[0] > ENABLER_SHARE and len(missing) <= 1:
                enablers[missing] += shares[0]
            for cell in cells:
                if kind < 2:
                    pairs[cell] += shares[0]
                else:
                    boxes[cell] = max(boxes[cell], shares[0])
    return pairs + boxes, pseudo, enablers


def tile_tallies(state, layouts, enablers, most_missing):
    """Brute force of `tile_influence` for every unknown cell: over the pairs along its
    row that hold it the largest share of layouts with the shape closed and one half
    mined, likewise along its column and over its 2x2 boxes; summed, plus its credit
    as a closing cell, capped by min(P(mine), P(safe))."""
    height, width = state.board.shape
    unknown = ~state.revealed & ~state.flagged
    mine_chance = layouts.mean(axis=0)
    tallies = {}
    for cell in np.flatnonzero(unknown):
        x, y = cell % width, cell // width
        total = 0.0
        for corners, halves in (([(x, y), (x - 1, y)], lambda a, b: ([(a, b)], [(a + 1, b)])),
                                ([(x, y), (x, y - 1)], lambda a, b: ([(a, b)], [(a, b + 1)])),
                                ([(x, y), (x - 1, y), (x, y - 1), (x - 1, y - 1)],
                                 lambda a, b: ([(a, b), (a + 1, b + 1)],
                                               [(a + 1, b), (a, b + 1)]))):
            best = 0.0
            for a, b in corners:
                first, second = halves(a, b)
                members = first + second
                if not all(0 <= u < width and 0 <= v < height for u, v in members):
                    continue
                def seen(u, v, half):
                    return sum(max(abs(u - p), abs(v - q)) <= 1 for p, q in half)

                around = {(u + du, v + dv) for u, v in members for du in (-1, 0, 1)
                          for dv in (-1, 0, 1)} - set(members)
                # Closing cells: they see more of one half than of the other.
                closing = [u + v * width for u, v in around
                           if 0 <= u < width and 0 <= v < height
                           and seen(u, v, first) != seen(u, v, second)]
                cells = [u + v * width for u, v in members]
                if (not unknown[cells].all() or state.revealed[closing].any()
                        or sum(not state.flagged[c] for c in closing) > most_missing):
                    continue
                mined = [u + v * width for u, v in first]
                safe = [u + v * width for u, v in second]
                fits = (layouts[:, closing].all(axis=1) & layouts[:, mined].all(axis=1)
                        & ~layouts[:, safe].any(axis=1))
                best = max(best, fits.mean())
            total += best
        total += enablers[cell]
        tallies[cell] = min(total, mine_chance[cell], 1 - mine_chance[cell])
    return tallies


def small_stalls(seed):
    """Of 300 stalls, those with at most 12 unknown cells: each with its layouts and its
    exact mine probabilities (NaN where revealed)."""
    for state in stall_positions(300, seed):
        if (~state.revealed & ~state.flagged).sum() > 12:
            continue
        layouts = np.array(consistent_layouts(state))
        probability = layouts.mean(axis=0).astype(float)
        probability[state.revealed] = np.nan
        yield state, layouts, probability


def test_the_fifty_fifties_that_may_form_are_counted_as_brute_force_counts_them():
    checked = with_pseudo = 0
    for state, layouts, probability in small_stalls(7):
        width = state.board.shape[1]
        basis = variation_basis(state.numbers, state.table, state.revealed, state.flagged,
                                  width, state.board.mines, 100_000)
        influence, pseudo, enablers = fifty_fifty_outlook(
            basis, state.table, state.revealed, state.flagged, width, probability,
            np.log(len(layouts)), 100_000)
        expected, expected_pseudo, expected_enablers = shape_shares(state, layouts)
        np.testing.assert_allclose(influence, expected, atol=1e-12)
        np.testing.assert_allclose(enablers, expected_enablers, atol=1e-12)
        assert (pseudo == expected_pseudo).all()
        checked += 1
        with_pseudo += expected_pseudo.any()
    assert checked >= 100 and with_pseudo >= 10


def test_each_cells_fifty_fifty_tally_is_counted_as_brute_force_counts_it():
    checked = credited = 0
    for state, layouts, probability in small_stalls(8):
        width = state.board.shape[1]
        _, _, enablers = shape_shares(state, layouts)
        expected = tile_tallies(state, layouts, enablers, 3)
        basis = variation_basis(state.numbers, state.table, state.revealed, state.flagged,
                                  width, state.board.mines, 100_000)
        for cell, tally in expected.items():
            found = tile_influence(cell, basis, state.revealed, state.flagged, width,
                                   probability, np.log(len(layouts)), 100_000, enablers, 3)
            assert found == pytest.approx(tally, abs=1e-12), (cell, state)
            credited += tally > 0
        checked += 1
    assert checked >= 100 and credited >= 50


def reference_candidates(safety, crowd, frontier, boost, share, most, off_frontier_most,
                         two_step, two_step_most):
    """`candidates.rank_candidates` in plain Python: the safest first (fewest unknown
    neighbours breaking ties, at most ``off_frontier_most`` off the frontier), then
    up to ``two_step_most`` of the ``two_step`` cells in the same order, then the
    cells whose boost lifts them over the bar, by safety plus boost."""
    bar = share * safety.max() - 1e-12
    order = sorted(range(safety.size), key=lambda i: (-safety[i], crowd[i], i))
    chosen, off = [], 0
    for i in order:
        if safety[i] < bar or len(chosen) == most:
            break
        if not frontier[i]:
            if off == off_frontier_most:
                continue
            off += 1
        chosen.append(i)
    chosen += [i for i in order if two_step[i] and safety[i] >= bar
               and i not in chosen][:two_step_most]
    lifted = sorted(range(safety.size), key=lambda i: (-(safety[i] + boost[i]), crowd[i], i))
    extra = [i for i in lifted if boost[i] > 0 and safety[i] + boost[i] >= bar
             and i not in chosen][:most]
    return chosen + extra, order[0]


@pytest.mark.parametrize("two_step_most", [0, 3])
def test_the_fifty_fifty_weight_adds_candidates_and_never_displaces_one(two_step_most):
    rng = np.random.default_rng(3)
    added = stepped = 0
    for _ in range(300):
        size = int(rng.integers(1, 40))
        safety = rng.choice([0.7, 0.75, 0.8, 0.85, 0.9], size=size)  # ties, as on a board
        crowd = rng.integers(0, 9, size=size)
        frontier = rng.random(size) < 0.5
        two_step = ~frontier & (rng.random(size) < 0.5)
        boost = np.where(rng.random(size) < 0.3, rng.random(size) * 0.2, 0.0)
        for weight in (0.0, 1.0):
            ranks, first = candidates.rank_candidates(safety, crowd, frontier, weight * boost,
                                                      0.9, 6, 2, two_step, two_step_most)
            expected, expected_first = reference_candidates(
                safety, crowd, frontier, weight * boost, 0.9, 6, 2, two_step, two_step_most)
            assert ranks.tolist() == expected and first == expected_first
        plain, _ = candidates.rank_candidates(safety, crowd, frontier, 0 * boost, 0.9, 6, 2,
                                              two_step, two_step_most)
        assert ranks[:plain.size].tolist() == plain.tolist()  # the weight only adds
        added += ranks.size > plain.size
        fewer, _ = candidates.rank_candidates(safety, crowd, frontier, 0 * boost, 0.9, 6, 2,
                                              two_step, 0)
        assert plain[:fewer.size].tolist() == fewer.tolist()  # so do the two-step cells
        stepped += plain.size > fewer.size
    assert added > 20
    assert (stepped > 20) == (two_step_most > 0)


def test_the_cells_two_steps_out_are_those_in_line_with_a_live_number():
    checked = marked = 0
    for state in stall_positions(150, 8):
        height, width = state.board.shape
        unknown = np.flatnonzero(~state.revealed & ~state.flagged)
        table = state.table
        live = [j for j in range(state.revealed.size) if state.revealed[j]
                and state.numbers[j] > 0
                and any(not state.revealed[k] and not state.flagged[k]
                        for k in table[j] if 0 <= k != j)]
        frontier = np.array([any(k in live for k in table[c] if k >= 0) for c in unknown],
                            dtype=bool)
        expected = [not frontier[i] and any(
            abs(c % width - j % width) + abs(c // width - j // width) == 2
            and (c % width == j % width or c // width == j // width) for j in live)
            for i, c in enumerate(unknown)]
        found = candidates.two_steps_out(unknown, frontier, state.numbers, table, state.revealed,
                                      state.flagged, width)
        assert found.tolist() == expected, state
        checked += 1
        marked += found.any()
    assert checked >= 150 and marked > 10


def test_pseudo_fifty_fifties_are_played_as_their_kind_and_only_when_switched_on():
    layouts = sample_mines("30x16/99", 100, rule="safe-click", click=(0, 0), seed=6)
    seeds = np.random.SeedSequence(6).spawn(100)
    pseudo = GUESS_KINDS.index("pseudo-fifty-fifty")
    played = play_games(layouts, np.zeros(100, dtype=int), seeds=seeds,
                        strategy=Strategy(pseudo_first=True))
    assert (played.kinds == pseudo).sum() > 0
    default = play_games(layouts, np.zeros(100, dtype=int), seeds=seeds)
    assert (default.kinds == pseudo).sum() == 0


def test_the_compiled_winxp_weighing_equals_the_exact_one():
    """The player's float mixture (`_position` with the rule's order) against the exact
    Fractions of `mine_probabilities(rule="winxp")`, itself checked against the rule's
    own deals in test_probabilities.py; and past the float budget (1) the same."""
    from minestats.inference import mine_probabilities
    from minestats.mechanics.rules import winxp_order
    from minestats.players.weighing import weigh_position

    rng = np.random.default_rng(21)
    checked = 0
    for _ in range(150):
        width, height = (int(v) for v in rng.integers(3, 6, size=2))
        board = Board(width, height, int(rng.integers(2, width * height // 3 + 2)))
        click = (int(rng.integers(width)), int(rng.integers(height)))
        layout = sample_mines(board, 1, rule="winxp", click=click, seed=rng)[0]
        state = CheckedGame(layout, click)
        deduce(state, SolverOptions())
        if state.over:
            continue
        view = np.where(state.revealed, state.numbers, -1).reshape(height, width)
        exact = mine_probabilities(view, flags=state.flagged.reshape(height, width),
                                   mines=board.mines, rule="winxp", click=click)
        order = winxp_order(width * height, board.index(click))
        for budget in (100_000, 1):
            probability = np.empty(width * height)
            weigh_position(state.numbers, state.table, state.revealed, state.flagged, width,
                      board.mines, budget, probability, order)
            np.testing.assert_allclose(probability, exact.probability.ravel(), rtol=1e-9)
        checked += 1
    assert checked >= 50


def _exact_probability(state, flagged):
    """The exact engine's mine probabilities of a position with ``flagged`` (None if none fits)."""
    view = np.where(state.revealed, state.numbers, -1).reshape(state.board.height,
                                                              state.board.width)
    try:
        exact = mine_probabilities(view, flags=flagged.reshape(view.shape),
                                   mines=state.board.mines, max_configurations=None)
    except ValueError:  # no layout fits
        return None
    return exact.probability.ravel()


def _safe_whenever(state, probability, cell, other):
    """Whether ``other`` is safer than ``cell`` by the margin and safe whenever it is."""
    if not probability[other] < probability[cell] - candidates.DOMINANCE_MARGIN:
        return False
    flagged = state.flagged.copy()
    flagged[other] = True  # other a mine: then cell must be one too
    given = _exact_probability(state, flagged)
    return given is not None and given[cell] == 1


def test_dominance_changes_a_guess_only_for_a_move_that_dominates_it():
    # Where the switch changes a guess, the exact engine says why: the new cell is a
    # candidate safer by the margin, and safe in every layout where the old choice is.
    # The look-ahead is off in both: the switch also lifts the pruning of candidates,
    # which changes the ones the look-ahead rescores.
    games = 900
    layouts = sample_mines("expert", games, rule="safe-click", click=(0, 0), seed=17)
    seeds = np.random.SeedSequence(17).spawn(games)
    plain = play_games(layouts, np.zeros(games, dtype=int), seeds=seeds,
                       strategy=Strategy(look_ahead=0))
    dominant = play_games(layouts, np.zeros(games, dtype=int), seeds=seeds,
                          strategy=Strategy(dominance=True, look_ahead=0))
    changed = np.flatnonzero((plain.moves != dominant.moves).any(axis=1))
    assert changed.size >= 3
    for game in changed:
        at = int(np.flatnonzero(plain.moves[game] != dominant.moves[game])[0])
        state = CheckedGame(layouts[game], (0, 0))
        for cell in plain.moves[game, :at]:
            deduce(state, SolverOptions())
            state.open_index(int(cell))
        deduce(state, SolverOptions())
        choice, move = int(plain.moves[game, at]), int(dominant.moves[game, at])
        probability = _exact_probability(state, state.flagged)
        assert _safe_whenever(state, probability, choice, move), (game, at)


def test_a_region_cut_off_from_the_rest_is_played_as_the_whole_end_game_plays_it():
    """Where `candidates.isolated_move` solves a region apart, brute force finds the same
    mines in it in every layout that fits, and its cells are among the exact end
    game's best moves for the whole position (a best move of one independent part is
    one of the whole)."""
    checked = 0
    for state in stall_positions(4000, 17):
        height, width = state.board.shape
        cells, found = candidates.isolated_move(state.numbers, state.table, state.revealed,
                                             state.flagged, width, 20, 750)
        if not found:
            continue
        region = cells[0]
        linked = {region}
        grow = True
        while grow:  # the cells linked to it by adjacency or a shared revealed neighbour
            grow = False
            for a in list(linked):
                for j in state.table[a]:
                    hops = [j] if j >= 0 and not state.revealed[j] else (
                        state.table[j] if j >= 0 else [])
                    for k in hops:
                        if (k >= 0 and not state.revealed[k] and not state.flagged[k]
                                and k not in linked):
                            linked.add(int(k))
                            grow = True
        members = np.array(sorted(linked))
        assert set(cells.tolist()) <= linked
        assert len({int(layout[members].sum()) for layout in consistent_layouts(state)}) == 1
        whole = endgame_move(state.numbers, state.table, state.revealed, state.flagged, width,
                             state.board.mines, limit=10**6)
        assert set(cells.tolist()) <= set(whole.cells), state
        checked += 1
    assert checked >= 20


def test_cells_off_the_frontier_are_in_reach_only_above_their_share_of_the_safest():
    rng = np.random.default_rng(11)
    for _ in range(300):
        size = int(rng.integers(1, 30))
        safety = rng.choice([0.6, 0.7, 0.76, 0.8, 0.9], size=size)
        frontier = rng.random(size) < 0.6
        for share in (0.9, 0.95, 1.0):
            off = safety[~frontier]
            expected = off.size > 0 and off.max() >= share * safety.max() - 1e-12
            assert candidates.off_frontier_in_reach(safety, frontier, share) == expected


def reference_space(cell, table, revealed):
    """The covered cells reached from ``cell`` by steps and hops over one revealed cell."""
    reached, frontier = {cell}, [cell]
    while frontier:
        here = frontier.pop()
        for step in table[here]:
            if step < 0:
                continue
            landing = [step] if not revealed[step] else [k for k in table[step] if k >= 0]
            for k in landing:
                if not revealed[k] and k not in reached:
                    reached.add(int(k))
                    frontier.append(int(k))
    return reached


def test_a_cell_is_in_a_large_space_as_a_plain_flood_counts_it():
    large = small = 0
    for state in stall_positions(300, 23):
        for cell in np.flatnonzero(~state.revealed & ~state.flagged):
            size = len(reference_space(int(cell), state.table, state.revealed))
            for threshold in (2, 5, 8):
                found = candidates.in_large_space(int(cell), state.table, state.revealed,
                                                  threshold)
                assert found == (size >= threshold), (state, cell, threshold)
                large += found
                small += not found
    assert large > 100 and small > 100


def _blended_next(layouts, unknown):
    """(4 x safest + second safest) / 5 over ``unknown`` cells that may be safe, given
    ``layouts`` (the kernel's blend; 1 when no such cell is left)."""
    risks = sorted(p for p in layouts[:, unknown].mean(axis=0) if p < 1)
    if not risks:
        return 1.0
    lowest, second = risks[0], risks[1] if len(risks) > 1 else risks[0]
    return (4 * (1 - lowest) + (1 - second)) / 5


def _reveals(layouts, cell, table):
    """Group ``layouts`` in which ``cell`` is safe by the number it shows."""
    shown = {}
    for layout in layouts:
        if not layout[cell]:
            around = [j for j in table[cell] if j >= 0 and j != cell]
            shown.setdefault(int(layout[around].sum()), []).append(layout)
    return {value: np.array(group) for value, group in shown.items()}


def _reply_next(grand, reply, unknown, opened, state, living):
    """The next move's score after ``reply`` is opened too, as `outlook` ranks it."""
    rest = unknown[unknown != reply]
    if not living:
        return _blended_next(grand, rest)
    after = opened.copy()
    after[reply] = True
    return _next_living(grand, rest, state.table, after, state.flagged)[0]


def position_of(state):
    """The kernel's `scoring.Position` of a stall."""
    return scoring.Position(state.numbers, state.table, state.revealed, state.flagged,
                            state.board.shape[1], state.board.mines)


def reference_look_ahead(state, layouts, cell, living=False):
    """Brute force of `scoring._look_ahead`: over the numbers ``cell`` may show, their
    chance times the best one-step score of the next guess among the `REPLIES` safest
    cells (fewest unknown neighbours, then the lowest index, first among equals), or 1
    when a cell is proven safe (with ``living``, a living one; dead cells proven safe
    are then no reply, and the replies' next moves are ranked as `_next_living`
    ranks them); None when equals straddle the last reply's place (the float order may
    differ)."""
    total, survive = len(layouts), 0.0
    for _, child in _reveals(layouts, cell, state.table).items():
        opened = state.revealed.copy()
        opened[cell] = True
        unknown = np.flatnonzero(~opened & ~state.flagged)
        risk = child[:, unknown].mean(axis=0)
        by_cell = dict(zip(unknown.tolist(), risk, strict=True))
        crowd = [sum(1 for j in state.table[c] if j >= 0 and j != c and not opened[j]
                     and not state.flagged[j]) for c in unknown]
        order = sorted((r, n, c) for r, n, c in zip(risk, crowd, unknown, strict=True) if r < 1)
        if living:
            dead = {c for _, _, c in order if not any(
                0 < by_cell[j] < 1 for j in state.table[c]
                if j >= 0 and j != c and not opened[j] and not state.flagged[j])}
            proven = [c for r, _, c in order if r == 0]
            if any(c not in dead for c in proven):
                survive += len(child) / total
                continue
            order = [(r, n, c) for r, n, c in order if r > 0]
        elif order and order[0][0] == 0:
            survive += len(child) / total
            continue
        if len(order) > scoring.REPLIES and abs(
                order[scoring.REPLIES][0] - order[scoring.REPLIES - 1][0]) < 1e-9:
            return None
        best = 1.0 if not order else max(
            sum(len(grand) / len(child) * _reply_next(grand, reply, unknown, opened, state,
                                                      living)
                for grand in _reveals(child, reply, state.table).values())
            for _, _, reply in order[:scoring.REPLIES])
        survive += len(child) / total * best
    return survive


@pytest.mark.parametrize("living", [False, True])
def test_the_look_ahead_scores_two_reveals_as_brute_force_does(living):
    checked = 0
    for state, layouts, _ in small_stalls(23):
        height, width = state.board.shape
        basis = variation_basis(state.numbers, state.table, state.revealed, state.flagged,
                                width, state.board.mines, FAST_BUDGET)
        for cell in np.flatnonzero(~state.revealed & ~state.flagged):
            expected = reference_look_ahead(state, layouts, cell, living)
            if expected is None:
                continue
            found = scoring._look_ahead(position_of(state), cell, np.log(len(layouts)),
                                        Strategy(living_next=living).settings(),
                                        np.empty(0, dtype=np.int64), basis)
            assert found == pytest.approx(expected, abs=1e-9), (state, cell)
            checked += 1
    assert checked >= 100


def _next_living(child, unknown, table, opened, flagged):
    """The kernel's blended next move with ``living``, and whether it is proven safe
    (progress): ranked over the ``unknown`` cells that may be safe and have an unknown
    neighbour still undecided in ``child`` (the others are dead), over every cell that
    may be safe when none is living; (1, True) when none is left (won)."""
    risk = dict(zip(unknown.tolist(), child[:, unknown].mean(axis=0), strict=True))

    def living(c):
        return any(0 < risk[j] < 1 for j in table[c]
                   if j >= 0 and j != c and not opened[j] and not flagged[j])

    open_cells = [c for c in unknown if risk[c] < 1]
    alive = sorted(risk[c] for c in open_cells if living(c))
    ranked = alive or sorted(risk[c] for c in open_cells)
    if not ranked:
        return 1.0, True
    lowest, second = ranked[0], ranked[1] if len(ranked) > 1 else ranked[0]
    return (4 * (1 - lowest) + (1 - second)) / 5, lowest == 0


def test_the_next_move_counts_living_cells_as_brute_force_does():
    checked = changed = dead_clears = 0
    for state, layouts, probability in small_stalls(29):
        height, width = state.board.shape
        basis = variation_basis(state.numbers, state.table, state.revealed, state.flagged,
                                width, state.board.mines, FAST_BUDGET)
        untracked = np.empty(0, dtype=np.bool_)
        for cell in np.flatnonzero(~state.revealed & ~state.flagged):
            opened = state.revealed.copy()
            opened[cell] = True
            unknown = np.flatnonzero(~opened & ~state.flagged)
            survive = progress = everywhere = 0.0
            for child in _reveals(layouts, cell, state.table).values():
                chance = len(child) / len(layouts)
                next_safety, living_clear = _next_living(child, unknown, state.table,
                                                         opened, state.flagged)
                survive += chance * next_safety
                progress += chance * living_clear
                everywhere += chance * _blended_next(child, unknown)
                dead_clears += (child[:, unknown].mean(axis=0) == 0).any() and not living_clear
            found = {living: scoring.outlook(
                position_of(state), cell, np.log(len(layouts)),
                Strategy(living_next=living).settings(), np.empty(0, dtype=np.int64), basis,
                untracked, 1 - probability[cell], 1.0, 0.0, -np.inf) for living in (False, True)}
            assert found[True][0] == pytest.approx(survive, abs=1e-9), (state, cell)
            assert found[True][1] == pytest.approx(progress, abs=1e-9), (state, cell)
            assert found[False][0] == pytest.approx(everywhere, abs=1e-9), (state, cell)
            checked += 1
            changed += abs(found[True][0] - found[False][0]) > 1e-9
    assert checked >= 100 and changed >= 10 and dead_clears >= 5, (checked, changed,
                                                                    dead_clears)


def test_a_small_board_position_key_tells_every_position_apart():
    """`_position_key` on 32-cell boards: two positions share a key exactly when they
    show the same cells, flags and numbers from the same Windows XP click, with 8s in
    the top bits of both number words (cells 15 and 31) and the click on the last cell."""
    rng = np.random.default_rng(5)
    keys, plain = [], []
    for _ in range(4000):
        numbers = rng.integers(0, 9, size=32).astype(np.int8)
        numbers[[15, 31]] = 8
        revealed = rng.random(32) < 0.5
        revealed[rng.integers(0, 32)] = True
        flagged = ~revealed & (rng.random(32) < 0.2)
        click = int(rng.choice([-1, 0, 15, 16, 31]))
        order = winxp_order(32, click) if click >= 0 else np.empty(0, dtype=np.int64)
        keys.append(chooser._position_key(numbers, revealed, flagged, order))
        plain.append((revealed.tobytes(), flagged.tobytes(),
                      np.where(revealed, numbers, -1).tobytes(), click))
        # the same position from another click, and without Windows XP's weighing
        for other in {-1, 31 - max(click, 0)} - {click}:
            moved = winxp_order(32, other) if other >= 0 else np.empty(0, dtype=np.int64)
            keys.append(chooser._position_key(numbers, revealed, flagged, moved))
            plain.append((revealed.tobytes(), flagged.tobytes(),
                          np.where(revealed, numbers, -1).tobytes(), other))
        # a variant that differs in one revealed number only, in the upper word
        if revealed[16:].any():
            cell = 16 + int(np.flatnonzero(revealed[16:])[0])
            numbers = numbers.copy()
            numbers[cell] = (numbers[cell] + 1) % 9
            keys.append(chooser._position_key(numbers, revealed, flagged, order))
            plain.append((revealed.tobytes(), flagged.tobytes(),
                          np.where(revealed, numbers, -1).tobytes(), click))
    pairs = dict(zip(keys, plain, strict=True))
    assert len(set(keys)) == len(set(plain)) == len(pairs)
