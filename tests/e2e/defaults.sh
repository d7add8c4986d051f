#!/bin/sh
# Every shipped platform's default workload (no --set, no --workload) exercises the
# mechanism the platform is there for, on every GPU where the mechanism is per GPU:
# - *-dualopt: each decision engine declares a mode (once) and the declared mode's
#   hardware works: CoDec sends coalesced packets, or the RDMA$ hits;
# - *-finepack: each packetizer sends packets holding more than one store;
# - *-dir-baseline, *-hmg, *-rec: the directories invalidate and the L2s hit remote
#   lines;
# - *-ladm: as *-dir-baseline, and the L2s insert every remote line (the cus' hint 0
#   is not the once hint); LADM's policies need a trace (tests/cores/test_ladm_runs.py);
# - *-carve: the RDCs hit, the IMSTs send invalidates, the epoch counters see kernels;
# - *-all (docs/composition.md): DualOpt's engines each declare once, the packetizers
#   send packets of more than one store, the directories invalidate and the L2s hit
#   remote lines (the cus' read-back, verify, fails the run on a wrong byte);
# - *-baseline: the run succeeds and holds none of those blocks.
# The topology platforms are checked as the family of the GPUs they join: gpu16-mesh
# and gpu16-torus as baselines, ladm-chiplet-base as a directory baseline, the other
# ladm-chiplet ones as *-ladm (docs/topologies.md). A platform of no known family
# fails (add its check here). Every run must exit 0.
# usage: defaults.sh MGTLM PYTHON3   (working directory: the source root)
mgtlm=$1
python3=$2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
status=0
for platform in platforms/*.json; do
    name=$(basename "$platform" .json)
    if ! "$mgtlm" run "$platform" --quiet --stats "$tmp/$name.json"; then
        echo "FAIL $name: mgtlm run exited with an error"
        status=1
        continue
    fi
    "$python3" - "$name" "$tmp/$name.json" <<'PY' || status=1
import json, re, sys
name, path = sys.argv[1:3]
stats = json.load(open(path))["stats"]
# topology platforms: the family of the GPUs they join (docs/topologies.md)
TOPOLOGY = {"mesh": "baseline", "torus": "baseline",
            "ladm-chiplet-base": "dir-baseline", "ladm-chiplet": "ladm",
            "ladm-chiplet-ring": "ladm"}
m = re.match(r"gpu(\d+)-(.+)$", name)
family = TOPOLOGY.get(m.group(2) if m else name, m.group(2) if m else name)
gpus = len({k.split(".")[0] for k in stats if re.match(r"gpu\d+\.", k)})

def per_gpu(stat):
    """Sum of instance stat over each GPU: {gpu: value}."""
    out = {}
    for key, v in stats.items():
        m = re.match(r"gpu(\d+)\.(.+)\.([a-z_]+)$", key)
        if m and isinstance(v, (int, float)) and \
                re.sub(r"\[\d+\]", "", m.group(2)) + "." + m.group(3) == stat:
            out[int(m.group(1))] = out.get(int(m.group(1)), 0) + v
    return out

def total(stat):
    return sum(per_gpu(stat).values())

bad = []
def every_gpu(stat, cond, what):
    got = per_gpu(stat)
    if len(got) != gpus or not all(cond(v) for v in got.values()):
        bad.append("%s on every GPU: %s = %s" % (what, stat, got))

if family == "dualopt":
    every_gpu("decision.declarations", lambda v: v == 1, "one mode declaration")
    codec, rcache = per_gpu("codec.packets_out"), per_gpu("rcache.hits")
    for g in range(gpus):
        if codec.get(g, 0) == 0 and rcache.get(g, 0) == 0:
            bad.append("gpu%d: neither CoDec packets nor RDMA$ hits" % g)
elif family == "finepack":
    every_gpu("packetizer.packets", lambda v: v > 0, "packets")
    if total("packetizer.stores") <= total("packetizer.packets"):
        bad.append("no packet holds more than one store")
elif family in ("dir-baseline", "hmg", "rec", "ladm"):
    if total("dir.invalidates") <= 0:
        bad.append("no directory invalidation")
    if total("l2.remote_hits") <= 0:
        bad.append("no L2 hit on a remote line")
    if family == "ladm" and total("l2.once_skips") != 0:
        bad.append("remote lines not inserted without a once hint")
elif family == "carve":
    if total("rdc.hits") <= 0:
        bad.append("no RDC hit")
    if total("imst.invalidates_sent") <= 0:
        bad.append("no IMST invalidate")
    if total("epoch.kernel_ends") <= 0:
        bad.append("no kernel seen by the epoch counters")
elif family == "all":
    every_gpu("decision.declarations", lambda v: v == 1, "one mode declaration")
    every_gpu("packetizer.packets", lambda v: v > 0, "packets")
    if total("packetizer.stores") <= total("packetizer.packets"):
        bad.append("no packet holds more than one store")
    if total("dir.invalidates") <= 0:
        bad.append("no directory invalidation")
    if total("l2.remote_hits") <= 0:
        bad.append("no L2 hit on a remote line")
    if total("cu.verify_reads") <= 0:
        bad.append("no read-back of the cus' stores")
elif family == "baseline":
    blocks = {re.sub(r"\[\d+\]", "", k.split(".")[1])
              for k in stats if k.startswith("gpu")}
    extra = blocks & {"decision", "codec", "rwq", "packetizer", "dir", "rdc", "imst"}
    if extra:
        bad.append("mechanism blocks in a baseline: %s" % sorted(extra))
else:
    bad.append("no check for family %s" % family)
for b in bad:
    print("FAIL %s: %s" % (name, b))
if not bad:
    print("PASS %s" % name)
sys.exit(1 if bad else 0)
PY
done
exit $status
