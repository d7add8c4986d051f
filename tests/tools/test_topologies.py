"""Every topology generator carries real traffic (docs/topologies.md): each of switch,
ring, fully_connected, mesh, torus and chiplet (packages joined by a switch, and by a
ring) joins the baseline GPUs of platforms/gpu16-baseline.json, and each platform
runs a short cu workload of reads and writes whose written lines are read back and
checked (cu verify; every read's data is checked against the hash fill or the
written bytes) and a tracegen kernel (transpose, 64 CTAs sharing pages across GPUs;
the SMs check every loaded value), both with no model error: every request
answered, none misrouted, no data error. The same at 64 GPUs, where the
generators' largest tables are (and the mesh, torus and chiplet ring the longest
paths). The shipped topology platforms
(gpu16-mesh, gpu16-torus, gpu64-baseline, the ladm-chiplet family) run both too.
Traffic must cross the fabric: its generated switches forward transactions in both
runs. Deadlock: the ring, the torus and the chiplet ring of 64 GPUs with 1 TB/s
links and 8-slot buffers answer every request (routed the shorter way round, the ring
left 1,024 CUs waiting; docs/topologies.md, "Deadlock").
usage: test_topologies.py ROOT MGTLM"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tally import check, finish  # noqa: E402

ROOT, MGTLM = sys.argv[1], os.path.abspath(sys.argv[2])
BASE = os.path.join(os.path.abspath(ROOT), "platforms", "gpu16-baseline.json")
LINK = {"params": {"bandwidth": "64GB/s", "latency": "20ns", "buffer": 64}}
FABRICS = {
    "switch": {"topology": "switch"},
    "ring": {"topology": "ring", "link": LINK},
    "fully_connected": {"topology": "fully_connected", "link": LINK},
    "mesh": {"topology": "mesh", "link": LINK},
    "torus": {"topology": "torus", "link": LINK},
    "chiplet": {"topology": "chiplet", "params": {"chiplets": 4}, "link": LINK,
                "chiplet_link": {"params": {"bandwidth": "180GB/s", "latency": "10ns"}}},
    "chiplet-ring": {"topology": "chiplet", "params": {"chiplets": 4, "inter": "ring"},
                     "link": LINK},
}
SHIPPED = ["gpu16-mesh", "gpu16-torus", "gpu64-baseline", "ladm-chiplet-base",
           "ladm-chiplet", "ladm-chiplet-ring"]
CU_SETS = ["gpu*.cu[*].verify=true", "gpu*.cu[*].count=100",
           "gpu*.cu[*].write_frac=0.25"]


def run(tmp, name, platform, *extra):
    """Runs platform with extra arguments; the stats document, or None."""
    stats = os.path.join(tmp, name + ".json")
    r = subprocess.run([MGTLM, "run", platform, "--quiet", "--stats", stats]
                       + list(extra), capture_output=True, text=True, cwd=ROOT)
    check(r.returncode == 0, "%s: exit %d: %s" % (name, r.returncode, r.stderr[-500:]))
    if r.returncode != 0:
        return None
    with open(stats) as f:
        return json.load(f)


def clean(name, doc):
    """No model error, and the fabric's switches forwarded transactions."""
    if doc is None:
        return
    stats = doc["stats"]
    check(doc["run"]["model_errors"] == 0, name + ": model errors")
    check(doc["run"]["stop"] == "idle", name + ": ran until idle")
    errors = [k for k in doc["errors"] if stats.get(k)]
    check(not errors, "%s: %s" % (name, ", ".join(errors[:5])))
    moved = sum(v for k, v in stats.items() if k.startswith("fabric.")
                and k.endswith("]_out"))
    check(moved > 0, name + ": transactions crossed the fabric")


def cu_run(tmp, name, platform, *extra):
    sets = []
    for s in CU_SETS + list(extra):
        sets += ["--set", s]
    doc = run(tmp, name + "-cu", platform, *sets)
    clean(name + " cu", doc)
    if doc:
        st = doc["stats"]
        reads = sum(v for k, v in st.items() if ".cu[" in k and k.endswith(".reads"))
        writes = sum(v for k, v in st.items() if ".cu[" in k and k.endswith(".writes"))
        verified = sum(v for k, v in st.items() if k.endswith(".verify_reads"))
        check(reads > 0 and writes > 0 and verified > 0,
              "%s cu: %d reads, %d writes, %d read back"
              % (name, reads, writes, verified))


def trace_run(tmp, name, platform, trace, *extra):
    sets = []
    for s in extra:
        sets += ["--set", s]
    doc = run(tmp, name + "-trace", platform, "--trace", trace, *sets)
    clean(name + " trace", doc)
    if doc:
        st = doc["stats"]
        check(st["host.kernels"] == 1 and st["host.kernels_done"] == 1,
              name + " trace: the kernel ended")
        check(st["host.ctas"] == 64 and st["host.ctas_done"] == 64,
              name + " trace: its 64 CTAs ran")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        trace = os.path.join(tmp, "transpose")
        r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "tracegen"),
                            "-o", trace, "transpose", "--n", "256"],
                           capture_output=True, text=True)
        check(r.returncode == 0, "tracegen: " + r.stderr)
        for name, fabric in FABRICS.items():
            path = os.path.join(tmp, name + ".json")
            with open(path, "w") as f:
                json.dump({"extends": BASE, "name": name, "fabric": fabric}, f)
            cu_run(tmp, name, path)
            trace_run(tmp, name, path, trace)
            cu_run(tmp, name + "-64", path, "gpus=64")
            trace_run(tmp, name + "-64", path, trace, "gpus=64")
        for name in ("ring", "torus", "chiplet-ring"):
            doc = run(tmp, name + "-stress", os.path.join(tmp, name + ".json"),
                      "--set", "gpus=64", "--set", "cus=16",
                      "--set", "gpu*.cu[*].count=100", "--set", "gpu*.link.buffer=8",
                      "--set", "gpu*.link.bandwidth=1TB/s", "--set", "fabric.*.buffer=8",
                      "--set", "fabric.link[*].bandwidth=1TB/s")
            clean(name + " stress", doc)
        for name in SHIPPED:
            path = os.path.join("platforms", name + ".json")
            cu_run(tmp, name, path)
            trace_run(tmp, name, path, trace)
    finish()


main()
