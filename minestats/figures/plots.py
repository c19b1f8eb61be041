"""Figures as matplotlib Figures: heat maps over a board, curves with bands, histograms.

Heat maps (`plot_probability_map`, `plot_z_map`) and positions (`plot_position`):
the board is drawn cell by cell with visible edges, in the package's coordinates:
``x`` the column increasing to the right, ``y`` the row increasing downwards, the
origin ``(0, 0)`` top-left and the value of cell ``(x, y)`` read from ``grid[y, x]``.
A position is drawn as `minestats.inference.html` draws it, in the same colours:
numbers on open cells, flags, and each hidden cell's mine probability as text and
colour on a fixed scale from 0 to 1, the safest outlined.
Small boards (both sides at most `ANNOTATE_LIMIT`) carry their value in each cell.
A heat map's title (the figure's suptitle) sets its smallest width, however narrow
the board. A z-map's
colour scale reaches the largest ``|z|`` unless a narrower ``limit`` is asked for, and
then the colour bar says that it is clipped and where the largest ``|z|`` lies.

Tables (`plot_proportion_bands`, `plot_intervals`, `plot_distributions`,
`plot_fitted_curves`, `plot_loss_analysis`) are
drawn from tidy DataFrames: one panel per value of a ``panel`` column, one style per
value of a ``series`` column, in the order the values first appear. Each series has
a colour-blind-safe colour (`SAFE_COLOURS`, Okabe and Ito), a line style and a
marker at once, so curves stay distinct in grey and where they overlap. Where
interval bands or bars are too narrow to see, the figure title says so
(`plot_proportion_bands`, `plot_intervals`), or differences from a reference series are drawn with
their own intervals (`plot_distributions` with ``difference_from``).

One style for every figure: each plot function builds its figure inside
``matplotlib.rc_context(STYLE)``, which fixes the font (DejaVu Sans, shipped with
matplotlib, so every machine draws the same), font sizes, line widths and the
colour cycle. The settings stay with the figure's artists, so a figure saved
later looks the same.

Figures are built without pyplot, so no global state is touched and no backend
needs choosing; save them with `minestats.io.result_files.write_figure` (PNG and its PDF
twin) or ``Figure.savefig``. Each is a `Figure`, a `matplotlib.figure.Figure` that
also draws itself as a PNG for IPython (``_repr_png_``): returned as a notebook
cell's last expression, or passed to ``display``, it shows as an image in a fresh
kernel, without ``%matplotlib inline`` (with it, the inline backend draws it, the
same way).

Every plot function takes ``ax=``, to draw into axes of the caller's own figure
(such as one of ``pyplot.subplots``); it then returns that figure and adds nothing
at the figure's level: ``title`` heads the (first) axes instead of the figure, and a
z-map's legend goes under its axes. A plot of several panels takes one Axes per
panel (`plot_distributions` with ``difference_from``: two rows of them, the shares
above the differences; `plot_loss_analysis`: two per setting).
"""

from __future__ import annotations

import functools
import io

import matplotlib
import numpy as np
from matplotlib import cycler
from matplotlib import figure as mpl_figure
from matplotlib.colors import Normalize
from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle
from matplotlib.ticker import MaxNLocator

from minestats.inference import mine_probabilities
from minestats.inference.html import (
    FLAG_COLOUR,
    OPEN_COLOUR,
    PROBABILITY_COLOURS,
    SAFEST_COLOUR,
    probability_text,
    safest_cells,
    text_colour,
)

__all__ = [
    "ANNOTATE_LIMIT",
    "SAFE_COLOURS",
    "STYLE",
    "Z_LIMIT",
    "plot_distributions",
    "plot_fitted_curves",
    "plot_intervals",
    "plot_loss_analysis",
    "plot_position",
    "plot_probability_map",
    "plot_proportion_bands",
    "plot_z_map",
]

ANNOTATE_LIMIT = 16
Z_LIMIT = 4.0
"""The narrowest default colour scale of `plot_z_map`, -4 to +4: noise stays pale."""
SAFE_COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000")
"""Okabe and Ito's colour-blind-safe palette (blue, vermillion, green, purple, orange,
sky blue, black; yellow left out: too light on white)."""
_LINE_STYLES = ("-", "--", "-.", ":", (0, (8, 2)), (0, (3, 1, 1, 1, 1, 1)), (0, (1, 3)))
_MARKERS = ("o", "s", "^", "D", "v", "P", "X")
STYLE = {
    "font.family": "DejaVu Sans",
    "font.size": 9.0,
    "axes.titlesize": 10.0,
    "axes.labelsize": 9.0,
    "figure.titlesize": 10.0,
    "xtick.labelsize": 8.0,
    "ytick.labelsize": 8.0,
    "legend.fontsize": 8.0,
    "legend.title_fontsize": 8.0,
    "legend.frameon": False,
    "axes.linewidth": 0.8,
    "lines.linewidth": 1.5,
    "lines.markersize": 4.0,
    "grid.alpha": 0.3,
    "grid.linewidth": 0.6,
    "axes.prop_cycle": cycler(color=SAFE_COLOURS, linestyle=_LINE_STYLES),
}
"""The rc settings every figure of this module is built with (see the module notes)."""
_NARROW = 0.01  # a band under 1% of the axis height is hidden by a 1.5-point line
_CELL_INCHES = 0.42
_HIDDEN_COLOUR = "0.85"
_TITLE_MARGIN_INCHES = 0.1


class Figure(mpl_figure.Figure):
    r"""A matplotlib Figure that IPython shows as a PNG image without the inline backend.

    Every plot function of this module returns one (or, given ``ax=``, the figure
    of those axes). It behaves as `matplotlib.figure.Figure` in every other way.

    Examples
    --------
    >>> figure = Figure(figsize=(2, 1))
    >>> figure.add_subplot().plot([0, 1])[0].get_xydata().tolist()
    [[0.0, 0.0], [1.0, 1.0]]
    >>> figure._repr_png_()[:4]  # what a notebook shows
    b'\x89PNG'
    """

    def _repr_png_(self) -> bytes:
        """Return the figure as PNG bytes, cropped to what is drawn, for IPython."""
        buffer = io.BytesIO()
        self.savefig(buffer, format="png", bbox_inches="tight")
        return buffer.getvalue()


