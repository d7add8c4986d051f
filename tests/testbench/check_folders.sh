#!/bin/sh
# Fails when the folders of ROOT differ from the list meson configured tests for
# (a folder was added or removed: run `meson setup --reconfigure`).
# usage: check_folders.sh ROOT FOLDER...
root=$1
shift
now=$(sh "$(dirname "$0")/list_folders.sh" "$root" | tr '\n' ' ')
configured=$(printf '%s\n' "$@" | LC_ALL=C sort | tr '\n' ' ')
if [ $# -eq 0 ]; then
    configured=""
fi
if [ "$now" != "$configured" ]; then
    echo "testbench folders changed since configure: now [$now], configured" \
         "[$configured]; reconfigure the build directory" >&2
    exit 1
fi
