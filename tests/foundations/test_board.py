import numpy as np
import pytest

from minestats.foundations.board import (
    BEGINNER,
    CLASSIC_BEGINNER,
    EXPERT,
    INTERMEDIATE,
    Board,
    resolve_board,
)


def brute_neighbourhood(board, x, y):
    return sorted(
        (x + dx) + (y + dy) * board.width
        for dy in (-1, 0, 1)
        for dx in (-1, 0, 1)
        if 0 <= x + dx < board.width and 0 <= y + dy < board.height
    )


@pytest.mark.parametrize("shape", [(1, 1), (1, 5), (5, 1), (2, 2), (3, 4), (9, 9), (30, 16)])
def test_neighbourhoods_match_brute_force(shape):
    board = Board(*shape, 0)
    for y in range(board.height):
        for x in range(board.width):
            expected = brute_neighbourhood(board, x, y)
            assert board.closed_neighbourhood((x, y)).tolist() == expected
            assert board.neighbourhood_sizes[y, x] == len(expected)
            row = board.neighbour_table[x + y * board.width]
            assert row[row >= 0].tolist() == expected


def test_presets_and_parse():
    assert (BEGINNER, INTERMEDIATE, EXPERT, CLASSIC_BEGINNER) == (
        Board(9, 9, 10), Board(16, 16, 40), Board(30, 16, 99), Board(8, 8, 10))
    assert Board.parse(" 30 x 16 / 99 ") == EXPERT
    assert resolve_board("Expert") is EXPERT
    assert resolve_board("classic-beginner") is CLASSIC_BEGINNER
    assert EXPERT.centre == (15, 8)
    assert EXPERT.index((15, 8)) == 15 + 8 * 30


def test_clicks_resolve():
    assert EXPERT.resolve_click("corner") == (0, 0)
    assert EXPERT.resolve_click("center") == (15, 8)
    assert EXPERT.resolve_click(" 29, 15 ") == (29, 15)
    assert EXPERT.resolve_click((np.int64(3), np.int64(2))) == (3, 2)


@pytest.mark.parametrize(
    ("args", "match"),
    [
        ((0, 5, 1), r"width \(0\) must be at least 1"),
        ((5, -2, 1), r"height \(-2\) must be at least 1"),
        ((3, 3, 10), r"mines \(10\) must be between 0 and 9"),
        ((3, 3, -1), r"mines \(-1\) must be between 0 and 9"),
        ((3.5, 3, 1), r"width \(3.5\) must be an integer"),
        ((True, 3, 1), r"width \(True\) must be an integer"),
    ],
)
def test_board_validation(args, match):
    with pytest.raises(ValueError, match=match):
        Board(*args)


@pytest.mark.parametrize(
    ("text", "match"),
    [("30x16", "not of the form"), ("axb/c", "not of the form"), ("", "not of the form")],
)
def test_parse_rejects_malformed(text, match):
    with pytest.raises(ValueError, match=match):
        Board.parse(text)


@pytest.mark.parametrize(
    ("click", "match"),
    [
        ((30, 0), r"click \(30, 0\) is off the 30x16 board"),
        ((0, -1), r"click \(0, -1\) is off"),
        ("middle", "must be 'x,y', 'centre' or 'corner'"),
        ((1.5, 2), "must hold two integers"),
        ((1, 2, 3), "must be a pair"),
        (None, "must be a pair"),
    ],
)
def test_click_validation(click, match):
    with pytest.raises(ValueError, match=match):
        EXPERT.resolve_click(click)


def test_resolve_board_rejects_unknown_names():
    with pytest.raises(ValueError, match="'huge' is neither a preset"):
        resolve_board("huge")
    with pytest.raises(ValueError, match="must be a Board"):
        resolve_board(42)
