"""Old names kept for one release: they still work, and say what replaced them.

A module that renames a public object keeps the old name through
`deprecated_names`, which returns the module's ``__getattr__``: looking the old name
up returns the new object with a `DeprecationWarning` naming its replacement and
the release that removes it, and an unknown name is the usual `AttributeError`. A
function that renames a keyword keeps the old one through `renamed_parameters`, a
class that renames an attribute through `RenamedAttribute`, and a renamed module its
old dotted name through `renamed_module`.
"""

from __future__ import annotations

import functools
import importlib
import sys
import types
import warnings
from collections.abc import Callable, Mapping

__all__ = ["RenamedAttribute", "deprecated_names", "renamed_module", "renamed_parameters"]


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


def renamed_parameters(renamed: Mapping[str, str], *, removed_in: str):
    """Return a decorator that accepts the old names of renamed keywords, warning.

    Positional calls are untouched; a keyword given by its old name is passed on under
    its new one with a `DeprecationWarning`, and both names at once are a `TypeError`.
    The decorated function keeps its signature (with the new names) and docstring.

    Parameters
    ----------
    renamed : mapping of str to str
        Each old keyword and the name that replaced it.
    removed_in : str
        The release that drops the old names.

    Examples
    --------
    >>> import warnings
    >>> @renamed_parameters({"mines": "layout"}, removed_in="0.4")
    ... def count(layout):
    ...     return sum(layout)
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     total = count(mines=[1, 0, 1])
    >>> total, str(caught[0].message)
    (2, 'count(mines=...) is deprecated and will be removed in 0.4: use count(layout=...)')
    """

    def decorate(function):
        name = function.__qualname__.removesuffix(".__init__")

        @functools.wraps(function)
        def accepting_old_names(*args, **kwargs):
            for old, new in renamed.items():
                if old not in kwargs:
                    continue
                if new in kwargs:
                    raise TypeError(f"{name}() got both {new!r} and its old name {old!r}")
                warnings.warn(f"{name}({old}=...) is deprecated and will be removed in "
                              f"{removed_in}: use {name}({new}=...)", DeprecationWarning,
                              stacklevel=2)
                kwargs[new] = kwargs.pop(old)
            return function(*args, **kwargs)

        return accepting_old_names

    return decorate


class RenamedAttribute:
    """A class attribute that reads a renamed attribute under its old name, warning.

    Parameters
    ----------
    new : str
        The attribute's new name.
    removed_in : str
        The release that drops the old name.

    Examples
    --------
    >>> import warnings
    >>> class Result:
    ...     layout = [1, 0]
    ...     mines = RenamedAttribute("layout", removed_in="0.4")
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     value = Result().mines
    >>> value, str(caught[0].message)
    ([1, 0], 'Result.mines is deprecated and will be removed in 0.4: use Result.layout')
    """

    def __init__(self, new: str, *, removed_in: str):
        self.new, self.removed_in, self.old = new, removed_in, None

    def __set_name__(self, owner, name: str):
        self.old = name

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        name = type(instance).__name__
        warnings.warn(f"{name}.{self.old} is deprecated and will be removed in "
                      f"{self.removed_in}: use {name}.{self.new}", DeprecationWarning,
                      stacklevel=2)
        return getattr(instance, self.new)


class _RenamedModule(types.ModuleType):
    """The old name of a renamed module: each attribute read warns, then reads the new one."""

    def __init__(self, old: str, new: str, removed_in: str):
        super().__init__(old, f"Deprecated: renamed to {new}; removed in {removed_in}.")
        self._new, self._removed_in = new, removed_in

    def __getattr__(self, name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        warnings.warn(f"{self.__name__} is deprecated and will be removed in "
                      f"{self._removed_in}: use {self._new}", DeprecationWarning, stacklevel=2)
        return getattr(importlib.import_module(self._new), name)


def renamed_module(old: str, new: str, *, removed_in: str) -> None:
    """Keep a renamed module importable under its old dotted name, warning on each use.

    The package that held the old module calls this when it is imported, so that
    ``from old import name`` finds a stand-in in `sys.modules`; reading a name from it
    warns (`DeprecationWarning`) and returns the new module's object. No file keeps
    the old name.

    Parameters
    ----------
    old, new : str
        The module's old and new dotted names.
    removed_in : str
        The release that drops the old name.

    Examples
    --------
    >>> import warnings
    >>> renamed_module("demo_old_json", "json", removed_in="0.4")
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     from demo_old_json import dumps
    >>> dumps([1]), str(caught[0].message)
    ('[1]', 'demo_old_json is deprecated and will be removed in 0.4: use json')
    """
    sys.modules.setdefault(old, _RenamedModule(old, new, removed_in))
