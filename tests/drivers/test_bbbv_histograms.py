from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from minestats.drivers.bbbv_histograms import bbbv_histogram
from minestats.foundations.board import BEGINNER, Board
from minestats.mechanics.game import bbbv
from minestats.mechanics.sampling import sample_mines
from minestats.stats import wilson_interval


def _values_of_chunks(board, rule, click, seed, sizes):
    """3BV of every board the histogram's chunks draw, one layout at a time.

    One layout goes through `scipy.ndimage.label`, a batch through the compiled
    kernel, so this is an independent count of the same boards.
    """
    values = []
    for index, size in enumerate(sizes):
        rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(index,)))
        values += [bbbv(layout)
                   for layout in sample_mines(board, size, rule=rule, click=click, seed=rng)]
    return np.array(values)


def test_histogram_counts_the_boards_of_its_chunks_one_by_one():
    board = Board(7, 6, 9)
    histogram = bbbv_histogram(board, rule="winxp", click=(1, 4), n=250, seed=3,
                               chunk_size=100, workers=1)
    values = _values_of_chunks(board, "winxp", (1, 4), 3, [100, 100, 50])
    expected = np.bincount(values, minlength=board.cells - board.mines + 1)
    assert histogram.counts.tolist() == expected.tolist()
    assert histogram.counts.size == board.cells - board.mines + 1
    assert (histogram.n, histogram.seed, histogram.click) == (250, 3, (1, 4))
    assert histogram.mean() == pytest.approx(values.mean(), rel=1e-12)
    assert histogram.std() == pytest.approx(values.std(ddof=1), rel=1e-12)
    q = [0, 0.05, 0.25, 0.5, 0.75, 0.95, 1]
    assert histogram.quantile(q).tolist() == np.quantile(values, q,
                                                         method="inverted_cdf").tolist()
    share = histogram.share_between(5, 9)
    inside = int(((values >= 5) & (values <= 9)).sum())
    assert share["successes"] == inside and share["n"] == 250
    assert (share["ci_low"], share["ci_high"]) == pytest.approx(wilson_interval(inside, 250))


def test_same_seed_same_histogram_on_any_number_of_workers():
    one = bbbv_histogram(BEGINNER, n=3_000, seed=11, chunk_size=700, workers=1)
    with ThreadPoolExecutor(3) as pool:
        many = bbbv_histogram(BEGINNER, n=3_000, seed=11, chunk_size=700, workers=pool.map)
    assert one.counts.tolist() == many.counts.tolist()
    other = bbbv_histogram(BEGINNER, n=3_000, seed=12, chunk_size=700, workers=1)
    assert one.counts.tolist() != other.counts.tolist()


def test_empty_board_has_3bv_one_and_a_full_board_has_one_safe_click():
    assert bbbv_histogram(Board(4, 3, 0), n=10, seed=0, workers=1).counts.tolist() \
        == [0, 10] + [0] * 11
    full = bbbv_histogram(Board(4, 3, 11), rule="safe-click", n=10, seed=0, workers=1)
    assert full.counts.tolist() == [0, 10] and full.quantile(0.5) == 1


def test_frames_carry_inputs_and_add_up():
    histogram = bbbv_histogram(BEGINNER, rule="safe-opening", n=2_000, seed=5, workers=1)
    frame = histogram.per_value()
    assert frame["count"].sum() == 2_000 and (frame["count"] > 0).all()
    assert set(frame["rule"]) == {"safe-opening"} and set(frame["seed"]) == {5}
    summary = histogram.to_dict()
    assert summary["min"] <= summary["q05"] <= summary["q50"] <= summary["q95"] <= summary["max"]
    assert summary["mean"] == pytest.approx((frame["bbbv"] * frame["count"]).sum() / 2_000)


def test_safe_opening_lowers_3bv_against_uniform():
    # The protected opening clears cells that would otherwise each need a click:
    # the mean shift is many standard errors wide at this n.
    uniform = bbbv_histogram(BEGINNER, rule="uniform", n=4_000, seed=1, workers=1)
    opening = bbbv_histogram(BEGINNER, rule="safe-opening", n=4_000, seed=1, workers=1)
    standard_error = np.hypot(uniform.std(), opening.std()) / np.sqrt(4_000)
    assert uniform.mean() - opening.mean() > 5 * standard_error


@pytest.mark.parametrize("bad", [
    {"n": 0}, {"n": 1.5}, {"rule": "nope"}, {"click": (9, 0)}, {"chunk_size": 0},
])
def test_bad_input_is_a_value_error(bad):
    with pytest.raises(ValueError):
        bbbv_histogram(BEGINNER, **({"n": 10, "seed": 0, "workers": 1} | bad))


@pytest.mark.parametrize("q", [-0.1, 1.5, np.nan])
def test_quantile_outside_unit_interval_is_rejected(q):
    histogram = bbbv_histogram(BEGINNER, n=10, seed=0, workers=1)
    with pytest.raises(ValueError, match="quantile"):
        histogram.quantile(q)
