"""Chart helpers every report section uses, so every chart follows the same rules.

* Every axis is labelled, with its unit: :func:`render_svg` refuses a figure with an unlabelled
  axis (or colour bar).
* Integer data (scores, rounds, margins) get one bin per integer, or bins a whole number of
  integers wide (:func:`bins`, :func:`integer_histogram`): bins of fractional width catch one
  integer in some bins and two in others, and draw a sawtooth that is not in the data.
* Rates are shown as dots with their 95% intervals around the reference they are read against
  (:func:`dot_interval`), on an axis fitted to the data and the reference: bars from zero hide
  the one- or two-point differences they are meant to show.
* Where exact numbers matter, an artist carries its value and interval as a hover text
  (:func:`tip`), written into the SVG as a ``<title>`` element.
"""
from __future__ import annotations

import html
import io
import math
import re
import weakref
from collections.abc import Mapping, Sequence

import numpy as np

from simlab.measures.stats import Estimate
from simlab.report.wording import CHANGE, POINTS, SHARE, Band, ReportError, fmt_estimate, fmt_value

MAX_BINS = 80
_TIPS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()   # figure -> {gid: hover text}


def new_figure(width: float = 7.0, height: float = 4.0, ncols: int = 1, nrows: int = 1):
    """A matplotlib figure on the Agg backend (no display needed), laid out so that labels never
    overlap; axes always as a 2-d array."""
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    return plt.subplots(nrows, ncols, figsize=(width, height), squeeze=False, layout="constrained")


def yerr(value, lo, hi):
    """Error-bar lengths below and above, clipped at 0 against rounding."""
    v, lo, hi = (np.asarray(x, dtype=float) for x in (value, lo, hi))
    return [np.clip(v - lo, 0, None), np.clip(hi - v, 0, None)]


def tip(artist, text: str) -> None:
    """Show ``text`` when the pointer rests on ``artist`` in the SVG (a ``<title>`` element)."""
    tips = _TIPS.setdefault(artist.figure, {})
    gid = f"tip-{len(tips) + 1}"
    artist.set_gid(gid)
    tips[gid] = text


def percent_axis(ax, unit: str = SHARE, axis: str = "y") -> None:
    """Tick labels in percent (a share) or signed percentage points (a difference of shares)."""
    from matplotlib.ticker import FuncFormatter, PercentFormatter

    target = ax.yaxis if axis == "y" else ax.xaxis
    if unit == SHARE:
        target.set_major_formatter(PercentFormatter(1.0))
    elif unit == POINTS:
        target.set_major_formatter(FuncFormatter(signed_points))


def signed_points(value, _position) -> str:
    """A tick of a difference of shares in signed percentage points (top level: figures are pickled
    to a renderer process)."""
    return f"{value * 100:+.3g}" if value else "0"


UNIT_SUFFIX = {SHARE: " (%)", POINTS: " (percentage points)"}


def dot_interval(ax, labels: Sequence, est, lo, hi, *, ylabel: str, xlabel: str, unit: str = SHARE,
                 reference: float | None = None, reference_label: str = "fair", band: Band | None = None,
                 label: str | None = None, offset: float = 0.0, what: str = "{}") -> None:
    """Dots with their 95% intervals at categorical positions ``labels`` (a NaN value: no dot), read
    against a ``reference`` line and a named ``band``; every dot shows its value and interval on hover.

    Call it once per series (``label``, ``offset``) on the same axes; pass ``reference`` and
    ``band`` once. ``what`` names a dot in its hover text, ``{}`` standing for its label
    ("4 players, seat {}"). The y axis is fitted to the intervals, the reference and the band, not to 0.
    """
    est, lo, hi = (np.asarray(x, dtype=float) for x in (est, lo, hi))
    x = np.arange(len(labels)) + offset
    colour = None
    for i, (xi, e, a, b) in enumerate(zip(x, est, lo, hi)):
        if not np.isfinite(e):      # a series without a value at this position
            continue
        c = ax.errorbar([xi], [e], yerr=yerr([e], [a], [b]), fmt="o", capsize=3, color=colour,
                        label=label if colour is None else None)
        colour = c.lines[0].get_color()
        text = f"{what.format(labels[i])}{' (' + label + ')' if label else ''}: " \
               f"{fmt_estimate(Estimate(e, a, b, 0, ''), unit)}"
        tip(c.lines[0], text)
        for bar in c.lines[2]:
            tip(bar, text)
    if band is not None:
        if band.kind == "floor":
            ax.axhline(band.lo, color="#c0392b", ls=":", lw=1.2, label=band.describe(unit))
        else:
            shade = {"fairness": "green", "effect": "grey", "quality": "#4c72b0"}[band.kind]
            ax.axhspan(band.lo, band.hi, color=shade, alpha=0.13, lw=0, label=band.describe(unit))
    if reference is not None:
        said = "" if reference == 0 and unit in (POINTS, CHANGE) else f" {fmt_value(reference, unit)}"   # no change: 0
        ax.axhline(reference, color="black", ls="--", lw=1, label=reference_label + said)
    ax.set_xticks(np.arange(len(labels)), [str(v) for v in labels])
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel + UNIT_SUFFIX.get(unit, ""))
    percent_axis(ax, unit)
    ax.margins(x=0.08, y=0.08)


def interval_band(ax, x, value, lo, hi, label: str, unit: str = SHARE, what: str = "{}") -> None:
    """A line through ``value`` over a numeric ``x`` with its shaded 95% interval band; every
    point shows its value and interval on hover (``what``: its name, ``{}`` standing for x)."""
    line, = ax.plot(x, value, marker="o", label=label)
    ax.fill_between(x, lo, hi, color=line.get_color(), alpha=0.18, lw=0)
    for xi, e, a, b in zip(x, value, lo, hi):
        dot, = ax.plot([xi], [e], "o", color=line.get_color())
        tip(dot, f"{what.format(f'{xi:g}')} ({label}): {fmt_estimate(Estimate(e, a, b, 0, ''), unit)}")
    percent_axis(ax, unit)


