"""One function per ``minestats`` subcommand: call the library, print the answer."""

from __future__ import annotations

import contextlib
import errno
import itertools
import json
import os
import stat
import sys

import numpy as np
import pandas as pd

from minestats.cli.output import (
    emit_table,
    fit_text,
    format_count,
    format_fraction,
    json_records,
    print_grid,
    rate_table,
    read_board_file,
    read_text,
    workers_for,
)
from minestats.drivers.bbbv_histograms import bbbv_histogram
from minestats.drivers.comparisons import compare
from minestats.drivers.game_analysis import analyse_game, summarise_games
from minestats.drivers.no_guess import generate_no_guess
from minestats.drivers.opening_simulation import simulate_opening
from minestats.drivers.pass_rates import pass_rate, pass_rate_sweep
from minestats.drivers.warmup import cache_folder, warm_up_kernels
from minestats.drivers.win_rates import win_rate
from minestats.foundations.board import Board, resolve_board
from minestats.foundations.compiling import say_when_compiling
from minestats.foundations.seeds import resolve_seed
from minestats.foundations.validation import (
    DEFAULT_ALPHA,
    SearchBudgetExceeded,
    check_n,
    check_policy,
    check_rule_name,
    resolve_rule,
)
from minestats.inference import mine_probabilities, reconstruct
from minestats.inference.html import board_html, page
from minestats.io.boards import (
    check_mbf_size,
    format_text,
    parse_counts,
    parse_position,
    to_mbf,
)
from minestats.io.games import GameRecord, format_game, game_html, parse_game, replay
from minestats.io.replay_analysis import analyse_replays, analysis_html, describe
from minestats.io.replays import read_replay
from minestats.io.result_files import write_bytes
from minestats.io.tables import markdown_table
from minestats.mechanics.game import bbbv, neighbour_counts
from minestats.mechanics.opening_probabilities import opening_probability, opening_probability_map
from minestats.mechanics.sampling import chunk_games, chunk_layouts
from minestats.players import play
from minestats.reproduction.index import describe_result, results_by_script
from minestats.reproduction.published import published_results
from minestats.reproduction.registry import EXPERIMENTS
from minestats.reproduction.runner import NOTEBOOKS, reproduce
from minestats.runs.store import ChunkStore
from minestats.solvers import SolverOptions, solve

__all__ = ["CAPPED", "COMMANDS", "NO_SOLUTION"]

NO_SOLUTION = 1
"""Exit status of ``reconstruct`` when no layout fits the counts (an answer, not an error)."""
CAPPED = 3
"""Exit status of a command whose search gave up at its configuration cap."""

TEXT_FRACTION = 70
"""The longest exact fraction the default text output writes out (it fits 100 columns)."""

def _seed(args) -> int | str:
    """Return ``--seed``; without one, draw a seed and put it in ``args``.

    The drawn seed is an int, so ``--seed`` with it repeats the run; `main` says it
    on stderr once the command has succeeded (``--quiet`` keeps it off; every output
    records it anyway).
    """
    if args.seed is None:
        _, args.seed = resolve_seed(None)
        args.drawn_seed = True
    return args.seed


@contextlib.contextmanager
def _run_context(args):
    """Yield the keyword arguments shared by simulations: workers, store, progress."""
    if getattr(args, "n", None) is not None:
        check_n(args.n)
    if args.store is not None and getattr(args, "seed", None) is None:
        # an unseeded run draws fresh entropy, so its chunks never match a stored one
        raise ValueError("--store needs --seed: without a seed every run draws a new one "
                         "and never resumes from the store")
    _seed(args)
    chunk = {} if args.chunk_size is None else {"chunk_size": args.chunk_size}
    with workers_for(args) as workers, contextlib.ExitStack() as stack:
        store = None if args.store is None else stack.enter_context(ChunkStore(args.store))
        # A bar only on a terminal, unless asked for: a log file gets no \r frames.
        progress = False if args.quiet else True if args.progress else None
        yield {"workers": workers, "store": store, "progress": progress, **chunk}


