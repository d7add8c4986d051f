#!/bin/sh
# `mgtlm validate --dump` round trip through the command line: for each platform,
# dump it, validate the dump, dump the dump, and require identical bytes.
# usage: dump_roundtrip.sh MGTLM PLATFORM...
mgtlm=$1
shift
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
failed=0
for p in "$@"; do
    if "$mgtlm" validate "$p" --dump >"$tmp/first.json" &&
        "$mgtlm" validate "$tmp/first.json" --dump >"$tmp/second.json" &&
        cmp -s "$tmp/first.json" "$tmp/second.json"; then
        echo "PASS $p"
    else
        echo "FAIL $p"
        failed=$((failed + 1))
    fi
done
echo "$# platforms, $failed failed"
[ "$failed" -eq 0 ] && [ "$#" -gt 0 ]
