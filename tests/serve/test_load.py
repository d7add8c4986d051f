#!/usr/bin/env python3
"""Bounded load test: wrk hammers GET /api/stats while mgtlm serve runs a 16-GPU
platform. Reports requests/s and the server's resident memory (VmRSS, sampled every
0.25 s) and checks that every request got a 2xx answer, that the simulation kept
advancing, and that memory stays bounded: the peak during the second wrk round is
at most 32 MiB above the peak of the first (a leak per request would grow with the
~10^4 requests of each round).
Skips (exit 77) when wrk is not installed (Debian package wrk).
usage: test_load.py MGTLM PLATFORM [SECONDS_PER_ROUND]"""
import os
import re
import shutil
import subprocess
import sys
import threading
import time

from serve_util import Checks, Server


def rss_kib(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def wrk_round(wrk, url, secs, pid):
    peak = [0]
    done = threading.Event()

    def sample():
        while not done.is_set():
            peak[0] = max(peak[0], rss_kib(pid))
            time.sleep(0.25)
    t = threading.Thread(target=sample, daemon=True)
    t.start()
    p = subprocess.run([wrk, "-t2", "-c8", "-d%ds" % secs, "--timeout", "10s", url],
                       capture_output=True, text=True, timeout=secs + 60)
    done.set()
    t.join()
    m = re.search(r"Requests/sec:\s+([\d.]+)", p.stdout)
    n = re.search(r"(\d+) requests in", p.stdout)
    bad = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", p.stdout)
    errs = re.search(r"Socket errors:.*", p.stdout)
    return {"rps": float(m.group(1)) if m else 0.0, "requests": int(n.group(1)) if n else 0,
            "non2xx": int(bad.group(1)) if bad else 0,
            "socket_errors": errs.group(0) if errs else "", "peak_kib": peak[0],
            "out": p.stdout}


def main():
    mgtlm, platform = sys.argv[1], sys.argv[2]
    secs = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    wrk = shutil.which("wrk")
    if not wrk:
        print("SKIP: wrk is needed (Debian: apt-get install wrk; tools/setup --tests installs it)")
        return 77
    c = Checks()
    # under AddressSanitizer, freed memory sits in a 256 MiB quarantine: keep it
    # small so that the RSS reflects what the server holds
    env = dict(os.environ)
    asan = env.get("ASAN_OPTIONS", "")
    env["ASAN_OPTIONS"] = (asan + ":" if asan else "") + "quarantine_size_mb=4"
    srv = Server(mgtlm, [platform, "--set", "gpu*.cu[*].count=50000"], env=env)
    try:
        pid = srv.proc.pid
        st, r = srv.post("/api/run", {})
        c.check(st == 200 and r["state"] == "running", "run started")
        time.sleep(0.5)
        start = rss_kib(pid)
        _, h0 = srv.get("/api/health")
        r1 = wrk_round(wrk, srv.url("/api/stats"), secs, pid)
        _, h1 = srv.get("/api/health")
        r2 = wrk_round(wrk, srv.url("/api/stats"), secs, pid)
        _, h2 = srv.get("/api/health")
        for i, r in enumerate((r1, r2), 1):
            print("round %d: %.1f requests/s (%d requests), peak RSS %.1f MiB %s" %
                  (i, r["rps"], r["requests"], r["peak_kib"] / 1024, r["socket_errors"]))
            c.check(r["requests"] > 0 and r["non2xx"] == 0,
                    "round %d: all answers 2xx: %s" % (i, r["out"]))
        print("RSS at start %.1f MiB; simulated %.3f us -> %.3f us -> %.3f us while loaded" %
              (start / 1024, h0["time_ps"] / 1e6, h1["time_ps"] / 1e6, h2["time_ps"] / 1e6))
        c.check(h1["time_ps"] > h0["time_ps"] and (h2["time_ps"] > h1["time_ps"] or
                                                  h2["state"] == "paused"),
                "the simulation advances under load")
        c.check(r2["peak_kib"] <= r1["peak_kib"] + 32 * 1024,
                "memory bounded: %d KiB then %d KiB" % (r1["peak_kib"], r2["peak_kib"]))
    finally:
        rc, _ = srv.stop()
    c.check(rc == 0, "server exits 0")
    return c.report("test_load")


if __name__ == "__main__":
    sys.exit(main())