def run_opening(args) -> None:
    board = resolve_board(args.board)
    click = board.resolve_click(args.click)
    exact = opening_probability(board, click, rule=args.rule)
    row = {"board": str(board), "rule": args.rule, "click_x": click[0], "click_y": click[1],
           "exact": float(exact), "exact_fraction": format_fraction(exact)}
    if args.n is not None:
        with _run_context(args) as options:
            row = simulate_opening(board, rule=args.rule, n=args.n, click=click,
                                   seed=args.seed, **options).to_dict() | {
                "exact_fraction": format_fraction(exact)}
    if args.csv or args.json:
        emit_table(pd.DataFrame([row]), args)
        return
    print(f"board {board}  rule {args.rule}  click {click}")
    print(f"exact  {float(exact):.6f}  ({format_fraction(exact, limit=TEXT_FRACTION)})")
    if args.n is not None:
        print(f"mc     {row['mc']:.6f}  95% Wilson [{row['ci_low']:.6f}, {row['ci_high']:.6f}]"
              f"  z {row['z']:+.2f}  n {row['n']}  seed {row['seed']}")


def run_opening_map(args) -> None:
    board = resolve_board(args.board)
    if args.n is None:
        grid = opening_probability_map(board, rule=args.rule)
        if args.csv or args.json:
            ys, xs = np.indices(board.shape)
            emit_table(pd.DataFrame({"board": str(board), "rule": args.rule,
                                     "click_x": xs.ravel(), "click_y": ys.ravel(),
                                     "exact": grid.ravel()}), args)
            return
        print_grid(f"exact opening probability, board {board}, rule {args.rule} (rows y, "
                   "columns x)", grid, ".4f", shades=grid)
        return
    with _run_context(args) as options:
        result = simulate_opening(board, rule=args.rule, n=args.n, seed=args.seed, **options)
    if args.csv or args.json:
        emit_table(result.per_click(), args)
        return
    print_grid(f"exact opening probability, board {board}, rule {args.rule}", result.exact,
               ".4f", shades=result.exact)
    print_grid(f"Monte Carlo z-scores, n {result.n} per click, seed {result.seed}",
               result.z_scores(), "+.1f")
    _print_holm(result)


def _print_holm(result) -> None:
    rejected = int(result.holm_reject(alpha=DEFAULT_ALPHA).sum())
    print(f"Holm at family-wise {DEFAULT_ALPHA:.0%}: {rejected} of {result.board.cells} "
          "positions disagree with the closed form")


def run_simulate(args) -> None:
    board = resolve_board(args.board)
    click = None if args.all_clicks else board.resolve_click(args.click)
    with _run_context(args) as options:
        result = simulate_opening(board, rule=args.rule, n=args.n, click=click, seed=args.seed,
                                  **options)
    frame = result.per_click()
    shown = rate_table(frame, "mc", keep=["exact"])
    shown["z"] = [f"{z:+.2f}" for z in frame["z"]]
    emit_table(frame, args, text=shown,
               title=f"n {result.n} per click, 95% Wilson intervals, seed {result.seed}")
    if click is None and not (args.csv or args.json):
        _print_holm(result)


def _layout_to_solve(args) -> tuple[np.ndarray, int | str | None]:
    """Return the layout to solve and the label of the seed that drew it (None: a file)."""
    if (args.file is None) == (args.board is None):
        raise ValueError("give either --file or --board (with --rule and --seed)")
    if args.file is not None:
        return read_board_file(args.file), None
    seed_sequence, label = resolve_seed(_seed(args))  # the first board of a pass_rate chunk
    board = resolve_board(args.board)
    return chunk_layouts(board, 1, seed_sequence, rule=args.rule,
                         click=board.resolve_click(args.click))[0], label


def _player_view(mines: np.ndarray, revealed, flagged) -> np.ndarray:
    """Show a game as the player sees it: numbers, F flags, # hidden cells (masks any shape)."""
    numbers = neighbour_counts(mines)
    revealed, flagged = np.reshape(revealed, mines.shape), np.reshape(flagged, mines.shape)
    view = np.where(revealed, numbers.astype(str), "#")
    view = np.where(revealed & (numbers == 0), ".", view)
    view = np.where(revealed & mines, "*", view)
    return np.where(flagged, "F", view)


def run_solve(args) -> None:
    mines, seed = _layout_to_solve(args)
    result = solve(mines, args.click, solver=args.solver, use_mine_count=args.use_mine_count,
                   max_configurations=args.max_configurations)
    row = result.to_dict()
    if seed is not None:
        row |= {"rule": args.rule, "seed": seed}
    if args.csv or args.json:
        emit_table(pd.DataFrame([row]), args)
        return
    outcome = ("lost: the first click hit a mine" if result.lost else "solved" if result.solved
               else "capped: gave up at the configuration cap" if result.capped
               else "stuck: needs a guess")
    drawn = "" if seed is None else f"  rule {args.rule}  seed {seed}"
    print(f"board {result.board}{drawn}  click {result.click}  solver {args.solver}  {outcome}")
    print(f"rounds {result.rounds}  open {row['revealed_cells']}  flagged "
          f"{row['flagged_cells']}")
    print_grid("final view (# hidden, F flag, . empty):",
               _player_view(mines, result.revealed, result.flagged), "s")


