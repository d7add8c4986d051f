#!/usr/bin/env python3
"""An independent PCIe/IP reference peer for `mgtlm serve --pcie-ip`: a requester and a
completer written from the public descriptions only, sharing no code with mgtlm (C) or
with the in-repo client (pcie_client.py) and its tests.

Sources of every rule used here:
- antmicro/warp-pipe docs/source/pcie-over-tcp.md (wire format): a protocol byte 0x02
  (DLLP: 4 bytes + 16-bit CRC) or 0x03 (TLP: 4 reserved bits and a 12-bit sequence
  number, the TLP, a 32-bit LCRC); byte 1 of the TLP header is T9 | TC(3) | T8 | Attr |
  LN | TH, byte 2 is TD | EP | Attr(2) | AT(2) | Length[9:8].
- PCIe Base Specification: LCRC = CRC-32 polynomial 04C11DB7h, seed FFFFFFFFh,
  over the sequence bytes and the TLP, complemented, sent bit-reflected (which is the
  catalogued CRC-32/ISO-HDLC, check value CBF43926h); DLLP CRC-16 polynomial 100Bh,
  seed FFFFh, complemented, reflected. Memory request headers (3 DW below 4 GiB, 4 DW
  above), byte enables (first/last DW, last BE 0 for 1 DW, no 4 KiB crossing),
  completions (Completer ID, Status, Byte Count = bytes left to return, Lower Address
  = low 7 bits of the first enabled byte's address, split completions ending on
  Read Completion Boundaries of 64 bytes), TC/Attr/Tag copied from the request.

requester ROLE (against a platform whose bridged port is a memory): N operations,
mixed MWr32 and MRd32 of 1..16 DW with random byte enables over 64 KiB, up to 32 reads
outstanding, every TLP and every DLLP with random garbage in the reserved sequence bits
and in TH/LN, random TC/Attr and 10-bit tags; every read's enabled bytes are checked
against a shadow of the memory taken when the read was sent (PCIe ordering: a read
does not pass an earlier posted write), as are its completions' fields.

completer ROLE (against a platform whose bridged port is a cu's memory port): a device
memory answering every MRd with CplDs split at random 64-byte boundaries, with random
reserved-bit garbage (sequence bits, TH/LN, and T9/T8: mgtlm uses 8-bit tags, so these
are reserved in its completions), while the cu checks every byte it reads back; the
peer checks mgtlm's requests (LCRC, sequence numbers from 1, reserved bits zero, byte
enable and 4 KiB rules).

usage: peer_ref.py MGTLM requester MEM_PLATFORM N
       peer_ref.py MGTLM completer CU_PLATFORM N     (N: cu accesses)
Exit 0 when every check passed."""
import json
import random
import re
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

RCB = 64


def _table(poly, width):
    out = []
    for n in range(256):
        v = n
        for _ in range(8):
            v = (v >> 1) ^ poly if v & 1 else v >> 1
        out.append(v & ((1 << width) - 1))
    return out


_T32 = _table(0xEDB88320, 32)  # 04C11DB7h bit-reversed
_T16 = _table(0xD008, 16)      # 100Bh bit-reversed


def crc32_lcrc(data):
    c = 0xFFFFFFFF
    for b in data:
        c = (c >> 8) ^ _T32[(c ^ b) & 0xFF]
    return c ^ 0xFFFFFFFF


def crc16_dllp(data):
    c = 0xFFFF
    for b in data:
        c = (c >> 8) ^ _T16[(c ^ b) & 0xFF]
    return c ^ 0xFFFF


class Failure(Exception):
    pass


def need(cond, what):
    if not cond:
        raise Failure(what)


