#!/bin/sh
# The binary log converts to the other formats byte for byte: each platform runs once
# per log format (jsonl, perfetto, perfetto-gz, vcd written directly, and binary),
# then `mgtlm log` converts the binary log into each of the four and the converted
# folder must equal the direct one file for file. Platforms cover the optional parts of a
# record: plain reads and writes (baseline), wavefront threads, declared commands and
# extension fields (dualopt), posted writes with FinePack headers (finepack), a port
# subset of a 16-GPU platform, and wavefront threads (a DualOpt BGU testbench through
# `mgtlm test`, which logs each testbench in its own subfolder).
# usage: log_convert.sh MGTLM   (working directory: the source root)
mgtlm=$1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
status=0

check() { # name subdir mgtlm-arguments... (subdir: where the command puts its logs)
    name=$1
    sub=$2
    shift 2
    for fmt in jsonl perfetto perfetto-gz vcd binary; do
        if ! "$mgtlm" "$@" --log-dir "$tmp/$name/$fmt" --log-format "$fmt" \
            >/dev/null; then
            echo "$name: run with --log-format $fmt failed"
            status=1
            return
        fi
    done
    for fmt in jsonl perfetto perfetto-gz vcd; do
        direct="$tmp/$name/$fmt/$sub"
        conv="$tmp/$name/conv-$fmt"
        if ! "$mgtlm" log "$tmp/$name/binary/$sub/trace.mgtlm" --format "$fmt" \
            --out "$conv"; then
            echo "$name: mgtlm log --format $fmt failed"
            status=1
        elif ! diff -r -q "$direct" "$conv"; then
            echo "$name: converted $fmt differs from the direct log"
            status=1
        else
            echo "$name: $fmt identical ($(find "$direct" -type f | wc -l) files)"
        fi
    done
}

check gpu4-baseline . run platforms/gpu4-baseline.json --quiet --until 20us
check gpu4-dualopt . run platforms/gpu4-dualopt.json --quiet --until 20us
check gpu8-finepack . run platforms/gpu8-finepack.json --quiet --until 20us
check gpu16-hmg . run platforms/gpu16-hmg.json --quiet --until 20us \
    --log-ports 'gpu3.*,fabric.*'
check bgu-b1 bgu_b1 test testbench/dualopt/bgu_b1.json
for want in '"threads":\[\["0x' '"posted":true' '"cmd":"monitor"' '"fp_packet":'; do
    if ! cat "$tmp"/*/jsonl/*.jsonl "$tmp"/*/jsonl/*/*.jsonl 2>/dev/null |
        grep -q "$want"; then
        echo "no record matches $want: the comparison proves less than it should"
        status=1
    fi
done
exit $status
