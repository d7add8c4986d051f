"""Checks tools/reproduce's verdicts and table on tiny fixed cases (no mgtlm run):
- verdict: the side of neutral of the paper's value and mgtlm's, a band around
  neutral counting as no change (relative for ratios, absolute around 0), no paper
  figure;
- the markdown table: every column, the cause shown only where the verdict differs;
- a study on fixed stats: the runs it plans exist (platforms, kernels), and its
  speedup, traffic ratio and verdicts follow from stats written here by hand.
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


def fixed(platform):
    base = platform.endswith("-base.json")
    return rp.Stats({"host.exec_ps": 3000000 if base else 1500000,
                     "gpu0.link.ab_payload_bytes": 600 if base else 150,
                     "gpu0.link.ba_overhead_bytes": 200 if base else 50})


runs.done = {key: fixed(key[0]) for key in runs.wanted}
rows, trends = rp.ladm(runs)
check(abs(rows[0]["mgtlm_value"] - 2.0) < 1e-12 and rows[0]["verdict"] == SAME,
      "LADM speedup 2x, same direction as 1.8x: %r" % rows[0])
check(abs(rows[1]["mgtlm_value"] - 4.0) < 1e-12 and rows[1]["verdict"] == SAME,
      "traffic ratio 4x: %r" % rows[1])
check(rows[2]["verdict"] == NONE and trends[0][4]["mgtlm"] == [(4, 2.0), (8, 2.0),
                                                               (16, 2.0)],
      "GPU-count trend without a paper figure: %r" % (trends[0][4],))
for paper in rp.PAPERS:
    r = rp.Runs()
    planned_rows, _ = rp.STUDIES[paper](r)
    check(planned_rows and all(os.path.exists(os.path.join(ROOT, p)) for p, _, _ in
                               r.wanted), paper + ": plans runs of existing platforms")
finish()
