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
# to run mgtlm under a wrapper. The cases run in BADINPUT_JOBS shells side by side
# (default 2; case k in shell k % jobs), which halves the minutes tools/check spends on
# them under valgrind; each shell's lines are printed once all are done, shell by
# shell. Prints "PASS <case>" or "FAIL <case>: <why>" per case, then
# "<n> passed, <m> failed"; exits 0 only if every case passed.

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

# One case: prints its PASS or FAIL lines.
run_case() {
    dir=$1
    name=$(basename "$dir")
    if [ ! -f "$dir/cmd" ] || [ ! -f "$dir/expect" ]; then
        echo "FAIL $name: missing cmd or expect"
        return
    fi
    want=$(cat "$dir/expect")
    got=$(cd "$dir" && eval "set -- $(cat cmd)" &&
        $limit $BADINPUT_WRAPPER "$mgtlm" "$@" 2>&1 >/dev/null)
    status=$?
    lines=$(printf '%s\n' "$got" | wc -l)
    if [ "$status" -ne 2 ]; then
        echo "FAIL $name: exit status $status (want 2); stderr: $got"
    elif [ "$lines" -ne 1 ]; then
        echo "FAIL $name: $lines lines on stderr (want 1): $got"
    elif [ "$got" != "$want" ]; then
        echo "FAIL $name"
        echo "  want: $want"
        echo "  got:  $got"
    else
        echo "PASS $name"
    fi
}

jobs=${BADINPUT_JOBS:-2}
case $jobs in
'' | *[!0-9]* | 0) jobs=1 ;;
esac
out=$(mktemp -d) || exit 2
j=0
while [ "$j" -lt "$jobs" ]; do
    (
        k=0
        for dir in "$cases"/*/; do
            if [ $((k % jobs)) -eq "$j" ]; then
                run_case "$dir"
            fi
            k=$((k + 1))
        done
    ) >"$out/$j" &
    j=$((j + 1))
done
wait
j=0
while [ "$j" -lt "$jobs" ]; do
    cat "$out/$j"
    j=$((j + 1))
done
passed=$(cat "$out"/* | grep -c '^PASS ')
failed=$(cat "$out"/* | grep -c '^FAIL ')
rm -rf "$out"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
