"""Smooth pass-rate curves against mine density, and the density at which half the boards pass.

Reads the pass rates of ``pass_rate_by_density.py`` (``--input``, default
``<out>/pass_rate_by_density.csv``; nothing is recomputed) and fits, for each board
size and solver, a binomial GLM with the logit link to ``successes`` out of ``n`` at
each density (`minestats.stats.fits.fit_pass_rate_curve`): a polynomial in density on the
logit scale, of the lowest degree (1 to 4) that the quartic does not beat by a
likelihood-ratio test at level 0.05. The ``fit`` column names it (``logit``,
``logit+quadratic``, ``logit+cubic``, ``logit+quartic``): anything past ``logit``
says the plain logistic curve was not enough, and ``logit_deviance``,
``logit_gof_p`` and ``lrt_p`` say by how much. Each row checks its fit: residual
deviance on ``df`` and its p-value ``gof_p``, Pearson's chi-square and ``pearson_p``,
``adequate`` (neither rejects at 0.05), the largest studentized residual, and
``sparse_points`` (densities expecting fewer than 5 passes or failures, where the
chi-square approximations are rough).

``ed50`` is the density at which the fitted pass rate is 0.5, with its 95%
delta-method interval (``ed50_ci_low``, ``ed50_ci_high``) and profile-likelihood
interval (``ed50_profile_low``, ``ed50_profile_high``), and in mines
(``ed50_mines = ed50 * cells``); ``ed50_models_low`` and ``ed50_models_high`` span the
ED50 over every degree whose goodness of fit is not rejected, since the intervals do not
count the choice of degree. Where the fitted curve does not cross 0.5 exactly once
within the measured densities the ED50 is left NaN and ``ed50_note`` says why: it is
never extrapolated. Coefficients ``b0``... are on ``z = (density - centre) / scale``.

The figure shows each fitted curve with its 95% band (delta method on the logit scale)
over the 95% Wilson points, one panel per board size, the ED50 marked at 0.5 with its
profile interval. Fitting draws no random numbers: ``--seed`` and ``--workers`` are
accepted, as by every script, and unused.

Writes ``<out>/pass_rate_fits.csv`` and ``<out>/pass_rate_fits.png``, each with its
``.json`` sidecar.

Usage: ``python -m minestats.experiments.pass_rate_fits [--input results/pass_rate_by_density.csv]
[--out results]``
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pandas as pd

from minestats.experiments.common import base_parser, p_text, source_metadata
from minestats.figures.plots import plot_fitted_curves
from minestats.foundations.validation import DEFAULT_ALPHA, DEFAULT_CONFIDENCE_LEVEL
from minestats.io.result_files import collect_metadata, write_csv, write_figure
from minestats.stats.fits import MAX_DEGREE, MODELS, SPARSE_COUNT, fit_pass_rate_curve

CONFIDENCE_LEVEL = DEFAULT_CONFIDENCE_LEVEL
ALPHA = DEFAULT_ALPHA
GRID_POINTS = 201
INPUT_NAME = "pass_rate_by_density.csv"
COLUMNS = ("size", "width", "height", "rule", "click_x", "click_y", "solver",
           "use_mine_count", "density", "n", "successes", "pass_rate", "ci_low", "ci_high",
           "seed")


def read_pass_rates(path: Path) -> pd.DataFrame:
    """Read the table of pass_rate_by_density.py, checked for the columns the fits need."""
    if not path.is_file():
        raise SystemExit(f"error: no pass-rate table at {path}: run "
                         "minestats.experiments.pass_rate_by_density first, or pass --input")
    table = pd.read_csv(path)
    missing = sorted(set(COLUMNS) - set(table.columns))
    if missing:
        raise SystemExit(f"error: {path} lacks the columns {missing}")
    return table


def fit_table(table: pd.DataFrame):
    """Fit every board size and solver: (rows of the CSV, curves on a grid, ED50 marks)."""
    rows, curves = [], []
    for (size, solver), points in table.groupby(["size", "solver"], sort=False):
        curve = fit_pass_rate_curve(points["successes"], points["n"], points["density"],
                                    confidence_level=CONFIDENCE_LEVEL, alpha=ALPHA)
        first = points.iloc[0]
        cells = int(first["width"] * first["height"])
        counts = sorted(set(points["n"]))
        row = {"size": size, "width": int(first["width"]), "height": int(first["height"]),
               "cells": cells, "rule": first["rule"], "click_x": int(first["click_x"]),
               "click_y": int(first["click_y"]), "solver": solver,
               "use_mine_count": bool(first["use_mine_count"]),
               "n": counts[0] if len(counts) == 1 else "/".join(map(str, counts)),
               **curve.to_dict()}
        row["ed50_mines"] = curve.ed50 * cells
        row["seeds"] = " ".join(points["seed"])
        rows.append(row)
        grid = np.linspace(curve.densities.min(), curve.densities.max(), GRID_POINTS)
        band = curve.predict(grid)
        curves.append(pd.DataFrame({"size": size, "solver": solver, "density": grid,
                                    "fit": band.fit, "fit_low": band.low,
                                    "fit_high": band.high}))
    fits = pd.DataFrame(rows)
    fits.insert(fits.columns.get_loc("ed50_note"), "ed50_mines", fits.pop("ed50_mines"))
    marks = fits[["size", "solver"]].assign(mark=fits["ed50"], mark_low=fits["ed50_profile_low"],
                                            mark_high=fits["ed50_profile_high"])
    return fits, pd.concat(curves, ignore_index=True), marks


def figure_of(table, curves, marks, fits, *, n_text):
    panel = {size: f"{size} board" for size in fits["size"]}
    figure = plot_fitted_curves(
        table.assign(size=table["size"].map(panel)), curves.assign(size=curves["size"].map(panel)),
        marks=marks.assign(size=marks["size"].map(panel)), x="density", series="solver",
        panel="size", xlabel="mine density (mines / cells)",
        ylabel="pass rate (no guessing)",
        title="Pass rate against mine density: binomial GLM fits (logit link) with 95% bands "
              f"over 95% Wilson points\nrule safe-opening, centre click; {n_text}\n"
              "ED50 (half the boards pass) marked at 0.5 with its 95% profile-likelihood "
              "interval")
    # Each panel's legend names the model chosen and the ED50 of each solver.
    for axis, (_, rows) in zip(figure.axes, fits.groupby("size", sort=False), strict=True):
        labels = [f"{row.solver}: {row.fit}, deviance {row.deviance:.1f} on {row.df} df\n"
                  + (f"ED50 {row.ed50:.4f} {interval(row.ed50_profile_low, row.ed50_profile_high)}"
                     if np.isfinite(row.ed50) else "no ED50 in the measured range")
                  for row in rows.itertuples()]
        axis.legend(handles=axis.get_legend().legend_handles, labels=labels, fontsize=7.5,
                    title="solver: model, residual deviance; ED50 [95% profile interval]",
                    title_fontsize=7.5, frameon=False, loc="upper center",
                    bbox_to_anchor=(0.5, -0.16))
    figure.set_size_inches(figure.get_figwidth(), 6.4)  # room for the legends below
    return figure


def interval(low, high) -> str:
    shown = [("beyond range" if np.isnan(value) else f"{value:.4f}") for value in (low, high)]
    return f"[{shown[0]}, {shown[1]}]"


PRINTED_COLUMNS = [
    "size", "solver", "n", "points", "fit", "deviance", "df", "gof_p", "max_abs_std_residual",
    "logit_deviance", "logit_df", "logit_gof_p", "ed50", "ed50_ci_low", "ed50_ci_high",
    "ed50_profile_low", "ed50_profile_high", "ed50_mines", "confidence_level"]
"""What the .tex and .md twins print of each fit; the CSV keeps every column."""


def main(argv=None):
    start = time.perf_counter()
    parser = base_parser(__doc__.splitlines()[0], experiment="pass_rate_fits")
    parser.add_argument("--input", type=Path, default=None,
                        help=f"pass-rate table to fit (default <out>/{INPUT_NAME})")
    args = parser.parse_args(argv)
    source = args.input if args.input is not None else args.out / INPUT_NAME
    table = read_pass_rates(source)
    fits, curves, marks = fit_table(table)
    n_by_solver = {solver: sorted({int(v) for v in rows["n"]})
                   for solver, rows in table.groupby("solver", sort=False)}
    n_text = "n per point: " + ", ".join(
        f"{solver} {'/'.join(f'{v:,}' for v in counts)}" for solver, counts in n_by_solver.items())
    metadata = collect_metadata(
        seed=None, n={solver: counts[0] if len(counts) == 1 else counts
                      for solver, counts in n_by_solver.items()},
        chunk_size=None, wall_time_s=time.perf_counter() - start,
        extra={"input": source.as_posix(), "input_metadata": source_metadata(source),
               "model": "binomial GLM, logit link, polynomial in z = (density - centre) / "
                        "scale of degree 1 to 4 (statsmodels)",
               "models": MODELS, "max_degree": MAX_DEGREE,
               "selection": "lowest degree not beaten by the largest (likelihood-ratio test "
                            "at alpha)",
               "alpha": ALPHA, "confidence_level": CONFIDENCE_LEVEL,
               "sparse_count": SPARSE_COUNT, "grid_points": GRID_POINTS})
    path = write_csv(fits, args.out / "pass_rate_fits.csv", metadata=metadata,
                     summary=PRINTED_COLUMNS)
    png, _ = write_figure(figure_of(table, curves, marks, fits, n_text=n_text),
                          args.out / "pass_rate_fits.png", metadata=metadata)

    print(f"Pass rate against mine density: binomial GLM (logit link) per board size and "
          f"solver, fitted to {source}; {CONFIDENCE_LEVEL:.0%} intervals; degree chosen by "
          f"likelihood-ratio tests at {ALPHA}")
    for row in fits.itertuples():
        print(f"\n{row.size} {row.solver}: {row.fit} (degree {row.degree}), deviance "
              f"{row.deviance:.2f} on {row.df} df ({p_text(row.gof_p)}), Pearson "
              f"{row.pearson_chi2:.2f} ({p_text(row.pearson_p)}), max |std. residual| "
              f"{row.max_abs_std_residual:.2f}, {row.sparse_points} sparse points"
              + ("" if row.adequate else "; LACK OF FIT"))
        print(f"  plain logit: deviance {row.logit_deviance:.1f} on {row.logit_df} df "
              f"({p_text(row.logit_gof_p)})"
              + ("" if np.isnan(row.lrt_p) else f"; extra terms LRT {p_text(row.lrt_p)}"))
        if np.isnan(row.ed50):
            print(f"  ED50 missing: {row.ed50_note}")
        else:
            print(f"  ED50 {row.ed50:.4f} ({row.ed50_mines:.1f} mines): delta "
                  f"{interval(row.ed50_ci_low, row.ed50_ci_high)}, profile "
                  f"{interval(row.ed50_profile_low, row.ed50_profile_high)}; over the "
                  "degrees the fit test accepts "
                  f"{interval(row.ed50_models_low, row.ed50_models_high)}"
                  + (f"; {row.ed50_note}" if row.ed50_note else ""))
    print(f"\nWrote {path}, {png} and their sidecars; {time.perf_counter() - start:.1f} s wall")


if __name__ == "__main__":
    main()