def run_pass_rate(args) -> None:
    with _run_context(args) as options:
        result = pass_rate(args.board, solver=args.solver, rule=args.rule, click=args.click,
                           n=args.n, seed=args.seed, use_mine_count=args.use_mine_count,
                           max_configurations=args.max_configurations, **options)
    frame = result.to_frame()
    emit_table(frame, args, text=rate_table(frame, "pass_rate", keep=["solver"]),
               title=f"pass rate with 95% Wilson interval, n {result.n}, seed {result.seed}")


NO_MINE_COUNT = ":no-mine-count"
"""Suffix of a ``--solvers`` name that solves without the total mine count."""


def _solver_contender(name: str) -> SolverOptions:
    """Read one ``--solvers`` entry: a solver name, optionally with `NO_MINE_COUNT`."""
    solver, colon, suffix = name.partition(":")
    if colon and colon + suffix != NO_MINE_COUNT:
        raise ValueError(f"solver ({name!r}) must be a solver name, optionally followed by "
                         f"{NO_MINE_COUNT!r}")
    return SolverOptions(solver, use_mine_count=not colon)


def run_compare(args) -> None:
    solvers = None if args.solvers is None else [_solver_contender(name)
                                                 for name in args.solvers]
    with _run_context(args) as options:
        result = compare(args.board, solvers=solvers, policies=args.policies, rule=args.rule,
                         click=args.click, n=args.n, seed=args.seed, **options)
    pairs = result.per_pair(adjacent=args.adjacent)
    if args.csv or args.json:
        emit_table(pairs, args)
        return
    rates = result.per_contender()
    emit_table(rates, args, text=rate_table(rates, "rate", keep=["contender"]),
               title=f"all contenders on the same {result.n:,} boards, 95% Wilson, seed "
                     f"{result.seed}")
    # the discordant boards, which McNemar's test reads; both and neither are in --csv
    shown = pairs[["first", "second", "first_only", "second_only"]].rename(
        columns={"first_only": "only 1st", "second_only": "only 2nd"})
    shown["difference"] = [f"{d:+.4f}" for d in pairs["difference"]]
    shown["95% interval"] = [f"[{low:+.4f}, {high:+.4f}]" for low, high in zip(
        pairs["difference_ci_low"], pairs["difference_ci_high"], strict=True)]
    shown["width"] = [f"{ratio:.2f}" for ratio in pairs["width_ratio"]]
    shown["McNemar p"] = [f"{p:.3g}" for p in pairs["mcnemar_p"]]
    print()
    emit_table(pairs, args, text=shown,
               title="first minus second, 95% Newcombe paired interval, its width against the "
                     "unpaired one, McNemar p")


def run_sweep(args) -> None:
    grid = [{"board": board, "rule": rule, "click": click, "solver": solver,
             "use_mine_count": args.use_mine_count}
            for board, rule, click, solver in itertools.product(
                args.boards, args.rules, args.clicks, args.solvers)]
    with _run_context(args) as options:
        table = pass_rate_sweep(grid, n=args.n, seed=args.seed, **options)
    shown = rate_table(table, "pass_rate", keep=["solver"])
    shown.insert(0, "row", range(len(shown)))
    emit_table(table, args, text=shown,
               title=f"pass rates, 95% Wilson, n {args.n} per row; row i: "
                     f"seed {args.seed}/i")


def _write_out(path: str, data: bytes) -> None:
    """Write ``--out`` atomically (through a device or FIFO); a failure is one line."""
    try:
        write_bytes(path, data)
    except OSError as error:
        raise ValueError(f"cannot write {path!r}: {error.strerror}") from None


def _check_out(path: str | None) -> None:
    """Refuse an ``--out`` that cannot be a file here, before computing.

    A folder, a path under a file, and a name longer than its file system allows are
    refused in one line. The write itself (`_write_out`) still reports whatever else goes
    wrong; this check only spares the user a game or a board that could never be saved.
    """
    if path is None:
        return
    if os.path.isdir(path):
        raise ValueError(f"cannot write {path!r}: {os.strerror(errno.EISDIR)}")
    # the nearest folder on the way that exists must be a folder: missing ones are made
    full = os.path.abspath(path)
    parent = os.path.dirname(full)
    while not os.path.lexists(parent):
        parent = os.path.dirname(parent)
    if not os.path.isdir(parent):
        raise ValueError(f"cannot write {path!r}: {os.strerror(errno.ENOTDIR)}")
    try:
        longest = os.pathconf(parent, "PC_NAME_MAX")
    except (OSError, ValueError):
        longest = 255
    names = os.path.relpath(full, parent).split(os.sep)
    if any(len(os.fsencode(name)) > longest for name in names):
        raise ValueError(f"cannot write {path!r}: {os.strerror(errno.ENAMETOOLONG)}")


