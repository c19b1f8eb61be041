import inspect
import io
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure

from minestats.figures import plots
from minestats.figures.plots import (
    ANNOTATE_LIMIT,
    SAFE_COLOURS,
    STYLE,
    Z_LIMIT,
    plot_distributions,
    plot_fitted_curves,
    plot_intervals,
    plot_loss_analysis,
    plot_position,
    plot_probability_map,
    plot_proportion_bands,
    plot_z_map,
)
from minestats.foundations.board import EXPERT, Board
from minestats.mechanics.opening_probabilities import opening_probability_map

# 4 columns x 3 rows, every value different, so orientation mistakes show.
GRID = np.arange(12, dtype=float).reshape(3, 4) / 11


def _board_axes(figure):
    return figure.axes[0]


def _texts_by_cell(axes):
    return {tuple(int(round(v)) for v in text.get_position()): text.get_text()
            for text in axes.texts}


@pytest.mark.parametrize("plot", [
    lambda grid, **kw: plot_probability_map(grid, title="t", **kw),
    lambda grid, **kw: plot_z_map(4 * grid - 2, title="t", **kw),
])
def test_orientation_and_extent(plot):
    figure = plot(GRID)
    assert isinstance(figure, Figure)
    axes = _board_axes(figure)
    assert tuple(map(float, axes.get_xlim())) == (-0.5, 3.5)
    assert tuple(map(float, axes.get_ylim())) == (2.5, -0.5)  # y grows downwards
    assert axes.get_xlabel() == "x (column)" and axes.get_ylabel() == "y (row)"
    mesh = axes.collections[0]
    assert mesh.get_array().shape == GRID.shape  # no transposition
    # the cell drawn at column x, row y has centre (x, y) and holds grid[y, x]
    coordinates = mesh.get_coordinates()
    assert tuple(coordinates[0, 0]) == (-0.5, -0.5)
    assert tuple(coordinates[-1, -1]) == (3.5, 2.5)
    assert float(mesh.get_linewidth()[0]) > 0  # visible cell edges


def test_probability_annotations_match_cells():
    axes = _board_axes(plot_probability_map(GRID, title="t"))
    texts = _texts_by_cell(axes)
    assert len(texts) == GRID.size
    for (x, y), text in texts.items():
        assert text == f"{GRID[y, x]:.2f}"
    assert texts[(3, 0)] == "0.27" and texts[(0, 2)] == "0.73"


def test_annotation_only_on_small_boards():
    small = opening_probability_map(Board(ANNOTATE_LIMIT, ANNOTATE_LIMIT, 40), rule="uniform")
    assert len(_board_axes(plot_probability_map(small, title="t")).texts) == small.size
    expert = opening_probability_map(EXPERT, rule="winxp")
    assert len(_board_axes(plot_probability_map(expert, title="t")).texts) == 0
    assert len(_board_axes(plot_probability_map(expert, title="t", annotate=True)).texts) \
        == expert.size


def test_probability_colour_bar_and_title():
    figure = plot_probability_map(GRID, title="9x9/10, uniform", label="P(open)")
    axes, colorbar_axes = figure.axes
    assert figure.get_suptitle() == "9x9/10, uniform"
    assert colorbar_axes.get_ylabel() == "P(open)"
    norm = axes.collections[0].norm
    assert (norm.vmin, norm.vmax) == (0.0, 1.0)
    constant = _board_axes(plot_probability_map(np.ones((2, 2)), title="t"))
    assert (constant.collections[0].norm.vmin, constant.collections[0].norm.vmax) == (0, 1)


def test_z_map_is_centred_and_marks_rejections():
    z = np.array([[0.5, -1.0, 5.0, 0.0], [0.0, 2.0, -0.3, -6.0], [1.0, 1.0, 1.0, np.inf]])
    reject = np.abs(z) > 4
    figure = plot_z_map(z, title="t", reject=reject, limit=3.0)
    axes = _board_axes(figure)
    norm = axes.collections[0].norm
    assert (norm.vmin, norm.vmax) == (-3.0, 3.0)
    colour_at_zero = axes.collections[0].cmap(norm(0.0))
    assert np.allclose(colour_at_zero[:3], colour_at_zero[0], atol=0.05)  # a neutral grey/white
    corners = sorted((float(p.get_x()), float(p.get_y())) for p in axes.patches)
    assert corners == [(1.5, -0.5), (2.5, 0.5), (2.5, 1.5)]  # cells (2, 0), (3, 1), (3, 2)
    legend_text = figure.legends[0].get_texts()[0].get_text()
    assert "3 of 12 cells" in legend_text and "0.05" in legend_text
    assert _texts_by_cell(axes)[(3, 1)] == "-6.0"


