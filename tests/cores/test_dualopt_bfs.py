#!/usr/bin/env python3
"""DualOpt's RDMA$ across kernel boundaries on BFS (issue 14 part 3; docs/blocks.md
"rdma_cache").

BFS (tools/tracegen bfs --n 1024: 14 kernels, bfs_kernel1 and bfs_kernel2 per
level) reads in each kernel bytes the previous kernel wrote on other GPUs. Each
GPU's SMs end a kernel with kernel_end (the RDMA$ writes back and invalidates) and a
flush read per GPU written; a flush read that misses the RDMA$ fills a line, and
another GPU may still be writing its own bytes of that line back. Unless the RDMA$
drops clean bytes at the next kernel_begin, a read of the next kernel hits the
stale line and the sm's data check counts it (before that rule: 8, 1 and 1 wrong
bytes in the runs below).

With REC's L2 above the RDMA$ (remote path xbar -> l2 -> rdma_cache -> rdma) a
write-back is acknowledged by its home's directory only once the sharers' inv_acks
are in; an RDMA$ waiting at kernel_end for its write-back acks held the invalidates
and inv_acks behind it, and GPUs waited on each other (on bfs --n 4096, 12 of 18
kernels unfinished in mode cache, 10 in auto).

Runs, each with the sm's data check on: gpu4-dualopt with the decision forced to
cache, gpu8-dualopt and gpu16-dualopt with their defaults (the engine declares
cache on BFS), on bfs --n 1024; REC + DualOpt (gpu4-baseline with the overlays
mech/rec.json and mech/dualopt.json) in modes cache and auto on bfs --n 4096. Each
must exit 0 with no model error, zero data errors, every kernel
and CTA ended, and the RDMA$ filling lines (the cache at work; at this size it
answers no read: its only hits before the rule, 6, 3 and 3, were on lines filled
before the kernel began).

usage: test_dualopt_bfs.py MGTLM SOURCE_ROOT
"""
import json
import os
import subprocess
import sys
import tempfile

from coreruns import FAILS, check, model_errors, run, total

RUNS = [
    ("gpu4-dualopt", "bfs1024", ["--set", "gpu*.decision.mode=cache"]),
    ("gpu8-dualopt", "bfs1024", []),
    ("gpu16-dualopt", "bfs1024", []),
    ("rec-dualopt", "bfs4096", ["--set", "gpu*.decision.mode=cache"]),
    ("rec-dualopt", "bfs4096", []),
]


def rec_dualopt(root, tmp):
    """Writes the REC + DualOpt platform into tmp; returns its path."""
    plats = os.path.join(os.path.abspath(root), "platforms")
    path = os.path.join(tmp, "rec-dualopt.json")
    with open(path, "w") as f:
        json.dump({"name": "rec-dualopt",
                   "extends": [os.path.join(plats, "gpu4-baseline.json"),
                               os.path.join(plats, "mech", "rec.json"),
                               os.path.join(plats, "mech", "dualopt.json")]}, f)
    return path


def main():
    mgtlm, root = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        for n in ("1024", "4096"):
            subprocess.run([os.path.join(root, "tools", "tracegen"), "bfs", "--n", n,
                            "-o", os.path.join(tmp, "bfs" + n)], check=True,
                           stdout=subprocess.DEVNULL)
        rec = rec_dualopt(root, tmp)
        for name, trace, extra in RUNS:
            what = "%s on %s %s" % (trace, name, " ".join(extra))
            folder = os.path.join(tmp, trace)
            kernels = len([f for f in os.listdir(folder) if f.endswith(".traceg")])
            plat = rec if name == "rec-dualopt" else os.path.join(root, "platforms",
                                                                 name + ".json")
            doc, why = run(mgtlm, plat, folder, os.path.join(tmp, "s.json"), *extra)
            check(doc is not None, what + ": " + why)
            if doc is None:
                continue
            s = doc["stats"]
            check(not model_errors(doc), "%s: model errors %s" % (what,
                                                                   model_errors(doc)))
            errors = total(s, ".sm[", "data_errors")
            check(errors == 0, "%s: %d data errors" % (what, errors))
            check(s["host.kernels_done"] == kernels,
                  "%s: %d of %d kernels" % (what, s["host.kernels_done"], kernels))
            check(s["host.ctas_done"] == s["host.ctas"],
                  "%s: %d of %d CTAs" % (what, s["host.ctas_done"], s["host.ctas"]))
            fills = total(s, ".rcache", "fills")
            check(fills > 0, what + ": no RDMA$ fill")
            print("%s: %d kernels, %d RDMA$ fills, %d data errors" % (
                what, s["host.kernels_done"], fills, errors))
    print("%d failed checks" % len(FAILS))
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
