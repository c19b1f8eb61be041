"""The ``minestats`` command: parse the flags, call the library, print the answer.

No mathematics lives here. Every error a user can cause ends the command with one
line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np
import pandas as pd

from minestats.board import PRESETS, resolve_board
from minestats.consistency import parse_counts, reconstruct
from minestats.exact import opening_probability, opening_probability_map
from minestats.montecarlo import simulate_opening
from minestats.rules import RULES

__all__ = ["main"]

_EXAMPLES = """examples:
  minestats opening --board expert --rule winxp --click 0,0
  minestats opening --board 9x9/10 --rule safe-click --click centre -n 200000 --seed 42
  minestats opening-map --board beginner --rule uniform
  minestats opening-map --board expert --rule winxp -n 100000 --csv > winxp.csv
  minestats reconstruct counts.txt
"""

_RECONSTRUCT_EPILOG = """input: rows of whitespace-separated counts 0..9, one row per line (blank
lines are skipped); each count is the number of mines in the cell's 3x3 block, the
cell itself included.

output: one solution as rows of X (mine) and _ (safe), or the single line -1 when no
layout fits; then a last line 'solutions: N, unique: yes|no' with the exact number
of layouts that fit.

example:
  $ printf '1 1 1\\n1 1 1\\n0 0 0\\n' | minestats reconstruct
  _ X _
  _ _ _
  _ _ _
  solutions: 1, unique: yes
"""


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and exit status 2."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message}\n")


def _add_common(parser: argparse.ArgumentParser, *, click: bool) -> None:
    presets = ", ".join(PRESETS)
    parser.add_argument("--board", required=True,
                        help=f"a preset ({presets}) or WxH/M, e.g. 30x16/99")
    parser.add_argument("--rule", required=True, help=f"first-click rule: {', '.join(RULES)}")
    if click:
        parser.add_argument("--click", default="centre",
                            help="x,y (0-based column,row), 'centre' or 'corner' (default centre)")
    parser.add_argument("-n", "--n", type=int, default=None,
                        help="also simulate this many boards (per click position)")
    parser.add_argument("--seed", type=int, default=None,
                        help="seed of the simulation (default: fresh entropy, printed)")
    parser.add_argument("--workers", type=int, default=-1,
                        help="worker processes for the simulation (-1: all cores)")


def _build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="minestats", description="Minesweeper statistics, exact and simulated.",
                     epilog=_EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    opening = commands.add_parser(
        "opening", help="probability that one first click opens (shows 0)",
        description="Exact opening probability of one first click; with -n, Monte Carlo too.")
    _add_common(opening, click=True)
    opening_map = commands.add_parser(
        "opening-map", help="opening probability of every click position",
        description="Exact opening probability of every click position as a grid of rows "
                    "(y) and columns (x); with -n, Monte Carlo z-scores too.")
    _add_common(opening_map, click=False)
    opening_map.add_argument("--csv", action="store_true",
                             help="write one tidy CSV row per click position to stdout")
    reconstruct_parser = commands.add_parser(
        "reconstruct", help="find the mine layout behind a matrix of 3x3 counts",
        description="Reconstruct a mine layout from each cell's count of mines in its 3x3 "
                    "block (itself included), count the layouts that fit and say whether "
                    "the answer is unique.",
        epilog=_RECONSTRUCT_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    reconstruct_parser.add_argument("file", nargs="?", default="-",
                                    help="file holding the counts ('-' or none: stdin)")
    return parser


def _simulate(args, click):
    return simulate_opening(args.board, rule=args.rule, n=args.n, click=click, rng=args.seed,
                            workers=args.workers)


def _run_opening(args) -> None:
    board = resolve_board(args.board)
    click = board.resolve_click(args.click)
    exact = opening_probability(board, click, rule=args.rule)
    row = None if args.n is None else _simulate(args, click).to_dict()
    print(f"board {board}  rule {args.rule}  click {click}")
    print(f"exact  {float(exact):.6f}  ({exact})")
    if row is not None:
        print(f"mc     {row['mc']:.6f}  95% Wilson [{row['ci_low']:.6f}, {row['ci_high']:.6f}]"
              f"  z {row['z']:+.2f}  n {row['n']}  seed {row['seed']}")


def _print_grid(title: str, grid: np.ndarray, fmt: str) -> None:
    print(title)
    for row in grid:
        print(" ".join(format(value, fmt) for value in row))


def _run_opening_map(args) -> None:
    board = resolve_board(args.board)
    if args.n is None:
        grid = opening_probability_map(board, rule=args.rule)
        if args.csv:
            ys, xs = np.indices(board.shape)
            pd.DataFrame({"board": str(board), "rule": args.rule, "click_x": xs.ravel(),
                          "click_y": ys.ravel(), "exact": grid.ravel()}).to_csv(
                sys.stdout, index=False)
            return
        _print_grid(f"exact opening probability, board {board}, rule {args.rule} "
                    f"(rows y = 0..{board.height - 1}, columns x = 0..{board.width - 1})",
                    grid, ".4f")
        return
    result = _simulate(args, None)
    if args.csv:
        result.to_frame().to_csv(sys.stdout, index=False)
        return
    _print_grid(f"exact opening probability, board {board}, rule {args.rule}", result.exact, ".4f")
    _print_grid(f"Monte Carlo z-scores, n {result.n} per click, seed {result.seed}",
                result.z_scores(), "+.1f")
    rejected = int(result.holm_reject(alpha=0.05).sum())
    print(f"Holm at family-wise 5%: {rejected} of {board.cells} positions disagree "
          "with the closed form")


def _run_reconstruct(args) -> None:
    if args.file == "-":
        name, text = "<stdin>", sys.stdin.read()
    else:
        name = args.file
        try:
            with open(name, encoding="utf-8") as source:
                text = source.read()
        except OSError as error:
            raise ValueError(f"cannot read {name!r}: {error.strerror}") from None
    try:
        counts = parse_counts(text)
    except ValueError as error:
        raise ValueError(f"{name}: {error}") from None
    result = reconstruct(counts)
    print(result.to_text())
    print(f"solutions: {result.n_solutions}, unique: {'yes' if result.unique else 'no'}")


def main(argv=None) -> int:
    """Run the ``minestats`` command; return its exit status.

    Examples
    --------
    >>> main(["opening", "--board", "9x9/10", "--rule", "uniform", "--click", "centre"])
    board 9x9/10  rule uniform  click (4, 4)
    exact  0.285463  (52079636/182439045)
    0
    """
    args = _build_parser().parse_args(argv)
    runners = {"opening": _run_opening, "opening-map": _run_opening_map,
               "reconstruct": _run_reconstruct}
    try:
        runners[args.command](args)
    except ValueError as error:
        print(f"minestats {args.command}: error: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader (e.g. `head`) closed the pipe: stop quietly, as Unix tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
