"""The parsers of board text, MBF bytes, positions and count matrices, fuzzed.

Whatever the input (hypothesis draws it), each returns a well-formed array or raises a
one-line ValueError.
"""


from hypothesis import given, settings
from hypothesis import strategies as st

from minestats.io.boards import from_mbf, parse_counts, parse_position, parse_text


def one_line_value_error(parse, data):
    try:
        return parse(data)
    except ValueError as error:
        assert "\n" not in str(error), str(error)
        return None


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="*.x \n\r\t01", max_size=60))
def test_fuzzed_board_text_parses_or_fails_in_one_line(text):
    layout = one_line_value_error(parse_text, text)
    if layout is not None:
        assert layout.dtype == bool and layout.ndim == 2 and layout.size > 0


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=40))
def test_fuzzed_mbf_bytes_parse_or_fail_in_one_line(data):
    layout = one_line_value_error(from_mbf, data)
    if layout is not None:
        assert layout.dtype == bool and layout.shape == (data[1], data[0])
        assert layout.sum() == data[2] * 256 + data[3]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123456789?F \n", max_size=40))
def test_fuzzed_positions_parse_or_fail_in_one_line(text):
    parsed = one_line_value_error(parse_position, text)
    if parsed is not None:
        numbers, flags = parsed
        assert numbers.shape == flags.shape and numbers.ndim == 2
        assert ((numbers == -1) | ((numbers >= 0) & (numbers <= 8))).all()


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123456789- \n", max_size=40))
def test_fuzzed_count_matrices_parse_or_fail_in_one_line(text):
    counts = one_line_value_error(parse_counts, text)
    if counts is not None:
        assert counts.ndim == 2 and ((counts >= 0) & (counts <= 9)).all()
