#!/usr/bin/env python3
"""Trace-driven runs end to end (issue 14; docs/cores.md).

1. The public recording traces/public/vectoradd on gpu4-baseline: the warp
   instructions the host counts and the line requests the SMs send equal what the
   independent tools/ref/accelsim_count.py computes from the files (and the
   recording's own stats.csv), and with no cache on the path every request reaches a
   memory exactly once (memory reads + writes = line requests).
2. Every shipped platform runs two tracegen traces (a producer/consumer pair of
   kernels sharing data, and SpMV): exit 0, no model error (the sm's data check
   included), every kernel and CTA ended, warp instructions as the reference counts.
3. DualOpt with its decision forced to each mode (the RDMA$ in cache mode holds
   dirty remote lines until kernel_end) runs the producer/consumer pair with no
   model error.
4. A remote write read back by its home in the next kernel (traces/remote-write):
   no stale byte where a cache on the writer's path could answer its flush read
   (DualOpt's RDMA$ and BGU-fed L1, CARVE's RDC; the flush read is `uncached`).
   Stores and loads of 256 B per lane (traces/wide-access) run with no model error
   and make the line requests the reference counts.
5. The check can fail: SMs told to expect zero-filled memory (the memories hold the
   hash fill) count data errors, and the run fails.
6. The same run twice gives byte-identical stats apart from the `host` object.
7. The dispatchers' spool: with it (the default: every CTA comes from it), with the
   sms' `spool` false (no CTA comes from it, the text is parsed again) and with
   TMPDIR naming no folder (passed over for /var/tmp or /tmp), runs give
   byte-identical stats
   apart from the `host` object (where the count of CTAs from the spool is, since
   the host decides it) and the --set values they were given, on both tracegen
   traces and a gzip-compressed copy of SpMV,
   with contiguous, round-robin (which passes over other GPUs' records) and LADM
   CTAs; a spool stopped part way by a file size limit gives some CTAs from the
   spool and the rest from the text, with the same stats; the CSV has the count
   among its host rows; sms that disagree on `spool` fail to load (exit 2).

usage: test_trace_runs.py MGTLM SOURCE_ROOT
"""
import csv
import glob
import gzip
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile

from coreruns import FAILS, check, model_errors, run, total




def ref_counts(root, folder):
    out = subprocess.run([sys.executable, os.path.join(root, "tools", "ref",
                                                       "accelsim_count.py"), folder],
                         check=True, stdout=subprocess.PIPE, text=True).stdout
    ks = json.loads(out)["kernels"]
    return {
        "kernels": len(ks),
        "ctas": sum(k["ctas"] for k in ks),
        "warp_insts": sum(k["warp_instructions"] for k in ks),
        "line_reqs": sum(k["global_line_requests"] + k["local_line_requests"]
                         for k in ks),
    }




def public(mgtlm, root, tmp):
    folder = os.path.join(root, "traces", "public", "vectoradd")
    ref = ref_counts(root, folder)
    with open(os.path.join(folder, "stats.csv")) as f:
        rows = [r for r in csv.reader(f) if r and r[0].strip().startswith("kernel-")]
    recorded = sum(int(r[-2]) for r in rows)
    check(ref["warp_insts"] == recorded,
          "reference %d warp instructions, stats.csv %d" % (ref["warp_insts"], recorded))
    doc, why = run(mgtlm, os.path.join(root, "platforms", "gpu4-baseline.json"), folder,
                   os.path.join(tmp, "pub.json"))
    check(doc is not None, "public recording on gpu4-baseline: " + why)
    if doc is None:
        return
    s = doc["stats"]
    check(s["host.warp_insts"] == ref["warp_insts"],
          "public: host.warp_insts %d, reference %d" % (s["host.warp_insts"],
                                                        ref["warp_insts"]))
    sm_reqs = total(s, ".sm[", "line_reqs")
    check(sm_reqs == ref["line_reqs"],
          "public: sm line_reqs %d, reference %d" % (sm_reqs, ref["line_reqs"]))
    mem = total(s, ".mem.", "reads") + total(s, ".mem.", "writes")
    check(mem == ref["line_reqs"],
          "public: memory reads + writes %d, reference %d" % (mem, ref["line_reqs"]))
    print("public vectoradd: %d warp instructions, %d line requests, %.3f us" % (
        s["host.warp_insts"], sm_reqs, s["host.exec_ps"] / 1e6))


