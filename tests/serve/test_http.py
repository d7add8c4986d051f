#!/usr/bin/env python3
"""mgtlm serve HTTP API: routes, run control, inject, log streaming, error statuses
(400 naming the field, 404, 405, 413, 503 when every connection slot is busy),
loopback-only listening, reset, shutdown on SIGTERM, and statdefs against stats on a
trace-driven platform. Expected times are plain
arithmetic on the requests (e.g. until 2us then for 500ns -> 2.5us = 2500000 ps); the
read-after-write data is what the test wrote.
usage: test_http.py MGTLM PLATFORM"""
import json
import os
import socket
import subprocess
import sys
import threading
import urllib.request

from serve_util import Checks, Server


def stream_logs(srv, query, lines, ready):
    req = urllib.request.Request(srv.url("/api/logs" + query))
    with urllib.request.urlopen(req, timeout=20) as r:
        ready.set()
        for raw in r:
            lines.append(json.loads(raw))


def check_errors(c, srv):
    st, r = srv.request("POST", "/api/run", raw=b'{"until": ')
    c.check(st == 400 and r["error"].startswith("body: line 1"), "malformed JSON: %s" % r)
    st, r = srv.request("POST", "/api/inject", raw=b'{"port":"t\\\xcd\x97\x90"}')
    c.check(st == 400 and r["error"].startswith("body: line 1") and "?" in r["error"],
            "ill-formed UTF-8 quoted in the error: %s" % r)
    st, r = srv.post("/api/run", {"bogus": 1})
    c.check(st == 400 and r["error"].startswith("bogus:"), "unknown field named: %s" % r)
    st, r = srv.post("/api/run", {"until": "1us", "for": "1us"})
    c.check(st == 400 and "until/for/events" in r["error"], "two limits: %s" % r)
    st, r = srv.post("/api/run", {"events": 0})
    c.check(st == 400 and r["error"].startswith("events:"), "events 0: %s" % r)
    st, r = srv.post("/api/run", {"until": 5})
    c.check(st == 400 and r["error"].startswith("until:"), "integer time: %s" % r)
    st, r = srv.post("/api/run", {"until": "1ns"})
    c.check(st == 400 and "before the current time" in r["error"], "until in past: %s" % r)
    st, r = srv.post("/api/inject", {"port": "gpu0.mem.in",
                                     "txn": {"cmd": "jump", "addr": "0x0"}})
    c.check(st == 400 and r["error"].startswith("txn/cmd"), "bad txn field: %s" % r)
    huge = {"cmd": "read", "addr": "0x0", "len": 2**32 - 1}
    st, r = srv.post("/api/inject", {"port": "gpu0.mem.in", "txn": huge})
    c.check(st == 400 and r["error"].startswith("txn/len"), "len above 1 MiB: %s" % r)
    st, r = srv.post("/api/inject", {"port": "gpu0.mem.in", "txn": {"cmd": "read"}})
    c.check(st == 400 and r["error"].startswith("txn"), "txn missing addr: %s" % r)
    st, r = srv.post("/api/inject", {"port": 7, "txn": {}})
    c.check(st == 400 and r["error"].startswith("port:"), "port not a string: %s" % r)
    st, r = srv.post("/api/inject", {"port": "gpu3.nothing.in", "txn": {"cmd": "read"}})
    c.check(st == 404 and r["error"].startswith("port:"), "unknown port 404: %s" % r)
    st, r = srv.get("/api/nothing")
    c.check(st == 404, "unknown route 404")
    st, r = srv.get("/api/run")
    c.check(st == 405, "GET /api/run is 405")
    st, r = srv.request("POST", "/api/inject", raw=b" " * 100000)
    c.check(st == 413, "a body over the limit is 413 (got %s)" % st)
    st, r = srv.get("/api/logs?ports=gpu9.*")
    c.check(st == 404 and "gpu9.*" in r["error"], "log glob matching nothing: %s" % r)
    st, r = srv.request("POST", "/api/run", raw=b"[1,2]")
    c.check(st == 400 and "expected an object" in r["error"], "array body: %s" % r)


def check_garbage(c, srv):
    s = socket.create_connection(("127.0.0.1", srv.port), timeout=5)
    s.sendall(b"\x00\xff NOT HTTP \r\n\r\n" * 10)
    try:
        s.recv(4096)
    except OSError:
        pass
    s.close()
    st, r = srv.get("/api/health")
    c.check(st == 200, "the server survives a non-HTTP client")


