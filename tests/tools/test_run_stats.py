"""Checks what `mgtlm run` writes and prints about a run against values computed here
from the stats file alone (docs/stats.md):
- the JSON's run and host metadata, instance types, the error list (from the types'
  tables) and that the CSV holds the same values, units and metadata;
- <stats>.platform.json is byte for byte `mgtlm validate --dump` with the same sets;
- the summary: simulated time, remote read fraction, inter-GPU bytes, per-link GB/s
  and utilisation, read latency mean/p50/p99, each mechanism's figure, and every
  aggregated row (counters summed, times and gauges min/mean/max, histograms merged),
  zero statistics hidden unless --all;
- a run ended by --until says so and records the limit.
usage: test_run_stats.py MGTLM SOURCE_ROOT"""
import csv
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tally import check, finish  # noqa: E402

MGTLM, ROOT = os.path.abspath(sys.argv[1]), sys.argv[2]
CU = "gpu*.cu[*]"
CASES = [
    ("gpu4-baseline", ["--set", CU + ".count=300"]),
    ("gpu4-dualopt", ["--set", "gpu*.decision.mode=coalesce", "--set",
                      "gpu*.decision.window=100", "--set", CU + ".count=200"]),
    ("gpu4-finepack", []),
    ("gpu4-carve", []),
    ("gpu4-rec", []),
    ("gpu16-baseline", ["--set", CU + ".count=50"]),
]
TIME_UNITS = {"ps": 1, "ns": 1e3, "us": 1e6, "ms": 1e9, "s": 1e12}


def close(printed, want, decimals):
    return abs(printed - want) <= 0.5 * 10 ** -decimals + 1e-9 * abs(want)


def time_close(text, want_ps):
    """True if '12.345 us' is want_ps rounded to the digits shown."""
    num, unit = text.split()
    decimals = len(num.split(".")[1]) if "." in num else 0
    return abs(float(num) * TIME_UNITS[unit] - want_ps) <= \
        0.5 * TIME_UNITS[unit] * 10 ** -decimals * (1 + 1e-9)


def split_name(name):
    inst, stat = name.rsplit(".", 1)
    return inst, stat


def table_row(doc, inst, stat):
    table = doc["types"][doc["instances"][inst]]
    if stat in table:
        return table[stat]
    port = [k for k in table if k.startswith("<port>") and stat.endswith(k[6:])]
    return table[port[0]]


def percentile(buckets, width, vmax, count, pct):
    rank = (count * pct + 99) // 100
    seen = 0
    for b, n in enumerate(buckets[:-1]):
        seen += n
        if seen >= rank:
            return min((b + 1) * width, vmax)
    return vmax


def aggregate(doc):
    """{type.stat: (kind, [values])} in first-appearance order."""
    out = {}
    for name, v in doc["stats"].items():
        inst, stat = split_name(name)
        key = doc["instances"][inst] + "." + stat
        out.setdefault(key, (table_row(doc, inst, stat)["kind"], []))[1].append(v)
    return out


def merge_hists(hists):
    n = max(len(h["buckets"]) for h in hists)
    buckets = [sum(h["buckets"][i] for h in hists if i < len(h["buckets"]))
               for i in range(n)]
    count = sum(h["count"] for h in hists)
    return {"count": count, "sum": sum(h["sum"] for h in hists), "buckets": buckets,
            "width": hists[0]["width"], "max": max(h["max"] for h in hists)}


