#!/bin/sh
# End-to-end CARVE test: read-mostly multi-kernel sharing (cu pattern shared, 4
# kernels of 100 accesses per cu) on platforms/gpu{4,8,16}-carve.json in the three
# coherence modes.
# - hwc and swc: mgtlm run exits 0 (the cus' data check finds no stale data), the
#   RDCs hit, hwc keeps more hits than swc (inter-kernel reuse); hwc broadcasts
#   write-invalidates and every one reaches an RDC; swc sends none and increments
#   every epoch counter once per kernel.
# - none (never invalidated) is unsafe by design: with a write-heavy variant of the
#   traffic (a 4 KiB region per GPU, 30% of the lines rewritten every kernel) stale
#   hits are certain, so the run must fail (exit 1) with data_errors > 0.
# usage: carve.sh MGTLM PYTHON3   (working directory: the source root)
mgtlm=$1
python3=$2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
status=0

check() { # name stats.json mode gpus hits_file
    "$python3" - "$@" <<'PY'
import json, sys
name, path, mode, gpus, hits_file = sys.argv[1:6]
gpus = int(gpus)
stats = json.load(open(path))["stats"]
def total(suffix):
    return sum(v for k, v in stats.items() if k.endswith(suffix) and isinstance(v, int))
names = ("data_errors", "rdc.lookups", "rdc.hits", "imst.broadcasts",
         "imst.invalidates_sent", "rdc.invalidates", "epoch.increments")
got = {s: total("." + s) for s in names}
bad = []
if got["rdc.lookups"] <= 0 or got["rdc.hits"] <= 0:
    bad.append("no RDC lookups or hits")
if mode != "none" and got["data_errors"] != 0:
    bad.append("data_errors = %d" % got["data_errors"])
if mode == "none" and got["data_errors"] == 0:
    bad.append("coherence none read no stale data")
if mode == "hwc":
    if got["imst.broadcasts"] <= 0:
        bad.append("no write-invalidate broadcast")
    if got["imst.invalidates_sent"] != got["rdc.invalidates"]:
        bad.append("invalidates sent %d != received %d"
                   % (got["imst.invalidates_sent"], got["rdc.invalidates"]))
    with open(hits_file, "w") as f:
        f.write(str(got["rdc.hits"]))
if mode == "swc":
    if got["imst.invalidates_sent"] != 0:
        bad.append("swc sent invalidates")
    if got["epoch.increments"] != gpus * 4:
        bad.append("epoch increments %d != %d GPUs x 4 kernels"
                   % (got["epoch.increments"], gpus))
    hwc_hits = int(open(hits_file).read())
    if got["rdc.hits"] >= hwc_hits:
        bad.append("swc hits %d not below hwc hits %d" % (got["rdc.hits"], hwc_hits))
print("%s: %s" % (name, " ".join("%s=%d" % kv for kv in sorted(got.items()))))
if bad:
    print("%s: FAIL: %s" % (name, "; ".join(bad)))
    sys.exit(1)
PY
}

for g in 4 8 16; do
    plat=platforms/gpu$g-carve.json
    for mode in hwc swc none; do
        set -- --set "gpu*.rdc.coherence=$mode" --set "gpu*.epoch.coherence=$mode" \
            --set "gpu*.imst.coherence=$mode" --set "gpu*.cu[*].count=100"
        want=0
        if [ "$mode" = none ]; then
            set -- "$@" --set "gpu*.cu[*].footprint=4KiB" \
                --set "gpu*.cu[*].read_only_frac=0" --set "gpu*.cu[*].write_frac=0.3"
            want=1
        fi
        "$mgtlm" run "$plat" --quiet --stats "$tmp/s.json" "$@" 2>"$tmp/err"
        got=$?
        if [ "$got" -ne "$want" ]; then
            echo "carve $g GPUs $mode: mgtlm run exit status $got, expected $want"
            cat "$tmp/err"
            status=1
            continue
        fi
        check "carve-$g-$mode" "$tmp/s.json" "$mode" "$g" "$tmp/hits" || status=1
    done
done
exit $status
