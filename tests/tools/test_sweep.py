"""Checks `mgtlm sweep` (docs/mgtlm.1) against separate `mgtlm run` calls:
- the table has one column per varied key (as written), then stat and value; its runs
  are the cross product in nested-loop order (first --vary outermost), and every row
  holds what `mgtlm run` with the same sets writes into its own stats file;
- the output is byte-identical for -j 1 and -j 3 (and --out writes the same bytes);
- --stat globs (brackets literal, as in --set keys), --format tsv, fixed --set and a
  JSON array value with commas inside one --vary value;
- bad input: one line on stderr naming the problem, exit 2, no table; a run that
  fails is named by its index and values, the first in table order whatever -j;
- no temporary file is left behind.
usage: test_sweep.py MGTLM SOURCE_ROOT"""
import csv
import io
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tally import check, finish  # noqa: E402

MGTLM, ROOT = os.path.abspath(sys.argv[1]), sys.argv[2]
PLATFORM = os.path.join(ROOT, "platforms", "gpu4-baseline.json")
FIXED = ["--set", "gpu*.cu[*].count=40"]
VARY = [("gpus", ["2", "4"]), ("gpu*.link.bandwidth", ["16GB/s", "32GB/s", "64GB/s"])]


def sweep(args, env):
    return subprocess.run([MGTLM, "sweep", PLATFORM] + args, capture_output=True,
                          text=True, env=env)


def run_stats(sets, tmp):
    """The flat numeric stats of one `mgtlm run` (as stats_flat.h names them)."""
    path = os.path.join(tmp, "one.json")
    args = [MGTLM, "run", PLATFORM, "--quiet", "--stats", path] + FIXED
    for s in sets:
        args += ["--set", s]
    subprocess.run(args, check=True)
    with open(path) as f:
        doc = json.load(f)
    flat = {}

    def add(name, v):
        if isinstance(v, bool) or isinstance(v, str) or v is None:
            return
        if isinstance(v, (int, float)):
            flat[name] = v
        elif isinstance(v, dict):
            for k, m in v.items():
                add(name + "." + k if name else k, m)
    add("run", doc["run"])
    add("", doc["stats"])
    return flat


