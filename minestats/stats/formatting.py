"""How a p-value is printed: with a floor.

Beyond about 1e-10 an asymptotic p-value measures the approximation, not the data,
so `format_p_value` prints ``< 1e-10`` there (``P_VALUE_FLOOR``).
"""

from __future__ import annotations

__all__ = ["P_VALUE_FLOOR", "format_p_value"]


P_VALUE_FLOOR = 1e-10
"""Smallest p-value `format_p_value` prints; anything below is shown as ``< 1e-10``."""


def format_p_value(p_value, *, floor=P_VALUE_FLOOR, digits=3) -> str:
    """Format a p-value: ``digits`` significant figures, or ``'< floor'`` below the floor.

    Far-tail p-values of asymptotic tests (``6e-279``) are artefacts of the
    approximation: two valid approximations can differ there by many orders of
    magnitude. Store the number, print ``< 1e-10``. A missing value prints as ``''``.

    Parameters
    ----------
    p_value : float or None
        The p-value; None, NaN and pandas' NA are missing.
    floor : float, optional
        Smallest value printed as a number, default `P_VALUE_FLOOR` (1e-10).
    digits : int, optional
        Significant figures, default 3.

    Returns
    -------
    str

    See Also
    --------
    minestats.stats.multiple.holm_adjust
        P-values adjusted over a family, formatted the same way.

    References
    ----------
    R. L. Wasserstein and N. A. Lazar, "The ASA statement on p-values: context, process,
    and purpose", The American Statistician 70 (2016), 129-133.

    Examples
    --------
    >>> format_p_value(6.35e-279), format_p_value(0.0016579), format_p_value(0.854)
    ('< 1e-10', '0.00166', '0.854')
    >>> format_p_value(3.3e-10), format_p_value(float("nan"))
    ('3.3e-10', '')
    """
    import pandas as pd

    if pd.isna(p_value):
        return ""
    if p_value < floor:
        return f"< {floor:.0e}".replace("e-0", "e-")
    return f"{p_value:.{digits}g}"
