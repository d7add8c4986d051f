"""Checks tools/tracegen against SPEC.md 6.1 and each kernel's index arithmetic.

The trace is read back by a strict parser written here from SPEC.md 6.1 (it shares no
code with the tool): every line well-formed, masks and address counts agreeing, every
present thread exiting once, global addresses inside a MemcpyHtoD allocation, shared
addresses inside the CTA's shared memory, the address mode the documented rule picks.
Then, for small sizes, the addresses every thread touches are compared with the
kernel's formula computed here independently (the data-dependent kernels from the
input files the tool writes), plus hand-derived details (vectoradd n=40: two CTAs, the
second one's mask 0xff, addresses a + 4i, 27 warp instructions), register dependences,
the counts the tool prints, determinism and the refusal of bad parameters."""
import collections
import filecmp
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tally import check, finish  # noqa: E402

TOOL = os.path.join(sys.argv[1], "tools", "tracegen")
TMP = tempfile.mkdtemp(prefix="tracegen-test-")
HEX = re.compile(r"0x[0-9a-f]+$")
REG = re.compile(r"R([0-9]+)$")
OPCODE = re.compile(r"[A-Z][A-Z0-9_]*(\.[A-Z0-9_]+)*$")
HEADER_KEYS = ("kernel name", "kernel id", "grid dim", "block dim", "shmem", "nregs",
               "binary version", "shmem base_addr", "local mem base_addr",
               "accelsim tracer version")
MODES_SEEN = set()
PRINTED = {}


class Bad(Exception):
    pass


