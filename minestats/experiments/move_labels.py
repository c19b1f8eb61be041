"""The value of `best`'s guesses and of the cells it passed over, by rollouts, in pieces.

Plays ``best`` on Expert (30x16/99, safe first click at the corner) on the
experiment's own development stream and, at every guess it makes by its heuristic
(a frontier or off-frontier cell; not an unavoidable 50/50, a pseudo-50/50 or an
exact end-game move), values its pick and up to five other cells: the three safest
other frontier cells and the two safest cells off the frontier (fewer of one kind
leave room for more of the other; ties in an order shuffled by the piece's seed).
Each candidate is opened on the same ``--layouts`` layouts drawn exactly from the
position's posterior and ``best`` plays on (`minestats.players.values.rollouts`,
common tie-break seeds), so the candidates are compared paired.

The decisions are labels for a player that learns what `best`'s score misses
(issue "Beyond Hill"). They cost about 3.6 s of one core each, so they are made in
pieces of ``--games`` games, each piece a file of its own, committed as data:
``<data>/piece-NNNNN.csv`` with its sidecar (seed, commit, sizes). A piece already
written with the same settings is skipped, so the run adds up across sessions and
machines: ``--pieces 0:40`` labels pieces 0 to 39, piece k drawing from child k of
the stream. The pieces are independent, so ``--workers`` (or ``--scheduler``) runs
them side by side.

Every run then summarises all the pieces found (``<out>/move_labels.csv``): per kind
of decision, the decisions labelled, the pick's mean value, and the room a player
that chose by the labels would have: on each decision the candidate of best value on
one half of the layouts is scored on the other half against the pick (and the
halves swapped), which is free of the selection bias of taking the best of noisy
values; its mean over decisions carries a t interval; and the alternatives' mean gap to
the pick with the spread of their true gaps (`gap_spread`). And the offline gate
(``<out>/move_labels_gate.csv``, `offline_gate`): rules that would replace the pick,
scored on the labels without looking at the values they are scored on, the gate a
change passes before it is played on games.

Usage: ``python -m minestats.experiments.move_labels [--pieces A:B] [--games G] [--layouts L]
[--data data/move_labels]``
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pandas as pd

from minestats.experiments.common import base_parser, worker_pool
from minestats.foundations.board import Board
from minestats.foundations.seeds import as_seed_sequence, seed_label
from minestats.foundations.validation import DEFAULT_MAX_CONFIGURATIONS
from minestats.frontier.engine import Analysis, analyse
from minestats.frontier.posterior import draw_layouts
from minestats.frontier.variations import variation_basis
from minestats.io.result_files import collect_metadata, sidecar_path, write_csv
from minestats.mechanics.game import neighbour_table
from minestats.mechanics.sampling import sample_mines
from minestats.players.chooser import BEST, FRONTIER, OFF_FRONTIER
from minestats.players.fifty_fifty import fifty_fifty_outlook, tile_influence
from minestats.players.picks import unknown_neighbours
from minestats.players.player import _position_memo, check_strategy, play_games, tie_seed
from minestats.players.scoring import Position, outlook
from minestats.players.values import guess_positions, rollouts
from minestats.runs.cluster import is_dask_client
from minestats.stats import (
    effect_spread,
    group_folds,
    least_squares_switch_gains,
    mean_interval,
    paired_gap,
    split_half_gain,
)

EXPERT = Board(30, 16, 99)
DATA = Path(__file__).resolve().parents[2] / "data" / "move_labels"
"""The committed pieces, in the checkout this module belongs to (from a wheel, name the
folder with ``--data``)."""
RULE, CLICK = "safe-click", (0, 0)
FRONTIER_OTHERS, OFF_FRONTIER_OTHERS = 3, 2
"""Other candidates of each decision: the safest frontier cells and off-frontier cells."""
KIND_NAMES = {FRONTIER: "frontier", OFF_FRONTIER: "off-frontier"}
COLUMNS = ["piece", "game", "guess", "kind", "cell", "x", "y", "pick", "p_mine",
           "on_frontier", "wins_a", "wins_b", "n", "only_this", "only_pick"]
"""One row a candidate: ``wins_a`` and ``wins_b`` count its wins on each half of the
layouts; ``only_this`` the layouts it won and the pick lost, ``only_pick`` the reverse."""


def _on_frontier(cells, table, revealed, numbers):
    """Whether each cell touches a revealed number."""
    found = []
    for cell in cells:
        row = table[cell][table[cell] >= 0]
        found.append(bool((revealed[row] & (numbers[row] > 0)).any()))
    return np.array(found, dtype=bool)


def candidates(pick, probability, revealed, flagged, numbers, table, rng):
    """Return the pick, then the safest other frontier and off-frontier cells."""
    others = np.flatnonzero(~revealed & ~flagged)
    others = others[others != pick]
    others = others[rng.permutation(others.size)]
    others = others[np.argsort(probability[others], kind="stable")]
    frontier = _on_frontier(others, table, revealed, numbers)
    near, far = others[frontier], others[~frontier]
    wanted = FRONTIER_OTHERS + OFF_FRONTIER_OTHERS
    take_far = min(far.size, max(OFF_FRONTIER_OTHERS, wanted - near.size))
    chosen = [*near[:wanted - take_far].tolist(), *far[:take_far].tolist()]
    return np.array([pick, *chosen], dtype=np.int64)


class Stall(NamedTuple):
    """A heuristic decision of a labelled game, as `best` saw it."""

    game: int
    guess: int
    kind: int
    pick: int
    revealed: np.ndarray
    flagged: np.ndarray
    shown: np.ndarray
    analysis: Analysis
    layout: np.ndarray


def stalls(piece: int, *, seed: str, games: int):
    """Play piece ``piece``'s games with ``best``; yield each heuristic decision's `Stall`.

    The games are those of `label_piece` (the deal and tie-break seeds of child
    ``piece`` of ``seed``), so their decisions are the labelled ones.
    """
    deal_seed, tie_seeds, _ = as_seed_sequence(f"{seed}/{piece}").spawn(3)
    width, mines = EXPERT.width, EXPERT.mines
    dealt = sample_mines(EXPERT, games, rule=RULE, click=CLICK, seed=deal_seed)
    click = CLICK[0] + CLICK[1] * width
    played = play_games(dealt, [click] * games, policy="best", seeds=tie_seeds.spawn(games))
    table = neighbour_table(width, EXPERT.height)
    for game, guess, revealed, flagged, numbers in guess_positions(dealt, click, played):
        kind = int(played.kinds[game, guess])
        if kind not in KIND_NAMES:
            continue
        shown = np.where(revealed, numbers, 0).astype(np.int8)
        analysis = analyse(shown, table, revealed, flagged, width, mines,
                           budget=DEFAULT_MAX_CONFIGURATIONS)
        yield Stall(game, guess, kind, int(played.moves[game, guess]), revealed, flagged,
                    shown, analysis, dealt[game].ravel())


KERNEL_FEATURES = ["safety", "survive", "progress", "fifty_fifty", "score", "dead", "crowd"]
"""What ``best``'s kernel knows of a cell at a stall (`kernel_features`)."""