class Link:
    """One PCIe/IP connection: framing, sequence numbers, reserved-bit garbage."""

    def __init__(self, port, rng):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=60)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.rng = rng
        self.tx = 0
        self.rx_expect = 1
        self.buf = bytearray()
        self.out = bytearray()

    def send_tlp(self, tlp):
        self.tx = (self.tx + 1) & 0xFFF
        first = (self.rng.getrandbits(4) << 4) | (self.tx >> 8)
        body = bytes([first, self.tx & 0xFF]) + tlp
        self.out += b"\x03" + body + struct.pack("<I", crc32_lcrc(body))
        if self.rng.random() < 0.1:  # an Ack DLLP with garbage in its reserved bits
            dl = bytes([0x00, self.rng.getrandbits(4) << 4 | self.tx >> 8, self.tx & 0xFF,
                        0])
            self.out += b"\x02" + dl + struct.pack("<H", crc16_dllp(dl))

    def flush(self):
        if self.out:
            self.sock.sendall(self.out)
            self.out = bytearray()

    def _fill(self, n):
        while len(self.buf) < n:
            chunk = self.sock.recv(65536)
            need(chunk, "mgtlm closed the connection")
            self.buf += chunk

    def recv_tlp(self):
        """The next TLP header bytes + payload (LCRC and sequence checked)."""
        while True:
            self._fill(1)
            if self.buf[0] == 0x02:
                self._fill(7)
                dl = bytes(self.buf[1:5])
                need(struct.unpack("<H", self.buf[5:7])[0] == crc16_dllp(dl),
                     "bad DLLP CRC from mgtlm")
                del self.buf[:7]
                continue
            need(self.buf[0] == 0x03, "unknown protocol byte 0x%02x" % self.buf[0])
            self._fill(7)
            fmt = self.buf[3] >> 5
            length = ((self.buf[5] & 3) << 8) | self.buf[6]
            hdr = 16 if fmt & 1 else 12
            is_cpl = (self.buf[3] & 0x1F) == 0x0A
            data = ((length or 1024) * 4) if fmt & 2 else 0
            need(fmt & 2 or not is_cpl or length == 0,
                 "a completion without data from mgtlm has Length %d" % length)
            total = 3 + hdr + data + 4
            self._fill(total)
            frame = bytes(self.buf[:total])
            del self.buf[:total]
            need(struct.unpack("<I", frame[-4:])[0] == crc32_lcrc(frame[1:-4]),
                 "bad LCRC from mgtlm")
            need(frame[1] >> 4 == 0, "mgtlm set reserved sequence bits")
            seq = ((frame[1] & 0xF) << 8) | frame[2]
            need(seq == self.rx_expect,
                 "sequence %d, expected %d" % (seq, self.rx_expect))
            self.rx_expect = (self.rx_expect + 1) & 0xFFF
            need((frame[4] & 0x03) == 0, "mgtlm set LN/TH")
            return frame[3:-4]


def b1(tc, attr, tag, ln, th):
    """Header byte 1: T9, TC, T8, Attr[2], LN, TH."""
    return (((tag >> 9) & 1) << 7 | tc << 4 | ((tag >> 8) & 1) << 3 | (attr & 4) |
            ln << 1 | th)


def enabled(n, first, last):
    """Per byte of an n-DW request: enabled or not."""
    out = []
    for i in range(n * 4):
        dw = i // 4
        mask = first if dw == 0 else (last if dw == n - 1 else 0xF)
        out.append(bool(mask >> (i % 4) & 1))
    return out


def random_bes(rng, n):
    """Any first BE for 1 DW (0: a zero-length read); contiguous ones above."""
    if n == 1:
        return rng.randint(0, 15), 0
    return rng.choice((0xF, 0xE, 0xC, 0x8)), rng.choice((0x1, 0x3, 0x7, 0xF))


# ---------------------------------------------------------------- requester role

