#!/usr/bin/env python3
"""Independent reference for the coherence directories of SPEC.md 3.1 (REC paper 003).

Usage: coherence_ref.py TESTBENCH.json     prints the golden records (JSON Lines)

Reads the testbench: its platform (a file, following "extends", or a flat file) must
hold exactly one instance of dir_baseline, dir_hmg or dir_rec; the testbench's "set"
may change its parameters (exact "<instance>.<param>" keys). Driver "d0" is wired to
the directory's up port, a sink answers everything at its down port at once.
The records are those of port tb.d0.out: each request's "send", then the
invalidates it causes ("recv", in ascending line then GPU order), then its response
("recv") if it needs one; invalidates and responses arrive `latency` after the send.

The directory is restated from SPEC.md 3.1 with plain Python lists: an entry is
[base, stamp, {line index: set of sharer GPUs}]; a line index is present iff its
position bit is set. HMG keeps one sharer set for the whole entry (key 0).
Shares no code with the model."""
import json
import os
import re
import sys

UNITS = {"B": 1, "KiB": 1024, "MiB": 1 << 20, "GiB": 1 << 30}
TIMES = {"ps": 1, "ns": 1000, "us": 1000000}


def size(v):
    if isinstance(v, int):
        return v
    m = re.fullmatch(r"(\d+)(B|KiB|MiB|GiB)", v)
    return int(m.group(1)) * UNITS[m.group(2)]


def ptime(v):
    m = re.fullmatch(r"(\d+)(ps|ns|us)", v)
    return int(m.group(1)) * TIMES[m.group(2)]


def load_platform(path):
    with open(path) as f:
        doc = json.load(f)
    if "extends" in doc:
        parent = load_platform(os.path.join(os.path.dirname(path), doc["extends"]))
        parent.update({k: v for k, v in doc.items() if k != "extends"})
        doc = parent
    return doc


def find_dir(plat):
    if plat.get("format") == "mgtlm-flat":
        inst = [i for i in plat["instances"] if i["type"].startswith("dir_")]
        return inst[0]["name"], inst[0]["type"], dict(inst[0]["params"]), inst[0]["gpu"]
    for name, b in plat["blocks"].items():
        if b["type"].startswith("dir_"):
            return name, b["type"], dict(b.get("params", {})), 0
    raise SystemExit("no directory in the platform")


class Directory:
    def __init__(self, kind, p, gpus, home):
        self.kind = kind
        self.entries = p.get("entries", 8192)
        self.ways = p.get("ways", 8)
        self.line = size(p.get("line", 64))
        default_range = {"dir_baseline": self.line, "dir_hmg": 256, "dir_rec": 1024}[kind]
        self.range = size(p.get("range", default_range))
        if kind == "dir_baseline":
            self.range = self.line
        default_repl = "fifo" if kind == "dir_baseline" else "lru"
        self.lru = p.get("replacement", default_repl) == "lru"
        self.sets = self.entries // self.ways
        self.gpus = gpus
        self.home = home
        self.table = [[None] * self.ways for _ in range(self.sets)]
        self.clock = 0
        self.out = []

    def locate(self, addr):
        base = addr // self.range
        idx = 0 if self.kind == "dir_hmg" else (addr % self.range) // self.line
        return base, idx

    def lookup(self, base):
        for e in self.table[base % self.sets]:
            if e is not None and e[0] == base:
                return e
        return None

    def touch(self, e):
        if self.lru:
            self.clock += 1
            e[1] = self.clock

    def lines_of(self, base, idx):
        first = base * self.range
        if self.kind == "dir_hmg":
            return [first + k * self.line for k in range(self.range // self.line)]
        return [first + idx * self.line]

    def evict_and_allocate(self, base):
        ways = self.table[base % self.sets]
        slot = None
        for w in range(self.ways):
            if ways[w] is None:
                slot = w
                break
        if slot is None:
            slot = min(range(self.ways), key=lambda w: ways[w][1])
            victim = ways[slot]
            for idx in sorted(victim[2]):
                for line in self.lines_of(victim[0], idx):
                    for g in sorted(victim[2][idx]):
                        self.out.append((line, g))
        self.clock += 1
        ways[slot] = [base, self.clock, {}]
        return ways[slot]

    def remote_read(self, addr, s):
        base, idx = self.locate(addr)
        e = self.lookup(base)
        if e is None:
            e = self.evict_and_allocate(base)
        else:
            self.touch(e)
        e[2].setdefault(idx, set()).add(s)

    def drop_if_empty(self, e):
        if not e[2]:
            ways = self.table[e[0] % self.sets]
            ways[ways.index(e)] = None

    def local_write(self, addr):
        base, idx = self.locate(addr)
        e = self.lookup(base)
        if e is None:
            return
        self.touch(e)
        if idx not in e[2]:
            return
        for line in self.lines_of(base, idx):
            for g in sorted(e[2][idx]):
                self.out.append((line, g))
        del e[2][idx]
        self.drop_if_empty(e)

    def remote_write(self, addr, s):
        base, idx = self.locate(addr)
        e = self.lookup(base)
        if e is None or idx not in e[2]:
            self.remote_read(addr, s)
            return
        self.touch(e)
        for line in self.lines_of(base, idx):
            for g in sorted(e[2][idx]):
                if g != s:
                    self.out.append((line, g))
        e[2][idx] = {s}


def main():
    tb_path = sys.argv[1]
    with open(tb_path) as f:
        tb = json.load(f)
    plat = load_platform(os.path.join(os.path.dirname(tb_path), tb["platform"]))
    name, kind, params, home = find_dir(plat)
    for key, value in tb.get("set", {}).items():
        inst, _, param = key.rpartition(".")
        if inst == name:
            params[param] = value
    latency = ptime(params.get("latency", "0ns"))
    d = Directory(kind, params, plat["gpus"], home)
    port = "tb.d0.out"
    for ident, st in enumerate(tb["drive"]["d0"]["stimulus"], start=1):
        t = ptime(st["t"])
        cmd = st["cmd"]
        addr = int(st["addr"], 16)
        n = st.get("len", (len(st.get("data", "0x")) - 2) // 2)
        rec = {"t": t, "port": port, "ev": "send", "id": ident, "cmd": cmd,
               "addr": hex(addr), "src": st["src"], "dst": st["dst"]}
        print(json.dumps(rec, separators=(",", ":")))
        d.out = []
        first = addr - addr % d.line
        for a in range(first, addr + max(n, 1), d.line):
            if cmd == "read":
                if st["src"] != home:
                    d.remote_read(a, st["src"])
            elif st["src"] == home:
                d.local_write(a)
            else:
                d.remote_write(a, st["src"])
        for line, g in d.out:
            rec = {"t": t + latency, "port": port, "ev": "recv", "cmd": "invalidate",
                   "addr": hex(line), "len": d.line, "src": home, "dst": g}
            print(json.dumps(rec, separators=(",", ":")))
        if cmd in ("read", "atomic") or (cmd == "write" and not st.get("posted")):
            rec = {"t": t + latency, "port": port, "ev": "recv", "id": ident,
                   "cmd": "resp", "req": cmd}
            print(json.dumps(rec, separators=(",", ":")))


if __name__ == "__main__":
    main()
