#!/bin/sh
# The out-of-tree example (examples/) built against the INSTALLED library: mgtlm is
# installed into a temporary DESTDIR, pkg-config finds mgtlm.pc there
# (PKG_CONFIG_SYSROOT_DIR maps its paths into DESTDIR), the examples project is
# configured and built with it, and then:
#   - every installed header compiles on its own from the installed tree;
#   - the probe plug-in is listed by `mgtlm blocks` and described by `mgtlm blocks
#     probe`;
#   - `mgtlm test` passes its testbenches (golden vectors derived by hand,
#     examples/probe/vectors/README.md);
#   - `mgtlm run`, `mgtlm serve` and the embed program run gpu4-probe.json with it,
#     and its statistics and port logs match the hand-derived numbers
#     (probe_stats.py).
# usage: example.sh MGTLM BUILD_DIR PYTHON3 SANITIZE   (from the source root)
# SANITIZE is the build's b_sanitize: the examples are built with the same one, since
# a program linking a sanitized libmgtlm must carry the sanitizer runtime itself.
set -u
mgtlm=$1
build=$2
python3=$3
sanitize=$4
here=$(dirname "$0")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0
step() {
    what=$1
    shift
    if "$@" >"$tmp/out" 2>&1; then
        echo "PASS $what"
    else
        echo "FAIL $what"
        cat "$tmp/out"
        failed=$((failed + 1))
    fi
}

meson install -C "$build" --destdir "$tmp/dest" --no-rebuild --quiet || exit 1
pc=$(find "$tmp/dest" -name mgtlm.pc)
[ -n "$pc" ] || { echo "FAIL no mgtlm.pc installed"; exit 1; }
export PKG_CONFIG_PATH="$(dirname "$pc")" PKG_CONFIG_SYSROOT_DIR="$tmp/dest"
step "pkg-config --cflags --libs mgtlm names the installed tree" \
    sh -c "pkg-config --cflags --libs mgtlm | grep -q -- '-I$tmp/dest/.*/include/mgtlm'"
# every installed header compiles on its own with the installed tree alone: none
# includes a header that is not installed
headers_alone() {
    inc=$(find "$tmp/dest" -type d -path '*/include/mgtlm')
    for h in $(cd "$inc" && find . -name '*.h' | sort); do
        printf '#include "%s"\n' "${h#./}" >"$tmp/alone.c"
        cc -std=c11 -fsyntax-only -Werror $(pkg-config --cflags mgtlm) "$tmp/alone.c" ||
            { echo "installed header $h does not compile alone"; return 1; }
    done
}
step "every installed header compiles alone" headers_alone
step "examples configured with the installed mgtlm" \
    meson setup -Db_sanitize="$sanitize" "$tmp/ex" examples
step "examples built" meson compile -C "$tmp/ex"
step "examples compiled against the installed headers, not the source tree" \
    sh -c "grep -q -- '-I$tmp/dest/' '$tmp/ex/compile_commands.json' &&
        ! grep -q -- '-I$(pwd)' '$tmp/ex/compile_commands.json'"
probe=$tmp/ex/probe.so
[ -f "$probe" ] || { echo "FAIL probe.so was not built"; exit 1; }

step "mgtlm blocks lists probe" \
    sh -c "'$mgtlm' --plugin '$probe' blocks | grep -q '^probe  *example plug-in'"
step "mgtlm blocks probe prints its tables" \
    sh -c "'$mgtlm' blocks probe --plugin='$probe' | grep -q '^  round_trip '"
step "mgtlm test passes the probe testbenches" \
    "$mgtlm" test --plugin "$probe" examples/probe/testbench/probe_pass.json \
    examples/probe/testbench/probe_backpressure.json
step "mgtlm run gpu4-probe.json" \
    "$mgtlm" run examples/probe/gpu4-probe.json --plugin "$probe" --stats "$tmp/run.json"
step "mgtlm run statistics" "$python3" "$here/probe_stats.py" file "$tmp/run.json"
step "mgtlm run logs the probes' ports" \
    "$mgtlm" run examples/probe/gpu4-probe.json --plugin "$probe" --log-dir "$tmp/logs" \
    --log-ports '*.probe.up'
step "probe port logs" "$python3" "$here/probe_stats.py" logs "$tmp/logs"
step "mgtlm serve statistics" \
    "$python3" "$here/probe_stats.py" serve "$mgtlm" "$probe" examples/probe/gpu4-probe.json
step "embed runs gpu4-probe.json" \
    sh -c "'$tmp/ex/embed' examples/probe/gpu4-probe.json '$probe' > '$tmp/embed.txt'"
step "embed prints the simulated time" grep -q '^simulated [0-9]* ps, [0-9]* events$' \
    "$tmp/embed.txt"
tail -n +2 "$tmp/embed.txt" >"$tmp/embed.json"
step "embed statistics" "$python3" "$here/probe_stats.py" file "$tmp/embed.json"
echo "$failed failed"
[ "$failed" -eq 0 ]