def _scale(figure):
    """``(vmin, vmax, colour-bar extend, colour-bar label)`` of a heat map."""
    mesh = _board_axes(figure).collections[0]
    return mesh.norm.vmin, mesh.norm.vmax, mesh.colorbar.extend, figure.axes[1].get_ylabel()


def test_z_map_scale_reaches_the_largest_z_and_says_when_it_clips():
    noise = np.array([[0.5, -1.0], [2.0, -0.3]])
    assert _scale(plot_z_map(noise, title="t")) == (-Z_LIMIT, Z_LIMIT, "neither",
                                                    "z = (MC - exact) / SE")
    strong = np.array([[0.5, -15.5], [2.0, 3.0]])
    assert _scale(plot_z_map(strong, title="t"))[:3] == (-15.5, 15.5, "neither")
    # the hidden cell's |z| of 40 sets nothing
    masked = plot_z_map(np.array([[40.0, -6.0], [2.0, 3.0]]), title="t",
                        mask=np.array([[True, False], [False, False]]))
    assert _scale(masked)[:3] == (-6.0, 6.0, "neither")
    low, high, extend, label = _scale(plot_z_map(strong, title="t", limit=4.0))
    assert (low, high, extend) == (-4.0, 4.0, "both")
    assert label.endswith("(colours clipped at +/-4; largest |z| 15.5)")
    # an infinite z cannot be reached: the scale stops at the largest finite one
    low, high, extend, label = _scale(plot_z_map(np.array([[np.inf, -6.0]]), title="t"))
    assert (low, high, extend) == (-6.0, 6.0, "both") and "largest |z| inf" in label


@pytest.mark.parametrize("plot", [plot_probability_map, plot_z_map])
def test_a_heat_map_is_as_wide_as_its_title(plot):
    short = plot(GRID, title="t")
    title = "a title far wider than a board of four columns would make its figure"
    wide = plot(GRID, title=f"line one\n{title}")
    assert wide.get_figwidth() > short.get_figwidth()
    wide.draw_without_rendering()
    [box] = [text.get_window_extent() for text in wide.texts
             if text.get_text() == wide.get_suptitle()]
    assert 0 <= box.x0 and box.x1 <= wide.bbox.width


def test_z_map_without_rejections_says_so():
    figure = plot_z_map(np.zeros((2, 2)), title="t", reject=np.zeros((2, 2), bool), alpha=0.01)
    assert "0 of 4 cells" in figure.legends[0].get_texts()[0].get_text()
    assert len(_board_axes(figure).patches) == 0