def _axes_or_figure(ax, figsize):
    """Return ``(figure, axes, own)``: ``ax`` and its figure, or a new `Figure`'s axes."""
    if ax is not None:
        return ax.figure, ax, False
    figure = Figure(figsize=figsize, layout="constrained")
    return figure, figure.add_subplot(), True


def _given_axes(ax, rows, columns):
    """Return ``ax`` as an object array (rows x columns); ValueError if it holds another count."""
    axes = np.asarray(ax, dtype=object)
    if axes.size != rows * columns:
        raise ValueError(f"ax holds {axes.size} Axes; this figure needs {rows * columns} "
                         f"({rows} row{'s' * (rows > 1)} of {columns})")
    return axes.reshape(rows, columns)


def _title(figure, axis, title, own) -> None:
    """Put ``title`` over ``figure`` (``own``) or over ``axis``, above its own title."""
    if own:
        figure.suptitle(title)
    else:
        existing = axis.get_title()
        axis.set_title(f"{title}\n{existing}" if existing else title)


def _styled(plot):
    """Build ``plot``'s figure inside ``matplotlib.rc_context(STYLE)``."""
    @functools.wraps(plot)
    def styled(*args, **kwargs):
        with matplotlib.rc_context(STYLE):
            return plot(*args, **kwargs)

    return styled


def _series_styles(names) -> dict:
    """One colour, line style and marker per series name, in order, as Line2D options."""
    return {name: {"color": SAFE_COLOURS[i % len(SAFE_COLOURS)],
                   "linestyle": _LINE_STYLES[i % len(_LINE_STYLES)],
                   "marker": _MARKERS[i % len(_MARKERS)]} for i, name in enumerate(names)}


def _as_grid(grid, name: str, *, nan: bool = False) -> np.ndarray:
    """Return ``grid`` as a 2-D float array; NaN is refused unless ``nan``."""
    array = np.asarray(grid, dtype=float)
    if array.ndim != 2 or 0 in array.shape:
        raise ValueError(f"{name} must be a non-empty 2-D array (height, width); "
                         f"got shape {array.shape}")
    if not nan and np.isnan(array).any():
        raise ValueError(f"{name} holds {int(np.isnan(array).sum())} NaN values")
    return array


def _hidden_cells(mask, grid, name: str) -> np.ndarray:
    """Return ``mask`` as a bool array of ``grid``'s shape (all False for None)."""
    hidden = np.zeros(grid.shape, dtype=bool) if mask is None else np.asarray(mask, dtype=bool)
    if hidden.shape != grid.shape:
        raise ValueError(f"mask has shape {hidden.shape}, {name} has shape {grid.shape}")
    if hidden.all():
        raise ValueError(f"mask hides every cell of {name}")
    return hidden


def _widen_to_fit(figure, text) -> None:
    """Widen ``figure`` so that ``text``, centred on it, fits with a margin each side."""
    width = text.get_window_extent().width / figure.dpi + 2 * _TITLE_MARGIN_INCHES
    figure.set_figwidth(max(figure.get_figwidth(), width))


def _board_figsize(height: int, width: int) -> tuple[float, float]:
    """Return the size in inches of a new figure of a board (cells, labels, colour bar)."""
    return max(4.5, 1.8 + _CELL_INCHES * width), max(3.5, 1.4 + _CELL_INCHES * height)


def _heat_map(grid, *, title, cmap, norm, label, value_format, annotate, extend, ax):
    """Draw ``grid`` cell by cell in ``ax`` (or a new Figure); return figure, axes, own."""
    height, width = grid.shape
    if annotate is None:
        annotate = max(height, width) <= ANNOTATE_LIMIT
    figure, axes, own = _axes_or_figure(ax, _board_figsize(height, width))
    mesh = axes.pcolormesh(np.arange(width + 1) - 0.5, np.arange(height + 1) - 0.5, grid,
                           cmap=cmap, norm=norm, edgecolors="0.35", linewidth=0.4)
    axes.set_xlim(-0.5, width - 0.5)
    axes.set_ylim(height - 0.5, -0.5)  # row 0 at the top
    axes.set_aspect("equal")
    axes.set_xlabel("x (column)")
    axes.set_ylabel("y (row)")
    for axis, size in ((axes.xaxis, width), (axes.yaxis, height)):
        axis.set_major_locator(MaxNLocator(nbins=min(size, ANNOTATE_LIMIT), integer=True))
    axes.tick_params(length=2)
    if own:
        _widen_to_fit(figure, figure.suptitle(title))  # over the board and its colour bar
    else:
        axes.set_title(title)
    colorbar = figure.colorbar(mesh, ax=axes, extend=extend, shrink=0.9)
    colorbar.set_label(label)
    hidden = np.ma.getmaskarray(grid)
    if hidden.any():
        axes.set_facecolor(_HIDDEN_COLOUR)
    if annotate:
        for (y, x), value in np.ndenumerate(np.ma.getdata(grid)):
            if hidden[y, x]:
                continue
            axes.text(x, y, format(value, value_format), ha="center", va="center",
                      fontsize=_cell_font(width), color=text_colour(mesh.cmap(mesh.norm(value))))
    return figure, axes, own


def _cell_font(width: int) -> float:
    """Return the font size of a value in a cell, on a board ``width`` cells across."""
    return 7 if width <= 9 else 5.5