def _check_html(path: str | None) -> None:
    """Refuse an ``--html`` that is not a regular file or a new name, before computing.

    A page replaces its file whole (`_write_html`), so a folder, a symbolic link, a
    device, a FIFO or a socket is refused in one line, and nothing is written.
    """
    if path is None:
        return
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as error:
        raise ValueError(f"cannot write {path!r}: {error.strerror}") from None
    if mode is not None and stat.S_ISLNK(mode):
        raise ValueError(f"cannot write {path!r}: it is a symbolic link; name the file itself")
    if mode is not None and not stat.S_ISDIR(mode) and not stat.S_ISREG(mode):
        raise ValueError(f"cannot write {path!r}: it is not a regular file (a device, a FIFO "
                         "or a socket)")
    _check_out(path)


def _write_html(path: str, text: str) -> None:
    """Write a page to ``--html`` atomically: a temporary file, then a rename over it.

    The page is written by `minestats.io.result_files.write_bytes` (a temporary file in
    the same folder, then `os.replace`), so a new file gets the mode the umask leaves
    and a file replaced keeps its own.
    """
    _check_html(path)  # again: it must still be a regular file or a new name
    _write_out(path, text.encode())


def run_generate(args) -> None:
    options = {name: value for name, value in (("max_tries", args.max_tries),
                                               ("timeout", args.timeout)) if value is not None}
    _check_out(args.out)
    binary = args.out is not None and (args.format == "mbf" or (
        args.format is None and args.out.lower().endswith(".mbf")))
    if binary:
        board = resolve_board(args.board)
        check_mbf_size(board.width, board.height)
    result = generate_no_guess(args.board, args.click, method=args.method, solver=args.solver,
                               rule=args.rule, seed=_seed(args), **options)
    row = result.to_dict()
    if not result.ok:
        raise ValueError(f"no verified board within the limits: {row['tries']} tries, "
                         f"{row['seconds']:.1f} s (seed {result.seed})")
    if args.out is not None:
        # encoded first, then written atomically: a failed command leaves an existing
        # file as it was
        _write_out(args.out, to_mbf(result.layout) if binary
                   else (format_text(result.layout) + "\n").encode())
    if args.csv or args.json:
        emit_table(pd.DataFrame([row]), args)
        return
    if args.out is None:
        print(format_text(result.layout))
    if not args.quiet:
        print(f"no-guess board {result.board}, {args.method}, seed {result.seed}: "
              f"{result.tries} tries, {result.perturbations} perturbations, "
              f"{result.seconds:.2f} s", file=sys.stderr)


def run_bbbv(args) -> None:
    if args.file is not None:
        given = [flag for flag, value in (("--board", args.board), ("-n", args.n),
                                          ("--seed", args.seed), ("--store", args.store),
                                          ("--between", args.between)) if value is not None]
        if given:
            raise ValueError(f"--file cannot be combined with {', '.join(given)}: give "
                             "either --file or --board with -n")
        emit_table(pd.DataFrame([{"file": args.file, "bbbv": bbbv(read_board_file(args.file))}]),
                   args)
        return
    if args.board is None or args.n is None:
        raise ValueError("give --file, or --board with -n")
    if args.between is not None and args.between[0] > args.between[1]:
        raise ValueError(f"--between {args.between[0]} {args.between[1]}: LOW must be at "
                         "most HIGH")
    with _run_context(args) as options:
        histogram = bbbv_histogram(args.board, rule=args.rule, click=args.click, n=args.n,
                                   seed=args.seed, **options)
    summary = histogram.to_dict()
    if args.between is not None:
        # the share's n and seed are the summary's: one column each
        summary |= histogram.share(*args.between).to_dict()
    frame = pd.DataFrame([summary])
    shown = frame[["board", "rule", "n"]].copy()
    shown["mean"], shown["sd"] = f"{summary['mean']:.2f}", f"{summary['sd']:.2f}"
    quantiles = [column for column in frame if column[0] == "q" and column[1:].isdigit()]
    shown[[*quantiles, "min", "max"]] = frame[[*quantiles, "min", "max"]]
    title = f"3BV over n {histogram.n} boards, seed {histogram.seed}"
    if args.between is not None:
        low, high = args.between
        shown[f"share {low}..{high}"] = (f"{summary['share']:.4f} [{summary['ci_low']:.4f}, "
                                         f"{summary['ci_high']:.4f}]")
        title += ", 95% Wilson interval"
    emit_table(frame, args, text=shown, title=title)


