"""LADM's trace analysis (hw/core/ladm*.c, through bench/ladm_plan) on kernels that
tools/tracegen writes from their CUDA index arithmetic, against what paper 002 (LADM)
derives from the same source: Fig. 6's tiled GEMM has A row-shared (loop-invariant
in by only), B column-shared (bx only) and C without datablock-locality, and is
row-bound (A and B the same size); VecAdd is NL (Table IV) with MinTBBatch = page /
(blockDim.x x 4 B) (Eq. 2); CSR SpMV (one thread per row, a loop over its nonzeros)
has intra-thread locality in col and val (Table IV SpMV: ITL, kernel-wide). The
expected numbers follow from tracegen's parameters (docs/tracegen.md), not from a run
of the analysis. The share of global lane accesses homed on another GPU than their
CTA's (ladm_plan's third pass) is checked where it follows by hand: VecAdd's aligned
batches keep every page with its CTAs (0 remote, contiguous with interleaved pages
3/4); in the GEMM (4 GPUs, row-bound) A and C are local and B, whose 4 KiB pages
span every column and so interleave, is 3/4 remote: each CTA makes 8 x 256 lane
accesses to A, as many to B and 256 to C, so 8 x 256 x 3/4 / (17 x 256) = 6/17.
Runs twice each: identical output (determinism)."""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tally import check, finish  # noqa: E402

ROOT, PLAN = sys.argv[1], sys.argv[2]
TRACEGEN = os.path.join(ROOT, "tools", "tracegen")
KERNEL = re.compile(r"^kernel (\d+) \S+ grid (\S+) schedule (\S+) unit (\d+) itl (\d)$")
ALLOC = re.compile(r"^  alloc 0x[0-9a-f]+ (\d+) (\S+) datablock (\d+)$")
REMOTE = re.compile(r"^  remote ladm (\S+) contiguous\+split (\S+) "
                    r"contiguous\+interleave (\S+)$")

# (tracegen kernel, its arguments, GPUs, page, expected per kernel: (grid, schedule,
# unit, itl, [(class, datablock) per allocation], remote shares (LADM, contiguous with
# interleave) or None))
CASES = [
    # n = 128, tile 16: grid 8 x 8. A starts at 4 (16 by) 128, B at 4 (16 bx), C at
    # 4 (16 by 128 + 16 bx): datablock gcd(64, 8192) = 64 B. Row-binding: rows of 8.
    ("gemm", ["--n", "128", "--tile", "16"], 4, 4096,
     [("8,8,1", "row", 8, 0, [("row", 0), ("col", 0), ("nl", 64)], (6 / 17, 0.75))]),
    # 65536 floats, 256 threads: 256 CTAs 1 KiB apart; 4 KiB pages: batch 4 (cap 64).
    ("vectoradd", ["--n", "65536", "--block", "256"], 4, 4096,
     [("256,1,1", "align", 4, 0, [("nl", 1024)] * 3, (0.0, 0.75))]),
    # The same on 2 MiB pages: Eq. 2 gives 2048, capped at floor(256 / 4) = 64.
    ("vectoradd", ["--n", "65536", "--block", "256"], 4, 2 << 20,
     [("256,1,1", "align", 64, 0, [("nl", 1024)] * 3, None)]),
    # 8192 rows, 128 threads: 64 CTAs. ptr and y start 512 B apart (NL); col and val
    # are read at one PC per nonzero, one element further each time (ITL); they
    # outweigh ptr and y, so the kernel is ITL and kernel-wide.
    ("spmv", ["--n", "8192", "--block", "128", "--degree", "16"], 4, 4096,
     [("64,1,1", "kernel_wide", 1, 1, [("nl", 512), ("itl", 0), ("itl", 0), None,
                                        ("nl", 512)], None)]),
]

with tempfile.TemporaryDirectory() as tmp:
    for n, (kernel, args, gpus, page, want) in enumerate(CASES):
        out = os.path.join(tmp, "%d-%s" % (n, kernel))
        gen = subprocess.run([sys.executable, TRACEGEN, kernel, "-o", out] + args,
                             capture_output=True, text=True)
        what = "%s %s on %d GPUs, page %d" % (kernel, " ".join(args), gpus, page)
        check(gen.returncode == 0, "%s: tracegen runs: %s" % (what, gen.stderr))
        if gen.returncode != 0:
            continue
        runs = [subprocess.run([PLAN, out, str(gpus), str(page)], capture_output=True,
                               text=True) for _ in range(2)]
        check(all(r.returncode == 0 for r in runs),
              "%s: ladm_plan runs: %s" % (what, runs[0].stderr.strip()))
        check(runs[0].stdout == runs[1].stdout, "%s: same output twice" % what)
        kernels = []
        for line in runs[0].stdout.splitlines():
            k, a = KERNEL.match(line), ALLOC.match(line)
            if k:
                kernels.append((k.group(2), k.group(3), int(k.group(4)),
                                int(k.group(5)), [], []))
            elif a and kernels:
                kernels[-1][4].append((a.group(2), int(a.group(3))))
            elif REMOTE.match(line) and kernels:
                kernels[-1][5].extend(float(x) for x in REMOTE.match(line).groups())
        check(len(kernels) == len(want), "%s: %d kernels, want %d"
              % (what, len(kernels), len(want)))
        for got, exp in zip(kernels, want):
            check(got[:4] == exp[:4], "%s: schedule %s, want %s" % (what, got[:4], exp[:4]))
            allocs = [g for g, e in zip(got[4], exp[4]) if e is not None]
            expect = [e for e in exp[4] if e is not None]
            check(len(got[4]) == len(exp[4]) and allocs == expect,
                  "%s: classes %s, want %s" % (what, got[4], exp[4]))
            check(len(got[5]) == 3, "%s: remote shares printed" % what)
            if exp[5] is not None and len(got[5]) == 3:
                check(abs(got[5][0] - exp[5][0]) < 1e-4
                      and abs(got[5][2] - exp[5][1]) < 1e-4,
                      "%s: remote LADM %s, interleave %s, want %s"
                      % (what, got[5][0], got[5][2], exp[5]))
finish()