@_styled
def plot_probability_map(grid, *, title, label="P(first click opens)", limits=None,
                         cmap="viridis", value_format=".2f", annotate=None,
                         mask=None, ax=None) -> Figure:
    r"""Heat map of a probability per cell, such as `~minestats.opening_probability_map`.

    Parameters
    ----------
    grid : array_like of float, shape (height, width)
        ``grid[y, x]`` is the value at cell ``(x, y)``; all values in [0, 1], or NaN
        on a cell that has none (a revealed cell of
        `minestats.inference.MineProbabilities.probability`), left blank as a masked one.
    title : str
        Figure title; name the board and rule (and n and seed for estimates).
    label : str, optional
        Colour-bar label.
    limits : tuple of float, optional
        Colour-scale ``(low, high)``; default the range of ``grid``, or (0, 1) if
        ``grid`` is constant.
    cmap : str or matplotlib.colors.Colormap, optional
        Colour map, default ``"viridis"`` (perceptually uniform).
    value_format : str, optional
        Format of the per-cell values, default ``".2f"``.
    annotate : bool, optional
        Print the value in each cell; default when both sides are at most
        `ANNOTATE_LIMIT` cells.
    mask : array_like of bool, shape (height, width), optional
        Cells to leave blank (light grey, no value), such as the cells a first-click
        rule keeps mine-free; they are left out of the default colour limits, as are
        the NaN cells.
    ax : matplotlib.axes.Axes, optional
        Where to draw (the colour bar beside it, ``title`` above it); by default the
        axes of a new `Figure`, ``title`` above the figure.

    Returns
    -------
    Figure
        The new figure, or the figure of ``ax``.

    Raises
    ------
    ValueError
        If ``grid`` is not 2-D, holds values outside [0, 1], ``limits`` is not
        increasing, ``mask`` has another shape, or ``mask`` and the NaN cells hide
        every cell.

    Examples
    --------
    >>> from minestats.foundations.board import BEGINNER
    >>> from minestats.mechanics.opening_probabilities import opening_probability_map
    >>> grid = opening_probability_map(BEGINNER, rule="uniform")
    >>> figure = plot_probability_map(grid, title="9x9/10, uniform")
    >>> axes = figure.axes[0]
    >>> [float(v) for v in (*axes.get_xlim(), *axes.get_ylim())]  # y downwards from the top
    [-0.5, 8.5, 8.5, -0.5]
    >>> len(axes.texts), axes.texts[0].get_text()  # one value per cell; (0, 0) first
    (81, '0.58')

    A mask blanks cells and keeps them out of the colour scale:

    >>> mask = np.zeros((9, 9), dtype=bool)
    >>> mask[3:6, 3:6] = True
    >>> axes = plot_probability_map(np.where(mask, 0.0, 0.2 + grid / 2), title="t",
    ...                             mask=mask).axes[0]
    >>> len(axes.texts), bool(axes.collections[0].norm.vmin == 0.2 + grid[~mask].min() / 2)
    (72, True)

    Mine probabilities leave their revealed cells (NaN) blank:

    >>> from minestats.inference import mine_probabilities
    >>> result = mine_probabilities("1??\n???", mines=1)
    >>> [text.get_text() for text in plot_probability_map(
    ...     result.probability, title="t", label="P(mine)").axes[0].texts]
    ['0.33', '0.00', '0.33', '0.33', '0.00']
    """
    grid = _as_grid(grid, "grid", nan=True)
    hidden = _hidden_cells(mask, grid, "grid") | np.isnan(grid)
    if hidden.all():
        raise ValueError("grid has no value to show: every cell is NaN or masked")
    shown = grid[~hidden]
    if shown.min() < 0 or shown.max() > 1:
        raise ValueError(f"grid values must lie in [0, 1]; got range "
                         f"[{shown.min()}, {shown.max()}]")
    if limits is None:
        low, high = float(shown.min()), float(shown.max())
        limits = (low, high) if low < high else (0.0, 1.0)
    low, high = limits
    if not low < high:
        raise ValueError(f"limits ({low}, {high}) must be increasing")
    figure, _, _ = _heat_map(np.ma.masked_array(grid, hidden), title=title, cmap=cmap,
                             norm=Normalize(low, high), label=label, value_format=value_format,
                             annotate=annotate, extend="neither", ax=ax)
    return figure


@_styled
def plot_position(numbers, *, probabilities=None, flags=None, mines=None, rule=None,
                  click=None, ax=None, coordinates=True, title=None,
                  colorbar=True) -> Figure:
    r"""Draw a position: its numbers, its flags, and each hidden cell's mine probability.

    Each hidden cell is coloured by its mine probability on a fixed scale from 0 to 1
    (`minestats.inference.html.PROBABILITY_COLOURS`, as the HTML pages) and carries
    it as text (`minestats.inference.html.probability_text`); the safest hidden cells
    are outlined. Open cells show their number (blank for 0), flags an ``F``. All
    values are text, so a PDF or SVG keeps them sharp at any size.

    Parameters
    ----------
    numbers : array_like of int, shape (height, width)
        The revealed numbers, -1 on hidden cells (`minestats.parse_position` reads
        them from a position's text).
    probabilities : MineProbabilities or array_like of float, optional
        The mine probability of every hidden cell (NaN elsewhere may stand); by
        default `minestats.inference.mine_probabilities` of the position, with
        ``mines``, ``rule`` and ``click``.
    flags : array_like of bool, optional
        Flagged cells.
    mines : int, optional
        The total mine count, for the default probabilities.
    rule, click : optional
        The first-click rule and click, for the default probabilities (only
        ``winxp`` weighs the layouts).
    ax : matplotlib.axes.Axes, optional
        Where to draw; by default the axes of a new Figure.
    coordinates : bool, optional
        Label every column (x, on top) and every row (y) with its index.
    title : str, optional
        Title of the axes.
    colorbar : bool, optional
        Add a colour bar of the probability scale beside the board.

    Returns
    -------
    Figure
        The figure of ``ax`` (a new one without it), the board drawn in ``ax``.

    Raises
    ------
    ValueError
        If ``numbers`` is not 2-D, an array has another shape, or a hidden cell has
        no probability; and as `mine_probabilities`.

    Examples
    --------
    A 1 whose mine is flagged: its other neighbours are safe, and the second mine is
    one of the two cells on the right.

    >>> from minestats import parse_position
    >>> numbers, flags = parse_position("1??\n?F?")
    >>> figure = plot_position(numbers, flags=flags, mines=2)
    >>> [text.get_text() for text in figure.axes[0].texts]
    ['1', '0', '.50', '0', 'F', '.50']
    >>> [patch.get_fill() for patch in figure.axes[0].patches]  # row by row
    [False, False, True]

    The two safest cells (certainly safe) are outlined, the flag filled.
    """
    numbers = np.asarray(numbers)
    if numbers.ndim != 2 or 0 in numbers.shape:
        raise ValueError(f"numbers must be a non-empty 2-D array (height, width); got shape "
                         f"{numbers.shape}")
    flags = np.zeros(numbers.shape, dtype=bool) if flags is None else np.asarray(flags, bool)
    if probabilities is None:
        probabilities = mine_probabilities(numbers, flags=flags, mines=mines, rule=rule,
                                           click=click)
    probability = _as_grid(getattr(probabilities, "probability", probabilities),
                           "probabilities", nan=True)
    for name, array in (("flags", flags), ("probabilities", probability)):
        if array.shape != numbers.shape:
            raise ValueError(f"{name} has shape {array.shape}, numbers has shape "
                             f"{numbers.shape}")
    hidden = (numbers < 0) & ~flags
    if np.isnan(probability[hidden]).any():
        raise ValueError(f"probabilities holds NaN on {int(np.isnan(probability[hidden]).sum())}"
                         " hidden cells")
    height, width = numbers.shape
    _, ax, _ = _axes_or_figure(ax, _board_figsize(height, width))
    shown = np.where(hidden, probability, np.nan)
    mesh = ax.pcolormesh(np.arange(width + 1) - 0.5, np.arange(height + 1) - 0.5,
                         np.ma.masked_invalid(shown), cmap=PROBABILITY_COLOURS,
                         norm=Normalize(0, 1), edgecolors="0.35", linewidth=0.4)
    ax.set_facecolor(OPEN_COLOUR)  # the open cells, under the grid of every cell
    ax.set_xticks(np.arange(width + 1) - 0.5, minor=True)
    ax.set_yticks(np.arange(height + 1) - 0.5, minor=True)
    ax.grid(which="minor", color="0.35", linewidth=0.4)
    ax.tick_params(which="minor", length=0)
    safest = safest_cells(shown)
    font = _cell_font(width)
    for (y, x), chance in np.ndenumerate(shown):
        if flags[y, x]:
            ax.add_patch(Rectangle((x - 0.5, y - 0.5), 1, 1, facecolor=FLAG_COLOUR,
                                   edgecolor="none"))
            ax.text(x, y, "F", ha="center", va="center", fontsize=font, fontweight="bold",
                    color="white")
        elif hidden[y, x]:
            ax.text(x, y, probability_text(chance), ha="center", va="center", fontsize=font,
                    color=text_colour(mesh.cmap(chance)))
            if safest[y, x]:
                ax.add_patch(Rectangle((x - 0.44, y - 0.44), 0.88, 0.88, fill=False,
                                       edgecolor=SAFEST_COLOUR, linewidth=1.6))
        elif numbers[y, x] > 0:
            ax.text(x, y, str(numbers[y, x]), ha="center", va="center", fontsize=font,
                    fontweight="bold", color="black")
    ax.set_xlim(-0.5, width - 0.5)
    ax.set_ylim(height - 0.5, -0.5)  # row 0 at the top
    ax.set_aspect("equal")
    if coordinates:
        ax.set_xticks(range(width))
        ax.set_yticks(range(height))
        ax.xaxis.tick_top()
        ax.xaxis.set_label_position("top")
        ax.set_xlabel("x (column)")
        ax.set_ylabel("y (row)")
        ax.tick_params(length=2, labelsize=8 if width <= 16 else 6)
    else:
        ax.set_xticks([])
        ax.set_yticks([])
    if title is not None:
        ax.set_title(title)
    if colorbar:
        ax.figure.colorbar(mesh, ax=ax, shrink=0.9, label="P(mine); outlined: the safest")
    return ax.figure


