#!/bin/sh
# Determinism: runs a platform twice with full logs and stats and requires
# byte-identical output. The first run's output must also be non-trivial (logs
# exist and are non-empty, stats have counters), so an empty run cannot pass.
# The stats' "host" object (JSON) and "host" rows (CSV) are left out of the
# comparison: host time and the build's version differ by design (docs/stats.md).
#   run.sh MGTLM PLATFORM [extra mgtlm run arguments...]
set -u
mgtlm="$1"
platform="$2"
shift 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for i in 1 2; do
    if ! "$mgtlm" run "$platform" --quiet --log-dir "$work/logs$i" \
        --stats "$work/stats$i.json" --stats-csv "$work/stats$i.csv" "$@"; then
        echo "run $i of $platform failed"
        echo "0 passed, 1 failed"
        exit 1
    fi
done

fail=0
nlogs=$(find "$work/logs1" -type f -size +0 | wc -l)
if [ "$nlogs" -lt 1 ]; then
    echo "only $nlogs non-empty log files: nothing to compare"
    fail=1
fi
if ! grep -q '"' "$work/stats1.json"; then
    echo "empty stats"
    fail=1
fi
if ! diff -r "$work/logs1" "$work/logs2" >/dev/null; then
    echo "logs differ between two runs of $platform"
    diff -r "$work/logs1" "$work/logs2" | head -5
    fail=1
fi
nohost() {
    case "$1" in
    *.json) sed '/^ "host": {$/,/^ }/d' "$1" ;;
    *) grep -v '^,host,' "$1" ;;
    esac
}
if ! grep -q '^ "host": {$' "$work/stats1.json" || ! grep -q '^,host,' "$work/stats1.csv"; then
    echo "no host metadata in the stats"
    fail=1
fi
for f in stats.json stats.csv stats.json.platform.json; do
    nohost "$work/stats1.${f#*.}" >"$work/a"
    nohost "$work/stats2.${f#*.}" >"$work/b"
    if ! cmp -s "$work/a" "$work/b"; then
        echo "$f differs between two runs of $platform"
        fail=1
    fi
done
echo "$platform: $nlogs logs compared"
if [ "$fail" -eq 0 ]; then
    echo "1 passed, 0 failed"
else
    echo "0 passed, 1 failed"
fi
exit "$fail"
