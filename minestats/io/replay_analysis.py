"""Replay files analysed: one (`analyse_replay`) or a folder of them (`analyse_replays`).

Each file is read by `minestats.io.replays` and analysed by
`minestats.drivers.game_analysis`. A folder is read one file at a time through one
ms_toollib process, so memory stays that of one game whatever the folder holds, and
every file that cannot be read or analysed becomes one line, never a stop.
`analysis_html` draws one analysed game click by click
(`minestats.inference.html`).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from minestats.drivers.game_analysis import GameAnalysis, analyse_game
from minestats.foundations.validation import SearchBudgetExceeded
from minestats.inference.html import KIND_LABELS, board_html, steps_html
from minestats.io.replays import ReplayReader, read_replay, replay_files
from minestats.mechanics.game import neighbour_counts
from minestats.mechanics.recorded_games import RecordedGame, replay_actions

__all__ = ["analyse_replay", "analyse_replays", "analysis_html", "click_verdict", "describe"]


def click_verdict(row) -> str:
    """Say in a word or two what a click was: ``safe``, ``guess`` or ``forced guess``.

    Examples
    --------
    >>> click_verdict({"guess": True, "forced": False})
    'guess'
    """
    return "forced guess" if row["forced"] else "guess" if row["guess"] else "safe"


def _best_text(row) -> str:
    """``best``'s move at a click: its cell, kind and mine probability."""
    kind = KIND_LABELS.get(row["best_kind"], row["best_kind"])
    return f"({row['best_x']}, {row['best_y']}) {kind}, P(mine) {row['best_probability']:.4f}"


def analysis_html(game: RecordedGame, analysis: GameAnalysis) -> str:
    """Draw an analysed game as HTML: the board before each click, then the end.

    Each step is the position the player saw before a click, every hidden cell
    coloured by its mine probability (the player's flags are beliefs, left out, as
    in the analysis) and the clicked cell ringed, with a line above saying the
    click's mine probability, whether a safe cell existed, whether it was a (forced)
    guess and what ``best`` would have played; the last step shows the end and the
    mines. A table of the clicks follows.

    Parameters
    ----------
    game : minestats.mechanics.recorded_games.RecordedGame
    analysis : GameAnalysis
        ``analyse_game(game, positions=True)``.

    Returns
    -------
    str
        An HTML fragment (`minestats.inference.html.page` makes it a page).

    Raises
    ------
    ValueError
        If ``analysis`` kept no positions.

    Examples
    --------
    >>> from minestats.mechanics.recorded_games import Action
    >>> game = RecordedGame(np.array([[0, 0, 0], [0, 0, 1]], bool), (0, 0),
    ...                     (Action(0.0, "open", 0, 0), Action(2.5, "open", 2, 0)))
    >>> fragment = analysis_html(game, analyse_game(game, positions=True))
    >>> fragment.count('class="ms-frame"'), "forced guess" in fragment, "http" in fragment
    (2, True, False)
    """
    clicks = analysis.per_click()
    if len(analysis.positions) != len(clicks):
        raise ValueError("the analysis kept no positions: analyse the game with "
                         "positions=True to draw it")
    frames = []
    for (_, row), (shown, probability) in zip(clicks.iterrows(), analysis.positions,
                                              strict=True):
        safe = "a safe cell existed" if row["safe_existed"] else "no safe cell"
        frames.append(board_html(shown, probability, marked=(row["x"], row["y"]),
                                 caption=f"move {row['number']} at {row['seconds']:.2f} s: "
                                         f"{row['kind']} ({row['x']}, {row['y']}), P(mine) "
                                         f"{row['mine_probability']:.4f}, "
                                         f"{click_verdict(row)}; {safe}; best: "
                                         f"{_best_text(row)}"))
    _, end = replay_actions(game)
    shape = np.shape(game.mines)
    shown = np.where(end.revealed.reshape(shape), neighbour_counts(game.mines), -1)
    frames.append(board_html(shown, flags=end.flagged.reshape(shape), mines=game.mines,
                             caption=f"the end: {analysis.outcome}"))
    table = clicks.assign(
        cell=[f"({x}, {y})" for x, y in zip(clicks["x"], clicks["y"], strict=True)],
        **{"P(mine)": clicks["mine_probability"].map("{:.4f}".format),
           "what": [click_verdict(row) for _, row in clicks.iterrows()],
           "safe cell existed": clicks["safe_existed"].map({True: "yes", False: "no"}),
           "best": [_best_text(row) for _, row in clicks.iterrows()]})
    table = table[["number", "seconds", "kind", "cell", "P(mine)", "what",
                   "safe cell existed", "best"]].rename(columns={"number": "move"})
    rows = table.to_html(index=False, border=0, classes="ms-moves", escape=True)
    return (steps_html(frames, caption="; ".join(describe(analysis)))
            + f'<div class="minestats"><p>every click after the first</p>{rows}</div>')


