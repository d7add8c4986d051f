#!/usr/bin/env python3
"""MPI ranks give the stats and logs of `--threads 1` byte for byte (docs/parallel.md
"MPI").

    mpi.py MGTLM SRCROOT BUILT MPIRUN CASE

BUILT is "yes" when mgtlm was built with MPI; MPIRUN the mpirun program ("" if not
found). CASE is one of:
  refused    without MPI in the build, `run --mpi` and `test --mpi` exit 2 with one
             line (skipped when MPI is built)
  platforms  every shipped platform, as shipped where the default map cuts it into
             partitions, else as a cut variant (fabric wires of 10 ns),
             `mpirun -n 2 mgtlm run --mpi` against `--threads 1`: exit status, the
             stats (all but the host section) and every binary log file identical
  trace      a trace-driven run (traces/public/vectoradd) on a cut gpu4 variant,
             JSON Lines logs
  stress     one cu alone in a partition, a cut wire of 1 ps, 64 GPUs (65 partitions),
             and 3 ranks (partitions spread unevenly) on a cut gpu4
  testbench  `mpirun -n 2 mgtlm test --mpi` against `mgtlm test`: exit status, the
             output (verdict, reasons, differing records) and every log identical,
             on testbenches whose explicit map puts a driver or the sm in a partition
             of its own and on shipped ones as they are (one partition)
  stop       --until T on a cut variant (stop "until", same stats); --until between
             gpu4-baseline's last event and its last credit's return (stop "idle" on
             both, same stats); SIGINT to mpirun:
             no hang, rank 0 wrote valid stats with stop "signal" and readable logs

Every case but `refused` exits 77 (skipped) with a message when MPI was not built or
mpirun is missing. Ranks run on the local machine with --oversubscribe (and the
Open MPI variables that allow root). Prints one line per check and
"<n> passed, <m> failed"; exit 1 on a failure.
"""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

MGTLM, SRC, BUILT, MPIRUN, CASE = sys.argv[1:6]
SRC = os.path.abspath(SRC)
PLATFORMS = os.path.join(SRC, "platforms")
sys.path.insert(0, os.path.join(SRC, "tests", "parallel"))
from partools import (bad_log_lines, check, finish, partitions,  # noqa: E402
                      testbench_variant, validate, variant)
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_rmaps_base_oversubscribe="1")
def load_stats(path):
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        data = json.load(f)
    data.pop("host", None)
    return data


def run(tmp, tag, platform, ranks, args, fmt):
    """Runs on --threads 1 (ranks 0) or on MPI ranks: (exit status, stats, logs)."""
    out = os.path.join(tmp, "%s-r%d" % (tag, ranks))
    stats = out + ".json"
    cmd = [MGTLM, "run", platform, "-q", "--stats", stats, "--log-dir", out,
           "--log-format", fmt] + args
    if ranks:
        cmd = [MPIRUN, "-n", str(ranks), "--oversubscribe"] + cmd + ["--mpi"]
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       text=True, env=ENV, timeout=600)
    if p.returncode not in (0, 1):
        print(p.stderr.strip()[-2000:])
    logs = {}
    if os.path.isdir(out):
        for name in sorted(os.listdir(out)):
            with open(os.path.join(out, name), "rb") as f:
                logs[name] = f.read()
    return p.returncode, load_stats(stats), logs


def same_as_threads(tmp, tag, platform, args, ranks=(2,), fmt="binary"):
    one = run(tmp, tag, platform, 0, args, fmt)
    check(one[0] in (0, 1) and one[1] and one[2],
          "%s: --threads 1 ran (exit %d, %d log files)" % (tag, one[0], len(one[2])))
    for r in ranks:
        other = run(tmp, tag, platform, r, args, fmt)
        check(other[0] == one[0], "%s: exit status %d on %d ranks" % (tag, other[0], r))
        check(other[1] == one[1], "%s: stats identical on %d ranks" % (tag, r))
        check(other[2] == one[2], "%s: %d log files identical on %d ranks"
              % (tag, len(one[2]), r))
    return one


