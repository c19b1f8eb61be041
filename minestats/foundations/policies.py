"""The guessing policies of the player as objects, registered in one table.

A policy decides which cell the player opens when deduction stalls
(`minestats.players.player`). The compiled player switches on a policy's ``code``,
and the rest of the package asks its properties, never its name.

This module imports nothing, so that `minestats.foundations.validation` (and the
command line's help) can read the names without starting the library.

Examples
--------
>>> POLICY_TABLE["best"].code, POLICY_TABLE["best"].tuned
(1, True)
>>> POLICIES
('safest', 'best')
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["POLICIES", "POLICY_TABLE", "Policy"]


@dataclass(frozen=True)
class Policy:
    """A guessing policy: the code the compiled player switches on, and its knobs.

    Parameters
    ----------
    name : str
        The name tables, files and the command line use.
    code : int
        The number the compiled chooser switches on
        (`minestats.players.chooser.SAFEST`, `minestats.players.chooser.BEST`); fixed
        once given, never reused.
    tuned : bool
        Whether a `minestats.players.player.Strategy` sets its components (its results
        then record the strategy's label).

    Examples
    --------
    >>> Policy("safest", code=0, tuned=False).tuned
    False
    """

    name: str
    code: int
    tuned: bool


POLICY_TABLE = {policy.name: policy for policy in (
    Policy("safest", code=0, tuned=False),
    Policy("best", code=1, tuned=True),
)}
"""Every policy the package knows, by name, weakest first."""

POLICIES = tuple(POLICY_TABLE)
"""The names of the policies, weakest first."""
