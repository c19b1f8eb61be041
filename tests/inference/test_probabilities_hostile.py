"""Hostile input to the mine probabilities: a position past any enumeration."""

from fractions import Fraction

import numpy as np

import minestats


def test_a_huge_unconstrained_region_is_answered_by_its_closed_form(monkeypatch):
    """The issue's 1 x 1,000,000 row: one division per class of alike cells.

    The work is checked, not the clock: the exact engine's search over components is
    never entered, and the compiled float path answers too.
    """
    from math import comb

    from minestats.inference import constraints as engine

    def entered(*args, **kwargs):
        raise AssertionError("the enumeration was entered for a region with no constraint")

    monkeypatch.setattr(engine, "_Component", entered)
    unknown = np.full((1, 10**6), -1)
    counted = minestats.mine_probabilities(unknown, mines=10, exact=True)
    free = minestats.mine_probabilities(unknown)
    assert (minestats.mine_probabilities(unknown, mines=10).probability == 1e-5).all()
    assert counted.n_solutions == comb(10**6, 10) and free.n_solutions == 2**10**6
    assert counted.fractions[0, 123] == Fraction(1, 10**5)
    assert (counted.probability == 1e-5).all() and (free.probability == 0.5).all()
