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


def html_texts(markup: str) -> list[str]:
    """The text of an HTML fragment, one string per run of text between tags."""
    from html.parser import HTMLParser

    texts = []
    parser = HTMLParser()
    parser.handle_data = texts.append
    parser.feed(markup)
    return texts


def proportion_results():
    """One result of every class that counts successes out of n, small and seeded."""
    return {
        "PassRate": minestats.pass_rate("beginner", n=1_000, seed=1, workers=1),
        "WinRate": minestats.win_rate("beginner", n=200, seed=2, workers=1),
        "OpeningSimulation": minestats.simulate_opening("beginner", rule="uniform",
                                                        click="centre", n=300, seed=3,
                                                        workers=1),
        "BBBVShare": minestats.bbbv_histogram("beginner", n=200, seed=4,
                                              workers=1).share(10, 30),
        "NoGuessBatch": minestats.generate_no_guess_batch("6x6/5", "centre", n=4, seed=5,
                                                          workers=1),
    }


def test_every_proportion_repr_leads_with_estimate_interval_n_and_seed():
    for name, result in proportion_results().items():
        low, high = result.proportion_ci()
        estimate = f"{result.proportion:.3f} [{low:.3f}, {high:.3f}]"
        assert repr(result).startswith(f"{name} {estimate} n={result.n:,} seed={result.seed} ("
                                       ), repr(result)
        lines = [line.split(maxsplit=1) for line in result.summary().splitlines()]
        assert lines[:4] == [[name], ["estimate", f"{estimate} (95% Wilson interval)"],
                             ["n", f"{result.n:,}"], ["seed", str(result.seed)]]
        assert html_texts(result._repr_html_())[:7] == [
            name, "estimate [95% Wilson]", estimate, "n", f"{result.n:,}", "seed",
            str(result.seed)]


def test_a_rare_event_is_shown_to_the_digits_its_interval_needs():
    from dataclasses import dataclass

    from minestats.stats.proportions import ProportionResult

    @dataclass(frozen=True, eq=False)
    class Rare(ProportionResult):
        successes: int
        n: int

    assert repr(Rare(2, 2_000)) == "Rare 0.0010 [0.0003, 0.0036] n=2,000 (successes=2)"


def test_rates_are_named_after_what_they_estimate_and_logic_is_the_default_solver():
    results = proportion_results()
    assert results["WinRate"].win_rate == results["WinRate"].proportion
    assert results["PassRate"].pass_rate == results["PassRate"].proportion
    assert results["PassRate"] == minestats.pass_rate("beginner", solver="logic", n=1_000,
                                                      seed=1, workers=1)