def check_stream_drop(c, srv):
    """A log-stream client and a waiting /api/run client that hang up mid-way."""
    s = socket.create_connection(("127.0.0.1", srv.port), timeout=5)
    s.sendall(b"GET /api/logs HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % srv.port)
    head = s.recv(4096)
    c.check(b"200 OK" in head and b"chunked" in head.lower(), "stream headers: %r" % head)
    w = socket.create_connection(("127.0.0.1", srv.port), timeout=5)
    body = b'{"until":"900us","wait":true}'
    w.sendall(b"POST /api/run HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
              b"Content-Length: %d\r\n\r\n%s" % (srv.port, len(body), body))
    srv.post("/api/inject", {"port": "tb.host", "txn": {"cmd": "read", "addr": "0x0",
                                                        "len": 4}})
    s.close()
    w.close()
    st, r = srv.post("/api/run", {"until": "1000us", "wait": True})
    c.check(st == 200 and r["time_ps"] == 1000000000, "runs on after clients left: %s" % r)
    st, r = srv.get("/api/health")
    c.check(st == 200, "healthy after clients hung up")


def check_run(c, srv):
    st, r = srv.post("/api/run", {"until": "2us", "wait": True})
    c.check(st == 200 and r["time_ps"] == 2000000 and r["stopped"] == "until",
            "run until 2us: %s" % r)
    st, r = srv.post("/api/run", {"for": "500ns", "wait": True})
    c.check(r["time_ps"] == 2500000, "run for 500ns: %s" % r)
    for k in range(3):
        srv.post("/api/inject", {"port": "tb.host.io",
                                 "txn": {"cmd": "read", "addr": "0x%x" % (64 * k),
                                         "len": 4, "gap": "%dns" % (10 * (k + 1))}})
    _, h = srv.get("/api/health")
    st, r = srv.post("/api/run", {"events": 1, "wait": True})
    c.check(r["events"] == h["events"] + 1 and r["stopped"] == "events",
            "run one event: %s after %s" % (r, h))
    st, r = srv.post("/api/run", {"wait": True})
    c.check(r["stopped"] == "idle" and r["pending"] == 0, "run until idle: %s" % r)
    st, r = srv.post("/api/run", {"until": "100us"})
    c.check(st == 200 and r["state"] == "running", "a run without wait answers at once")
    st, r = srv.post("/api/pause")
    c.check(st == 200 and r["state"] == "paused", "pause: %s" % r)


def check_inject_and_logs(c, srv):
    lines, ready = [], threading.Event()
    t = threading.Thread(target=stream_logs, args=(srv, "?ports=tb.host.*", lines, ready),
                         daemon=True)
    t.start()
    c.check(ready.wait(10), "log stream opened")
    st, r = srv.post("/api/inject", {"port": "gpu0.mem.in",
                                     "txn": {"cmd": "write", "addr": "0x40",
                                             "data": "0x01020304", "src": 0, "dst": 0}})
    c.check(st == 200 and r["endpoint"] == "tb.host" and r["t_ps"] == 0, "inject: %s" % r)
    st, r = srv.post("/api/inject", {"port": "tb.host",
                                     "txn": {"cmd": "read", "addr": "0x40", "len": 4,
                                             "t": "10ns", "src": 0, "dst": 0}})
    c.check(st == 200 and r["t_ps"] == 10000, "inject at t=10ns: %s" % r)
    st, r = srv.post("/api/run", {"for": "1us", "wait": True})
    c.check(st == 200 and r["time_ps"] == 1000000, "run for 1us: %s" % r)
    srv.post("/api/reset")  # ends the stream
    t.join(10)
    c.check(not t.is_alive(), "reset ends the log stream")
    sends = [x for x in lines if x["ev"] == "send"]
    resps = [x for x in lines if x["ev"] == "recv" and x["cmd"] == "resp"]
    c.check(len(sends) == 2 and sends[1]["t"] == 10000, "two sends streamed: %s" % lines)
    c.check(len(resps) == 2 and resps[1].get("data") == "0x01020304",
            "read after write returns the data: %s" % resps)
    c.check(all(x["port"] == "tb.host.io" for x in lines), "only the globbed port")


def check_traced_statdefs(c, mgtlm, platform):
    """A trace-driven platform: statdefs names exactly the stats of /api/stats, which
    leaves out those the host decides (the dispatchers' ctas_spooled)."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(platform))))
    srv = Server(mgtlm, [os.path.join(root, "platforms", "gpu4-baseline.json"), "--set",
                         "trace=" + os.path.join(root, "tests", "cores", "traces",
                                                 "remote-write")])
    try:
        st, r = srv.get("/api/stats")
        st2, d = srv.get("/api/statdefs")
        c.check(st == 200 and st2 == 200 and "gpu0.disp.ctas" in r and
                sorted(d) == sorted(r),
                "traced: statdefs names every stat of /api/stats and no other: %s" %
                sorted(set(d) ^ set(r)))
        c.check("gpu0.disp.ctas_spooled" not in r, "traced: no host stat in /api/stats")
        c.check(d.get("host.k0.cycles", {}).get("type") == "host",
                "traced: the host's per-kernel stat is typed host: %s" %
                d.get("host.k0.cycles"))
    finally:
        srv.stop()


def check_limits(c, mgtlm, platform):
    srv = Server(mgtlm, [platform, "--attach", "host=gpu0.mem.in", "--max-conns", "2"])
    try:
        streams = []
        for _ in range(2):
            s = socket.create_connection(("127.0.0.1", srv.port), timeout=10)
            s.sendall(b"GET /api/logs HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % srv.port)
            streams.append((s, s.recv(4096)))
        c.check(all(b"200 OK" in head for _, head in streams), "two log streams open")
        st, _ = srv.get("/api/health")
        c.check(st == 503, "both slots busy with streams: a third connection gets 503")
        for s, _ in streams:
            s.close()
    finally:
        srv.stop()
    for args, needle in [(["--listen", "0.0.0.0:0"], "not a loopback address"),
                         (["--listen", "localhost:0"], "not a numeric IP address"),
                         (["--attach", "x=gpu0.nothing"], "serve endpoint tb.x: no instance"),
                         (["--quantum", "0ns"], "--quantum")]:
        p = subprocess.run([mgtlm, "serve", platform] + args, capture_output=True,
                           text=True, timeout=20)
        c.check(p.returncode == 2 and needle in p.stderr,
                "%s -> exit 2 with %r: %d %s" % (args, needle, p.returncode, p.stderr))


def main():
    mgtlm, platform = sys.argv[1], sys.argv[2]
    c = Checks()
    srv = Server(mgtlm, [platform, "--attach", "host=gpu0.mem.in"])
    try:
        st, r = srv.get("/api/health")
        c.check(st == 200 and r["ok"] and r["time_ps"] == 0 and r["events"] == 0,
                "health: %s" % r)
        st, r = srv.get("/api/platform")
        ports = {p["port"]: p.get("peer") for p in r["ports"]}
        c.check(st == 200 and ports.get("gpu0.mem.in") == "tb.host.io",
                "platform lists ports and peers")
        c.check(r["name"] == "serve-mem1", "platform name")
        st, r = srv.get("/")
        c.check(st == 200 and "<canvas" in r, "dashboard page")
        check_inject_and_logs(c, srv)
        _, h = srv.get("/api/health")
        c.check(h["time_ps"] == 0 and h["events"] == 0, "reset: %s" % h)
        check_run(c, srv)
        st, r = srv.get("/api/stats")
        c.check(st == 200 and r["tb.host.injected"] == 3 and r["gpu0.mem.reads"] == 3,
                "stats: %s" % r)
        st, d = srv.get("/api/statdefs")
        c.check(st == 200 and sorted(d) == sorted(r),
                "statdefs names every stat of /api/stats: %s" % sorted(set(d) ^ set(r)))
        c.check(d.get("gpu0.mem.reads") == {"kind": "counter", "unit": "",
                                            "type": "memory"}, "statdefs: a counter")
        c.check(d.get("gpu0.mem.busy_ps", {}).get("kind") == "time" and
                d["gpu0.mem.busy_ps"]["unit"] == "ps", "statdefs: a time in ps")
        check_errors(c, srv)
        check_garbage(c, srv)
        check_stream_drop(c, srv)
    finally:
        rc, log = srv.stop()
    c.check(rc == 0 and "stopped at" in log, "SIGTERM stops the server: %d" % rc)
    check_limits(c, mgtlm, platform)
    check_traced_statdefs(c, mgtlm, platform)
    return c.report("test_http")


if __name__ == "__main__":
    sys.exit(main())
