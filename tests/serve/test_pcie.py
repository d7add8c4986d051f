#!/usr/bin/env python3
"""mgtlm serve --pcie-ip: an in-repo PCIe/IP client (pcie_client.py, written from the
warp-pipe format description) writes with MWr64, reads back with MRd64 and checks the
CplD data, byte count, lower address, tag and sequence numbers; then sends malformed
frames (bad LCRC, unknown protocol byte, bad length, bad byte enables, truncated
stream) and checks that each is rejected with a log line and the connection closed,
while the server stays up.
Expected values are derived by hand from the PCIe completion rules:
- 2 DW read, all bytes enabled: Byte Count 8, Lower Address = addr & 0x7f = 0x00;
- 2 DW read of 0x1000 with first BE 0b1110, last BE 0b0011: bytes 0x1001..0x1005,
  Byte Count 8 - 1 - 2 = 5, Lower Address 0x01;
- our sequence numbers count our TLPs from 1: the three completions carry 1, 2, 3.
usage: test_pcie.py MGTLM PLATFORM"""
import socket
import sys
import time

import pcie_client as pc
from serve_util import Checks, Server


def expect_closed(sock, timeout=5.0):
    sock.settimeout(timeout)
    try:
        return sock.recv(64) == b""
    except (ConnectionResetError, socket.timeout):
        return False


def wait_closed(srv, n, timeout=5.0):
    """Waits until the server has logged n closed PCIe/IP connections."""
    deadline = time.time() + timeout
    while srv.stderr().count("connection closed") < n and time.time() < deadline:
        time.sleep(0.05)


def malformed_cases():
    good = pc.tlp_frame(1, pc.mwr64(0x2000, bytes(range(8))))
    bad_crc = good[:-1] + bytes([good[-1] ^ 0xFF])
    return [
        ("bad LCRC", bad_crc, "bad LCRC"),
        ("unknown protocol byte", b"\x07" + good[1:], "unknown protocol byte 0x07"),
        ("bad length", pc.tlp_frame(1, pc.mrd64(0xFFC, 2)), "bad length"),
        ("bad byte enables", pc.tlp_frame(1, pc.mrd64(0x100, 1, last_be=0xF)),
         "bad byte enables"),
        ("truncated stream", good[:10], "truncated frame"),
    ]


def main():
    mgtlm, platform = sys.argv[1], sys.argv[2]
    c = Checks()
    srv = Server(mgtlm, [platform, "--pcie-ip", "127.0.0.1:0=gpu0.mem.in"])
    try:
        c.check(len(srv.pcie_ports) == 1, "the PCIe/IP listener port is printed")
        port = srv.pcie_ports[0]
        s = pc.connect(port)
        payload = bytes([0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88])
        s.sendall(pc.tlp_frame(1, pc.mwr64(0x1000, payload, tag=1)))
        s.sendall(pc.dllp_frame(b"\x00\x00\x00\x01"))
        s.sendall(pc.tlp_frame(2, pc.mrd64(0x1000, 2, requester=0x0200, tag=5)))
        f = pc.parse_cpl(pc.recv_frame(s))
        c.check(f["fmt"] == 2 and f["type"] == 0x0A, "first completion is a CplD: %s" % f)
        c.check(f["seq"] == 1, "first completion has sequence number 1: %d" % f["seq"])
        c.check(f["status"] == 0, "status SC")
        c.check(f["data"] == payload, "CplD data %s" % f["data"].hex())
        c.check(f["byte_count"] == 8 and f["lower"] == 0, "byte count 8, lower address 0")
        c.check(f["tag"] == 5 and f["requester"] == 0x0200, "tag 5, requester 0x0200")
        s.sendall(pc.tlp_frame(3, pc.mrd64(0x1000, 2, tag=6, first_be=0xE, last_be=0x3)))
        f = pc.parse_cpl(pc.recv_frame(s))
        c.check(f["seq"] == 2, "second completion has sequence number 2: %d" % f["seq"])
        c.check(f["byte_count"] == 5 and f["lower"] == 1,
                "byte count 5, lower address 1: %s" % f)
        c.check(f["data"] == payload, "whole DWs returned")
        s.sendall(pc.tlp_frame(4, pc.mrd64(0x200000, 1, tag=7)))
        f = pc.parse_cpl(pc.recv_frame(s))
        c.check(f["seq"] == 3 and f["fmt"] == 0 and f["status"] == 1,
                "a read outside memory completes with Cpl UR, seq 3: %s" % f)
        status, health = srv.get("/api/health")
        c.check(status == 200 and health["time_ps"] > 0, "simulated time advanced: %s"
                % health)
        s.close()
        closed = 1
        wait_closed(srv, closed)
        for name, frame, needle in malformed_cases():
            s = pc.connect(port)
            s.sendall(frame)
            if name == "truncated stream":
                s.shutdown(socket.SHUT_WR)
            c.check(expect_closed(s), "%s: the server closes the connection" % name)
            s.close()
            closed += 1
            wait_closed(srv, closed)
            c.check(needle in srv.stderr(), "%s: log line names it (%r)" % (name, needle))
        status, health = srv.get("/api/health")
        c.check(status == 200 and health["ok"], "the server survives malformed frames")
        s = pc.connect(port)
        s.sendall(pc.tlp_frame(1, pc.mrd64(0x1000, 1, tag=9)))
        f = pc.parse_cpl(pc.recv_frame(s))
        c.check(f["seq"] == 1 and f["data"] == payload[:4],
                "a new peer starts at sequence number 1 and reads the data: %s" % f)
        s.close()
    finally:
        rc, log = srv.stop()
    c.check(rc == 0, "server exits 0 on SIGTERM (%s)" % rc)
    return c.report("test_pcie")


if __name__ == "__main__":
    sys.exit(main())
