"""Reading `mgtlm blocks TYPE` (docs/blocks.md): a type's parameters with the facts
the listing prints for each (kind, default, min, max, choices), its required ports,
and printed values in base units (docs/platform-format.md, Units). Shared by
tools/param-combos and tests/tools/test_bounds_sweep.py, so the listing's format is
read in one place."""
import re

UNITS = {
    "time": {"ps": 1, "ns": 10**3, "us": 10**6, "ms": 10**9, "s": 10**12},
    "size": {"B": 1, "KB": 10**3, "MB": 10**6, "GB": 10**9, "TB": 10**12,
             "KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "TiB": 2**40},
    "bandwidth": {"B/s": 1, "KB/s": 10**3, "MB/s": 10**6, "GB/s": 10**9,
                  "TB/s": 10**12, "KiB/s": 2**10, "MiB/s": 2**20, "GiB/s": 2**30,
                  "TiB/s": 2**40},
    "frequency": {"Hz": 1, "kHz": 10**3, "KHz": 10**3, "MHz": 10**6, "GHz": 10**9},
}
BASE_UNIT = {"time": "ps", "size": "B", "bandwidth": "B/s", "frequency": "Hz"}


def read(text):
    """(params, required ports) of one type's listing: params as dicts with "key",
    "kind" and each printed fact by its name ("default", "min", "max", "choices")."""
    params, ports, section = [], [], None
    for line in text.splitlines():
        if line in ("ports:", "params:", "stats:"):
            section = line[:-1]
            continue
        m = re.match(r"  (\S+)\s+\((.*)\)$", line)
        if section == "params" and m:
            facts = [f.strip() for f in m.group(2).split(";")]
            row = {"key": m.group(1), "kind": facts[0]}
            for f in facts[1:]:
                name, _, value = f.partition(" ")
                row[name] = value
            params.append(row)
        pm = re.match(r"  (\S+)\s+required\s", line)
        if section == "ports" and pm:
            ports.append(pm.group(1))
    return params, ports


def base_value(kind, text):
    """A value as printed ("64B", "1.5GiB", "1s", "4096") in base units; ValueError
    if it cannot be read (a unit outside the fixed lists, "30cycles")."""
    if kind in ("u64", "u64 list"):
        return int(text.split()[0])
    if kind == "double":
        return float(text)
    m = re.fullmatch(r"([0-9]+)(?:\.([0-9]+))?([A-Za-z/]+)", text)
    if not m or m.group(3) not in UNITS[kind]:
        raise ValueError("cannot read %s value %r" % (kind, text))
    frac = m.group(2) or ""
    scaled = int(m.group(1) + frac) * UNITS[kind][m.group(3)]
    return scaled // 10**len(frac)