def run_reconstruct(args) -> int:
    name, text = read_text(args.file)
    try:
        counts = parse_counts(text)
    except ValueError as error:
        raise ValueError(f"{name}: {error}") from None
    try:
        result = reconstruct(counts, max_configurations=args.max_configurations)
    except SearchBudgetExceeded as capped:
        print(f"minestats reconstruct: capped: {name}: {capped} (raise "
              "--max-configurations to search further)", file=sys.stderr)
        return CAPPED
    if result.n_solutions == 0:
        print("no layout fits these counts (solutions: 0)")
        return NO_SOLUTION
    print(result.to_text())
    print(f"solutions: {format_count(result.n_solutions, grouped=False)}, "
          f"unique: {'yes' if result.unique else 'no'}")
    return 0


def run_probabilities(args) -> int | None:
    _check_html(args.html)
    name, text = read_text(args.file)
    try:
        numbers, flags = parse_position(text)
    except ValueError as error:
        raise ValueError(f"{name}: {error}") from None
    try:
        # Counted exactly even for floats: the command prints the layout count, and
        # its floats are the exact fractions rounded once (0.2, not 0.19999999999999998).
        result = mine_probabilities(numbers, flags=flags, mines=args.mines, exact=True,
                                    max_configurations=args.max_configurations,
                                    rule=args.rule, click=args.click)
    except SearchBudgetExceeded as capped:
        print(f"minestats probabilities: capped: {name}: {capped} (raise "
              "--max-configurations to search further)", file=sys.stderr)
        return CAPPED
    mines = "not given" if args.mines is None else args.mines
    dealt = "" if args.rule is None else f"rule: {args.rule} from {args.click}; "
    about = f"{dealt}mines: {mines}; layouts that fit: {format_count(result.n_solutions)}"
    if args.html is not None:
        _write_html(args.html, page(board_html(numbers, result.probability, flags=flags,
                                               caption=f"{name}: {about}"),
                                    title=f"{name}: mine probabilities"))
    title = f"mine probability of each unknown cell ({about}; '.' open)"
    unknown = ~np.isnan(result.probability)
    shades = np.where(flags, np.nan, result.probability)
    if args.csv or args.json:
        ys, xs = np.nonzero(unknown)
        table = pd.DataFrame({"x": xs, "y": ys, "flag": flags[ys, xs],
                              "probability": result.probability[ys, xs]})
        if args.exact:
            table["fraction"] = [format_fraction(value) for value in result.fractions[ys, xs]]
        emit_table(table, args)
        return
    if args.exact:
        grid = np.full(result.fractions.shape, ".", dtype=object)
        grid[unknown] = [format_fraction(value) for value in result.fractions[unknown]]
        grid[flags] = "F"
        print_grid(f"{title}, exact:", grid.astype(str), "s", shades=shades)
        return
    grid = np.where(np.isnan(result.probability), "    .",
                    np.char.mod("%5.3f", np.nan_to_num(result.probability)))
    # a probability that rounds to 0 or 1 but is neither must not look certain
    probability = np.nan_to_num(result.probability, nan=0.0)
    grid[(probability > 0) & (probability < 0.0005)] = "<.001"
    grid[(probability < 1) & (probability > 0.9995)] = ">.999"
    grid[flags] = "    F"
    print_grid(f"{title}:", grid, "s", shades=shades)


def _print_game(record: GameRecord, steps, *, each: bool) -> None:
    """Print a replayed game: its outcome, each guess (``each``: the board before it), the end.

    ``steps`` is `replay`'s, so every guess is checked before a line is printed.
    """
    guesses = len(record.moves)
    print(f"{'won' if record.won else 'lost'} with {guesses} guess"
          f"{'' if guesses == 1 else 'es'} from click {record.click} (policy {record.policy}, "
          f"seed {record.seed})")
    for number, step in enumerate(steps, start=1):
        view = _player_view(record.mines, step.revealed, step.flagged)
        move = step.move
        if move is None:
            print_grid("final view (# hidden, F flag, . empty, * mine):", view, "s")
            return
        if each:
            view[move.y, move.x] = "@"
            print_grid(f"before guess {number} (# hidden, F flag, . empty, @ the guess):", view,
                       "s", marked=(move.x, move.y))
        print(f"  guess {number}: ({move.x}, {move.y}), mine probability "
              f"{move.mine_probability:.4f} ({move.kind})")


