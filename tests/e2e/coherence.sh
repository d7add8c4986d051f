#!/bin/sh
# End-to-end coherence test: multi-kernel read/write sharing (cu pattern shared, 2
# kernels of 60 accesses per cu, 10% of the lines rewritten per kernel) on
# platforms/gpu{4,8,16}-{rec,hmg,dir-baseline}.json, with the default 8K-entry
# directories and with 64-entry ones (evictions).
# Each run must exit 0 (no stale read: the cus' data check) and its --stats must show:
# every invalidate sent by a directory received by an L2 (sum of dir.invalidates =
# sum of l2.inv_received), invalidations that hit, remote L2 hits, no fill left
# outstanding, every cu request answered; with the default directories no eviction,
# and baseline and REC sending exactly the same write-invalidates (both track single
# lines exactly); with 64 entries the baseline
# and HMG directories evict and REC (32 ranges of 1 KiB per home) does not.
# A platform caching remote lines with no directory must fail the data check (exit 1)
# on a write-heavy variant (3 kernels, a 4 KiB region per GPU, 30% of the lines
# rewritten per kernel), on which gpu4-rec passes. With remote_insert auto, the cus'
# kernel_begin hint selects once (1) or twice (0). `mgtlm cost` must reproduce the
# SPEC 3.2 storage table. Kernels that overrun their slot keep the data check exact
# when the cus wait at a kernel barrier (a kbar, barrier 1): the next kernel waits for
# every cu's kernel_end and writes wait for their invalidates' acknowledgements;
# without the barrier the same runs read stale data.
# usage: coherence.sh MGTLM PYTHON3   (working directory: the source root)
mgtlm=$1
python3=$2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
status=0
W="--set gpu*.cu[*].pattern=shared --set gpu*.cu[*].kernels=2
   --set gpu*.cu[*].kernel_time=20us --set gpu*.cu[*].count=60
   --set gpu*.cu[*].write_frac=0.1 --set gpu*.cu[*].footprint=32KiB"

check() { # name stats.json kind entries
    "$python3" - "$@" <<'PY'
import json, sys
name, path, kind, entries = sys.argv[1:5]
doc = json.load(open(path))
s = doc["stats"]
def tot(suffix):
    return sum(v for k, v in s.items() if k.endswith(suffix) and isinstance(v, int))
bad = []
for k in doc["errors"]:
    if s[k] != 0:
        bad.append("%s = %s" % (k, s[k]))
sent, got = tot(".dir.invalidates"), tot(".l2.inv_received")
if sent == 0 or sent != got:
    bad.append("invalidates sent %d, received %d" % (sent, got))
if tot(".l2.inv_hits") == 0 or tot(".l2.remote_hits") == 0:
    bad.append("no invalidation hit or no remote hit")
if tot(".l2.outstanding") != 0:
    bad.append("fills outstanding")
cu = {k: v for k, v in s.items() if ".cu[" in k and isinstance(v, int)}
def cut(stat):
    return sum(v for k, v in cu.items() if k.endswith("." + stat))
if cut("completed") != cut("reads") + cut("writes") + cut("atomics") or cut("reads") == 0:
    bad.append("cu requests not all answered")
evict = tot(".dir.inv_evict")
if entries == "8192" and evict != 0:
    bad.append("evictions with 8K entries")
if entries == "64" and (evict == 0) != (kind == "rec"):
    bad.append("inv_evict %d unexpected for %s" % (evict, kind))
print("%s: invalidates %d (write %d, evict %d), hits %d, remote hits %d" % (
    name, sent, tot(".dir.inv_write"), evict, tot(".l2.inv_hits"),
    tot(".l2.remote_hits")))
with open(path + ".inv_write", "w") as f:
    f.write(str(tot(".dir.inv_write")))
if bad:
    print("FAIL %s: %s" % (name, "; ".join(bad)))
    sys.exit(1)
PY
}

