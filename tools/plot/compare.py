#!/usr/bin/env python3
"""Plots the table of `mgtlm compare --csv TABLE.csv` (columns stat, file, value,
ratio; the first file is the reference) into an SVG bar chart of ratios.

usage: compare.py TABLE.csv OUT.svg [--top N]

Shows the N stats (default 20) whose ratio is farthest from 1 in any file (by
|log2 ratio|; ties by name), one bar per compared file and stat, coloured by the
mechanism its file name names (palette.py), on a base-2 axis from 1 (a halving and
a doubling are bars of equal length). Stats with an undefined ratio (reference
0) are left out; so are stats equal in every file. Needs python3-matplotlib.
"""
import argparse
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mgplot  # noqa: E402


def read_table(path):
    """(files in order, {stat: {file: ratio or None}})."""
    files, ratios = [], {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if row["file"] not in files:
                files.append(row["file"])
            r = float(row["ratio"]) if row["ratio"] else None
            ratios.setdefault(row["stat"], {})[row["file"]] = r
    return files, ratios


def top_stats(files, ratios, n):
    """The n stats farthest from ratio 1, farthest first."""
    scored = []
    for stat, by_file in ratios.items():
        rs = [by_file.get(f) for f in files[1:]]
        if any(r is None for r in rs):
            continue
        score = max(mgplot.log_ratio(r) for r in rs)
        if score > 0:
            scored.append((-score, stat))
    return [stat for _, stat in sorted(scored)[:n]]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("table")
    ap.add_argument("out")
    ap.add_argument("--top", type=int, default=20)
    a = ap.parse_args()
    files, ratios = read_table(a.table)
    if len(files) < 2:
        sys.exit("compare.py: %s: needs rows of two or more files" % a.table)
    stats = top_stats(files, ratios, a.top)
    ref = os.path.basename(files[0])
    series = {os.path.basename(f): [ratios[s][f] for s in stats] for f in files[1:]}
    title = "Stats relative to %s (%d largest changes)" % (ref, len(stats))
    mgplot.bar_chart(a.out, title, stats, series, "ratio to " + ref, logy=True)


if __name__ == "__main__":
    main()
