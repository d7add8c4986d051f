#!/bin/sh
# Runs `mgtlm test` on every testbench (*.json) of one folder of testbench/.
# usage: run_folder.sh MGTLM DIR
# Fails when the binary is missing or the folder holds no testbench, so an empty or
# misnamed folder can never pass silently. MGTLM_WRAPPER (e.g. "valgrind -q
# --error-exitcode=9 --leak-check=full") runs mgtlm under a wrapper.
if [ $# -ne 2 ]; then
    echo "usage: run_folder.sh MGTLM DIR" >&2
    exit 1
fi
mgtlm=$1
dir=$2
if [ ! -x "$mgtlm" ]; then
    echo "run_folder.sh: $mgtlm is not an executable" >&2
    exit 1
fi
set -- "$dir"/*.json
if [ ! -e "$1" ]; then
    echo "run_folder.sh: no testbench (*.json) in $dir" >&2
    exit 1
fi
# shellcheck disable=SC2086
exec $MGTLM_WRAPPER "$mgtlm" test "$@"