def run_requester(port, count, rng):
    link = Link(port, rng)
    size = 64 * 1024
    shadow = bytearray(size)
    outstanding = {}  # tag -> (addr, n, first, last, tc, attr, expected, got)
    free_tags = list(range(1024))
    rng.shuffle(free_tags)
    reads = writes = checked = 0
    requester = 0x0008
    done = 0
    while done < count or outstanding:
        while done < count and len(outstanding) < 32:
            n = rng.randint(1, 16)
            addr = rng.randrange(0, size - n * 4, 4)
            if (addr & 0xFFF) + n * 4 > 4096:
                addr -= (addr & 0xFFF) + n * 4 - 4096
            first, last = random_bes(rng, n)
            tc, attr = rng.getrandbits(3), rng.getrandbits(3)
            ln, th = rng.getrandbits(1), rng.getrandbits(1)
            done += 1
            if rng.random() < 0.5:
                payload = bytes(rng.getrandbits(8) for _ in range(n * 4))
                for i, on in enumerate(enabled(n, first, last)):
                    if on:
                        shadow[addr + i] = payload[i]
                tag = rng.getrandbits(10)  # posted: the tag is not used
                hdr = bytes([0x40, b1(tc, attr, tag, ln, th), (attr & 3) << 4 | n >> 8,
                             n & 0xFF])
                link.send_tlp(hdr + struct.pack(">HBBI", requester, tag & 0xFF,
                                                last << 4 | first, addr) + payload)
                writes += 1
                continue
            tag = free_tags.pop()
            hdr = bytes([0x00, b1(tc, attr, tag, ln, th), (attr & 3) << 4 | n >> 8,
                         n & 0xFF])
            link.send_tlp(hdr + struct.pack(">HBBI", requester, tag & 0xFF,
                                            last << 4 | first, addr))
            outstanding[tag] = [addr, n, first, last, tc, attr,
                                bytes(shadow[addr:addr + n * 4]), bytearray(), 0]
            reads += 1
        link.flush()
        if outstanding:
            checked += take_completion(link, outstanding, free_tags, requester)
    link.sock.close()
    need(checked == reads, "%d reads checked of %d" % (checked, reads))
    return reads, writes


def take_completion(link, outstanding, free_tags, requester):
    """Reads one completion; returns 1 when it finished a read (data checked)."""
    h = link.recv_tlp()
    need(h[0] == 0x4A, "expected a CplD, got fmt/type 0x%02x" % h[0])
    tag = ((h[1] >> 7) << 9) | (((h[1] >> 3) & 1) << 8) | h[10]
    need(tag in outstanding, "completion for unknown tag 0x%x" % tag)
    addr, n, first, last, tc, attr, expected, got, returned = outstanding[tag]
    need((h[1] >> 4) & 7 == tc,
         "tag 0x%x: TC %d, request had %d" % (tag, (h[1] >> 4) & 7, tc))
    need((h[1] & 4) | ((h[2] >> 4) & 3) == attr, "tag 0x%x: Attr not copied" % tag)
    need(h[6] >> 5 == 0, "tag 0x%x: status %d" % (tag, h[6] >> 5))
    need(struct.unpack(">H", h[8:10])[0] == requester, "Requester ID not copied")
    length = ((h[2] & 3) << 8) | h[3]
    data = h[12:12 + length * 4]
    ens = enabled(n, first, last)
    lead = ens.index(True) if any(ens) else 0
    span = (len(ens) - lead - ens[::-1].index(True)) if any(ens) else 1
    byte_count = ((h[6] & 0xF) << 8) | h[7]
    lower = h[11] & 0x7F
    if not got:
        need(lower == (addr + lead) & 0x7F, "tag 0x%x: Lower Address %d" % (tag, lower))
    need(byte_count == span - returned, "tag 0x%x: Byte Count %d, expected %d" %
         (tag, byte_count, span - returned))
    got += data
    valid = len(data) - (lower & 3)
    if byte_count > valid:
        outstanding[tag][8] = returned + valid
        return 0
    need(len(got) == n * 4, "tag 0x%x: %d bytes for a %d DW read" % (tag, len(got), n))
    for i, on in enumerate(ens):
        need(not on or got[i] == expected[i],
             "tag 0x%x: byte %d at 0x%x is 0x%02x, expected 0x%02x" %
             (tag, i, addr + i, got[i], expected[i]))
    del outstanding[tag]
    free_tags.insert(0, tag)
    return 1


