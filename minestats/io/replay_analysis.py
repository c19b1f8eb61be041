"""Replay files analysed: one (`analyse_replay`) or a folder of them (`analyse_replays`).

Each file is read by `minestats.io.replays` and analysed by
`minestats.drivers.game_analysis`. A folder is read one file at a time through one
ms_toollib process, so memory stays that of one game whatever the folder holds, and
every file that cannot be read or analysed becomes one line, never a stop.
"""

from __future__ import annotations

from collections.abc import Iterator

from minestats.drivers.game_analysis import GameAnalysis, analyse_game
from minestats.foundations.validation import SearchBudgetExceeded
from minestats.io.replays import ReplayReader, read_replay, replay_files

__all__ = ["analyse_replay", "analyse_replays"]


def analyse_replay(path, *, rule=None) -> GameAnalysis:
    """Read one replay (AVF, EVF, MVF or RMV) and analyse every click of its game.

    Parameters
    ----------
    path : str or path-like
    rule : {None, 'uniform', 'safe-click', 'safe-opening', 'winxp'}, optional
        The rule that dealt the board, when known (see `analyse_game`).

    Returns
    -------
    GameAnalysis

    Raises
    ------
    ValueError
        One line naming the file (`minestats.io.replays.read_replay`).

    Examples
    --------
    >>> analyse_replay("game.txt")
    Traceback (most recent call last):
    ...
    ValueError: game.txt: not a replay: the suffix '.txt' is none of .avf, .evf, .mvf, .rmv
    """
    return analyse_game(read_replay(path), rule=rule)


def analyse_replays(folder, *, rule=None) -> Iterator[tuple[str, GameAnalysis | str]]:
    """Analyse every file of a folder: yield ``(name, analysis)`` or ``(name, what is wrong)``.

    Files are taken in name order, sub-folders left out; a file that is not a
    replay, cannot be read, contradicts its board or needs more than the search's
    budget yields one line of text in place of its analysis.

    Raises
    ------
    ValueError
        If the folder cannot be listed, or ms_toollib is not installed.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     _ = (pathlib.Path(folder) / "empty.evf").write_bytes(b"")
    ...     [answer for _, answer in analyse_replays(folder)]  # doctest: +ELLIPSIS
    ['...empty.evf: the file is empty']
    """
    paths = replay_files(folder)
    with ReplayReader() as reader:
        for path in paths:
            try:
                game = reader.read(path)  # its errors name the file
                yield str(path), analyse_game(game, rule=rule)
            except ValueError as error:
                message = str(error)
                yield str(path), message if message.startswith(str(path)) else (
                    f"{path}: {message}")
            except SearchBudgetExceeded as error:
                yield str(path), f"{path}: a position passes the search's budget: {error}"
