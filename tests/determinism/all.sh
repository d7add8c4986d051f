#!/bin/sh
# Determinism over every shipped platform: run.sh (two runs, byte-identical logs of
# every port and stats) for each PLATFORM_DIR/*.json with its default workload, up to
# a simulated time limit so that the 21 platforms take about a minute; a platform
# added to the directory is covered without a change here.
#   all.sh MGTLM PLATFORM_DIR [UNTIL]      (UNTIL default 5us)
# Prints one line per platform and "N passed, M failed"; exit 0 only if all pass.
set -u
mgtlm="$1"
dir="$2"
until="${3:-5us}"
here=$(dirname "$0")
pass=0
fail=0
for p in "$dir"/*.json; do
    if out=$("$here/run.sh" "$mgtlm" "$p" --until "$until" 2>&1); then
        pass=$((pass + 1))
        echo "$out" | grep "logs compared"
    else
        fail=$((fail + 1))
        echo "FAIL: $(basename "$p"):"
        echo "$out" | sed 's/^/  /' | head -10
    fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
