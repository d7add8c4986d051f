"""Checks `mgtlm compare` and tools/plot/compare.py on hand-written stats files: the
common numeric stats (histogram members included, strings and stats of one file left
out) in the first file's order, each value and its ratio to the reference (1 for 0/0,
undefined for x/0), --match, the CSV, three files, and the plot of the largest
changes. Expected numbers are worked out by hand below, not taken from mgtlm."""
import csv
import json
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tally import check, finish  # noqa: E402

ROOT, MGTLM = sys.argv[1], sys.argv[2]
PLOT = os.path.join(ROOT, "tools", "plot", "compare.py")
A = {"x.a": 2, "x.b": 0, "x.c": 0, "x.h": {"count": 4, "mean": 1.5}, "only_a": 1,
     "s": "text", "flag": True}
B = {"only_b": 7, "x.h": {"mean": 3.0, "count": 2}, "x.c": 5, "x.b": 0, "x.a": 3,
     "s": "text", "flag": True}
C = {"x.a": 1, "x.b": 1, "x.c": 0, "x.h": {"count": 8, "mean": 0.75}}


def mgtlm(*args):
    return subprocess.run([MGTLM, "compare"] + list(args), capture_output=True,
                          text=True)


def rows(stdout):
    """The table rows after the two header lines and the file list."""
    lines = stdout.splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.startswith("stat"))
    return [ln.split() for ln in lines[start + 1:]]


with tempfile.TemporaryDirectory() as d:
    paths = []
    for name, stats in (("a.json", A), ("b.json", B), ("c.json", C)):
        paths.append(os.path.join(d, name))
        with open(paths[-1], "w") as f:
            json.dump(stats, f)
    a, b, c = paths

    r = mgtlm(a, b, "--csv", os.path.join(d, "t.csv"))
    check(r.returncode == 0 and r.stderr == "", "two files: exit 0, quiet stderr")
    check(r.stdout.startswith("[1] %s (reference)\n[2] %s\n" % (a, b)), "file list")
    check(rows(r.stdout) == [["x.a", "2", "3", "1.500"], ["x.b", "0", "0", "1.000"],
                             ["x.c", "0", "5", "-"], ["x.h.count", "4", "2", "0.500"],
                             ["x.h.mean", "1.5", "3", "2.000"]],
          "rows: common numeric stats, reference order, ratios: " + r.stdout)
    with open(os.path.join(d, "t.csv"), newline="") as f:
        table = list(csv.reader(f))
    check(table[0] == ["stat", "file", "value", "ratio"], "CSV header")
    check(table[1:5] == [["x.a", a, "2", "1"], ["x.a", b, "3", "1.5"],
                         ["x.b", a, "0", "1"], ["x.b", b, "0", "1"]], "CSV rows")
    check(table[5:7] == [["x.c", a, "0", "1"], ["x.c", b, "5", ""]],
          "CSV: undefined ratio left empty")

    r = mgtlm(a, b, "-m", "x.h.*", "--match=x.b")
    check([row[0] for row in rows(r.stdout)] == ["x.b", "x.h.count", "x.h.mean"],
          "--match selects stats")

    r = mgtlm(a, b, c)
    check(rows(r.stdout)[0] == ["x.a", "2", "3", "1.500", "1", "0.500"],
          "three files: one value and one ratio per file")
    check(rows(r.stdout)[1] == ["x.b", "0", "0", "1.000", "1", "-"], "1/0 undefined")

    for args, want in (([a], "mgtlm compare: needs two or more stats files"),
                       ([a, os.path.join(d, "none.json")],
                        "none.json: cannot open: No such file or directory")):
        r = mgtlm(*args)
        check(r.returncode == 2 and r.stderr.count("\n") == 1 and want in r.stderr,
              "error %r: %r" % (want, r.stderr))

    # mgtlm run's stats files (docs/stats.md): the "stats" values and the "run"
    # numbers are compared, "host" (host time, version) and the stat tables are not
    runs = []
    for name, t, wall in (("r1.json", 100, 1.0), ("r2.json", 150, 9.0)):
        runs.append(os.path.join(d, name))
        with open(runs[-1], "w") as f:
            json.dump({"format": "mgtlm-stats-2", "run": {"sim_time_ps": t},
                       "host": {"wall_s": wall},
                       "types": {"cu": {"reads": {"kind": "counter", "id": 3}}},
                       "stats": {"gpu0.cu.reads": t // 50}}, f)
    r = mgtlm(*runs)
    check(rows(r.stdout) == [["run.sim_time_ps", "100", "150", "1.500"],
                             ["gpu0.cu.reads", "2", "3", "1.500"]],
          "stats files of mgtlm run: run numbers and stats, not host: " + r.stdout)

    svg = os.path.join(d, "t.svg")
    p = subprocess.run([sys.executable, PLOT, os.path.join(d, "t.csv"), svg, "--top",
                        "2"], capture_output=True, text=True)
    check(p.returncode == 0, "compare.py runs: " + p.stderr[-300:])
    if p.returncode == 0:
        root = ET.parse(svg).getroot()
        words = ["".join(t.itertext())
                 for t in root.iter("{http://www.w3.org/2000/svg}text")]
        # |log2 ratio|: x.h.count 1, x.h.mean 1, x.a 0.58; x.b 0 and x.c undefined
        check("x.h.count" in words and "x.h.mean" in words, "the two largest changes")
        check("x.a" not in words and "x.c" not in words and "x.b" not in words,
              "only the top 2, never an undefined ratio")
        check("b.json" in words, "legend names the compared file")
finish()
