"""Mechanisms as overlays (docs/composition.md): `extends` lists of a base platform and
overlays from platforms/mech/, checked through `mgtlm validate --dump` and `mgtlm run`.

- Any base: every overlay of platforms/mech builds on gpu4-, gpu8- and
  gpu16-baseline (LADM after REC, whose L2 it sets).
- Order independence: overlays that touch different wires and blocks give
  byte-identical dumps in either order (LADM and FinePack on the directory baseline;
  DualOpt or FinePack with tests/tools/composition/scratch.json, which adds blocks and
  a wire of its own); two overlays splicing into the same wire do not (REC and
  FinePack both go on the remote path: the one listed later is nearer the RDMA engine).
- Splice: a BGU spliced into the CUs' wire (1ns) with latency 2ns gives cu - bgu at
  2ns and bgu - xbar at 1ns.
- The FinePack platform built from base + overlay dumps its link's PCIe 4.0 preset
  resolved (flit 4 B, encoding 128/130; docs/wire-model.md).
- REC with CARVE is refused at load: exit 2, one line naming both overlays.
- gpu4-all and gpu16-all pass the data check: a cu run whose cus read back every byte
  they wrote, and trace runs (the public vectoradd and tracegen's saxpy, scatter, bfs and
  reduction) with every kernel ended and no model error (data_errors, route errors,
  unfinished kernels all make `mgtlm run` exit 1).
usage: test_composition.py ROOT MGTLM"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tally import check, finish  # noqa: E402

ROOT, MGTLM = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
PLAT = os.path.join(ROOT, "platforms")
HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "composition")


def run(args, cwd=PLAT):
    return subprocess.run([MGTLM] + args, capture_output=True, text=True, cwd=cwd)


def platform(tmp, name, extends, extra=None):
    doc = {"extends": extends, "name": "composed"}
    doc.update(extra or {})
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        json.dump(doc, f)
    return path


def dump(path):
    r = run(["validate", path, "--dump"])
    check(r.returncode == 0, "%s: exit %d: %s" % (path, r.returncode, r.stderr.strip()))
    return r.stdout


def order(tmp, base, a, b, same):
    one = dump(platform(tmp, "ab.json", [base, a, b]))
    two = dump(platform(tmp, "ba.json", [base, b, a]))
    what = "%s + %s, %s" % (os.path.basename(a), os.path.basename(b),
                            "identical" if same else "different")
    check((one == two) == same and one != "", what + " dumps in both orders")
    return one, two


def wires(text):
    return {(w["a"], w["b"]): w["latency"] for w in json.loads(text)["wires"]} \
        if text else {}


def order_checks(tmp):
    mech = os.path.join(PLAT, "mech")
    base = os.path.join(PLAT, "gpu4-baseline.json")
    scratch = os.path.join(HERE, "scratch.json")
    order(tmp, os.path.join(PLAT, "gpu4-dir-baseline.json"),
          os.path.join(mech, "ladm.json"), os.path.join(mech, "finepack.json"), True)
    one, _ = order(tmp, base, os.path.join(mech, "dualopt.json"), scratch, True)
    w = wires(one)
    check(w.get(("gpu1.gen.mem", "gpu1.scratch.in")) == "3ns", "scratch wire added")
    order(tmp, base, os.path.join(mech, "finepack.json"), scratch, True)
    rec_fp, fp_rec = order(tmp, base, os.path.join(mech, "rec.json"),
                           os.path.join(mech, "finepack.json"), False)
    check(("gpu0.depacketizer.down", "gpu0.rdma.gpu") in wires(rec_fp),
          "rec then finepack: the de-packetizer feeds the RDMA engine")
    check(("gpu0.l2.net", "gpu0.rdma.gpu") in wires(fp_rec),
          "finepack then rec: the L2 feeds the RDMA engine")


def any_base_checks(tmp):
    mech = os.path.join(PLAT, "mech")
    for gpus in [4, 8, 16]:
        base = os.path.join(PLAT, "gpu%d-baseline.json" % gpus)
        for name in sorted(os.listdir(mech)):
            over = [os.path.join(mech, "rec.json")] if name == "ladm.json" else []
            path = platform(tmp, "any.json", [base] + over + [os.path.join(mech, name)])
            r = run(["validate", path])
            check(r.returncode == 0, "gpu%d-baseline + %s: exit %d: %s"
                  % (gpus, name, r.returncode, r.stderr.strip()))


def splice_checks(tmp):
    w = wires(dump(platform(tmp, "bgu.json", [os.path.join(PLAT, "gpu4-baseline.json"),
                                              os.path.join(HERE, "bgu_splice.json")])))
    for k in range(4):
        check(w.get(("gpu2.cu[%d].mem" % k, "gpu2.bgu[%d].cu" % k)) == "2ns",
              "cu[%d] - bgu: the splice's latency" % k)
        check(w.get(("gpu2.bgu[%d].l1" % k, "gpu2.xbar.cu[%d]" % k)) == "1ns",
              "bgu[%d] - xbar: the wire's own latency" % k)
    check(not any(a.endswith(".mem") and b.startswith("gpu2.xbar.cu")
                  for a, b in w if a.startswith("gpu2.cu[")), "no cu left on the xbar")


def preset_checks():
    flat = json.loads(dump(os.path.join(PLAT, "gpu4-finepack.json")))
    link = [i for i in flat["instances"] if i["name"] == "gpu3.link"][0]["params"]
    check(link["protocol"] == "pcie4" and link["flit"] == "4B" and
          link["enc_data"] == 128 and link["enc_total"] == 130,
          "gpu4-finepack: the pcie4 preset resolved in the dump: %r" % link)


def exclude_checks(tmp):
    mech = os.path.join(PLAT, "mech")
    path = platform(tmp, "rc.json", [os.path.join(PLAT, "gpu4-baseline.json"),
                                     os.path.join(mech, "rec.json"),
                                     os.path.join(mech, "carve.json")])
    r = run(["validate", path])
    lines = r.stderr.strip().split("\n")
    check(r.returncode == 2 and len(lines) == 1, "rec + carve refused: exit %d, %d lines"
          % (r.returncode, len(lines)))
    check("rec.json" in lines[0] and "carve.json" in lines[0] and
          "cannot be combined" in lines[0], "the message names both: " + lines[0])


def run_checks(tmp):
    stats = os.path.join(tmp, "cu.json")
    r = run(["run", "gpu4-all.json", "--quiet", "--stats", stats])
    check(r.returncode == 0, "gpu4-all cu run: exit %d: %s" % (r.returncode, r.stderr))
    if r.returncode == 0:
        with open(stats) as f:
            st = json.load(f)["stats"]
        reads = sum(st["gpu%d.cu[%d].verify_reads" % (g, k)]
                    for g in range(4) for k in range(4))
        check(reads > 0, "gpu4-all: the cus read back what they wrote (%d reads)" % reads)
    traces = [os.path.join(ROOT, "traces", "public", "vectoradd")]
    for kernel in ["saxpy", "scatter", "reduction", "bfs"]:
        out = os.path.join(tmp, kernel)
        g = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "tracegen"),
                            kernel, "-o", out], capture_output=True, text=True)
        check(g.returncode == 0, "tracegen %s: %s" % (kernel, g.stderr.strip()))
        traces.append(out)
    for plat in ["gpu4-all.json", "gpu16-all.json"]:
        for trace in traces:
            stats = os.path.join(tmp, "trace.json")
            r = run(["run", plat, "--trace", trace, "--quiet", "--stats", stats])
            what = "%s --trace %s" % (plat, os.path.basename(trace))
            check(r.returncode == 0, "%s: exit %d: %s" % (what, r.returncode,
                                                          r.stderr.strip()))
            if r.returncode == 0:
                with open(stats) as f:
                    st = json.load(f)["stats"]
                errs = sum(v for k, v in st.items() if k.endswith(".data_errors"))
                check(any(k.endswith(".data_errors") for k in st) and errs == 0,
                      what + ": data errors %d" % errs)
                check(st["host.kernels_done"] == st["host.kernels"] > 0,
                      what + ": every kernel ended")


with tempfile.TemporaryDirectory() as tmp:
    any_base_checks(tmp)
    order_checks(tmp)
    splice_checks(tmp)
    preset_checks()
    exclude_checks(tmp)
    run_checks(tmp)
finish()
