#!/usr/bin/env python3
"""Parallel runs are byte-identical for any thread count (docs/parallel.md).

    parallel.py MGTLM SRCROOT CASE

CASE is one of:
  platforms  every shipped platform as shipped, and, where the shipped one is a single
             partition, as a cut variant (fabric wires of 10 ns), run with --threads
             1, 2 and 4 (4 on 4-GPU ones): the stats (all but the host section) and
             the binary log byte for byte; the gpu{4,8,16}-* families must be cut
             at the fabric by the default map (one partition per GPU plus the fabric)
  trace      a trace-driven run (traces/public/vectoradd) on cut gpu4 and gpu16
             variants: stats and every JSON Lines log, threads 1, 2 and 4
  stress     very unequal partitions (one cu alone), a cut wire of 1 ps (explicit
             map), 64 GPUs (65 partitions): threads 1 and 2
  testbench  testbenches given an explicit map that puts a driver or sink of a wire
             with latency in a partition of its own: the output of `mgtlm test` and
             every log byte for byte, threads 1 and 2 (their verdict against the
             golden vector is not the point: cut wires return credits late)
  stop       --until T on a cut variant: every event with time <= T ran, same bytes
             for 1 and 2 threads, stop "until"; SIGINT into a 2-thread run: exit 130,
             stats written with stop "signal", logs readable, no hang; a model
             error in one partition (GPU 1's memory filled with zeros: the cus
             reading it count data errors): exit 1 for 1 and 2 threads, the same
             stats and the same stderr (its lines merged by time, then partition)

The gpu{4,8,16}-* platforms reach the fabric switch over 10 ns wires, so the default
map gives one partition per GPU plus the fabric; platforms whose fabric wires have
latency 0 (the chiplet ones) are one partition, hence their cut variants: a platform
file that extends the shipped one and sets the fabric's wire latency. Prints one line
per check and "<n> passed, <m> failed"; exit 1 on a failure.
"""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

MGTLM, SRC, CASE = sys.argv[1], os.path.abspath(sys.argv[2]), sys.argv[3]
PLATFORMS = os.path.join(SRC, "platforms")
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import partools  # noqa: E402
from partools import (bad_log_lines, check, finish, partitions,  # noqa: E402
                      testbench_variant, variant)
def run(tmp, tag, platform, threads, args, fmt="binary"):
    """Runs and returns (exit status, stats minus host, {log name: bytes})."""
    out = os.path.join(tmp, tag + "-t%d" % threads)
    stats = out + ".json"
    cmd = [MGTLM, "run", platform, "--threads", str(threads), "-q", "--stats", stats,
           "--log-dir", out, "--log-format", fmt] + args
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    data = {}
    if os.path.exists(stats):
        with open(stats) as f:
            data = json.load(f)
        data.pop("host", None)
    logs = {}
    if os.path.isdir(out):
        for name in sorted(os.listdir(out)):
            with open(os.path.join(out, name), "rb") as f:
                logs[name] = f.read()
    if p.returncode not in (0, 1):
        print(p.stderr.strip())
    return p.returncode, data, logs


def validate(platform):
    return partools.validate(MGTLM, platform)


def same_for_threads(tmp, tag, platform, threads, args, fmt="binary", parts=None):
    """Runs with every thread count and checks stats and logs against threads=1."""
    line = validate(platform)
    if parts is not None:
        check(" %d partition" % parts in line, "%s: %s" % (tag, line))
    first = run(tmp, tag, platform, threads[0], args, fmt)
    check(first[0] in (0, 1) and first[1] and first[2],
          "%s: --threads %d ran (exit %d, %d log files)"
          % (tag, threads[0], first[0], len(first[2])))
    for t in threads[1:]:
        other = run(tmp, tag, platform, t, args, fmt)
        check(other[0] == first[0], "%s: exit status %d with --threads %d"
              % (tag, other[0], t))
        check(other[1] == first[1], "%s: stats identical with --threads %d" % (tag, t))
        check(other[2] == first[2], "%s: %d log files identical with --threads %d"
              % (tag, len(first[2]), t))
    return first