def _write_game_html(path: str, record: GameRecord, steps, name: str) -> int | None:
    """Write a game's page to ``--html`` (`game_html`); CAPPED if a position passed the budget."""
    try:
        fragment = game_html(record, steps=steps)
    except SearchBudgetExceeded as capped:
        print(f"minestats play: capped: {name}: {capped}", file=sys.stderr)
        return CAPPED
    _write_html(path, page(fragment, title=f"{name}: a game of minestats"))
    return None


def run_play(args) -> int | None:
    check_policy(args.policy)
    if args.replay is not None:
        given = [flag for flag, value in (("--board", args.board), ("--file", args.file),
                                          ("--seed", args.seed), ("--out", args.out))
                 if value is not None]
        if given:
            raise ValueError(f"--replay cannot be combined with {', '.join(given)}: the game "
                             "file holds the layout, the click and the guesses")
        _check_html(args.html)
        name, text = read_text(args.replay)
        try:
            record = parse_game(text)
            steps = replay(record)
        except ValueError as error:
            raise ValueError(f"{name}: {error}") from None
        if args.html is not None and _write_game_html(args.html, record, steps, name):
            return CAPPED
        _print_game(record, steps, each=True)
        return None
    if (args.file is None) == (args.board is None):
        raise ValueError("give either --file or --board (with --rule and --seed), or --replay")
    _check_out(args.out)
    _check_html(args.html)
    sequence, label = resolve_seed(_seed(args))
    if args.file is not None:  # the seed is the one game's tie-breaks
        mines, game_seed = read_board_file(args.file), sequence
    else:  # the first game of a win_rate chunk with this seed
        board = resolve_board(args.board)
        layouts, game_seeds = chunk_games(board, 1, sequence, rule=args.rule,
                                          click=board.resolve_click(args.click))
        mines, game_seed = layouts[0], game_seeds[0]
    result = play(mines, args.click, policy=args.policy, seed=game_seed, rule=args.rule)
    record = GameRecord(mines, Board(*mines.shape[::-1], int(mines.sum())).resolve_click(
        args.click), result.moves, args.policy, label, result.won, args.rule)
    if args.out is not None:
        _write_out(args.out, format_game(record))
    steps = replay(record)
    if args.html is not None and _write_game_html(args.html, record, steps,
                                                  f"minestats play, seed {label}"):
        return CAPPED
    cells = [[m.x, m.y] for m in result.moves]
    chances = [m.mine_probability for m in result.moves]
    kinds = [m.kind for m in result.moves]
    if args.csv:  # a CSV field holds no list: each list as one field, joined by spaces
        cells = " ".join(f"{x},{y}" for x, y in cells)
        chances = " ".join(f"{chance:.17g}" for chance in chances)
        kinds = " ".join(kinds)
    if args.csv or args.json:
        emit_table(pd.DataFrame([{"won": result.won, "guesses": result.guesses,
                                  "opened": result.opened, "policy": args.policy,
                                  "seed": label, "guess_cells": cells,
                                  "guess_mine_probabilities": chances, "guess_kinds": kinds}]),
                   args)
        return None
    _print_game(record, steps, each=False)
    return None


def run_win_rate(args) -> None:
    with _run_context(args) as options:
        result = win_rate(args.board, rule=args.rule, click=args.click, policy=args.policy,
                          n=args.n, seed=args.seed, **options)
    frame = result.to_frame()
    emit_table(frame, args, text=rate_table(frame, "win_rate",
                                            keep=["policy", "guesses_per_game"]),
               title=f"win rate with 95% Wilson interval, n {result.n}, seed {result.seed}")


def _files_written(out, names) -> list[str]:
    """Return a line per table and figure the named experiments wrote: twins, n, seed, git."""
    groups = results_by_script(out)
    lines = []
    for name in names:
        script = "notebooks/" if name == NOTEBOOKS else f"minestats/experiments/{name}.py"
        for file, meta, twins in groups.get(script, []):
            suffixes = "".join(f", {os.path.splitext(twin)[1]}" for twin in twins)
            lines.append(f"{name}: {file}{suffixes}: {describe_result(meta)}")
    return lines


