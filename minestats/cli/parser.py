"""The flags of every ``minestats`` subcommand, with one vocabulary throughout."""

from __future__ import annotations

import argparse

from minestats import __version__
from minestats.foundations.defaults import BBBV_HISTOGRAM, NO_GUESS, PASS_RATE, WIN_RATE
from minestats.foundations.validation import (
    DEFAULT_EXACT_CONFIGURATIONS,
    DEFAULT_MAX_CONFIGURATIONS,
    POLICIES,
    PRESET_SIZES,
    RULES,
    SOLVERS,
    clipped,
)
from minestats.reproduction.registry import EXPERIMENTS

__all__ = ["build_parser"]

EXAMPLES = """examples:
  minestats opening --board expert --rule winxp --click 0,0
  minestats opening --board 9x9/10 --rule safe-click -n 200000 --seed 42
  minestats opening-map --board beginner --rule uniform
  minestats simulate --board expert --rule winxp --all-clicks -n 1000000 --csv > xp.csv
  minestats solve --board expert --seed 7 --solver logic
  minestats solve --file examples/board.txt --click 3,4 --solver subset
  minestats pass-rate --board intermediate --solver single-point -n 100000 --seed 1
  minestats sweep --boards beginner expert --solvers single-point logic -n 20000 --csv
  minestats generate --board expert --method perturb --seed 2026-11-29 --out daily.mbf
  minestats bbbv --board expert --rule safe-opening -n 100000 --between 70 130
  minestats reconstruct examples/counts.txt
  minestats probabilities examples/position.txt --mines 10 --exact
  minestats play --board expert --rule safe-click --click corner --policy best --seed 7
  minestats play --board intermediate --seed 6 --out game.json
  minestats play --replay game.json --html game.html
  minestats probabilities examples/position.txt --mines 10 --html position.html
  minestats win-rate --board beginner --rule safe-click --click corner -n 2000 --seed 1
  minestats analyse examples/game.evf --html game.html
  minestats analyse examples/replays/ --markdown
  minestats reproduce --quiet
  minestats results list
  minestats simulate --board expert --rule uniform -n 100000000 --scheduler tcp://HOST:8786
  minestats pass-rate --board expert --solver logic -n 1000000 --seed 3 --store run.sqlite
  minestats compare --board expert --solvers logic logic:no-mine-count -n 20000 --seed 5
  minestats compare --board beginner --policies safest best -n 2000 --seed 5
"""

RECONSTRUCT_EPILOG = """input: rows of whitespace-separated counts 0..9, one row per line (blank
lines are skipped); each count is the number of mines in the cell's 3x3 block, the
cell itself included.

output: one solution as rows of X (mine) and _ (safe), then a last line 'solutions: N,
unique: yes|no' with the exact number of layouts that fit; or the single line 'no
layout fits these counts (solutions: 0)'.

exit status: 0 a layout fits; 1 no layout fits; 2 bad input; 3 capped: the
search gave up after --max-configurations configurations without an answer, said in
one line on stderr with nothing on stdout (crafted matrices can need more than any
machine has; random ones a small share of the default).

example:
  $ printf '1 1 1\\n1 1 1\\n0 0 0\\n' | minestats reconstruct
  _ X _
  _ _ _
  _ _ _
  solutions: 1, unique: yes
"""


def seed_argument(text: str) -> int | str:
    """Read ``--seed``: digits are an int, anything else a string, as in the library.

    So ``--seed 42`` gives the numbers of ``seed=42`` and ``--seed 2026-11-29`` those
    of ``seed="2026-11-29"`` (`minestats.foundations.seeds.seed_from_text`).
    """
    from minestats.foundations.seeds import seed_from_text

    try:
        return seed_from_text(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def file_name_argument(text: str) -> str:
    """Read a file name to write (``--out``): refused at once when it is empty.

    Checked before the command computes anything, so that a name that can never be
    written does not cost a game or a generated board first.
    """
    if not text:
        raise argparse.ArgumentTypeError("an empty name names no file")
    return text


SEED_HELP = ("an integer, or a string such as a date (2026-11-29); default: fresh entropy, "
             "printed with the result")


HELP_COLUMNS = 100
"""The widest the help is wrapped (narrower on a narrower terminal)."""


class HelpFormatter(argparse.HelpFormatter):
    """Wrap the help to `HELP_COLUMNS`; keep text laid out in lines (examples) as written."""

    def __init__(self, prog):
        import shutil

        super().__init__(prog, width=min(HELP_COLUMNS, shutil.get_terminal_size().columns - 2))

    def _fill_text(self, text, width, indent):
        if "\n" in text:  # an epilog of examples, laid out by hand
            return "".join(indent + line for line in text.splitlines(keepends=True))
        return super()._fill_text(text, width, indent)


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and exit status 2."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {clipped(message)}\n")


