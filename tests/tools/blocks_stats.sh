#!/bin/sh
# `mgtlm blocks TYPE` prints the type's stat table: every type has a "stats:" section
# after its params, and a few rows read exactly as their tables declare them (kind,
# unit, histogram geometry, enum values, per-port name, model-error flag).
# usage: blocks_stats.sh MGTLM
mgtlm=$1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
failed=0
fail() {
    echo "FAIL $1"
    failed=$((failed + 1))
}
for t in $("$mgtlm" blocks | cut -d' ' -f1); do
    "$mgtlm" blocks "$t" >"$tmp/$t" || fail "$t: exit status $?"
    grep -q '^stats:$' "$tmp/$t" || fail "$t: no stats section"
    sed -n '/^params:$/,$p' "$tmp/$t" | grep -q '^stats:$' || fail "$t: stats before params"
done
expect() {
    grep -qxF -- "$2" "$tmp/$1" || fail "$1: missing line: $2"
}
expect cu '  data_errors    (counter; model error)'
expect cu '                 model error: responses whose data differ from the expected bytes'
expect cu '  read_latency   (histogram; unit ps; width 10000; 200 buckets)'
expect cu '  read_latency_mean (time; real; unit ps)'
expect cu '  reads          (counter)'
expect l1 '  mode           (enum; values 0 none, 1 coalesce, 2 cache)'
expect switch '  <port>_out     (counter)'
expect link '  ab_payload_bytes (counter; unit B)'
expect dir_rec '  coalesced      (histogram; width 1; buckets from the parameters)'
expect memory '  out_of_range   (counter)'
if [ "$failed" -ne 0 ]; then
    echo "$failed failed"
    exit 1
fi
echo "PASS"