def check_files(name, doc, csv_path, sets, platform_json):
    run = doc["run"]
    check(doc["format"] == "mgtlm-stats-2", name + ": format")
    check(run["platform"] == name and run["platform_file"] == name + ".json",
          name + ": platform and file")
    want_sets = {sets[i + 1].split("=")[0]: sets[i + 1].split("=")[1]
                 for i in range(0, len(sets), 2)}
    check({k: str(v) for k, v in run["sets"].items()} == want_sets,
          name + ": --set values recorded %s" % run["sets"])
    check(run["stop"] == "idle" and run["model_errors"] == 0 and run["events"] > 0
          and run["simulated_ps"] > 0 and run["gpus"] == int(name[3:name.index("-")])
          and run["seed"] == 1,
          name + ": run fields %s" % run)
    host = doc["host"]
    check(set(host) == {"mgtlm_version", "mgtlm_commit", "wall_s",
                        "events_per_second"} and host["wall_s"] >= 0,
          name + ": host fields %s" % host)
    errors = [n for n in doc["stats"] if table_row(doc, *split_name(n))["error"]]
    check(errors == doc["errors"] and errors, name + ": error list from the tables")
    check(all(n.rsplit(".", 1)[0] in doc["instances"] for n in doc["stats"]),
          name + ": every stat belongs to an instance")
    rows = list(csv.reader(open(csv_path)))
    check(rows[0] == ["instance", "type", "stat", "value", "unit"], name + ": header")
    meta = {(r[1], r[2]): r[3] for r in rows[1:] if r[0] == ""}
    check(meta[("run", "simulated_ps")] == str(run["simulated_ps"]) and
          meta[("run", "stop")] == "idle" and meta[("host", "mgtlm_commit")] ==
          host["mgtlm_commit"] and all(meta[("run", "sets." + k)] == v
                                       for k, v in want_sets.items()),
          name + ": CSV metadata rows")
    values = {}
    for inst, typ, stat, value, unit in rows[1:]:
        if inst:
            values[inst + "." + stat] = (typ, value, unit)
    bad = []
    for full, v in doc["stats"].items():
        inst, stat = split_name(full)
        row = table_row(doc, inst, stat)
        if isinstance(v, dict):
            got = values.get(full + ".count")
            ok = got and int(got[1]) == v["count"] and \
                int(values[full + ".max"][1]) == v["max"] and \
                values[full + ".max"][2] == row["unit"] and \
                all(int(values["%s.bucket%d" % (full, i)][1]) == b
                    for i, b in enumerate(v["buckets"]))
        else:
            got = values.get(full)
            ok = got and got[0] == doc["instances"][inst] and \
                float(got[1]) == float(v) and got[2] == row["unit"]
        if not ok:
            bad.append(full)
    check(not bad, name + ": CSV rows equal the JSON values %s" % bad[:3])
    dump = subprocess.run([MGTLM, "validate", name + ".json", "--dump"] + sets,
                          cwd=os.path.join(ROOT, "platforms"), capture_output=True,
                          text=True).stdout
    check(open(platform_json).read() == dump,
          name + ": platform.json is validate --dump")


def line(out, label):
    found = [ln for ln in out.splitlines() if ln.startswith("  " + label + "  ")]
    return found[0][len(label) + 2:].strip() if found else None


def check_headline(name, doc, out):
    st = doc["stats"]
    now = doc["run"]["simulated_ps"]
    agg = aggregate(doc)

    def total(key):
        return sum(agg[key][1]) if key in agg else 0

    check(time_close(line(out, "simulated time"), now), name + ": simulated time")
    m = re.match(r"([\d.]+)% \((\d+) of (\d+) cu reads\)", line(out, "remote reads"))
    reads, remote = total("cu.reads"), total("cu.remote_reads")
    check(m and int(m.group(2)) == remote and int(m.group(3)) == reads and
          close(float(m.group(1)), 100.0 * remote / reads, 1), name + ": remote reads")
    m = re.match(r"(\d+) B \(([\d.]+) GB/s\)", line(out, "inter-GPU data (rdma out)"))
    sent = total("rdma.bytes_out")
    check(m and int(m.group(1)) == sent and close(float(m.group(2)), sent * 1e3 / now, 3),
          name + ": inter-GPU bytes")
    h = merge_hists(agg["cu.read_latency"][1])
    m = re.match(r"mean ([\d.]+) ns, p50 ([\d.]+) ns, p99 ([\d.]+) ns \((\d+) reads\)",
                 line(out, "read latency"))
    want = [h["sum"] / h["count"] / 1e3] + [
        percentile(h["buckets"], h["width"], h["max"], h["count"], p) / 1e3
        for p in (50, 99)]
    check(m and int(m.group(4)) == h["count"] and
          all(close(float(m.group(i + 1)), want[i], 3) for i in range(3)),
          name + ": read latency %s vs %s" % (m and m.groups(), want))
    links = [ln.split() for ln in out.splitlines()
             if re.match(r"    \S+ +[\d.]+ GB/s", ln)]
    link_insts = [i for i, t in doc["instances"].items() if t == "link"]
    shown = sorted(ln[0] for ln in links)
    if len(link_insts) <= 8:
        check(shown == sorted(link_insts), name + ": every link")
    else:
        def busiest(inst):
            return max(st[inst + ".ab_busy_ps"], st[inst + ".ba_busy_ps"])
        rest = [busiest(i) for i in link_insts if i not in shown]
        check(len(shown) == 8 and min(busiest(i) for i in shown) >= max(rest) and
              "    ... %d more links (--all lists them)" % (len(link_insts) - 8)
              in out.splitlines(), name + ": the 8 busiest links")
    for ln in links:
        for d, (gbps, util) in enumerate(((ln[1], ln[3]), (ln[4], ln[6]))):
            pre = ln[0] + "." + ("ab" if d == 0 else "ba") + "_"
            wire = sum(st[pre + p + "_bytes"] for p in ("payload", "overhead", "padding"))
            check(close(float(gbps), wire * 1e3 / now, 3) and
                  close(float(util.rstrip("%")), 100.0 * st[pre + "busy_ps"] / now, 1),
                  name + ": link %s direction %d" % (ln[0], d))
    figures = {"CoDec": ("codec.entries_out", "codec.packets_out", "responses per packet"),
               "FinePack": ("packetizer.stores", "packetizer.packets", "stores per packet")}
    for label, (num, den, what) in figures.items():
        if num in agg:
            m = re.match(r"([\d.]+) " + what, line(out, label))
            check(m and total(den) and close(float(m.group(1)), total(num) / total(den), 3)
                  and total(num) > 0, name + ": " + label)
    if "rdc.hits" in agg:
        m = re.match(r"hit rate ([\d.]+)%", line(out, "RDC (CARVE)"))
        check(m and close(float(m.group(1)), 100.0 * total("rdc.hits") /
                          total("rdc.lookups"), 1), name + ": RDC hit rate")
    for d in ("dir_baseline", "dir_hmg", "dir_rec"):
        if d + ".invalidates" in agg:
            check(line(out, d) == "%d invalidates" % total(d + ".invalidates") and
                  total(d + ".invalidates") > 0, name + ": " + d + " invalidates")


