"""Checks tools/reproduce's verdicts and table on tiny fixed cases (no mgtlm run):
- verdict: the side of neutral of the paper's value and mgtlm's, a band around
  neutral counting as no change (relative for ratios, absolute around 0), no paper
  figure;
- the markdown table: every column, the cause shown only where the verdict differs;
- a study on fixed stats: the runs it plans exist (platforms, kernels), and its
  speedup, traffic ratio and verdicts follow from stats written here by hand (LADM
  on the flat and the chiplet platforms, the REC paper's HMG comparison);
- the document says "None" under "Model errors" or lists each run's error, and names
  the platforms outside platforms/paper/;
- the runs that stand for a platform not shipped (the chiplet ring's comparison point,
  HMG in REC's regime) are checked against a shipped one: a mismatch stops the tool.
usage: test_reproduce.py SOURCE_ROOT"""
import importlib.machinery
import importlib.util
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tally import check, finish  # noqa: E402

ROOT = sys.argv[1]
loader = importlib.machinery.SourceFileLoader(
    "reproduce", os.path.join(ROOT, "tools", "reproduce"))
spec = importlib.util.spec_from_loader("reproduce", loader)
rp = importlib.util.module_from_spec(spec)
loader.exec_module(rp)

SAME, DIFFERS, NONE = rp.SAME, rp.DIFFERS, rp.NONE
CASES = [
    ((2.5, 1.3), {}, SAME, "both gains"),
    ((2.5, 0.8), {}, DIFFERS, "a gain against a loss"),
    ((1.327, 1.0), {}, DIFFERS, "a gain against no change"),
    ((1.327, 1.015), {}, DIFFERS, "1.5 % lies inside the 2 % band"),
    ((1.327, 1.03), {}, SAME, "3 % is a gain"),
    ((0.9, 0.95), {}, SAME, "both losses"),
    ((1.043, 0.99), {"tol": 0.05}, SAME, "both flat within 5 %"),
    ((1.043, 1.2), {"tol": 0.05}, DIFFERS, "flat against a 20 % gain"),
    ((0.535, 0.0), {"neutral": 0.0}, DIFFERS, "a reduction against none"),
    ((0.535, 0.1), {"neutral": 0.0}, SAME, "two reductions"),
    ((0.349, -0.05), {"neutral": 0.0}, DIFFERS, "a reduction against an increase"),
    ((None, 3.0), {}, NONE, "no paper figure"),
]
for (paper, mgtlm), kw, want, what in CASES:
    got = rp.verdict(paper, mgtlm, **kw)
    check(got == want, "verdict %s: %s, got %s" % (what, want, got))
check(abs(rp.geomean([1, 4]) - 2.0) < 1e-12 and abs(rp.geomean([8]) - 8) < 1e-12,
      "geometric mean")

rows = [rp.row("A", "m1", 2.0, "2x", 1.5, "1.50x", cause="hidden"),
        rp.row("B", "m2", 2.0, "2x", 0.5, "0.50x", cause="the link is idle"),
        rp.row("C", "m3", None, "-", 1.1, "1.10x")]
want = ("| paper | metric | paper value | mgtlm value | verdict | measured cause |\n"
        "|---|---|---|---|---|---|\n"
        "| A | m1 | 2x | 1.50x | same direction |  |\n"
        "| B | m2 | 2x | 0.50x | differs | the link is idle |\n"
        "| C | m3 | - | 1.10x | no paper figure |  |\n")
got = rp.table(rows)
check(got == want, "table:\n" + got)

# LADM's study on fixed stats: the comparison point takes 3 us and sends 800 link
# bytes per kernel, LADM 1.5 us and 200 bytes, so every speedup is 2x (1.8x in the
# paper: same direction) and the traffic ratio 4x (4x in the paper).
runs = rp.Runs()
rp.ladm(runs)
check(len(runs.wanted) > 0 and all(os.path.exists(os.path.join(ROOT, p))
                                   for p, _, _ in runs.wanted),
      "the planned runs' platforms exist")
check(all(k in rp.KERNELS for _, k, _ in runs.wanted), "the planned kernels exist")


def ladm_base(key):
    """A run of LADM's comparison point: a -base platform, or an LADM platform with
    LADM_UNDO among its sets."""
    return key[0].endswith("-base.json") or set(rp.LADM_UNDO) <= set(key[2])


def fixed(key, base_ps=3000000):
    base = ladm_base(key)
    return rp.Stats({"host.exec_ps": base_ps if base else 1500000,
                     "gpu0.link.ab_payload_bytes": 600 if base else 150,
                     "gpu0.link.ba_overhead_bytes": 200 if base else 50})