def kernel_features(stall: Stall, cells, settings) -> pd.DataFrame:
    """Return what ``best``'s kernel computes of each of ``cells`` at ``stall``, unpruned.

    For each cell: its ``safety`` (1 - P(mine)); ``survive``, the safety of the next
    move after opening it, blended over the numbers it may show, and ``progress``, the
    chance its number proves a cell safe (`minestats.players.scoring.outlook`, never
    pruned here); ``fifty_fifty``, its 50/50 tally
    (`minestats.players.fifty_fifty.tile_influence`); ``score``, the kernel's ranking
    key ``survive`` x (1 + weight x tally / safety); ``dead``, whether it can show
    only one number; and ``crowd``, its unknown neighbours. The kernel computes these
    for its own candidates only; here every labelled cell gets them.
    """
    width, mines = EXPERT.width, EXPERT.mines
    table = neighbour_table(width, EXPERT.height)
    shown, revealed, flagged = stall.shown, stall.revealed, stall.flagged
    probability, log_total = stall.analysis.probability, stall.analysis.log_solutions
    budget = settings.fast_budget
    basis = variation_basis(shown, table, revealed, flagged, width, mines, budget)
    _, _, enablers = fifty_fifty_outlook(basis, table, revealed, flagged, width, probability,
                                         log_total, budget)
    position = Position(shown, table, revealed, flagged, width, mines)
    no_relocation, untracked = np.empty(0, dtype=np.int64), np.empty(0, dtype=np.bool_)
    rows = []
    for cell in cells:
        safety = 1.0 - float(probability[cell])
        tally = tile_influence(cell, basis, revealed, flagged, width, probability, log_total,
                               budget, enablers, 3)
        factor = 1 + settings.fifty_fifty_weight * tally / safety
        survive, progress, dead, _ = outlook(position, cell, log_total, settings,
                                             no_relocation, basis, untracked, safety, factor,
                                             settings.progress_weight, -np.inf)
        rows.append({"cell": int(cell), "safety": safety, "survive": survive,
                     "progress": progress, "fifty_fifty": tally, "score": survive * factor,
                     "dead": bool(dead),
                     "crowd": unknown_neighbours(cell, table, revealed, flagged)})
    return pd.DataFrame(rows, columns=["cell", *KERNEL_FEATURES])