@_styled
def plot_z_map(z, *, title, reject=None, alpha=0.05, limit=None, label=None,
               cmap="RdBu_r", annotate=None, mask=None, ax=None) -> Figure:
    r"""Heat map of z-scores (Monte Carlo vs exact), centred on 0, marking Holm rejections.

    Parameters
    ----------
    z : array_like of float, shape (height, width)
        ``z[y, x]`` is the z-score at cell ``(x, y)``; infinite values are allowed
        and shown at the end of the scale.
    title : str
        Figure title; name the board, rule, n and seed.
    reject : array_like of bool, optional
        Cells a multiple-comparison procedure (Holm) rejects; each is outlined in
        black and counted in the legend. Default: no marking.
    alpha : float, optional
        Family-wise level of ``reject``, for the legend; default 0.05.
    limit : float, optional
        The colour scale runs symmetrically from ``-limit`` to ``+limit``. Default:
        the largest finite ``|z|`` of the shown cells, but at least `Z_LIMIT`, so no
        finite cell is clipped and a map of noise is not stretched to full colour.
        Cells beyond a smaller ``limit`` (and infinite ones) take the end colours;
        then the colour bar has arrows, and its label says where it is clipped and
        gives the largest ``|z|``.
    label : str, optional
        Colour-bar label; default ``"z = (MC - exact) / SE"``.
    cmap : str or matplotlib.colors.Colormap, optional
        A diverging colour map, default ``"RdBu_r"`` (white at 0).
    annotate : bool, optional
        Print z in each cell (one decimal); default as in `plot_probability_map`.
    mask : array_like of bool, optional
        Cells not tested, left blank (light grey) and out of the legend's count.
    ax : matplotlib.axes.Axes, optional
        Where to draw, as in `plot_probability_map`; the legend of ``reject`` then
        goes under the axes instead of under the figure.

    Returns
    -------
    Figure
        The new figure, or the figure of ``ax``.

    Raises
    ------
    ValueError
        If ``z`` is not 2-D or holds NaN, ``reject`` or ``mask`` has another shape,
        ``mask`` hides every cell or a rejected cell, or ``limit`` is not positive.

    Examples
    --------
    >>> import numpy as np
    >>> z = np.array([[0.5, -1.0, 5.0], [0.0, 2.0, -0.3]])
    >>> figure = plot_z_map(z, title="demo", reject=z > 4)
    >>> axes = figure.axes[0]
    >>> norm = axes.collections[0].norm
    >>> norm.vmin, norm.vmax  # the largest |z| is 5
    (-5.0, 5.0)
    >>> [patch.get_xy() for patch in axes.patches]  # the rejected cell (2, 0)
    [(1.5, -0.5)]

    A narrower scale says that it clips:

    >>> plot_z_map(z, title="demo", limit=2.0).axes[1].get_ylabel()
    'z = (MC - exact) / SE\n(colours clipped at +/-2; largest |z| 5.0)'
    """
    z = _as_grid(z, "z")
    hidden = _hidden_cells(mask, z, "z")
    magnitude = np.abs(z[~hidden])
    largest = float(magnitude.max())
    if limit is None:
        limit = max(Z_LIMIT, float(magnitude[np.isfinite(magnitude)].max(initial=0.0)))
    elif not limit > 0:
        raise ValueError(f"limit ({limit}) must be positive")
    if label is None:
        label = "z = (MC - exact) / SE"
    clipped = largest > limit
    if clipped:
        label = f"{label}\n(colours clipped at +/-{limit:g}; largest |z| {largest:.1f})"
    figure, axes, own = _heat_map(np.ma.masked_array(z, hidden), title=title, cmap=cmap,
                                  norm=Normalize(-limit, limit), label=label,
                                  value_format=".1f", annotate=annotate,
                                  extend="both" if clipped else "neither", ax=ax)
    if reject is not None:
        reject = np.asarray(reject, dtype=bool)
        if reject.shape != z.shape:
            raise ValueError(f"reject has shape {reject.shape}, z has shape {z.shape}")
        if (reject & hidden).any():
            raise ValueError(f"mask hides {int((reject & hidden).sum())} rejected cells")
        for y, x in np.argwhere(reject):
            axes.add_patch(Rectangle((float(x) - 0.5, float(y) - 0.5), 1, 1, fill=False,
                                     edgecolor="black", linewidth=2.0))
        marker = Line2D([], [], marker="s", markersize=10, markerfacecolor="none",
                        markeredgecolor="black", markeredgewidth=2.0, linestyle="none")
        text = (f"Holm rejects at alpha = {alpha}: {int(reject.sum())} of "
                f"{int((~hidden).sum())} cells")
        if own:
            figure.legend([marker], [text], loc="outside lower center", frameon=False)
        else:
            axes.legend([marker], [text], loc="upper center", bbox_to_anchor=(0.5, -0.12),
                        frameon=False)
    return figure


