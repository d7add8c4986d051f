#!/usr/bin/env python3
"""mgtlm serve stays available to a newcomer: 64 idle keep-alive connections do not
lock it out (the longest idle one is closed for the new one), a silent connection is
closed after --idle-timeout (but not a log stream waiting for records), and out of file descriptors the server pauses its
listener, logs the failure once (not once per failed accept) and answers again once
the connections close. The waits are bounded generously; nothing asserts a duration.
usage: test_slots.py MGTLM PLATFORM"""
import resource
import socket
import sys
import time

from serve_util import Checks, Server

ATTACH = ["--attach", "host=gpu0.mem.in"]


def closed_by_server(s, timeout=20.0):
    """True if the server closes s (EOF) within timeout."""
    s.settimeout(timeout)
    try:
        return s.recv(4096) == b""
    except ConnectionResetError:
        return True
    except socket.timeout:
        return False


def keepalive(port):
    """A connection that made one request (it now holds a slot) and stays open."""
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % port)
    data = b""
    while b"\r\n\r\n" not in data or not data.endswith(b"}\n"):
        chunk = s.recv(4096)
        if not chunk:
            break
        data += chunk
    return s, data


def check_idle_slots(c, mgtlm, platform):
    srv = Server(mgtlm, [platform] + ATTACH)
    try:
        conns = [keepalive(srv.port) for _ in range(64)]
        c.check(all(b" 200 OK" in d for _, d in conns),
                "64 keep-alive connections served")
        st, r = srv.get("/api/health", timeout=20)
        c.check(st == 200 and r["ok"], "a 65th client is served: %s %s" % (st, r))
        c.check(closed_by_server(conns[0][0]), "the longest idle connection was closed")
        s, d = keepalive(srv.port)
        c.check(b" 200 OK" in d, "and a 66th: %r" % d[:40])
        c.check(closed_by_server(conns[1][0]), "then the next longest idle one")
        s.close()
        for s, _ in conns:
            s.close()
    finally:
        srv.stop()


def check_idle_timeout(c, mgtlm, platform):
    srv = Server(mgtlm, [platform] + ATTACH + ["--idle-timeout", "1"])
    try:
        s, d = keepalive(srv.port)
        c.check(b" 200 OK" in d, "served before going idle")
        c.check(closed_by_server(s), "an idle connection is closed by --idle-timeout")
        s.close()
        silent = socket.create_connection(("127.0.0.1", srv.port), timeout=10)
        c.check(closed_by_server(silent), "a connection that never sends is closed too")
        silent.close()
        # a log stream stays open while the simulation is paused, past the timeout
        stream = socket.create_connection(("127.0.0.1", srv.port), timeout=10)
        stream.sendall(b"GET /api/logs?ports=tb.host.* HTTP/1.1\r\n"
                       b"Host: 127.0.0.1:%d\r\n\r\n" % srv.port)
        head = stream.recv(4096)
        c.check(not closed_by_server(stream, 3.0), "an idle log stream is not closed")
        srv.post("/api/inject", {"port": "tb.host",
                                 "txn": {"cmd": "read", "addr": "0x0", "len": 4}})
        srv.post("/api/run", {"for": "1us", "wait": True})
        stream.settimeout(10)
        data = head + stream.recv(65536)
        c.check(b" 200 OK" in data and b'"ev":"send"' in data,
                "and it still streams records: %r" % data[-200:])
        stream.close()
    finally:
        srv.stop()


def check_out_of_fds(c, mgtlm, platform):
    def limit():
        resource.setrlimit(resource.RLIMIT_NOFILE, (32, 32))

    srv = Server(mgtlm, [platform] + ATTACH, preexec_fn=limit)
    try:
        socks = [socket.create_connection(("127.0.0.1", srv.port), timeout=10)
                 for _ in range(80)]
        deadline = time.time() + 20
        while "cannot accept" not in srv.stderr() and time.time() < deadline:
            time.sleep(0.1)
        time.sleep(2)  # the listener retries meanwhile: none may add a line
        log = srv.stderr().splitlines()
        c.check(sum("cannot accept" in x for x in log) == 1 and len(log) <= 3,
                "out of descriptors: the failure is logged once (%d lines): %s"
                % (len(log), log[:5]))
        for s in socks:
            s.close()
        st, r = srv.get("/api/health", timeout=30)
        c.check(st == 200 and r["ok"], "answers again after the connections closed")
    finally:
        rc, _ = srv.stop()
    c.check(rc == 0, "stops cleanly: %d" % rc)


def check_pcie_out_of_fds(c, mgtlm, platform):
    """The PCIe/IP listener out of descriptors: paused and logged once, not retried in
    a busy loop; a peer can connect again once the descriptors are back."""
    def limit():
        resource.setrlimit(resource.RLIMIT_NOFILE, (32, 32))

    srv = Server(mgtlm, [platform, "--pcie-ip", "127.0.0.1:0=gpu0.mem.in"],
                 preexec_fn=limit)
    try:
        port = srv.pcie_ports[0]
        # HTTP connections take every descriptor (the PCIe listener itself closes a
        # second peer at once, so it cannot exhaust them alone), then peers knock
        socks = [socket.create_connection(("127.0.0.1", srv.port), timeout=10)
                 for _ in range(80)]
        socks += [socket.create_connection(("127.0.0.1", port), timeout=10)
                  for _ in range(4)]
        def refusals():
            return [x for x in srv.stderr().splitlines()
                    if "cannot accept" in x and "pcie-ip" in x]

        deadline = time.time() + 20
        while not refusals() and time.time() < deadline:
            time.sleep(0.1)
        time.sleep(2)  # the listener retries meanwhile: none may add a line
        log = refusals()
        c.check(len(log) == 1,
                "PCIe/IP out of descriptors: logged once (%d lines): %s"
                % (len(log), log[:3]))
        for s in socks:
            s.close()
        time.sleep(1)
        peer = socket.create_connection(("127.0.0.1", port), timeout=10)
        deadline = time.time() + 20
        while srv.stderr().count("peer connected") == 0 and time.time() < deadline:
            time.sleep(0.1)
        c.check("peer connected" in srv.stderr(), "a peer connects again afterwards")
        peer.close()
    finally:
        rc, _ = srv.stop()
    c.check(rc == 0, "stops cleanly: %d" % rc)


def main():
    mgtlm, platform = sys.argv[1], sys.argv[2]
    c = Checks()
    check_idle_slots(c, mgtlm, platform)
    check_idle_timeout(c, mgtlm, platform)
    check_out_of_fds(c, mgtlm, platform)
    check_pcie_out_of_fds(c, mgtlm, platform)
    return c.report("test_slots")


if __name__ == "__main__":
    sys.exit(main())