def platforms(mgtlm, root, tmp):
    traces = {}
    for name, args in (("prodcons", ["--n", "8192"]), ("spmv", ["--n", "2048"])):
        folder = os.path.join(tmp, name)
        subprocess.run([os.path.join(root, "tools", "tracegen"), name, "-o", folder]
                       + args, check=True, stdout=subprocess.DEVNULL)
        traces[name] = (folder, ref_counts(root, folder))
    for plat in sorted(glob.glob(os.path.join(root, "platforms", "*.json"))):
        for name, (folder, ref) in traces.items():
            what = "%s on %s" % (name, os.path.basename(plat))
            doc, why = run(mgtlm, plat, folder, os.path.join(tmp, "p.json"))
            check(doc is not None, what + ": " + why)
            if doc is None:
                continue
            s = doc["stats"]
            bad = model_errors(doc)
            check(not bad, "%s: model errors %s" % (what, bad))
            check(s["host.kernels_done"] == ref["kernels"],
                  "%s: %d of %d kernels" % (what, s["host.kernels_done"], ref["kernels"]))
            check(s["host.ctas_done"] == ref["ctas"],
                  "%s: %d of %d CTAs" % (what, s["host.ctas_done"], ref["ctas"]))
            check(s["host.warp_insts"] == ref["warp_insts"],
                  "%s: %d warp instructions, reference %d" % (
                      what, s["host.warp_insts"], ref["warp_insts"]))
            check(s["host.exec_ps"] > 0, what + ": no execution time")
    return traces


def dualopt_modes(mgtlm, root, tmp, traces):
    for mode in ("none", "coalesce", "cache"):
        what = "prodcons on gpu4-dualopt, mode " + mode
        doc, why = run(mgtlm, os.path.join(root, "platforms", "gpu4-dualopt.json"),
                       traces["prodcons"][0], os.path.join(tmp, "m.json"), "--set",
                       "gpu*.decision.mode=" + mode)
        check(doc is not None, what + ": " + why)
        if doc is not None:
            bad = model_errors(doc)
            check(not bad, "%s: model errors %s" % (what, bad))


def remote_write(mgtlm, root, tmp):
    folder = os.path.join(root, "tests", "cores", "traces", "remote-write")
    # (platform, --set values, whether GPU 2's sm sends a flush read)
    cases = [("gpu4-all", [], True),
             ("gpu4-dualopt", ["gpu*.decision.mode=cache"], True),
             ("gpu4-dualopt", ["gpu*.sm[*].posted=true"], True),
             ("gpu4-carve", ["gpu*.sm[*].posted=true"], True),
             ("gpu4-baseline", [], False)]
    for plat, sets, flush in cases:
        what = "remote-write on %s %s" % (plat, " ".join(sets))
        extra = [a for kv in sets for a in ("--set", kv)]
        doc, why = run(mgtlm, os.path.join(root, "platforms", plat + ".json"), folder,
                       os.path.join(tmp, "rw.json"), *extra)
        check(doc is not None, what + ": " + why)
        if doc is not None:
            check(doc["stats"]["host.kernels_done"] == 2, what + ": not 2 kernels")
            reads = total(doc["stats"], "gpu2.sm[", "flush_reads")
            check((reads > 0) == flush, "%s: %d flush reads" % (what, reads))


