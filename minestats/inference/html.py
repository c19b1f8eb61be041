"""Positions and games as self-contained HTML: one table cell a tile, probabilities in colour.

A position is drawn as a table, one ``<td>`` per tile in row-major order, with the
column indices (x) above it and the row indices (y) beside it. An open cell shows its
number (blank for 0) on light grey, a flag an ``F``; a hidden cell shows its mine
probability as text (`probability_text`) on the colour of `PROBABILITY_COLOURS` at
that probability, on a fixed scale from 0 to 1, so two positions compare by eye; the
exact value is in the cell's tooltip. The safest hidden cells are outlined in orange,
and a cell about to be opened (a game's next guess) is ringed in black and white; the
marks are shapes, so they read without colour vision. `minestats.plot_position`
draws a position in the same colours with matplotlib.

A game is a series of such boards (`steps_html`) with a step control: a few lines of
inline script, shown only where scripts run; without them every step is drawn one
under the other. Nothing is fetched: the output holds no URL, so a file written from
it (`page`) opens anywhere, offline.

This module only draws: the probabilities come from its callers
(`minestats.inference.mine_probabilities`; `minestats.io.games.game_html` replays a
game and weighs each position, by Windows XP's rule where the game was dealt by it).
"""

from __future__ import annotations

import hashlib
from html import escape

import numpy as np

__all__ = ["FLAG_COLOUR", "KIND_LABELS", "OPEN_COLOUR", "PROBABILITY_COLOURS", "SAFEST_COLOUR",
           "board_html", "moves_html", "page", "probability_colours", "probability_text",
           "safest_cells", "steps_html", "text_colour"]

PROBABILITY_COLOURS = "viridis"
"""The colour map of a mine probability, 0 (dark blue) to 1 (yellow): perceptually
uniform, readable in grey and by colour-blind readers."""
SAFEST_COLOUR = "#E69F00"
"""The outline of the safest hidden cells (Okabe and Ito's orange)."""
FLAG_COLOUR = "#D55E00"
"""The background of a flag (Okabe and Ito's vermillion), outside the probability scale."""
OPEN_COLOUR = "#EBEBEB"
"""The background of an open cell."""
KIND_LABELS = {"frontier": "frontier guess", "off-frontier": "off-frontier guess",
               "fifty-fifty": "50/50", "pseudo-fifty-fifty": "pseudo-50/50",
               "endgame": "end game"}
"""How a guess's kind (`minestats.players.GUESS_KINDS`) is written for a reader."""
TOLERANCE = 1e-12
"""Probabilities this close to the lowest count as the lowest (`safest_cells`)."""

_STYLE = f"""<style>
.minestats {{font: 12px/1.4 "DejaVu Sans", Verdana, sans-serif; color: #222;}}
.minestats table.ms-board {{border-collapse: collapse; margin: 4px 0;}}
.minestats .ms-board td {{width: 32px; height: 32px; min-width: 32px; padding: 0;
  text-align: center; vertical-align: middle; border: 1px solid #888; font-size: 11px;}}
.minestats .ms-board th {{font-weight: normal; font-size: 10px; color: #555;
  padding: 0 3px; text-align: center;}}
.minestats td.ms-open {{background: {OPEN_COLOUR}; color: #000; font-weight: bold;}}
.minestats td.ms-flag {{background: {FLAG_COLOUR}; color: #fff; font-weight: bold;}}
.minestats td.ms-mine {{background: #fff; color: #000; font-weight: bold;}}
.minestats td.ms-hit {{background: #000; color: #fff; font-weight: bold;}}
.minestats td.ms-hidden {{background: #bbb;}}
.minestats td.ms-safest {{outline: 2px solid {SAFEST_COLOUR}; outline-offset: -2px;}}
.minestats td.ms-next {{box-shadow: inset 0 0 0 6px #000, inset 0 0 0 8px #fff;}}
.minestats .ms-scale {{display: inline-block; width: 160px; height: 10px;
  vertical-align: middle; border: 1px solid #888;}}
.minestats .ms-moves td, .minestats .ms-moves th {{padding: 1px 8px; text-align: right;}}
.minestats .ms-controls button {{font: inherit;}}
</style>"""