# ---------------------------------------------------------------- completer role

def run_completer(link, rng, stop):
    mem = {}
    mrd = mwr = 0
    completer = 0x0100
    while not stop():
        try:
            h = link.recv_tlp()
        except (socket.timeout, OSError, Failure):
            if stop():
                break
            raise
        fmt, typ = h[0] >> 5, h[0] & 0x1F
        need(typ == 0, "mgtlm sent type 0x%x, not a memory request" % typ)
        need((h[2] & 0xCC) == 0 and (h[1] & 0x8B) == 0,
             "mgtlm set reserved/unused bits: %s" % h[:4].hex())
        n = (((h[2] & 3) << 8) | h[3]) or 1024
        requester, tag, be = struct.unpack(">HBB", h[4:8])
        first, last = be & 0xF, be >> 4
        need((n == 1 and last == 0) or (n > 1 and first and last),
             "bad byte enables 0x%02x for %d DW" % (be, n))
        hdr = 16 if fmt & 1 else 12
        addr = int.from_bytes(h[8:hdr], "big")
        need((addr & 3) == 0, "address bits 1:0 set")
        need((fmt & 1) == (addr >= 1 << 32), "3 DW header below 4 GiB, 4 DW above")
        need((addr & 0xFFF) + n * 4 <= 4096, "request crosses 4 KiB")
        ens = enabled(n, first, last)
        if fmt & 2:
            for i, byte in enumerate(h[hdr:hdr + n * 4]):
                if ens[i]:
                    mem[addr + i] = byte
            mwr += 1
            continue
        mrd += 1
        tc, attr = (h[1] >> 4) & 7, (h[1] & 4) | ((h[2] >> 4) & 3)
        data = bytes(mem.get(addr + i, 0) for i in range(n * 4))
        lead = ens.index(True)
        left = len(ens) - lead - ens[::-1].index(True)
        start = 0  # DW index of the next completion
        while start < n:
            end = n
            boundary = (addr + start * 4) // RCB * RCB + RCB
            if rng.random() < 0.5 and boundary < addr + n * 4:
                end = (boundary - addr) // 4
            k = end - start
            lower = (addr + lead) & 0x7F if start == 0 else (addr + start * 4) & 0x7F
            junk_tag = rng.getrandbits(2) << 8
            head = bytes([0x4A, b1(tc, attr, junk_tag | tag, rng.getrandbits(1),
                                   rng.getrandbits(1)),
                          (attr & 3) << 4 | k >> 8, k & 0xFF])
            link.send_tlp(head + struct.pack(">HBB", completer, (left >> 8) & 0xF,
                                             left & 0xFF)
                          + struct.pack(">HBB", requester, tag, lower)
                          + data[start * 4:end * 4])
            left -= k * 4 - (lead if start == 0 else 0)
            start = end
        link.flush()
    return mrd, mwr


# ---------------------------------------------------------------- server

class Serve:
    def __init__(self, mgtlm, args):
        self.log = tempfile.TemporaryFile(mode="w+")
        self.proc = subprocess.Popen([mgtlm, "serve"] + args +
                                     ["--listen", "127.0.0.1:0"],
                                     stdout=subprocess.DEVNULL, stderr=self.log)
        deadline = time.time() + 30
        while time.time() < deadline:
            self.log.seek(0)
            text = self.log.read()
            http = re.search(r"http://127\.0\.0\.1:(\d+)/", text)
            pcie = re.search(r"pcie-ip 127\.0\.0\.1:(\d+): listening", text)
            if http and pcie:
                self.http, self.pcie = int(http.group(1)), int(pcie.group(1))
                return
            need(self.proc.poll() is None, "mgtlm serve exited: " + text)
            time.sleep(0.05)
        raise Failure("mgtlm serve did not start")

    def call(self, method, path, body=None, timeout=30):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request("http://127.0.0.1:%d%s" % (self.http, path),
                                     data=data, method=method)
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return json.loads(r.read().decode())

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.seek(0)
        return self.proc.returncode, self.log.read()


