"""The exact engine (`minestats.inference.constraints`): its search budget."""

import numpy as np
import pytest

from minestats.foundations.validation import SearchBudgetExceeded
from minestats.inference import board_consistency, counts_from_layout, reconstruct
from tests.oracles.count_matrices import crafted_layout, engine_count


def test_the_engine_is_bounded_where_strips_do_not_apply():
    # 20 % 3 == 2: the 20x20 crafted matrix is ambiguous and too wide for a strip.
    counts = counts_from_layout(crafted_layout(20, 20, 1))
    with pytest.raises(SearchBudgetExceeded, match="max_configurations = 20_000"):
        reconstruct(counts, max_configurations=20_000)
    assert engine_count(counts, 20_000) is None


def test_a_total_mine_count_spends_the_budget_per_total():
    # With a total, each search state keeps one count per mine total, and the cap
    # counts them: here 3,425 configurations without the total, 61,644 with it.
    layout = crafted_layout(16, 30, 0)
    numbers = np.where(~layout & (np.arange(16)[:, None] % 2 == 0),
                       counts_from_layout(layout) - layout, -1)
    assert not board_consistency(numbers, max_configurations=10_000).capped
    assert board_consistency(numbers, mines=int(layout.sum()), max_configurations=10_000).capped
    result = board_consistency(numbers, mines=int(layout.sum()))
    assert not result.capped and result.n_solutions == 20_699_587_584