def _check_table(table, columns, *, name="table") -> None:
    """Raise ValueError unless ``table`` has rows and every one of ``columns``."""
    missing = sorted(set(columns) - set(table.columns))
    if missing:
        raise ValueError(f"{name} lacks the columns {missing}")
    if len(table) == 0:
        raise ValueError(f"{name} has no rows")


def _check_contains(table, low, value, high, *, what="interval") -> None:
    """Raise ValueError unless ``low <= value <= high`` on every row of ``table``."""
    if not ((table[low] <= table[value]) & (table[value] <= table[high])).all():
        raise ValueError(f"every {what} [{low}, {high}] must contain its {value}")


def _panels(table, *, panel, series, columns, rows=1, ax=None):
    """Check a tidy table; return a figure, its panels, series names, styles and ``own``.

    The panels are ``(axes column, panel value, that panel's rows)``, the axes those
    of ``ax`` (rows x panels) or of a new `Figure` (``own``); the styles are
    `_series_styles` of the series in order of appearance.
    """
    _check_table(table, {panel, series, *columns})
    panels = list(dict.fromkeys(table[panel]))
    names = list(dict.fromkeys(table[series]))
    own = ax is None
    if own:
        figure = Figure(figsize=(1.0 + 4.6 * len(panels), 4.4 + 2.6 * (rows - 1)),
                        layout="constrained")
        axes = figure.subplots(rows, len(panels), squeeze=False,
                               sharex="col" if rows > 1 else "none",
                               height_ratios=[1.6] + [1.0] * (rows - 1))
    else:
        axes = _given_axes(ax, rows, len(panels))
        figure = axes[0, 0].figure
    return figure, [(axes[:, i], value, table[table[panel] == value])
                    for i, value in enumerate(panels)], names, _series_styles(names), own


def _finish_axes(axis, *, title, xlabel, ylabel, series, handles=None) -> None:
    axis.set_title(title)
    axis.set_xlabel(xlabel)
    axis.set_ylabel(ylabel)
    axis.grid(True)
    axis.legend(handles=handles, title=series)


@_styled
def plot_proportion_bands(table, *, x, series, panel, title, xlabel, ylabel,
                          y="pass_rate", low="ci_low", high="ci_high", ylim=(0, 1),
                          ax=None) -> Figure:
    """Proportions against ``x`` with shaded interval bands: one panel per ``panel`` value.

    Parameters
    ----------
    table : pandas.DataFrame
        Tidy: one row per point, with columns ``x``, ``y``, ``low``, ``high``,
        ``series`` and ``panel``.
    x, series, panel : str
        Columns of the horizontal axis, the curve (one colour each) and the panel.
    title, xlabel, ylabel : str
        Figure title (name n and seed), axis labels.
    y, low, high : str, optional
        Columns of the estimate and its interval (default ``pass_rate``,
        ``ci_low``, ``ci_high``: a Wilson interval from `minestats.stats`).
    ylim : tuple of float, optional
        Vertical range, default (0, 1).
    ax : matplotlib.axes.Axes or array_like of Axes, optional
        One Axes per panel, to draw into instead of a new `Figure`; ``title`` then
        heads the first.

    Returns
    -------
    Figure
        The new figure, or the figure of ``ax``.

    Raises
    ------
    ValueError
        If a column is missing, the table is empty, an interval does not contain its
        estimate, or ``ax`` holds another number of Axes than there are panels.

    Examples
    --------
    >>> import pandas as pd
    >>> table = pd.DataFrame({"density": [0.1, 0.2, 0.1, 0.2], "pass_rate": [0.9, 0.5, 0.8, 0.3],
    ...                       "ci_low": [0.85, 0.45, 0.75, 0.25],
    ...                       "ci_high": [0.94, 0.55, 0.84, 0.35],
    ...                       "solver": ["logic", "logic", "subset", "subset"],
    ...                       "board": "16x16"})
    >>> figure = plot_proportion_bands(table, x="density", series="solver", panel="board",
    ...                                title="t", xlabel="mine density", ylabel="pass rate")
    >>> [line.get_label() for line in figure.axes[0].lines]
    ['logic', 'subset']
    >>> len(figure.axes[0].collections)  # one shaded band per curve
    2

    Bands too narrow to see are counted in the title:

    >>> narrow = table.assign(ci_low=table["pass_rate"] - 0.001,
    ...                       ci_high=table["pass_rate"] + 0.001)
    >>> plot_proportion_bands(narrow, x="density", series="solver", panel="board",
    ...                       title="t", xlabel="d", ylabel="p").get_suptitle().splitlines()[1]
    '4 of 4 interval bands are narrower than the line (width < 0.01) at this n'
    """
    figure, groups, names, styles, own = _panels(table, panel=panel, series=series,
                                                 columns=(x, y, low, high), ax=ax)
    _check_contains(table, low, y, high)
    for (axis,), value, rows in groups:
        for name in names:
            curve = rows[rows[series] == name].sort_values(x)
            if curve.empty:
                continue
            axis.fill_between(curve[x], curve[low], curve[high], color=styles[name]["color"],
                              alpha=0.25, linewidth=0)
            axis.plot(curve[x], curve[y], markersize=3.5, label=str(name), **styles[name])
        _finish_axes(axis, title=str(value), xlabel=xlabel, ylabel=ylabel, series=series)
        axis.set_ylim(*ylim)
    _title(figure, groups[0][0][0], _with_narrow_note(title, table, low, high, ylim,
                                                      "interval bands", "the line"), own)
    return figure


