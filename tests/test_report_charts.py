"""Chart rules (simlab.report.charts): integer-aware bins, labelled axes, dot-and-interval plots on an
axis fitted to the data, hover values written into the SVG."""
import re

import numpy as np
import pytest

from simlab.report import charts
from simlab.report.wording import Band, ReportError


def test_integer_data_get_bins_centred_on_integers_with_a_whole_number_of_values_each():
    values = np.repeat(np.arange(0, 201), 10)          # every integer 0..200 equally often: a flat histogram
    edges, width = charts.bins(values)
    assert width == 3 and edges[0] == -0.5 and np.allclose(np.diff(edges), 3)
    counts, _ = np.histogram(values, edges)
    assert (counts == counts[0]).all()                 # flat data draw a flat histogram
    sawtooth, _ = np.histogram(values, 60)             # 60 equal bins over 201 integers: 3 or 4 values per bin
    assert len(set(sawtooth)) > 1


def test_a_small_integer_range_gets_one_bin_per_integer_and_other_data_equal_bins():
    edges, width = charts.bins([3, 4, 4, 7])
    assert width == 1 and list(edges) == [2.5, 3.5, 4.5, 5.5, 6.5, 7.5]
    edges, width = charts.bins(np.linspace(0, 1, 1000))
    assert width == 0 and len(edges) <= 61


def test_integer_histogram_labels_its_share_axis_and_draws_every_series():
    fig, axes = charts.new_figure()
    ax = axes[0][0]
    charts.integer_histogram(ax, {"2 players": [1, 2, 2, 3], "3 players": [2, 3, 3, 3]}, xlabel="score (points)")
    assert ax.get_ylabel() == "share of games (%)" and len(ax.patches) == 2
    assert charts.render_svg(fig).count("<svg") == 1     # accepted: both axes labelled


def test_dot_interval_fits_the_axis_to_the_intervals_and_the_reference_not_to_zero():
    fig, axes = charts.new_figure()
    ax = axes[0][0]
    charts.dot_interval(ax, ["1", "2", "3", "4"], [0.262, 0.248, 0.245, 0.245], [0.255, 0.241, 0.238, 0.238],
                        [0.269, 0.255, 0.252, 0.252], ylabel="win rate", xlabel="seat", reference=0.25,
                        band=Band.fairness(0.25, 0.02))
    lo, hi = ax.get_ylim()
    assert 0.2 < lo < 0.238 and 0.269 < hi < 0.3
    assert ax.get_ylabel() == "win rate (%)"
    svg = charts.render_svg(fig)
    titles = re.findall(r"<title>([^<]*)</title>", svg)
    assert len(titles) == 8                            # dot and interval bar of each seat carry the numbers
    assert "1: 26.2% [25.5%, 26.9%]" in titles


def test_dot_interval_skips_a_missing_value_instead_of_plotting_it_elsewhere():
    fig, axes = charts.new_figure()
    ax = axes[0][0]
    charts.dot_interval(ax, ["with Allen", "without Allen", "3 players"], [0.6, 0.62, np.nan], [0.55, 0.57, np.nan],
                        [0.65, 0.67, np.nan], ylabel="win rate", xlabel="game", label="against collector")
    points = [line.get_xdata()[0] for line in ax.lines if line.get_marker() == "o"]
    assert points == [0, 1]
    charts.render_svg(fig)


def test_a_chart_with_an_unlabelled_axis_or_colour_bar_is_refused():
    fig, axes = charts.new_figure()
    axes[0][0].plot([1, 2], [3, 4])
    axes[0][0].set_xlabel("players")
    with pytest.raises(ReportError, match="y axis"):
        charts.render_svg(fig)
    fig, axes = charts.new_figure()
    ax = axes[0][0]
    im = ax.imshow(np.eye(3))
    ax.set_xlabel("temple space")
    ax.set_ylabel("beach space")
    fig.colorbar(im, ax=ax)
    with pytest.raises(ReportError, match="colour bar"):
        charts.render_svg(fig)


def test_the_same_figure_always_gives_the_same_svg_and_no_rasterised_text():
    def draw():
        fig, axes = charts.new_figure()
        charts.dot_interval(axes[0][0], ["a", "b"], [0.4, 0.5], [0.3, 0.4], [0.5, 0.6], ylabel="rate", xlabel="x")
        return charts.render_svg(fig)

    one, two = draw(), draw()
    assert one == two and "<text" in one and "<metadata>" not in one


def test_a_chart_drawn_by_the_renderer_process_is_the_chart_drawn_in_place_hover_titles_included():
    """Experiments draw charts in a renderer process while the analysis goes on: same file."""
    from matplotlib.ticker import FuncFormatter

    from simlab.report.wording import POINTS

    def figure():
        fig, axes = charts.new_figure()
        charts.dot_interval(axes[0][0], ["a", "b"], [0.4, 0.5], [0.3, 0.4], [0.5, 0.6], ylabel="rate", xlabel="x")
        charts.percent_axis(axes[0][0], POINTS)
        return fig

    renderer = charts.Renderer()
    try:
        later = charts.render_svg(figure(), renderer)
        assert later.result(timeout=120) == charts.render_svg(figure())
        assert "<title>" in later.result() and ">+40<" in later.result()
        local = figure()   # a figure holding a local function cannot travel: drawn in place instead
        local.axes[0].xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
        assert isinstance(charts.render_svg(local, renderer), str)
    finally:
        renderer.close()
