#!/bin/sh
# End-to-end DualOpt test: the 4, 8 and 16-GPU DualOpt platforms with every mode
# (forced none, coalesce, cache, and auto with a short decision window) on seeded
# uniform reads and writes (then a release and verify: every written byte read back
# from its home); in every forced mode with the multi-kernel shared pattern
# (kernel_begin invalidation of the L1s, verify) and with a trace of remote wavefronts
# sent whole to the BGU (cu wavefront true; the cu checks every byte a wavefront
# reads); and with halo stores in mode cache (dirty RDMA$ bytes written back at
# kernel_end, read back by verify). Each run must exit 0 (no data, status,
# unanswered or unmatched errors anywhere) and its --stats
# must show: every cu request answered exactly once (completed = reads + writes +
# atomics, no posted writes here), no rdma request left outstanding, every L1 of a
# GPU in the mode its decision engine declared (= the forced mode), and the mode's
# mechanism at work (coalesce: bypassed reads and CoDec packets; cache: RDMA$ fills
# and, with writes, RDMA$ write-backs).
# usage: dualopt.sh MGTLM PYTHON3   (working directory: the source root)
mgtlm=$1
python3=$2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
status=0

check() { # name stats.json mode
    "$python3" - "$1" "$2" "$3" <<'PY'
import json, sys
name, path, mode = sys.argv[1], sys.argv[2], sys.argv[3]
doc = json.load(open(path))
stats = doc["stats"]
def total(part, stat):
    return sum(v for k, v in stats.items()
               if part in k and k.endswith("." + stat) and isinstance(v, int))
gpus = sorted({int(k[3:k.index(".")]) for k in stats if k.startswith("gpu")})
bad = []
reads = total(".cu[", "reads")
answered = total(".cu[", "completed")
asked = reads + total(".cu[", "writes") + total(".cu[", "atomics")
if reads == 0:
    bad.append("no reads")
if answered != asked:
    bad.append("completed %d != requests %d" % (answered, asked))
for k in doc["errors"]:
    if stats[k] != 0:
        bad.append("%s = %s" % (k, stats[k]))
if total(".rdma.", "outstanding") != 0:
    bad.append("rdma requests outstanding")
codes = {"none": 0, "coalesce": 1, "cache": 2}
declared = []
for g in gpus:
    d = stats["gpu%d.decision.mode" % g]
    declared.append(d)
    if stats["gpu%d.decision.declarations" % g] != 1:
        bad.append("gpu%d declared %d times"
                   % (g, stats["gpu%d.decision.declarations" % g]))
    if mode in codes and d != codes[mode]:
        bad.append("gpu%d declared %d, forced %s" % (g, d, mode))
    l1 = [v for k, v in stats.items()
          if k.startswith("gpu%d.l1[" % g) and k.endswith(".mode")]
    if not l1 or any(v != d for v in l1):
        bad.append("gpu%d L1 modes %s != declared %d" % (g, l1, d))
if 1 in declared and (total(".l1[", "bypassed") == 0
                      or total(".codec.", "packets_out") == 0):
    bad.append("coalesce declared but nothing bypassed or coalesced")
if 2 in declared and total(".rcache.", "fills") == 0:
    bad.append("cache declared but the RDMA$ filled nothing")
if 2 in declared and total(".cu[", "writes") > 0 and total(".rcache.", "writebacks") == 0:
    bad.append("cache declared with remote writes but no RDMA$ write-back")
print("%s: reads=%d answered=%d modes=%s bypassed=%d packets=%d rcache_fills=%d" % (
    name, reads, answered, declared, total(".l1[", "bypassed"),
    total(".codec.", "packets_out"), total(".rcache.", "fills")))
if bad:
    print("%s: FAIL: %s" % (name, "; ".join(bad[:8])))
    sys.exit(1)
PY
}

run() { # name mode platform sets...
    name=$1
    mode=$2
    plat=$3
    shift 3
    if ! "$mgtlm" run "$plat" --quiet --stats "$tmp/s.json" \
        --set "gpu*.decision.mode=$mode" --set "gpu*.decision.window=100" "$@"; then
        echo "$name: mgtlm run failed (exit status $?)"
        status=1
        return
    fi
    check "$name" "$tmp/s.json" "$mode" || status=1
}

c="gpu*.cu[*]"
for g in 4 8 16; do
    plat=platforms/gpu$g-dualopt.json
    for mode in none coalesce cache auto; do
        run "gpu$g $mode uniform" "$mode" "$plat" --set "$c.count=100" \
            --set "$c.write_frac=0.25" --set "$c.footprint=256KiB" \
            --set "$c.verify=true" \
            --set "$c.verify_delay=2us"
    done
    for mode in none coalesce cache; do
        run "gpu$g $mode shared" "$mode" "$plat" --set "$c.pattern=shared" \
            --set "$c.kernels=3" --set "$c.kernel_time=20us" --set "$c.footprint=16KiB" \
            --set "$c.write_frac=0.25" --set "$c.count=32" --set "$c.verify=true" \
            --set "$c.verify_delay=2us"
    done
    for mode in none coalesce cache; do
        run "gpu$g $mode wavefronts" "$mode" "$plat" --set "$c.pattern=none" \
            --set "gpu0.cu[1].pattern=trace" --set "gpu0.cu[1].wavefront=true" \
            --set "gpu0.cu[1].trace=testbench/dualopt/traces/wavefronts_remote.jsonl"
    done
    run "gpu$g cache halo" cache "$plat" --set "$c.pattern=halo" --set "$c.halo=512B" \
        --set "$c.size=4" --set "$c.kernels=2" --set "$c.verify=true" \
        --set "$c.verify_delay=2us"
done
exit $status
