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
Then, as a stock warp-pipe requester does, TLPs with garbage in the reserved bits above
the sequence number and in header byte 1: accepted and counted; completions copy TC,
Attr and the 10-bit tag (T9 = byte 1 bit 7, T8 = bit 3, per the PCIe header figures)
and a completion without data has Length 0. Then a host's enumeration: CfgRd0 of the
IDs, BAR sizing by writing all ones (1 MiB of memory -> BAR0 reads 0xfff0000c: 64-bit
prefetchable, BAR1 0xffffffff), BAR placement, Memory Space Enable, accesses through
the BAR.
usage: test_pcie.py MGTLM PLATFORM"""
import struct
import socket
import subprocess
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


def reserved_bits(c, srv, port):
    """Garbage where warp-pipe leaves it; TC/Attr/10-bit tag copied; Cpl Length 0."""
    s = pc.connect(port)
    one, two = bytes(range(0x40, 0x48)), bytes(range(0x80, 0x88))
    s.sendall(pc.tlp_frame(1, pc.mwr64(0x3000, one, byte1=0xFF, attr=3), rsvd=0xF))
    s.sendall(pc.tlp_frame(2, pc.mwr64(0x3008, two, byte1=0x5A), rsvd=0x9))
    s.sendall(pc.tlp_frame(3, pc.mrd64(0x3000, 4, tag=0x42, byte1=0xB5, attr=2),
                           rsvd=0x6))
    f = pc.recv_frame(s)
    c.check(f is not None, "garbage in reserved bits does not close the connection")
    if f is None:
        return
    f = pc.parse_cpl(f)
    c.check(f["status"] == 0 and f["data"] == one + two,
            "both writes landed, the read returns them: %s" % f)
    c.check(f["tag10"] == 0x242, "10-bit tag 0x242 echoed: 0x%x" % f["tag10"])
    c.check(f["tc"] == 3 and f["attr"] == 6, "TC 3 and Attr 110b copied: %s" % f)
    s.sendall(pc.tlp_frame(4, pc.mrd64(0x200000, 1, tag=7, byte1=0x50, attr=1)))
    f = pc.parse_cpl(pc.recv_frame(s))
    c.check(f["fmt"] == 0 and f["status"] == 1 and f["length"] == 0,
            "Cpl UR without data has Length 0: %s" % f)
    c.check(f["tc"] == 5 and f["attr"] == 1 and f["tag10"] == 7,
            "Cpl UR copies TC 5, Attr 001b, tag 7: %s" % f)
    _, stats = srv.get("/api/stats")
    ignored = stats.get("tb.pcie0.pcie_ignored_bits")
    c.check(ignored == 3, "three TLPs with ignored bits counted: %s" % ignored)
    s.close()


def cfg_value(c, s, seq, bdf, reg, what):
    s.sendall(pc.tlp_frame(seq, pc.cfg0(bdf, reg, tag=seq)))
    f = pc.parse_cpl(pc.recv_frame(s))
    c.check(f["status"] == 0 and f["byte_count"] == 4 and f["lower"] == 0 and
            f["tag"] == seq and len(f["data"]) == 4, "%s: CplD of 1 DW: %s" % (what, f))
    return struct.unpack("<I", f["data"])[0] if len(f["data"]) == 4 else None


def cfg_write(c, s, seq, bdf, reg, value, what):
    s.sendall(pc.tlp_frame(seq, pc.cfg0(bdf, reg, struct.pack("<I", value), tag=seq)))
    f = pc.parse_cpl(pc.recv_frame(s))
    c.check(f["fmt"] == 0 and f["status"] == 0 and f["length"] == 0 and
            f["byte_count"] == 4, "%s: Cpl SC without data: %s" % (what, f))
    return f


def enumeration(c, port):
    """A host enumerates bus 1 device 0, sizes and places BAR0, then uses it."""
    s = pc.connect(port)
    bdf = 0x0100
    ids = cfg_value(c, s, 1, bdf, 0x00, "vendor/device ID")
    c.check(ids is not None and ids & 0xFFFF not in (0, 0xFFFF),
            "a valid vendor ID: %s" % ids)
    cls = cfg_value(c, s, 2, bdf, 0x08, "class code")
    c.check(cls is not None and cls >> 8 == 0x030200, "class 3D controller: %s" % cls)
    bar = cfg_value(c, s, 3, bdf, 0x10, "BAR0")
    c.check(bar == 0x0000000C, "BAR0 is a 64-bit prefetchable memory BAR: %s" % bar)
    f = cfg_write(c, s, 4, bdf, 0x10, 0xFFFFFFFF, "BAR0 all ones")
    c.check(f["completer"] == bdf, "Completer ID captured from CfgWr0: %s" % f)
    cfg_write(c, s, 5, bdf, 0x14, 0xFFFFFFFF, "BAR1 all ones")
    lo = cfg_value(c, s, 6, bdf, 0x10, "BAR0 sized")
    hi = cfg_value(c, s, 7, bdf, 0x14, "BAR1 sized")
    c.check(lo == 0xFFF0000C and hi == 0xFFFFFFFF, "BAR sizing reads 1 MiB: %s %s" %
            (lo, hi))
    cfg_write(c, s, 8, bdf, 0x10, 0xC0000000, "BAR0 placed")
    cfg_write(c, s, 9, bdf, 0x14, 0x00000002, "BAR1 placed")
    cfg_write(c, s, 10, bdf, 0x04, 0x0006, "memory space + bus master enable")
    c.check(cfg_value(c, s, 11, bdf, 0x04, "command") == 0x0006, "command reads back")
    data = bytes(range(0xA0, 0xA8))
    s.sendall(pc.tlp_frame(12, pc.mwr64(0x2C0000100, data)))
    s.sendall(pc.tlp_frame(13, pc.mrd64(0x2C0000100, 2, tag=13)))
    f = pc.parse_cpl(pc.recv_frame(s))
    c.check(f["status"] == 0 and f["data"] == data and f["completer"] == bdf,
            "read back through the BAR: %s" % f)
    s.sendall(pc.tlp_frame(14, pc.mrd64(0x104, 2, tag=14, first_be=0xC)))
    f = pc.parse_cpl(pc.recv_frame(s))
    c.check(f["status"] == 1 and f["byte_count"] == 6 and f["lower"] == 0x06,
            "outside the BAR: Cpl UR, Byte Count 6, Lower Address 0x06: %s" % f)
    s.sendall(pc.tlp_frame(15, pc.cfg0(0x0101, 0x00, tag=15)))
    f = pc.parse_cpl(pc.recv_frame(s))
    c.check(f["status"] == 1 and f["length"] == 0, "function 1 does not exist: %s" % f)
    s.close()
    s = pc.connect(port)  # a new link starts without BAR decoding
    s.sendall(pc.tlp_frame(1, pc.mrd64(0x100, 2, tag=1)))
    f = pc.parse_cpl(pc.recv_frame(s))
    c.check(f["data"] == data, "the BAR write reached platform address 0x100: %s" % f)
    s.close()


def bad_timeout(c, mgtlm, platform):
    """--pcie-timeout outside PCIe's 50 us..64 s: exit 2 with one line naming it."""
    for value in ("10us", "65s", "soon"):
        r = subprocess.run([mgtlm, "serve", platform, "--pcie-timeout", value],
                           capture_output=True, text=True, timeout=20)
        lines = r.stderr.strip().splitlines()
        c.check(r.returncode == 2 and len(lines) == 1 and "--pcie-timeout " + value in
                lines[0], "--pcie-timeout %s: exit 2, one line: %s %r" %
                (value, r.returncode, r.stderr))


def main():
    mgtlm, platform = sys.argv[1], sys.argv[2]
    c = Checks()
    bad_timeout(c, mgtlm, platform)
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
        reserved_bits(c, srv, port)
        closed += 1
        wait_closed(srv, closed)
        enumeration(c, port)
        closed += 2
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