def _with_narrow_note(title, table, low, high, ylim, what, hidden_by) -> str:
    """Return ``title``, with a line counting the intervals too narrow to see, if any."""
    limit = _NARROW * (ylim[1] - ylim[0])
    narrow = int(((table[high] - table[low]) < limit).sum())
    return title if not narrow else (f"{title}\n{narrow} of {len(table)} {what} are narrower "
                                     f"than {hidden_by} (width < {limit:.2g}) at this n")


@_styled
def plot_intervals(table, *, x, series, panel, title, xlabel, ylabel, y="win_rate",
                   low="ci_low", high="ci_high", ylim=(0, 1), ax=None) -> Figure:
    """Estimates with their intervals at the categories of ``x``: one panel per ``panel`` value.

    Each category of ``x`` (a board, say) gets one point per series (a rule), side
    by side, with its interval as a bar; the categories keep the order in which they
    first appear. Where the bars are too narrow to see, the title says how many.

    Parameters
    ----------
    table : pandas.DataFrame
        Tidy: one row per estimate, with columns ``x``, ``y``, ``low``, ``high``,
        ``series`` and ``panel``.
    x, series, panel : str
        Columns of the categories, the point styles and the panels.
    title, xlabel, ylabel : str
        Figure title (name n and seed), axis labels.
    y, low, high : str, optional
        Columns of the estimate and its interval (default ``win_rate``, ``ci_low``,
        ``ci_high``, the columns of `minestats.WinRate.to_dict`).
    ylim : tuple of float, optional
        Vertical range, default (0, 1).
    ax : matplotlib.axes.Axes or array_like of Axes, optional
        One Axes per panel, to draw into instead of a new `Figure`; ``title`` then
        heads the first.

    Returns
    -------
    Figure
        The new figure, or the figure of ``ax``.

    Raises
    ------
    ValueError
        If a column is missing, the table is empty, an interval does not contain its
        estimate, or ``ax`` holds another number of Axes than there are panels.

    Examples
    --------
    >>> import pandas as pd
    >>> table = pd.DataFrame({"board": ["9x9/10", "9x9/10", "30x16/99"],
    ...                       "rule": ["safe-click", "winxp", "safe-click"],
    ...                       "win_rate": [0.92, 0.90, 0.41], "ci_low": [0.91, 0.89, 0.40],
    ...                       "ci_high": [0.93, 0.91, 0.42], "policy": "best"})
    >>> figure = plot_intervals(table, x="board", series="rule", panel="policy", title="t",
    ...                         xlabel="board", ylabel="win rate")
    >>> axis = figure.axes[0]
    >>> [label.get_text() for label in axis.get_xticklabels()]
    ['9x9/10', '30x16/99']
    >>> [line.get_label() for line in axis.get_legend().get_lines()]
    ['safe-click', 'winxp']
    """
    figure, groups, names, styles, own = _panels(table, panel=panel, series=series,
                                                 columns=(x, y, low, high), ax=ax)
    _check_contains(table, low, y, high)
    categories = list(dict.fromkeys(table[x]))
    step = 0.7 / len(names)
    for (axis,), value, rows in groups:
        handles = []
        for j, name in enumerate(names):
            points = rows[rows[series] == name]
            if points.empty:
                continue
            where = np.array([categories.index(c) for c in points[x]]) - 0.35 + step * (j + 0.5)
            style = styles[name]
            axis.errorbar(where, points[y],
                          yerr=[points[y] - points[low], points[high] - points[y]],
                          color=style["color"], marker=style["marker"], markersize=4.5,
                          linestyle="none", elinewidth=1.2, capsize=2)
            handles.append(Line2D([], [], label=str(name), linestyle="none",
                                  **{k: v for k, v in style.items() if k != "linestyle"}))
        axis.set_xticks(range(len(categories)), [str(c) for c in categories])
        _finish_axes(axis, title=str(value), xlabel=xlabel, ylabel=ylabel, series=series,
                     handles=handles)
        axis.grid(False, axis="x")
        axis.set_ylim(*ylim)
    _title(figure, groups[0][0][0], _with_narrow_note(title, table, low, high, ylim,
                                                      "intervals", "their markers"), own)
    return figure