def piece_features(labels: pd.DataFrame, *, seed: str, games: int) -> pd.DataFrame:
    """Return `kernel_features` of every labelled cell of one piece, its games replayed.

    Raises
    ------
    ValueError
        If the replayed games do not make the labelled decisions (the labels were made
        by another player than this one).
    """
    piece = int(labels["piece"].iloc[0])
    settings = check_strategy(None).settings()
    decisions = dict(iter(labels.groupby(["game", "guess"], sort=True)))
    found = []
    for stall in stalls(piece, seed=seed, games=games):
        decision = decisions.get((stall.game, stall.guess))
        if decision is None or int(decision["cell"].iloc[0]) != stall.pick:
            raise ValueError(f"piece {piece}, game {stall.game}, guess {stall.guess}: this "
                             f"player does not make the labelled decision; the labels come "
                             f"from another player")
        features = kernel_features(stall, decision["cell"].to_numpy(), settings)
        found.append(features.assign(piece=piece, game=stall.game, guess=stall.guess))
    if len(found) != len(decisions):
        raise ValueError(f"piece {piece}: {len(decisions) - len(found)} labelled decisions "
                         f"were not made again; the labels come from another player")
    return pd.concat(found, ignore_index=True)


def label_piece(piece: int, *, seed: str, games: int, layouts: int) -> pd.DataFrame:
    """Play piece ``piece``'s games and label each heuristic decision (one row a candidate)."""
    _, _, label_seeds = as_seed_sequence(f"{seed}/{piece}").spawn(3)
    width, height, mines = EXPERT.width, EXPERT.height, EXPERT.mines
    table = neighbour_table(width, height)
    settings = check_strategy(None).settings()
    memo = _position_memo(width, height, mines, settings, False)
    half = layouts // 2
    rows = []
    for stall in stalls(piece, seed=seed, games=games):
        decision = label_seeds.spawn(1)[0]
        draw_seed, order_seed, rollout_seed = decision.spawn(3)
        revealed, flagged, shown = stall.revealed, stall.flagged, stall.shown
        cells = candidates(stall.pick, stall.analysis.probability, revealed, flagged, shown,
                           table, np.random.default_rng(order_seed))
        drawn = draw_layouts(shown, table, revealed, flagged, width, mines, layouts,
                             tie_seed(draw_seed))
        seeds = np.array([tie_seed(s) for s in rollout_seed.spawn(layouts)], dtype=np.int64)
        won, sound = rollouts(drawn, table, width, mines, revealed, flagged, cells, BEST,
                              settings, seeds, memo)
        if not sound:
            raise RuntimeError(f"piece {piece}, game {stall.game}: a deduction contradicted a "
                               f"drawn layout (a bug)")
        frontier = _on_frontier(cells, table, revealed, shown)
        for k, cell in enumerate(cells.tolist()):
            rows.append({
                "piece": piece, "game": stall.game, "guess": stall.guess,
                "kind": KIND_NAMES[stall.kind], "cell": cell, "x": cell % width,
                "y": cell // width, "pick": k == 0,
                "p_mine": float(stall.analysis.probability[cell]),
                "on_frontier": bool(frontier[k]), "wins_a": int(won[:half, k].sum()),
                "wins_b": int(won[half:, k].sum()), "n": layouts,
                "only_this": int((won[:, k] & ~won[:, 0]).sum()),
                "only_pick": int((~won[:, k] & won[:, 0]).sum())})
    return pd.DataFrame(rows, columns=COLUMNS)


