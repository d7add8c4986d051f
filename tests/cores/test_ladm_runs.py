#!/usr/bin/env python3
"""LADM's policies end to end (docs/cores.md "LADM's policies"): the dispatchers'
cta_policy ladm and the host's placement ladm in full runs of tracegen kernels.

1. Remote shares on gpu4-baseline (no cache on the path, so every SM line request
   homed on another GPU crosses its RDMA engine once: the share is the RDMA engines'
   remote reads and writes over the SMs' line requests). Expected values are derived
   by hand from the kernels' index arithmetic (as tests/tools/test_ladm_plan.py does
   for lane accesses):
   - VecAdd (65536 floats, 256 threads: 256 CTAs, 1 KiB of each array per CTA):
     contiguous CTAs with interleaved 4 KiB pages put each GPU's 16 KiB of an array
     on 4 consecutive pages, homes 0..3: 3/4 remote. LADM's aligned batches of 4 CTAs
     (one page) place every page with its CTAs: 0 remote.
   - Tiled GEMM (n 128, tile 16: 8 x 8 CTAs): under LADM (row-bound, 2 rows of CTAs
     per GPU) A's and C's pages go with their rows and B's pages, each spanning every
     column, interleave: per CTA 8 tiles x 16 rows of A and as many of B (one 64 B
     line request per tile row) and 16 rows of C, so 8 x 16 x 3/4 / (17 x 16) = 6/17
     remote; contiguous with interleave 3/4.
   Both policies run the same warp instructions.
2. RONCE: CSR SpMV's col and val are read one element further per iteration
   (intra-thread locality), so its kernel is ITL and the host sends once_hint (1):
   gpu4-ladm's L2s (remote_insert auto, once_hint 1) then skip inserting remote lines
   (once_skips > 0); with the host's once_hint set to 0 (the plain hint) they insert
   as gpu4-dir-baseline does (once_skips 0).
3. Every shipped platform runs a small GEMM (n 64) and SpMV (n 2048: small, as this
   also runs under the sanitizers) with cta_policy ladm and placement ladm (the
   gpu*-ladm platforms as they are): exit 0, no model error, every kernel and CTA
   ended.
4. The same LADM run twice gives byte-identical stats apart from the `host` object.
5. Hints (a trace folder's ladm_hints file, hw/core/ladm_hints.h) replace the
   analysis's class:
   - the GEMM of 1. hinted `column` is column-bound (columns 2g, 2g + 1 on GPU g)
     and every structure is placed under that binding; a 4 KiB page of A, B or C
     holds 8 whole 512 B rows, which every column of CTAs uses alike, so all pages
     interleave. A CTA's A and C rows lie on two consecutive pages, whose homes are
     {0, 1} or {2, 3} as by is even or odd: GPU g has one of them local for half of
     the rows of CTAs, a quarter of its A and C requests; its B tiles run down all
     16 pages of B, a quarter local. So 3/4 remote, against 6/17 unhinted.
   - SpMV hinted `nl` is no longer ITL: the host sends the plain hint and gpu4-ladm's
     L2s insert remote lines twice (once_skips 0, against > 0 unhinted in 2.).

usage: test_ladm_runs.py MGTLM SOURCE_ROOT
"""
import glob
import json
from fractions import Fraction
import os
import shutil
import subprocess
import sys
import tempfile

from coreruns import FAILS, check, model_errors, run, total

LADM = ["--set", "gpu*.disp.cta_policy=ladm", "--set", "host.placement=ladm"]





def shares(mgtlm, root, tmp, traces):
    plat = os.path.join(root, "platforms", "gpu4-baseline.json")
    for name, ladm_share in (("vectoradd", Fraction(0)), ("gemm", Fraction(6, 17))):
        insts = []
        for extra, want in (([], Fraction(3, 4)), (LADM, ladm_share)):
            what = "%s on gpu4-baseline %s" % (name, "ladm" if extra else "default")
            doc, why = run(mgtlm, plat, traces[name], os.path.join(tmp, "s.json"),
                           *extra)
            check(doc is not None, what + ": " + why)
            if doc is None:
                continue
            s = doc["stats"]
            remote = total(s, ".rdma.", "remote_reads") + total(s, ".rdma.",
                                                                "remote_writes")
            reqs = total(s, ".sm[", "line_reqs")
            check(reqs > 0 and Fraction(remote, reqs) == want,
                  "%s: %d of %d line requests remote, want %s" % (what, remote, reqs,
                                                                 want))
            insts.append(s["host.warp_insts"])
            print("%s: %d of %d line requests remote" % (what, remote, reqs))
        check(len(insts) == 2 and insts[0] == insts[1],
              "%s: warp instructions %s" % (name, insts))


