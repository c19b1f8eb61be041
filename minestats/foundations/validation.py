"""Checks of the arguments every entry point takes, and the named defaults they share.

Every public function checks its arguments here, so a bad value gets the same
message wherever it is passed: ``n`` and other counts, the first-click rule's name,
the policy, the solver options and the confidence level. Each check returns the
value in its canonical form (an int, a string...) or raises ValueError naming the
argument. The board and the click are read where they are defined
(`minestats.foundations.board.resolve_board`, `minestats.mechanics.rules.check_click`),
so this module imports nothing of the package but the tables of rules and policies
(`minestats.foundations.rules`, `minestats.foundations.policies`).

It imports nothing heavy at load time either (no numpy, no numba), so the command
line can build its help from the names below without starting the library.
"""

from __future__ import annotations

import math
import re
from numbers import Integral, Real

from minestats.foundations.policies import POLICIES, POLICY_TABLE, Policy
from minestats.foundations.rules import RULE_TABLE, RULES, Rule

__all__ = [
    "DEFAULT_ALPHA",
    "DEFAULT_CONFIDENCE_LEVEL",
    "DEFAULT_EXACT_CONFIGURATIONS",
    "DEFAULT_MAX_CONFIGURATIONS",
    "MAX_CONFIGURATIONS",
    "MAX_CONSTRAINTS",
    "MAX_MAP_CELLS",
    "MAX_N",
    "POLICIES",
    "PRESET_SIZES",
    "RULES",
    "SOLVERS",
    "SearchBudgetExceeded",
    "check_confidence_level",
    "check_constraints",
    "check_count",
    "check_map_size",
    "check_max_configurations",
    "check_n",
    "check_policy",
    "check_rule_name",
    "check_solver_options",
    "check_timeout",
    "clipped",
    "quoted",
    "resolve_policy",
    "resolve_rule",
]

class SearchBudgetExceeded(RuntimeError):
    """An exact search stopped at its budget before it finished.

    Not bad input: the question was harder than the budget allowed, and the answer is
    unknown, not "no". It is the one error of every exhausted budget: the enumeration
    engine past ``max_configurations`` (`minestats.mine_probabilities` raises it with the
    budget in its message; `minestats.reconstruct`, `minestats.board_consistency` and
    the ``logic`` solver catch it and report ``capped``) and the exact search of optimal
    play past its state budget. On the command line it is exit status 3.

    Examples
    --------
    >>> import numpy as np
    >>> from minestats import mine_probabilities
    >>> numbers = np.full((4, 4), -1)
    >>> numbers[0, 0] = numbers[3, 3] = 1
    >>> try:
    ...     mine_probabilities(numbers, mines=3, max_configurations=1)
    ... except SearchBudgetExceeded as error:
    ...     print(error)
    the probability search passed max_configurations = 1 configurations
    """


SOLVERS = ("single-point", "subset", "logic", "exhaustive")
"""The solvers, weakest first (`minestats.solvers`)."""


PRESET_SIZES = {
    "beginner": (9, 9, 10),
    "intermediate": (16, 16, 40),
    "expert": (30, 16, 99),
    "classic-beginner": (8, 8, 10),
}
"""Width, height and mines of each preset board (`minestats.foundations.board.PRESETS`)."""

DEFAULT_MAX_CONFIGURATIONS = 200_000
"""The default cap on configurations enumerated by ``logic`` at one stall."""

DEFAULT_EXACT_CONFIGURATIONS = 500_000
"""The default cap on configurations the exact search visits for one answer.

`minestats.inference.reconstruct` and `minestats.inference.board_consistency` give
up (``capped``) past it: about 3 to 4 s of CPU and 130 MB for a search that
reaches it (on a shared 2-core machine; `minestats.inference.constraints` gives the
cost of a configuration). Random count matrices and the positions of real games
use less than a hundredth of it.
"""

DEFAULT_CONFIDENCE_LEVEL = 0.95
"""Coverage of every confidence interval unless asked otherwise."""

DEFAULT_ALPHA = 0.05
"""Family-wise level of the multiple-comparison tests (Holm) unless asked otherwise."""

MAX_N = 10**12
"""The most trials one run may ask for: beyond it a typo, not a plan (days of work)."""

MAX_CONFIGURATIONS = 10**15
"""The largest configuration cap a search accepts: beyond it, years of search."""

MAX_MAP_CELLS = 1_000_000
"""The most cells of a per-click map or of a position (a 1000x1000 board; a 2000x2000 map
takes 1.3 GB)."""

MAX_CONSTRAINTS = 250_000
"""The most constraints (revealed numbers, or counts of a matrix) the exact engine takes:
it holds them as Python objects, and a 500x500 count matrix takes about 6 s and 0.7 GB
(a 1000x1000 one 22 s and 2.4 GB)."""