_SCRIPT = """<script>
(function () {
  var game = document.getElementById("%s");
  var frames = game.querySelectorAll(".ms-frame");
  var slider = game.querySelector(".ms-controls input");
  var count = game.querySelector(".ms-count");
  function show(step) {
    step = Math.max(0, Math.min(frames.length - 1, step));
    frames.forEach(function (frame, i) { frame.hidden = i !== step; });
    slider.value = step;
    count.textContent = "step " + (step + 1) + " of " + frames.length;
  }
  game.querySelectorAll(".ms-controls button").forEach(function (button) {
    button.addEventListener("click", function () {
      show(Number(slider.value) + Number(button.getAttribute("data-step")));
    });
  });
  slider.addEventListener("input", function () { show(Number(slider.value)); });
  game.addEventListener("keydown", function (event) {
    if (event.key === "ArrowLeft") { show(Number(slider.value) - 1); }
    if (event.key === "ArrowRight") { show(Number(slider.value) + 1); }
  });
  game.querySelector(".ms-controls").hidden = false;
  show(0);
})();
</script>"""


def _styled(body: str) -> str:
    """Return ``body`` after this module's style, once, however many fragments it holds."""
    return _STYLE + body.replace(_STYLE, "")


def probability_text(probability: float) -> str:
    """Write a mine probability in two decimals, as a tile shows it.

    ``0`` and ``1`` are certain; otherwise two decimals without the leading zero, and
    a probability that would round to a certainty says which side it lies on.

    Examples
    --------
    >>> [probability_text(p) for p in (0, 0.004, 0.123, 0.5, 0.996, 1)]
    ['0', '<.01', '.12', '.50', '>.99', '1']
    """
    if probability in (0, 1):
        return str(int(probability))
    text = f"{probability:.2f}"
    return "<.01" if text == "0.00" else ">.99" if text == "1.00" else text[1:]


def text_colour(rgba) -> str:
    """Return ``"black"`` or ``"white"``, whichever reads better on the colour ``rgba``.

    Examples
    --------
    >>> text_colour((0.27, 0.0, 0.33, 1.0)), text_colour((0.99, 0.91, 0.14, 1.0))
    ('white', 'black')
    """
    red, green, blue = rgba[:3]
    return "black" if 0.299 * red + 0.587 * green + 0.114 * blue > 0.5 else "white"


def probability_colours(probabilities) -> list[tuple[str, str]]:
    """Return ``(background, text colour)`` per probability: `PROBABILITY_COLOURS`, 0 to 1.

    Examples
    --------
    >>> probability_colours([0.0, 1.0])
    [('#440154', 'white'), ('#fde725', 'black')]
    """
    import matplotlib
    from matplotlib.colors import to_hex

    rgba = matplotlib.colormaps[PROBABILITY_COLOURS](np.asarray(probabilities, dtype=float))
    return [(to_hex(colour), text_colour(colour)) for colour in np.reshape(rgba, (-1, 4))]


def safest_cells(probability, flags=None) -> np.ndarray:
    """Mark the hidden, unflagged cells of lowest mine probability (within `TOLERANCE`).

    Examples
    --------
    >>> safest_cells([[np.nan, 0.25, 0.5], [0.25, 0.75, 1.0]]).astype(int).tolist()
    [[0, 1, 0], [1, 0, 0]]
    """
    probability = np.asarray(probability, dtype=float)
    candidates = ~np.isnan(probability)
    if flags is not None:
        candidates &= ~np.asarray(flags, dtype=bool)
    if not candidates.any():
        return candidates
    return candidates & (probability <= probability[candidates].min() + TOLERANCE)


