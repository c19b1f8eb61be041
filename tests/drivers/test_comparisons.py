"""Paired comparisons: the counts, against enumeration and one board at a time."""

import math
from fractions import Fraction
from itertools import combinations

import numpy as np
import pytest
from statsmodels.stats.contingency_tables import mcnemar

from minestats import compare
from minestats.drivers.comparisons import _solve_all, compare_clicks
from minestats.drivers.pass_rates import pass_rate
from minestats.drivers.win_rates import win_rate
from minestats.foundations.board import Board
from minestats.mechanics.sampling import relocate_mines, sample_mines
from minestats.players import play
from minestats.runs.store import ChunkStore
from minestats.solvers import SolverOptions, solve
from minestats.stats import difference_interval, paired_difference_interval
from tests.oracles.rules_reference import layouts as rule_layouts

SOLVERS = ["single-point", "subset", "logic", SolverOptions("logic", use_mine_count=False)]
NAMES = ("single-point", "subset", "logic", "logic (no mine count)")
OPTIONS = [SolverOptions(s) if isinstance(s, str) else s for s in SOLVERS]
# Tiny boards whose every layout can be solved: (board, rule, click).
TINY = [(Board(3, 3, 2), "safe-click", (1, 1)), (Board(4, 4, 3), "safe-click", (0, 0)),
        (Board(4, 4, 2), "safe-opening", (1, 1)), (Board(4, 4, 4), "safe-click", (0, 0))]


def every_layout(board, rule, click):
    """Every layout of the rule, each equally likely under safe-click and safe-opening."""
    cells = [sorted(mines) for mines in rule_layouts(board, click[0] + click[1] * board.width,
                                                      rule)]
    array = np.zeros((len(cells), board.height, board.width), dtype=bool)
    for index, mined in enumerate(cells):
        for cell in mined:
            array[index, cell // board.width, cell % board.width] = True
    return array


def solved_one_by_one(layouts, click):
    """(contenders, boards) outcomes, each board solved alone by `solve`."""
    return np.array([[solve(layout, click, solver=o.solver, use_mine_count=o.use_mine_count,
                            max_configurations=o.max_configurations).solved
                      for layout in layouts] for o in OPTIONS])


def joint_of(outcomes):
    outcomes = outcomes.astype(int)
    return outcomes @ outcomes.T


@pytest.mark.parametrize(("board", "rule", "click"), TINY)
def test_counts_over_every_layout_are_the_enumerated_ones(board, rule, click):
    layouts = every_layout(board, rule, click)
    exact = joint_of(solved_one_by_one(layouts, click))
    contenders = [(o.solver, o.use_mine_count, o.max_configurations) for o in OPTIONS]
    tally = _solve_all(layouts, click, contenders)
    assert (tally["joint"] == exact).all()
    # The stronger solver proves all the weaker one does: one discordant cell is empty.
    for weaker, stronger in [(0, 1), (1, 2), (3, 2)]:
        assert exact[weaker, weaker] == exact[weaker, stronger]


@pytest.mark.parametrize(("board", "rule", "click"), TINY)
def test_sampled_pairs_agree_with_the_exact_tables(board, rule, click):
    layouts = every_layout(board, rule, click)
    exact = joint_of(solved_one_by_one(layouts, click))
    total = len(layouts)
    n = 4_000
    result = compare(board, solvers=SOLVERS, rule=rule, click=click, n=n, seed=20261201,
                     workers=1)
    assert result.contenders == NAMES
    for (i, first), (j, second) in combinations(enumerate(NAMES), 2):
        pair = result.pair(first, second)
        both = Fraction(int(exact[i, j]), total)
        first_only = Fraction(int(exact[i, i] - exact[i, j]), total)
        second_only = Fraction(int(exact[j, j] - exact[i, j]), total)
        probabilities = [both, first_only, second_only, 1 - both - first_only - second_only]
        counts = [pair.both, pair.first_only, pair.second_only, pair.neither]
        for count, p in zip(counts, probabilities, strict=True):
            if p in (0, 1):  # impossible or certain: exactly so in the sample
                assert count == p * n
            else:
                assert abs(count - n * p) < 4.5 * math.sqrt(n * p * (1 - p)), (first, second)
        low, high = pair.difference_ci(0.999)
        assert low <= first_only - second_only <= high


def test_pairs_are_the_boards_of_each_chunk_solved_one_by_one():
    board, click, seed = Board(5, 4, 4), (2, 1), 5
    result = compare(board, solvers=SOLVERS, rule="safe-click", click=click, n=300,
                     seed=seed, chunk_size=120, workers=1)
    outcomes = []
    for index, size in enumerate([120, 120, 60]):
        rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(index,)))
        outcomes.append(solved_one_by_one(
            sample_mines(board, size, rule="safe-click", click=click, seed=rng), click))
    assert (result.joint == joint_of(np.concatenate(outcomes, axis=1))).all()


