"""The ``cli-reference`` directive: every subcommand's help, generated from the parser.

The page cannot drift from the command: it is the text ``minestats SUBCOMMAND --help``
prints (`minestats.cli.parser.build_parser`), one section per subcommand, in the
parser's order, each under its own anchor (``cli-SUBCOMMAND``).
"""

from __future__ import annotations

import argparse
import os

from docutils import nodes
from sphinx.util.docutils import SphinxDirective

from minestats.cli.parser import build_parser


def subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """Return the parser's subcommands by name, in the order they were added."""
    action = next(action for action in parser._actions
                  if isinstance(action, argparse._SubParsersAction))
    return dict(action.choices)


def help_text(parser: argparse.ArgumentParser) -> str:
    """Return the help a parser prints, at the width the command wraps it to."""
    columns = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "100"
    try:
        return parser.format_help()
    finally:
        if columns is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = columns


class CliReference(SphinxDirective):
    """Insert the help of ``minestats`` and of every subcommand."""

    def run(self):
        """Return one section per subcommand, after the command's own help."""
        parser = build_parser()
        sections = [nodes.literal_block(text=help_text(parser))]
        for name, subparser in subcommands(parser).items():
            section = nodes.section(ids=[f"cli-{name}"], names=[f"minestats {name}"])
            section += nodes.title(text=f"minestats {name}")
            section += nodes.literal_block(text=help_text(subparser))
            sections.append(section)
        return sections


def setup(app):
    """Register the directive."""
    app.add_directive("cli-reference", CliReference)
    return {"parallel_read_safe": True}
