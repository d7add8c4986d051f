#!/usr/bin/env python3
"""`mgtlm trace-info --json` (the whole-trace scan's counts, hw/core/trace_scan.h)
against the independent reference tools/ref/accelsim_count.py on the public recording
(traces/public/vectoradd), the hand-written traces of tests/accelsim/traces (tracer
versions 3, 4 and 5, lineinfo, the three address modes, generic LD/ST in every window,
MemcpyDtoH, an unknown opcode, the cluster lines of sm_90 blocks, kernel files named
with the tracer's context), the data check's unit-test trace (a 256 B access, a store
crossing a line) and traces tools/tracegen writes (stores, atomics and reductions,
shared memory, irregular gathers, several launches), the same folders gzip-compressed
and xz-compressed, the recording's instruction count against its own stats.csv, an
.xz of two streams and a .gz of two members read as one file (also with the second
member's magic bytes cut across the reader's 64 KiB reads), a kernelslist.g that names
the .xz file; a truncated .gz, a .gz with a damaged check, .gz files with junk, zero
bytes, one byte or a bare magic after the member, a truncated .xz, an .xz with bytes
after its stream and an .xz whose dictionary needs more than 256 MiB, each refused
with one line and exit status 2; and
a run of gpu4-baseline on v5-clusters, plain and xz-compressed, with the same
statistics.

usage: test_trace_info.py MGTLM SOURCE_ROOT
"""
import csv
import gzip
import json
import lzma
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

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
                    "local_line_requests", "cluster_blocks"):
            check(g[key] == w[key], "%s: %s %d == reference %d" % (name, key, g[key],
                                                                    w[key]))
        for cls in MEMORY:
            check(g["classes"][cls] == w["memory"][cls],
                  "%s: %s %d == reference %d" % (name, cls, g["classes"][cls],
                                                 w["memory"][cls]))
    return got


def compress_folder(src, dst, module, ext):
    """Copies src to dst with every file compressed by module (gzip or lzma, name +
    ext), folders (a tracegen input) left out."""
    os.makedirs(dst)
    for name in os.listdir(src):
        if os.path.isdir(os.path.join(src, name)):
            continue
        with open(os.path.join(src, name), "rb") as f:
            data = f.read()
        with module.open(os.path.join(dst, name + ext), "wb") as f:
            f.write(data)


def refused(mgtlm, folder, path, ending, what):
    """trace-info of folder exits 2 with one line naming path and ending so."""
    out = subprocess.run([mgtlm, "trace-info", folder], capture_output=True, text=True)
    lines = out.stderr.splitlines()
    check(out.returncode == 2 and len(lines) == 1 and lines[0].startswith(path + ":") and
          lines[0].endswith(ending),
          "%s: exit 2, one line naming the file: %r" % (what, out.stderr))


def run_stats(mgtlm, root, folder, tmp):
    """The statistics of gpu4-baseline running the trace in folder, host aside."""
    stats = os.path.join(tmp, "stats.json")
    subprocess.run([mgtlm, "run", os.path.join(root, "platforms", "gpu4-baseline.json"),
                    "--trace", folder, "--quiet", "--stats", stats], check=True,
                   capture_output=True)
    with open(stats) as f:
        doc = json.load(f)
    doc.pop("host", None)
    return doc["stats"]