def case_platforms(tmp):
    for f in sorted(os.listdir(PLATFORMS)):
        name = f[:-len(".json")]
        if not f.endswith(".json"):
            continue
        path = os.path.join(PLATFORMS, f)
        args = ["--set", "gpu*.cu[*].count=100", "--until", "20us"]
        parts = partitions(validate(path))
        if name.startswith("gpu") and "-" in name:
            gpus = int(name[3:name.index("-")])
            check(parts == gpus + 1, "%s: %d partitions by the default map (%d GPUs)"
                  % (name, parts, gpus))
        threads = [1, 2, 4] if parts >= 4 and parts <= 5 else [1, 2]
        if parts > 1:
            same_for_threads(tmp, name, path, threads, args)
            continue
        same_for_threads(tmp, name, path, [1, 2], args, parts=1)
        cut = variant(tmp, path, name + "-cut", {"fabric": {"latency": "10ns"}})
        same_for_threads(tmp, name + "-cut", cut, threads, args)
        check(partitions(validate(cut)) > 1, "%s-cut: more than one partition" % name)


def case_trace(tmp):
    trace = os.path.join(SRC, "traces", "public", "vectoradd")
    for g in ("4", "16"):
        cut = variant(tmp, os.path.join(PLATFORMS, "gpu%s-baseline.json" % g),
                      "gpu%s-trace-cut" % g, {"fabric": {"latency": "10ns"}})
        same_for_threads(tmp, "gpu%s-trace" % g, cut, [1, 2, 4],
                         ["--trace", trace], fmt="jsonl", parts=int(g) + 1)


def case_stress(tmp):
    base = os.path.join(PLATFORMS, "gpu4-baseline.json")
    lone = variant(tmp, base, "lone-cu", {"partitions": {"gpu0.cu[0]": 1, "*": 0}})
    same_for_threads(tmp, "lone-cu", lone, [1, 2], [], fmt="jsonl", parts=2)
    ps = variant(tmp, base, "cut-1ps", {
        "fabric": {"latency": "1ps"},
        "partitions": {"gpu0.*": 0, "gpu1.*": 1, "gpu2.*": 2, "gpu3.*": 3, "*": 4}})
    same_for_threads(tmp, "cut-1ps", ps, [1, 2], ["--until", "3us"], parts=5)
    check("lookahead 1ps" in validate(ps), "cut-1ps: lookahead 1ps")
    big = variant(tmp, os.path.join(PLATFORMS, "gpu16-baseline.json"), "gpu64-cut",
                  {"gpus": 64, "fabric": {"latency": "10ns"}})
    same_for_threads(tmp, "gpu64", big, [1, 2],
                     ["--set", "gpu*.cu[*].count=20", "--until", "5us"], parts=65)


