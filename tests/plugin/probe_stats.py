"""Checks the probe plug-in's statistics after examples/probe/gpu4-probe.json ran,
against numbers derived by hand from that platform (gpu4-baseline with 200 reads per
CU and a 5 ns probe between each crossbar and its memory):
- every one of the 4 GPUs x 4 CUs x 200 = 3200 reads reaches its home memory once,
  through that GPU's probe: the probes pass 3200 transactions down and 3200 answers
  up in all, and time 3200 round trips;
- the memory answers a 4 B read after its latency of 100 ns plus 4 B at 1 TB/s
  (4 ps), and with 16 slots it never queues this load, so every round trip (arrival
  at the probe's up to the response's arrival at its down) is 5 ns + 100 ns + 4 ps
  = 105004 ps: min and max.

The same count holds for the JSONL logs of the four probes' up ports: 3200 requests
arrive ("recv") and 3200 responses leave ("send").

usage: probe_stats.py file STATS.json      (the JSON of mgtlm run --stats, or the
                                             output of examples/embed after its
                                             first line)
       probe_stats.py logs DIR                  (mgtlm run --log-dir DIR
                                             --log-ports '*.probe.up')
       probe_stats.py serve MGTLM PROBE.so PLATFORM   (mgtlm serve with the plug-in,
                                             run until idle, GET /api/stats)
Prints what it checked; exit status 0 only if every check held."""
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "serve"))

NAME = re.compile(r"^gpu[0-3]\.probe\.(passed_down|passed_up|round_trip)$")


def probe_stats(doc, found):
    """Collects the probe entries of a stats document, wherever they are nested."""
    if isinstance(doc, dict):
        for k, v in doc.items():
            if NAME.match(k):
                found[k] = v
            else:
                probe_stats(v, found)
    elif isinstance(doc, list):
        for v in doc:
            probe_stats(v, found)
    return found


def check(doc, what):
    s = probe_stats(doc, {})
    down = sum(v for k, v in s.items() if k.endswith("passed_down"))
    up = sum(v for k, v in s.items() if k.endswith("passed_up"))
    hists = [v for k, v in s.items() if k.endswith("round_trip")]
    checks = [
        (len(s) == 12, "12 probe statistics (3 on each of 4 GPUs), found %d" % len(s)),
        (down == 3200, "3200 transactions passed down, got %d" % down),
        (up == 3200, "3200 answers passed up, got %d" % up),
        (sum(h["count"] for h in hists) == 3200, "3200 round trips timed"),
        (all(h["min"] == 105004 and h["max"] == 105004 for h in hists),
         "every round trip 105004 ps: %s" % [(h["min"], h["max"]) for h in hists]),
    ]
    ok = True
    for good, text in checks:
        print("%s %s: %s" % ("PASS" if good else "FAIL", what, text))
        ok = ok and good
    return ok


def check_logs(folder):
    counts = {"recv": 0, "send": 0}
    files = sorted(os.listdir(folder))
    for name in files:
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            for line in f:
                rec = json.loads(line)
                if rec["port"] + ".jsonl" == name and rec["ev"] in counts:
                    counts[rec["ev"]] += 1
    checks = [
        (files == ["gpu%d.probe.up.jsonl" % g for g in range(4)],
         "one log per probe up port: %s" % files),
        (counts["recv"] == 3200, "3200 requests arrive at up, got %d" % counts["recv"]),
        (counts["send"] == 3200, "3200 responses leave up, got %d" % counts["send"]),
    ]
    for good, text in checks:
        print("%s logs: %s" % ("PASS" if good else "FAIL", text))
    return all(good for good, _ in checks)


def main():
    if sys.argv[1] == "file":
        with open(sys.argv[2], encoding="utf-8") as f:
            return check(json.load(f), sys.argv[2])
    if sys.argv[1] == "logs":
        return check_logs(sys.argv[2])
    from serve_util import Server
    mgtlm, probe, platform = sys.argv[2:5]
    srv = Server(mgtlm, ["--plugin", probe, platform])
    try:
        st, r = srv.post("/api/run", {"wait": True})
        ok = st == 200 and r.get("stopped") == "idle"
        print("%s serve: run until idle (%s)" % ("PASS" if ok else "FAIL", st))
        st, stats = srv.get("/api/stats")
        ok = check(stats, "serve /api/stats") and ok
    finally:
        srv.stop()
    return ok


if __name__ == "__main__":
    sys.exit(0 if main() else 1)
