"""Draw the example games of ``examples/games/`` as step-by-step pages of the site.

Each ``examples/games/NAME.json`` is a game file as ``minestats play --out`` writes it.
At ``config-inited`` this extension replays it (`minestats.io.games.replay`, which
checks every guess against the layout) and draws it with `minestats.io.games.game_html`
into ``docs/_games/games/NAME.html``: the same self-contained page that
``minestats play --replay NAME.json --html NAME.html`` writes. ``docs/_games`` is an
extra path of the site, so the pages land in ``games/`` beside the site's own pages,
where the guide's game pages frame them. A game whose file does not replay fails the
build.
"""

from __future__ import annotations

from pathlib import Path

from generated import write_generated

from minestats.foundations.compiling import say_when_compiling
from minestats.inference.html import page
from minestats.io.games import game_html, parse_game

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "examples" / "games"
VIEWS = ROOT / "docs" / "_games"


def game_pages() -> dict[str, str]:
    """Return the file name and the HTML page of every example game."""
    return {f"{path.stem}.html": page(game_html(parse_game(path.read_text())),
                                      title=f"examples/games/{path.name}: a game of minestats")
            for path in sorted(GAMES.glob("*.json"))}


def write_game_pages(app, config) -> None:
    """Write the pages of the example games into the site's extra path.

    Drawing them computes probabilities, which compiles kernels on a fresh machine; the
    note that says so would be build output that is not Sphinx's, so it is held back.
    """
    say_when_compiling(False)
    try:
        write_generated(VIEWS / "games", game_pages(), "*.html")
    finally:
        say_when_compiling()


def setup(app):
    """Register the extension with Sphinx."""
    app.connect("config-inited", write_game_pages)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