@_styled
def plot_distributions(table, *, value, count, series, panel, title, xlabel,
                       difference_from=None, confidence_level=0.95, ax=None) -> Figure:
    """Histograms of counts as shares (step lines): one panel per ``panel`` value.

    Each ``series`` is normalised by its own total count within the panel, so
    series drawn with different numbers of boards compare directly. Distributions
    that nearly coincide are hard to tell apart even with distinct styles; give
    ``difference_from`` to add, under each panel, each other series' share minus
    that series' share, with a shaded Newcombe interval (the square-and-add of the
    two Wilson intervals, as `minestats.stats.difference_interval`) per value.

    Parameters
    ----------
    table : pandas.DataFrame
        Tidy: one row per value and series, with columns ``value``, ``count``,
        ``series`` and ``panel``; values with no row count as 0.
    value, count, series, panel : str
        Columns of the integer value, its count, the series and the panel.
    title, xlabel : str
        Figure title (name n and seed), horizontal-axis label.
    difference_from : str, optional
        A series to draw differences from, in a second row of panels.
    confidence_level : float, optional
        Coverage of the difference intervals, default 0.95.
    ax : matplotlib.axes.Axes or array_like of Axes, optional
        One Axes per panel (with ``difference_from``, two rows of them: shares
        above, differences below), to draw into instead of a new `Figure`;
        ``title`` then heads the first.

    Returns
    -------
    Figure
        The new figure, or the figure of ``ax``.

    Raises
    ------
    ValueError
        If a column is missing, the table is empty, a count is negative,
        ``difference_from`` is not a series of the table, or ``ax`` holds another
        number of Axes than the figure needs.

    Examples
    --------
    >>> import pandas as pd
    >>> table = pd.DataFrame({"bbbv": [1, 2, 2, 3], "count": [1, 3, 2, 2],
    ...                       "rule": ["a", "a", "b", "b"], "board": "9x9/10"})
    >>> figure = plot_distributions(table, value="bbbv", count="count", series="rule",
    ...                             panel="board", title="t", xlabel="3BV")
    >>> line = figure.axes[0].lines[0]
    >>> line.get_label(), line.get_ydata().tolist()  # shares of rule a at 1, 2, 3
    ('a', [0.25, 0.75, 0.0])

    With differences from series ``a``, a second row shows ``b`` minus ``a``:

    >>> figure = plot_distributions(table, value="bbbv", count="count", series="rule",
    ...                             panel="board", title="t", xlabel="3BV",
    ...                             difference_from="a")
    >>> zero, difference = figure.axes[1].lines
    >>> difference.get_label(), difference.get_ydata().tolist()
    ('b', [-0.25, -0.25, 0.5])
    """
    from minestats.stats import difference_interval

    rows_of_panels = 1 if difference_from is None else 2
    figure, groups, names, styles, own = _panels(table, panel=panel, series=series,
                                                 columns=(value, count), rows=rows_of_panels,
                                                 ax=ax)
    if (table[count] < 0).any():
        raise ValueError(f"column {count!r} holds negative counts")
    if difference_from is not None and difference_from not in names:
        raise ValueError(f"difference_from ({difference_from!r}) is not a {series} of the "
                         f"table: {names}")
    for axes, panel_value, rows in groups:
        span = np.arange(rows[value].min(), rows[value].max() + 1)
        counts = {name: rows[rows[series] == name].groupby(value)[count].sum()
                  .reindex(span, fill_value=0).to_numpy() for name in names
                  if (rows[series] == name).any()}
        every = max(1, len(span) // 12)  # markers tell the lines apart without clutter
        for name, counted in counts.items():
            axes[0].step(span, counted / counted.sum(), where="mid", markevery=every,
                         label=str(name), **styles[name])
        _finish_axes(axes[0], title=str(panel_value), xlabel=xlabel, ylabel="share of boards",
                     series=series)
        axes[0].set_ylim(bottom=0)
        if difference_from is None or difference_from not in counts:
            continue
        reference = counts[difference_from]
        ref_share = reference / reference.sum()
        axes[0].set_xlabel("")
        axes[0].tick_params(labelbottom=False)  # the difference panel below carries them
        axes[1].axhline(0, **{**styles[difference_from], "marker": "none"}, linewidth=1.0)
        for name, counted in counts.items():
            if name == difference_from:
                continue
            difference = counted / counted.sum() - ref_share
            low, high = difference_interval(counted, counted.sum(), reference, reference.sum(),
                                            confidence_level=confidence_level)
            axes[1].fill_between(span, low, high,
                                 step="mid", color=styles[name]["color"], alpha=0.25,
                                 linewidth=0)
            axes[1].step(span, difference, where="mid", markevery=every, label=str(name),
                         **styles[name])
        _finish_axes(axes[1], title="", xlabel=xlabel, ylabel=f"share minus {difference_from}",
                     series=f"{series} (shaded: {confidence_level:.0%} interval)")
    _title(figure, groups[0][0][0], title, own)
    return figure


@_styled
def plot_fitted_curves(points, curves, *, x, series, panel, title, xlabel, ylabel,
                       y="pass_rate", low="ci_low", high="ci_high", fit="fit",
                       fit_low="fit_low", fit_high="fit_high", marks=None, mark_level=0.5,
                       ylim=(0, 1), ax=None) -> Figure:
    """Measured proportions with their intervals, under fitted curves with confidence bands.

    One panel per ``panel`` value. Each series has one colour of `SAFE_COLOURS`, one
    line style and one marker: its points with interval bars, its fitted curve and a
    shaded band. Optional marks put a point with a horizontal interval at height
    ``mark_level`` on each curve, such as the density at which half the boards pass.

    Parameters
    ----------
    points : pandas.DataFrame
        Tidy: one row per measured point, with columns ``x``, ``y``, ``low``,
        ``high``, ``series`` and ``panel``.
    curves : pandas.DataFrame
        Tidy: the fitted curves on a grid of ``x``, with columns ``x``, ``fit``,
        ``fit_low``, ``fit_high``, ``series`` and ``panel``.
    x, series, panel : str
        Columns of the horizontal axis, the series and the panel, in both tables.
    title, xlabel, ylabel : str
        Figure title (name n, seed and the model), axis labels.
    y, low, high : str, optional
        Columns of the measured proportion and its interval in ``points``.
    fit, fit_low, fit_high : str, optional
        Columns of the fitted curve and its band in ``curves``.
    marks : pandas.DataFrame, optional
        One row per series and panel, with columns ``series``, ``panel``, ``mark``,
        ``mark_low`` and ``mark_high``; rows whose ``mark`` is NaN are skipped, NaN
        bounds draw no bar on that side. A dotted line shows ``mark_level``.
    mark_level : float, optional
        Height of the marks, default 0.5.
    ylim : tuple of float, optional
        Vertical range, default (0, 1).
    ax : matplotlib.axes.Axes or array_like of Axes, optional
        One Axes per panel, to draw into instead of a new `Figure`; ``title`` then
        heads the first.

    Returns
    -------
    Figure
        The new figure, or the figure of ``ax``.

    Raises
    ------
    ValueError
        If a column is missing, a table is empty, an interval does not contain its
        proportion, a band does not contain its curve, or ``ax`` holds another
        number of Axes than there are panels.

    Examples
    --------
    >>> import pandas as pd
    >>> points = pd.DataFrame({"density": [0.1, 0.2, 0.3], "pass_rate": [0.9, 0.5, 0.1],
    ...                        "ci_low": [0.85, 0.45, 0.07], "ci_high": [0.93, 0.55, 0.14],
    ...                        "solver": "logic", "board": "16x16"})
    >>> curves = pd.DataFrame({"density": [0.1, 0.2, 0.3], "fit": [0.88, 0.5, 0.12],
    ...                        "fit_low": [0.85, 0.47, 0.1], "fit_high": [0.9, 0.53, 0.14],
    ...                        "solver": "logic", "board": "16x16"})
    >>> marks = pd.DataFrame({"solver": ["logic"], "board": ["16x16"], "mark": [0.2],
    ...                       "mark_low": [0.19], "mark_high": [0.21]})
    >>> figure = plot_fitted_curves(points, curves, x="density", series="solver",
    ...                             panel="board", title="t", xlabel="mine density",
    ...                             ylabel="pass rate", marks=marks)
    >>> axis = figure.axes[0]
    >>> [text.get_text() for text in axis.get_legend().get_texts()]
    ['logic']
    >>> len(axis.collections)  # the band, the points' bars, the mark's bar
    3
    """
    figure, groups, names, styles, own = _panels(points, panel=panel, series=series,
                                                 columns=(x, y, low, high), ax=ax)
    _check_table(curves, {x, fit, fit_low, fit_high, series, panel}, name="curves")
    _check_contains(points, low, y, high)
    _check_contains(curves, fit_low, fit, fit_high, what="band")
    if marks is not None:
        missing = sorted({series, panel, "mark", "mark_low", "mark_high"} - set(marks.columns))
        if missing:
            raise ValueError(f"marks lacks the columns {missing}")
    for (axis,), value, rows in groups:
        handles = []
        for name in names:
            measured = rows[rows[series] == name].sort_values(x)
            curve = curves[(curves[panel] == value) & (curves[series] == name)].sort_values(x)
            if measured.empty and curve.empty:
                continue
            style = styles[name]
            if not curve.empty:
                axis.fill_between(curve[x], curve[fit_low], curve[fit_high],
                                  color=style["color"], alpha=0.2, linewidth=0)
                axis.plot(curve[x], curve[fit], color=style["color"],
                          linestyle=style["linestyle"])
            if not measured.empty:
                axis.errorbar(measured[x], measured[y],
                              yerr=[measured[y] - measured[low], measured[high] - measured[y]],
                              color=style["color"], marker=style["marker"], markersize=3.5,
                              linestyle="none", elinewidth=1, capsize=2)
            handles.append(Line2D([], [], label=str(name), **style))
        if marks is not None:
            axis.axhline(mark_level, color="0.5", linestyle=":", linewidth=0.8)
            here = marks[(marks[panel] == value) & marks["mark"].notna()]
            for row in here.to_dict("records"):
                centre, left, right = row["mark"], row["mark_low"], row["mark_high"]
                style = styles.get(row[series], {"color": "black", "marker": "o"})
                drawn = axis.errorbar([centre], [mark_level],
                                      xerr=[[0 if np.isnan(left) else centre - left],
                                            [0 if np.isnan(right) else right - centre]],
                                      color=style["color"], marker="|", markersize=12,
                                      markeredgewidth=2, capsize=4, linestyle="none")
                drawn.lines[0].set_gid("mark")
        _finish_axes(axis, title=str(value), xlabel=xlabel, ylabel=ylabel, series=series,
                     handles=handles)
        axis.set_ylim(*ylim)
    _title(figure, groups[0][0][0], title, own)
    return figure


@_styled
def plot_loss_analysis(bins, *, title, ax=None) -> Figure:
    """Where lost games die: the losing guesses by number in the game and by mine probability.

    One row of two panels per setting (rule and click): the games lost at a guess,
    stacked by the guess's kind, against the guess's number in the game and against
    its mine probability when it was made.

    Parameters
    ----------
    bins : pandas.DataFrame
        `minestats.drivers.win_rates.WinRate.loss_table` rows (``rule``, ``click_x``,
        ``click_y``, ``kind``, ``guess_low``, ``guess_high``, ``probability_low``,
        ``probability_high``, ``losses``).
    title : str
        Figure title (name n and seed).
    ax : array_like of matplotlib.axes.Axes, optional
        Two Axes per setting (by guess number, by probability), to draw into
        instead of a new `Figure`; ``title`` then heads the first.

    Returns
    -------
    Figure
        The new figure, or the figure of ``ax``.

    Raises
    ------
    ValueError
        If a column is missing, ``bins`` is empty, or ``ax`` holds another number of
        Axes than the figure needs.

    Examples
    --------
    >>> from minestats.drivers.win_rates import win_rate
    >>> bins = win_rate("9x9/10", n=100, seed=2, workers=1).loss_table()
    >>> figure = plot_loss_analysis(bins, title="9x9/10")
    >>> len(figure.axes)
    2
    """
    _check_table(bins, ["rule", "click_x", "click_y", "kind", "guess_low", "guess_high",
                        "probability_low", "probability_high", "losses"], name="bins")
    settings = list(dict.fromkeys(zip(bins["rule"], bins["click_x"], bins["click_y"],
                                      strict=True)))
    kinds = list(dict.fromkeys(bins["kind"]))
    own = ax is None
    if own:
        figure = Figure(figsize=(11, 3.6 * len(settings)), layout="constrained")
        axes = figure.subplots(len(settings), 2, squeeze=False)
    else:
        axes = _given_axes(ax, len(settings), 2)
        figure = axes[0, 0].figure
    for row, (rule, x, y) in enumerate(settings):
        part = bins[(bins["rule"] == rule) & (bins["click_x"] == x) & (bins["click_y"] == y)]
        for axis, low, high, label in ((axes[row, 0], "guess_low", "guess_high",
                                        "number of the losing guess in its game"),
                                       (axes[row, 1], "probability_low", "probability_high",
                                        "mine probability of the losing guess")):
            grouped = part.groupby([low, high, "kind"], sort=True)["losses"].sum().unstack(
                "kind", fill_value=0).reindex(columns=kinds, fill_value=0)
            names = [f"{a:g}" if a == b else f"{a:g}+" if b > 1e6 else f"{a:g}-{b:g}"
                     for a, b in grouped.index]
            bottom = np.zeros(len(grouped))
            for i, kind in enumerate(kinds):
                axis.bar(names, grouped[kind].to_numpy(), bottom=bottom, label=kind,
                         color=SAFE_COLOURS[i % len(SAFE_COLOURS)])
                bottom += grouped[kind].to_numpy()
            axis.set_xlabel(label)
            axis.set_ylabel("games lost")
            axis.set_title(f"{rule} ({x}, {y})")
            axis.tick_params(axis="x", labelrotation=45)
        axes[row, 1].legend(title="kind of guess")
    _title(figure, axes[0, 0], title, own)
    return figure
