#!/usr/bin/env python3
"""mgtlm serve refuses what a hostile web page could send (docs/serve.md, "Security
model"): a Host that is not the listening address (DNS rebinding) or a missing one,
a foreign Origin (cross-site request forgery: the refused POST must not start a run),
and, with --token or --token-file, a request without the token or with a wrong one.
Every refusal is logged once for its connection and closes it. Bad token options exit
with status 2 and one line.
usage: test_guard.py MGTLM PLATFORM"""
import os
import socket
import subprocess
import sys
import tempfile

from serve_util import Checks, Server

ATTACH = ["--attach", "host=gpu0.mem.in"]


def raw_request(port, head):
    """Sends one raw request; (status, everything the server sent until it closed)."""
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.sendall(head)
    data = b""
    try:
        chunk = s.recv(4096)
        while chunk:
            data += chunk
            chunk = s.recv(4096)
    except socket.timeout:
        data += b"(not closed)"
    s.close()
    status = int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/") else 0
    return status, data


def check_host_origin(c, mgtlm, platform):
    srv = Server(mgtlm, [platform] + ATTACH)
    p = srv.port
    refused = 0
    try:
        for host in ["127.0.0.1:%d" % p, "localhost:%d" % p, "LOCALHOST:%d" % p,
                     "127.0.0.2:%d" % p]:
            st, r = srv.get("/api/health", headers={"Host": host})
            c.check(st == 200, "Host %s accepted: %s %s" % (host, st, r))
        for host in ["evil.example:%d" % p, "127.0.0.1:%d" % (p + 1), "127.0.0.1",
                     "localhost.evil.example:%d" % p, "[::1]x:%d" % p, "10.0.0.1:%d" % p]:
            st, r = srv.get("/api/health", headers={"Host": host})
            refused += 1
            c.check(st == 403 and r["error"].startswith("Host:"),
                    "Host %s refused with 403: %s %s" % (host, st, r))
        st, data = raw_request(p, b"GET /api/health HTTP/1.0\r\n\r\n")
        refused += 1
        c.check(st == 403 and b"Host: missing" in data, "no Host: 403: %r" % data)
        for origin in ["http://evil.example", "null", "https://127.0.0.1:%d" % p,
                       "http://127.0.0.1:%d.evil.example" % p]:
            st, r = srv.post("/api/run", {"until": "1us"}, headers={"Origin": origin})
            refused += 1
            c.check(st == 403 and r["error"].startswith("Origin:"),
                    "Origin %s refused with 403: %s %s" % (origin, st, r))
        _, h = srv.get("/api/health")
        c.check(h["state"] == "paused" and h["time_ps"] == 0,
                "a cross-site POST started no run: %s" % h)
        st, r = srv.post("/api/run", {"until": "1us", "wait": True},
                         headers={"Origin": "http://127.0.0.1:%d" % p})
        c.check(st == 200 and r["time_ps"] == 1000000, "same-origin POST runs: %s" % r)
        # a refused keep-alive connection is closed after one answer: one log line
        head = b"GET /api/health HTTP/1.1\r\nHost: evil.example:%d\r\n\r\n" % p
        st, data = raw_request(p, head * 3)
        refused += 1
        c.check(st == 403 and data.count(b"HTTP/1.1 ") == 1,
                "three pipelined refused requests: one answer, then closed: %r" % data)
    finally:
        rc, log = srv.stop()
    lines = [x for x in log.splitlines() if "refused a request" in x]
    c.check(rc == 0 and len(lines) == refused,
            "one log line per refused connection (%d expected): %s" % (refused, lines))


def check_token(c, mgtlm, platform, args, token):
    srv = Server(mgtlm, [platform] + ATTACH + args)
    try:
        st, r = srv.get("/api/health")
        c.check(st == 401 and "token" in r["error"], "no token: 401: %s %s" % (st, r))
        st, r = srv.post("/api/run", {"until": "1us", "wait": True})
        c.check(st == 401, "no token: POST refused: %s" % st)
        for bad in [token + "x", token[:-1], "", token.upper()]:
            st, r = srv.get("/api/health", headers={"Authorization": "Bearer " + bad})
            c.check(st == 401 and "token" in r["error"],
                    "wrong token %r: 401: %s %s" % (bad, st, r))
        st, r = srv.get("/api/health?token=" + token + "y")
        c.check(st == 401, "wrong token in the query: 401: %s" % st)
        st, r = srv.get("/api/health", headers={"Authorization": "Bearer " + token})
        c.check(st == 200 and r["time_ps"] == 0,
                "right token: 200, no run: %s %s" % (st, r))
        st, r = srv.get("/api/health", headers={"Authorization": "bearer " + token})
        c.check(st == 200, "the scheme is case-insensitive: %s" % st)
        st, r = srv.get("/api/health?token=" + token)
        c.check(st == 200, "token in the query: %s" % st)
        st, r = srv.get("/?token=" + token)
        c.check(st == 200 and "<canvas" in r, "dashboard with the token in its query")
        st, r = srv.get("/")
        c.check(st == 401, "dashboard without the token: %s" % st)
        st, r = srv.get("/api/health", headers={"Authorization": "Bearer " + token,
                                                "Host": "evil.example:%d" % srv.port})
        c.check(st == 403, "the token does not excuse a foreign Host: %s" % st)
    finally:
        rc, _ = srv.stop()
    c.check(rc == 0, "server with a token stops cleanly")


def check_bad_options(c, mgtlm, platform, tmp):
    empty = os.path.join(tmp, "empty")
    open(empty, "w").close()
    two = os.path.join(tmp, "two-lines")
    with open(two, "w") as f:
        f.write("abc\ndef\n")
    fifo = os.path.join(tmp, "fifo")
    os.mkfifo(fifo)
    good = os.path.join(tmp, "good")
    with open(good, "w") as f:
        f.write("abc\n")
    for args, needle in [(["--token", ""], "--token: expected"),
                         (["--token", "a b"], "--token: expected"),
                         (["--token", "x" * 257], "--token: expected"),
                         (["--token", "a", "--token", "b"], "--token given twice"),
                         (["--token", "a", "--token-file", good], "only one of"),
                         (["--token-file", os.path.join(tmp, "none")], "No such file"),
                         (["--token-file", empty], "--token-file: expected"),
                         (["--token-file", two], "--token-file: expected"),
                         (["--token-file", fifo], "not a regular file"),
                         (["--token-file", tmp], "not a regular file"),
                         (["--idle-timeout", "0"], "--idle-timeout 0: expected")]:
        p = subprocess.run([mgtlm, "serve", platform] + ATTACH + args,
                           capture_output=True, text=True, timeout=20)
        c.check(p.returncode == 2 and needle in p.stderr and p.stderr.count("\n") == 1,
                "%s -> exit 2 with %r: %d %s"
                % (args[:2], needle, p.returncode, p.stderr))


def main():
    mgtlm, platform = sys.argv[1], sys.argv[2]
    c = Checks()
    check_host_origin(c, mgtlm, platform)
    check_token(c, mgtlm, platform, ["--token", "s3cret-Token_1.~"], "s3cret-Token_1.~")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "token")
        with open(path, "w") as f:
            f.write("f1le-token\n")
        check_token(c, mgtlm, platform, ["--token-file", path], "f1le-token")
        check_bad_options(c, mgtlm, platform, tmp)
    return c.report("test_guard")


if __name__ == "__main__":
    sys.exit(main())
