#!/usr/bin/env python3
"""The mgtlm serve dashboard in headless Chromium, driven through chromedriver's
W3C WebDriver HTTP protocol (urllib only, no third-party modules): load the page
served by mgtlm, advance the simulation through the API, assert that simulated time
and the charts update (their data-points counts grow), save a screenshot.
Skips (exit 77) with a message when chromium or chromedriver is not installed
(Debian packages chromium, chromium-driver; tools/setup --tests installs them).
usage: test_dashboard.py MGTLM PLATFORM SCREENSHOT.png"""
import base64
import json
import shutil
import socket
import subprocess
import sys
import time
import urllib.request

from serve_util import Checks, Server

CHROME_ARGS = ["--headless", "--no-sandbox", "--disable-gpu",
               "--disable-background-networking", "--window-size=1200,1000"]


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def wd(base, method, path, body=None, timeout=30):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method,
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=timeout) as r:
        return json.loads(r.read().decode())["value"]


def js(base, sid, script):
    return wd(base, "POST", "/session/%s/execute/sync" % sid,
              {"script": script, "args": []})


def page_state(base, sid):
    return js(base, sid, """return {
        time: document.getElementById('time').textContent,
        samples: +document.getElementById('samples').textContent,
        links: +document.getElementById('links').dataset.points,
        ports: +document.getElementById('ports').dataset.points,
        error: document.getElementById('error').textContent};""")


def main():
    mgtlm, platform, shot = sys.argv[1], sys.argv[2], sys.argv[3]
    chrome = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if not chrome or not driver:
        print("SKIP: chromium and chromedriver are needed (Debian: apt-get install "
              "chromium chromium-driver; tools/setup --tests installs them)")
        return 77
    c = Checks()
    srv = Server(mgtlm, [platform, "--set", "gpu*.cu[*].count=20000"])
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
        wd(base, "POST", "/session/%s/url" % sid, {"url": srv.url("/")})
        time.sleep(1.5)
        before = page_state(base, sid)
        c.check(before["samples"] == 0 and before["links"] == 0,
                "nothing plotted while paused: %s" % before)
        after = before
        deadline = time.time() + 40
        while time.time() < deadline:
            srv.post("/api/run", {"for": "10us", "wait": True})
            time.sleep(0.35)
            after = page_state(base, sid)
            if after["samples"] >= 4 and after["links"] >= 8 and after["ports"] > 0:
                break
        c.check(after["time"] != before["time"], "simulated time updates: %s" % after)
        c.check(after["samples"] >= 4, "samples taken while running: %s" % after)
        c.check(after["links"] >= 8, "link utilisation chart has points: %s" % after)
        c.check(after["ports"] > 0, "port rate chart has bars: %s" % after)
        c.check(after["error"] == "", "no error shown: %s" % after)
        js(base, sid, "document.getElementById('pause').click(); return 0;")
        png = base64.b64decode(wd(base, "GET", "/session/%s/screenshot" % sid))
        with open(shot, "wb") as f:
            f.write(png)
        c.check(png[:8] == b"\x89PNG\r\n\x1a\n", "screenshot saved to %s" % shot)
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
        rc, _ = srv.stop()
    c.check(rc == 0, "server exits 0")
    return c.report("test_dashboard")


if __name__ == "__main__":
    sys.exit(main())
