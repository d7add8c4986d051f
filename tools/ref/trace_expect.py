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
from accelsim_count import (addresses, generic, kernel_files, lanes_of,  # noqa: E402
                             records)

LINE = 128
STORES = ("STG", "STL")
ATOMICS = ("ATOMG", "RED")


def accesses(path):
    """Yields (mnemonic class, addresses, width) of every memory instruction."""
    header = {}
    for rec in records(path, header):
        if rec in ("cta", "cluster"):
            continue
        mask, opcode, width, afields = rec
        if width == 0 or mask == 0:
            continue
        addrs = addresses(afields, lanes_of(mask))
        mnemonic = opcode.split(".")[0]
        if mnemonic in ("ST", "ATOM"):
            kind = generic(mnemonic, addrs[0], header).upper()
        else:
            kind = mnemonic
        yield kind, addrs, width


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: trace_expect.py DIR")
    kernels = [path for _, path in kernel_files(sys.argv[1])]
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