@pytest.mark.parametrize(("call", "message"), [
    (lambda: plot_probability_map(np.ones(3), title="t"), "2-D"),
    (lambda: plot_probability_map(np.full((2, 2), 1.5), title="t"), r"\[0, 1\]"),
    (lambda: plot_probability_map(np.full((2, 2), np.nan), title="t"), "NaN"),
    (lambda: plot_probability_map(GRID, title="t", limits=(1, 0)), "limits"),
    (lambda: plot_z_map(np.zeros((0, 3)), title="t"), "non-empty"),
    (lambda: plot_z_map(np.full((2, 2), np.nan), title="t"), "NaN"),
    (lambda: plot_z_map(GRID, title="t", limit=0), "limit"),
    (lambda: plot_z_map(GRID, title="t", reject=np.zeros((4, 3), bool)), r"\(4, 3\)"),
])
def test_bad_input(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_figures_render_to_png_in_memory():
    buffer = io.BytesIO()
    plot_z_map(np.zeros((3, 3)), title="t", reject=np.eye(3, dtype=bool)).savefig(
        buffer, format="png")
    assert buffer.getvalue()[:4] == b"\x89PNG"


def test_no_pyplot_state():
    code = ("import sys, numpy as np; from minestats.figures.plots import plot_z_map;"
            "plot_z_map(np.zeros((2, 2)), title='t').savefig(__import__('io').BytesIO());"
            "print('matplotlib.pyplot' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "False"


# Two boards x two solvers, rows deliberately out of x order.
BANDS = pd.DataFrame({
    "board": ["16x16", "16x16", "16x16", "16x16", "30x16", "30x16"],
    "solver": ["logic", "logic", "subset", "subset", "logic", "logic"],
    "density": [0.2, 0.1, 0.1, 0.2, 0.1, 0.2],
    "pass_rate": [0.4, 0.9, 0.8, 0.3, 0.95, 0.2],
    "ci_low": [0.35, 0.88, 0.77, 0.25, 0.9, 0.15],
    "ci_high": [0.45, 0.92, 0.83, 0.35, 0.98, 0.25],
})


def _bands(table=BANDS, **options):
    return plot_proportion_bands(table, x="density", series="solver", panel="board",
                                 title="T", xlabel="mine density", ylabel="pass rate", **options)


def test_bands_one_panel_per_board_one_colour_per_solver():
    figure = _bands()
    assert [axis.get_title() for axis in figure.axes] == ["16x16", "30x16"]
    first, second = figure.axes
    assert [line.get_label() for line in first.lines] == ["logic", "subset"]
    assert [line.get_label() for line in second.lines] == ["logic"]
    # logic keeps its colour in both panels; subset has another
    assert first.lines[0].get_color() == second.lines[0].get_color() \
        != first.lines[1].get_color()
    logic = first.lines[0]
    assert logic.get_xdata().tolist() == [0.1, 0.2]  # sorted by x
    assert logic.get_ydata().tolist() == [0.9, 0.4]
    band = first.collections[0].get_paths()[0].vertices
    assert band[:, 1].min() == pytest.approx(0.35) and band[:, 1].max() == pytest.approx(0.92)
    assert tuple(first.get_ylim()) == (0, 1)
    assert figure.get_suptitle() == "T"


def test_distributions_are_shares_per_series_with_gaps_as_zero():
    table = pd.DataFrame({"board": "b", "rule": ["u", "u", "s"], "bbbv": [3, 6, 4],
                          "count": [30, 10, 5]})
    figure = plot_distributions(table, value="bbbv", count="count", series="rule",
                                panel="board", title="T", xlabel="3BV")
    uniform, safe = figure.axes[0].lines
    assert uniform.get_xdata().tolist() == [3, 4, 5, 6]
    assert uniform.get_ydata().tolist() == [0.75, 0, 0, 0.25]
    assert safe.get_ydata().tolist() == [0, 1, 0, 0]
    assert figure.axes[0].get_ylabel() == "share of boards"


@pytest.mark.parametrize(("table", "message"), [
    (BANDS.drop(columns="ci_low"), "lacks the columns"),
    (BANDS.iloc[:0], "no rows"),
    (BANDS.assign(ci_high=0.5), "must contain"),
])
def test_bands_bad_tables(table, message):
    with pytest.raises(ValueError, match=message):
        _bands(table)


def test_distributions_reject_negative_counts():
    table = pd.DataFrame({"board": "b", "rule": "u", "bbbv": [1], "count": [-1]})
    with pytest.raises(ValueError, match="negative"):
        plot_distributions(table, value="bbbv", count="count", series="rule", panel="board",
                           title="T", xlabel="3BV")


def test_probability_map_mask_blanks_cells_and_leaves_them_out_of_the_scale():
    grid = np.full((3, 4), 0.5)
    grid[0, 0], grid[2, 3] = 0.25, 0.75
    mask = np.zeros(grid.shape, dtype=bool)
    mask[1, 1:3] = True
    grid[mask] = 0.0  # outside the shown range: must not set the lower limit
    axes = _board_axes(plot_probability_map(grid, title="t", mask=mask))
    assert (axes.collections[0].norm.vmin, axes.collections[0].norm.vmax) == (0.25, 0.75)
    texts = _texts_by_cell(axes)
    assert set(texts) == {(x, y) for y in range(3) for x in range(4)} - {(1, 1), (2, 1)}
    assert np.ma.getmaskarray(axes.collections[0].get_array()).sum() == 2
    assert axes.get_facecolor()[:3] == (0.85, 0.85, 0.85)
    with pytest.raises(ValueError, match="mask has shape"):
        plot_probability_map(grid, title="t", mask=mask[:, :2])
    with pytest.raises(ValueError, match="hides every cell"):
        plot_probability_map(grid, title="t", mask=np.ones(grid.shape, dtype=bool))


def test_z_map_mask_blanks_untested_cells_and_counts_only_tested_ones():
    z = np.array([[0.5, -1.0, 5.0], [0.0, 2.0, -0.3]])
    mask = np.array([[False, False, False], [True, False, False]])
    figure = plot_z_map(z, title="t", reject=z > 4, mask=mask)
    axes = _board_axes(figure)
    assert set(_texts_by_cell(axes)) == {(0, 0), (1, 0), (2, 0), (1, 1), (2, 1)}
    assert "1 of 5 cells" in figure.legends[0].get_texts()[0].get_text()
    with pytest.raises(ValueError, match="mask hides 1 rejected cells"):
        plot_z_map(z, title="t", reject=z > 4, mask=z > 4)
    with pytest.raises(ValueError, match="mask has shape"):
        plot_z_map(z, title="t", mask=mask[:, :2])


def _fitted(points=BANDS, curves=None, **options):
    if curves is None:
        curves = BANDS.rename(columns={"pass_rate": "fit", "ci_low": "fit_low",
                                       "ci_high": "fit_high"})
    return plot_fitted_curves(points, curves, x="density", series="solver", panel="board",
                              title="T", xlabel="mine density", ylabel="pass rate", **options)


def test_fitted_curves_tell_series_apart_by_colour_style_and_marker():
    marks = pd.DataFrame({"solver": ["logic", "subset", "logic"],
                          "board": ["16x16", "16x16", "30x16"],
                          "mark": [0.15, 0.14, np.nan], "mark_low": [0.14, np.nan, np.nan],
                          "mark_high": [0.16, 0.15, np.nan]})
    figure = _fitted(marks=marks)
    first, second = figure.axes
    assert [axis.get_title() for axis in figure.axes] == ["16x16", "30x16"]
    logic, subset = first.get_legend().legend_handles
    assert logic.get_color() == SAFE_COLOURS[0] and subset.get_color() == SAFE_COLOURS[1]
    assert logic.get_linestyle() != subset.get_linestyle()
    assert logic.get_marker() != subset.get_marker()
    # the logic curve: a line sorted by density over its band, in both panels the same colour
    curve = first.lines[0]
    assert curve.get_xdata().tolist() == [0.1, 0.2] and curve.get_ydata().tolist() == [0.9, 0.4]
    assert curve.get_color() == second.lines[0].get_color() == SAFE_COLOURS[0]
    # two marks at 0.5 in the first panel (the NaN mark of the second is skipped)
    marked = [line for line in first.lines if line.get_gid() == "mark"]
    assert [(line.get_xdata()[0], line.get_ydata()[0]) for line in marked] == [
        (0.15, 0.5), (0.14, 0.5)]
    assert not [line for line in second.lines if line.get_gid() == "mark"]
    assert figure.get_suptitle() == "T" and tuple(first.get_ylim()) == (0, 1)


@pytest.mark.parametrize(("options", "message"), [
    ({"curves": BANDS.drop(columns="ci_low")}, "curves lacks the columns"),
    ({"curves": BANDS.iloc[:0].rename(columns={"pass_rate": "fit", "ci_low": "fit_low",
                                                "ci_high": "fit_high"})}, "curves has no rows"),
    ({"curves": BANDS.rename(columns={"pass_rate": "fit", "ci_low": "fit_low",
                                      "ci_high": "fit_high"}).assign(fit_high=0.3)},
     r"band \[fit_low, fit_high\] must contain its fit"),
    ({"points": BANDS.assign(ci_high=0.5)}, "must contain"),
    ({"marks": pd.DataFrame({"solver": ["logic"], "board": ["16x16"], "mark": [0.1]})},
     "marks lacks the columns"),
])
def test_fitted_curves_bad_tables(options, message):
    with pytest.raises(ValueError, match=message):
        _fitted(**options)


def _every_plot():
    counts = pd.DataFrame({"board": "b", "rule": ["u", "u", "s", "s", "w", "w"],
                           "bbbv": [3, 4, 3, 4, 3, 4], "count": [30, 10, 29, 11, 31, 9]})
    return {
        "probability_map": plot_probability_map(GRID, title="t"),
        "z_map": plot_z_map(GRID, title="t"),
        "bands": _bands(),
        "distributions": plot_distributions(counts, value="bbbv", count="count", series="rule",
                                            panel="board", title="T", xlabel="3BV",
                                            difference_from="u"),
        "fitted": _fitted(),
    }


@pytest.mark.parametrize("name", ["probability_map", "z_map", "bands", "distributions",
                                  "fitted"])
def test_every_plot_is_built_in_the_shared_style(name):
    import matplotlib

    with matplotlib.rc_context({"font.family": "serif", "axes.titlesize": 30,
                                "xtick.labelsize": 30}):  # the caller's settings do not leak in
        figure = _every_plot()[name]
    figure.savefig(io.BytesIO(), format="png")
    axis = figure.axes[0]
    assert axis.title.get_fontfamily() == [STYLE["font.family"]]
    assert axis.title.get_fontsize() == STYLE["axes.titlesize"]
    assert axis.xaxis.get_major_ticks()[0].label1.get_fontsize() == STYLE["xtick.labelsize"]


@pytest.mark.parametrize("name", ["bands", "distributions", "fitted"])
def test_series_differ_in_colour_line_style_and_marker(name):
    figure = _every_plot()[name]
    handles = figure.axes[0].get_legend().legend_handles
    assert len(handles) >= 2
    for feature in ("get_color", "get_linestyle", "get_marker"):
        values = [getattr(handle, feature)() for handle in handles]
        assert len(set(values)) == len(values), feature
    assert handles[0].get_color() == SAFE_COLOURS[0]


def test_distribution_differences_from_a_reference_with_intervals():
    figure = _every_plot()["distributions"]
    assert len(figure.axes) == 2
    lower = figure.axes[1]
    zero, *differences = lower.lines
    assert tuple(zero.get_ydata()) == (0, 0)
    assert [line.get_label() for line in differences] == ["s", "w"]
    assert differences[0].get_ydata() == pytest.approx([29 / 40 - 30 / 40, 11 / 40 - 10 / 40])
    assert len(lower.collections) == 2  # one interval band per difference
    band = lower.collections[0].get_paths()[0].vertices[:, 1]
    assert band.min() < -0.025 and band.max() > 0.025  # 1 board in 40 is no difference
    assert lower.get_ylabel() == "share minus u"
    with pytest.raises(ValueError, match="difference_from"):
        plot_distributions(pd.DataFrame({"board": "b", "rule": ["u"], "bbbv": [1],
                                         "count": [1]}), value="bbbv", count="count",
                           series="rule", panel="board", title="T", xlabel="3BV",
                           difference_from="x")


def test_bands_too_narrow_to_see_are_named_in_the_title():
    assert _bands().get_suptitle() == "T"
    narrow = BANDS.assign(ci_low=BANDS["pass_rate"] - 0.002, ci_high=BANDS["pass_rate"] + 0.002)
    narrow.loc[0, "ci_low"] = 0.3
    assert _bands(narrow).get_suptitle() == (
        "T\n5 of 6 interval bands are narrower than the line (width < 0.01) at this n")


# Every plot function, drawn from small tables, with how many Axes it draws into.
LOSS_BINS = pd.DataFrame({"rule": "safe-click", "click_x": 0, "click_y": 0,
                          "kind": ["frontier", "off-frontier", "frontier"],
                          "guess_low": [1, 1, 2], "guess_high": [1, 1, 2],
                          "probability_low": [0.0, 0.2, 0.1],
                          "probability_high": [0.1, 0.3, 0.2], "losses": [5, 3, 2]})
WINS = pd.DataFrame({"board": ["9x9/10", "9x9/10", "30x16/99", "30x16/99"],
                     "rule": ["safe-click", "winxp", "safe-click", "winxp"],
                     "win_rate": [0.92, 0.9, 0.41, 0.39], "ci_low": [0.91, 0.899, 0.4, 0.38],
                     "ci_high": [0.93, 0.901, 0.42, 0.4], "policy": "best"})
DRAWN = {
    "plot_probability_map": (1, lambda **kw: plot_probability_map(GRID, title="T", **kw)),
    "plot_z_map": (1, lambda **kw: plot_z_map(4 * GRID - 2, title="T", reject=GRID > 0.9,
                                              **kw)),
    "plot_position": (1, lambda **kw: plot_position(np.array([[1, -1], [-1, -1]]), mines=1,
                                                    title="T", **kw)),
    "plot_proportion_bands": (2, _bands),
    "plot_intervals": (1, lambda **kw: plot_intervals(WINS, x="board", series="rule",
                                                      panel="policy", title="T",
                                                      xlabel="board", ylabel="win rate", **kw)),
    "plot_distributions": (2, lambda **kw: plot_distributions(
        pd.DataFrame({"board": "b", "rule": ["u", "u", "s", "s"], "bbbv": [3, 4, 3, 4],
                      "count": [30, 10, 29, 11]}), value="bbbv", count="count",
        series="rule", panel="board", title="T", xlabel="3BV", difference_from="u", **kw)),
    "plot_fitted_curves": (2, _fitted),
    "plot_loss_analysis": (2, lambda **kw: plot_loss_analysis(LOSS_BINS, title="T", **kw)),
}


def test_every_plot_function_is_drawn_here_and_takes_ax():
    functions = [name for name in plots.__all__ if name.startswith("plot_")]
    assert sorted(DRAWN) == sorted(functions)
    assert [name for name in functions
            if "ax" not in inspect.signature(getattr(plots, name)).parameters] == []


@pytest.mark.parametrize("name", sorted(DRAWN))
def test_a_plot_draws_into_the_callers_axes_and_adds_nothing_to_the_figure(name):
    count, draw = DRAWN[name]
    own = draw()
    mine = Figure(layout="constrained")
    spare, *axes = mine.subplots(1, count + 1).flat
    drawn = draw(ax=axes[0] if count == 1 else axes)
    assert drawn is mine and not isinstance(drawn, plots.Figure)
    assert mine.get_suptitle() == "" and mine.legends == []
    assert axes[0].get_title().split("\n")[0] == "T" and not spare.has_data()
    # the same artists as on a figure of its own
    assert [len(axis.texts) for axis in axes] == [len(axis.texts) for axis in own.axes[:count]]
    assert all(axis.has_data() for axis in axes)
    mine.savefig(io.BytesIO(), format="png")


@pytest.mark.parametrize("name", ["plot_proportion_bands", "plot_loss_analysis"])
def test_axes_of_the_wrong_number_are_refused(name):
    count, draw = DRAWN[name]
    with pytest.raises(ValueError, match=f"ax holds 1 Axes; this figure needs {count}"):
        draw(ax=Figure().add_subplot())


@pytest.mark.parametrize("name", sorted(DRAWN))
def test_a_new_figure_shows_itself_as_a_png_in_ipython(name):
    from IPython.core.formatters import PNGFormatter

    figure = DRAWN[name][1]()
    assert isinstance(figure, plots.Figure) and repr(figure).startswith("<Figure size ")
    png = PNGFormatter()(figure)  # what a kernel without the inline backend sends
    assert png[:4] == b"\x89PNG" and len(png) > 1000


def test_intervals_sit_beside_each_other_at_each_category():
    figure = DRAWN["plot_intervals"][1]()
    axis = figure.axes[0]
    assert [label.get_text() for label in axis.get_xticklabels()] == ["9x9/10", "30x16/99"]
    safe, winxp = (bars.lines[0].get_xydata() for bars in axis.containers)
    assert safe[:, 1].tolist() == [0.92, 0.41] and winxp[:, 1].tolist() == [0.9, 0.39]
    assert (safe[:, 0] < winxp[:, 0]).all() and (np.abs(safe[:, 0] - [0, 1]) < 0.35).all()
    # the 9x9/10 winxp interval (0.002 wide) cannot be seen; the title says so
    assert figure.get_suptitle() == (
        "T\n1 of 4 intervals are narrower than their markers (width < 0.01) at this n")