def _cells(numbers, probability, hidden, flags, mines, marked):
    """Yield ``(classes, style, tooltip, text)`` per tile, in row-major order."""
    shaded = hidden & ~flags & ~np.isnan(probability)
    safest = safest_cells(np.where(shaded, probability, np.nan))
    colours = iter(probability_colours(probability[shaded]))
    for (y, x), chance in np.ndenumerate(probability):
        where = f"({x}, {y})"
        classes = ["ms-next"] if (x, y) == marked else []
        mine = mines is not None and mines[y, x]
        if flags[y, x]:
            yield ["ms-flag", *classes], "", f"{where}: flag", "F"
        elif shaded[y, x]:
            background, colour = next(colours)
            yield (classes + ["ms-safest"] * bool(safest[y, x]),
                   f"background: {background}; color: {colour}",
                   f"{where}: P(mine) = {chance:.6f}", probability_text(chance))
        elif mine:  # a mine shown at the end of a game; opened, it lost the game
            yield ["ms-mine" if hidden[y, x] else "ms-hit", *classes], "", f"{where}: mine", "*"
        elif hidden[y, x]:
            yield ["ms-hidden", *classes], "", f"{where}: hidden", ""
        else:
            number = None if numbers is None else int(numbers[y, x])
            yield ["ms-open", *classes], "", f"{where}: open", str(number or "")


def _check_board(numbers, probability, flags, mines):
    """Return the board's arrays checked, and which cells are hidden."""
    if numbers is None and probability is None:
        raise ValueError("give the numbers, the probabilities or both")
    numbers = None if numbers is None else np.asarray(numbers)
    shape = (numbers if probability is None else np.asarray(probability)).shape
    probability = (np.full(shape, np.nan) if probability is None
                   else np.asarray(probability, dtype=float))
    if len(shape) != 2 or 0 in shape:
        raise ValueError(f"a board must be a non-empty 2-D array (height, width); got shape "
                         f"{shape}")
    flags = np.zeros(shape, dtype=bool) if flags is None else np.asarray(flags, dtype=bool)
    mines = None if mines is None else np.asarray(mines, dtype=bool)
    for name, array in (("numbers", numbers), ("probability", probability), ("flags", flags),
                        ("mines", mines)):
        if array is not None and array.shape != shape:
            raise ValueError(f"{name} has shape {array.shape}, the board {shape}")
    hidden = ~np.isnan(probability) if numbers is None else (numbers < 0) | flags
    return numbers, probability, hidden, flags, mines


def board_html(numbers, probability=None, *, flags=None, mines=None, marked=None,
               coordinates=True, caption=None) -> str:
    r"""Draw one position as an HTML table: numbers, flags, mine probabilities in colour.

    Parameters
    ----------
    numbers : array_like of int, shape (height, width), or None
        The numbers of the open cells, -1 on hidden ones (as
        `minestats.inference.mine_probabilities` reads them); None takes the
        hidden cells from ``probability`` and leaves the open ones blank.
    probability : array_like of float, shape (height, width), optional
        The mine probability of each hidden cell, NaN elsewhere (as
        `minestats.inference.MineProbabilities.probability`); a hidden cell without
        one is drawn plain grey.
    flags : array_like of bool, optional
        Flagged cells, drawn as ``F``.
    mines : array_like of bool, optional
        The layout, to show its mines (``*``) on the cells with no probability: the
        end of a game. An open mine, the one that lost it, is drawn black.
    marked : tuple of int, optional
        A cell ``(x, y)`` to ring: the cell a game opens next.
    coordinates : bool, optional
        Show the column indices above and the row indices beside the board.
    caption : str, optional
        A line above the board.

    Returns
    -------
    str
        An HTML fragment with its own style: the board, then a key to its colours.

    Examples
    --------
    >>> from minestats.inference import mine_probabilities
    >>> result = mine_probabilities("1??\n???", mines=1)
    >>> fragment = board_html([[1, -1, -1], [-1, -1, -1]], result.probability)
    >>> fragment.count("<td"), ">.33</td>" in fragment, "http" in fragment
    (6, True, False)
    """
    numbers, probability, hidden, flags, mines = _check_board(numbers, probability, flags,
                                                              mines)
    height, width = probability.shape
    rows = []
    if coordinates:
        rows.append("<tr><th></th>" + "".join(f"<th>{x}</th>" for x in range(width)) + "</tr>")
    cells = iter(_cells(numbers, probability, hidden, flags, mines, marked))
    for y in range(height):
        row = [f"<th>{y}</th>"] if coordinates else []
        for _ in range(width):
            classes, style, tooltip, text = next(cells)
            row.append(f'<td class="{" ".join(classes)}" style="{style}" '
                       f'title="{escape(tooltip)}">{escape(text)}</td>')
        rows.append("<tr>" + "".join(row) + "</tr>")
    stops = ", ".join(f"{colour} {10 * i}%" for i, (colour, _) in enumerate(
        probability_colours(np.linspace(0, 1, 11))))
    notes = ["outlined: the safest hidden cells", "F: a flag"]
    if marked is not None:
        notes.append("ringed: the cell opened next")
    if mines is not None:
        notes.append("*: a mine (black: the one opened)")
    key = (f'<p>mine probability: 0 <span class="ms-scale" style="background: '
           f'linear-gradient(to right, {stops})"></span> 1; {"; ".join(notes)}</p>')
    title = "" if caption is None else f"<p>{escape(caption)}</p>"
    return _styled(f'<div class="minestats">{title}<table class="ms-board">'
                   f'{"".join(rows)}</table>{key}</div>')


