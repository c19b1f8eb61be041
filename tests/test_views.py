"""Seeing positions and games: text input, result reprs, figures and HTML read back."""

import pytest

import minestats
from minestats.inference import mine_probabilities

POSITION = "1 ? ? ?\n? ? 2 ?\nF ? ? ?\n"
"""A position as text: a flag, two numbers, nine unknown cells."""


def test_a_position_can_be_given_to_mine_probabilities_as_its_text():
    numbers, flags = minestats.parse_position(POSITION)
    from_arrays = mine_probabilities(numbers, flags=flags, mines=4, exact=True)
    from_text = mine_probabilities(POSITION, mines=4, exact=True)
    assert from_text == from_arrays
    assert from_text.probability[2, 0] == 1.0  # the flag read from the text
    with pytest.raises(ValueError, match="give neither unknown nor flags with it"):
        mine_probabilities(POSITION, flags=flags, mines=4)
    with pytest.raises(ValueError, match=r"line 2: 'x' is not a number 0-8"):
        mine_probabilities("1?\n?x\n", mines=1)