def _piece_path(data: Path, piece: int) -> Path:
    return data / f"piece-{piece:05d}.csv"


def _settings(seed, games, layouts) -> dict:
    """Return what makes two pieces of the same number the same piece."""
    return {"stream": seed, "games": games, "layouts": layouts, "board": str(EXPERT),
            "rule": RULE, "click": list(CLICK)}


def _sidecar(path: Path) -> dict:
    return json.loads(sidecar_path(path).read_text(encoding="utf-8"))


def _done(data: Path, piece: int, settings: dict) -> bool:
    """Whether the piece is written with these settings (another setting is refused)."""
    path = _piece_path(data, piece)
    if not path.exists():
        return False
    found = _sidecar(path).get("piece_settings")
    if found != settings:
        raise SystemExit(f"{path} was labelled with other settings ({found}); "
                         f"move it away or run with its settings")
    return True


def _label(task):
    """Label one piece (in a worker): the piece, its rows and its seconds."""
    piece, seed, games, layouts = task
    start = time.perf_counter()
    frame = label_piece(piece, seed=seed, games=games, layouts=layouts)
    return piece, frame, time.perf_counter() - start


def _labelled(pool, tasks):
    """Yield each task's result as it comes, from a pool, ``map`` or a Dask client."""
    if is_dask_client(pool):
        from distributed import as_completed

        for future in as_completed(pool.map(_label, tasks, pure=False)):
            yield future.result()
    else:
        yield from (pool(_label, tasks) if pool is map else pool.map(_label, tasks))


def split_half_gains(frame: pd.DataFrame) -> pd.Series:
    """Per decision: the gain of choosing by one half of the layouts, scored on the other.

    `minestats.stats.split_half_gain` of each decision, whose first row is the pick.
    """
    return pd.Series({key: split_half_gain(decision["wins_a"].to_numpy(),
                                           decision["wins_b"].to_numpy(),
                                           int(decision["n"].iloc[0]))
                      for key, decision in frame.groupby(["piece", "game", "guess"],
                                                         sort=True)}, dtype=float)


def gap_spread(frame: pd.DataFrame) -> dict:
    """Return the alternatives' mean value gap to the pick and their spread without noise.

    A candidate's gap is estimated on the decision's layouts as (``only_this`` -
    ``only_pick``) / n, with variance (share discordant - gap^2) / n (the layouts are
    paired, as in McNemar's test). The spread of the true gaps is the observed variance
    less the mean of those variances (0 if that is negative; `minestats.stats.effect_spread`):
    how far the cells the labels compare really differ from the pick, the room a perfect
    chooser would have.

    Returns
    -------
    dict
        ``alternatives``, ``mean_gap``, ``gap_sd_observed``, ``gap_sd_noise`` and
        ``gap_sd_true``.
    """
    others = frame[~frame["pick"]]
    gap, noise = paired_gap(others["only_this"], others["only_pick"], others["n"])
    spread = effect_spread(gap.to_numpy(), noise.to_numpy())
    return {"alternatives": len(gap), "mean_gap": spread.mean,
            "gap_sd_observed": spread.observed_sd, "gap_sd_noise": spread.noise_sd,
            "gap_sd_true": spread.true_sd}


