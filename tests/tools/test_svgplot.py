"""Checks tools/plot/svgplot.py: output is well-formed SVG with one bar per value,
one polyline per multi-point series, deterministic bytes, and values placed in order."""
import os
import sys
import tempfile
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(sys.argv[1], "tools", "plot"))
import svgplot  # noqa: E402
from tally import check, finish  # noqa: E402

NS = "{http://www.w3.org/2000/svg}"

with tempfile.TemporaryDirectory() as d:
    bar = svgplot.bar_chart(os.path.join(d, "b.svg"), "t <&>", ["a", "b", "c"],
                            {"base": [1, 2, 3], "opt": [3, 0, 1.5]}, "bytes")
    root = ET.parse(bar).getroot()
    bars = [r for r in root.iter(NS + "rect") if r.find(NS + "title") is not None]
    check(len(bars) == 6, "six bars")
    heights = [float(r.get("height")) for r in bars]
    check(heights[0] < heights[2] < heights[4], "base bars grow with their values")
    check(heights[3] == 0.0, "a zero value draws a zero-height bar")
    check("t &lt;&amp;&gt;" in open(bar, encoding="utf-8").read(), "title escaped")
    again = svgplot.bar_chart(os.path.join(d, "b2.svg"), "t <&>", ["a", "b", "c"],
                              {"base": [1, 2, 3], "opt": [3, 0, 1.5]}, "bytes")
    check(open(bar, "rb").read() == open(again, "rb").read(), "deterministic output")
    tall = svgplot.bar_chart(os.path.join(d, "t.svg"), "t", ["a"], {"x": [1.84]}, "MB")
    troot = ET.parse(tall).getroot()
    tbar = [r for r in troot.iter(NS + "rect") if r.find(NS + "title") is not None][0]
    check(float(tbar.get("y")) >= svgplot.TOP - 0.01, "the tallest bar stays inside the plot")
    line = svgplot.line_chart(os.path.join(d, "l.svg"), "g", "size", "eff",
                              {"p4": [(128, 0.9), (32, 0.5), (64, 0.7)], "one": [(32, 0.1)]},
                              logx=True)
    root = ET.parse(line).getroot()
    polys = list(root.iter(NS + "polyline"))
    check(len(polys) == 1, "one polyline (single-point series has none)")
    xs = [float(p.split(",")[0]) for p in polys[0].get("points").split()]
    check(xs == sorted(xs) and abs((xs[1] - xs[0]) - (xs[2] - xs[1])) < 0.2,
          "points sorted by x and evenly spaced on a log2 axis")
    check(len(list(root.iter(NS + "circle"))) == 4, "a marker per point")

finish()
