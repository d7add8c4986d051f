#!/bin/sh
# Special files as inputs: every loader (platform, extends target, cu trace, workload,
# testbench, a testbench's platform file, golden vector, Accel-Sim kernelslist.g and
# kernel trace) is given a FIFO with no writer, /dev/zero and a directory. Each must be
# refused at once by its type: exit status 2, one line on stderr naming the file, "not
# a regular file (<kind>)". A `timeout` guards the runs, so an input read forever or a
# FIFO opened blocking fails the test instead of hanging it.
# Then a file one byte over the 1 GiB limit of files read whole (sparse, no disk
# used) as platform, workload, testbench and golden: refused by its size. Last, a read
# that runs out of memory: a cu trace and a golden file of one 512 MiB line (sparse),
# read under `ulimit -v` 250 MB, must be refused with "cannot read: Cannot allocate
# memory", not taken for the end of the file (an empty trace, a short golden vector).
# Skipped where the limit cannot be set or mgtlm cannot start under it (a sanitizer
# build).
#
# usage: special.sh MGTLM
if [ $# -ne 1 ]; then
    echo "usage: special.sh MGTLM" >&2
    exit 2
fi
mgtlm=$1
case $mgtlm in
/*) ;;
*) mgtlm=$(pwd)/$mgtlm ;;
esac
dir=$(mktemp -d) || exit 2
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 2
mkfifo fifo || exit 2
mkdir folder
ln -s /dev/zero zero

passed=0
failed=0
# check NAME WANT ARGS...: mgtlm ARGS must exit 2 with the single stderr line WANT.
check() {
    name=$1
    want=$2
    shift 2
    got=$(timeout 20 "$mgtlm" "$@" 2>&1 >/dev/null)
    status=$?
    if [ "$status" -eq 2 ] && [ "$got" = "$want" ]; then
        echo "PASS $name"
        passed=$((passed + 1))
    else
        echo "FAIL $name: exit status $status (want 2)"
        echo "  want: $want"
        echo "  got:  $got"
        failed=$((failed + 1))
    fi
}

for f in fifo zero folder; do
    case $f in
    fifo) kind="a FIFO" ;;
    zero) kind="a character device" ;;
    folder) kind="a directory" ;;
    esac
    bad="not a regular file ($kind)"
    printf '{"extends": "%s"}\n' "$f" >ext-$f.json
    printf '{"gpu": {"blocks": {"cu": {"type": "cu", "params": {"pattern": "trace", "trace": "%s"}}, "mem": {"type": "memory"}}, "wires": [{"a": "cu.mem", "b": "mem.in"}]}}\n' \
        "$f" >trace-$f.json
    printf '{"platform": "%s", "observe": [], "golden": "ok.jsonl"}\n' "$f" >tbplat-$f.json
    printf '{"platform": {"gpus": 1}, "observe": [], "golden": "%s"}\n' "$f" \
        >tbgold-$f.json
    : >ok.jsonl
    echo '{"gpus": 1}' >ok.json

    check "platform-$f" "$f: cannot open: $bad" validate "$f"
    check "extends-$f" "$f: cannot open: $bad" validate "ext-$f.json"
    check "trace-$f" "trace-$f.json: /gpu/blocks/cu: $f: cannot open trace: $bad" \
        validate "trace-$f.json"
    check "workload-$f" "$f: cannot open: $bad" run ok.json --workload "$f"
    check "testbench-$f" "$f: cannot open: $bad" test "$f"
    check "testbench-platform-$f" "$f: cannot open: $bad" test "tbplat-$f.json"
    check "golden-$f" "tbgold-$f.json: /golden: $f: cannot open: $bad" \
        test "tbgold-$f.json"
    mkdir acl-$f ack-$f
    ln -s "../$f" acl-$f/kernelslist.g
    ln -s "../$f" ack-$f/kernel-1.traceg
    echo kernel-1.traceg >ack-$f/kernelslist.g
    check "accelsim-list-$f" "acl-$f/kernelslist.g: cannot open: $bad" trace-info acl-$f
    check "accelsim-kernel-$f" "ack-$f/kernel-1.traceg: cannot open: $bad" \
        trace-info ack-$f
done
# Files read whole are limited to 1 GiB, checked by size before reading: a sparse file
# one byte larger is refused at once, as platform, workload, testbench and golden.
if truncate -s 1073741825 big.json; then
    big="cannot open: too large (1073741825 bytes; the limit is 1073741824)"
    printf '{"platform": {"gpus": 1}, "observe": [], "golden": "big.json"}\n' \
        >tbgold-big.json
    check "platform-too-large" "big.json: $big" validate big.json
    check "workload-too-large" "big.json: $big" run ok.json --workload big.json
    check "testbench-too-large" "big.json: $big" test big.json
    check "golden-too-large" "tbgold-big.json: /golden: big.json: $big" test tbgold-big.json
else
    echo "SKIP too large files: truncate unavailable here"
fi
limited() {
    (ulimit -v 250000 2>/dev/null && "$@")
}
if limited "$mgtlm" blocks memory >/dev/null 2>&1 && truncate -s 512M huge.jsonl; then
    printf '{"gpu": {"blocks": {"cu": {"type": "cu", "params": {"pattern": "trace", "trace": "huge.jsonl"}}, "mem": {"type": "memory"}}, "wires": [{"a": "cu.mem", "b": "mem.in"}]}}\n' \
        >trace-huge.json
    printf '{"platform": {"gpus": 1}, "observe": [], "golden": "huge.jsonl"}\n' \
        >tbgold-huge.json
    oom="cannot read: Cannot allocate memory"
    mgtlm_real=$mgtlm
    mgtlm="$dir/limited.sh"
    printf '#!/bin/sh\nulimit -v 250000 && exec "%s" "$@"\n' "$mgtlm_real" >"$mgtlm"
    chmod +x "$mgtlm"
    check "trace-out-of-memory" "trace-huge.json: /gpu/blocks/cu: huge.jsonl: $oom" \
        run trace-huge.json
    check "golden-out-of-memory" "tbgold-huge.json: /golden: huge.jsonl: $oom" \
        test tbgold-huge.json
    mgtlm=$mgtlm_real
else
    echo "SKIP out-of-memory reads: ulimit -v or truncate unavailable here"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
