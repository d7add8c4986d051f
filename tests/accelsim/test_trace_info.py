#!/usr/bin/env python3
"""`mgtlm trace-info --json` (the whole-trace scan's counts, hw/core/trace_scan.h)
against the independent reference tools/ref/accelsim_count.py on the public recording
(traces/public/vectoradd), the hand-written traces of tests/accelsim/traces (tracer
versions 3 and 4, lineinfo, the three address modes, generic LD/ST in every window,
MemcpyDtoH, an unknown opcode), the data check's unit-test trace (a 256 B access,
a store crossing a line) and traces tools/tracegen writes (stores, atomics and
reductions, shared memory, irregular gathers, several launches), the same folders
gzip-compressed, the recording's instruction count against its own stats.csv, and a
truncated .gz refused with one line and exit status 2.

usage: test_trace_info.py MGTLM SOURCE_ROOT
"""
import csv
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile

MEMORY = ("ldg", "stg", "atomg", "red", "lds", "sts", "atoms", "ldl", "stl", "ldc")
failures = []


def check(cond, what):
    print(("PASS " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def trace_info(mgtlm, folder):
    out = subprocess.run([mgtlm, "trace-info", folder, "--json"], capture_output=True,
                         text=True)
    if out.returncode != 0:
        sys.exit("trace-info %s: exit %d: %s" % (folder, out.returncode, out.stderr))
    return json.loads(out.stdout)


def reference(root, folder):
    ref = os.path.join(root, "tools", "ref", "accelsim_count.py")
    out = subprocess.run([sys.executable, ref, folder], capture_output=True, text=True,
                         check=True)
    return json.loads(out.stdout)


def compare(mgtlm, root, folder, label):
    got = trace_info(mgtlm, folder)["kernels"]
    want = reference(root, folder)["kernels"]
    check(len(got) == len(want), "%s: %d kernels" % (label, len(want)))
    for g, w in zip(got, want):
        name = "%s %s" % (label, w["file"])
        for key in ("ctas", "warps", "warp_instructions", "thread_instructions",
                    "global_instructions", "local_instructions", "global_line_requests",
                    "local_line_requests"):
            check(g[key] == w[key], "%s: %s %d == reference %d" % (name, key, g[key],
                                                                    w[key]))
        for cls in MEMORY:
            check(g["classes"][cls] == w["memory"][cls],
                  "%s: %s %d == reference %d" % (name, cls, g["classes"][cls],
                                                 w["memory"][cls]))
    return got


def gzip_folder(src, dst):
    """Copies src to dst with every file gzip-compressed (name + .gz), folders (a
    tracegen input) left out."""
    os.makedirs(dst)
    for name in os.listdir(src):
        if os.path.isdir(os.path.join(src, name)):
            continue
        with open(os.path.join(src, name), "rb") as f:
            data = f.read()
        with gzip.open(os.path.join(dst, name + ".gz"), "wb") as f:
            f.write(data)


# tracegen kernels and arguments: small sizes, so that the test stays quick
TRACEGEN = [("gemm", ["--n", "64"]), ("histogram", ["--n", "8192"]),
            ("reduction", ["--n", "8192"]), ("spmv", ["--n", "1024"]),
            ("bfs", ["--n", "1024"]), ("scatter", ["--n", "8192", "--parts", "4"]),
            ("stencil2d", ["--n", "64"])]


def tracegen(root, tmp):
    """Writes the TRACEGEN traces under tmp; returns their (folder, label) pairs."""
    folders = []
    for kernel, args in TRACEGEN:
        out = os.path.join(tmp, "tracegen-" + kernel)
        subprocess.run([sys.executable, os.path.join(root, "tools", "tracegen"), kernel,
                        "-o", out] + args, check=True, capture_output=True)
        folders.append((out, "tracegen-" + kernel))
    return folders


def main():
    mgtlm, root = os.path.abspath(sys.argv[1]), sys.argv[2]
    public = os.path.join(root, "traces", "public", "vectoradd")
    hand = os.path.join(root, "tests", "accelsim", "traces")
    gen = tempfile.mkdtemp()
    folders = [(public, "vectoradd")] + [
        (os.path.join(hand, n), n) for n in sorted(os.listdir(hand))]
    folders.append((os.path.join(root, "tests", "unit", "core", "data", "check"),
                    "check"))
    folders += tracegen(root, gen)
    plain = {}
    for folder, label in folders:
        plain[label] = compare(mgtlm, root, folder, label)

    with open(os.path.join(public, "stats.csv")) as f:
        rows = list(csv.reader(f, skipinitialspace=True))
    col = rows[0].index("total_insts")
    want = int(rows[1][col])
    got = plain["vectoradd"][0]["warp_instructions"]
    check(got == want, "vectoradd: %d warp instructions == stats.csv total_insts %d"
          % (got, want))

    text = subprocess.run([mgtlm, "trace-info", public], capture_output=True, text=True)
    k = plain["vectoradd"][0]
    check(text.returncode == 0 and
          "  instructions: %d warp, %d thread\n" % (want, k["thread_instructions"])
          in text.stdout and
          "  global: %d instructions, %d line requests (128 B)\n"
          % (k["global_instructions"], k["global_line_requests"]) in text.stdout,
          "vectoradd: the text form has the JSON form's counts")

    tmp = tempfile.mkdtemp()
    try:
        for folder, label in folders:
            gz = os.path.join(tmp, label)
            gzip_folder(folder, gz)
            got = compare(mgtlm, root, gz, label + ".gz")
            check(got == plain[label], "%s.gz: the same document as plain" % label)
        bad = os.path.join(tmp, "truncated")
        shutil.copytree(os.path.join(tmp, "v4-lineinfo"), bad)
        path = os.path.join(bad, "kernel-1.traceg.gz")
        with open(path, "rb") as f:
            data = f.read()
        with open(path, "wb") as f:
            f.write(data[:len(data) // 2])
        out = subprocess.run([mgtlm, "trace-info", bad], capture_output=True, text=True)
        lines = out.stderr.splitlines()
        check(out.returncode == 2 and len(lines) == 1 and
              lines[0].startswith(path + ":") and
              lines[0].endswith(": cannot read: unexpected end of file"),
              "truncated .gz: exit 2, one line naming the file: %r" % out.stderr)
    finally:
        shutil.rmtree(tmp)
        shutil.rmtree(gen)
    print("%d failed" % len(failures))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
