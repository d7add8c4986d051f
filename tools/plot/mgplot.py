"""Charts of mgtlm's measurement tools and of `mgtlm compare`, drawn with matplotlib
(Debian python3-matplotlib) into deterministic SVG.

bar_chart(path, title, categories, series, ylabel, stacked=False, logy=False)
    Bars: series = {name: [value per category]}; side by side, or stacked when the
    series are parts of a whole (the total is the bar's height); logy draws ratios on
    a base-2 axis from a line at 1.
line_chart(path, title, xlabel, ylabel, series, logx=False)
    Lines with markers: series = {name: [(x, y), ...]}; logx is a base-2 axis.
bar_figure / line_figure build the same charts as matplotlib Figures (for tests).

Decisions:
- Colours, hatches and markers come from palette.py, so a mechanism has one colour
  in every chart.
- No series hides another: grouped bars stand side by side; on line charts each
  series has its own marker and the later ones are drawn thinner and smaller on top,
  so equal series stay visible.
- Same input, same bytes (with the same matplotlib): the Agg backend, a fixed
  svg.hashsalt, no date and a fixed creator in the metadata, and text kept as SVG
  text (svg.fonttype none), so no glyph outlines of whatever font is installed are
  embedded; layout uses DejaVu Sans (Debian's fonts-dejavu-core, a dependency of
  python3-matplotlib).
"""
import math

import matplotlib

matplotlib.use("Agg")
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.ticker import FuncFormatter  # noqa: E402

import palette  # noqa: E402

RC = {
    "svg.hashsalt": "mgtlm",
    "svg.fonttype": "none",
    "font.family": "DejaVu Sans",
    "font.size": 10,
    "axes.titlesize": 12,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "hatch.linewidth": 0.8,
}
METADATA = {"Date": None, "Creator": "mgtlm tools/plot"}
SIZE = (8.0, 4.5)


def _figure(title, ylabel):
    fig = Figure(figsize=SIZE, layout="constrained")
    ax = fig.add_subplot()
    ax.set_title(title)
    ax.set_ylabel(ylabel)
    ax.grid(axis="y", color="#dddddd", linewidth=0.6)
    ax.set_axisbelow(True)
    return fig, ax


def _legend(ax):
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)


def _save(fig, path):
    with matplotlib.rc_context(RC):
        fig.savefig(path, format="svg", metadata=METADATA)
    return path


def bar_figure(title, categories, series, ylabel, stacked=False, logy=False):
    """The bar chart as a Figure (see bar_chart)."""
    with matplotlib.rc_context(RC):
        fig, ax = _figure(title, ylabel)
        names = list(series)
        st = palette.styles(names)
        n = max(len(names), 1)
        width = 0.8 if stacked else 0.8 / n
        bottom = [1.0 if logy else 0.0] * len(categories)
        for i, name in enumerate(names):
            vals = [float(v) - (1.0 if logy else 0.0) for v in series[name]]
            xs = [c + (0 if stacked else (i - (n - 1) / 2) * width)
                  for c in range(len(categories))]
            ax.bar(xs, vals, width * (1 if stacked else 0.92), bottom=bottom, label=name,
                   color=st[i]["colour"], hatch=st[i]["hatch"], edgecolor="white",
                   linewidth=0.6)
            if stacked:
                bottom = [b + v for b, v in zip(bottom, vals)]
        if logy:
            ax.set_yscale("log", base=2)
            ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: "%g" % v))
            ax.axhline(1.0, color="black", linewidth=0.8)
        long_labels = max((len(str(c)) for c in categories), default=0) > 10
        ax.set_xticks(range(len(categories)), [str(c) for c in categories],
                      rotation=30 if long_labels else 0,
                      ha="right" if long_labels else "center")
        _legend(ax)
    return fig


def line_figure(title, xlabel, ylabel, series, logx=False):
    """The line chart as a Figure (see line_chart)."""
    with matplotlib.rc_context(RC):
        fig, ax = _figure(title, ylabel)
        ax.set_xlabel(xlabel)
        names = list(series)
        st = palette.styles(names)
        xs = sorted({p[0] for pts in series.values() for p in pts})
        for i, name in enumerate(names):
            pts = sorted(series[name])
            ax.plot([p[0] for p in pts], [p[1] for p in pts], label=name,
                    color=st[i]["colour"], linestyle=st[i]["linestyle"],
                    marker=st[i]["marker"], linewidth=max(2.6 - 0.4 * i, 1.0),
                    markersize=max(9.0 - 1.2 * i, 3.5), zorder=2 + i)
        if logx:
            ax.set_xscale("log", base=2)
        if xs and (logx or len(xs) <= 12):
            ax.set_xticks(xs, [_fmt(x) for x in xs])
            ax.minorticks_off()
        _legend(ax)
    return fig


def _fmt(v):
    if float(v).is_integer():
        return "%d" % v
    return "%.3g" % v


def bar_chart(path, title, categories, series, ylabel, stacked=False, logy=False):
    """Writes the bar chart as SVG into path and returns path."""
    return _save(bar_figure(title, categories, series, ylabel, stacked, logy), path)


def line_chart(path, title, xlabel, ylabel, series, logx=False):
    """Writes the line chart as SVG into path and returns path."""
    return _save(line_figure(title, xlabel, ylabel, series, logx), path)


def log_ratio(v):
    """log2 of a ratio, 0 for a ratio that is not positive (used to rank changes)."""
    return abs(math.log2(v)) if v > 0 else 0.0
