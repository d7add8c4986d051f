#!/usr/bin/env python3
"""The whole-trace scan's written-byte index (hw/core/trace_scan.h, through the helper
scan_expect) against the independent reference tools/ref/trace_expect.py: for every
128 B line a store or atomic touches, what a read of each byte in each kernel may
return. On the data check's hand-written trace (tests/unit/core/data/check), the
hand-written reader traces (tests/accelsim/traces: atomics across lines, generic
stores, STL), the public recording, and traces tools/tracegen writes at small sizes
(two kernels sharing data, 14 BFS launches rewriting the same arrays, atomics and
reductions, scattered stores).

usage: test_scan_expect.py SCAN_EXPECT SOURCE_ROOT
"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                                "tools"))
from tally import check, finish  # noqa: E402

TRACEGEN = [("prodcons", ["--n", "8192"]), ("bfs", ["--n", "1024"]),
            ("histogram", ["--n", "8192"]), ("reduction", ["--n", "8192"]),
            ("scatter", ["--n", "8192", "--parts", "4"]),
            ("stencil2d", ["--n", "64"]), ("vectoradd", ["--n", "4096"])]


def compare(helper, root, folder, label, tmp):
    ref = os.path.join(tmp, label + ".ref")
    with open(ref, "w") as f:
        subprocess.run([sys.executable, os.path.join(root, "tools", "ref",
                                                     "trace_expect.py"), folder],
                       stdout=f, check=True)
    out = subprocess.run([helper, folder, ref], capture_output=True, text=True)
    last = out.stdout.strip().splitlines()[-1:] or [out.stderr.strip()]
    check(out.returncode == 0 and " 0 wrong" in last[0],
          "%s: scan == reference: %s" % (label, out.stdout + out.stderr))
    return last[0]


def main():
    helper, root = os.path.abspath(sys.argv[1]), sys.argv[2]
    hand = os.path.join(root, "tests", "accelsim", "traces")
    folders = [(os.path.join(root, "tests", "unit", "core", "data", "check"), "check"),
               (os.path.join(root, "traces", "public", "vectoradd"), "vectoradd")]
    folders += [(os.path.join(hand, n), n) for n in sorted(os.listdir(hand))]
    with tempfile.TemporaryDirectory() as tmp:
        for kernel, args in TRACEGEN:
            out = os.path.join(tmp, "tracegen-" + kernel)
            subprocess.run([sys.executable, os.path.join(root, "tools", "tracegen"),
                            kernel, "-o", out] + args, check=True, capture_output=True)
            folders.append((out, "tracegen-" + kernel))
        for folder, label in folders:
            print("%s: %s" % (label, compare(helper, root, folder, label, tmp)))
    finish()


if __name__ == "__main__":
    main()
