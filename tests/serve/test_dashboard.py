#!/usr/bin/env python3
"""The mgtlm serve dashboard in headless Chromium, driven through chromedriver's
W3C WebDriver HTTP protocol (urllib only, no third-party modules): load the page
served by mgtlm, advance the simulation through the API, assert that simulated time
and the charts update (their data-points counts grow), save a screenshot. Twice:
- PLATFORM (4 GPUs): link utilisation, bandwidth, latency and port-rate charts fill;
- WIDE with --set gpus=64 (a DualOpt platform: CoDec gauges, reads): the per-GPU
  charts hold one series per GPU but a legend of at most 8 GPUs and the mean, and
  the occupancy panel plots exactly the RWQ/CoDec stats /api/statdefs calls gauges.
Skips (exit 77) with a message when chromium or chromedriver is not installed
(Debian packages chromium, chromium-driver; tools/setup --tests installs them).
usage: test_dashboard.py MGTLM PLATFORM SCREENSHOT.png WIDE WIDE_SCREENSHOT.png"""
import base64
import shutil
import subprocess
import sys
import time

from serve_util import Checks, Server
from webdriver import free_port, wd

CHROME_ARGS = ["--headless", "--no-sandbox", "--disable-gpu",
               "--disable-background-networking", "--window-size=1200,1500"]


def js(base, sid, script):
    return wd(base, "POST", "/session/%s/execute/sync" % sid,
              {"script": script, "args": []})


def page_state(base, sid):
    return js(base, sid, """const d = id => document.getElementById(id).dataset;
      return {
        time: document.getElementById('time').textContent,
        samples: +document.getElementById('samples').textContent,
        links: +d('links').points, bw: +d('bw').points, lat: +d('lat').points,
        ports: +d('ports').points, occ: +d('occ').points,
        gauges: +(d('occ').gauges || 0),
        series: +(d('links').series || 0), legend: +(d('links').legend || 0),
        lat_series: +(d('lat').series || 0), lat_legend: +(d('lat').legend || 0),
        error: document.getElementById('error').textContent};""")


def check_page(c, base, sid, srv, shot, wide):
    """Loads the dashboard of srv, runs the simulation, checks the charts."""
    wd(base, "POST", "/session/%s/url" % sid, {"url": srv.url("/")})
    time.sleep(1.5)
    before = page_state(base, sid)
    c.check(before["samples"] == 0 and before["links"] == 0,
            "nothing plotted while paused: %s" % before)
    after = before
    deadline = time.time() + 60
    while time.time() < deadline:
        srv.post("/api/run", {"for": "10us", "wait": True})
        time.sleep(0.6 if wide else 0.35)
        after = page_state(base, sid)
        if after["samples"] >= 4 and after["links"] >= 8 and after["lat"] > 0 and \
                after["ports"] > 0 and (not wide or after["occ"] > 0):
            break
    c.check(after["time"] != before["time"], "simulated time updates: %s" % after)
    c.check(after["samples"] >= 4, "samples taken while running: %s" % after)
    c.check(after["links"] >= 8, "link utilisation chart has points: %s" % after)
    c.check(after["bw"] >= 8, "bandwidth chart has points: %s" % after)
    c.check(after["lat"] > 0, "latency chart has points: %s" % after)
    c.check(after["ports"] > 0, "port rate chart has bars: %s" % after)
    c.check(after["error"] == "", "no error shown: %s" % after)
    _, defs = srv.get("/api/statdefs")
    gauges = [k for k, d in defs.items()
              if d["kind"] == "gauge" and d["type"] in ("rwq", "codec")]
    c.check(after["gauges"] == len(gauges),
            "occupancy plots the %d RWQ/CoDec gauges: %s" % (len(gauges), after))
    gpus = {k.split(".")[0] for k in defs if "link" in k and k.endswith("_busy_ps")}
    c.check(after["series"] == len(gpus), "one link series per GPU (%d): %s"
            % (len(gpus), after))
    if wide:
        c.check(len(gauges) >= 64 and after["occ"] > 0,
                "a gauge per GPU plotted: %d, %s" % (len(gauges), after))
        for what in ("", "lat_"):
            c.check(after[what + "series"] >= 64 and 0 < after[what + "legend"] <= 9,
                    "%s legend of the top 8 and the mean: %s" % (what or "link", after))
    else:
        c.check(after["legend"] == len(gpus) + 1,
                "every GPU and the mean in the legend: %s" % after)
    js(base, sid, "document.getElementById('pause').click(); return 0;")
    png = base64.b64decode(wd(base, "GET", "/session/%s/screenshot" % sid))
    with open(shot, "wb") as f:
        f.write(png)
    c.check(png[:8] == b"\x89PNG\r\n\x1a\n", "screenshot saved to %s" % shot)


def main():
    mgtlm, platform, shot, wide, wide_shot = sys.argv[1:6]
    chrome = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if not chrome or not driver:
        print("SKIP: chromium and chromedriver are needed (Debian: apt-get install "
              "chromium chromium-driver; tools/setup --tests installs them)")
        return 77
    c = Checks()
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
        sid = wd(base, "POST", "/session", caps, timeout=60)["sessionId"]
        for plat, sets, png, is_wide in (
                (platform, ["--set", "gpu*.cu[*].count=20000"], shot, False),
                (wide, ["--set", "gpus=64"], wide_shot, True)):
            srv = Server(mgtlm, [plat] + sets)
            try:
                check_page(c, base, sid, srv, png, is_wide)
            finally:
                rc, _ = srv.stop()
            c.check(rc == 0, "server exits 0")
    finally:
        if sid:
            try:
                wd(base, "DELETE", "/session/%s" % sid, timeout=20)
            except OSError:
                pass
        drv.terminate()
        try:
            drv.wait(timeout=10)
        except subprocess.TimeoutExpired:
            drv.kill()
    return c.report("test_dashboard")


if __name__ == "__main__":
    sys.exit(main())
