#!/usr/bin/env python3
"""Independent reference for the FinePack remote write queue + packetizer chain.

Restates SPEC.md 2.1/2.2 and the packet layout of docs/finepack.md in plain Python
(no code shared with the C model) and prints the golden records that the sink behind
`packetizer.down` must receive for a chain testbench (testbench/finepack/chain_*.json:
one driver on rwq.up, zero-latency wires, own GPU 0, 4 GiB per GPU).

The sink answers reads, atomics and non-posted writes on arrival (a "send" record).

Usage: finepack_ref.py TESTBENCH.json > vectors/finepack/NAME.jsonl

Rules restated here:
- Partition per destination; a store is cut into pieces at every multiple of
  min(128, window) bytes (disabled bytes dropped); a non-empty
  partition is flushed before a piece that leaves its window (addr >> (8*subhdr-10)),
  needs a new entry when `entries` are used, or would make the payload (sum over
  entries and maximal runs of subhdr + run length) exceed max_payload.
- release / kernel_end flush every partition in ascending destination, then pass.
- read / atomic / non-posted write overlapping queued bytes flush that partition,
  then pass. Other transactions pass unchanged.
- timeout T: a partition is flushed T after its last insertion.
- Packet: 16-byte header (0x7a, 0, length in DW (10 bits), requester = src << 8,
  tag = packet count mod 256, last BE << 4, address[63:2]), then per run a big-endian
  sub-header (len << (8*subhdr-10) | offset) and data, zero padding to a DW. Record:
  addr = base, len = 16 + padded payload, wire = payload, fp_packet = 0x46500000 | subhdr,
  parent = last writers of the bytes, first appearance order.
"""
import json
import sys

LINE = 128
M = 4 << 30


def parse_time(s):
    units = [("ps", 1), ("ns", 1000), ("us", 10**6), ("ms", 10**9)]
    for u, k in units:
        if s.endswith(u):
            return int(round(float(s[:-len(u)]) * k))
    raise ValueError(s)


def hexbytes(s):
    h = s[2:]
    return bytes(int(h[i:i + 2], 16) for i in range(0, len(h), 2))


def tohex(b):
    return "0x" + "".join("%02x" % x for x in b) if b else "0x"


class Part:
    def __init__(self):
        self.lines = []          # allocation order of line numbers
        self.bytes = {}          # addr -> (value, writer id)
        self.window = None


def runs_of(part):
    out = []
    for line in part.lines:
        lo = line * LINE
        k = 0
        while k < LINE:
            if lo + k not in part.bytes:
                k += 1
                continue
            s = k
            while k < LINE and lo + k in part.bytes:
                k += 1
            out.append((lo + s, k - s))
    return out


def payload_of(part, sh, extra=()):
    saved = dict(part.bytes)
    lines = list(part.lines)
    for a in extra:
        part.bytes[a] = (0, 0)
        if a // LINE not in part.lines:
            part.lines.append(a // LINE)
    p = sum(sh + n for _, n in runs_of(part))
    part.bytes, part.lines = saved, lines
    return p


def main():
    tb = json.load(open(sys.argv[1]))
    cfg = {"entries": 64, "subhdr": 5, "max_payload": 4096, "timeout": 0, "enable": True}
    for k, v in tb.get("set", {}).items():
        key = k.split(".", 1)[1]
        cfg[key] = parse_time(v) if key == "timeout" else v
    sh = cfg["subhdr"]
    bits = 8 * sh - 10
    stim = tb["drive"]["d0"]["stimulus"]
    port = "tb.s0.in"
    parts = {}
    last = {}
    out = []
    tag = [0]

    def flush(d, t):
        p = parts.get(d)
        if not p or not p.lines:
            return
        rs = runs_of(p)
        base = (rs[0][0] >> bits) << bits
        body = b""
        parents = []
        for a, n in rs:
            body += ((n << bits) | (a - base)).to_bytes(sh, "big")
            body += bytes(p.bytes[a + i][0] for i in range(n))
            for i in range(n):
                w = p.bytes[a + i][1]
                if w not in parents:
                    parents.append(w)
        pay = len(body)
        dw = (pay + 3) // 4
        lastn = pay % 4 or 4
        hdr = bytes([0x7a, 0, (dw >> 8) & 3 if dw < 1024 else 0,
                     dw & 0xff if dw < 1024 else 0, 0, 0, tag[0] % 256,
                     ((1 << lastn) - 1) << 4]) + base.to_bytes(8, "big")
        tag[0] += 1
        pkt = hdr + body + bytes(dw * 4 - pay)
        out.append({"t": t, "port": port, "ev": "recv", "cmd": "write",
                    "addr": hex(base), "len": len(pkt), "src": 0, "dst": d,
                    "posted": True, "data": tohex(pkt), "fp_packet": 0x46500000 | sh,
                    "wire": pay, "parent": parents})
        parts[d] = Part()

    def timeouts_until(t):
        if not cfg["timeout"]:
            return
        while True:
            due = [(last[d] + cfg["timeout"], d) for d in sorted(parts)
                   if parts[d].lines and last[d] + cfg["timeout"] < t]
            if not due:
                return
            when, d = min(due)
            flush(d, when)

    now = 0
    ident = 0
    for e in stim:
        ident += 1
        if "t" in e:
            now = parse_time(e["t"])
        elif "gap" in e:
            now += parse_time(e["gap"])
        timeouts_until(now)
        cmd = e["cmd"]
        addr = int(e.get("addr", "0x0"), 16)
        data = hexbytes(e["data"]) if "data" in e else None
        n = e.get("len", len(data) if data else 0)
        be = int(e["be"], 16) if "be" in e else None
        d = e.get("dst", -1)
        remote = 0 < d < 16
        rec = {"t": now, "port": port, "ev": "recv", "id": ident, "cmd": cmd}
        if cmd in ("read", "write", "atomic"):
            rec.update({"addr": hex(addr), "len": n})
        if not cfg["enable"]:
            out.append(rec)
            continue
        if cmd == "write" and e.get("posted") and remote and n > 0:
            unit = min(LINE, 1 << bits)
            pieces = {}
            for i in range(n):
                if be is None or (be >> i) & 1:
                    pieces.setdefault((addr + i) // unit, []).append(i)
            for key in sorted(pieces):
                idx = pieces[key]
                first = addr + idx[0]
                p = parts.setdefault(d, Part())
                if p.lines and ((first >> bits) != p.window or
                                (first // LINE not in p.lines and
                                 len(p.lines) == cfg["entries"]) or
                                payload_of(p, sh, [addr + i for i in idx]) >
                                cfg["max_payload"]):
                    flush(d, now)
                    p = parts[d]
                if not p.lines:
                    p.window = first >> bits
                if first // LINE not in p.lines:
                    p.lines.append(first // LINE)
                for i in idx:
                    p.bytes[addr + i] = (data[i] if data else 0, ident)
            last[d] = now
            continue
        if cmd in ("release", "kernel_end"):
            for x in sorted(parts):
                flush(x, now)
        elif cmd in ("read", "atomic") or (cmd == "write" and remote):
            p = parts.get(d)
            if p and any(addr <= a < addr + n for a in p.bytes):
                flush(d, now)
        out.append(rec)
        if cmd in ("read", "atomic") or (cmd == "write" and not e.get("posted")):
            out.append({"t": now, "port": port, "ev": "send", "id": ident,
                        "cmd": "resp"})
    timeouts_until(1 << 62)
    for r in out:
        print(json.dumps(r, separators=(",", ":")))


if __name__ == "__main__":
    main()