def bins(values) -> tuple[np.ndarray, int]:
    """Common bin edges for ``values`` and the number of integers each bin holds (0: not integers).

    Integer data: bins centred on the integers, one integer wide, or a whole number of integers
    wide when the range exceeds ``MAX_BINS`` values, so that every bin holds the same number of
    possible values. Other data: at most 60 equal bins.
    """
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    if not v.size:
        raise ReportError("a histogram needs at least one finite value")
    if np.all(v == np.round(v)):
        lo, hi = int(v.min()), int(v.max())
        width = max(1, math.ceil((hi - lo + 1) / MAX_BINS))
        return np.arange(lo, hi + 1 + width, width) - 0.5, width
    edges = np.histogram_bin_edges(v, bins="auto")
    return (edges if len(edges) <= 61 else np.linspace(v.min(), v.max(), 61)), 0


def integer_histogram(ax, series: Mapping[str, object], of: str = "games", xlabel: str = "") -> int:
    """Step histograms of several series on common :func:`bins` (heights: shares of ``of``);
    returns the number of integers per bin (0: the data are not integers)."""
    arrays = {k: np.asarray(v, dtype=float) for k, v in series.items()}
    arrays = {k: v[np.isfinite(v)] for k, v in arrays.items() if np.isfinite(v).any()}
    edges, width = bins(np.concatenate(list(arrays.values())) if arrays else [])
    for k, v in arrays.items():
        ax.hist(v, bins=edges, weights=np.full(v.size, 1.0 / v.size), histtype="step", lw=1.5, label=k)
    ax.set_ylabel(f"share of {of}" + (f" (%, bins of {width} values)" if width > 1 else " (%)"))
    percent_axis(ax, SHARE)
    if xlabel:
        ax.set_xlabel(xlabel)
    return width


def unlabelled_axes(fig) -> list[str]:
    """The axes of ``fig`` that lack an axis label (colour bars: the label along the bar)."""
    missing = []
    for i, ax in enumerate(fig.axes):
        if not ax.get_visible() or not ax.axison:
            continue
        bar = getattr(ax, "_colorbar", None)
        name = ax.get_title() or f"axes {i + 1}"
        if bar is not None:
            if not (ax.get_ylabel() if bar.orientation == "vertical" else ax.get_xlabel()):
                missing.append(f"colour bar of {name}")
            continue
        for axis, text in (("x", ax.get_xlabel()), ("y", ax.get_ylabel())):
            if not text.strip():
                missing.append(f"{axis} axis of {name}")
    return missing


def render_svg(fig, renderer: "Renderer | None" = None):
    """The figure as SVG text with hover titles, after checking its labels; closes the figure.
    With a :class:`Renderer`, a future of that text: the figure is drawn in another process
    while the caller goes on (drawing is most of a report's own time).

    Text stays text (small, searchable files), and ids and metadata are fixed so that the same
    figure always gives the same file. The saved box is the tight one: constrained layout cannot fit
    an axis label longer than a short figure's axes, which a figure-sized box then cuts off.
    """
    import matplotlib.pyplot as plt

    missing = unlabelled_axes(fig)
    tips = _TIPS.pop(fig, {})
    if missing:
        plt.close(fig)
        raise ReportError("chart without axis labels (every axis needs a label with its unit): " + ", ".join(missing))
    if renderer is not None:
        future = renderer.submit(fig, tips)
        if future is not None:
            plt.close(fig)
            return future
    svg = _draw(fig, tips)
    plt.close(fig)
    return svg


def _draw(fig, tips: dict) -> str:
    import matplotlib.pyplot as plt

    buf = io.StringIO()
    with plt.rc_context({"svg.fonttype": "none", "svg.hashsalt": "simlab"}):
        fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    svg = buf.getvalue()
    for gid, text in tips.items():
        svg = svg.replace(f'<g id="{gid}">', f'<g id="{gid}"><title>{html.escape(text)}</title>', 1)
    return re.sub(r"\s*<metadata>.*?</metadata>", "", svg, count=1, flags=re.S)


def draw_pickled(figure: bytes, tips: dict) -> str:
    """:func:`_draw` in a renderer process, from a pickled figure (top level, so it can be shipped)."""
    import pickle

    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    fig = pickle.loads(figure)
    try:
        return _draw(fig, tips)
    finally:
        plt.close(fig)


def _ignore_interrupt() -> None:
    """A Ctrl-C is the parent's to handle (it stops the renderer), as in simlab's worker pool."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


class Renderer:
    """One spawned process that draws a report's charts while the analysis goes on (an experiment
    opens one for its analysis; the SVG is the same as drawing in place). Started on the first
    chart; ``close`` waits for every chart and stops it."""

    def __init__(self):
        self._pool = None

    def submit(self, fig, tips: dict):
        """The future SVG of ``fig``; None when the figure cannot be pickled (the caller draws it)."""
        import multiprocessing
        import pickle
        from concurrent.futures import ProcessPoolExecutor

        try:
            figure = pickle.dumps(fig)
        except (pickle.PicklingError, AttributeError, TypeError):   # a local function in the figure: draw it here
            return None
        if self._pool is None:
            self._pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                                             initializer=_ignore_interrupt)
        return self._pool.submit(draw_pickled, figure, tips)

    def close(self, wait: bool = True) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=wait, cancel_futures=not wait)
            self._pool = None
