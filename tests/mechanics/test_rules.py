import pytest

from minestats.foundations.board import Board
from minestats.mechanics.rules import RULES, check_rule, max_mines, placement_cells


def test_rule_names_are_the_designs():
    assert RULES == ("uniform", "safe-click", "safe-opening", "winxp")


def test_placement_cells_follow_each_rule():
    board = Board(4, 3, 2)
    click = (1, 1)
    everything = list(range(12))
    assert placement_cells(board, click, "uniform").tolist() == everything
    assert placement_cells(board, click, "winxp").tolist() == everything
    assert placement_cells(board, click, "safe-click").tolist() == [
        c for c in everything if c != 5]
    neighbourhood = {0, 1, 2, 4, 5, 6, 8, 9, 10}
    assert placement_cells(board, click, "safe-opening").tolist() == [
        c for c in everything if c not in neighbourhood]


@pytest.mark.parametrize(
    ("board", "click", "rule", "match"),
    [
        (Board(3, 3, 1), (1, 1), "safe-opening",
         r"mines \(1\) must be at most 0 for rule 'safe-opening' on 3x3 with click \(1, 1\)"),
        (Board(3, 3, 9), (0, 0), "safe-click",
         r"mines \(9\) must be at most 8 for rule 'safe-click'"),
        (Board(3, 3, 9), (0, 0), "winxp", r"mines \(9\) must be at most 8 for rule 'winxp'"),
        (Board(3, 3, 1), (0, 0), "random", "rule 'random' is not one of"),
        (Board(3, 3, 1), (3, 0), "uniform", r"click \(3, 0\) is off"),
    ],
)
def test_impossible_combinations_are_refused(board, click, rule, match):
    with pytest.raises(ValueError, match=match):
        check_rule(board, click, rule)


def test_full_board_is_fine_for_uniform_only():
    board = Board(3, 3, 9)
    assert check_rule(board, (0, 0), "uniform") == (0, 0)
    assert max_mines(board, (0, 0), "safe-opening") == 5
