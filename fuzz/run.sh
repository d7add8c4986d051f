#!/bin/sh
# Builds the libFuzzer targets with clang (-fsanitize=fuzzer,address,undefined) and
# runs each one, bounded either way:
#   fuzz/run.sh BUILD_DIR --runs N       N inputs per target from seed 1 and a fresh
#                                        corpus: the same inputs on every machine
#                                        (what tools/check runs)
#   fuzz/run.sh BUILD_DIR --seconds S    S seconds per target, random seed, corpus kept
#                                        in BUILD_DIR/fuzz/corpus across runs (long runs)
# Every input in fuzz/seeds/ (including the regress-* inputs of past failures) is run
# first in both modes; fuzz/<target>.dict, where present, is the target's dictionary. BUILD_DIR is a configured non-sanitized, non-LTO meson build,
# best made with clang (CC=clang meson setup build-fuzz; it provides libmgtlm.a and the
# generated dashboard source). Needs clang and libFuzzer (Debian: clang,
# libclang-rt-14-dev). Crash inputs go to BUILD_DIR/fuzz/artifacts/. Exit 0 only if
# no target found a failure, 2 on bad arguments, 77 (skip) if clang cannot build a
# fuzzer.
set -eu
cd "$(dirname "$0")/.."
usage="usage: fuzz/run.sh BUILD_DIR (--runs N | --seconds S)"
if [ $# -ne 3 ] || ! [ "$3" -gt 0 ] 2>/dev/null; then
    echo "$usage" >&2
    exit 2
fi
build="$1"
out="$build/fuzz"
case "$2" in
--runs)
    bound="-runs=$3 -seed=1"
    rm -rf "$out/corpus"
    ;;
--seconds) bound="-max_total_time=$3" ;;
*)
    echo "$usage" >&2
    exit 2
    ;;
esac
mkdir -p "$out/artifacts" "$out/corpus/serve_api" "$out/corpus/pcie_frame"
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
    tools/serve/serve_api.c tools/serve/serve_core.c tools/serve/serve_http.c
    tools/serve/serve_logs.c $build/tools/serve/dashboard_html.c"
libs="$build/libmgtlm.a $(pkg-config --libs jansson libevent) -lm"
# shellcheck disable=SC2086
"$cc" $flags fuzz/fuzz_serve_api.c $serve_src $libs -o "$out/fuzz_serve_api"
# shellcheck disable=SC2086
"$cc" $flags fuzz/fuzz_pcie_frame.c tools/serve/pcie_frame.c kernel/error.c -o "$out/fuzz_pcie_frame"
cp fuzz/seeds/serve_api/* "$out/corpus/serve_api/"
cp fuzz/seeds/pcie_frame/* "$out/corpus/pcie_frame/"
status=0
for t in serve_api pcie_frame; do
    echo "fuzz: $t ($2 $3)"
    dict=""
    if [ -f "fuzz/$t.dict" ]; then
        dict="-dict=fuzz/$t.dict"
    fi
    # shellcheck disable=SC2086
    if ! ASAN_OPTIONS=detect_leaks=1 "$out/fuzz_$t" $bound $dict -timeout=10 \
        -rss_limit_mb=2048 -max_len=8192 -print_final_stats=1 \
        -artifact_prefix="$out/artifacts/$t-" "$out/corpus/$t" 2>"$out/$t.log"; then
        echo "fuzz: $t FAILED (see $out/$t.log and $out/artifacts/)"
        tail -30 "$out/$t.log"
        status=1
    else
        grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$out/$t.log" | \
            sed "s/^/fuzz: $t: /"
    fi
done
exit $status