def check_rows(name, doc, out, all_rows):
    agg = aggregate(doc)
    rows = {}
    for ln in out.splitlines():
        m = re.match(r"    (\S+\.\S+) +(counter|gauge|time|enum|histogram) +(.*)$", ln)
        if m:
            rows[m.group(1)] = (m.group(2), m.group(3))
    bad = []
    for key, (kind, vals) in agg.items():
        zero = kind != "enum" and (
            all(h["count"] == 0 for h in vals) if kind == "histogram"
            else all(v == 0 for v in vals))
        if zero and not all_rows:
            if key in rows:
                bad.append(key + " shown though zero")
            continue
        if key not in rows or rows[key][0] != kind:
            bad.append(key + " missing")
            continue
        text = rows[key][1]
        if kind == "counter":
            ok = int(text.split()[0]) == sum(vals)
        elif kind == "time":
            parts = re.match(r"min (.+), mean (.+), max (.+)$", text).groups()
            want = (min(vals), sum(vals) / len(vals), max(vals))
            ok = all(time_close(t, w) for t, w in zip(parts, want))
        elif kind == "gauge":
            parts = [float(x) for x in
                     re.match(r"min (\S+), mean (\S+), max (\S+)", text).groups()]
            want = (min(vals), sum(vals) / len(vals), max(vals))
            ok = all(abs(p - w) <= 1e-5 * max(1.0, abs(w)) for p, w in zip(parts, want))
        elif kind == "histogram":
            ok = int(re.match(r"count (\d+)", text).group(1)) == \
                sum(h["count"] for h in vals)
        else:
            inst = [n for n in doc["stats"] if aggregate_key(doc, n) == key][0]
            names = table_row(doc, *split_name(inst)).get("values", [])
            want = {}
            for v in vals:
                want[names[v]] = want.get(names[v], 0) + 1
            ok = text == ", ".join("%s x%d" % (k, want[k]) for k in names if k in want)
        if not ok:
            bad.append("%s: %s" % (key, text))
    check(not bad, name + ": aggregated rows %s" % bad[:4])
    return rows


def aggregate_key(doc, full):
    inst, stat = split_name(full)
    return doc["instances"][inst] + "." + stat


def main():
    tmp = tempfile.mkdtemp()
    for name, sets in CASES:
        stats, csv_path = os.path.join(tmp, name + ".json"), os.path.join(tmp, name + ".csv")
        done = subprocess.run([MGTLM, "run", name + ".json", "--stats", stats,
                               "--stats-csv", csv_path] + sets,
                              cwd=os.path.join(ROOT, "platforms"), capture_output=True,
                              text=True)
        check(done.returncode == 0, name + ": exit status %d" % done.returncode)
        doc = json.load(open(stats))
        check_files(name, doc, csv_path, sets, stats + ".platform.json")
        check_headline(name, doc, done.stdout)
        check_rows(name, doc, done.stdout, False)
        check("stopped: idle" in done.stdout.splitlines()[0], name + ": stop reason shown")
        if name in ("gpu4-baseline", "gpu16-baseline"):
            every = subprocess.run([MGTLM, "run", name + ".json", "--all"] + sets,
                                   cwd=os.path.join(ROOT, "platforms"),
                                   capture_output=True, text=True).stdout
            rows = check_rows(name + " --all", doc, every, True)
            check("cu.writes" in rows and rows["cu.writes"][1] == "0",
                  name + ": --all lists a zero counter")
            check(len([ln for ln in every.splitlines() if re.match(r"    gpu\d+\.link ", ln)])
                  == len([t for t in doc["instances"].values() if t == "link"]),
                  name + ": --all lists every link")
    until = os.path.join(tmp, "until.json")
    done = subprocess.run([MGTLM, "run", "gpu4-baseline.json", "--quiet", "--until", "5us",
                           "--stats", until], cwd=os.path.join(ROOT, "platforms"))
    run = json.load(open(until))["run"]
    check(done.returncode == 0 and run["stop"] == "until" and
          run["until_ps"] == 5000000 and 0 < run["simulated_ps"] <= 5000000,
          "--until 5us: stop reason and limit recorded %s" % run)
    finish()


main()