QUOTE_LIMIT = 80
"""The most characters of a user's value an error message repeats."""
PATH_LIMIT = 4096
"""The most characters of a path an error message repeats: a path is named whole (Linux's
longest is 4,096), since its last part says which file is meant."""


def quoted(value, limit: int = QUOTE_LIMIT) -> str:
    """Return ``repr(value)`` for an error message, cut to about ``limit`` characters.

    A refusal names the bad value, but a 13,000-character board name must not make a
    13 KB error line: a longer repr keeps its start, at most `QUOTE_LIMIT` characters
    (a path longer than `PATH_LIMIT` is no path), and says how long it was.

    Examples
    --------
    >>> quoted("9x9/10")
    "'9x9/10'"
    >>> quoted("x" * 1000, limit=10)
    "'xxxxxxxxx... (1,002 characters)"
    """
    text = repr(value)
    if len(text) <= limit:
        return text
    return _cut(text, min(limit, QUOTE_LIMIT))


def _cut(text: str, keep: int) -> str:
    """Keep the first ``keep`` characters of ``text`` and say how long it was."""
    return f"{text[:keep]}... ({len(text):,} characters)"


def clipped(message: str, *, quote: int = QUOTE_LIMIT, word: int = PATH_LIMIT) -> str:
    """Cut what an error message repeats of its input: quoted values and endless words.

    The last line of defence of the command line, for messages that quote a value
    whole (argparse's own, or a library's): a quoted value longer than ``quote``
    characters and any word longer than ``word`` (longer than any path can be) keep
    their first ``quote`` characters and say how long they were, as `quoted` does.

    Examples
    --------
    >>> clipped("argument -n: invalid int value: '" + "x" * 100 + "'", quote=10)
    "argument -n: invalid int value: 'xxxxxxxxx... (102 characters)"
    >>> clipped("y" * 50 + ": not a replay", quote=10, word=20)
    'yyyyyyyyyy... (51 characters) not a replay'
    """
    message = re.sub(rf"'[^'\n]{{{quote},}}'", lambda match: _cut(match[0], quote), message)
    return re.sub(rf"[^\s]{{{word + 1},}}", lambda match: _cut(match[0], quote), message)


def check_count(name: str, value, *, minimum: int = 1, maximum: int | None = None) -> int:
    """Return ``value`` as an int, or raise ValueError unless it is an integer in range.

    Parameters
    ----------
    name : str
        The argument's name, for the message.
    value : int
        A Python or numpy integer; a bool is refused.
    minimum, maximum : int, optional
        Bounds, both included; default at least 1, no upper bound.

    Examples
    --------
    >>> check_count("patience", 20)
    20
    >>> check_count("chunk_size", 0)
    Traceback (most recent call last):
    ...
    ValueError: chunk_size (0) must be a positive integer
    """
    if isinstance(value, bool) or not isinstance(value, Integral) or value < minimum:
        kind = {0: "a non-negative integer", 1: "a positive integer"}.get(
            minimum, f"an integer of at least {minimum}")
        raise ValueError(f"{name} ({quoted(value)}) must be {kind}")
    if maximum is not None and value > maximum:
        raise ValueError(f"{name} ({quoted(value)}) must be at most {maximum:_}")
    return int(value)


def check_n(n, *, name: str = "n") -> int:
    """Return the number of trials as an int: a positive integer of at most `MAX_N`.

    Examples
    --------
    >>> check_n(2_000)
    2000
    >>> check_n(-1)
    Traceback (most recent call last):
    ...
    ValueError: n (-1) must be a positive integer
    >>> check_n(10**13)
    Traceback (most recent call last):
    ...
    ValueError: n (10000000000000) must be at most 1_000_000_000_000
    """
    return check_count(name, n, minimum=1, maximum=MAX_N)


def check_max_configurations(max_configurations) -> int:
    """Return a cap on configurations as an int: a positive integer of at most 10**15.

    Examples
    --------
    >>> check_max_configurations(500_000)
    500000
    >>> check_max_configurations(10**16)
    Traceback (most recent call last):
    ...
    ValueError: max_configurations (10000000000000000) must be at most 1_000_000_000_000_000
    """
    return check_count("max_configurations", max_configurations, maximum=MAX_CONFIGURATIONS)


def check_confidence_level(confidence_level) -> float:
    """Return the confidence level as a float strictly between 0 and 1.

    Examples
    --------
    >>> check_confidence_level(0.99)
    0.99
    >>> check_confidence_level(1.5)
    Traceback (most recent call last):
    ...
    ValueError: confidence_level (1.5) must lie strictly between 0 and 1
    """
    if isinstance(confidence_level, bool) or not isinstance(confidence_level, Real) \
            or not 0 < confidence_level < 1:
        raise ValueError(
            f"confidence_level ({quoted(confidence_level)}) must lie strictly between 0 and 1")
    return float(confidence_level)


