#!/usr/bin/env python3
"""mgtlm serve --pcie-ip with the platform as requester: a cu's mem port is bridged
to an in-repo PCIe/IP peer (pcie_client.py) that acts as a device memory: it stores
MWr payloads under their byte enables and answers every MRd with one CplD of the
stored bytes (zero where never written). The cu writes, reads and finally reads back
every byte it wrote (verify), checking each read against its own record, so
cu.data_errors counts every byte the bridge got wrong. A second run with a peer that
corrupts one byte per completion must report data errors (the check can fail).
Then peers that answer every MRd with a completion without data (status SC, UR, CA)
or never answer (with --pcie-timeout 100ms): every read ends with an error status,
the run still ends (idle) and the bridge counts them (pcie_cpl_no_data,
pcie_cpl_timeouts); the writes still complete ok.
Expected counts follow from the platform file: 200 accesses + verify reads, every
one but the release answered (cu.completed == cu.issued - cu.controls), one MRd per
cu read (verify reads included) and one MWr per cu write.
usage: test_pcie_device.py MGTLM PLATFORM"""
import socket
import struct
import sys
import threading

import pcie_client as pc
from serve_util import Checks, Server


class DeviceMemory(threading.Thread):
    def __init__(self, port, corrupt, answer="data"):
        """answer: "data" (CplD), "SC"/"UR"/"CA" (Cpl without data), "none"."""
        super().__init__(daemon=True)
        self.sock = pc.connect(port, timeout=30)
        self.mem = {}
        self.corrupt = corrupt
        self.answer = answer
        self.seq = 0
        self.mrd = self.mwr = 0
        self.bad_seq = []
        self.error = None
        self.stopping = False

    def run(self):
        expect = 1
        try:
            while True:
                f = pc.recv_frame(self.sock)
                if f is None:
                    return
                seq = struct.unpack(">H", f[1:3])[0] & 0xFFF
                if seq != expect:
                    self.bad_seq.append((seq, expect))
                expect = (expect + 1) & 0xFFF
                self.handle(f)
        except (OSError, AssertionError) as e:
            if not self.stopping:
                self.error = e

    def handle(self, f):
        body = f[1:-4]
        assert struct.unpack("<I", f[-4:])[0] == pc.lcrc(body), "bad LCRC from mgtlm"
        h = body[2:]
        fmt, typ = h[0] >> 5, h[0] & 0x1F
        n = (((h[2] & 3) << 8) | h[3]) or 1024
        requester, tag, be = struct.unpack(">HBB", h[4:8])
        first, last = be & 0xF, be >> 4
        addr = struct.unpack(">Q", h[8:16])[0] if fmt & 1 else struct.unpack(">I", h[8:12])[0]
        hdr = 16 if fmt & 1 else 12
        assert typ == 0, "only memory requests expected"
        enabled = []
        for i in range(n * 4):
            dwi, b = divmod(i, 4)
            mask = first if dwi == 0 else (last if dwi == n - 1 else 0xF)
            enabled.append(bool(mask >> b & 1))
        if fmt & 2:
            self.mwr += 1
            for i, byte in enumerate(h[hdr:hdr + 4 * n]):
                if enabled[i]:
                    self.mem[addr + i] = byte
            return
        self.mrd += 1
        if self.answer == "none":
            return
        if self.answer != "data":
            status = {"SC": 0, "UR": 1, "CA": 4}[self.answer]
            self.seq += 1
            cpl = (bytes([0x0A, 0, 0, 0]) + struct.pack(">HBB", 0x0100, status << 5, 4) +
                   struct.pack(">HBB", requester, tag, 0))
            self.sock.sendall(pc.tlp_frame(self.seq, cpl))
            return
        data = bytearray(self.mem.get(addr + i, 0) for i in range(4 * n))
        if self.corrupt:
            data[enabled.index(True)] ^= 0x5A
        lead = enabled.index(True)
        count = len(enabled) - lead - enabled[::-1].index(True)
        self.seq += 1
        cpl = (bytes([0x4A, 0, (n >> 8) & 3, n & 0xFF]) +
               struct.pack(">HBB", 0x0100, count >> 8 & 0xF, count & 0xFF) +
               struct.pack(">HBB", requester, tag, (addr + lead) & 0x7F) + bytes(data))
        self.sock.sendall(pc.tlp_frame(self.seq, cpl))


