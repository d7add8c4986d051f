#!/usr/bin/env python3
"""The Perfetto (Chrome JSON) trace of a run (written gzip-compressed,
--log-format perfetto-gz, and inflated by Python's gzip), loaded by a real trace
consumer: the trace engine of Chrome DevTools' Performance panel (models/trace, the
code that opens a trace file there), bundled with Debian's chromium and run in
headless Chromium through chromedriver's W3C WebDriver protocol (urllib only). The
engine must see:
- every logged port as a thread, grouped in one process per GPU (and the fabric);
- exactly the request-response slices a reader derives independently from the JSONL
  log of the same run: at each port, from a request that expects a response to the
  response with its id, same name, start and duration (ps);
- flows: each a chain of slices of one transaction id over at least two ports, one
  for every transaction with slices at two or more distinct times (the engine keys a
  flow's slices by time).
Skips (exit 77) when chromium or chromedriver is missing (Debian chromium,
chromium-driver; tools/setup --tests installs them).
usage: test_perfetto_devtools.py MGTLM PLATFORM"""
import collections
import glob
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tally import check, finish  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                                "serve"))
from webdriver import free_port, wd  # noqa: E402

CHROME_ARGS = ["--headless", "--no-sandbox", "--disable-gpu",
               "--disable-background-networking"]
DEVTOOLS_PAGE = "devtools://devtools/bundled/trace_app.html"
# Loads the trace engine module, parses the events, returns what it built.
PARSE_SCRIPT = """
const done = arguments[arguments.length - 1];
(async () => {
  try {
    const Trace = await import('./models/trace/trace.js');
    const model = Trace.TraceModel.Model.createWithAllHandlers();
    await model.parse(arguments[0].traceEvents);
    const data = model.parsedTrace(0).data;
    const threads = [];
    for (const [pid, proc] of data.Renderer.processes) {
      for (const [tid, th] of proc.threads) {
        threads.push({pid, tid, name: th.name,
                      slices: th.entries.map(e => [e.name, e.ts, e.dur || 0])});
      }
    }
    const flows = data.Flows.flows.map(f => f.map(e => [e.pid, e.tid, e.ts]));
    done({threads, flows});
  } catch (e) {
    done('error: ' + e + ' ' + e.stack);
  }
})();
"""
NEEDS_RESPONSE = ("read", "atomic")


def devtools_parse(chrome, driver, trace):
    """What the DevTools trace engine builds from the trace document."""
    dport = free_port()
    drv = subprocess.Popen([driver, "--port=%d" % dport], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
    base = "http://127.0.0.1:%d" % dport
    sid = None
    try:
        deadline = time.time() + 20
        while time.time() < deadline:
            try:
                if wd(base, "GET", "/status", timeout=2).get("ready"):
                    break
            except OSError:
                time.sleep(0.1)
        caps = {"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": chrome, "args": CHROME_ARGS}}}}
        sid = wd(base, "POST", "/session", caps, timeout=120)["sessionId"]
        wd(base, "POST", "/session/%s/timeouts" % sid, {"script": 120000}, timeout=120)
        wd(base, "POST", "/session/%s/url" % sid, {"url": DEVTOOLS_PAGE}, timeout=120)
        return wd(base, "POST", "/session/%s/execute/async" % sid,
                  {"script": PARSE_SCRIPT, "args": [trace]}, timeout=180)
    finally:
        if sid:
            try:
                wd(base, "DELETE", "/session/%s" % sid, timeout=20)
            except OSError:
                pass
        drv.terminate()
        drv.wait()


def jsonl_slices(logdir):
    """(port, "cmd id", start ps, end ps, id) of every request-response pair at a
    port, read from the JSONL log."""
    slices = []
    for path in sorted(glob.glob(os.path.join(logdir, "*.jsonl"))):
        port = os.path.basename(path)[:-len(".jsonl")]
        open_ = {}
        with open(path) as f:
            for line in f:
                r = json.loads(line)
                if r["cmd"] == "resp" and r["id"] in open_:
                    cmd, t0 = open_.pop(r["id"])
                    slices.append((port, "%s %d" % (cmd, r["id"]), t0, r["t"], r["id"]))
                elif r["cmd"] in NEEDS_RESPONSE or (r["cmd"] == "write" and
                                                    not r.get("posted")):
                    open_.setdefault(r["id"], (r["cmd"], r["t"]))
    return slices


