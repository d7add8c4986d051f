#!/bin/sh
# Runs a command and checks its exit status and that its output (stdout and stderr)
# contains a fixed string.
# usage: expect_status.sh STATUS TEXT COMMAND [ARG...]
want=$1
text=$2
shift 2
out=$("$@" 2>&1)
status=$?
printf '%s\n' "$out"
if [ "$status" -ne "$want" ]; then
    echo "expect_status.sh: exit status $status, expected $want" >&2
    exit 1
fi
case $out in
*"$text"*) ;;
*)
    echo "expect_status.sh: output lacks '$text'" >&2
    exit 1
    ;;
esac
