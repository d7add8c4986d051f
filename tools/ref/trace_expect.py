#!/usr/bin/env python3
"""Independent reference for the data check's expectations (docs/cores.md "Data
check", hw/core/trace_scan.h): what a read of each byte in each kernel of an Accel-Sim
trace folder may return, computed from the rule as written, not from the C code.

Kernels are numbered by launch order from 0. Stores are STG and STL (and a generic ST
resolved to them by the header's windows); atomics ATOMG and RED (and a generic ATOM
outside the shared window). A lane of width w at address a touches bytes a .. a+w-1.
For byte b read in kernel k:
  checked = no atomic of any kernel touches b
  written = some kernel j < k stores b; older = the largest such j
  now     = kernel k stores b

Prints "kernels K", then one line "L <line>" (hex) per 128 B line some store or atomic
touches, in increasing order, then for each of those lines' bytes and each kernel
whose expectation is not the default (checked, not written, not now) a line
"<k> <byte address hex> <checked> <written> <older> <now>" (older 0 when not
written), bytes in increasing order, kernels in increasing order.

Usage: trace_expect.py DIR
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from accelsim_count import addresses, generic, lanes_of, open_trace  # noqa: E402

LINE = 128
STORES = ("STG", "STL")
ATOMICS = ("ATOMG", "RED")


def accesses(path):
    """Yields (mnemonic class, addresses, width) of every memory instruction."""
    header = {"shmem": 0, "local": 0, "lineinfo": 0}
    with open_trace(path) as f:
        for raw in f:
            line = raw.strip()
            if not line:
                continue
            if line.startswith("-"):
                key, _, value = line[1:].partition(" = ")
                if key == "shmem base_addr":
                    header["shmem"] = int(value, 16)
                elif key == "local mem base_addr":
                    header["local"] = int(value, 16)
                elif key == "enable lineinfo":
                    header["lineinfo"] = int(value)
                continue
            if line.startswith("#") or line.split(" ")[0] in ("thread", "warp", "insts"):
                continue
            fields = line.split()[header["lineinfo"]:]
            mask = int(fields[1], 16)
            ndst = int(fields[2])
            opcode = fields[3 + ndst]
            nsrc = int(fields[4 + ndst])
            width = int(fields[5 + ndst + nsrc])
            if width == 0 or mask == 0:
                continue
            addrs = addresses(fields[6 + ndst + nsrc:], lanes_of(mask))
            mnemonic = opcode.split(".")[0]
            if mnemonic in ("ST", "ATOM"):
                kind = generic(mnemonic, addrs[0], header).upper()
            else:
                kind = mnemonic
            yield kind, addrs, width


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: trace_expect.py DIR")
    folder = sys.argv[1]
    kernels = []
    with open_trace(os.path.join(folder, "kernelslist.g")) as f:
        for raw in f:
            name = raw.strip()
            if name.startswith("kernel"):
                kernels.append(os.path.join(folder, name))
    stored = {}  # byte -> set of kernels that store it
    atomic = set()
    for k, path in enumerate(kernels):
        for kind, addrs, width in accesses(path):
            for a in addrs:
                for b in range(a, a + width):
                    if kind in STORES:
                        stored.setdefault(b, set()).add(k)
                    elif kind in ATOMICS:
                        atomic.add(b)
    lines = sorted({b // LINE for b in stored} | {b // LINE for b in atomic})
    out = ["kernels %d" % len(kernels)]
    for n in lines:
        out.append("L %x" % (n * LINE))
        for b in range(n * LINE, (n + 1) * LINE):
            writers = stored.get(b, set())
            for k in range(len(kernels)):
                checked = b not in atomic
                earlier = [j for j in writers if j < k]
                now = k in writers
                if checked and not earlier and not now:
                    continue
                out.append("%d %x %d %d %d %d" % (k, b, checked, bool(earlier),
                                                  max(earlier) if earlier else 0, now))
    print("\n".join(out))


if __name__ == "__main__":
    main()