def summarise(frame: pd.DataFrame, games: int) -> pd.DataFrame:
    """One row per kind of decision (and all): decisions, pick's value, the room to gain."""
    rows = []
    for kind, part in [*frame.groupby("kind"), ("all", frame)]:
        picks = part[part["pick"]]
        gains = split_half_gains(part)
        n, gain = len(gains), mean_interval(gains.to_numpy())
        rows.append({
            "kind": kind, "decisions": n, "games": games,
            "decisions_per_game": n / games if games else np.nan,
            "candidates_per_decision": len(part) / n if n else np.nan,
            "layouts_per_candidate": int(part["n"].iloc[0]) if n else 0,
            "pick_value": float((picks["wins_a"] + picks["wins_b"]).sum() / picks["n"].sum())
            if n else np.nan,
            "split_half_gain": gain.mean, "gain_ci_low": gain.low, "gain_ci_high": gain.high,
            "gain_per_game": gain.mean * n / games if games else np.nan, **gap_spread(part)})
    return pd.DataFrame(rows)


GATE_FOLDS = 6
"""Folds of pieces the model of `offline_gate` is fitted and scored on, each held out once."""
FEATURES = ["p_mine_gap", "cell_on_frontier", "pick_on_frontier", "cell_wall", "pick_wall",
            "cell_corner", "pick_corner", "p_mine_gap_on_frontier"]
"""What the gate's model sees of a candidate against the pick: the difference of their
mine probabilities, whether each is on the frontier, its distance to the nearest wall
(at most 3), whether it is a corner, and the probability gap on the frontier."""


KERNEL_GAPS = [f"{name}_gap" for name in KERNEL_FEATURES]
"""The kernel's quantities of a candidate minus the pick's (``dead_gap``: 1 when only the
candidate is dead, -1 when only the pick is)."""


def decision_pairs(frame: pd.DataFrame, features: pd.DataFrame | None = None) -> pd.DataFrame:
    """One row per candidate other than the pick: its value gap to the pick, its features.

    ``gap`` is the candidate's share of wins minus the pick's on the decision's common
    layouts (both halves together); the features are `FEATURES`, and with
    ``features`` (`piece_features` of the labels) `KERNEL_GAPS` too.
    """
    if features is not None:
        frame = frame.merge(features, on=["piece", "game", "guess", "cell"], how="left",
                            validate="one_to_one")
        if frame[KERNEL_FEATURES].isna().any().any():
            raise ValueError("features are missing for some labelled cells")
    rows = []
    value = (frame["wins_a"] + frame["wins_b"]) / frame["n"]
    width, height = EXPERT.width, EXPERT.height
    wall = np.minimum.reduce([frame["x"], width - 1 - frame["x"], frame["y"],
                              height - 1 - frame["y"]]).clip(max=3)
    corner = (frame["x"] % (width - 1) == 0) & (frame["y"] % (height - 1) == 0)
    frame = frame.assign(value=value, wall=wall, corner=corner)
    for (piece, game, guess), decision in frame.groupby(["piece", "game", "guess"], sort=True):
        pick = decision[decision["pick"]].iloc[0]
        for other in decision[~decision["pick"]].itertuples():
            gap = other.p_mine - pick["p_mine"]
            rows.append({"piece": piece, "game": game, "guess": guess,
                         "gap": other.value - pick["value"], "p_mine_gap": gap,
                         "cell_on_frontier": float(other.on_frontier),
                         "pick_on_frontier": float(pick["on_frontier"]),
                         "cell_wall": float(other.wall), "pick_wall": float(pick["wall"]),
                         "cell_corner": float(other.corner),
                         "pick_corner": float(pick["corner"]),
                         "p_mine_gap_on_frontier": gap * float(other.on_frontier),
                         **({f"{name}_gap": float(getattr(other, name)) - float(pick[name])
                             for name in KERNEL_FEATURES} if features is not None else {})})
    return pd.DataFrame(rows, columns=["piece", "game", "guess", "gap", *FEATURES,
                                       *(KERNEL_GAPS if features is not None else [])])