def _board(parser, *, required=True):
    presets = ", ".join(PRESET_SIZES)
    parser.add_argument("--board", required=required,
                        help=f"a preset ({presets}) or WxH/M, e.g. 30x16/99")


def _rule(parser, *, default):
    parser.add_argument("--rule", required=default is None, default=default,
                        help=f"first-click rule: {', '.join(RULES)}"
                             + (f" (default {default})" if default else ""))


def _click(parser, *, default="centre"):
    parser.add_argument("--click", default=default,
                        help=f"x,y (0-based column,row), 'centre' or 'corner' (default {default})")


def _policy(parser):
    parser.add_argument("--policy", default="best",
                        help=f"how to guess at a stall: {', '.join(POLICIES)} (default best)")


def _solver(parser):
    parser.add_argument("--solver", default="logic",
                        help=f"{', '.join(SOLVERS)} (default logic)")
    parser.add_argument("--no-mine-count", dest="use_mine_count", action="store_false",
                        help="do not let the solver use the total mine count")
    parser.add_argument("--max-configurations", type=int, default=DEFAULT_MAX_CONFIGURATIONS,
                        help="logic: give up a stall after this many configurations")


def _exact_budget(parser):
    parser.add_argument("--max-configurations", type=int, default=DEFAULT_EXACT_CONFIGURATIONS,
                        help="give up (exit status 3) when the exact search needs more "
                             f"configurations than this (default "
                             f"{DEFAULT_EXACT_CONFIGURATIONS:_})")


def _run_options(parser, *, n_required, n_help="boards to simulate"):
    parser.add_argument("-n", "--n", type=int, required=n_required, default=None, help=n_help)
    parser.add_argument("--seed", type=seed_argument, default=None, help=SEED_HELP)
    parser.add_argument("--workers", type=int, default=-1,
                        help="worker processes (-1: all cores, 1: this process)")
    parser.add_argument("--chunk-size", type=int, default=None,
                        help="boards per chunk (default: the library's for this command); "
                             "the numbers depend on --seed, -n and this, never on --workers")
    parser.add_argument("--scheduler", default=None,
                        help="Dask scheduler address (default $DASK_SCHEDULER_ADDRESS); "
                             "runs the chunks on that cluster")
    parser.add_argument("--store", default=None,
                        help="SQLite file keeping finished chunks: a rerun with the same "
                             "flags resumes; needs --seed (without one each run draws a "
                             "new seed and could never reuse a chunk)")
    parser.add_argument("--progress", action="store_true",
                        help="show the progress bar even when stderr is not a terminal "
                             "(by default only a terminal gets one, so logs stay clean)")
    _quiet(parser)


def _quiet(parser):
    parser.add_argument("--quiet", action="store_true",
                        help="nothing on stderr but errors (no progress bar, no drawn seed)")


def _html(parser, what: str):
    parser.add_argument("--html", type=file_name_argument, default=None, metavar="OUT",
                        help=f"also write {what}, as one self-contained HTML page (it fetches "
                             "nothing); OUT is replaced whole, and a folder, link, device or "
                             "FIFO is refused")


def _output(parser):
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--csv", action="store_true", help="write CSV to stdout")
    group.add_argument("--json", action="store_true", help="write JSON to stdout")
    return group


