"""Checks that `mgtlm run` ends cleanly on a signal (docs/stats.md): a long run gets
SIGUSR1 (stats written, the run goes on) and then SIGINT or SIGTERM; it must exit
128 + the signal with stats that parse and say why it stopped, and logs that parse in
each format (JSON Lines complete, Perfetto JSON closed, VCD with whole lines after
its header). Also the progress line when stderr is not a terminal (with --until: the
percentage and an estimate of the time left), and none with --quiet.
No timing is asserted: the test waits for the run to show it is running (a progress
line, or a log growing) before each signal.
usage: test_run_signal.py MGTLM SOURCE_ROOT"""
import csv
import glob
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tally import check, finish  # noqa: E402

MGTLM, ROOT = os.path.abspath(sys.argv[1]), sys.argv[2]
PLATFORM = os.path.join(ROOT, "platforms", "gpu4-baseline.json")
# Long enough never to end before the signals: 10^7 reads per cu.
LONG = ["--set", "gpu*.cu[*].count=10000000", "--log-ports", "gpu0.*"]
WAIT = 300  # seconds before giving up on a sign of life (slow sanitizer builds)
PROGRESS = re.compile(r"mgtlm run:  t = [\d.]+ us \([\d.]+% of 1000000\.000 us, "
                      r"ETA \d+ s\), \d+ events, [\d.]+ M events/s$")


def wait_for(proc, cond, what):
    end = time.monotonic() + WAIT
    while time.monotonic() < end:
        if cond():
            return True
        if proc.poll() is not None:
            check(False, "the run ended (status %d) before %s" % (proc.returncode, what))
            return False
        time.sleep(0.05)
    check(False, "waited %d s for %s" % (WAIT, what))
    return False


def text(path):
    return open(path).read() if os.path.exists(path) else ""


def size(pattern):
    return sum(os.path.getsize(p) for p in glob.glob(pattern))


def start(tmp, args, err):
    return subprocess.Popen([MGTLM, "run", PLATFORM] + LONG + args,
                            stdout=subprocess.DEVNULL, stderr=open(err, "w"))


def end(proc, sig, name):
    proc.send_signal(sig)
    try:
        rc = proc.wait(WAIT)
    except subprocess.TimeoutExpired:
        proc.kill()
        rc = proc.wait()
    check(rc == 128 + sig, "%s: exit status %d, want %d" % (name, rc, 128 + sig))


def check_stats(path, stop, sig_name, name):
    try:
        doc = json.load(open(path))
    except (OSError, ValueError) as e:
        check(False, "%s: stats do not parse: %s" % (name, e))
        return None
    run = doc["run"]
    check(run["stop"] == stop and run.get("signal") == sig_name and
          run["simulated_ps"] > 0 and doc["stats"]["gpu0.cu[0].reads"] > 0,
          "%s: stats say %s" % (name, run))
    return doc


def jsonl_ok(path):
    data = open(path).read()
    if data and not data.endswith("\n"):
        return False
    for ln in data.splitlines():
        json.loads(ln)
    return True


def vcd_ok(path):
    data = open(path).read()
    head, sep, body = data.partition("$enddefinitions $end\n")
    lines = body.splitlines()
    return bool(sep) and data.endswith("\n") and len(lines) > 1 and all(
        re.match(r"(#\d+|[01xz]\S+|b[01xz]+ \S+|\$dumpvars|\$end)$", ln) for ln in lines)


def usr1_then_int(tmp):
    name = "SIGUSR1 then SIGINT"
    stats, csv_path, err = (os.path.join(tmp, f) for f in ("s.json", "s.csv", "err"))
    logs = os.path.join(tmp, "jsonl")
    proc = start(tmp, ["--stats", stats, "--stats-csv", csv_path, "--log-dir", logs,
                       "--until", "1s", "--progress", "0.05"], err)
    if wait_for(proc, lambda: "t = " in text(err), "a progress line"):
        proc.send_signal(signal.SIGUSR1)
        if wait_for(proc, lambda: "stats written" in text(err), "the SIGUSR1 stats"):
            first = check_stats(stats, "running", None, name + " (SIGUSR1)")
            check(proc.poll() is None, name + ": the run goes on after SIGUSR1")
            t0 = first["run"]["simulated_ps"] if first else 0
            wait_for(proc, lambda: text(err).count("t = ") >= 3, "progress after SIGUSR1")
            end(proc, signal.SIGINT, name)
            last = check_stats(stats, "signal", "SIGINT", name)
            check(last and last["run"]["simulated_ps"] > t0,
                  name + ": the run went on between the signals")
    proc.wait()
    rows = list(csv.reader(open(csv_path)))
    check(["", "run", "stop", "signal", ""] in rows and
          ["", "run", "signal", "SIGINT", ""] in rows, name + ": CSV stop rows")
    files = glob.glob(os.path.join(logs, "*.jsonl"))
    check(files and all(jsonl_ok(f) for f in files) and size(logs + "/*.jsonl") > 0,
          name + ": every JSON Lines log parses")
    lines = [ln for ln in text(err).splitlines() if ln.startswith("mgtlm run:  t = ")]
    check(lines and all(PROGRESS.match(ln) for ln in lines),
          name + ": progress lines %s" % lines[:2])
    check(os.path.exists(stats + ".platform.json"), name + ": platform beside the stats")


def term(tmp, fmt, ok, name):
    logs = os.path.join(tmp, fmt)
    err = os.path.join(tmp, fmt + ".err")
    stats = os.path.join(tmp, fmt + ".json")
    proc = start(tmp, ["--stats", stats, "--log-dir", logs, "--log-format", fmt,
                       "--quiet", "--progress", "0.01"], err)
    if wait_for(proc, lambda: size(logs + "/*") > 100000, "the %s log to grow" % fmt):
        end(proc, signal.SIGTERM, name)
    proc.wait()
    check_stats(stats, "signal", "SIGTERM", name)
    files = glob.glob(os.path.join(logs, "*"))
    try:
        good = len(files) == 1 and ok(files[0])
    except ValueError:
        good = False
    check(good, name + ": the %s log is valid" % fmt)
    check(text(err) == "", name + ": --quiet writes nothing on stderr: %r" % text(err)[:80])


def main():
    tmp = tempfile.mkdtemp()
    usr1_then_int(tmp)
    term(tmp, "perfetto", lambda p: json.load(open(p)) is not None, "SIGTERM perfetto")
    term(tmp, "vcd", vcd_ok, "SIGTERM vcd")
    finish()


main()