def ronce(mgtlm, root, tmp, traces):
    skips = {}
    for plat, extra in (("gpu4-ladm", []), ("gpu4-ladm", ["--set", "host.once_hint=0"]),
                        ("gpu4-dir-baseline", [])):
        key = plat + " ".join(extra)
        doc, why = run(mgtlm, os.path.join(root, "platforms", plat + ".json"),
                       traces["spmv"], os.path.join(tmp, "r.json"), *extra)
        check(doc is not None, "spmv on %s: %s" % (key, why))
        if doc is not None:
            skips[key] = total(doc["stats"], ".l2", "once_skips")
    print("once_skips: %s" % skips)
    check(skips.get("gpu4-ladm", 0) > 0, "gpu4-ladm: no once_skips on an ITL kernel")
    check(skips.get("gpu4-ladm--set host.once_hint=0") == 0,
          "gpu4-ladm with once_hint 0: once_skips %s" % skips)
    check(skips.get("gpu4-dir-baseline") == 0, "gpu4-dir-baseline: once_skips %s" % skips)


def platforms(mgtlm, root, tmp, traces):
    for plat in sorted(glob.glob(os.path.join(root, "platforms", "*.json"))):
        for name in ("gemm-small", "spmv-small"):
            what = "%s on %s with ladm" % (name, os.path.basename(plat))
            doc, why = run(mgtlm, plat, traces[name], os.path.join(tmp, "p.json"),
                           *LADM)
            check(doc is not None, what + ": " + why)
            if doc is None:
                continue
            s = doc["stats"]
            bad = model_errors(doc)
            check(not bad, "%s: model errors %s" % (what, bad))
            check(s["host.kernels_done"] == s["host.kernels"] and
                  s["host.ctas_done"] == s["host.ctas"] and s["host.ctas"] > 0,
                  "%s: %d of %d kernels, %d of %d CTAs" % (
                      what, s["host.kernels_done"], s["host.kernels"],
                      s["host.ctas_done"], s["host.ctas"]))


def determinism(mgtlm, root, tmp, traces):
    plat = os.path.join(root, "platforms", "gpu4-ladm.json")
    docs = []
    for i in range(2):
        doc, why = run(mgtlm, plat, traces["gemm"], os.path.join(tmp, "d%d.json" % i))
        check(doc is not None, "determinism: " + why)
        if doc is None:
            return
        doc.pop("host", None)
        docs.append(json.dumps(doc, sort_keys=True))
    check(docs[0] == docs[1], "determinism: two runs of gemm on gpu4-ladm differ")


def hinted(folder, tmp, label, hint):
    """A copy of trace folder with the ladm_hints line `kernel-1.traceg hint`."""
    out = os.path.join(tmp, label)
    shutil.copytree(folder, out)
    with open(os.path.join(out, "ladm_hints"), "w") as f:
        f.write("# test_ladm_runs.py\nkernel-1.traceg %s\n" % hint)
    return out


def hints(mgtlm, root, tmp, traces):
    gemm = hinted(traces["gemm"], tmp, "gemm-column", "column")
    doc, why = run(mgtlm, os.path.join(root, "platforms", "gpu4-baseline.json"), gemm,
                   os.path.join(tmp, "h.json"), *LADM)
    check(doc is not None, "gemm hinted column: " + why)
    if doc is not None:
        s = doc["stats"]
        remote = total(s, ".rdma.", "remote_reads") + total(s, ".rdma.", "remote_writes")
        reqs = total(s, ".sm[", "line_reqs")
        print("gemm hinted column: %d of %d line requests remote" % (remote, reqs))
        check(reqs > 0 and Fraction(remote, reqs) == Fraction(3, 4),
              "gemm hinted column: %d of %d line requests remote, want 3/4"
              % (remote, reqs))
    spmv = hinted(traces["spmv"], tmp, "spmv-nl", "nl")
    doc, why = run(mgtlm, os.path.join(root, "platforms", "gpu4-ladm.json"), spmv,
                   os.path.join(tmp, "h.json"))
    check(doc is not None, "spmv hinted nl: " + why)
    if doc is not None:
        skips = total(doc["stats"], ".l2", "once_skips")
        print("spmv hinted nl: once_skips %d" % skips)
        check(skips == 0, "spmv hinted nl on gpu4-ladm: once_skips %d" % skips)


def main():
    mgtlm, root = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        traces = {}
        for label, name, args in (
                ("vectoradd", "vectoradd", ["--n", "65536", "--block", "256"]),
                ("gemm", "gemm", ["--n", "128", "--tile", "16"]),
                ("spmv", "spmv", ["--n", "8192", "--block", "128", "--degree", "16"]),
                ("gemm-small", "gemm", ["--n", "64", "--tile", "16"]),
                ("spmv-small", "spmv", ["--n", "2048", "--block", "128"])):
            folder = os.path.join(tmp, label)
            subprocess.run([os.path.join(root, "tools", "tracegen"), name, "-o", folder]
                           + args, check=True, stdout=subprocess.DEVNULL)
            traces[label] = folder
        shares(mgtlm, root, tmp, traces)
        ronce(mgtlm, root, tmp, traces)
        platforms(mgtlm, root, tmp, traces)
        determinism(mgtlm, root, tmp, traces)
        hints(mgtlm, root, tmp, traces)
    print("%d failed checks" % len(FAILS))
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