for n in 4 8 16; do
    for kind in rec hmg dir-baseline; do
        for entries in 8192 64; do
            out="$tmp/$n-$kind-$entries.json"
            # shellcheck disable=SC2086
            if ! "$mgtlm" run "platforms/gpu$n-$kind.json" $W \
                --set "gpu*.dir.entries=$entries" --stats "$out" >"$tmp/log" 2>&1; then
                echo "FAIL gpu$n-$kind entries $entries: mgtlm run failed"
                cat "$tmp/log"
                status=1
                continue
            fi
            check "gpu$n-$kind/$entries" "$out" "$kind" "$entries" || status=1
        done
    done
    if [ "$(cat "$tmp/$n-rec-8192.json.inv_write")" != \
         "$(cat "$tmp/$n-dir-baseline-8192.json.inv_write")" ]; then
        echo "FAIL gpu$n: REC and baseline write-invalidates differ without evictions"
        status=1
    fi
done

cat >"$tmp/nodir.json" <<EOF
{"extends": "$(pwd)/platforms/gpu4-baseline.json", "name": "gpu4-l2-no-directory",
 "gpu": {"blocks": {"l2": {"type": "l2", "params": {"buffer": 64}}},
  "wires": [{"a": "cu[*].mem", "b": "xbar.cu[*]", "latency": "1ns"},
            {"a": "xbar.local", "b": "l2.up"}, {"a": "l2.mem", "b": "mem.in"},
            {"a": "xbar.remote", "b": "l2.rq"}, {"a": "l2.net", "b": "rdma.gpu"},
            {"a": "rdma.net", "b": "link.a"}]}}
EOF
HEAVY="--set gpu*.cu[*].pattern=shared --set gpu*.cu[*].kernels=3
   --set gpu*.cu[*].kernel_time=20us --set gpu*.cu[*].count=60
   --set gpu*.cu[*].write_frac=0.3 --set gpu*.cu[*].footprint=4KiB"
# shellcheck disable=SC2086
if ! "$mgtlm" run platforms/gpu4-rec.json $HEAVY >"$tmp/log" 2>&1; then
    echo "FAIL gpu4-rec on the write-heavy variant"
    cat "$tmp/log"
    status=1
fi
# shellcheck disable=SC2086
"$mgtlm" run "$tmp/nodir.json" $HEAVY >"$tmp/log" 2>&1
rc=$?
if [ $rc -ne 1 ] || ! grep -q "data_errors" "$tmp/log"; then
    echo "FAIL: remote caching without a directory was not caught (exit $rc)"
    status=1
else
    echo "no directory: stale reads caught (exit 1)"
fi
# LADM auto: the cus' kernel_begin hint 1 (intra-thread locality) makes the home L2s
# skip inserting lines only other GPUs asked for; hint 0 inserts them all.
for hint in 0 1; do
    # shellcheck disable=SC2086
    if ! "$mgtlm" run platforms/gpu4-rec.json $W --set "gpu*.l2.remote_insert=auto" \
        --set "gpu*.cu[*].hint=$hint" --stats "$tmp/hint$hint.json" >"$tmp/log" 2>&1; then
        echo "FAIL remote_insert auto, hint $hint: mgtlm run failed"
        status=1
        continue
    fi
    "$python3" - "$tmp/hint$hint.json" "$hint" <<'PY' || status=1
import json, sys
s = json.load(open(sys.argv[1]))["stats"]
skips = sum(v for k, v in s.items() if k.endswith(".l2.once_skips"))
kernels = sum(v for k, v in s.items() if k.endswith(".l2.kernels"))
ok = kernels > 0 and (skips > 0) == (sys.argv[2] == "1")
print("%sremote_insert auto, hint %s: %d lines not inserted, %d kernel_begin seen"
      % ("" if ok else "FAIL ", sys.argv[2], skips, kernels))
sys.exit(0 if ok else 1)
PY
done

