#!/usr/bin/env python3
"""Independent reference for `mgtlm trace-info`: counts an Accel-Sim trace folder.

Shares no code with the C reader (hw/core/accelsim_*.c): it reads kernelslist.g and
every kernel file it names (plain, or .gz or .xz, with Python's gzip and lzma modules;
tracer versions 3 to 5, and the cluster lines of sm_90 blocks, which it passes over)
and computes, per kernel,
CTAs, warps, warp and thread instructions, memory instructions per class, the global
(LDG, STG, ATOMG, RED) and local (LDL, STL) memory instructions and the 128 B line
requests each kind makes: the distinct lines each instruction's lanes touch, a lane
whose bytes cross a line boundary touching both (SPEC.md 6.1 and 6.3), written from
the format's description, not from the C code. Prints one JSON document:

    {"kernels": [{"file": ..., "ctas": ..., "warps": ..., "warp_instructions": ...,
                  "thread_instructions": ..., "memory": {"ldg": ...},
                  "global_instructions": ..., "local_instructions": ...,
                  "global_line_requests": ..., "local_line_requests": ...,
                  "cluster_blocks": ...}]}

(cluster_blocks: the blocks with at least one "cluster ..." line.)

Usage: accelsim_count.py DIR
"""
import gzip
import json
import lzma
import os
import sys

LINE = 128
LOCAL_WINDOW = 8 * 1024
# Memory mnemonics and what they access; LD, ST and ATOM are generic.
MEMORY = {
    "LDG": "ldg", "STG": "stg", "ATOMG": "atomg", "RED": "red",
    "LDS": "lds", "LDSM": "lds", "STS": "sts", "ATOMS": "atoms",
    "LDL": "ldl", "STL": "stl", "LDC": "ldc", "ULDC": "ldc",
}
GLOBAL = ("ldg", "stg", "atomg", "red")
LOCAL = ("ldl", "stl")


def open_trace(path):
    if not os.path.exists(path):
        for ext in (".gz", ".xz"):
            if os.path.exists(path + ext):
                path = path + ext
                break
    with open(path, "rb") as f:
        magic = f.read(6)
    if magic[:2] == b"\x1f\x8b":
        return gzip.open(path, "rt")
    if magic == b"\xfd7zXZ\x00":
        return lzma.open(path, "rt")
    return open(path, "rt")


def generic(mnemonic, addr, header):
    """The class of a generic LD/ST/ATOM by its first active address."""
    shmem, local = header["shmem"], header["local"]
    if addr is None:
        space = "global"
    elif shmem == 0 or local == 0:
        space = "shared"
    elif shmem <= addr < local:
        space = "shared"
    elif local <= addr < local + LOCAL_WINDOW:
        space = "local"
    else:
        space = "global"
    table = {
        "LD": {"shared": "lds", "local": "ldl", "global": "ldg"},
        "ST": {"shared": "sts", "local": "stl", "global": "stg"},
        "ATOM": {"shared": "atoms", "local": "atomg", "global": "atomg"},
    }
    return table[mnemonic][space]


def lanes_of(mask):
    return [lane for lane in range(32) if (mask >> lane) & 1]


def addresses(fields, lanes):
    """Expands the address fields of one access (mode first) into one per lane."""
    mode = int(fields[0])
    if mode == 0:
        return [int(x, 16) for x in fields[1:1 + len(lanes)]]
    base = int(fields[1], 16)
    if mode == 1:
        stride = int(fields[2])
        return [base + k * stride for k in range(len(lanes))]
    out = []
    for k in range(len(lanes)):
        out.append(base if k == 0 else out[-1] + int(fields[1 + k]))
    return out


def lines_touched(addrs, width):
    seen = set()
    for a in addrs:
        for line in range(a // LINE, (a + width - 1) // LINE + 1):
            seen.add(line)
    return len(seen)


def kernel_files(folder):
    """The kernel files kernelslist.g launches, in order: (name, path) pairs."""
    out = []
    with open_trace(os.path.join(folder, "kernelslist.g")) as f:
        for raw in f:
            name = raw.strip()
            if name.startswith("kernel"):
                out.append((name, os.path.join(folder, name)))
    return out


def records(path, header):
    """Reads the kernel trace at path: its header lines into header (shmem and local
    base addresses, lineinfo, block dims), and yields "cta" at each #BEGIN_TB,
    "cluster" for each cluster line and (mask, opcode, width, address fields) for each
    instruction line."""
    header.update({"shmem": 0, "local": 0, "lineinfo": 0, "block": (1, 1, 1)})
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
                elif key == "block dim":
                    header["block"] = tuple(int(v) for v in value.strip("()").split(","))
                continue
            if line == "#BEGIN_TB":
                yield "cta"
                continue
            if line.split(" ")[0] == "cluster":
                yield "cluster"
                continue
            if line.startswith("#") or line.split(" ")[0] in ("thread", "warp", "insts"):
                continue
            fields = line.split()[header["lineinfo"]:]
            ndst = int(fields[2])
            nsrc = int(fields[4 + ndst])
            yield (int(fields[1], 16), fields[3 + ndst], int(fields[5 + ndst + nsrc]),
                   fields[6 + ndst + nsrc:])


def count_kernel(path):
    header = {}
    out = {"ctas": 0, "warps": 0, "warp_instructions": 0, "thread_instructions": 0,
           "memory": {c: 0 for c in sorted(set(MEMORY.values()))},
           "global_instructions": 0, "local_instructions": 0,
           "global_line_requests": 0, "local_line_requests": 0, "cluster_blocks": 0}
    named = False  # the current block has a cluster line
    for rec in records(path, header):
        if rec == "cta":
            threads = header["block"][0] * header["block"][1] * header["block"][2]
            out["ctas"] += 1
            out["warps"] += -(-threads // 32)
            named = False
            continue
        if rec == "cluster":
            out["cluster_blocks"] += not named
            named = True
            continue
        mask, opcode, width, afields = rec
        lanes = lanes_of(mask)
        out["warp_instructions"] += 1
        out["thread_instructions"] += len(lanes)
        addrs = addresses(afields, lanes) if width else []
        mnemonic = opcode.split(".")[0]
        if mnemonic in ("LD", "ST", "ATOM"):
            cls = generic(mnemonic, addrs[0] if addrs else None, header)
        else:
            cls = MEMORY.get(mnemonic)
        if cls is None:
            continue
        out["memory"][cls] += 1
        for kind, classes in (("global", GLOBAL), ("local", LOCAL)):
            if cls in classes:
                out[kind + "_instructions"] += 1
                out[kind + "_line_requests"] += lines_touched(addrs, width)
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: accelsim_count.py DIR")
    kernels = []
    for name, path in kernel_files(sys.argv[1]):
        k = count_kernel(path)
        k["file"] = name
        kernels.append(k)
    json.dump({"kernels": kernels}, sys.stdout, indent=2, sort_keys=True)
    print()


if __name__ == "__main__":
    main()
