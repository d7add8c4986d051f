#!/bin/sh
# Refused plug-ins: each must make mgtlm exit with status 2 and print exactly one
# line naming the plug-in file as given (kernel/plugin.h lists the messages).
# usage: errors.sh MGTLM MODULE_DIR  (MODULE_DIR holds bad_plugin_N.so and probe.so;
# the plug-ins are named relative to it, as a user names a file in the current
# directory)
set -u
mgtlm=$1
case $mgtlm in
/*) ;;
*) mgtlm=$(pwd)/$mgtlm ;;
esac
cd "$2" || exit 2
passed=0
failed=0

# expect PATTERN ARGS...: runs mgtlm ARGS, wants status 2 and one stderr line
# matching the shell pattern PATTERN.
expect() {
    want=$1
    shift
    got=$("$mgtlm" "$@" 2>&1 >/dev/null)
    status=$?
    lines=$(printf '%s\n' "$got" | wc -l)
    case $got in
    $want) matched=yes ;;
    *) matched=no ;;
    esac
    if [ "$status" -eq 2 ] && [ "$lines" -eq 1 ] && [ $matched = yes ]; then
        echo "PASS $*"
        passed=$((passed + 1))
    else
        echo "FAIL $*: status $status, stderr: $got"
        echo "  want: $want"
        failed=$((failed + 1))
    fi
}

expect "mgtlm: bad_plugin_1.so: not an mgtlm plug-in (no symbol mgtlm_plugin_abi)" \
    --plugin bad_plugin_1.so blocks
expect "mgtlm: bad_plugin_2.so: not an mgtlm plug-in (no symbol mgtlm_plugin_register)" \
    blocks --plugin=bad_plugin_2.so
expect "mgtlm: ./bad_plugin_3.so: plug-in ABI 5, this mgtlm has ABI 4: rebuild the plug-in against this mgtlm" \
    validate x.json --plugin ./bad_plugin_3.so
expect "mgtlm: bad_plugin_4.so: plug-in built with a 1-byte Txn, this mgtlm's is [0-9]* bytes: rebuild the plug-in against this mgtlm" \
    run x.json --plugin bad_plugin_4.so
expect "mgtlm: bad_plugin_5.so: block type sink is already registered" \
    test x.json --plugin bad_plugin_5.so
expect "mgtlm: probe.so: block type probe is already registered" \
    --plugin probe.so blocks --plugin probe.so
expect "mgtlm: --plugin needs a file (--plugin PATH.so)" blocks --plugin=

# after "--", --plugin is an argument like any other: nothing is loaded
expect "mgtlm: unknown command '--' (try mgtlm --help)" -- --plugin nosuch.so
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
