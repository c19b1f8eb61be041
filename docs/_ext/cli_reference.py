"""The ``cli-reference`` directive: every subcommand's options as a table, from the parser.

The page cannot drift from the command: it is read from
`minestats.cli.parser.build_parser`, one section per subcommand in the parser's
order, each under its own anchor (``cli-SUBCOMMAND``): what the subcommand does, its
usage line, a table of its arguments and options (name, default, what it does), each
row with an anchor of its own (``cli-SUBCOMMAND-OPTION``, such as
``cli-win-rate-board``), and its examples as the help prints them.
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


def with_columns(function, *args):
    """Call ``function`` with the terminal 100 columns wide, as the command wraps its help."""
    columns = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "100"
    try:
        return function(*args)
    finally:
        if columns is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = columns


def options(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    """Return the arguments of a subcommand worth a row: all but ``--help``."""
    return [action for action in parser._actions if not isinstance(
        action, (argparse._HelpAction, argparse._SubParsersAction))
        and action.help != argparse.SUPPRESS]


def anchor(command: str, action: argparse.Action) -> str:
    """Return the anchor of an option's row: ``cli-win-rate-board`` for ``--board``."""
    name = (action.option_strings[-1] if action.option_strings else action.dest).lstrip("-")
    return nodes.make_id(f"cli-{command}-{name}")


def default_text(action: argparse.Action) -> str:
    """Return an option's default as the table shows it ('' when it has none to show)."""
    if action.option_strings and action.nargs == 0:  # a flag
        return ""
    default = action.default
    if default is None or default == argparse.SUPPRESS:
        return ""
    if isinstance(default, (list, tuple)):
        return " ".join(map(str, default))
    return str(default)


def option_table(command: str, parser: argparse.ArgumentParser) -> nodes.table:
    """Return the table of one subcommand's arguments: name, default, what it does."""
    formatter = parser._get_formatter()
    table = nodes.table(classes=["ms-options"])
    group = nodes.tgroup(cols=3)
    table += group
    for width in (28, 14, 58):
        group += nodes.colspec(colwidth=width)
    head = nodes.thead()
    group += head
    head += nodes.row("", *(nodes.entry("", nodes.paragraph(text=text))
                            for text in ("argument", "default", "what it does")))
    body = nodes.tbody()
    group += body
    for action in options(parser):
        names = ", ".join(action.option_strings) or action.dest
        metavar = "" if action.nargs == 0 or not action.option_strings else " " + \
            formatter._format_args(action, formatter._get_default_metavar_for_optional(action))
        name = nodes.paragraph()
        name += nodes.literal(text=names + metavar)
        help_text = formatter._expand_help(action) if action.help else ""
        if action.choices and not isinstance(action.choices, dict):
            help_text += f" (one of: {', '.join(map(str, action.choices))})"
        default = nodes.paragraph()
        if default_text(action):
            default += nodes.literal(text=default_text(action))
        body += nodes.row("", nodes.entry("", name, ids=[anchor(command, action)]),
                          nodes.entry("", default),
                          nodes.entry("", nodes.paragraph(text=help_text.strip())))
    return table


class CliReference(SphinxDirective):
    """Insert the reference of ``minestats`` and of every subcommand."""

    def run(self):
        """Return the command's usage, then one section per subcommand."""
        parser = build_parser()
        sections = [nodes.paragraph(text=parser.description),
                    nodes.literal_block(text=with_columns(parser.format_usage).strip(),
                                       language="none")]
        for name, subparser in subcommands(parser).items():
            section = nodes.section(ids=[f"cli-{name}"], names=[f"minestats {name}"])
            section += nodes.title(text=f"minestats {name}")
            if subparser.description:
                section += nodes.paragraph(text=subparser.description)
            section += nodes.literal_block(text=with_columns(subparser.format_usage).strip(),
                                           language="none")
            section += option_table(name, subparser)
            if subparser.epilog:
                section += nodes.literal_block(text=subparser.epilog.strip(), language="none")
            sections.append(section)
        return sections


def setup(app):
    """Register the directive."""
    app.add_directive("cli-reference", CliReference)
    return {"parallel_read_safe": True}