def run_reproduce(args) -> None:
    scheduler = args.scheduler or os.environ.get("DASK_SCHEDULER_ADDRESS") or None
    index = reproduce(args.only, repository=args.repository, out=args.out, seed=args.seed,
                      workers=args.workers, full=args.full,
                      quiet=args.quiet or not args.echo, scheduler=scheduler)
    if not (args.quiet or args.echo):
        names = args.only or [entry.name for entry in EXPERIMENTS] + [NOTEBOOKS]
        print(fit_text("\n".join(_files_written(index.parent, names))))
    print(f"== index of every table and figure: {index}", file=sys.stderr)


def _n_in_words(n) -> str:
    """One table's n in a few words: ``1,000,000``, ``100,000-1,000,000 (5 parts)``.

    Examples
    --------
    >>> _n_in_words(2000), _n_in_words({"a": 10, "b": 1000}), _n_in_words(None)
    ('2,000', '10-1,000 (2 parts)', 'nothing sampled')
    """
    if n is None:
        return "nothing sampled"
    if not isinstance(n, dict):
        return format_count(n) if isinstance(n, int) else str(n)
    counts = [value for value in n.values() if isinstance(value, int)]
    if len(counts) < len(n):
        return f"{len(n)} parts (see its attrs)"
    low, high = min(counts), max(counts)
    spread = format_count(low) if low == high else f"{format_count(low)}-{format_count(high)}"
    return f"{spread} ({len(n)} parts)"


def run_results(args) -> None:
    listing = published_results()
    text = pd.DataFrame({
        "name": listing["name"], "n": listing["n"].map(_n_in_words),
        "seed": listing["seed"].map(lambda seed: "none of its own" if seed is None else seed),
        "commit": listing["commit"].map(lambda sha: sha[:7] if sha else "not recorded")})
    emit_table(listing, args, text=text,
               title=f"{len(listing)} published tables; minestats.load_results(NAME) reads one")


def _yes(flag) -> str:
    return "yes" if flag else "no"


def _chance(value) -> str:
    """Write a probability in four decimals, a chord's risk not computed (NaN) ``n/a``."""
    return "n/a" if value != value else f"{value:.4f}"


SHORT_KINDS = {"fifty-fifty": "50/50", "pseudo-fifty-fifty": "pseudo-50/50",
               "endgame": "end game"}
"""The kinds of ``best``'s moves as the text output writes them, to keep 100 columns."""


def _click_text(clicks: pd.DataFrame) -> pd.DataFrame:
    """Return the per-click columns a person reads (within `TEXT_COLUMNS` on Expert)."""
    return pd.DataFrame({
        "move": clicks["number"], "time s": clicks["seconds"].map("{:.2f}".format),
        "click": clicks["kind"],
        "cell": [f"({x}, {y})" for x, y in zip(clicks["x"], clicks["y"], strict=True)],
        "P(mine)": clicks["mine_probability"].map(_chance),
        "safe existed": clicks["safe_existed"].map(_yes),
        "guess": clicks["guess"].map(_yes), "forced": clicks["forced"].map(_yes),
        "best": [f"({x}, {y})" for x, y in zip(clicks["best_x"], clicks["best_y"],
                                                strict=True)],
        "best P(mine)": clicks["best_probability"].map(_chance),
        "best's kind": [SHORT_KINDS.get(kind, kind) for kind in clicks["best_kind"]]})


def _game_text(name: str, analysis, args) -> None:
    """Print one game: its file and setting, a line per click, then its verdict."""
    header, *verdict = describe(analysis)
    print(fit_text(f"{name}\n{header}"))
    clicks = analysis.per_click()
    if len(clicks):
        emit_table(clicks, args, text=_click_text(clicks))
    print(fit_text("\n".join(verdict)))
    if analysis.rule is not None and resolve_rule(analysis.rule).relocates:
        print(f"rule {analysis.rule}: the probabilities and best's moves weigh each layout as "
              "the rule deals it, its mine under the click relocated")


def _analyse_file(args) -> int | None:
    game = read_replay(args.replay)
    try:
        analysis = analyse_game(game, rule=args.rule, seed=args.seed,
                                positions=args.html is not None,
                                max_configurations=args.max_configurations)
    except SearchBudgetExceeded as capped:
        print(f"minestats analyse: capped: {args.replay}: {capped} (raise "
              "--max-configurations to search further)", file=sys.stderr)
        return CAPPED
    except ValueError as error:
        raise ValueError(f"{args.replay}: {error}") from None
    if args.html is not None:
        _write_html(args.html, page(analysis_html(game, analysis),
                                    title=f"{args.replay}: a game, click by click"))
    clicks = analysis.per_click()
    if args.json:
        print(json.dumps({"file": args.replay, "game": json_records(analysis.to_frame())[0],
                          "clicks": json_records(clicks)}, indent=2, allow_nan=False))
    elif args.csv:
        clicks.to_csv(sys.stdout, index=False)
    elif args.markdown:
        print(markdown_table(_click_text(clicks)), end="")
    else:
        _game_text(args.replay, analysis, args)
    return None