def case_stop(tmp):
    cut = variant(tmp, os.path.join(PLATFORMS, "gpu8-baseline.json"), "stop-cut",
                  {"fabric": {"latency": "10ns"}})
    status, stats, logs = same_for_threads(tmp, "until", cut, [1, 2],
                                           ["--until", "12345ns"], fmt="jsonl")
    run_ = stats.get("run", {})
    check(run_.get("stop") == "until" and run_.get("simulated_ps", 10**18) <= 12345000,
          "until: stop %s at %s ps (<= 12345000)"
          % (run_.get("stop"), run_.get("simulated_ps")))
    last = 0
    for body in logs.values():
        for line in body.splitlines():
            last = max(last, json.loads(line)["t"])
    check(0 < last <= 12345000, "until: last logged event at %d ps" % last)
    # A model error in one partition: the same exit status, stats and stderr.
    err = {}
    for t in (1, 2):
        p = subprocess.run([MGTLM, "run", cut, "--threads", str(t), "-q", "--stats",
                            os.path.join(tmp, "err%d.json" % t), "--set",
                            "gpu1.mem.fill=zero", "--set", "gpu*.cu[*].count=200"],
                           capture_output=True, text=True)
        with open(os.path.join(tmp, "err%d.json" % t)) as f:
            data = json.load(f)
        data.pop("host", None)
        err[t] = (p.returncode, p.stderr, data)
    check(err[1][0] == 1 and err[2][0] == 1 and "first data error" in err[1][1],
          "error: exit status %d and %d (1), data errors reported"
          % (err[1][0], err[2][0]))
    check(err[1][1] == err[2][1], "error: stderr identical with --threads 2 (%d lines)"
          % len(err[1][1].splitlines()))
    check(err[1][2] == err[2][2], "error: stats identical with --threads 2")
    # SIGINT: a long run (many cu requests) interrupted on 2 threads.
    out = os.path.join(tmp, "sigint")
    p = subprocess.Popen([MGTLM, "run", cut, "--threads", "2", "-q", "--stats",
                          out + ".json", "--log-dir", out, "--set",
                          "gpu*.cu[*].count=10000000"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    time.sleep(1.0)
    p.send_signal(signal.SIGINT)
    try:
        p.wait(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
    check(p.returncode == 130, "sigint: exit status %s (130)" % p.returncode)
    ok = False
    try:
        with open(out + ".json") as f:
            ok = json.load(f)["run"]["stop"] == "signal"
    except (OSError, ValueError, KeyError):
        pass
    check(ok, "sigint: stats written, stop \"signal\"")
    bad = bad_log_lines(out)
    check(os.path.isdir(out) and bad == 0, "sigint: every log line is a JSON record")


# Testbenches and their explicit maps (instances added by the testbench, tb.*,
# can be named: globs are matched when the map is computed).
TESTBENCHES = [
    ("tb/two_drivers_order", {"tb.d*": 1, "*": 0}),
    ("tb/two_drivers_set", {"tb.d*": 1, "*": 0}),
    ("tb/backpressure", {"tb.d0": 1, "*": 0}),
    ("tb/driver_responder", {"tb.req": 1, "*": 0}),
    ("tb/loop_latency", {"tb.d0": 1, "*": 0}),
    ("carve/imst_fanout8", {"tb.sm": 1, "*": 0}),
    ("carve/imst_rw_shared", {"tb.sm": 1, "*": 0}),
    ("carve/imst_uncached_private_remote", {"tb.sm": 1, "*": 0}),
]


def run_test(tmp, tb, threads):
    out = os.path.join(tmp, os.path.basename(tb)[:-5] + "-t%d" % threads)
    p = subprocess.run([MGTLM, "test", tb, "--threads", str(threads), "--log-dir", out],
                       capture_output=True, text=True)
    logs = {}
    for root, _, files in os.walk(out):
        for name in sorted(files):
            with open(os.path.join(root, name), "rb") as f:
                logs[os.path.relpath(os.path.join(root, name), out)] = f.read()
    return p.returncode, p.stdout, p.stderr, logs


def case_testbench(tmp):
    for name, parts in TESTBENCHES:
        tb = testbench_variant(tmp, SRC, name, parts)
        one = run_test(tmp, tb, 1)
        check(one[0] in (0, 1) and one[3] and "has latency 0" not in one[2],
              "%s: ran with --threads 1 (exit %d, %d log files%s)"
              % (name, one[0], len(one[3]), (": " + one[2].strip()) if one[2] else ""))
        if parts.get("tb.sm") is None:
            # the drivers run in partition 1: their ids are (1 << 40) + k
            ids = [json.loads(r)["id"] for body in one[3].values()
                   for r in body.splitlines()]
            check(ids and max(ids) > 1 << 40,
                  "%s: driver ids from partition 1 (%s)" % (name, ids[:1]))
        two = run_test(tmp, tb, 2)
        check(two[:3] == one[:3], "%s: same verdict and output with --threads 2 (%s)"
              % (name, one[1].splitlines()[0] if one[1] else "no output"))
        check(two[3] == one[3], "%s: %d log files identical with --threads 2"
              % (name, len(one[3])))


CASES = {"platforms": case_platforms, "testbench": case_testbench, "trace": case_trace,
         "stress": case_stress, "stop": case_stop}

with tempfile.TemporaryDirectory() as tmp:
    CASES[CASE](tmp)
finish()
