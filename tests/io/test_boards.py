import numpy as np
import pytest

from minestats.io.boards import format_text, from_mbf, parse_counts, parse_text, to_mbf
from minestats.mechanics.sampling import sample_mines


@pytest.mark.parametrize("board", ["30x16/99", "1x1/0", "1x7/3", "255x2/100"])
def test_text_and_mbf_round_trip(board):
    for layout in sample_mines(board, 20, rule="uniform", click=(0, 0), seed=4):
        assert (parse_text(format_text(layout)) == layout).all()
        assert (from_mbf(to_mbf(layout)) == layout).all()


def test_mbf_layout_by_hand():
    # 4 wide, 2 high, mines at (3, 0) and (0, 1): header 04 02 0002, then x y pairs
    # in row-major order.
    layout = np.zeros((2, 4), dtype=bool)
    layout[0, 3] = layout[1, 0] = True
    assert to_mbf(layout) == bytes([4, 2, 0, 2, 3, 0, 0, 1])
    assert (from_mbf(bytes([4, 2, 0, 2, 0, 1, 3, 0])) == layout).all()  # any mine order


def test_text_ignores_blank_lines_and_indentation():
    assert parse_text("\n  *.\n\n  .*  \n").tolist() == [[True, False], [False, True]]


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("", "the board is empty"),
        ("*.\n*x\n", r"line 2: unexpected character 'x'"),
        ("*.\n\n*..\n", "line 3: row has 3 cells, expected 2 like line 1"),
    ],
)
def test_bad_text_names_the_line(text, match):
    with pytest.raises(ValueError, match=match):
        parse_text(text)


@pytest.mark.parametrize(
    ("data", "match"),
    [
        (bytes([3, 3, 0]), "shorter than its 4-byte header"),
        (bytes([0, 3, 0, 0]), "board size 0x3"),
        (bytes([3, 3, 0, 2, 0, 0]), "says 2 mines .* has 6 bytes"),
        (bytes([3, 3, 0, 1, 3, 0]), r"mine 0 at \(3, 0\) is off the 3x3 board"),
        (bytes([3, 3, 0, 2, 1, 1, 1, 1]), r"mine 1 at \(1, 1\) repeats"),
    ],
)
def test_bad_mbf_is_refused(data, match):
    with pytest.raises(ValueError, match=match):
        from_mbf(data)


def test_mbf_refuses_boards_it_cannot_hold():
    with pytest.raises(ValueError, match="up to 255x255; got 256x1"):
        to_mbf(np.zeros((1, 256), dtype=bool))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "no rows of counts"),
        ("\n  \n", "no rows of counts"),
        ("1 1\n1 1 1\n", "line 2: row has 3 cells, expected 2 like line 1"),
        ("\n1 1\n\n1\n", "line 4: row has 1 cells, expected 2 like line 2"),
        ("1 1\n1 x\n", "line 2: 'x' is not an integer"),
        ("1 1\n1 1\n2.0 1\n", "line 3: '2.0' is not an integer"),
        ("1 12\n", "line 1: value 12 is outside 0..9"),
        ("1 1\n-1 0\n", "line 2: value -1 is outside 0..9"),
    ],
)
def test_parse_counts_errors_name_the_line(text, message):
    with pytest.raises(ValueError, match=message):
        parse_counts(text)


def test_parse_counts_reads_rows():
    counts = parse_counts("\n 1 2\t3\n4 5 6  \n\n")
    assert counts.tolist() == [[1, 2, 3], [4, 5, 6]] and counts.dtype == np.int64