def case_refused(tmp):
    p = subprocess.run([MGTLM, "run", os.path.join(PLATFORMS, "gpu4-baseline.json"),
                        "--mpi"], capture_output=True, text=True)
    lines = p.stderr.strip().splitlines()
    check(p.returncode == 2 and len(lines) == 1 and "--mpi" in lines[0],
          "run --mpi without MPI: exit %d, %s" % (p.returncode, lines))
    tb = os.path.join(SRC, "testbench", "tb", "loop_latency.json")
    p = subprocess.run([MGTLM, "test", tb, "--mpi"], capture_output=True, text=True)
    lines = p.stderr.strip().splitlines()
    check(p.returncode == 2 and len(lines) == 1 and "--mpi" in lines[0],
          "test --mpi without MPI: exit %d, %s" % (p.returncode, lines))


def case_platforms(tmp):
    args = ["--set", "gpu*.cu[*].count=100", "--until", "20us"]
    for f in sorted(os.listdir(PLATFORMS)):
        name = f[:-len(".json")]
        if not f.endswith(".json"):
            continue
        path = os.path.join(PLATFORMS, f)
        if partitions(validate(MGTLM, path)) > 1:
            same_as_threads(tmp, name, path, args)
            continue
        cut = variant(tmp, path, name + "-cut", {"fabric": {"latency": "10ns"}})
        same_as_threads(tmp, name + "-cut", cut, args)


def case_trace(tmp):
    trace = os.path.join(SRC, "traces", "public", "vectoradd")
    cut = variant(tmp, os.path.join(PLATFORMS, "gpu4-baseline.json"), "trace-cut",
                  {"fabric": {"latency": "10ns"}})
    one = same_as_threads(tmp, "gpu4-trace", cut, ["--trace", trace], fmt="jsonl")
    check(any(k.endswith(".warp_insts") and v for k, v in
              one[1].get("stats", {}).items()),
          "gpu4-trace: the trace's kernels ran (warp instructions counted)")


def case_stress(tmp):
    base = os.path.join(PLATFORMS, "gpu4-baseline.json")
    lone = variant(tmp, base, "lone-cu", {"partitions": {"gpu0.cu[0]": 1, "*": 0}})
    same_as_threads(tmp, "lone-cu", lone, ["--until", "20us"])
    ps = variant(tmp, base, "cut-1ps", {
        "fabric": {"latency": "1ps"},
        "partitions": {"gpu0.*": 0, "gpu1.*": 1, "gpu2.*": 2, "gpu3.*": 3, "*": 4}})
    same_as_threads(tmp, "cut-1ps", ps, ["--until", "2us"])
    cut = variant(tmp, base, "cut3", {"fabric": {"latency": "10ns"}})
    same_as_threads(tmp, "3 ranks", cut, ["--until", "20us"], ranks=(3,))
    big = variant(tmp, os.path.join(PLATFORMS, "gpu16-baseline.json"), "gpu64-cut",
                  {"gpus": 64, "fabric": {"latency": "10ns"}})
    same_as_threads(tmp, "gpu64", big,
                    ["--set", "gpu*.cu[*].count=20", "--until", "5us"])


def case_stop(tmp):
    cut = variant(tmp, os.path.join(PLATFORMS, "gpu8-baseline.json"), "stop-cut",
                  {"fabric": {"latency": "10ns"}})
    status, stats, logs = same_as_threads(tmp, "until", cut, ["--until", "12345ns"],
                                          fmt="jsonl")
    run_ = stats.get("run", {})
    check(run_.get("stop") == "until" and run_.get("simulated_ps", 10**18) <= 12345000,
          "until: stop %s at %s ps" % (run_.get("stop"), run_.get("simulated_ps")))
    last = max((json.loads(line)["t"] for body in logs.values()
                for line in body.splitlines()), default=0)
    check(0 < last <= 12345000, "until: last logged event at %d ps" % last)
    # --until between the last event and the last credit's return (a credit is no
    # event, docs/kernel.md): the run is idle on threads and on ranks alike
    base = os.path.join(PLATFORMS, "gpu4-baseline.json")
    end = run(tmp, "whole", base, 0, [], "jsonl")[1].get("run", {}).get("simulated_ps", 0)
    _, tail, _ = same_as_threads(tmp, "credit tail", base, ["--until", "%dps" % (end + 10000)],
                                 fmt="jsonl")
    check(tail.get("run", {}).get("stop") == "idle",
          "credit tail: stop %s" % tail.get("run", {}).get("stop"))
    stats_path = os.path.join(tmp, "sig.json")
    log_dir = os.path.join(tmp, "sig-logs")
    cmd = [MPIRUN, "-n", "2", "--oversubscribe", MGTLM, "run", cut, "--mpi", "-q",
           "--stats", stats_path, "--log-dir", log_dir, "--log-ports", "gpu0.*",
           "--set", "gpu*.cu[*].count=1000000000"]
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         env=ENV, text=True)
    time.sleep(3)
    p.send_signal(signal.SIGINT)
    try:
        p.wait(timeout=60)
        hung = False
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
        hung = True
    check(not hung, "SIGINT: mpirun ended (exit %s)" % p.returncode)
    data = load_stats(stats_path) if os.path.exists(stats_path) else None
    check(data is not None and data.get("run", {}).get("stop") == "signal",
          "SIGINT: stats %s" % ("not written" if data is None else
                                "with stop %s" % data.get("run", {}).get("stop")))
    bad = bad_log_lines(log_dir)
    check(os.path.isdir(log_dir) and bad == 0,
          "SIGINT: logs readable (%d bad lines)" % bad)