def test_each_solver_counts_what_pass_rate_counts_with_the_same_seed():
    kwargs = {"rule": "safe-click", "click": "corner", "n": 500, "seed": "2026-12-01",
              "chunk_size": 200, "workers": 1}
    result = compare("8x8/10", solvers=SOLVERS, **kwargs)
    for name, options, successes, capped in zip(result.contenders, OPTIONS, result.successes,
                                                result.capped, strict=True):
        alone = pass_rate("8x8/10", solver=options.solver,
                          use_mine_count=options.use_mine_count, **kwargs)
        assert (successes, capped) == (alone.successes, alone.capped), name
    assert result.seed == "2026-12-01"


def test_policies_play_the_same_layouts_with_the_same_tie_breaks():
    board, click, seed = Board(4, 4, 4), (0, 0), 9
    result = compare(board, policies=["safest", "best"], n=30, seed=seed, chunk_size=12,
                     workers=1)
    assert (result.rule, result.click, result.kind) == ("safe-click", click, "policies")
    won = {policy: [] for policy in ("safest", "best")}
    for index, size in enumerate([12, 12, 6]):
        layouts_seed, games_seed = np.random.SeedSequence(seed, spawn_key=(index,)).spawn(2)
        layouts = sample_mines(board, size, rule="safe-click", click=click, seed=layouts_seed)
        game_seeds = games_seed.spawn(size)
        for policy in won:
            won[policy] += [play(layout, click, policy=policy, seed=game_seed).won
                            for layout, game_seed in zip(layouts, game_seeds, strict=True)]
    assert (result.joint == joint_of(np.array([won["safest"], won["best"]]))).all()
    for policy, successes in zip(result.contenders, result.successes, strict=True):
        alone = win_rate(board, policy=policy, n=30, seed=seed, chunk_size=12, workers=1)
        assert successes == alone.successes


def test_results_do_not_depend_on_workers_and_repeat_from_their_seed(tmp_path):
    kwargs = {"solvers": SOLVERS[:3], "n": 600, "chunk_size": 150}
    serial = compare("beginner", **kwargs, seed=11, workers=1)
    pooled = compare("beginner", **kwargs, seed=11, workers=2)
    again = compare("beginner", **kwargs, seed=serial.seed, workers=1)
    assert (serial.joint == pooled.joint).all() and (serial.joint == again.joint).all()
    assert serial.capped == pooled.capped and serial.per_pair().equals(pooled.per_pair())
    with ChunkStore(tmp_path / "chunks.sqlite") as store:
        stored = compare("beginner", **kwargs, seed=11, workers=1, store=store)
        assert (store.written, store.reused) == (4, 0)
    with ChunkStore(tmp_path / "chunks.sqlite") as store:
        resumed = compare("beginner", **kwargs, seed=11, workers=1, store=store)
        assert (store.written, store.reused) == (0, 4)
    assert (stored.joint == serial.joint).all() and (resumed.joint == serial.joint).all()


def test_pair_rows_carry_counts_rates_intervals_and_tests():
    result = compare("beginner", solvers=SOLVERS, n=400, seed=3, workers=1)
    frame = result.per_pair(adjacent=True)
    assert list(zip(frame["first"], frame["second"], strict=True)) == [
        ("single-point", "subset"), ("subset", "logic"), ("logic", "logic (no mine count)")]
    assert len(result.per_pair()) == 6 and len(result.per_contender()) == 4
    for row in frame.to_dict("records"):
        table = [[row["both"], row["first_only"]], [row["second_only"], row["neither"]]]
        assert sum(map(sum, table)) == row["n"] == 400 and row["seed"] == 3
        assert row["difference"] == pytest.approx(row["first_rate"] - row["second_rate"])
        assert (row["difference_ci_low"], row["difference_ci_high"]) == \
            paired_difference_interval(table)
        assert (row["unpaired_ci_low"], row["unpaired_ci_high"]) == difference_interval(
            row["first_successes"], 400, row["second_successes"], 400)
        width = row["difference_ci_high"] - row["difference_ci_low"]
        unpaired = row["unpaired_ci_high"] - row["unpaired_ci_low"]
        assert row["width_ratio"] == width / unpaired < 1
        assert row["mcnemar_p"] == mcnemar(table, exact=True).pvalue
        assert row["first_ci_low"] < row["first_rate"] < row["first_ci_high"]
    assert repr(result).endswith("joint=<array 4x4>)")


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"solvers": []}, r"solvers \(\[\]\) must list at least two contenders"),
    ({"solvers": ["logic"]}, r"solvers \(\['logic'\]\) must list at least two"),
    ({"policies": []}, r"policies \(\[\]\) must list at least two contenders"),
    ({}, r"compare takes solvers or policies, exactly one of them"),
    ({"solvers": ["logic", "subset"], "policies": ["best", "safest"]},
     r"compare takes solvers or policies, exactly one"),
    ({"solvers": "logic"}, r"solvers \('logic'\) must be a list of solver names"),
    ({"solvers": ["logic", "psychic"]}, r"solver 'psychic' is not one of single-point"),
    ({"policies": ["best", "lucky"]}, r"policy 'lucky' is not one of safest, best"),
    ({"solvers": ["logic", "subset", "logic"]}, r"name 'logic' twice"),
    ({"solvers": ["logic", SolverOptions("logic")]}, r"name 'logic' twice"),
    ({"solvers": ["single-point", SolverOptions("single-point", use_mine_count=False)]},
     r"name 'single-point' twice"),
    ({"policies": ["best", "best"]}, r"policies \(\['best', 'best'\]\) name 'best' twice"),
    ({"solvers": ["logic", "subset"], "n": 0}, r"n \(0\) must be a positive integer"),
    ({"solvers": ["logic", "subset"], "chunk_size": 0}, r"chunk_size \(0\) must be a positive"),
    ({"solvers": ["logic", "subset"], "rule": "xp"}, r"rule 'xp' is not one of"),
    ({"policies": ["best", "safest"], "click": (9, 0)}, r"click \(9, 0\) is off"),
])
def test_bad_input_is_a_one_line_value_error(kwargs, match):
    with pytest.raises(ValueError, match=match) as error:
        compare("9x9/10", **({"n": 10} | kwargs))
    assert "\n" not in str(error.value)


