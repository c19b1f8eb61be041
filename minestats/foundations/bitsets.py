"""Sets of small non-negative integers held as Python int bitsets (bit k set: k is in).

The solvers and the consistency checker use them for the mine totals a component
of the frontier can take, and combine components with `sumset`.
"""

from __future__ import annotations

__all__ = ["sumset"]


def sumset(first: int, second: int) -> int:
    """Bitset of ``a + b`` for every ``a`` in ``first`` and ``b`` in ``second``.

    Examples
    --------
    >>> bin(sumset(0b101, 0b11))  # {0, 2} + {0, 1} = {0, 1, 2, 3}
    '0b1111'
    >>> sumset(0b1, 0)
    0
    """
    result = 0
    while second:
        lowest = second & -second
        result |= first << (lowest.bit_length() - 1)
        second ^= lowest
    return result