# Testbenches given an explicit map that puts a driver (or the sm) in a partition of
# its own (the maps of tests/parallel/parallel.py), and shipped ones as they are.
TESTBENCHES = [
    ("tb/two_drivers_order", {"tb.d*": 1, "*": 0}),
    ("tb/two_drivers_set", {"tb.d*": 1, "*": 0}),
    ("tb/backpressure", {"tb.d0": 1, "*": 0}),
    ("tb/driver_responder", {"tb.req": 1, "*": 0}),
    ("tb/loop_latency", {"tb.d0": 1, "*": 0}),
    ("carve/imst_fanout8", {"tb.sm": 1, "*": 0}),
    ("carve/imst_rw_shared", {"tb.sm": 1, "*": 0}),
    ("tb/loop_latency", None),
    ("tb/two_drivers_order", None),
]


def run_test(tmp, tb, ranks):
    """`mgtlm test` on --threads 1 (ranks 0) or on MPI ranks: (exit, stdout, logs)."""
    out = os.path.join(tmp, os.path.basename(tb)[:-5] + "-r%d" % ranks)
    cmd = [MGTLM, "test", tb, "--log-dir", out]
    if ranks:
        cmd = [MPIRUN, "-n", str(ranks), "--oversubscribe"] + cmd + ["--mpi"]
    p = subprocess.run(cmd, capture_output=True, text=True, env=ENV, timeout=600)
    logs = {}
    for root, _, files in os.walk(out):
        for name in sorted(files):
            with open(os.path.join(root, name), "rb") as f:
                logs[os.path.relpath(os.path.join(root, name), out)] = f.read()
    return p.returncode, p.stdout, logs


def case_testbench(tmp):
    for name, parts in TESTBENCHES:
        tb = testbench_variant(tmp, SRC, name, parts)
        tag = name + (" (cut)" if parts else "")
        one = run_test(tmp, tb, 0)
        check(one[0] in (0, 1) and one[2], "%s: --threads 1 ran (exit %d, %d log files)"
              % (tag, one[0], len(one[2])))
        two = run_test(tmp, tb, 2)
        check(two[:2] == one[:2], "%s: same exit status and output on 2 ranks (%s)"
              % (tag, one[1].splitlines()[0] if one[1] else "no output"))
        check(two[2] == one[2], "%s: %d log files identical on 2 ranks"
              % (tag, len(one[2])))


CASES = {"refused": case_refused, "testbench": case_testbench,
         "platforms": case_platforms, "trace": case_trace, "stress": case_stress,
         "stop": case_stop}

if CASE == "refused" and BUILT == "yes":
    print("skipped: this mgtlm was built with MPI (run --mpi is accepted)")
    sys.exit(77)
if CASE != "refused" and (BUILT != "yes" or not MPIRUN):
    print("skipped: mgtlm was built without MPI (install libopenmpi-dev openmpi-bin "
          "and reconfigure)" if BUILT != "yes" else "skipped: mpirun not found")
    sys.exit(77)
with tempfile.TemporaryDirectory() as tmp:
    CASES[CASE](tmp)
finish()
