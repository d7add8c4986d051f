#!/bin/sh
# End-to-end workload test: the cu's shared (3 kernels), halo (2 kernels) and scatter
# patterns, each with verify, with posted and non-posted writes, on the 4, 8 and
# 16-GPU baseline platforms. Each run must exit 0 (no model error: no data, overrun
# or unanswered errors) and its --stats must show reads, writes, verify reads and
# zero data_errors summed over every cu.
# usage: workload.sh MGTLM PYTHON3   (working directory: the source root)
mgtlm=$1
python3=$2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
status=0

check() { # name stats.json kernels_per_cu
    "$python3" - "$1" "$2" "$3" <<'PY'
import json, sys
name, path, kernels = sys.argv[1], sys.argv[2], int(sys.argv[3])
stats = json.load(open(path))["stats"]
def total(stat):
    return sum(v for k, v in stats.items()
               if ".cu[" in k and k.endswith("." + stat) and isinstance(v, int))
cus = sum(1 for k in stats if ".cu[" in k and k.endswith(".issued"))
got = {s: total(s) for s in ("reads", "writes", "verify_reads", "data_errors",
                             "kernels_done", "kernel_overrun_errors",
                             "unanswered_errors", "completed")}
bad = []
if cus == 0:
    bad.append("no cu stats")
for s in ("reads", "writes", "verify_reads"):
    if got[s] <= 0:
        bad.append(s + " is 0")
for s in ("data_errors", "kernel_overrun_errors", "unanswered_errors"):
    if got[s] != 0:
        bad.append("%s = %d" % (s, got[s]))
if kernels > 1 and got["kernels_done"] != cus * kernels:
    bad.append("kernels_done %d != %d cus x %d" % (got["kernels_done"], cus, kernels))
print("%s: %s" % (name, " ".join("%s=%d" % kv for kv in sorted(got.items()))))
if bad:
    print("%s: FAIL: %s" % (name, "; ".join(bad)))
    sys.exit(1)
PY
}

run() { # name kernels platform sets...
    name=$1
    kernels=$2
    plat=$3
    shift 3
    if ! "$mgtlm" run "$plat" --quiet --stats "$tmp/s.json" "$@"; then
        echo "$name: mgtlm run failed (exit status $?)"
        status=1
        return
    fi
    check "$name" "$tmp/s.json" "$kernels" || status=1
}

for g in 4 8 16; do
    plat=platforms/gpu$g-baseline.json
    for posted in false true; do
        c="gpu*.cu[*]"
        run "gpu$g shared posted=$posted" 3 "$plat" --set "$c.pattern=shared" \
            --set "$c.kernels=3" --set "$c.kernel_time=20us" --set "$c.footprint=16KiB" \
            --set "$c.write_frac=0.25" --set "$c.count=64" --set "$c.verify=true" \
            --set "$c.verify_delay=2us" --set "$c.posted=$posted"
        run "gpu$g halo posted=$posted" 2 "$plat" --set "$c.pattern=halo" \
            --set "$c.halo=512B" --set "$c.size=4" --set "$c.kernels=2" \
            --set "$c.verify=true" --set "$c.verify_delay=2us" --set "$c.posted=$posted"
        run "gpu$g scatter posted=$posted" 1 "$plat" --set "$c.pattern=scatter" \
            --set "$c.write_frac=0.5" --set "$c.count=100" --set "$c.verify=true" \
            --set "$c.verify_delay=2us" --set "$c.posted=$posted"
    done
done
exit $status
