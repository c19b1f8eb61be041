"""Rules and policies as objects: a rule added to the table works everywhere, moves nothing.

The reference for a rule's distribution is plain enumeration of every layout with
itertools; a toy rule, registered for one test only, must give the same closed forms,
samples, exact optimal play and all-clicks counts as the built-in rule it copies, and
enter no committed experiment.
"""

import ast
import itertools
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from minestats.foundations.board import Board
from minestats.foundations.policies import POLICIES, POLICY_TABLE
from minestats.foundations.rules import RULE_TABLE, RULES, Rule
from minestats.foundations.validation import check_rule_name, resolve_policy, resolve_rule
from minestats.mechanics.opening_probabilities import opening_probability, opening_probability_map
from minestats.mechanics.rules import max_mines, placement_cells
from minestats.mechanics.sampling import count_openings_all_clicks, sample_mines
from minestats.players.chooser import BEST, SAFEST
from minestats.players.optimal import layout_distribution, optimal_win_probability

TOY = Rule("toy-safe-click", protects="click", relocates=False)
"""A second rule that keeps the click free, as ``safe-click`` does, under its own name."""


@pytest.fixture
def toy_rule(monkeypatch):
    """Register `TOY` in the rule table for one test."""
    monkeypatch.setitem(RULE_TABLE, TOY.name, TOY)
    return TOY.name


def enumerated_opening(board: Board, click, protected) -> Fraction:
    """P(the click opens): every layout avoiding ``protected`` counted, itertools only."""
    x, y = click
    neighbourhood = {(x + dx) + (y + dy) * board.width
                     for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                     if 0 <= x + dx < board.width and 0 <= y + dy < board.height}
    free = [cell for cell in range(board.cells) if cell not in protected]
    layouts = list(itertools.combinations(free, board.mines))
    opens = sum(1 for layout in layouts if not neighbourhood & set(layout))
    return Fraction(opens, len(layouts))


def test_the_table_holds_the_four_rules_with_their_properties():
    assert RULES == ("uniform", "safe-click", "safe-opening", "winxp")
    assert [(RULE_TABLE[name].protects, RULE_TABLE[name].relocates) for name in RULES] == [
        ("nothing", False), ("click", False), ("neighbourhood", False), ("nothing", True)]
    assert [name for name in RULES if RULE_TABLE[name].symmetric] == list(RULES[:3])
    assert [name for name in RULES if RULE_TABLE[name].needs_click] == list(RULES[1:])


@pytest.mark.parametrize("click", [(0, 0), (1, 0), (1, 1), (3, 2)])
@pytest.mark.parametrize("rule", ["uniform", "safe-click", "safe-opening"])
def test_protected_cells_and_max_mines_match_enumeration(rule, click):
    board = Board(4, 3, 2)
    protected = set(RULE_TABLE[rule].protected_cells(board, click))
    assert sorted(set(range(board.cells)) - protected) == placement_cells(board, click,
                                                                          rule).tolist()
    assert max_mines(board, click, rule) == board.cells - len(protected)
    assert opening_probability(board, click, rule=rule) == enumerated_opening(
        board, click, protected)


def test_a_rule_object_is_accepted_where_a_name_is():
    rule = RULE_TABLE["safe-opening"]
    assert check_rule_name(rule) == "safe-opening"
    assert opening_probability("9x9/10", (0, 0), rule=rule) == 1
    with pytest.raises(ValueError, match=r"rule Rule\(name='winxp-ish'.* is not one of"):
        resolve_rule(Rule("winxp-ish", protects="nothing", relocates=True))


def test_a_rule_that_protects_and_relocates_is_refused():
    with pytest.raises(ValueError, match="no mine to relocate"):
        Rule("both", protects="click", relocates=True)
    with pytest.raises(ValueError, match="protects 'corner' is not one of"):
        Rule("corner", protects="corner", relocates=False)


def test_a_toy_rule_is_one_entry_of_the_table(toy_rule):
    """Registered, it deals as ``safe-click`` deals, in every part that deals."""
    board = Board(4, 3, 2)
    assert check_rule_name(toy_rule) == toy_rule
    for click in [(0, 0), (2, 1)]:
        exact = enumerated_opening(board, click, {board.index(click)})
        assert opening_probability(board, click, rule=toy_rule) == exact
    assert np.array_equal(opening_probability_map(board, rule=toy_rule),
                          opening_probability_map(board, rule="safe-click"))
    layouts = sample_mines(board, 200, rule=toy_rule, click=(2, 1), seed=3)
    assert not layouts[:, 1, 2].any() and (layouts.sum(axis=(1, 2)) == 2).all()
    assert np.array_equal(layouts, sample_mines(board, 200, rule="safe-click", click=(2, 1),
                                                seed=3))
    assert np.array_equal(count_openings_all_clicks(board, 500, rule=toy_rule, seed=4),
                          count_openings_all_clicks(board, 500, rule="safe-click", seed=4))
    mines, weights = layout_distribution("3x3/2", rule=toy_rule, click=(0, 0))
    assert len(mines) == 28 and set(weights.tolist()) == {1}
    assert optimal_win_probability("3x3/2", rule=toy_rule) == optimal_win_probability(
        "3x3/2", rule="safe-click")


def test_a_toy_rule_enters_no_committed_experiment(toy_rule):
    """The experiments name the rules and policies they measure: none iterates over the
    package's lists, so a rule added to the table moves no committed stream."""
    from minestats.experiments import common, win_rate_by_click

    assert common.PAPER_RULES == RULES
    assert toy_rule not in common.PAPER_RULES
    assert {rule for _, rule in win_rate_by_click.MAP_STREAMS} == set(RULES)
    assert sorted(win_rate_by_click.MAP_STREAMS.values()) == list(range(12))
    experiments = Path(common.__file__).parent
    for path in experiments.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                named = {alias.name for alias in node.names}
                assert not named & {"RULES", "POLICIES"}, (
                    f"{path.name} imports the whole table ({node.module}): name the rules "
                    "the experiment measures (PAPER_RULES)")


def test_policies_carry_the_codes_the_chooser_switches_on():
    assert POLICIES == ("safest", "best")
    assert (POLICY_TABLE["safest"].code, POLICY_TABLE["best"].code) == (SAFEST, BEST)
    assert [resolve_policy(name).tuned for name in POLICIES] == [False, True]
    with pytest.raises(ValueError, match="policy 'lucky' is not one of safest, best"):
        resolve_policy("lucky")
