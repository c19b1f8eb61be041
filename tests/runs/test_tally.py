"""`minestats.runs.tally.Tally`: named totals that add up as the flat vectors did."""

import numpy as np
import pytest

from minestats.runs.store import ChunkStore, decode_result, encode_result
from minestats.runs.sweeps import run_jobs
from minestats.runs.tally import Tally

SHAPES = {"won": (), "losses": (3, 4), "seconds": ()}


def random_tally(rng) -> Tally:
    return Tally({"won": rng.integers(0, 250), "losses": rng.integers(0, 9, size=(3, 4)),
                  "seconds": rng.random() * 1e-3})


def flat(tally: Tally) -> np.ndarray:
    """The flat float vector a chunk returned before tallies were named."""
    return np.concatenate([np.ravel(tally[name]).astype(float) for name in SHAPES])


def test_tallies_sum_to_what_the_flat_vectors_summed_to_the_last_bit():
    rng = np.random.default_rng(20261206)
    chunks = [random_tally(rng) for _ in range(50)]
    total, vector = sum(chunks), sum(flat(chunk) for chunk in chunks)
    assert flat(total).tobytes() == vector.tobytes()
    assert total["losses"].dtype == np.int64 and total["losses"].shape == (3, 4)


def test_a_tally_with_other_names_or_shapes_does_not_add():
    first = Tally({"won": 1, "lost": 2})
    with pytest.raises(ValueError, match=r"\['won', 'lost'\] to one of \['lost', 'won'\]"):
        first + Tally({"lost": 2, "won": 1})
    with pytest.raises(ValueError, match="whose won has shape \\[2\\]"):
        first + Tally({"won": [1, 1], "lost": 2})
    with pytest.raises(TypeError):
        first + np.array([1, 2])
    with pytest.raises(TypeError, match="names are strings"):
        Tally({1: 2})


def test_a_tallys_totals_are_read_only_and_its_own():
    counts = np.array([1, 2])
    tally = Tally({"counts": counts})
    counts[0] = 5
    assert tally["counts"].tolist() == [1, 2]
    with pytest.raises(ValueError, match="read-only"):
        tally["counts"][0] = 3


def test_concatenate_joins_per_trial_arrays_in_order():
    joined = Tally.concatenate([Tally({"ok": [True, False], "tries": [1, 4]}),
                                Tally({"ok": [True], "tries": [2]})])
    assert joined["ok"].tolist() == [True, False, True] and joined["tries"].tolist() == [1, 4, 2]
    with pytest.raises(ValueError, match="no tallies"):
        Tally.concatenate([])
    with pytest.raises(ValueError, match="cannot join"):
        Tally.concatenate([Tally({"ok": [True]}), Tally({"tries": [1]})])


def test_the_store_keeps_a_tally_by_its_names():
    tally = random_tally(np.random.default_rng(1))
    again = decode_result(encode_result(tally))
    assert isinstance(again, Tally) and again == tally
    assert [again[name].dtype for name in again] == [tally[name].dtype for name in tally]


@pytest.mark.parametrize("data", [
    b'{"tally": [["won", 1], ["won", 2]]}',  # a name twice
    b'{"tally": [["won", "three"]]}',  # not a number
    b'{"tally": [[1, 2]]}',  # not a name
    b'{"tally": [["won"]]}',  # not a pair
    b'{"tally": {"won": 1}}',  # not a list of pairs
])
def test_a_damaged_tally_is_refused_in_one_line(data):
    with pytest.raises(ValueError, match="not a stored chunk result"):
        decode_result(data)


def tally_chunk(config, size, seed_sequence):
    rng = np.random.default_rng(seed_sequence)
    return Tally({"won": rng.binomial(size, config), "sizes": np.full(2, size)})


def test_a_resumed_run_of_tallies_equals_a_fresh_one(tmp_path):
    jobs = [(0.3, np.random.SeedSequence(7)), (0.6, np.random.SeedSequence(8))]
    fresh = run_jobs(tally_chunk, jobs, n=95, chunk_size=10, workers=1)
    with ChunkStore(tmp_path / "store.sqlite") as store:
        run_jobs(tally_chunk, jobs[:1], n=95, chunk_size=10, workers=1, store=store)
        resumed = run_jobs(tally_chunk, jobs, n=95, chunk_size=10, workers=1, store=store)
    assert resumed == fresh
    assert [int(total["sizes"][0]) for total in fresh] == [95, 95]