def build_parser() -> argparse.ArgumentParser:
    """Build the parser of the ``minestats`` command and all its subcommands."""
    parser = Parser(prog="minestats", description="Minesweeper statistics, exact and simulated.",
                    epilog=EXAMPLES, formatter_class=HelpFormatter)
    parser.add_argument("--version", action="version", version=f"minestats {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=Parser,
                                     metavar="COMMAND")

    def command(name, summary, description):
        examples = [line for line in EXAMPLES.splitlines()
                    if line.strip().startswith(f"minestats {name} ")]
        return commands.add_parser(name, help=summary, description=description,
                                   epilog="examples:\n" + "\n".join(examples),
                                   formatter_class=HelpFormatter)

    opening = command("opening", "probability that one first click opens (shows 0)",
                      "Exact opening probability of one first click; with -n, Monte Carlo "
                      "too, with its Wilson interval, n and seed.")
    _board(opening)
    _rule(opening, default=None)
    _click(opening)
    _run_options(opening, n_required=False, n_help="also simulate this many boards")
    _output(opening)

    opening_map = command("opening-map", "opening probability of every click position",
                          "Exact opening probability of every click position as rows (y) and "
                          "columns (x); with -n, Monte Carlo z-scores and a Holm verdict too.")
    _board(opening_map)
    _rule(opening_map, default=None)
    _run_options(opening_map, n_required=False, n_help="also simulate this many boards per "
                                                       "click position")
    _output(opening_map)

    simulate = command("simulate", "Monte Carlo opening counts with intervals",
                       "Draw whole boards by the rule and count how often the click opens; "
                       "prints the exact value, the estimate, its Wilson interval and z.")
    _board(simulate)
    _rule(simulate, default=None)
    _click(simulate)
    simulate.add_argument("--all-clicks", action="store_true",
                          help="simulate every click position at once")
    _run_options(simulate, n_required=True, n_help="boards per click position")
    _output(simulate)

    solve = command("solve", "play one board from one click without guessing",
                    "Solve one board, read from --file (text grid of '*' and '.', or .mbf) "
                    "or drawn by --rule from --board with --seed, and show where the "
                    "solver stops.")
    _board(solve, required=False)
    solve.add_argument("--file", default=None,
                       help="board file: rows of '*' (mine) and '.', or MBF if it ends .mbf")
    _rule(solve, default=PASS_RATE.rule)
    _click(solve)
    _solver(solve)
    solve.add_argument("--seed", type=seed_argument, default=None,
                       help="seed of a drawn board: " + SEED_HELP)
    _quiet(solve)
    _output(solve)

    pass_rate = command("pass-rate", "share of boards a solver finishes without guessing",
                        "Pass rate of one solver from one click, with its Wilson interval.")
    _board(pass_rate)
    _rule(pass_rate, default=PASS_RATE.rule)
    _click(pass_rate, default=PASS_RATE.click)
    _solver(pass_rate)
    _run_options(pass_rate, n_required=True)
    _output(pass_rate)

    sweep = command("sweep", "pass rates over boards x rules x clicks x solvers",
                    "Pass rates over every combination of the listed boards, rules, clicks "
                    "and solvers; row i is seeded with child i of --seed.")
    sweep.add_argument("--boards", nargs="+", default=["beginner", "intermediate", "expert"],
                       help="presets or WxH/M (default beginner intermediate expert)")
    sweep.add_argument("--rules", nargs="+", default=[PASS_RATE.rule],
                       help=f"first-click rules among {', '.join(RULES)} (default "
                            f"{PASS_RATE.rule})")
    sweep.add_argument("--clicks", nargs="+", default=[PASS_RATE.click],
                       help=f"clicks: x,y, 'centre' or 'corner' (default {PASS_RATE.click})")
    sweep.add_argument("--solvers", nargs="+", default=["single-point", "subset", "logic"],
                       help=f"solvers among {', '.join(SOLVERS)} (default single-point subset "
                            "logic)")
    sweep.add_argument("--no-mine-count", dest="use_mine_count", action="store_false",
                       help="do not let the solvers use the total mine count")
    _run_options(sweep, n_required=True, n_help="boards per row")
    _output(sweep)

    generate = command("generate", "a board that can be solved without guessing",
                       "Generate a no-guess board (retry or Tatham-style perturb), verified "
                       "by a full solve from the click. A seed may be a date such as "
                       "2026-11-29: the same seed gives the same board on every machine.")
    _board(generate)
    _rule(generate, default=NO_GUESS.rule)
    _click(generate)
    generate.add_argument("--method", default="retry", help="retry or perturb (default retry)")
    generate.add_argument("--solver", default="logic", help=f"{', '.join(SOLVERS)}")
    generate.add_argument("--seed", type=seed_argument, default=None, help=SEED_HELP)
    generate.add_argument("--max-tries", type=int, default=None, help="give up after this many")
    generate.add_argument("--timeout", type=float, default=None,
                          help="give up after this many seconds")
    generate.add_argument("--format", choices=("text", "mbf"), default=None,
                          help="board format of --out (default: mbf for *.mbf, else text)")
    generate.add_argument("--out", type=file_name_argument, default=None,
                          help="write the board to this file")
    _quiet(generate)
    _output(generate)

    bbbv = command("bbbv", "3BV of a board, or its distribution over many boards",
                   "3BV (the minimum number of left clicks) of the board in --file, or its "
                   "distribution over -n boards drawn by --rule from --board.")
    _board(bbbv, required=False)
    bbbv.add_argument("--file", default=None, help="board file (text grid or .mbf)")
    _rule(bbbv, default=BBBV_HISTOGRAM.rule)
    _click(bbbv, default=BBBV_HISTOGRAM.click)
    bbbv.add_argument("--between", nargs=2, type=int, metavar=("LOW", "HIGH"), default=None,
                      help="also the share of boards with LOW <= 3BV <= HIGH")
    _run_options(bbbv, n_required=False, n_help="boards to draw")
    _output(bbbv)

    reconstruct = commands.add_parser(
        "reconstruct", help="find the mine layout behind a matrix of 3x3 counts",
        description="Reconstruct a mine layout from each cell's count of mines in its 3x3 "
                    "block (itself included), count the layouts that fit and say whether "
                    "the answer is unique.",
        epilog=RECONSTRUCT_EPILOG, formatter_class=HelpFormatter)
    reconstruct.add_argument("file", nargs="?", default="-",
                             help="file holding the counts ('-' or none: stdin)")
    _exact_budget(reconstruct)
    _quiet(reconstruct)

    probabilities = command(
        "probabilities", "exact mine probability of every unknown cell of a position",
        "Exact mine probabilities of a partly revealed board given as text: digits 0-8 for "
        "open cells, '?' for unknown cells, 'F' for flags, one row per line.")
    probabilities.add_argument("file", help="file holding the position ('-': stdin)")
    probabilities.add_argument("--mines", type=int, default=None,
                               help="total mines, flags included (default: not known)")
    probabilities.add_argument("--exact", action="store_true",
                               help="print each probability as the exact fraction (with "
                                    "--csv/--json: a column 'fraction' too)")
    probabilities.add_argument("--rule", default=None, choices=RULES,
                               help="the rule that dealt the board: only winxp changes the "
                                    "answer (its layouts weigh unequally; needs --click and "
                                    "--mines); default: every layout alike")
    probabilities.add_argument("--click", default=None,
                               help="the first click, x,y (0-based column,row), for "
                                    "--rule winxp")
    _html(probabilities, "the position: every unknown cell's mine probability in colour, the "
                         "safest outlined")
    _exact_budget(probabilities)
    _quiet(probabilities)
    _output(probabilities)

    play = command("play", "play one game to the end, guessing where it must",
                   "Draw a board by --rule from --board with --seed (or read --file) and play "
                   "it from --click: sound deductions, and at each stall a guess by --policy.")
    _board(play, required=False)
    play.add_argument("--file", default=None, help="board file (text grid or .mbf)")
    _rule(play, default=WIN_RATE.rule)
    _click(play, default=WIN_RATE.click)
    _policy(play)
    play.add_argument("--seed", type=seed_argument, default=None,
                      help="seed of the board and the tie-breaks: " + SEED_HELP)
    play.add_argument("--out", type=file_name_argument, default=None,
                      help="save the game (layout, click, guesses) as JSON for --replay")
    play.add_argument("--replay", default=None, metavar="GAME",
                      help="step through a game saved by --out: the board before each guess "
                           "and its mine probability")
    _html(play, "the game, step by step: the board before each guess, every unknown cell's "
                "mine probability in colour, the guess ringed")
    _quiet(play)
    _output(play)

    win = command("win-rate", "share of games a policy wins, with its Wilson interval",
                  "Play -n games drawn by --rule from --board, each from --click, guessing "
                  "by --policy; print the win rate with its Wilson interval and guess counts.")
    _board(win)
    _rule(win, default=WIN_RATE.rule)
    _click(win, default=WIN_RATE.click)
    _policy(win)
    _run_options(win, n_required=True, n_help="games to play")
    _output(win)

    compare = command(
        "compare", "contenders on the same boards: paired differences and McNemar's test",
        "Draw -n boards once and let every solver (--solvers) or every guessing policy "
        "(--policies) play every one of them; print each contender's rate and, for every "
        "pair, the paired difference (first minus second) with Newcombe's interval, its "
        "width against the unpaired interval at the same n, and McNemar's exact p.")
    _board(compare)
    contenders = compare.add_mutually_exclusive_group(required=True)
    contenders.add_argument("--solvers", nargs="+", metavar="SOLVER",
                            help=f"{', '.join(SOLVERS)}; append ':no-mine-count' to solve "
                                 "without the mine count (logic:no-mine-count)")
    contenders.add_argument("--policies", nargs="+", metavar="POLICY",
                            help=f"guessing policies: {', '.join(POLICIES)}")
    compare.add_argument("--rule", default=None,
                         help=f"first-click rule: {', '.join(RULES)} (default safe-opening for "
                              "solvers, safe-click for policies)")
    compare.add_argument("--click", default=None,
                         help="x,y (0-based column,row), 'centre' or 'corner' (default centre "
                              "for solvers, corner for policies)")
    compare.add_argument("--adjacent", action="store_true",
                         help="compare only neighbours in the order given, not every pair")
    _run_options(compare, n_required=True, n_help="boards every contender plays")
    _output(compare)

    reproduce = command("reproduce", "regenerate every table and figure in results/",
                        "Run every experiment (python -m minestats.experiments.NAME, in the "
                        "current folder) and write its CSV, PNG and JSON files into --out; "
                        "then render the notebooks of a source checkout, if there is one.")
    reproduce.add_argument("--full", action="store_true",
                           help="paper-grade sample sizes (hours, not minutes)")
    reproduce.add_argument("--only", nargs="+", default=None, metavar="NAME",
                           help="run only these experiments: "
                                + ", ".join(entry.name for entry in EXPERIMENTS)
                                + "; 'notebooks' renders the notebooks as HTML under "
                                  "results/notebooks/ (last, by default)")
    reproduce.add_argument("--out", default="results", help="output folder (default results)")
    reproduce.add_argument("--repository", default=".",
                           help="root of the source checkout whose notebooks/ are rendered "
                                "(default the current folder)")
    reproduce.add_argument("--seed", type=int, default=42, help="root seed (default 42)")
    reproduce.add_argument("--workers", type=int, default=-1,
                           help="worker processes (-1: all cores)")
    reproduce.add_argument("--scheduler", default=None, metavar="ADDRESS",
                           help="Dask scheduler address (default $DASK_SCHEDULER_ADDRESS): "
                                "every experiment sends its chunks to that cluster; its "
                                "stores stay here, in --out")
    reproduce.add_argument("--echo", action="store_true",
                           help="print each experiment's own report as it prints it, tables "
                                "and all (wider than 100 columns in places), instead of a "
                                "line per file written")
    reproduce.add_argument("--quiet", action="store_true",
                           help="print nothing on stdout (neither the files written nor "
                                "--echo's reports)")

    results = command("results", "the published summary tables, as this install has them",
                      "List the committed summary tables this copy of minestats carries (the "
                      "results/ of a checkout, or the tables a wheel ships) with the n, seed "
                      "and commit that made each; minestats.load_results(NAME) reads one.")
    results.add_argument("action", choices=["list"], help="list: one line per table")
    _output(results)

    analyse = command("analyse", "how safe each click of a played game was, from its replay",
                      "Read a replay (AVF, EVF, MVF or RMV, by ms_toollib: pip install "
                      "'minestats[replays]') and, for every click after the first, give the "
                      "position's exact mine probability of the clicked cell, whether a "
                      "certainly safe cell existed, whether the click was a guess or a "
                      "forced guess, and the move best would have made; then the game's "
                      "forced guesses, its luck (the product of its clicks' survival "
                      "chances) and, on a loss, whether it was forced. A folder gives one "
                      "row a game and a summary per board with intervals; each file that "
                      "cannot be read is one line on stderr (exit status 2). Files are "
                      "only read.")
    analyse.add_argument("replay", metavar="REPLAY_OR_FOLDER",
                         help="a replay file, or a folder of them (its sub-folders left out)")
    analyse.add_argument("--rule", default=None,
                         help=f"the rule that dealt the board, when known: {', '.join(RULES)} "
                              "(default: not given; every layout alike). Only winxp weighs "
                              "the layouts otherwise")
    analyse.add_argument("--seed", type=seed_argument, default=0,
                         help="seeds the tie-breaks of best's moves (default 0)")
    _exact_budget(analyse)
    _output(analyse).add_argument("--markdown", action="store_true",
                                  help="write a Markdown table to stdout")
    _html(analyse, "the game click by click (one replay file, not a folder)")

    warmup = command("warmup", "compile every kernel ahead, once per machine",
                     "Compile (or load from numba's disk cache) every compiled kernel, and "
                     "say for each group whether it compiled and how long it took. A first "
                     "run on a machine otherwise waits for the compiler; set "
                     "NUMBA_CACHE_DIR to keep the cache somewhere shared.")
    _quiet(warmup)
    return parser