def wide_access(mgtlm, root, tmp):
    folder = os.path.join(root, "tests", "cores", "traces", "wide-access")
    ref = ref_counts(root, folder)
    check(ref["line_reqs"] == 22, "wide-access: reference %d line requests, README 22"
          % ref["line_reqs"])
    for plat in ("gpu4-baseline", "gpu4-dualopt", "gpu4-carve"):
        what = "wide-access on " + plat
        doc, why = run(mgtlm, os.path.join(root, "platforms", plat + ".json"), folder,
                       os.path.join(tmp, "wa.json"))
        check(doc is not None, what + ": " + why)
        if doc is not None:
            reqs = total(doc["stats"], ".sm[", "line_reqs")
            check(reqs == ref["line_reqs"], "%s: %d line requests, reference %d"
                  % (what, reqs, ref["line_reqs"]))


def wrong_fill(mgtlm, root, tmp, traces):
    doc, why = run(mgtlm, os.path.join(root, "platforms", "gpu4-baseline.json"),
                   traces["spmv"][0], os.path.join(tmp, "w.json"), "--set",
                   "gpu*.sm[*].fill=zero", want=1)
    check(doc is not None, "wrong fill: " + why)
    if doc is not None:
        errors = total(doc["stats"], ".sm[", "data_errors")
        check(errors > 0, "wrong fill: no data error")
        print("wrong fill: %d data errors" % errors)


def determinism(mgtlm, root, tmp, traces):
    folder = traces["spmv"][0]
    plat = os.path.join(root, "platforms", "gpu4-dualopt.json")
    docs = []
    for i in range(2):
        doc, why = run(mgtlm, plat, folder, os.path.join(tmp, "d%d.json" % i))
        check(doc is not None, "determinism: " + why)
        if doc is None:
            return
        doc.pop("host", None)
        docs.append(json.dumps(doc, sort_keys=True))
    check(docs[0] == docs[1], "determinism: two runs of spmv on gpu4-dualopt differ")