with tempfile.TemporaryDirectory() as tmp:
    swept_tmp = os.path.join(tmp, "t")
    os.mkdir(swept_tmp)
    env = dict(os.environ, TMPDIR=swept_tmp)
    vary = []
    for key, values in VARY:
        vary += ["--vary", "%s=%s" % (key, ",".join(values))]
    stats = ["--stat", "run.simulated_ps", "--stat", "gpu0.link.*",
             "--stat", "gpu1.cu[1].reads"]
    r1 = sweep(vary + FIXED + stats + ["-j", "1"], env)
    r3 = sweep(["-j", "3"] + stats + FIXED + vary, env)
    check(r1.returncode == 0 and r1.stderr == "", "sweep exit 0: " + r1.stderr)
    check(r1.stdout == r3.stdout and r1.stdout, "-j 1 and -j 3 give the same bytes")
    table = list(csv.reader(io.StringIO(r1.stdout)))
    check(table[0] == ["gpus", "gpu*.link.bandwidth", "stat", "value"], "header")
    order = []
    for row in table[1:]:
        if not order or order[-1] != tuple(row[:2]):
            order.append(tuple(row[:2]))
    want_order = [(g, b) for g in VARY[0][1] for b in VARY[1][1]]
    check(order == want_order, "runs in nested-loop order: %s" % order)
    for g, b in want_order:
        rows = [r for r in table[1:] if tuple(r[:2]) == (g, b)]
        flat = run_stats(["gpus=" + g, "gpu*.link.bandwidth=" + b], tmp)
        want = [k for k in flat if k == "run.simulated_ps" or k.startswith("gpu0.link.")
                or k == "gpu1.cu[1].reads"]
        check([r[2] for r in rows] == want, "stats of run %s,%s: selected, in file "
              "order" % (g, b))
        check(all(float(r[3]) == flat[r[2]] for r in rows),
              "values of run %s,%s are those of mgtlm run" % (g, b))
    times = {(r[0], r[1]): int(r[3]) for r in table[1:] if r[2] == "run.simulated_ps"}
    check(len(set(times.values())) > 1, "the varied sets reach the runs: %s" % times)

    out = os.path.join(tmp, "table.csv")
    r = sweep(vary + FIXED + stats + ["--out", out, "-j", "2"], env)
    with open(out) as f:
        check(r.returncode == 0 and r.stdout == "" and f.read() == r1.stdout,
              "--out writes the same table")
    r = sweep(vary + FIXED + stats + ["--format", "tsv"], env)
    check(r.stdout == r1.stdout.replace(",", "\t"), "--format tsv")

    r = sweep(["--vary", "gpus=2", "--stat", "run.gpus", "--vary",
               "gpu*.xbar.latency=5ns,20ns"] + FIXED, env)
    check(r.returncode == 0 and r.stdout.splitlines() == [
        "gpus,gpu*.xbar.latency,stat,value", "2,5ns,run.gpus,2", "2,20ns,run.gpus,2"],
        "two keys, one value each: " + r.stdout + r.stderr)
    r = sweep(["--vary", "fabric.sw.routes=[0,1],[1,0]", "--stat", "run.gpus", "--set",
               "gpus=2"] + FIXED, env)
    check(r.returncode == 2 and r.stderr.startswith(
        "mgtlm sweep: run 0 (fabric.sw.routes=[0,1]): "),
        "a JSON array with commas is one value: " + r.stderr)

    BAD = [
        (["--vary", "gpus=2,0,65", "-j", "3"], "mgtlm sweep: run 1 (gpus=0): "),
        (["--vary", "gpus=2,4", "--vary", "gpu*.nosuch=1"],
         "mgtlm sweep: run 0 (gpus=2, gpu*.nosuch=1): "),
        ([], "mgtlm sweep: no --vary given"),
        (["--vary", "gpus"], "mgtlm sweep: --vary gpus: expected KEY=V1,V2,..."),
        (["--vary", "gpus=1,,2"], "mgtlm sweep: --vary gpus=1,,2: an empty value"),
        (["--vary", "gpus=1", "--vary", "gpus=2"], "mgtlm sweep: --vary gpus: the key"),
        (["--vary", "gpus=1", "--set", "gpus=2"], "mgtlm sweep: gpus is both set"),
        (["--vary", "trace=a,b", "--trace", "c"], "mgtlm sweep: trace is both set"),
        (["--vary", "gpus=1", "-j", "0"], "mgtlm sweep: --jobs 0: expected 1 to"),
        (["--vary", "gpus=1", "--format", "xml"], "mgtlm sweep: --format xml"),
        (["--vary", "gpus=1", "--bogus"], "mgtlm sweep: "),
    ]
    for args, start in BAD:
        r = sweep(args, env)
        check(r.returncode == 2 and r.stdout == "" and r.stderr.startswith(start)
              and r.stderr.count("\n") == 1,
              "bad input %s: exit 2, one line: %r" % (args, r.stderr))
    r = subprocess.run([MGTLM, "sweep", "--vary", "gpus=1"], capture_output=True,
                       text=True)
    check(r.returncode == 2 and r.stderr.startswith("mgtlm sweep: no platform given"),
          "no platform: " + r.stderr)
    r = subprocess.run([MGTLM, "sweep", os.path.join(tmp, "none.json"), "--vary",
                        "gpus=1"], capture_output=True, text=True, env=env)
    check(r.returncode == 2 and "none.json" in r.stderr and r.stderr.count("\n") == 1,
          "a missing platform is named: " + r.stderr)
    check(os.listdir(swept_tmp) == [], "no temporary file left: %s"
          % os.listdir(swept_tmp))
finish()
