#!/bin/sh
# Builds the libFuzzer targets with clang (-fsanitize=fuzzer,address,undefined) and
# runs each one, bounded either way:
#   fuzz/run.sh BUILD_DIR --runs N       a share of N inputs per target (the list
#                                        `targets` below) from seed 1 and a fresh
#                                        corpus: the same inputs on every machine
#                                        (what tools/check runs, N = 400000)
#   fuzz/run.sh BUILD_DIR --seconds S    S seconds per target, random seed, corpus kept
#                                        in BUILD_DIR/fuzz/corpus across runs (long runs)
# Targets (docs/fuzzing.md): serve_api, pcie_frame, http, platform, testbench,
# golden, cu_trace, accelsim. Every seed is run first in both modes: fuzz/seeds/<target>/
# (hand-written inputs and the regress-* inputs of past failures) and the shipped
# inputs of each loader (platforms/, testbench/, vectors/, traces). fuzz/<target>.dict,
# where present, is the target's dictionary. BUILD_DIR is a configured
# non-sanitized, non-LTO meson build, best made with clang (CC=clang meson setup
# build-fuzz; it provides libmgtlm.a and the generated dashboard source). Needs clang
# and libFuzzer (Debian: clang, libclang-rt-14-dev). Run from anywhere (it works in the
# repository root). Crash inputs go to BUILD_DIR/fuzz/artifacts/. Exit 0 only if no
# target found a failure, 2 on bad arguments, 77 (skip) if clang cannot build a fuzzer.
set -eu
LC_ALL=C # byte order for globs: the testbench suites' indexes (fuzz_testbench.c)
export LC_ALL
cd "$(dirname "$0")/.."
usage="usage: fuzz/run.sh BUILD_DIR (--runs N | --seconds S)"
if [ $# -ne 3 ] || ! [ "$3" -gt 0 ] 2>/dev/null; then
    echo "$usage" >&2
    exit 2
fi
build="$1"
out="$build/fuzz"
case "$2" in
--runs) rm -rf "$out/corpus" ;;
--seconds) ;;
*)
    echo "$usage" >&2
    exit 2
    ;;
esac
# target:share of N in percent (--runs), scaled to the target's speed so that the
# whole step stays within about 6 minutes on 2 cores for N = 400000 even on a loaded
# machine (docs/fuzzing.md has the times)
targets="serve_api:50 pcie_frame:100 http:10 platform:4 testbench:1 golden:1 cu_trace:1
    accelsim:2"
mkdir -p "$out/artifacts"
cc="${CLANG:-clang}"
if ! command -v "$cc" >/dev/null 2>&1; then
    echo "fuzz: SKIP: $cc not found (install clang libclang-rt-14-dev)"
    exit 77
fi
probe="$out/probe.c"
printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n)\n{ (void)d; (void)n; return 0; }\n' > "$probe"
if ! "$cc" -fsanitize=fuzzer "$probe" -o "$out/probe" 2>/dev/null; then
    echo "fuzz: SKIP: $cc cannot link libFuzzer (install libclang-rt-14-dev)"
    exit 77
fi
meson compile -C "$build" serve_dashboard mgtlm:static_library >/dev/null
flags="-g -O1 -std=c11 -D_POSIX_C_SOURCE=200809L -fsanitize=fuzzer,address,undefined
    -fno-sanitize-recover=undefined -I. -I$build"
serve_src="tools/serve/endpoint.c tools/serve/pcie_cfg.c tools/serve/pcie_frame.c tools/serve/pcie_ip.c tools/serve/pcie_out.c
    tools/serve/serve_api.c tools/serve/serve_core.c tools/serve/serve_guard.c
    tools/serve/serve_http.c tools/serve/serve_logs.c $build/tools/serve/dashboard_html.c"
# the code under test is compiled here, not taken from libmgtlm.a, so that it is
# instrumented: coverage guides the search and AddressSanitizer sees its accesses
loader_src="kernel/platform/*.c kernel/units.c kernel/json_util.c"
test_src="tools/mgtlm/cli_log.c tools/mgtlm/collector.c tools/mgtlm/golden.c
    tools/mgtlm/golden_compare.c tools/mgtlm/testbench.c tools/mgtlm/testbench_load.c"