def spool(mgtlm, root, tmp, traces):
    gz = os.path.join(tmp, "spmv-gz")
    os.makedirs(gz, exist_ok=True)
    src = traces["spmv"][0]
    for name in os.listdir(src):
        if name.endswith(".traceg"):
            with open(os.path.join(src, name), "rb") as f, \
                    gzip.open(os.path.join(gz, name + ".gz"), "wb") as out:
                out.write(f.read())
        elif os.path.isdir(os.path.join(src, name)):
            shutil.copytree(os.path.join(src, name), os.path.join(gz, name))
        else:
            shutil.copy(os.path.join(src, name), gz)
    folders = [traces["prodcons"][0], traces["spmv"][0], gz]
    no_tmp = dict(os.environ, TMPDIR=os.path.join(tmp, "no-such-folder"))
    for plat in ("gpu4-baseline", "gpu16-baseline", "gpu4-carve"):
        for folder in folders:
            for policy in ("contiguous", "round_robin", "ladm"):
                what = "spool: %s on %s, %s" % (os.path.basename(folder), plat, policy)
                docs = []
                for label, extra, environ in (
                        ("spool", [], None),
                        ("text", ["--set", "gpu*.sm[*].spool=false"], None),
                        ("no tmp", [], no_tmp)):
                    stats = os.path.join(tmp, "s.json")
                    proc = subprocess.run(
                        [mgtlm, "run", os.path.join(root, "platforms", plat + ".json"),
                         "--quiet", "--trace", folder, "--stats", stats, "--set",
                         "gpu*.disp.cta_policy=" + policy] + extra,
                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                        env=environ)
                    check(proc.returncode == 0, "%s (%s): exit %d: %s" % (
                        what, label, proc.returncode, proc.stderr.strip()[:200]))
                    if proc.returncode != 0:
                        break
                    with open(stats) as f:
                        doc = json.load(f)
                    # ctas_spooled is the host's: in the host object, not in stats
                    spooled = total(doc["host"].get("stats", {}), ".disp", "ctas_spooled")
                    ctas = total(doc["stats"], ".disp", "ctas")
                    # a TMPDIR naming no folder is passed over for /var/tmp or /tmp
                    want = 0 if label == "text" else ctas
                    check(ctas > 0 and spooled == want, "%s (%s): %d of %d CTAs from the "
                          "spool, want %d" % (what, label, spooled, ctas, want))
                    check(not any(k.endswith(".ctas_spooled") for k in doc["stats"]),
                          "%s (%s): ctas_spooled among the stats" % (what, label))
                    doc.pop("host", None)
                    doc["run"].pop("sets", None)  # the --set values the runs were given
                    docs.append(json.dumps(doc, sort_keys=True))
                check(len(docs) == 3 and docs[0] == docs[1] == docs[2],
                      what + ": the stats differ with and without the spool")
    # a spool stopped part way: a file size limit (200 KiB) above the stats file (60
    # KB) and the producer's records, below both kernels' (262 KB): the producer's
    # CTAs from the spool, the consumer's from the text, the same stats
    plat = os.path.join(root, "platforms", "gpu4-baseline.json")
    docs = []
    for limit in (None, 200 * 1024):
        stats = os.path.join(tmp, "s.json")
        proc = subprocess.run(
            [mgtlm, "run", plat, "--quiet", "--trace", folders[0], "--stats", stats],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            preexec_fn=(lambda: resource.setrlimit(
                resource.RLIMIT_FSIZE, (limit, resource.RLIM_INFINITY)))
            if limit else None)
        check(proc.returncode == 0, "partial spool (limit %s): exit %d: %s" % (
            limit, proc.returncode, proc.stderr[:200]))
        if proc.returncode != 0:
            return
        with open(stats) as f:
            doc = json.load(f)
        spooled = total(doc["host"]["stats"], ".disp", "ctas_spooled")
        ctas = total(doc["stats"], ".disp", "ctas")
        check(0 < spooled < ctas if limit else spooled == ctas,
              "partial spool (limit %s): %d of %d CTAs from the spool" % (
                  limit, spooled, ctas))
        doc.pop("host", None)
        docs.append(json.dumps(doc, sort_keys=True))
    check(docs[0] == docs[1], "partial spool: the stats differ from the whole spool's")
    # one scan per run: an sm whose spool differs from the first sm's is a load error
    proc = subprocess.run(
        [mgtlm, "run", os.path.join(root, "platforms", "gpu4-baseline.json"), "--quiet",
         "--trace", folders[0], "--set", "gpu3.sm[*].spool=false"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    check(proc.returncode == 2 and "gpu3.sm[0]: spool is false" in proc.stderr,
          "spool on some sms only: exit %d: %s" % (proc.returncode, proc.stderr[:200]))
    # the CSV has the host's count among its host rows, not among the stats
    csv_path = os.path.join(tmp, "s.csv")
    proc = subprocess.run(
        [mgtlm, "run", os.path.join(root, "platforms", "gpu4-baseline.json"), "--quiet",
         "--trace", folders[0], "--stats-csv", csv_path],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    check(proc.returncode == 0, "spool csv: exit %d" % proc.returncode)
    if proc.returncode == 0:
        with open(csv_path) as f:
            rows = f.read().splitlines()
        check(any(r.startswith(",host,stats.gpu0.disp.ctas_spooled,")
                  and not r.endswith(",0,") for r in rows),
              "spool csv: no host row of gpu0's CTAs from the spool")
        check(not any(r.startswith("gpu0.disp,dispatch,ctas_spooled,") for r in rows),
              "spool csv: ctas_spooled among the stats rows")
        # the host's per-kernel stats are rows of the host instance (until stop 37:
        # instance "host.k0", no type)
        check(any(r.startswith("host,host,k0.cycles,") for r in rows) and
              not any(r.startswith("host.k0,") for r in rows),
              "csv: the host's per-kernel stats are not rows of instance host, type host")


def main():
    mgtlm, root = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        public(mgtlm, root, tmp)
        traces = platforms(mgtlm, root, tmp)
        dualopt_modes(mgtlm, root, tmp, traces)
        remote_write(mgtlm, root, tmp)
        wide_access(mgtlm, root, tmp)
        wrong_fill(mgtlm, root, tmp, traces)
        determinism(mgtlm, root, tmp, traces)
        spool(mgtlm, root, tmp, traces)
    print("%d failed checks" % len(FAILS))
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