def ps(us):
    return round(us * 1000000)


def main():
    mgtlm, platform = sys.argv[1], sys.argv[2]
    chrome = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if not chrome or not driver:
        print("SKIP: chromium and chromedriver are needed (Debian: apt-get install "
              "chromium chromium-driver; tools/setup --tests installs them)")
        return 77
    work = tempfile.mkdtemp(prefix="mgtlm-devtools-")
    try:
        for fmt in ("perfetto-gz", "jsonl"):
            subprocess.run([mgtlm, "run", platform, "--quiet",
                            "--set", "gpu*.cu[*].count=30", "--log-dir",
                            os.path.join(work, fmt), "--log-format", fmt],
                           check=True, stdout=subprocess.DEVNULL)
        with gzip.open(os.path.join(work, "perfetto-gz", "trace.json.gz"), "rt") as f:
            trace = json.load(f)
        want = jsonl_slices(os.path.join(work, "jsonl"))
        ports = {os.path.basename(p)[:-len(".jsonl")]
                 for p in glob.glob(os.path.join(work, "jsonl", "*.jsonl"))}
    finally:
        shutil.rmtree(work, ignore_errors=True)
    got = devtools_parse(chrome, driver, trace)
    check(not isinstance(got, str), "the DevTools trace engine loads the trace: %s"
          % str(got)[:500])
    if isinstance(got, str):
        finish()
    track_port = {}
    pids = collections.defaultdict(set)
    for th in got["threads"]:
        port = th["name"].split(" #")[0]
        track_port[(th["pid"], th["tid"])] = port
        pids[th["pid"]].add(port.split(".")[0])
    tracked = set(track_port.values())
    check(ports <= tracked,
          "every port is a thread: missing %s" % sorted(ports - tracked)[:5])
    check(all(len(groups) == 1 for groups in pids.values()) and
            len(pids) == len({p.split(".")[0] for p in ports}),
            "one process per GPU / fabric: %s" % dict(pids))
    seen = collections.Counter()
    slice_id = {}
    for th in got["threads"]:
        port = track_port[(th["pid"], th["tid"])]
        for name, ts, dur in th["slices"]:
            seen[(port, name, ps(ts), ps(ts) + ps(dur))] += 1
            slice_id[(th["pid"], th["tid"], ps(ts))] = (int(name.split()[-1]), port)
    expect = collections.Counter((p, n, t0, t1) for p, n, t0, t1, _ in want)
    check(len(want) > 0, "the run has request-response pairs")
    check(seen == expect,
            "the slices DevTools sees are the JSONL pairs: %d seen, %d expected, "
            "%d differ" % (sum(seen.values()), sum(expect.values()),
                           sum(((seen - expect) + (expect - seen)).values())))
    starts = collections.defaultdict(set)
    for _, _, t0, _, tid in want:
        starts[tid].add(t0)
    chains = {tid for tid, ts in starts.items() if len(ts) >= 2}
    flow_ids = set()
    bad = []
    for flow in got["flows"]:
        events = [slice_id.get((pid, tid, ps(ts))) for pid, tid, ts in flow]
        ids = {e[0] for e in events if e}
        if None in events or len(ids) != 1 or len({e[1] for e in events}) < 2:
            bad.append(flow)
        flow_ids |= ids
    check(not bad, "each flow joins slices of one id over 2+ ports: "
            "%d bad, first %s" % (len(bad), bad[:1]))
    check(flow_ids == chains and len(got["flows"]) == len(chains),
            "one flow per transaction with slices at 2+ times: %d flows, %d expected"
            % (len(got["flows"]), len(chains)))
    print("perfetto-devtools: %d ports, %d slices, %d flows" % (
        len(ports), sum(seen.values()), len(got["flows"])))
    finish()


if __name__ == "__main__":
    sys.exit(main())