def gen(kernel, name, *args):
    out = os.path.join(TMP, name)
    r = subprocess.run([sys.executable, TOOL, kernel, "-o", out] + [str(a) for a in args],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise Bad("tracegen %s %s: %s" % (kernel, args, r.stderr))
    PRINTED[out] = r.stdout
    return out


def popcount(x):
    return bin(x).count("1")


def parse_addrs(toks, mask, where):
    """SPEC 6.1 address modes -> one address per active lane, in lane order."""
    k = popcount(mask)
    mode = int(toks[0])
    MODES_SEEN.add(mode)
    if mode == 0:
        if len(toks) != 1 + k or not all(HEX.match(t) for t in toks[1:]):
            raise Bad("%s: list needs %d hex addresses" % (where, k))
        return mode, [int(t, 16) for t in toks[1:]]
    if mode == 1:
        if len(toks) != 3 or not HEX.match(toks[1]):
            raise Bad("%s: base-stride needs a hex base and a stride" % where)
        base, stride = int(toks[1], 16), int(toks[2])
        return mode, [base + i * stride for i in range(k)]
    if mode == 2:
        if len(toks) != 1 + k or not HEX.match(toks[1]):
            raise Bad("%s: base-delta needs a base and %d deltas" % (where, k - 1))
        addrs = [int(toks[1], 16)]
        for t in toks[2:]:
            addrs.append(addrs[-1] + int(t))
        return mode, addrs
    raise Bad("%s: address mode %d" % (where, mode))


def parse_inst(line, where):
    toks = line.split()
    pos = 0

    def take():
        nonlocal pos
        if pos >= len(toks):
            raise Bad("%s: line ends early" % where)
        pos += 1
        return toks[pos - 1]

    pc_tok, mask_tok = take(), take()
    if not re.fullmatch(r"[0-9a-f]{4,}", pc_tok) or not re.fullmatch(r"[0-9a-f]{8}",
                                                                       mask_tok):
        raise Bad("%s: PC or mask not hex" % where)
    inst = {"pc": int(pc_tok, 16), "mask": int(mask_tok, 16)}
    for key in ("dsts", "op", "srcs"):
        if key == "op":
            inst["op"] = take()
            if not OPCODE.match(inst["op"]):
                raise Bad("%s: opcode %r" % (where, inst["op"]))
            continue
        regs = []
        for _ in range(int(take())):
            m = REG.match(take())
            if not m or int(m.group(1)) > 255:
                raise Bad("%s: register" % where)
            regs.append(int(m.group(1)))
        inst[key] = regs
    inst["width"] = int(take())
    inst["addrs"] = []
    if inst["width"]:
        inst["mode"], inst["addrs"] = parse_addrs(toks[pos:], inst["mask"], where)
    elif pos != len(toks):
        raise Bad("%s: tokens after mem_width 0" % where)
    if inst["mask"] == 0 or inst["pc"] % 16:
        raise Bad("%s: empty mask or unaligned PC" % where)
    return inst


def parse_kernel(path):
    with open(path) as f:
        lines = f.read().split("\n")
    head = {}
    i = 0
    while i < len(lines) and not lines[i].startswith("#BEGIN_TB"):
        m = re.fullmatch(r"-(.+?) = (.+)", lines[i])
        if m:
            head[m.group(1)] = m.group(2)
        elif lines[i] and not lines[i].startswith("#"):
            raise Bad("%s:%d: header line" % (path, i + 1))
        i += 1
    for key in HEADER_KEYS:
        if key not in head:
            raise Bad("%s: header lacks %s" % (path, key))

    def dim(v):
        m = re.fullmatch(r"\((\d+),(\d+),(\d+)\)", v)
        if not m:
            raise Bad("%s: dim %s" % (path, v))
        return tuple(int(x) for x in m.groups())

    k = {"name": head["kernel name"], "grid": dim(head["grid dim"]),
         "block": dim(head["block dim"]), "shmem": int(head["shmem"]),
         "shmem_base": int(head["shmem base_addr"], 16), "head": head, "ctas": []}
    body = [(n + 1, ln) for n, ln in enumerate(lines) if n >= i and ln.strip()]
    j = 0
    while j < len(body):
        n, ln = body[j]
        if ln != "#BEGIN_TB":
            raise Bad("%s:%d: expected #BEGIN_TB" % (path, n))
        m = re.fullmatch(r"thread block = (\d+),(\d+),(\d+)", body[j + 1][1])
        if not m:
            raise Bad("%s:%d: thread block" % (path, body[j + 1][0]))
        cta = {"xyz": tuple(int(x) for x in m.groups()), "warps": []}
        j += 2
        while body[j][1] != "#END_TB":
            mw = re.fullmatch(r"warp = (\d+)", body[j][1])
            mi = re.fullmatch(r"insts = (\d+)", body[j + 1][1])
            if not mw or not mi or int(mw.group(1)) != len(cta["warps"]):
                raise Bad("%s:%d: warp header" % (path, body[j][0]))
            cnt = int(mi.group(1))
            insts = [parse_inst(body[j + 2 + q][1], "%s:%d" % (path, body[j + 2 + q][0]))
                     for q in range(cnt)]
            cta["warps"].append(insts)
            j += 2 + cnt
        k["ctas"].append(cta)
        j += 1
    return k


def parse(folder):
    allocs, kernels = [], []
    with open(os.path.join(folder, "kernelslist.g")) as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            m = re.fullmatch(r"MemcpyHtoD,(0x[0-9a-f]+),(\d+)", line)
            if m:
                allocs.append((int(m.group(1), 16), int(m.group(2))))
            elif re.fullmatch(r"kernel-\d+\.traceg", line):
                kernels.append(parse_kernel(os.path.join(folder, line)))
            else:
                raise Bad("kernelslist.g:%d: %r" % (n, line))
    return allocs, kernels


def expected_mode(addrs):
    """The rule docs/tracegen.md states."""
    if len(addrs) == 1 or len({b - a for a, b in zip(addrs, addrs[1:])}) == 1:
        return 1
    return 2 if max(addrs) - min(addrs) < 65536 else 0


def threads_of(block, w, mask):
    """(tx, ty, tz) of the lanes set in mask of warp w."""
    bx, by = block[0], block[1]
    out = []
    for lane in range(32):
        if mask >> lane & 1:
            t = 32 * w + lane
            out.append((t % bx, t // bx % by, t // (bx * by)))
    return out


def well_formed(name, folder):
    """The structural checks every kernel's trace must pass; returns the parse."""
    allocs, kernels = parse(folder)
    ok = True
    for k in kernels:
        ok &= k["head"]["accelsim tracer version"] == "4"
        ok &= k["head"]["binary version"] == "70"
        gx, gy, gz = k["grid"]
        seen = sorted(c["xyz"] for c in k["ctas"])
        ok &= seen == sorted((x, y, z) for x in range(gx) for y in range(gy)
                             for z in range(gz))
        nthreads = k["block"][0] * k["block"][1] * k["block"][2]
        nwarps = (nthreads + 31) // 32
        for c in k["ctas"]:
            ok &= len(c["warps"]) == nwarps
            for w, insts in enumerate(c["warps"]):
                present = (1 << min(32, nthreads - 32 * w)) - 1
                exits = 0
                for inst in insts:
                    ok &= inst["mask"] & ~present == 0 and inst["mask"] & exits == 0
                    if inst["op"] == "EXIT":
                        exits |= inst["mask"]
                    if not inst["width"]:
                        continue
                    ok &= inst["mode"] == expected_mode(inst["addrs"])
                    for a in inst["addrs"]:
                        ok &= a % inst["width"] == 0
                        if inst["op"].split(".")[0] in ("LDS", "STS", "ATOMS"):
                            ok &= k["shmem_base"] <= a and \
                                a + inst["width"] <= k["shmem_base"] + k["shmem"]
                        else:
                            ok &= any(b <= a and a + inst["width"] <= b + n
                                      for b, n in allocs)
                ok &= exits == present
    check(ok, "%s: every line, CTA, warp, exit and address well-formed" % name)
    want = ""
    for n, k in enumerate(kernels, 1):
        insts = [i for c in k["ctas"] for w in c["warps"] for i in w]
        glob = [i for i in insts
                if i["op"].split(".")[0] in ("LDG", "STG", "ATOMG", "RED")]
        want += ("kernel-%d.traceg %s: %d CTAs, %d warp instructions, %d global, %d line "
                 "requests\n" % (n, k["name"], len(k["ctas"]), len(insts), len(glob),
                                  sum(len({a >> 7 for a in i["addrs"]} |
                                          {(a + i["width"] - 1) >> 7 for a in i["addrs"]})
                                      for i in glob)))
    check(PRINTED[folder] == want, "%s: the printed counts are the trace's" % name)
    return allocs, kernels


def lane_accesses(k, ops):
    """[(cta xyz, (tx,ty,tz), op, address)] of every active lane of instructions whose
    mnemonic is in ops."""
    out = []
    for c in k["ctas"]:
        for w, insts in enumerate(c["warps"]):
            for inst in insts:
                if inst["width"] and inst["op"].split(".")[0] in ops:
                    for t, a in zip(threads_of(k["block"], w, inst["mask"]),
                                    inst["addrs"]):
                        out.append((c["xyz"], t, inst["op"], a))
    return out


def by_thread(acc, gid):
    """Multiset of (op, address) per global thread id gid(cta, t)."""
    d = collections.defaultdict(collections.Counter)
    for cta, t, op, a in acc:
        d[gid(cta, t)][(op.split(".")[0], a)] += 1
    return d


def test_vectoradd():
    out = gen("vectoradd", "va", "--n", 40, "--block", 32)
    allocs, ks = well_formed("vectoradd", out)
    a, b, c = 0x7F4A00000000, 0x7F4A00200000, 0x7F4A00400000
    with open(os.path.join(out, "kernelslist.g")) as f:
        check(f.read() == "MemcpyHtoD,0x00007f4a00000000,160\n"
              "MemcpyHtoD,0x00007f4a00200000,160\nMemcpyHtoD,0x00007f4a00400000,160\n"
              "kernel-1.traceg\n", "vectoradd: kernelslist.g, three 160 B buffers")
    k = ks[0]
    check(k["grid"] == (2, 1, 1) and k["block"] == (32, 1, 1), "vectoradd: 2 CTAs of 32")
    # 13 instructions a warp, one more (the early EXIT) in CTA 1; 3 accesses a warp,
    # one 128 B line each.
    check(PRINTED[out] == "kernel-1.traceg vectoradd: 2 CTAs, 27 warp instructions, "
          "6 global, 6 line requests\n", "vectoradd: printed counts, by hand")
    second = [i for i in k["ctas"][1]["warps"][0] if i["op"] != "EXIT"][4:]
    check(all(i["mask"] == 0xFF for i in second), "vectoradd: CTA 1 mask 0xff")
    ldg = [i for i in k["ctas"][1]["warps"][0] if i["op"].startswith("LDG")]
    check([(i["mode"], i["addrs"][0], i["addrs"][1] - i["addrs"][0]) for i in ldg] ==
          [(1, a + 128, 4), (1, b + 128, 4)], "vectoradd: CTA 1 loads a+128, b+128 by 4")
    exits = [i["mask"] for i in k["ctas"][1]["warps"][0] if i["op"] == "EXIT"]
    check(exits == [0xFFFFFF00, 0xFF], "vectoradd: lanes 8..31 of CTA 1 exit early")
    per = by_thread(lane_accesses(k, ("LDG", "STG")), lambda cta, t: 32 * cta[0] + t[0])
    want = {i: collections.Counter({("LDG", a + 4 * i): 1, ("LDG", b + 4 * i): 1,
                                    ("STG", c + 4 * i): 1}) for i in range(40)}
    check(dict(per) == want, "vectoradd: thread i loads a+4i, b+4i and stores c+4i")
    w0 = k["ctas"][0]["warps"][0]
    loads = [i["dsts"][0] for i in w0 if i["op"].startswith("LDG")]
    add = [i for i in w0 if i["op"] == "FADD"][0]
    stg = [i for i in w0 if i["op"].startswith("STG")][0]
    check(sorted(add["srcs"]) == sorted(loads) and add["dsts"][0] in stg["srcs"],
          "vectoradd: FADD reads both loads, STG reads the FADD (RAW chain)")


def test_saxpy():
    out = gen("saxpy", "sx", "--n", 100, "--block", 64)
    allocs, ks = well_formed("saxpy", out)
    k = ks[0]
    x, y = allocs[0][0], allocs[1][0]
    check(len(allocs) == 2 and k["grid"] == (2, 1, 1), "saxpy: x, y; 2 CTAs")
    per = by_thread(lane_accesses(k, ("LDG", "STG")), lambda cta, t: 64 * cta[0] + t[0])
    want = {i: collections.Counter({("LDG", x + 4 * i): 1, ("LDG", y + 4 * i): 1,
                                    ("STG", y + 4 * i): 1}) for i in range(100)}
    check(dict(per) == want, "saxpy: thread i loads x[i], y[i] and stores y[i]")
    w = k["ctas"][1]["warps"][1]
    check([i["mask"] for i in w if i["op"].startswith("STG")] == [0xF],
          "saxpy: CTA 1 warp 1 holds threads 96..99 only (mask 0xf)")
    ffma = [i for i in w if i["op"] == "FFMA"][0]
    check(set(i["dsts"][0] for i in w if i["op"].startswith("LDG")) <= set(ffma["srcs"]),
          "saxpy: FFMA reads both loads")
    # A block of 48 threads: warp 1 of every CTA has 16 lanes (mask 0xffff).
    out = gen("saxpy", "sx48", "--n", 100, "--block", 48)
    allocs, ks = well_formed("saxpy block 48", out)
    k = ks[0]
    x, y = allocs[0][0], allocs[1][0]
    per = by_thread(lane_accesses(k, ("LDG", "STG")), lambda cta, t: 48 * cta[0] + t[0])
    check(dict(per) == {i: collections.Counter({("LDG", x + 4 * i): 1,
                                                ("LDG", y + 4 * i): 1,
                                                ("STG", y + 4 * i): 1})
                        for i in range(100)} and k["grid"] == (3, 1, 1),
          "saxpy block 48: thread i = 48 * bid + tid")
    check([i["mask"] for i in k["ctas"][0]["warps"][1] if i["op"] == "STG.E"] == [0xFFFF]
          and [i["mask"] for i in k["ctas"][2]["warps"][0] if i["op"] == "STG.E"]
          == [0xF], "saxpy block 48: a 16-lane warp; CTA 2 holds threads 96..99")


def test_gemm():
    n, tile = 32, 16
    out = gen("gemm", "gemm", "--n", n, "--tile", tile)
    allocs, ks = well_formed("gemm", out)
    k = ks[0]
    A, B, C = (al[0] for al in allocs)
    check(k["grid"] == (2, 2, 1) and k["block"] == (16, 16, 1) and k["shmem"] == 2048,
          "gemm: grid 2x2 of 16x16, two 1 KiB tiles")
    per = by_thread(lane_accesses(k, ("LDG", "STG")),
                    lambda cta, t: (cta[1] * tile + t[1], cta[0] * tile + t[0]))
    ok = len(per) == n * n
    for (row, col), got in per.items():
        tx, ty = col % tile, row % tile
        want = collections.Counter()
        for t in range(n // tile):
            want[("LDG", A + 4 * (row * n + t * tile + tx))] += 1
            want[("LDG", B + 4 * ((t * tile + ty) * n + col))] += 1
        want[("STG", C + 4 * (row * n + col))] += 1
        ok &= got == want
    check(ok, "gemm: thread (row,col) loads A[row][t*T+tx], B[t*T+ty][col], stores C")
    lds = by_thread(lane_accesses(k, ("LDS",)),
                    lambda cta, t: (cta, t[0], t[1]))
    sb = k["shmem_base"]
    ok = True
    for (cta, tx, ty), got in lds.items():
        want = collections.Counter()
        for kk in range(tile):
            want[("LDS", sb + 4 * (ty * tile + kk))] += n // tile
            want[("LDS", sb + 1024 + 4 * (kk * tile + tx))] += n // tile
        ok &= got == want
    check(ok and len(lds) == n * n, "gemm: LDS reads As[ty][k] and Bs[k][tx] per tile")
    w = k["ctas"][0]["warps"][0]
    check(sum(i["op"] == "BAR.SYNC" for i in w) == 2 * n // tile,
          "gemm: two barriers per tile")
    ffma = [i for i in w if i["op"] == "FFMA"]
    acc = ffma[0]["dsts"][0]
    check(len(ffma) == n and all(i["dsts"] == [acc] and acc in i["srcs"] for i in ffma),
          "gemm: every FFMA accumulates into one register (RAW chain)")


def test_stencil():
    n = 40
    out = gen("stencil2d", "st", "--n", n, "--block", 64)
    allocs, ks = well_formed("stencil2d", out)
    k = ks[0]
    src, dst = allocs[0][0], allocs[1][0]
    check(k["grid"] == (2, 20, 1) and k["block"] == (32, 2, 1), "stencil2d: grid 2x20")
    per = by_thread(lane_accesses(k, ("LDG", "STG")),
                    lambda cta, t: (cta[0] * 32 + t[0], cta[1] * 2 + t[1]))
    want = {}
    for y in range(n):
        for x in range(n):
            c = collections.Counter({("LDG", src + 4 * (y * n + x)): 1,
                                     ("STG", dst + 4 * (y * n + x)): 1})
            if 0 < x < n - 1 and 0 < y < n - 1:
                for d in (-n, n, -1, 1):
                    c[("LDG", src + 4 * (y * n + x + d))] += 1
            want[(x, y)] = c
    check(dict(per) == want, "stencil2d: interior cells read 5 points, edges 1; "
          "every cell written once")


def test_transpose():
    n = 40
    out = gen("transpose", "tr", "--n", n)
    allocs, ks = well_formed("transpose", out)
    k = ks[0]
    src, dst = allocs[0][0], allocs[1][0]
    acc = lane_accesses(k, ("LDG", "STG"))
    reads = collections.Counter(a for _, _, op, a in acc if op.startswith("LDG"))
    writes = collections.Counter(a for _, _, op, a in acc if op.startswith("STG"))
    check(reads == collections.Counter(src + 4 * i for i in range(n * n)),
          "transpose: every element read once")
    check(writes == collections.Counter(dst + 4 * i for i in range(n * n)),
          "transpose: every element written once")
    # Follow each value: register <- LDG, STS slot <- register, BAR, register <- LDS,
    # STG <- register; the element read at (r, c) must land at (c, r).
    ok = True
    for c in k["ctas"]:
        slot, reg = {}, {}
        phases = [[], []]
        for w, insts in enumerate(c["warps"]):
            bar = [i["op"] for i in insts].index("BAR.SYNC")
            phases[0] += [(w, i) for i in insts[:bar]]
            phases[1] += [(w, i) for i in insts[bar + 1:]]
        for w, inst in phases[0] + phases[1]:
            lanes = [ln for ln in range(32) if inst["mask"] >> ln & 1]
            for ln, a in zip(lanes, inst["addrs"]):
                if inst["op"] in ("LDG.E", "LDS"):
                    reg[(w, ln, inst["dsts"][0])] = \
                        ("in", (a - src) // 4) if inst["op"] == "LDG.E" else slot.get(a)
                elif inst["op"] == "STS":
                    slot[a] = reg.get((w, ln, inst["srcs"][1]))
                elif inst["op"] == "STG.E":
                    v = reg.get((w, ln, inst["srcs"][1]))
                    o = (a - dst) // 4
                    ok &= v is not None and v[1] == (o % n) * n + o // n
    check(ok, "transpose: out[c][r] gets the value read from in[r][c] through shared")


def test_reduction():
    n, block = 100, 32
    out = gen("reduction", "red", "--n", n, "--block", block)
    allocs, ks = well_formed("reduction", out)
    k = ks[0]
    src, part, count, result = (a[0] for a in allocs)
    grid = 4
    acc = lane_accesses(k, ("LDG", "STG", "ATOMG"))
    got = collections.Counter((cta[0], t[0], op.split(".")[0], a)
                              for cta, t, op, a in acc)
    want = collections.Counter()
    for b in range(grid):
        for t in range(block):
            if b * block + t < n:
                want[(b, t, "LDG", src + 4 * (b * block + t))] += 1
        want[(b, 0, "STG", part + 4 * b)] += 1
        want[(b, 0, "ATOMG", count)] += 1
    for t in range(grid):
        want[(grid - 1, t, "LDG", part + 4 * t)] += 1
    want[(grid - 1, 0, "STG", result)] += 1
    want[(grid - 1, 0, "STG", count)] += 1
    check(got == want, "reduction: inputs once, partial[b] and a ticket per CTA, the "
          "last CTA reads every partial and stores the result")
    w0 = k["ctas"][0]["warps"][0]
    ops = [i["op"] for i in w0]
    check(ops.index("MEMBAR.SC.GPU") < ops.index("ATOMG.E.ADD.STRONG.GPU") and
          ops.index("STG.E") < ops.index("MEMBAR.SC.GPU"),
          "reduction: partial store, fence, then the ticket atomic")
    tree = [i["mask"] for i in w0 if i["op"] == "FADD"]
    check(tree == [0xFFFF, 0xFF, 0xF, 0x3, 0x1], "reduction: tree halves the lanes")


def test_histogram():
    n, block, bins = 100, 32, 16
    out = gen("histogram", "hist", "--n", n, "--block", block, "--bins", bins,
              "--seed", 5)
    allocs, ks = well_formed("histogram", out)
    k = ks[0]
    src, hist = allocs[0][0], allocs[1][0]
    with open(os.path.join(out, "inputs", "histogram.txt")) as f:
        head, vals = f.read().split("\n")[:2]
    values = [int(v) for v in vals.split()]
    check(head == "%d %d" % (n, bins) and len(values) == n and
          all(0 <= v < bins for v in values), "histogram: input file, values in range")
    sb = k["shmem_base"]
    acc = lane_accesses(k, ("LDG", "ATOMS", "RED", "STS"))
    got = collections.Counter((cta[0], t[0], op.split(".")[0], a)
                              for cta, t, op, a in acc)
    want = collections.Counter()
    for b in range(4):
        for t in range(block):
            i = b * block + t
            if i < n:
                want[(b, t, "LDG", src + 4 * i)] += 1
                want[(b, t, "ATOMS", sb + 4 * values[i])] += 1
            if t < bins:
                want[(b, t, "STS", sb + 4 * t)] += 1
                want[(b, t, "RED", hist + 4 * t)] += 1
    check(got == want, "histogram: element i adds to bin value[i] in shared, each CTA "
          "clears and merges every bin once")


def test_spmv():
    n = 50
    out = gen("spmv", "spmv", "--n", n, "--block", 32, "--degree", 4, "--seed", 3)
    allocs, ks = well_formed("spmv", out)
    k = ks[0]
    ptr, col, val, x, y = (a[0] for a in allocs)
    with open(os.path.join(out, "inputs", "spmv.txt")) as f:
        lines = f.read().split("\n")
    rowptr = [int(v) for v in lines[1].split()]
    cols = [int(v) for v in lines[2].split()]
    check(rowptr[0] == 0 and rowptr[-1] == len(cols) and len(rowptr) == n + 1 and
          all(0 <= cols[j] < n for j in range(len(cols))) and
          all(cols[j] < cols[j + 1] for r in range(n)
              for j in range(rowptr[r], rowptr[r + 1] - 1)),
          "spmv: CSR input, sorted distinct columns")
    per = by_thread(lane_accesses(k, ("LDG", "STG")), lambda cta, t: 32 * cta[0] + t[0])
    want = {}
    for r in range(n):
        c = collections.Counter({("LDG", ptr + 4 * r): 1, ("LDG", ptr + 4 * r + 4): 1,
                                 ("STG", y + 4 * r): 1})
        for j in range(rowptr[r], rowptr[r + 1]):
            c[("LDG", col + 4 * j)] += 1
            c[("LDG", val + 4 * j)] += 1
            c[("LDG", x + 4 * cols[j])] += 1
        want[r] = c
    check(dict(per) == want, "spmv: row r reads rowptr[r..r+1], its nonzeros and "
          "x[col], and stores y[r]")


def test_bfs():
    n = 60
    out = gen("bfs", "bfs", "--n", n, "--block", 32, "--degree", 2, "--seed", 7)
    allocs, ks = well_formed("bfs", out)
    nodes, edge, mask, updating, visited, cost, over = (a[0] for a in allocs)
    with open(os.path.join(out, "inputs", "graph.txt")) as f:
        toks = f.read().split()
    nn = int(toks[0])
    starts = [int(toks[1 + 2 * v]) for v in range(nn)]
    degs = [int(toks[2 + 2 * v]) for v in range(nn)]
    ne = int(toks[2 + 2 * nn])
    edges = [int(toks[3 + 2 * nn + 2 * e]) for e in range(ne)]
    seen, frontier, levels = {0}, [0], []
    while True:
        found = sorted({edges[e] for v in frontier
                        for e in range(starts[v], starts[v] + degs[v])} - seen)
        levels.append((frontier, found))
        if not found:
            break
        seen |= set(found)
        frontier = found
    check(nn == n and len(ks) == 2 * len(levels) and len(levels) > 2,
          "bfs: two kernels per level plus the last, empty one (%d levels)" % len(levels))
    ok = True
    visited_before = {0}
    for lv, (front, found) in enumerate(levels):
        k1, k2 = ks[2 * lv], ks[2 * lv + 1]
        got = collections.Counter((32 * c[0] + t[0], op.split(".")[0], a) for c, t, op, a
                                  in lane_accesses(k1, ("LDG", "STG")))
        want = collections.Counter((v, "LDG", mask + v) for v in range(n))
        for v in front:
            want[(v, "STG", mask + v)] += 1
            want[(v, "LDG", nodes + 8 * v)] += 1
            want[(v, "LDG", cost + 4 * v)] += 1
            for e in range(starts[v], starts[v] + degs[v]):
                u = edges[e]
                want[(v, "LDG", edge + 4 * e)] += 1
                want[(v, "LDG", visited + u)] += 1
                if u not in visited_before:
                    want[(v, "STG", cost + 4 * u)] += 1
                    want[(v, "STG", updating + u)] += 1
        ok &= got == want
        got = collections.Counter((32 * c[0] + t[0], op.split(".")[0], a) for c, t, op, a
                                  in lane_accesses(k2, ("LDG", "STG")))
        want = collections.Counter((v, "LDG", updating + v) for v in range(n))
        for v in found:
            for a in (mask + v, visited + v, over, updating + v):
                want[(v, "STG", a)] += 1
        ok &= got == want
        visited_before |= set(found)
    check(ok, "bfs: each level's kernels touch exactly the frontier's edges, the "
          "unvisited neighbours and the newly found nodes")


def test_scatter():
    # 17500 elements a part: 70000 B apart, too far for base-delta (a list).
    for n in (100, 70000):
        out = gen("scatter", "sc%d" % n, "--n", n, "--block", 64, "--parts", 4)
        allocs, ks = well_formed("scatter", out)
        src, dst = allocs[0][0], allocs[1][0]
        chunk = (n + 3) // 4
        per = by_thread(lane_accesses(ks[0], ("LDG", "STG")),
                        lambda c, t: 64 * c[0] + t[0])
        want = {g: collections.Counter({("LDG", src + 4 * g): 1,
                                        ("STG", dst + 4 * ((g % 4) * chunk + g // 4)): 1})
                for g in range(n)}
        check(dict(per) == want, "scatter n=%d: element g goes to part g%%4 at g/4" % n)


def test_prodcons():
    n, shift = 100, 30
    out = gen("prodcons", "pc", "--n", n, "--block", 32, "--shift", shift)
    allocs, ks = well_formed("prodcons", out)
    data, res = allocs[0][0], allocs[1][0]
    check([k["name"] for k in ks] == ["producer", "consumer"], "prodcons: two kernels")
    p = by_thread(lane_accesses(ks[0], ("LDG", "STG")), lambda c, t: 32 * c[0] + t[0])
    check(dict(p) == {i: collections.Counter({("STG", data + 4 * i): 1})
                      for i in range(n)}, "prodcons: producer writes data[i]")
    c = by_thread(lane_accesses(ks[1], ("LDG", "STG")), lambda c, t: 32 * c[0] + t[0])
    check(dict(c) == {i: collections.Counter({("LDG", data + 4 * ((i + shift) % n)): 1,
                                              ("STG", res + 4 * i): 1})
                      for i in range(n)}, "prodcons: consumer reads data[(i+30)%100]")


def test_determinism():
    ok = True
    for kernel, args in (("bfs", ["--n", 300]), ("spmv", ["--n", 300]),
                         ("histogram", ["--n", 500]), ("gemm", ["--n", 32])):
        a = gen(kernel, kernel + "-d1", *args)
        b = gen(kernel, kernel + "-d2", *args)
        names = sorted(os.listdir(a))
        ok &= names == sorted(os.listdir(b))
        for sub in ("", "inputs"):
            d = os.path.join(a, sub)
            if os.path.isdir(d):
                files = [f for f in os.listdir(d) if os.path.isfile(os.path.join(d, f))]
                match, mismatch, errors = filecmp.cmpfiles(d, os.path.join(b, sub), files,
                                                           shallow=False)
                ok &= not mismatch and not errors
    check(ok, "determinism: the same arguments give byte-identical folders")
    a = gen("spmv", "seed1", "--n", 300, "--seed", 1)
    b = gen("spmv", "seed2", "--n", 300, "--seed", 2)
    check(not filecmp.cmp(os.path.join(a, "kernel-1.traceg"),
                          os.path.join(b, "kernel-1.traceg"), shallow=False),
          "determinism: another seed gives another matrix")


def test_modes_and_errors():
    check(MODES_SEEN == {0, 1, 2}, "all three address modes appear: %s" % MODES_SEEN)
    for args, word in ((["vectoradd", "--n", "0"], "--n"),
                       (["gemm", "--n", "40", "--tile", "16"], "multiple"),
                       (["reduction", "--block", "48"], "power of two"),
                       (["saxpy", "--block", "2048"], "1024"),
                       (["transpose", "--block", "64"], "not a parameter")):
        r = subprocess.run([sys.executable, TOOL] + args + ["-o", os.path.join(TMP, "x")],
                           capture_output=True, text=True)
        check(r.returncode == 2 and word in r.stderr and r.stderr.count("\n") == 1,
              "bad parameters %s: one line, exit 2 (%d %r)" % (args, r.returncode,
                                                               r.stderr))
    r = subprocess.run([TOOL, "--help"], capture_output=True, text=True)
    check(r.returncode == 0 and "gemm" in r.stdout, "tracegen --help runs (executable)")


for test in (test_vectoradd, test_saxpy, test_gemm, test_stencil, test_transpose,
             test_reduction, test_histogram, test_spmv, test_bfs, test_scatter,
             test_prodcons, test_determinism, test_modes_and_errors):
    try:
        test()
    except Bad as e:
        check(False, "%s: %s" % (test.__name__, e))
finish()
