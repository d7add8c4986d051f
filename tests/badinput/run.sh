#!/bin/sh
# Bad-input corpus runner: every case must make mgtlm exit with status 2 and print
# exactly the expected one-line message on stderr.
#
# usage: run.sh MGTLM [CASES_DIR]
#   MGTLM      the mgtlm binary
#   CASES_DIR  folder of cases (default: the cases/ folder beside this script)
# Each case is a folder holding `cmd` (the mgtlm arguments, shell words, one line),
# `expect` (the exact stderr line) and its input files; mgtlm runs inside the case
# folder. Set BADINPUT_WRAPPER (e.g. "valgrind -q --error-exitcode=9 --leak-check=full")
# to run mgtlm under a wrapper. Prints "PASS <case>" or "FAIL <case>: <why>" per case,
# then "<n> passed, <m> failed"; exits 0 only if every case passed.

if [ $# -lt 1 ]; then
    echo "usage: run.sh MGTLM [CASES_DIR]" >&2
    exit 2
fi
mgtlm=$1
cases=${2:-$(dirname "$0")/cases}
case $mgtlm in
/*) ;;
*) mgtlm=$(pwd)/$mgtlm ;;
esac
if [ ! -x "$mgtlm" ]; then
    echo "run.sh: $mgtlm is not an executable" >&2
    exit 2
fi
limit=
if command -v timeout >/dev/null 2>&1; then
    limit="timeout 20"
fi

passed=0
failed=0
for dir in "$cases"/*/; do
    name=$(basename "$dir")
    if [ ! -f "$dir/cmd" ] || [ ! -f "$dir/expect" ]; then
        echo "FAIL $name: missing cmd or expect"
        failed=$((failed + 1))
        continue
    fi
    want=$(cat "$dir/expect")
    got=$(cd "$dir" && eval "set -- $(cat cmd)" &&
        $limit $BADINPUT_WRAPPER "$mgtlm" "$@" 2>&1 >/dev/null)
    status=$?
    lines=$(printf '%s\n' "$got" | wc -l)
    if [ "$status" -ne 2 ]; then
        echo "FAIL $name: exit status $status (want 2); stderr: $got"
        failed=$((failed + 1))
    elif [ "$lines" -ne 1 ]; then
        echo "FAIL $name: $lines lines on stderr (want 1): $got"
        failed=$((failed + 1))
    elif [ "$got" != "$want" ]; then
        echo "FAIL $name"
        echo "  want: $want"
        echo "  got:  $got"
        failed=$((failed + 1))
    else
        echo "PASS $name"
        passed=$((passed + 1))
    fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