# Kernel boundaries: with 2000 accesses per cu a kernel overruns its 20 us slot, so
# the cus reach kernel k + 1 at different times. With a kernel barrier (each platform
# plus a kbar wired to its 16 cus over 10 ns, cus barrier 1) a cu must not begin
# kernel k + 1 before every cu has ended kernel k with its writes complete
# (invalidates acknowledged): no stale read on every directory kind (before the
# kernel barrier and the invalidate acknowledgements, gpu4-rec read 6 stale values
# here). The overruns must show (the case is exercised), the kbar must open kernels
# 1 to 3 and every invalidate must be acknowledged. Without the barrier (the shipped
# platforms, barrier 0) the same runs must read stale data: the barrier is what keeps
# them exact.
for kind in rec hmg dir-baseline; do
    wires=""
    for g in 0 1 2 3; do
        for c in 0 1 2 3; do
            wires="$wires${wires:+,}
  {\"a\": \"gpu$g.cu[$c].bar[0]\", \"b\": \"kbar.cu[$((4 * g + c))]\", \"latency\": \"10ns\"}"
        done
    done
    cat >"$tmp/kbar-$kind.json" <<EOF
{"extends": "$(pwd)/platforms/gpu4-$kind.json", "name": "gpu4-$kind-kbar",
 "gpu": {"blocks": {"cu": {"params": {"barrier": 1}}}},
 "blocks": {"kbar": {"type": "kbar", "params": {"cus": 16}}},
 "wires": [$wires]}
EOF
    for barrier in 1 0; do
        plat="platforms/gpu4-$kind.json"
        [ "$barrier" = 1 ] && plat="$tmp/kbar-$kind.json"
        out="$tmp/boundary-$kind-$barrier.json"
        "$mgtlm" run "$plat" --set "gpu*.cu[*].count=2000" --stats "$out" >"$tmp/log" 2>&1
        "$python3" - "$out" "$kind" "$barrier" <<'PY' || { cat "$tmp/log"; status=1; }
import json, sys
s = json.load(open(sys.argv[1]))["stats"]
def tot(suffix):
    return sum(v for k, v in s.items() if k.endswith(suffix) and isinstance(v, int))
errors, overruns = tot(".data_errors"), tot(".kernel_overrun_errors")
sent, acked = tot(".dir.invalidates"), tot(".dir.inv_acks")
opens = s.get("kbar.opens", 0)
if sys.argv[3] == "1":
    ok = errors == 0 and opens == 3 and overruns > 0 and sent > 0 and acked == sent
else:
    ok = errors > 0 and overruns > 0
print("%skernel boundaries gpu4-%s, barrier %s: %d stale reads, %d overruns, %d of %d"
      " invalidates acknowledged, %d kernels opened by the kbar"
      % ("" if ok else "FAIL ", sys.argv[2], sys.argv[3], errors, overruns, acked, sent,
         opens))
sys.exit(0 if ok else 1)
PY
    done
done

# mgtlm cost reproduces the SPEC 3.2 table (N = 4, 8192 entries): bits per entry for
# the baseline and for REC at 128 B, 256 B, 1 KiB, 4 KiB; 103 KiB for 1 KiB REC.
cost_bits() { # platform [range]
    set -- "$1" ${2:+--set "gpu*.dir.range=$2"}
    "$mgtlm" cost "$@" --json | "$python3" -c '
import json, sys
item = [i for i in json.load(sys.stdin)["items"]
        if i["instance"] == "gpu0.dir" and i["what"] == "directory"][0]
print(item["bits_per_entry"], item["total_bytes"])'
}
got="$(cost_bits platforms/gpu4-dir-baseline.json)"
got="$got $(cost_bits platforms/gpu4-rec.json 128)"
got="$got $(cost_bits platforms/gpu4-rec.json 256)"
got="$got $(cost_bits platforms/gpu4-rec.json 1KiB)"
got="$got $(cost_bits platforms/gpu4-rec.json 4KiB)"
want="52 53248 50 51200 57 58368 103 105472 293 300032"
if [ "$got" != "$want" ]; then
    echo "FAIL: mgtlm cost gives '$got', SPEC 3.2 '$want'"
    status=1
else
    echo "mgtlm cost: SPEC 3.2 table reproduced"
fi
exit $status