SAFETY_EXPONENTS = tuple(np.round(np.linspace(0.0, 1.0, 11), 1))
"""The exponents ``a`` the gate's rule safety^a x score^(1 - a) chooses among (0: the
kernel's score alone, 1: the safest living cell)."""


def weighted_score_gains(frame: pd.DataFrame, features: pd.DataFrame) -> pd.DataFrame:
    """Return each decision's gain under the rule safety^a x score^(1 - a), for every ``a``.

    The rule ranks the decision's labelled cells that are not dead (the pick always
    ranks) by safety^``a`` x score^(1 - ``a``) (0^0 = 1), with the kernel's
    ``safety`` and ``score`` of each (`kernel_features`), and switches from the pick
    to the top one when it ranks strictly higher; its gain is that cell's share of
    wins minus the pick's on the decision's layouts (0 when it keeps the pick).

    Returns
    -------
    pandas.DataFrame
        A row per decision: ``piece``, then a column of gains and one of switches
        (``switched_a``) per exponent of `SAFETY_EXPONENTS`, named by it.
    """
    merged = frame.merge(features, on=["piece", "game", "guess", "cell"], how="left",
                         validate="one_to_one")
    if merged[["safety", "score", "dead"]].isna().any().any():
        raise ValueError("features are missing for some labelled cells")
    merged = merged.assign(value=(merged["wins_a"] + merged["wins_b"]) / merged["n"])
    rows = []
    for (piece, _, _), decision in merged.groupby(["piece", "game", "guess"], sort=True):
        pick = np.flatnonzero(decision["pick"].to_numpy())[0]
        ranked = ~decision["dead"].to_numpy(bool) | decision["pick"].to_numpy(bool)
        safety = decision["safety"].to_numpy(float)
        score = decision["score"].to_numpy(float)
        value = decision["value"].to_numpy(float)
        row = {"piece": piece}
        for a in SAFETY_EXPONENTS:
            rank = np.where(ranked, safety**a * score ** (1 - a), -np.inf)
            top = int(np.argmax(rank))
            switch = rank[top] > rank[pick]
            row[a] = value[top] - value[pick] if switch else 0.0
            row[f"switched_{a}"] = bool(switch)
        rows.append(row)
    return pd.DataFrame(rows)


def _weighted_score_by_folds(gains: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, list]:
    """Return the held-out gains and switches of the weighted rule, ``a`` chosen by folds.

    For each fold of pieces, ``a`` is the exponent of highest mean gain on the other
    folds' decisions (the smallest on ties); the fold's decisions are scored with it.
    Also returns the exponents chosen, fold by fold.
    """
    held_out, switched, chosen = [], [], []
    for train, test in group_folds(gains, "piece", GATE_FOLDS):
        means = train[list(SAFETY_EXPONENTS)].mean().to_numpy()
        a = SAFETY_EXPONENTS[int(np.argmax(means))]
        held_out.extend(test[a])
        switched.extend(test[f"switched_{a}"])
        chosen.append(float(a))
    return np.array(held_out, dtype=float), np.array(switched, dtype=bool), chosen


def _gain_row(rule: str, gains: np.ndarray, switched: np.ndarray, games: int) -> dict:
    """Return the gate's row of one rule: its mean gain a decision with a t interval."""
    n, gain = gains.size, mean_interval(gains)
    return {"rule": rule, "decisions": n, "switched": int(switched.sum()),
            "gain_per_decision": gain.mean, "gain_ci_low": gain.low,
            "gain_ci_high": gain.high,
            "gain_per_game": gain.mean * n / games if games else np.nan}


