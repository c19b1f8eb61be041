"""Seeing positions and games: text input, result reprs, figures and HTML read back."""

from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest

import minestats
from minestats.inference import mine_probabilities
from minestats.inference.html import KIND_LABELS

ROOT = Path(__file__).resolve().parents[2]

POSITION = "1 ? ? ?\n? ? 2 ?\nF ? ? ?\n"
"""A position as text: a flag, two numbers, nine unknown cells."""


def test_a_position_can_be_given_to_mine_probabilities_as_its_text():
    numbers, flags = minestats.parse_position(POSITION)
    from_arrays = mine_probabilities(numbers, flags=flags, mines=4, exact=True)
    from_text = mine_probabilities(POSITION, mines=4, exact=True)
    assert from_text == from_arrays
    assert from_text.probability[2, 0] == 1.0  # the flag read from the text
    with pytest.raises(ValueError, match="give neither unknown nor flags with it"):
        mine_probabilities(POSITION, flags=flags, mines=4)
    with pytest.raises(ValueError, match=r"line 2: 'x' is not a number 0-8"):
        mine_probabilities("1?\n?x\n", mines=1)


def html_texts(markup: str) -> list[str]:
    """The text of an HTML fragment, one string per run of text between tags, no style."""
    texts, inside = [], []
    parser = HTMLParser()
    parser.handle_starttag = lambda tag, attrs: inside.append(tag)
    parser.handle_endtag = lambda tag: inside.pop()
    parser.handle_data = lambda data: texts.append(data) if not set(inside) & {
        "style", "script"} else None
    parser.feed(markup)
    return texts


def proportion_results():
    """One result of every class that counts successes out of n, small and seeded."""
    return {
        "PassRate": minestats.pass_rate("beginner", n=1_000, seed=1, workers=1),
        "WinRate": minestats.win_rate("beginner", n=200, seed=2, workers=1),
        "OpeningSimulation": minestats.simulate_opening("beginner", rule="uniform",
                                                        click="centre", n=300, seed=3,
                                                        workers=1),
        "BBBVShare": minestats.bbbv_histogram("beginner", n=200, seed=4,
                                              workers=1).share(10, 30),
        "NoGuessBatch": minestats.generate_no_guess_batch("6x6/5", "centre", n=4, seed=5,
                                                          workers=1),
    }


def test_every_proportion_repr_leads_with_estimate_interval_n_and_seed():
    for name, result in proportion_results().items():
        low, high = result.proportion_ci()
        estimate = f"{result.proportion:.3f} [{low:.3f}, {high:.3f}]"
        assert repr(result).startswith(f"{name} {estimate} n={result.n:,} seed={result.seed} ("
                                       ), repr(result)
        lines = [line.split(maxsplit=1) for line in result.summary().splitlines()]
        assert lines[:4] == [[name], ["estimate", f"{estimate} (95% Wilson interval)"],
                             ["n", f"{result.n:,}"], ["seed", str(result.seed)]]
        assert html_texts(result._repr_html_())[:7] == [
            name, "estimate [95% Wilson]", estimate, "n", f"{result.n:,}", "seed",
            str(result.seed)]


def test_a_rare_event_is_shown_to_the_digits_its_interval_needs():
    from dataclasses import dataclass

    from minestats.stats.proportions import ProportionResult

    @dataclass(frozen=True, eq=False)
    class Rare(ProportionResult):
        successes: int
        n: int

    assert repr(Rare(2, 2_000)) == "Rare 0.0010 [0.0003, 0.0036] n=2,000 (successes=2)"


def test_rates_are_named_after_what_they_estimate_and_logic_is_the_default_solver():
    results = proportion_results()
    assert results["WinRate"].win_rate == results["WinRate"].proportion
    assert results["PassRate"].pass_rate == results["PassRate"].proportion
    assert results["PassRate"] == minestats.pass_rate("beginner", solver="logic", n=1_000,
                                                      seed=1, workers=1)


class Boards(HTMLParser):
    """Read every board of an HTML page: per board, its tiles' (classes, text) in order."""

    def __init__(self, markup):
        super().__init__()
        self.boards, self.captions, self.tile, self.paragraph = [], [], None, None
        self.board = None
        self.feed(markup)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table" and attrs.get("class") == "ms-board":
            self.board = []
        elif tag == "td" and self.board is not None:
            self.tile = [attrs.get("class", "").split(), ""]
        elif tag == "p":
            self.paragraph = ""

    def handle_endtag(self, tag):
        if tag == "td" and self.tile is not None:
            self.board.append(tuple(self.tile))
            self.tile = None
        elif tag == "table" and self.board is not None:
            self.boards.append(self.board)
            self.board = None
        elif tag == "p" and self.paragraph is not None:
            self.captions.append(self.paragraph)
            self.paragraph = None

    def handle_data(self, data):
        if self.tile is not None:
            self.tile[1] += data
        if self.paragraph is not None:
            self.paragraph += data