runs.done = {key: fixed(key) for key in runs.wanted}
rows, trends = rp.ladm(runs)
check(abs(rows[0]["mgtlm_value"] - 2.0) < 1e-12 and rows[0]["verdict"] == SAME,
      "LADM speedup 2x, same direction as 1.8x: %r" % rows[0])
check(abs(rows[1]["mgtlm_value"] - 4.0) < 1e-12 and rows[1]["verdict"] == SAME,
      "traffic ratio 4x: %r" % rows[1])
check(rows[2]["verdict"] == NONE and trends[0][4]["mgtlm"] == [(4, 2.0), (8, 2.0),
                                                               (16, 2.0)],
      "GPU-count trend without a paper figure: %r" % (trends[0][4],))
check(any(p == "platforms/ladm-chiplet-ring.json" and ladm_base((p, k, sets))
          for p, k, sets in runs.wanted), "the ring's comparison point is run")
check([abs(r["mgtlm_value"] - 2.0) < 1e-12 and r["verdict"] == SAME
       for r in rows[3:5]] == [True, True], "chiplet speedups 2x: %r" % (rows[3:5],))
check(abs(rows[5]["mgtlm_value"] - 1.0) < 1e-12 and rows[5]["verdict"] == DIFFERS,
      "a flat gain over the fabrics differs from the paper's fall: %r" % rows[5])
check(trends[1][4] == {"crossbar": [(90, 2.0), (180, 2.0)],
                       "ring": [(1400, 2.0), (2800, 2.0)]},
      "topology trend: %r" % (trends[1][4],))
kernels = sorted({k for _, k, _ in runs.wanted})
doc = rp.document(["ladm"], {"ladm": (rows, trends)}, runs.done, kernels)
check("## Model errors\n\nNone: every run" in doc, "no model error is said")
check("`platforms/ladm-chiplet-ring.json`" in doc, "platforms outside paper/ listed")
first = runs.wanted[0]
runs.done[first].error = "mgtlm: model error: gpu0.sm[0].data_errors = 1"
doc = rp.document(["ladm"], {"ladm": (rows, trends)}, runs.done, kernels)
check("1 runs ended with a model error" in doc and
      "data_errors = 1" in doc and "None: every run" not in doc,
      "a model error is listed")
runs.done = {key: fixed(key, 3100000 if key[0] == "platforms/ladm-chiplet-base.json"
                        else 3000000) for key in runs.wanted}
try:
    rp.ladm(runs)
    stopped = False
except SystemExit:
    stopped = True
check(stopped, "LADM_UNDO not matching ladm-chiplet-base.json stops the tool")

# The REC paper's comparison on fixed stats: the baseline directory takes 4 us, HMG 2 us
# and REC 1 us, with L2 misses in the same ratios, so HMG gains 2x over the baseline
# (+16.7 % in the paper), REC 2x over HMG (1.14x) and HMG has 2x REC's misses (1.40x).
EXEC = {"rec-base.json": 4000000, "gpu4-dir-baseline.json": 4000000,
        "gpu4-hmg.json": 2000000, "rec.json": 1000000}


def rec_fixed(key, check_ps=4000000):
    ps = EXEC[os.path.basename(key[0])]
    if key[0].endswith("gpu4-dir-baseline.json"):
        ps = check_ps
    return rp.Stats({"host.exec_ps": ps, "gpu0.l2.misses": ps // 10000,
                     "gpu0.link.ab_packets": ps // 1000})


runs = rp.Runs()
rp.rec(runs)
check(any(p == "platforms/gpu4-hmg.json" and set(rp.REC_REGIME) <= set(sets)
          for p, _, sets in runs.wanted), "HMG runs in REC's regime")
runs.done = {key: rec_fixed(key) for key in runs.wanted}
by = {r["metric"]: r for r in rp.rec(runs)[0]}
for metric, want in (("HMG over the baseline directory (8K entries)", SAME),
                     ("REC over HMG (8K entries)", SAME),
                     ("L2 misses, HMG / REC (8K entries)", SAME),
                     ("HMG over the baseline directory on write-shared traffic "
                      "(histogram, 8K entries)", NONE)):
    check(metric in by and abs(by[metric]["mgtlm_value"] - 2.0) < 1e-12 and
          by[metric]["verdict"] == want, "%s: 2x, %s: %r" % (metric, want,
                                                            by.get(metric)))
runs.done = {key: rec_fixed(key, 4100000) for key in runs.wanted}
try:
    rp.rec(runs)
    stopped = False
except SystemExit:
    stopped = True
check(stopped, "gpu4-dir-baseline.json with REC_REGIME not matching rec-base stops")
for paper in rp.PAPERS:
    r = rp.Runs()
    planned_rows, _ = rp.STUDIES[paper](r)
    check(planned_rows and all(os.path.exists(os.path.join(ROOT, p)) for p, _, _ in
                               r.wanted), paper + ": plans runs of existing platforms")
finish()
