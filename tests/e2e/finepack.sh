#!/bin/sh
# End-to-end FinePack test: scatter P2P stores (posted, with read-back verification
# after the final release) on the 4, 8 and 16-GPU FinePack platforms, with the remote
# write queue on and off, plus halo stores on 4 GPUs. Each run must exit 0; its
# --stats must show no data errors (every byte written reads back as the writing cu's
# own record: last writer wins), verify reads, conservation of stores through the
# packetizer and de-packetizer, and (queue on) fewer bytes on the wire than with the
# queue off (also with a 50 ns inactivity timeout). Also: SPEC example F1 as a trace costs 84 wire bytes on GPU 0's link
# with FinePack against 140 on the baseline, and a link preset with a conflicting
# bandwidth is bad input (exit 2).
# usage: finepack.sh MGTLM PYTHON3   (working directory: the source root)
mgtlm=$1
python3=$2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
status=0

check() { # name stats.json mode(on|off|f1|base)
    "$python3" - "$1" "$2" "$3" "$tmp" <<'PY'
import json, os, sys
name, path, mode, tmp = sys.argv[1:5]
s = json.load(open(path))["stats"]
def tot(suffix, part=""):
    return sum(v for k, v in s.items()
               if k.endswith("." + suffix) and part in k and isinstance(v, int))
wire = sum(tot("ab_%s_bytes" % w, ".link") for w in ("payload", "overhead", "padding"))
got = {"data_errors": tot("data_errors"), "verify_reads": tot("verify_reads", ".cu["),
       "writes": tot("writes", ".cu["), "packets": tot("packets", ".packetizer"),
       "runs": tot("runs", ".packetizer"), "unpacked": tot("stores", ".depacketizer"),
       "depackets": tot("packets", ".depacketizer"),
       "format_errors": tot("format_errors"), "queued": tot("stores", ".rwq"),
       "unflushed": tot("unflushed", ".rwq"),
       "wire": wire, "gpu0_wire": sum(v for k, v in s.items()
                                      if k.startswith("gpu0.link.ab_") and
                                      k.endswith("_bytes"))}
bad = []
if mode in ("on", "off"):
    if got["data_errors"] or got["format_errors"] or got["unflushed"]:
        bad.append("errors or stores left queued")
    if got["verify_reads"] <= 0 or got["writes"] <= 0:
        bad.append("no writes or verify reads")
    if got["unpacked"] != got["runs"] or got["depackets"] != got["packets"]:
        bad.append("stores lost between packetizer and de-packetizer")
if mode == "on":
    if got["packets"] <= 0 or got["queued"] != got["writes"]:
        bad.append("stores not queued")
    elif got["runs"] < 4 * got["packets"]:
        bad.append("fewer than 4 sub-packets per packet")
    open(os.path.join(tmp, name + ".wire"), "w").write(str(wire))
if mode == "off":
    if got["packets"] != 0 or got["queued"] != 0:
        bad.append("queue off but packets sent")
    on = os.path.join(tmp, name.replace("-off", "-on") + ".wire")
    if os.path.exists(on) and int(open(on).read()) >= wire:
        bad.append("FinePack does not reduce wire bytes (%s vs %d)"
                   % (open(on).read(), wire))
if mode == "f1" and got["gpu0_wire"] != 84:
    bad.append("F1 wire bytes %d != 84" % got["gpu0_wire"])
if mode == "base" and got["gpu0_wire"] != 140:
    bad.append("F1 baseline wire bytes %d != 140" % got["gpu0_wire"])
print("%s: %s" % (name, " ".join("%s=%d" % kv for kv in sorted(got.items()))))
if bad:
    print("%s: FAIL: %s" % (name, "; ".join(bad)))
    sys.exit(1)
PY
}

run() { # name mode platform sets...
    name=$1
    mode=$2
    plat=$3
    shift 3
    if ! "$mgtlm" run "$plat" --quiet --stats "$tmp/s.json" "$@"; then
        echo "$name: mgtlm run failed"
        status=1
        return
    fi
    check "$name" "$tmp/s.json" "$mode" || status=1
}

c="gpu*.cu[*]"
for g in 4 8 16; do
    plat=platforms/gpu$g-finepack.json
    run "scatter-gpu$g-on" on "$plat" --set "$c.count=150"
    run "scatter-gpu$g-off" off "$plat" --set "$c.count=150" --set "gpu*.rwq.enable=false"
done
run "scatter-gpu4-timeout-on" on platforms/gpu4-finepack.json --set "$c.count=150" \
    --set "gpu*.rwq.timeout=50ns"
run "halo-gpu4-on" on platforms/gpu4-finepack.json --set "$c.pattern=halo" \
    --set "$c.halo=1KiB"
run "halo-gpu4-off" off platforms/gpu4-finepack.json --set "$c.pattern=halo" \
    --set "$c.halo=1KiB" --set "gpu*.rwq.enable=false"

f1="--set $c.pattern=none --set $c.verify=false --set gpu0.cu[0].pattern=trace"
f1="$f1 --set gpu0.cu[0].trace=testbench/finepack/traces/f1.jsonl"
# shellcheck disable=SC2086
run "f1-finepack" f1 platforms/gpu4-finepack.json $f1
# shellcheck disable=SC2086
run "f1-baseline" base platforms/gpu4-baseline.json $f1

"$mgtlm" run platforms/gpu4-finepack.json --quiet --set "gpu*.link.bandwidth=16GB/s" \
    2>"$tmp/err"
rc=$?
if [ "$rc" -ne 2 ] || ! grep -q "conflicts with protocol pcie4" "$tmp/err"; then
    echo "preset conflict: expected exit 2 and a conflict message, got $rc"
    status=1
fi
exit $status