def _summary_text(summary: pd.DataFrame) -> pd.DataFrame:
    """Return the per-board summary a person reads: shares and means, with intervals."""
    level = summary["confidence_level"].iloc[0]

    def interval(value, low, high, fmt):
        return "-" if value != value else (
            f"{value:{fmt}}" if low != low else f"{value:{fmt}} [{low:{fmt}}, {high:{fmt}}]")

    return pd.DataFrame({
        "board": summary["board"], "games": summary["games"], "won": summary["won"],
        "lost": summary["lost"], "forced losses": summary["forced_losses"],
        f"share forced [{level:.0%}]": [interval(*row, ".3f") for row in zip(
            summary["forced_loss_share"], summary["ci_low"], summary["ci_high"], strict=True)],
        f"guesses/game [{level:.0%}]": [interval(*row, ".2f") for row in zip(
            summary["guesses_per_game"], summary["guesses_ci_low"],
            summary["guesses_ci_high"], strict=True)],
        "forced/game": summary["forced_guesses_per_game"].map("{:.2f}".format),
        "median luck": summary["median_luck"].map("{:.4g}".format)})


def _analyse_folder(args) -> int | None:
    if args.html is not None:
        raise ValueError(f"--html draws one game: {args.replay!r} is a folder; give one of "
                         "its replay files")
    games, rows, bad = [], [], 0
    for name, answer in analyse_replays(args.replay, rule=args.rule, seed=args.seed):
        if isinstance(answer, str):
            print(f"minestats analyse: {answer}", file=sys.stderr)
            bad += 1
            continue
        games.append(answer)
        rows.append({"file": os.path.basename(name)} | answer.to_dict())
    table = pd.DataFrame(rows)
    summary = summarise_games(games) if games else pd.DataFrame()
    if args.json:
        print(json.dumps({"folder": args.replay, "games": json_records(table),
                          "summary": json_records(summary), "unread": bad},
                         indent=2, allow_nan=False))
    elif games and args.csv:
        table.to_csv(sys.stdout, index=False)
    elif games:
        shown = pd.DataFrame({
            "file": table["file"], "board": table["board"], "result": table["outcome"],
            "clicks": table["clicks"], "guesses": table["guesses"],
            "forced": table["forced_guesses"], "luck": table["luck"].map("{:.4g}".format),
            "loss forced": table["loss_forced"].map(
                lambda forced: "-" if forced is None else _yes(forced))})
        title = f"{len(games)} game{'' if len(games) == 1 else 's'} of {args.replay}"
        about = ("per board: losses that were forced, guesses per game (Wilson and Student "
                 "intervals)")
        if args.markdown:
            print(f"{title}\n\n{markdown_table(shown)}\n{about}\n\n"
                  f"{markdown_table(_summary_text(summary))}", end="")
        else:
            emit_table(table, args, text=shown, title=f"{title}, one row a game")
            print()
            emit_table(summary, args, text=_summary_text(summary), title=about)
    return 2 if bad else None  # each bad file said why on stderr


def run_analyse(args) -> int | None:
    if args.rule is not None:
        check_rule_name(args.rule)
    _check_html(args.html)
    return (_analyse_folder if os.path.isdir(args.replay) else _analyse_file)(args)


def run_warmup(args) -> None:
    say_when_compiling(False)  # each group says it below

    def report(warmed):
        done = (f"{warmed.compiled} kernels compiled" if warmed.compiled
                else "loaded from the cache")
        print(f"{warmed.group}: {done} in {warmed.seconds:.1f} s", flush=True)

    warm_up_kernels(report=report)
    print(f"numba's cache: {cache_folder()}")

COMMANDS = {
    "opening": run_opening, "opening-map": run_opening_map, "simulate": run_simulate,
    "solve": run_solve, "pass-rate": run_pass_rate, "sweep": run_sweep,
    "generate": run_generate, "bbbv": run_bbbv, "reconstruct": run_reconstruct,
    "probabilities": run_probabilities, "play": run_play, "win-rate": run_win_rate,
    "compare": run_compare,
    "analyse": run_analyse, "reproduce": run_reproduce, "results": run_results,
    "warmup": run_warmup,
}