def moves_html(moves, probabilities=None, *, caption=None) -> str:
    """Tabulate a game's guesses: number, cell, kind and mine probability.

    Parameters
    ----------
    moves : sequence of minestats.players.Move
        The guesses in order.
    probabilities : sequence of float, optional
        The mine probability of each guessed cell; default the one each move records
        (what the player saw).
    caption : str, optional
        A line above the table.

    Examples
    --------
    >>> from minestats.players import Move
    >>> print(moves_html([Move(3, 0, 0.5, "fifty-fifty")]))  # doctest: +ELLIPSIS
    <style>...<tr><td>1</td><td>(3, 0)</td><td>50/50</td><td>0.5000</td></tr></table></div>
    """
    if probabilities is None:
        probabilities = [move.mine_probability for move in moves]
    rows = "".join(f"<tr><td>{number}</td><td>({move.x}, {move.y})</td>"
                   f"<td>{escape(KIND_LABELS.get(move.kind, move.kind))}</td>"
                   f"<td>{chance:.4f}</td></tr>"
                   for number, (move, chance) in enumerate(zip(moves, probabilities,
                                                               strict=True), start=1))
    title = "" if caption is None else f"<p>{escape(caption)}</p>"
    return _styled(f'<div class="minestats">{title}<table class="ms-moves"><tr><th>guess'
                   f'</th><th>cell</th><th>kind</th><th>P(mine)</th></tr>{rows}</table></div>')


def steps_html(steps, *, caption=None) -> str:
    """Put HTML fragments (a game's boards) behind a step control.

    Each step is shown alone, chosen by buttons, a slider or the arrow keys; where
    scripts do not run, the control stays hidden and every step is shown in turn.

    Examples
    --------
    >>> fragment = steps_html(["<p>one</p>", "<p>two</p>"])
    >>> fragment.count('class="ms-frame"'), "//" in fragment
    (2, False)
    """
    steps = list(steps)
    if not steps:
        raise ValueError("steps_html needs at least one step")
    frames = "".join(f'<div class="ms-frame">{step}</div>' for step in steps)
    name = "ms-game-" + hashlib.sha256(frames.encode()).hexdigest()[:12]
    title = "" if caption is None else f"<p>{escape(caption)}</p>"
    controls = (f'<div class="ms-controls" hidden><button type="button" data-step="-1">'
                f'&#9664; previous</button> <input type="range" min="0" '
                f'max="{len(steps) - 1}" value="0" aria-label="step"> <button type="button" '
                f'data-step="1">next &#9654;</button> <span class="ms-count"></span></div>')
    return _styled(f'<div class="minestats" id="{name}" tabindex="0">{title}{controls}'
                   f'{frames}</div>{_SCRIPT % name}')


def page(fragment: str, *, title: str) -> str:
    """Wrap an HTML fragment of this module in a whole page, UTF-8, fetching nothing.

    Examples
    --------
    >>> page("<p>x</p>", title="a <position>").splitlines()[:2]
    ['<!DOCTYPE html>', '<html lang="en">']
    """
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f'<title>{escape(title)}</title>\n</head>\n<body>\n{_styled(fragment)}\n'
            f'</body>\n</html>\n')