def printed(text: str, probability: float) -> bool:
    """Whether a tile's text is ``probability`` at the precision it is printed with."""
    if text in ("0", "1"):
        return probability == float(text)
    if text == "<.01":
        return 0 < probability < 0.005
    if text == ">.99":
        return 0.995 <= probability < 1
    return abs(float(text) - probability) <= 0.005 + 1e-12 and 0 < probability < 1


def check_board(tiles, numbers, flags, probability):
    """Every tile of a parsed board against the position and its mine probabilities."""
    assert len(tiles) == numbers.size  # one cell per tile, row by row
    hidden = (numbers < 0) & ~flags
    lowest = probability[hidden].min() if hidden.any() else None
    for (classes, text), number, flag, chance in zip(
            tiles, numbers.ravel(), flags.ravel(), probability.ravel(), strict=True):
        if flag:
            assert "ms-flag" in classes and text == "F"
        elif number >= 0:
            assert "ms-open" in classes and text == (str(number) if number else "")
        else:
            assert printed(text, chance), (text, chance)
            assert ("ms-safest" in classes) == (chance <= lowest + 1e-12)


def test_a_position_as_html_prints_the_probabilities_of_mine_probabilities():
    from minestats.inference.html import board_html, page

    text = (ROOT / "examples" / "position.txt").read_text()
    numbers, flags = minestats.parse_position(text)
    result = mine_probabilities(numbers, flags=flags, mines=10)
    markup = page(board_html(numbers, result.probability, flags=flags), title="position")
    [tiles] = Boards(markup).boards
    check_board(tiles, numbers, flags, result.probability)
    assert "http" not in markup and "//" not in markup
    # the result alone draws the same board, but knows neither numbers nor flags: its
    # open cells are blank and a flag shows its probability, 1
    [tiles] = Boards(result._repr_html_()).boards
    check_board(tiles, np.where(numbers >= 0, 0, numbers), np.zeros_like(flags),
                result.probability)


def lost_game():
    """A lost Intermediate game with several guesses, as `minestats play` saves it."""
    from minestats.foundations.board import resolve_board
    from minestats.foundations.seeds import resolve_seed
    from minestats.io.games import GameRecord
    from minestats.mechanics.sampling import chunk_games

    board = resolve_board("intermediate")
    layouts, seeds = chunk_games(board, 1, resolve_seed(12)[0], rule="safe-click",
                                 click=(0, 0))
    game = minestats.play(layouts[0], (0, 0), seed=seeds[0], rule="safe-click")
    assert not game.won and game.guesses >= 3
    return GameRecord(layouts[0], (0, 0), game.moves, "best", 12, False, "safe-click")


def test_a_game_as_html_steps_through_every_guess_with_its_probability():
    from minestats.io.games import game_html, replay
    from minestats.mechanics.game import neighbour_counts

    record = lost_game()
    markup = game_html(record)
    page = Boards(markup)
    steps = replay(record)
    assert len(page.boards) == len(steps) == len(record.moves) + 1
    assert markup.count('class="ms-frame"') == len(steps)
    counts = neighbour_counts(record.mines)
    for number, (tiles, step) in enumerate(zip(page.boards, steps, strict=True), start=1):
        numbers = np.where(step.revealed, counts, -1)
        if step.move is None:  # the end: the mine the last guess opened, drawn black
            hit = record.moves[-1]
            assert tiles[hit.y * 16 + hit.x][0] == ["ms-hit"]
            continue
        probability = mine_probabilities(numbers, flags=step.flagged, mines=40).probability
        check_board(tiles, numbers, step.flagged, probability)
        move = step.move
        assert [i for i, (classes, _) in enumerate(tiles) if "ms-next" in classes] == [
            move.y * 16 + move.x]
        assert (f"guess {number} of {len(record.moves)} at ({move.x}, {move.y}): "
                f"{KIND_LABELS[move.kind]}, P(mine) = "
                f"{probability[move.y, move.x]:.4f}") in page.captions
    assert "http" not in markup and "//" not in markup