libs="$build/libmgtlm.a $(pkg-config --libs jansson libevent zlib liblzma) -ldl -lm"
# shellcheck disable=SC2086
{
    "$cc" $flags fuzz/fuzz_serve_api.c $serve_src $libs -o "$out/fuzz_serve_api"
    "$cc" $flags fuzz/fuzz_pcie_frame.c tools/serve/pcie_frame.c kernel/error.c \
        -o "$out/fuzz_pcie_frame"
    "$cc" $flags fuzz/fuzz_http.c $serve_src $libs -o "$out/fuzz_http"
    "$cc" $flags fuzz/fuzz_platform.c $loader_src $libs -o "$out/fuzz_platform"
    "$cc" $flags fuzz/fuzz_testbench.c fuzz/fuzz_file.c $test_src \
        hw/tb/driver_stimulus.c $loader_src $libs -o "$out/fuzz_testbench"
    "$cc" $flags fuzz/fuzz_golden.c fuzz/fuzz_file.c tools/mgtlm/golden.c \
        tools/mgtlm/golden_compare.c kernel/json_util.c $libs -o "$out/fuzz_golden"
    "$cc" $flags fuzz/fuzz_cu_trace.c fuzz/fuzz_file.c hw/workload/cu_trace.c \
        kernel/units.c $libs -o "$out/fuzz_cu_trace"
    "$cc" $flags fuzz/fuzz_accelsim.c fuzz/fuzz_file.c hw/core/accelsim_*.c \
        kernel/input_file.c $libs -lz -o "$out/fuzz_accelsim"
}
# Seeds: fuzz/seeds/<target>/ (hand-written inputs and the regress-* inputs of past
# failures) and the shipped inputs of each loader.
for t in $targets; do
    t=${t%%:*}
    rm -rf "$out/corpus/$t.seeds"
    mkdir -p "$out/corpus/$t" "$out/corpus/$t.seeds"
    if [ -d "fuzz/seeds/$t" ]; then
        cp fuzz/seeds/"$t"/* "$out/corpus/$t.seeds/"
    fi
done
for f in platforms/*.json; do
    cp "$f" "$out/corpus/platform.seeds/"
done
for f in vectors/*/*.jsonl; do
    cp "$f" "$out/corpus/golden.seeds/$(echo "$f" | tr / _)"
done
for f in testbench/*/traces/*.jsonl tests/badinput/cases/trace-*/trace.jsonl; do
    cp "$f" "$out/corpus/cu_trace.seeds/$(echo "$f" | tr / _)"
done
for f in traces/public/*/kernel-*.traceg tests/accelsim/traces/*/kernel-*.traceg \
    tests/badinput/cases/reader-*/t/kernel-1.traceg; do
    cp "$f" "$out/corpus/accelsim.seeds/$(echo "$f" | tr / _)"
done
# the same traces gzip- and xz-compressed, so that the search starts inside the
# readers of both (accelsim_gz.c, accelsim_xz.c) too
python3 -c 'import gzip, lzma, sys
for f in sys.argv[2:]:
    with open(f, "rb") as src:
        data = src.read()
    gz, xz = gzip.compress(data, mtime=0), lzma.compress(data)
    for packed, ext in ((gz, ".gz"), (xz, ".xz")):
        with open(sys.argv[1] + f.replace("/", "_") + ext, "wb") as dst:
            dst.write(packed)' "$out/corpus/accelsim.seeds/" \
    tests/accelsim/traces/*/kernel-*.traceg
i=0
for d in testbench/*/; do
    d=${d#testbench/}
    d=${d%/}
    for f in testbench/"$d"/*.json; do
        # byte 0 picks the suite (its index in name order), as fuzz_testbench.c reads
        seed="$out/corpus/testbench.seeds/$d-$(basename "$f")"
        { printf '%b' "\\$(printf %03o "$i")"; cat "$f"; } >"$seed"
    done
    i=$((i + 1))
done
status=0
for spec in $targets; do
    t=${spec%%:*}
    case "$2" in
    --runs) bound="-runs=$(($3 * ${spec#*:} / 100)) -seed=1" ;;
    *) bound="-max_total_time=$3" ;;
    esac
    echo "fuzz: $t ($bound)"
    dict=""
    if [ -f "fuzz/$t.dict" ]; then
        dict="-dict=fuzz/$t.dict"
    fi
    # shellcheck disable=SC2086
    if ! ASAN_OPTIONS=detect_leaks=1 "$out/fuzz_$t" $bound $dict -timeout=10 \
        -rss_limit_mb=2048 -max_len=8192 -print_final_stats=1 \
        -artifact_prefix="$out/artifacts/$t-" "$out/corpus/$t" "$out/corpus/$t.seeds" \
        2>"$out/$t.log"; then
        echo "fuzz: $t FAILED (see $out/$t.log and $out/artifacts/)"
        tail -30 "$out/$t.log"
        status=1
    else
        grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$out/$t.log" |
            sed "s/^/fuzz: $t: /"
    fi
done
exit $status