def describe(analysis: GameAnalysis) -> list[str]:
    r"""Say what a game was, in short lines: its setting and outcome, then the verdict.

    Examples
    --------
    >>> from minestats.mechanics.recorded_games import Action
    >>> game = RecordedGame(np.array([[0, 0, 0], [0, 0, 1]], bool), (0, 0),
    ...                     (Action(0.0, "open", 0, 0), Action(2.5, "open", 2, 1)), "hand")
    >>> print("\n".join(describe(analyse_game(game))))
    board 3x2/1 (hand), first click (0, 0), rule not given (layouts alike): lost
    guesses 1, forced 1 (no safe cell left)
    luck (the product of the clicks' survival chances) 0.5
    the loss was forced: the click that lost (move 2) was a forced guess
    """
    rule = analysis.rule or "not given (layouts alike)"
    lines = [f"board {analysis.board}{f' ({analysis.source})' if analysis.source else ''}, "
             f"first click {analysis.click}, rule {rule}: {analysis.outcome}",
             f"guesses {analysis.guesses}, forced {analysis.forced_guesses} (no safe cell "
             "left)",
             f"luck (the product of the clicks' survival chances) {analysis.luck:.4g}"]
    if analysis.loss_forced is not None:
        clicks = analysis.per_click()
        lost = clicks.loc[clicks["hit_mine"]]
        how = "" if lost.empty else (f": the click that lost (move {lost['number'].iloc[0]}) "
                                     f"was a {click_verdict(lost.iloc[0])}")
        lines.append(f"the loss was {'forced' if analysis.loss_forced else 'not forced'}{how}")
    return lines


def analyse_replay(path, *, rule=None, seed=0, positions=False) -> GameAnalysis:
    """Read one replay (AVF, EVF, MVF or RMV) and analyse every click of its game.

    Parameters
    ----------
    path : str or path-like
    rule : {None, 'uniform', 'safe-click', 'safe-opening', 'winxp'}, optional
        The rule that dealt the board, when known (see `analyse_game`).
    seed, positions : optional
        As for `analyse_game`.

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
    return analyse_game(read_replay(path), rule=rule, seed=seed, positions=positions)


def analyse_replays(folder, *, rule=None, seed=0) -> Iterator[tuple[str, GameAnalysis | str]]:
    """Analyse every file of a folder: yield ``(name, analysis)`` or ``(name, what is wrong)``.

    Files are taken in name order, sub-folders left out; a file that is not a
    replay, cannot be read, contradicts its board or needs more than the search's
    budget yields one line of text in place of its analysis. ``rule`` and ``seed`` are
    as for `analyse_game`, the same for every file.

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
                yield str(path), analyse_game(game, rule=rule, seed=seed)
            except ValueError as error:
                message = str(error)
                yield str(path), message if message.startswith(str(path)) else (
                    f"{path}: {message}")
            except SearchBudgetExceeded as error:
                yield str(path), f"{path}: a position passes the search's budget: {error}"
