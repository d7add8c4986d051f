"""Checks tools/plot (mgplot.py, palette.py): one bar per value, side by side or
stacked (each part starting where the previous ends), one line per series; the same
colour for a mechanism in every chart and distinct colours for distinct mechanisms;
no two series of a chart drawn alike; labels kept as SVG text; byte-identical SVG from
two processes with different hash seeds, with no date in it."""
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(sys.argv[1], "tools", "plot"))
import mgplot  # noqa: E402
import palette  # noqa: E402
from matplotlib.colors import to_hex  # noqa: E402
from tally import check, finish  # noqa: E402

NS = "{http://www.w3.org/2000/svg}"
SERIES = {"baseline": [1, 2, 3], "DualOpt none": [3, 0, 1.5],
          "DualOpt coalesce": [2, 2, 2]}


def bars(fig):
    ax = fig.axes[0]
    return [(c.get_label(), list(c)) for c in ax.containers]


def test_grouped():
    fig = mgplot.bar_figure("t", ["a", "b", "c"], SERIES, "bytes")
    got = bars(fig)
    check(len(got) == 3 and all(len(r) == 3 for _, r in got), "three series of 3 bars")
    xs = sorted((r.get_x(), r.get_x() + r.get_width()) for _, rs in got for r in rs)
    check(all(a[1] <= b[0] + 1e-9 for a, b in zip(xs, xs[1:])),
          "grouped bars do not overlap")
    heights = {name: [r.get_height() for r in rs] for name, rs in got}
    check(heights == {k: [float(v) for v in vs] for k, vs in SERIES.items()},
          "bar heights are the values")
    colours = {name: to_hex(rs[0].get_facecolor()) for name, rs in got}
    check(colours["baseline"] == palette.MECHANISMS["baseline"], "baseline colour")
    check(colours["DualOpt none"] == colours["DualOpt coalesce"] ==
          palette.MECHANISMS["dualopt"], "both DualOpt modes in DualOpt's colour")
    hatches = {name: rs[0].get_hatch() for name, rs in got}
    check(hatches["DualOpt none"] != hatches["DualOpt coalesce"],
          "two modes of one mechanism differ by hatch")


def test_stacked():
    parts = {"payload": [1, 2], "overhead": [3, 1], "padding": [0.5, 0.25]}
    got = bars(mgplot.bar_figure("parts", ["x", "y"], parts, "MB", stacked=True))
    check(len(got) == 3, "three stacked parts")
    for c in range(2):
        rs = [r[c] for _, r in got]
        check(all(abs(rs[i].get_x() - rs[0].get_x()) < 1e-9 for i in range(3)),
              "parts of one bar share x")
        check(all(abs(rs[i + 1].get_y() - (rs[i].get_y() + rs[i].get_height())) < 1e-9
                  for i in range(2)), "each part starts where the previous ends")
        check(abs(rs[2].get_y() + rs[2].get_height() - sum(v[c] for v in parts.values()))
              < 1e-9, "the stack's top is the whole")
    colours = [to_hex(r[0].get_facecolor()) for _, r in got]
    check(len(set(colours)) == 3, "parts in distinct colours")
    check(not set(colours) & set(palette.MECHANISMS.values()),
          "parts take no mechanism's colour")


def test_lines():
    series = {"rec": [(1, 2), (4, 3)], "dir-baseline": [(1, 2), (4, 3)],
              "hmg": [(1, 5), (2, 1), (4, 0)]}
    ax = mgplot.line_figure("l", "x", "y", series, logx=True).axes[0]
    lines = ax.get_lines()
    check([ln.get_label() for ln in lines] == list(series), "one line per series")
    check([len(ln.get_xdata()) for ln in lines] == [2, 2, 3], "every point drawn")
    looks = {(to_hex(ln.get_color()), ln.get_marker(), ln.get_linestyle(),
              ln.get_markersize()) for ln in lines}
    check(len(looks) == 3, "equal series still drawn differently (none hidden)")
    check(to_hex(lines[0].get_color()) == palette.MECHANISMS["rec"], "rec colour")
    check(ax.get_xscale() == "log", "log x axis")
    check([t.get_text() for t in ax.get_xticklabels()] == ["1", "2", "4"],
          "x ticks at the data")


def test_palette():
    check(len(set(palette.MECHANISMS.values())) == len(palette.MECHANISMS),
          "one colour per mechanism")
    for name, mech in (("gpu16-dir-baseline.json", "dir-baseline"),
                       ("gpu4-baseline", "baseline"), ("P2P stores", "baseline"),
                       ("CARVE hwc", "carve"), ("record", None), ("uniform", None),
                       ("rec (equal storage)", "rec")):
        check(palette.mechanism(name) == mech, "mechanism(%r) == %r" % (name, mech))


SCRIPT = """
import sys
sys.path.insert(0, sys.argv[1])
import mgplot
mgplot.bar_chart(sys.argv[2], "Title <&>", ["a", "b"], {"baseline": [1, 2],
                 "FinePack": [2, 1]}, "y label")
mgplot.line_chart(sys.argv[3], "Lines", "x label", "y", {"rec": [(1, 1), (2, 3)]})
"""


def test_svg():
    plot_dir = os.path.join(sys.argv[1], "tools", "plot")
    with tempfile.TemporaryDirectory() as d:
        outs = []
        for seed in ("1", "2"):
            paths = [os.path.join(d, "%s-%s.svg" % (k, seed)) for k in ("bar", "line")]
            env = dict(os.environ, PYTHONHASHSEED=seed)
            r = subprocess.run([sys.executable, "-c", SCRIPT, plot_dir] + paths, env=env,
                               capture_output=True, text=True)
            check(r.returncode == 0, "plot script runs: " + r.stderr[-300:])
            outs.append([open(p, "rb").read() if os.path.exists(p) else b""
                         for p in paths])
        check(outs[0] == outs[1] and outs[0][0], "byte-identical SVG across processes")
        text = outs[0][0].decode()
        check("<dc:date>" not in text, "no date in the SVG")
        root = ET.fromstring(outs[0][0])
        words = " ".join("".join(t.itertext()) for t in root.iter(NS + "text"))
        for want in ("Title <&>", "y label", "baseline", "FinePack"):
            check(want in words, "SVG text holds %r" % want)


test_grouped()
test_stacked()
test_lines()
test_palette()
test_svg()
finish()
