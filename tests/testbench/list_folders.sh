#!/bin/sh
# Prints the names of the folders of a testbench root, one per line, sorted (C locale).
# usage: list_folders.sh ROOT
for d in "$1"/*/; do
    if [ -d "$d" ]; then
        basename "$d"
    fi
done | LC_ALL=C sort