def check_timeout(timeout) -> float | None:
    """Return a time limit in seconds as a positive float, or None for no limit.

    Examples
    --------
    >>> check_timeout(60), check_timeout(None)
    (60.0, None)
    """
    if timeout is None:
        return None
    if isinstance(timeout, bool) or not isinstance(timeout, Real) \
            or not 0 < timeout < math.inf:
        raise ValueError(f"timeout ({quoted(timeout)}) must be a positive number of seconds "
                         "or None")
    return float(timeout)


def check_policy(policy) -> str:
    """Return the name of ``policy`` (a name or a `Policy`) if it is known, else raise ValueError.

    Examples
    --------
    >>> check_policy("best")
    'best'
    >>> check_policy("lucky")
    Traceback (most recent call last):
    ...
    ValueError: policy 'lucky' is not one of safest, best
    """
    return resolve_policy(policy).name


def resolve_policy(policy) -> Policy:
    """Return the `Policy` named by ``policy`` (or ``policy`` itself, if registered).

    Examples
    --------
    >>> resolve_policy("safest").code
    0
    """
    if isinstance(policy, Policy) and POLICY_TABLE.get(policy.name) == policy:
        return policy
    if isinstance(policy, str) and policy in POLICY_TABLE:
        return POLICY_TABLE[policy]
    raise ValueError(f"policy {quoted(policy)} is not one of {', '.join(POLICY_TABLE)}")


def check_rule_name(rule) -> str:
    """Return the name of ``rule`` (a name or a `Rule`) if it is known, else raise ValueError.

    Examples
    --------
    >>> check_rule_name("winxp")
    'winxp'
    >>> check_rule_name("xp")
    Traceback (most recent call last):
    ...
    ValueError: rule 'xp' is not one of uniform, safe-click, safe-opening, winxp
    """
    return resolve_rule(rule).name


def resolve_rule(rule) -> Rule:
    """Return the `Rule` named by ``rule`` (or ``rule`` itself, if registered).

    Examples
    --------
    >>> resolve_rule("safe-opening").protects
    'neighbourhood'
    """
    if isinstance(rule, Rule) and RULE_TABLE.get(rule.name) == rule:
        return rule
    if isinstance(rule, str) and rule in RULE_TABLE:
        return RULE_TABLE[rule]
    raise ValueError(f"rule {quoted(rule)} is not one of {', '.join(RULE_TABLE)}")


def check_solver_options(solver, use_mine_count, max_configurations) -> tuple[str, bool, int]:
    """Return the solver options in canonical form, or raise ValueError naming the value.

    `minestats.solvers.SolverOptions` runs this check; functions that take the
    options one by one (`minestats.solve`, `minestats.pass_rate`, the generators)
    build a SolverOptions, so every one of them gives the same message.

    Examples
    --------
    >>> check_solver_options("logic", True, 200_000)
    ('logic', True, 200000)
    >>> check_solver_options("psychic", True, 1)
    Traceback (most recent call last):
    ...
    ValueError: solver 'psychic' is not one of single-point, subset, logic, exhaustive
    """
    import numpy as np

    if not isinstance(solver, str) or solver not in SOLVERS:
        raise ValueError(f"solver {quoted(solver)} is not one of {', '.join(SOLVERS)}")
    if not isinstance(use_mine_count, bool | np.bool_):
        raise ValueError(f"use_mine_count ({quoted(use_mine_count)}) must be True or False")
    return solver, bool(use_mine_count), check_max_configurations(max_configurations)


def check_constraints(count: int, what: str) -> None:
    """Raise ValueError if ``what`` asks the exact engine for more than `MAX_CONSTRAINTS`.

    Examples
    --------
    >>> check_constraints(100, "the counts (10x10)")
    >>> check_constraints(4_000_000, "the counts (2000x2000)")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: the counts (2000x2000) give 4,000,000 constraints, more than MAX_CONSTRAINTS ...
    """
    if count > MAX_CONSTRAINTS:
        raise ValueError(f"{what} give {count:,} constraints, more than MAX_CONSTRAINTS = "
                         f"{MAX_CONSTRAINTS:,} that the exact engine takes")


def check_map_size(board) -> None:
    """Raise ValueError if a per-click map of ``board`` has more than `MAX_MAP_CELLS` cells.

    Examples
    --------
    >>> from minestats.foundations.board import Board
    >>> check_map_size(Board(30, 16, 99))
    >>> check_map_size(Board(2000, 1000, 1))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: a map of every click of board 2000x1000/1 has 2,000,000 cells, more than ...
    """
    if board.cells > MAX_MAP_CELLS:
        raise ValueError(f"a map of every click of board {board} has {board.cells:,} cells, "
                         f"more than MAX_MAP_CELLS = {MAX_MAP_CELLS:,}")
