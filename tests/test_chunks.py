import numpy as np
import pytest

from minestats.runs.chunks import chunk_seeds, chunk_sizes, map_chunks
from minestats.runs.seeds import seed_label


def test_chunk_plan_and_seeds():
    assert chunk_sizes(10, 3) == [3, 3, 3, 1]
    parent = np.random.SeedSequence(5)
    spawned = np.random.SeedSequence(5).spawn(3)
    for keyed, child in zip(chunk_seeds(parent, 3), spawned, strict=True):
        assert (keyed.generate_state(4) == child.generate_state(4)).all()
    nested = next(chunk_seeds(np.random.SeedSequence(5, spawn_key=(2,)), 1))
    assert nested.spawn_key == (2, 0)
    assert seed_label(nested) == "5/2/0"
    with pytest.raises(ValueError, match=r"chunk_size \(0\) must be a positive integer"):
        chunk_sizes(10, 0)
    with pytest.raises(ValueError, match=r"n \(-1\) must be a non-negative integer"):
        chunk_sizes(-1, 10)


def test_map_chunks_keeps_task_order_on_a_pool():
    assert list(map_chunks(abs, [-3, 1, -2, 5, -4, 6], workers=2)) == [3, 1, 2, 5, 4, 6]
    assert list(map_chunks(abs, iter([-7]), workers=2)) == [7]
    with pytest.raises(ValueError, match=r"workers \('2'\)"):
        map_chunks(abs, [1], workers="2")