def offline_gate(frame: pd.DataFrame, games: int,
                 features: pd.DataFrame | None = None) -> pd.DataFrame:
    """Score rules that would replace ``best``'s pick on the labelled decisions.

    A rule either keeps the pick or switches to one of the labelled candidates; its
    gain on a decision is the switched candidate's value minus the pick's (0 when it
    keeps the pick), measured on the decision's own layouts. No rule looks at the
    values it is scored on, so the mean gain is unbiased; it carries a t interval over
    the decisions. The rules:

    - ``safest candidate``: switch to the labelled candidate of lowest mine
      probability when it is safer than the pick.
    - ``linear model``: a least-squares model of the gap from `FEATURES`, fitted on
      the decisions of the other `GATE_FOLDS` - 1 folds of pieces; switch to the
      candidate of highest predicted gap when that is above 0.
    - ``linear model with the kernel's features``: the same, on `KERNEL_GAPS` too
      (with ``features``): what ``best`` scores of each cell, against the pick.
    - ``safety^a x score^(1-a)`` (with ``features``): rank the living cells by their
      safety and the kernel's score so weighed (`weighted_score_gains`), ``a`` of
      `SAFETY_EXPONENTS` chosen on the other folds (the issue's first cheap change:
      a safer cell may beat a better-scored one).

    A rule goes on to games only when its interval is above zero (issue "Beyond Hill",
    section 2).

    Parameters
    ----------
    frame : pandas.DataFrame
        The labels, `COLUMNS`.
    games : int
        The games the labels come from (for the gain a game).
    features : pandas.DataFrame, optional
        `piece_features` of every labelled cell.

    Returns
    -------
    pandas.DataFrame
        A row per rule: ``decisions``, ``switched``, ``gain_per_decision`` with
        ``gain_ci_low`` and ``gain_ci_high``, and ``gain_per_game``; its
        ``attrs["safety_exponents"]`` lists the ``a`` chosen, fold by fold.
    """
    pairs = decision_pairs(frame, features)
    decisions = pairs.groupby(["piece", "game", "guess"], sort=True)
    safest = decisions.apply(lambda d: d["gap"].loc[d["p_mine_gap"].idxmin()]
                             if d["p_mine_gap"].min() < 0 else 0.0, include_groups=False)
    rows = [_gain_row("safest candidate", safest.to_numpy(float), safest.to_numpy() != 0,
                      games)]
    rows.append(_gain_row(f"linear model ({GATE_FOLDS}-fold by piece)",
                          *_model_gains(pairs, FEATURES), games))
    chosen = []  # the exponents of the weighted rule, fold by fold (with features)
    if features is not None:
        rows.append(_gain_row(f"linear model with the kernel's features ({GATE_FOLDS}-fold "
                              "by piece)", *_model_gains(pairs, FEATURES + KERNEL_GAPS),
                              games))
        weighted, switched, chosen = _weighted_score_by_folds(
            weighted_score_gains(frame, features))
        rows.append(_gain_row(f"safety^a x score^(1-a), a chosen on the other folds "
                              f"({GATE_FOLDS}-fold by piece)", weighted, switched, games))
    table = pd.DataFrame(rows)
    table.attrs["safety_exponents"] = chosen
    return table


