"""Old names kept for one release: they still work, and say what replaced them.

A module that renames a public object keeps the old name through
`deprecated_names`, which returns the module's ``__getattr__``: looking the old name
up returns the new object with a `DeprecationWarning` naming its replacement and
the release that removes it, and an unknown name is the usual `AttributeError`.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping

__all__ = ["deprecated_names"]


def deprecated_names(module: str, renamed: Mapping[str, tuple[object, str]], *,
                     removed_in: str) -> Callable[[str], object]:
    """Return a module ``__getattr__`` that serves old names of renamed objects, warning.

    Parameters
    ----------
    module : str
        The module's ``__name__``, for the error of an unknown name.
    renamed : mapping of str to (object, str)
        Each old name: the object that replaced it and its new name as a user writes it.
    removed_in : str
        The release that drops the old names.

    Returns
    -------
    callable
        To assign to the module's ``__getattr__`` (PEP 562).

    Examples
    --------
    >>> import warnings
    >>> lookup = deprecated_names("demo", {"Old": (int, "demo.New")}, removed_in="0.4")
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     found = lookup("Old")
    >>> found is int, str(caught[0].message)
    (True, 'demo.Old is deprecated and will be removed in 0.4: use demo.New')
    """

    def __getattr__(name: str):
        if name not in renamed:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        new, new_name = renamed[name]
        warnings.warn(f"{module}.{name} is deprecated and will be removed in {removed_in}: "
                      f"use {new_name}", DeprecationWarning, stacklevel=2)
        return new

    return __getattr__
