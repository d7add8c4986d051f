"""Cross-check of two independent implementations of SPEC.md 6.1 and 6.3: for every
kernel tools/tracegen writes (default sizes, plus a small vector add and a scatter with
list-mode lines), the counts it prints (CTAs, warp instructions, global instructions,
128 B line requests per launch) must equal what `mgtlm trace-info --json` reads back
from the files, and the reader must accept every line. tracegen shares no code with
the C reader (hw/core/accelsim_*.c)."""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tally import check, finish  # noqa: E402

ROOT, MGTLM = sys.argv[1], sys.argv[2]
TRACEGEN = os.path.join(ROOT, "tools", "tracegen")
CASES = [(k, []) for k in ("vectoradd", "saxpy", "gemm", "stencil2d", "transpose",
                           "reduction", "histogram", "spmv", "bfs", "scatter",
                           "prodcons")]
CASES += [("vectoradd", ["--n", "40", "--block", "32"]),
          ("scatter", ["--n", "70000", "--block", "64", "--parts", "4"])]
LINE = re.compile(r"^(kernel-\d+\.traceg) (\S+): (\d+) CTAs, (\d+) warp instructions, "
                  r"(\d+) global, (\d+) line requests$")
GLOBAL = ("ldg", "stg", "atomg", "red")

with tempfile.TemporaryDirectory() as tmp:
    for n, (kernel, args) in enumerate(CASES):
        out = os.path.join(tmp, "%d-%s" % (n, kernel))
        gen = subprocess.run([sys.executable, TRACEGEN, kernel, "-o", out] + args,
                             capture_output=True, text=True)
        what = "%s %s" % (kernel, " ".join(args))
        check(gen.returncode == 0, "%s: tracegen runs: %s" % (what, gen.stderr))
        if gen.returncode != 0:
            continue
        want = [LINE.match(ln).groups() for ln in gen.stdout.splitlines()
                if LINE.match(ln)]
        info = subprocess.run([MGTLM, "trace-info", out, "--json"], capture_output=True,
                              text=True)
        check(info.returncode == 0, "%s: trace-info reads it: %s"
              % (what, info.stderr.strip()))
        if info.returncode != 0:
            continue
        got = [(k["file"], k["name"], str(k["ctas"]), str(k["warp_instructions"]),
                str(sum(k["classes"][c] for c in GLOBAL)),
                str(k["global_line_requests"]))
               for k in json.loads(info.stdout)["kernels"]]
        check(want and got == want, "%s: %d launches, tracegen %s == trace-info %s"
              % (what, len(want), want[:2], got[:2]))
finish()