def run_once(c, mgtlm, platform, corrupt, answer="data", extra=(), timeout="30s"):
    """A live peer gets a 30 s completion timeout by default (a loaded machine may delay
    a Python thread past the 50 ms default of mgtlm serve)."""
    srv = Server(mgtlm, [platform, "--pcie-ip", "127.0.0.1:0=gpu0.cu.mem",
                         "--pcie-timeout", timeout] + list(extra))
    dev = None
    try:
        dev = DeviceMemory(srv.pcie_ports[0], corrupt, answer)
        dev.start()
        try:
            st, r = srv.post("/api/run", {"wait": True}, timeout=60)
        except OSError as e:
            st, r = None, e
        c.check(st == 200 and r["stopped"] == "idle", "%s: run to idle: %s" % (answer, r))
        if st != 200:
            return {}, dev
        _, stats = srv.get("/api/stats")
        return stats, dev
    finally:
        if dev:
            dev.stopping = True
            dev.sock.shutdown(socket.SHUT_RDWR)
            dev.sock.close()
            dev.join(10)
        srv.stop()


def main():
    mgtlm, platform = sys.argv[1], sys.argv[2]
    c = Checks()
    stats, dev = run_once(c, mgtlm, platform, corrupt=False)
    c.check(dev.error is None, "peer saw well-formed frames: %s" % dev.error)
    c.check(not dev.bad_seq, "mgtlm's sequence numbers count from 1: %s" % dev.bad_seq[:3])
    answered = stats["gpu0.cu.issued"] - stats["gpu0.cu.controls"]  # release: no answer
    c.check(stats["gpu0.cu.issued"] >= 200 and stats["gpu0.cu.completed"] == answered,
            "every cu request answered: %s/%s" % (stats["gpu0.cu.completed"], answered))
    c.check(stats["gpu0.cu.status_errors"] == 0, "every status ok")
    c.check(stats["gpu0.cu.verify_reads"] > 0, "the cu read back what it wrote")
    c.check(dev.mwr == stats["gpu0.cu.writes"], "one MWr per write: %d vs %d" %
            (dev.mwr, stats["gpu0.cu.writes"]))
    c.check(dev.mrd == stats["gpu0.cu.reads"],  # verify reads included
            "one MRd per read: %d vs %d" % (dev.mrd, stats["gpu0.cu.reads"]))
    c.check(stats["gpu0.cu.data_errors"] == 0, "no data errors: %d" %
            stats["gpu0.cu.data_errors"])
    c.check(stats["tb.pcie0.unanswered"] == 0, "nothing answered command_error")
    stats, dev = run_once(c, mgtlm, platform, corrupt=True)
    c.check(stats["gpu0.cu.data_errors"] > 0, "a corrupting peer is caught: %d" %
            stats["gpu0.cu.data_errors"])
    few = ["--set", "gpu0.cu.count=40"]
    for answer, counter in (("SC", "pcie_cpl_no_data"), ("UR", None), ("CA", None),
                            ("none", "pcie_cpl_timeouts")):
        timeout = "100ms" if answer == "none" else "30s"
        stats, dev = run_once(c, mgtlm, platform, False, answer, few, timeout)
        if not stats:
            continue
        reads = stats["gpu0.cu.reads"]
        c.check(reads > 0 and dev.mrd == reads, "%s: one MRd per read: %d vs %d" %
                (answer, dev.mrd, reads))
        c.check(stats["gpu0.cu.status_errors"] == reads,
                "%s: every read ends with an error status: %d of %d" %
                (answer, stats["gpu0.cu.status_errors"], reads))
        answered = stats["gpu0.cu.issued"] - stats["gpu0.cu.controls"]
        c.check(stats["gpu0.cu.completed"] == answered, "%s: every request answered" %
                answer)
        if counter:
            c.check(stats["tb.pcie0." + counter] == reads, "%s: %s counts %d reads: %s" %
                    (answer, counter, reads, stats["tb.pcie0." + counter]))
    return c.report("test_pcie_device")


if __name__ == "__main__":
    sys.exit(main())
