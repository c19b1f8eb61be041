"""The ``minestats`` command: parse the flags, call the library, print the answer.

No mathematics lives here. Every error a user can cause ends the command with one
line on stderr and exit status 2; output that cannot be written (standard output
closed or on a full disk, `minestats.cli.streams`) with one line and status 1; a
search that gives up at its configuration cap
(``reconstruct``) ends with one line on stderr and exit status 3
(`minestats.cli.commands.CAPPED`). `parser` holds the flags, `commands` one function
per subcommand (returning None, or an exit status), `output` the printing and
reading.
"""

from __future__ import annotations

import sys

from minestats.cli.parser import build_parser

__all__ = ["main"]


def main(argv=None) -> int:
    """Run the ``minestats`` command; return its exit status.

    Examples
    --------
    >>> main(["opening", "--board", "9x9/10", "--rule", "uniform", "--click", "centre"])
    board 9x9/10  rule uniform  click (4, 4)
    exact  0.285463  (52079636/182439045)
    0
    """
    args = build_parser().parse_args(argv)
    # The library is imported only once the flags parse: `--help` stays fast.
    from minestats.cli.commands import COMMANDS
    from minestats.cli.streams import StdoutFailed, checked_stdout, discard_stdout
    from minestats.foundations.compiling import say_when_compiling
    from minestats.foundations.validation import PATH_LIMIT, clipped, quoted

    if getattr(args, "quiet", False):
        say_when_compiling(False)
    try:
        with checked_stdout():
            status = COMMANDS[args.command](args)
    except StdoutFailed as error:
        print(f"minestats {args.command}: error: cannot write to standard output: {error}",
              file=sys.stderr)
        discard_stdout()
        return 1
    except ValueError as error:
        print(f"minestats {args.command}: error: {clipped(str(error))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"minestats {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader (e.g. `head`) closed the pipe: stop quietly, as Unix tools do.
        discard_stdout()
        return 1
    except OSError as error:  # a file system refusal the command did not foresee
        where = f": {quoted(error.filename, PATH_LIMIT)}" if error.filename else ""
        print(f"minestats {args.command}: error: {clipped(str(error.strerror or error))}"
              f"{where}", file=sys.stderr)
        return 1
    if getattr(args, "drawn_seed", False) and not args.quiet:
        print(f"seed {args.seed} (drawn: --seed {args.seed} repeats this run)",
              file=sys.stderr)
    return status or 0