def check_requester(srv, n, rng):
    reads, writes = run_requester(srv.pcie, n, rng)
    stats = srv.call("GET", "/api/stats")
    ignored = stats["tb.pcie0.pcie_ignored_bits"]
    need(ignored > 0, "ignored bits counted")
    print("requester: %d reads checked, %d writes, %d TLPs with ignored bits" %
          (reads, writes, ignored))


def check_completer(srv, n, rng):
    link = Link(srv.pcie, rng)
    result = {}
    finished = []

    def serve_device():
        try:
            result["counts"] = run_completer(link, rng, lambda: finished)
        except Failure as e:
            result["error"] = str(e)
    t = threading.Thread(target=serve_device, daemon=True)
    t.start()
    r = srv.call("POST", "/api/run", {"wait": True}, timeout=600)
    stats = srv.call("GET", "/api/stats")
    finished.append(True)
    link.sock.shutdown(socket.SHUT_RDWR)
    t.join(10)
    need("error" not in result, result.get("error", ""))
    need(r["stopped"] == "idle", "run stopped: %s" % r)
    issued, controls = stats["gpu0.cu.issued"], stats["gpu0.cu.controls"]
    need(issued >= n, "cu issued %d of %d" % (issued, n))
    need(stats["gpu0.cu.completed"] == issued - controls, "every request answered")
    for k in ("gpu0.cu.data_errors", "gpu0.cu.status_errors", "tb.pcie0.unanswered",
              "tb.pcie0.pcie_cpl_timeouts", "tb.pcie0.pcie_cpl_unexpected"):
        need(stats[k] == 0, "%s = %d" % (k, stats[k]))
    need(stats["gpu0.cu.verify_reads"] > 0, "the cu read back what it wrote")
    need(stats["tb.pcie0.pcie_ignored_bits"] > 0, "ignored bits counted")
    mrd, mwr = result["counts"]
    need(mrd == stats["gpu0.cu.reads"] and mwr == stats["gpu0.cu.writes"],
         "one MRd per cu read, one MWr per write: %d/%d, %d/%d" %
         (mrd, stats["gpu0.cu.reads"], mwr, stats["gpu0.cu.writes"]))
    print("completer: cu issued %d (%d reads, %d writes, %d verify reads), "
          "0 data errors" % (issued, mrd, mwr, stats["gpu0.cu.verify_reads"]))


def main():
    if len(sys.argv) != 5 or sys.argv[2] not in ("requester", "completer"):
        print("usage: " + __doc__.split("usage: ")[1], file=sys.stderr)
        return 2
    mgtlm, role, platform, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    need(crc32_lcrc(b"123456789") == 0xCBF43926, "CRC-32 check value")
    rng = random.Random(20261124)
    if role == "requester":
        srv = Serve(mgtlm, [platform, "--pcie-ip", "127.0.0.1:0=gpu0.mem.in"])
    else:
        srv = Serve(mgtlm, [platform, "--pcie-ip", "127.0.0.1:0=gpu0.cu.mem",
                            "--pcie-timeout", "60s", "--set", "gpu0.cu.count=%d" % n,
                            "--set", "gpu0.cu.size=256", "--set", "gpu0.cu.line=256"])
    try:
        (check_requester if role == "requester" else check_completer)(srv, n, rng)
    except Failure as e:
        print("FAIL:", e)
        srv.stop()
        return 1
    rc, log = srv.stop()
    bad = [line for line in log.splitlines() if "connection closed" in line and
           "peer closed;" not in line and "server stopping;" not in line]
    if rc != 0 or bad:
        print("FAIL: server exit status %s; %s" % (rc, bad))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