def test_pair_by_unknown_name():
    result = compare("4x4/3", solvers=["single-point", "subset"], n=5, seed=0, workers=1)
    with pytest.raises(ValueError, match=r"contender 'logic' is not one of single-point, subset"):
        result.pair("logic", "subset")


def test_pairing_narrows_the_interval_of_logic_with_and_without_the_mine_count():
    # The acceptance check: on Expert, the same n, paired and unpaired intervals
    # of logic minus logic-without-count agree on the sign and the paired one is narrower.
    result = compare("expert", solvers=["logic", SolverOptions("logic", use_mine_count=False)],
                     n=4_000, seed=2026, workers=1)
    pair = result.pair("logic", "logic (no mine count)")
    paired, unpaired = pair.difference_ci(), pair.unpaired_ci()
    assert pair.second_only == 0  # the count only ever helps
    assert 0 < paired.low < pair.difference < paired.high
    assert 0 < unpaired.low < pair.difference < unpaired.high
    assert pair.width_ratio() < 1


def test_clicks_play_the_winxp_layouts_of_win_rate_and_share_untouched_boards():
    board, seed = Board(5, 5, 4), 13
    arms = [("winxp", (2, 2)), ("winxp", (0, 0)), ("safe-click", (0, 0))]
    result = compare_clicks(board, arms, n=30, seed=seed, chunk_size=12, workers=1)
    assert result.kind == "clicks" and (result.rule, result.click) == (None, None)
    assert result.contenders == ("winxp (2, 2)", "winxp (0, 0)", "safe-click (0, 0)")
    won = {arm: [] for arm in arms}
    for index, size in enumerate([12, 12, 6]):
        layouts_seed, games_seed, moves_seed = np.random.SeedSequence(
            seed, spawn_key=(index,)).spawn(3)
        uniform = sample_mines(board, size, rule="uniform", click=(0, 0), seed=layouts_seed)
        game_seeds = games_seed.spawn(size)
        for rule, click in arms:
            layouts = relocate_mines(board, uniform, click, rule=rule,
                                     seed=np.random.default_rng(moves_seed))
            won[(rule, click)] += [play(layout, click, seed=game_seed, rule=rule).won
                                   for layout, game_seed in zip(layouts, game_seeds,
                                                                strict=True)]
    assert (result.joint == joint_of(np.array(list(won.values())))).all()
    # each winxp arm is win_rate's run with the same seed: the same games
    for (rule, click), successes in zip(arms[:2], result.successes[:2], strict=True):
        alone = win_rate(board, rule=rule, click=click, n=30, seed=seed, chunk_size=12,
                         workers=1)
        assert successes == alone.successes
    frame = result.per_pair()
    assert len(frame) == 3 and frame["click_x"].isna().all()
    counts = frame[["both", "first_only", "second_only", "neither"]].sum(axis=1)
    assert (counts == 30).all()
    with pytest.raises(ValueError, match="twice"):
        compare_clicks(board, [("winxp", (1, 1)), ("winxp", "1,1")], n=4, workers=1)
    with pytest.raises(ValueError, match="at least two"):
        compare_clicks(board, [("winxp", (1, 1))], n=4, workers=1)