def test_a_game_dealt_by_windows_xp_weighs_its_layouts_in_the_html():
    from minestats.io.games import GameRecord, game_html
    from minestats.players import Move

    # one mine at (0, 0) of a 3x2 board, clicked at (1, 1): under winxp a mine on the
    # click moved to (0, 0), so (0, 0) weighs twice; every other rule weighs alike
    layout = np.array([[1, 0, 0], [0, 0, 0]], dtype=bool)
    moves = (Move(2, 1, 0.2, "frontier"), Move(0, 1, 0.5, "fifty-fifty"))
    weighed = {"winxp": ("0.1667", "0.3333"), "safe-click": ("0.2000", "0.5000"),
               None: ("0.2000", "0.5000")}
    for rule, (first, second) in weighed.items():
        captions = Boards(game_html(GameRecord(layout, (1, 1), moves, "best", 1, True, rule))
                          ).captions
        assert f"guess 1 of 2 at (2, 1): frontier guess, P(mine) = {first}" in captions
        assert f"guess 2 of 2 at (0, 1): 50/50, P(mine) = {second}" in captions


def test_a_game_from_another_board_is_refused_in_one_line():
    from minestats.io.games import GameRecord, game_html

    record = lost_game()
    other = GameRecord(np.roll(record.mines, 5, axis=1), *record[1:])
    with pytest.raises(ValueError, match=r"^(guess \d+ \(\d+, \d+\) does not fit the game|the "
                                         r"game does not fit its layout)"):
        game_html(other)


def test_a_game_result_shows_its_guesses_as_a_table():
    record = lost_game()
    game = minestats.play(record.mines, (0, 0), seed=3)
    texts = html_texts(game._repr_html_())
    assert texts[0].startswith("lost with" if not game.won else "won with")
    assert texts[1:5] == ["guess", "cell", "kind", "P(mine)"]
    rows = [texts[5 + 4 * i:9 + 4 * i] for i in range(game.guesses)]
    assert rows == [[str(i), f"({m.x}, {m.y})", KIND_LABELS[m.kind],
                     f"{m.mine_probability:.4f}"] for i, m in enumerate(game.moves, start=1)]


def figure_texts(axes) -> dict:
    """``{(x, y): text}`` of the values written in the cells of a board's axes."""
    return {tuple(round(v) for v in text.get_position()): text.get_text()
            for text in axes.texts}


@pytest.mark.parametrize("source", ["position", "expert game"])
def test_a_position_figure_writes_what_mine_probabilities_says(source):
    from minestats.io.games import replay
    from minestats.mechanics.game import neighbour_counts

    if source == "position":
        numbers, flags = minestats.parse_position((ROOT / "examples" / "position.txt")
                                                  .read_text())
        mines = 10
    else:  # the board before the last guess of a lost game
        record = lost_game()
        step = replay(record)[-2]
        numbers = np.where(step.revealed, neighbour_counts(record.mines), -1)
        flags, mines = step.flagged, 40
    probability = mine_probabilities(numbers, flags=flags, mines=mines).probability
    axes = minestats.plot_position(numbers, flags=flags, mines=mines).axes[0]
    texts = figure_texts(axes)
    for (y, x), number in np.ndenumerate(numbers):
        if flags[y, x]:
            assert texts[x, y] == "F"
        elif number < 0:
            assert printed(texts[x, y], probability[y, x]), (x, y)
        else:
            assert texts.get((x, y), "0") == str(number)
    outlined = {(round(patch.get_x() + 0.44), round(patch.get_y() + 0.44))
                for patch in axes.patches if not patch.get_fill()}
    hidden = (numbers < 0) & ~flags
    ys, xs = np.nonzero(hidden & (probability <= probability[hidden].min() + 1e-12))
    assert outlined == set(zip(xs.tolist(), ys.tolist(), strict=True))


def test_a_position_figure_draws_into_given_axes_and_stays_vector():
    import io

    from matplotlib.figure import Figure

    figure = Figure()
    left, right = figure.subplots(1, 2)
    numbers, flags = minestats.parse_position(POSITION)
    result = mine_probabilities(numbers, flags=flags, mines=4)
    assert minestats.plot_position(numbers, probabilities=result, flags=flags, ax=right,
                                   coordinates=False, colorbar=False) is figure
    assert not left.texts and len(right.texts) == numbers.size  # no 0 to leave blank
    assert len(figure.axes) == 2 and not right.get_xticks().size
    svg = io.BytesIO()
    figure.savefig(svg, format="svg")
    assert b"<image" not in svg.getvalue()  # no raster: cells and text are paths


def test_a_probability_map_leaves_revealed_cells_blank():
    from minestats.figures.plots import plot_probability_map

    numbers, flags = minestats.parse_position(POSITION)
    result = mine_probabilities(numbers, flags=flags, mines=4)
    axes = plot_probability_map(result.probability, title="t", label="P(mine)").axes[0]
    texts = figure_texts(axes)
    assert set(texts) == {(x, y) for y, x in zip(*np.nonzero(numbers < 0), strict=True)}
    with pytest.raises(ValueError, match="every cell is NaN or masked"):
        plot_probability_map(np.full((2, 2), np.nan), title="t")
