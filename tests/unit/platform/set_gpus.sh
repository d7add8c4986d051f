#!/bin/sh
# `--set gpus=N` on a 4-GPU platform must expand exactly like the N-GPU platform file
# of the same mechanism (which extends the 4-GPU one and changes only "gpus"): the
# flat dumps must be identical except for the platform name.
# usage: set_gpus.sh MGTLM PLATFORMS_DIR MECHANISM...
mgtlm=$1
dir=$2
shift 2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
failed=0
checked=0
for m in "$@"; do
    for n in 8 16; do
        checked=$((checked + 1))
        if "$mgtlm" validate "$dir/gpu4-$m.json" --set gpus=$n --dump >"$tmp/set.json" &&
            "$mgtlm" validate "$dir/gpu$n-$m.json" --dump >"$tmp/file.json" &&
            grep -v '^  "name": ' "$tmp/set.json" >"$tmp/a" &&
            grep -v '^  "name": ' "$tmp/file.json" >"$tmp/b" &&
            [ "$(wc -l <"$tmp/a")" -gt 100 ] && cmp -s "$tmp/a" "$tmp/b"; then
            echo "PASS gpu4-$m --set gpus=$n = gpu$n-$m"
        else
            echo "FAIL gpu4-$m --set gpus=$n differs from gpu$n-$m"
            failed=$((failed + 1))
        fi
    done
done
echo "$checked pairs, $failed failed"
[ "$failed" -eq 0 ] && [ "$checked" -gt 0 ]
