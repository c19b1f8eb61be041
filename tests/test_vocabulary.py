"""One vocabulary across the public API: ``mines`` a count, ``layout`` an array, ``numbers``
the revealed numbers; the old names still work for one release, with a warning.

The public API is the faces' ``__all__``: ``minestats`` and the subpackages that list
names. Each name's signature and numpydoc sections are read; a word of the vocabulary
must be documented with the type it means everywhere.
"""

import importlib
import inspect
import re
import warnings

import numpy as np
import pytest

import minestats

FACES = ("minestats", "minestats.inference", "minestats.players", "minestats.solvers",
         "minestats.stats")

MEANING = {
    "mines": (r"^int\b", "a mine count (int)"),
    "layout": (r"^(array_like|numpy\.ndarray) of bool, shape \(height, width\)",
               "one layout: a bool array of shape (height, width)"),
    "layouts": (r"^(array_like|numpy\.ndarray) of bool, shape \((n|games), height, width\)",
                "a batch of layouts: a bool array of shape (n, height, width)"),
    "numbers": (r"^(array_like|numpy\.ndarray) of int",
                "the numbers shown (an int array, unknown cells negative)"),
}
"""Each word of the vocabulary: the documented type it must have, and what it means."""

ENTRY = re.compile(r"^ {0,4}([A-Za-z_][\w, ]*) : (.+)$", re.M)


def public_objects():
    """Yield ``(qualified name, object)`` for every public name and its public methods."""
    seen = set()
    for face in FACES:
        module = importlib.import_module(face)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            named = [(f"{face}.{name}", getattr(module, name)) for name in module.__all__]
        for qualified, obj in named:
            if id(obj) in seen or not (inspect.isclass(obj) or callable(obj)):
                continue
            seen.add(id(obj))
            yield qualified, obj
            if inspect.isclass(obj):
                for name, member in vars(obj).items():
                    if not name.startswith("_") and inspect.isfunction(member):
                        yield f"{qualified}.{name}", member


def documented_types(obj) -> dict:
    """Return ``{name: documented type}`` from an object's numpydoc sections."""
    types = {}
    for names, kind in ENTRY.findall(inspect.getdoc(obj) or ""):
        for name in names.split(","):
            types.setdefault(name.strip(), kind)
    return types


def signature_names(obj) -> list[str]:
    """Return the parameter names of ``obj``'s signature (its fields, for a class)."""
    try:
        return list(inspect.signature(obj).parameters)
    except (TypeError, ValueError):
        return []


def misuses(qualified: str, obj) -> list[str]:
    """Return the vocabulary words ``obj`` takes or holds with another meaning."""
    types = documented_types(obj)
    found = []
    for name in sorted(set(signature_names(obj)) | set(types)):
        if name not in MEANING:
            continue
        pattern, meaning = MEANING[name]
        if name not in types:
            found.append(f"{qualified}: {name!r} is not documented (it must be {meaning})")
        elif not re.match(pattern, types[name]):
            found.append(f"{qualified}: {name!r} is {types[name]!r}, but it means {meaning}")
    return found


def test_the_public_api_uses_one_vocabulary():
    names = list(public_objects())
    assert len(names) > 100  # every face was read
    found = [line for qualified, obj in names for line in misuses(qualified, obj)]
    assert not found, "\n".join(found)


def test_the_check_finds_a_word_with_another_meaning():
    """The check itself can fail: a layout called ``mines`` (as `play` once took it) and
    an undocumented ``layout``."""
    def play_old(mines, click):
        """Play.

        Parameters
        ----------
        mines : array_like of bool, shape (height, width)
            The layout.
        """

    def undocumented(layout):
        """Nothing about its parameter."""

    assert misuses("play_old", play_old) == [
        "play_old: 'mines' is 'array_like of bool, shape (height, width)', but it means "
        "a mine count (int)"]
    assert misuses("undocumented", undocumented) == [
        "undocumented: 'layout' is not documented (it must be one layout: a bool array of "
        "shape (height, width))"]


LAYOUT = np.array([[0, 0, 0, 0], [0, 0, 0, 0], [1, 0, 0, 1]], dtype=bool)


@pytest.mark.parametrize(("call", "old", "new"), [
    (lambda **kw: minestats.play(click=(1, 0), seed=1, **kw).won, "mines", "layout"),
    (lambda **kw: minestats.solve(click=(1, 0), **kw).solved, "mines", "layout"),
    (lambda **kw: minestats.solve_batch(click=(1, 0), **{
        name: np.array([value]) for name, value in kw.items()}).solved.tolist(),
     "mines", "layouts"),
    (lambda **kw: minestats.bbbv(**kw), "mines", "layout"),
    (lambda **kw: minestats.reveal(click=(1, 0), **kw).tolist(), "mines", "layout"),
    (lambda **kw: minestats.Game(**kw).view.tolist(), "mines", "layout"),
], ids=["play", "solve", "solve_batch", "bbbv", "reveal", "Game"])
def test_an_old_keyword_still_works_and_warns(call, old, new):
    expected = call(**{new: LAYOUT})
    with pytest.warns(DeprecationWarning, match=rf"\({old}=\.\.\.\) is deprecated and will "
                                                rf"be removed in 0\.4: use .*\({new}=\.\.\.\)"):
        assert call(**{old: LAYOUT}) == expected
    with pytest.raises(TypeError, match=f"got both '{new}' and its old name '{old}'"):
        call(**{new: LAYOUT, old: LAYOUT})


def test_old_attribute_and_function_names_still_work_and_warn():
    from minestats.drivers.no_guess import generate_no_guess_batch

    result = minestats.reconstruct([[1, 1, 1]])
    with pytest.warns(DeprecationWarning, match=r"ReconstructResult.mines is deprecated .* "
                                                r"use ReconstructResult.layout"):
        assert result.mines is result.layout
    batch = generate_no_guess_batch("5x5/3", "centre", n=2, seed=1, workers=1)
    with pytest.warns(DeprecationWarning, match=r"use NoGuessBatch.layouts"):
        assert batch.mines is batch.layouts
    with pytest.warns(DeprecationWarning, match=r"use minestats.inference.counts_from_layout"):
        from minestats.inference import counts_from_mines
    assert counts_from_mines is minestats.inference.counts_from_layout


@pytest.mark.parametrize(("old", "name", "new"), [
    ("minestats.inference.engine", "solve_constraints", "minestats.inference.constraints"),
    ("minestats.io.results", "write_csv", "minestats.io.result_files"),
])
def test_a_renamed_module_still_imports_and_warns(old, name, new):
    with pytest.warns(DeprecationWarning, match=f"{old} is deprecated .* use {new}"):
        found = getattr(importlib.import_module(old), name)
    assert found is getattr(importlib.import_module(new), name)


def test_a_renamed_class_still_imports_and_warns():
    from minestats.inference import probabilities

    with pytest.warns(DeprecationWarning, match="use minestats.inference.probabilities."
                                                "PositionProbabilities"):
        assert probabilities.Position is probabilities.PositionProbabilities


def test_win_rates_moved_to_the_drivers_and_the_old_names_warn():
    import minestats.players
    from minestats.drivers import win_rates

    for name in ("win_rate", "win_rate_sweep", "WinRate"):
        with pytest.warns(DeprecationWarning, match=f"minestats.players.{name} is deprecated"):
            assert getattr(minestats.players, name) is getattr(win_rates, name)
    with pytest.warns(DeprecationWarning, match="use minestats.drivers.win_rates"):
        from minestats.players.winrate import win_rate
    assert win_rate is minestats.win_rate