def _model_gains(pairs: pd.DataFrame, columns: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Return the gains and switches of the least-squares rule on ``columns``, by folds."""
    return least_squares_switch_gains(pairs, columns, target="gap",
                                      decision=["piece", "game", "guess"], group="piece",
                                      folds=GATE_FOLDS)


def _pieces(text: str) -> range:
    start, _, stop = text.partition(":")
    try:
        return range(int(start), int(stop))
    except ValueError:
        raise SystemExit(f"--pieces ({text!r}) must be START:STOP, two integers") from None


def main(argv=None):
    start = time.perf_counter()
    parser = base_parser(__doc__.splitlines()[0], experiment="move_labels")
    parser.add_argument("--pieces", default="0:0", help="pieces to label, START:STOP "
                        "(default none: summarise the pieces found)")
    parser.add_argument("--games", type=int, default=10, help="games a piece (default 10)")
    parser.add_argument("--layouts", type=int, default=300,
                        help="posterior layouts a candidate (default 300)")
    parser.add_argument("--data", type=Path, default=DATA,
                        help="folder of the pieces (default data/move_labels of the "
                             "checkout)")
    args = parser.parse_args(argv)
    pieces = _pieces(args.pieces)
    settings = _settings(args.seed, args.games, args.layouts)
    todo = [piece for piece in pieces if not _done(args.data, piece, settings)]
    if todo:
        args.data.mkdir(parents=True, exist_ok=True)
        tasks = [(piece, args.seed, args.games, args.layouts) for piece in todo]
        with worker_pool(args.workers, warm_up=lambda: label_piece(
                0, seed="warm-up", games=1, layouts=2)) as pool:
            for piece, frame, seconds in _labelled(pool, tasks):
                metadata = collect_metadata(
                    seed=seed_label(as_seed_sequence(f"{args.seed}/{piece}")), n=args.games,
                    chunk_size=args.games, wall_time_s=seconds,
                    extra={"piece": piece, "piece_settings": settings})
                write_csv(frame, _piece_path(args.data, piece), metadata=metadata)
                print(f"piece {piece}: {frame['pick'].sum()} decisions labelled in "
                      f"{seconds:.0f} s ({time.perf_counter() - start:.0f} s)", flush=True)
    paths = sorted(args.data.glob("piece-*.csv")) if args.data.exists() else []
    frames = [pd.read_csv(path) for path in paths]
    sidecars = [_sidecar(path) for path in paths]
    games = sum(sidecar["n"] for sidecar in sidecars)
    frame = pd.concat(frames) if frames else pd.DataFrame(columns=COLUMNS)
    table = summarise(frame, games)
    metadata = collect_metadata(seed=args.seed, n=games, chunk_size=args.games,
                                wall_time_s=time.perf_counter() - start,
                                extra={"pieces": len(paths), "piece_settings": settings,
                                       "data": str(args.data)})
    path = write_csv(table, args.out / "move_labels.csv", metadata=metadata, summary=True)
    features = pd.concat([piece_features(labels, seed=sidecar["piece_settings"]["stream"],
                                         games=sidecar["n"])
                          for sidecar, labels in zip(sidecars, frames, strict=True)]) if frames \
        else None
    gate = offline_gate(frame, games, features)
    gate_metadata = {**metadata, "safety_exponents": gate.attrs["safety_exponents"]}
    gate_path = write_csv(gate, args.out / "move_labels_gate.csv", metadata=gate_metadata,
                          summary=True)
    for row in table.itertuples():
        print(f"  {row.kind:13} {row.decisions:6,} decisions, pick wins {row.pick_value:.3f}; "
              f"choosing by half the layouts gains {row.split_half_gain:+.4f} "
              f"[{row.gain_ci_low:+.4f}, {row.gain_ci_high:+.4f}] a decision on the other "
              f"half ({row.gain_per_game:+.4f} a game), {games:,} games, stream {args.seed}")
    for row in gate.itertuples():
        print(f"  gate, {row.rule}: switches {row.switched:,} of {row.decisions:,} decisions, "
              f"gains {row.gain_per_decision:+.4f} [{row.gain_ci_low:+.4f}, "
              f"{row.gain_ci_high:+.4f}] a decision ({row.gain_per_game:+.4f} a game)")
    if gate.attrs["safety_exponents"]:
        print(f"  gate, safety^a x score^(1-a): a chosen fold by fold "
              f"{gate.attrs['safety_exponents']}")
    print(f"Wrote {path} and {gate_path}; {time.perf_counter() - start:.1f} s wall")


if __name__ == "__main__":
    main()