def two_streams(data):
    """data as two xz streams, one after the other (cut mid-line), as `cat a.xz b.xz`
    makes."""
    return lzma.compress(data[:len(data) // 3]) + lzma.compress(data[len(data) // 3:])


def two_members(data):
    """data as two gzip members (cut mid-line), as `cat a.gz b.gz` makes; the first
    member's header carries a comment (FCOMMENT) of the length that makes the member
    end one byte before a multiple of 64 KiB, the size of the reader's reads, so that
    the second member's magic bytes lie across two reads."""
    first = gzip.compress(data[:len(data) // 3], mtime=0)
    body = first[10:]  # the 10-byte header, then deflate data and trailer
    size = 10 + 1 + len(body)  # with an empty comment (its NUL)
    pad = (65535 - size) % 65536
    header = first[:3] + bytes([first[3] | 0x10]) + first[4:10]
    member = header + b"c" * pad + b"\0" + body
    assert len(member) % 65536 == 65535
    return member + gzip.compress(data[len(data) // 3:], mtime=0)


def gz_damaged_check(data):
    """data with the gzip trailer's CRC32 flipped."""
    return data[:-8] + bytes([data[-8] ^ 0xff]) + data[-7:]


def huge_dictionary(data):
    """The xz file data with its first block's LZMA2 dictionary raised to 4 GiB
    (property byte 40) and the block header's CRC32 made anew: a file whose decoder
    would need more memory than the reader allows."""
    out = bytearray(data)
    size = (out[12] + 1) * 4  # the block header, after the 12-byte stream header
    header = out[12:12 + size]
    at = header.index(b"\x21\x01", 2)  # LZMA2's filter id, one property byte
    header[at + 2] = 40
    header[-4:] = struct.pack("<I", zlib.crc32(bytes(header[:-4])))
    out[12:12 + size] = header
    return bytes(out)


def damaged(tmp, src, name, label, cut):
    """A copy of folder tmp/src as tmp/label whose file name is rewritten by cut
    (its bytes to new bytes); returns (folder, path of the file)."""
    folder = os.path.join(tmp, label)
    shutil.copytree(os.path.join(tmp, src), folder)
    path = os.path.join(folder, name)
    with open(path, "rb") as f:
        data = f.read()
    with open(path, "wb") as f:
        f.write(cut(data))
    return folder, path


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
            for module, ext in ((gzip, ".gz"), (lzma, ".xz")):
                packed = os.path.join(tmp, label + ext)
                compress_folder(folder, packed, module, ext)
                got = compare(mgtlm, root, packed, label + ext)
                check(got == plain[label], "%s%s: the same document as plain"
                      % (label, ext))
        plain_run = run_stats(mgtlm, root, os.path.join(hand, "v5-clusters"), tmp)
        xz_run = run_stats(mgtlm, root, os.path.join(tmp, "v5-clusters.xz"), tmp)
        insts = plain["v5-clusters"][0]["warp_instructions"]
        check(plain_run.get("host.warp_insts") == insts and plain_run == xz_run,
              "v5-clusters: a run reads the .xz folder as the plain one")
        two, _ = damaged(tmp, "v4-lineinfo.xz", "kernel-1.traceg.xz", "two.xz",
                         lambda data: two_streams(lzma.decompress(data)))
        check(compare(mgtlm, root, two, "v4-lineinfo.xz in two streams") ==
              plain["v4-lineinfo"], "v4-lineinfo.xz in two streams: the same document")
        named = os.path.join(tmp, "named.xz")
        shutil.copytree(os.path.join(tmp, "v5-clusters.xz"), named)
        os.remove(os.path.join(named, "kernelslist.g.xz"))
        with open(os.path.join(hand, "v5-clusters", "kernelslist.g")) as f:
            listed = f.read().replace(".traceg\n", ".traceg.xz\n")
        with open(os.path.join(named, "kernelslist.g"), "w") as f:
            f.write(listed)
        got = trace_info(mgtlm, named)["kernels"]
        check([k["file"] for k in got] == ["kernel-1-ctx_0x7f3a2c001230.traceg.xz"] and
              [dict(k, file=None) for k in got] ==
              [dict(k, file=None) for k in plain["v5-clusters"]],
              "v5-clusters: a list naming the .xz file gives the same counts")
        two, _ = damaged(tmp, "v4-lineinfo.gz", "kernel-1.traceg.gz", "two.gz",
                         lambda data: two_members(gzip.decompress(data)))
        check(compare(mgtlm, root, two, "v4-lineinfo.gz in two members") ==
              plain["v4-lineinfo"], "v4-lineinfo.gz in two members: the same document")
        half = lambda data: data[:len(data) // 2]  # noqa: E731
        refusals = [
            ("gz", "cut", half, ": cannot read: truncated gzip stream", "truncated .gz"),
            ("gz", "crc", gz_damaged_check,
             ": cannot read: corrupt gzip data (incorrect data check)",
             ".gz with a damaged check")]
        after = ": cannot read: data after the end of the gzip stream"
        for label, tail in (("junk", b"these bytes are not a gzip member\n"),
                            ("zeros", b"\0" * 512), ("one", b"\x1f")):
            refusals.append(("gz", label, lambda data, tail=tail: data + tail, after,
                             ".gz with %s after its member" % label))
        refusals += [
            ("gz", "magic", lambda data: data + b"\x1f\x8b",
             ": cannot read: truncated gzip stream",
             ".gz with a bare magic after its member"),
            ("xz", "cut", half, ": cannot read: truncated xz stream", "truncated .xz"),
            ("xz", "junk", lambda data: data + b"these bytes are not an xz stream",
             ": cannot read: corrupt xz data", ".xz with bytes after its stream"),
            ("xz", "dict", huge_dictionary,
             ":1: cannot read: xz data that needs more than 256 MiB to decompress",
             ".xz whose dictionary is past the reader's memory bound")]
        for ext, label, cut, ending, what in refusals:
            bad, path = damaged(tmp, "v4-lineinfo." + ext, "kernel-1.traceg." + ext,
                                "%s.%s" % (label, ext), cut)
            refused(mgtlm, bad, path, ending, what)
    finally:
        shutil.rmtree(tmp)
        shutil.rmtree(gen)
    print("%d failed" % len(failures))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
