#!/bin/sh
# Output regression: runs every shipped platform (platforms/*.json) with its default
# workload and compares the SHA-256 of its stats (JSON and CSV) and of its per-port
# logs with the checked-in list tests/outputs/hashes.txt. Logs: every port of the
# 4- and 8-GPU platforms; gpu0, gpu<last> and the fabric of the 16- and 64-GPU ones
# (the ladm-* platforms have 16).
# The stats' "host" object and rows (host time, version, commit) are left out, and
# each platform runs from its folder so that the recorded platform_file does not
# depend on where the checkout is (docs/stats.md).
# A refactoring must leave every line unchanged. The list is regenerated only by a
# deliberate, documented change of the model or of a format:
#   run.sh MGTLM PLATFORM_DIR HASHES [--update]
# Prints "N passed, M failed" (one per platform); exit status 0 only if all match.
set -u
mgtlm="$1"
dir="$2"
list="$3"
update="${4:-}"
work=$(mktemp -d)
case "$mgtlm" in
/*) ;;
*) mgtlm="$PWD/$mgtlm" ;;
esac
trap 'rm -rf "$work"' EXIT

ports() {
    case "$1" in
    gpu16-* | ladm-*) echo "--log-ports gpu0.* --log-ports gpu15.* --log-ports fabric.*" ;;
    gpu64-*) echo "--log-ports gpu0.* --log-ports gpu63.* --log-ports fabric.*" ;;
    *) echo "" ;;
    esac
}

: >"$work/now"
for p in "$dir"/*.json; do
    n=$(basename "$p" .json)
    out="$work/$n"
    set -f # the port globs go to mgtlm unexpanded
    # shellcheck disable=SC2046
    (cd "$dir" && "$mgtlm" run "$n.json" --quiet --stats "$out.json" \
        --stats-csv "$out.csv" --log-dir "$out.logs" $(ports "$n") >/dev/null)
    rc=$?
    set +f
    if [ "$rc" -ne 0 ]; then
        echo "$n: run failed"
        echo "$n run-failed" >>"$work/now"
        continue
    fi
    s=$( (sed '/^ "host": {$/,/^ }/d' "$out.json" && grep -v '^,host,' "$out.csv") |
        sha256sum | cut -c1-64)
    l=$(cd "$out.logs" && find . -type f | LC_ALL=C sort | xargs cat | sha256sum | cut -c1-64)
    c=$(find "$out.logs" -type f | wc -l)
    echo "$n stats=$s logs=$l files=$c" >>"$work/now"
    rm -rf "$out.logs"
done

if [ "$update" = "--update" ]; then
    cp "$work/now" "$list"
    echo "wrote $list"
    exit 0
fi
pass=0
fail=0
while read -r n rest; do
    want=$(grep "^$n " "$list" | cut -d' ' -f2-)
    if [ "$rest" = "$want" ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "$n: outputs changed"
        echo "  now:  $rest"
        echo "  list: ${want:-(absent)}"
    fi
done <"$work/now"
nlist=$(wc -l <"$list")
nnow=$(wc -l <"$work/now")
if [ "$nlist" -ne "$nnow" ]; then
    echo "the list has $nlist platforms, the folder $nnow"
    fail=$((fail + 1))
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
