"""Parameter sweep at the bounds: every numeric parameter of every block type in the
registry, as `mgtlm blocks TYPE` lists it, is set to its minimum, its maximum and its
maximum + 1 (smallest step of its base unit). max + 1 must be refused: exit status 2
and one line on stderr naming the parameter. min and max must load and a short run
must end normally (exit 0, or 1 with only "mgtlm: model error:" lines): no signal,
no abort, no sanitizer report.

Decisions: a type is exercised in the first shipped 4-GPU platform that has an
instance of it on GPU 0 (so the run carries traffic), with `--set INSTANCE.PARAM=V`;
a type no shipped platform has (driver, sink), a parameter `--set` may not change
there (a fabric generator computes it), or one that counts a required port array of
none by default (the cu's `barrier`: a bar[0] the platform does not wire) is exercised
alone in a generated one-GPU
platform with a sink on each of its required ports (none for an array of 0). The list
comes from the registry at run time, so a new parameter is swept without editing this
file.
usage: test_bounds_sweep.py MGTLM PLATFORMS_DIR"""
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

import tally

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "tools"))
import blocks_listing  # noqa: E402
from blocks_listing import BASE_UNIT, base_value  # noqa: E402

MGTLM, PLATFORMS = sys.argv[1], sys.argv[2]
RUN_FOR = "2us"
NUMERIC = ("u64", "time", "size", "bandwidth", "frequency", "double", "u64 list")


def mgtlm(*args):
    return subprocess.run([MGTLM] + list(args), capture_output=True, text=True,
                          timeout=120)


def block_types():
    out = mgtlm("blocks").stdout
    return [line.split()[0] for line in out.splitlines() if line.strip()]


def block_facts(btype):
    """(params, required ports) of btype: params as (key, kind, default, min, max)."""
    rows, ports = blocks_listing.read(mgtlm("blocks", btype).stdout)
    params = []
    for row in rows:
        kind = row["kind"]
        if kind not in NUMERIC:
            continue
        lo = base_value(kind, row["min"]) if "min" in row else None
        hi = base_value(kind, row["max"]) if "max" in row else None
        params.append((row["key"], kind, row.get("default"), lo or 0, hi))
    return params, ports


def json_value(kind, v):
    """v (base units) as a JSON value of the parameter's kind."""
    if kind == "u64":
        return v
    if kind == "double":
        return v
    if kind == "u64 list":
        return [0] * v
    if kind == "size" and v < 2**63:
        return v
    return "%d%s" % (v, BASE_UNIT[kind])


def set_arg(kind, v):
    return json.dumps(json_value(kind, v)) if kind not in ("time", "bandwidth",
                                                          "frequency") else \
        json_value(kind, v)


def shipped_instances(tmp):
    """{type: (platform, instance)} for the first 4-GPU platform with an instance of
    the type (GPU 0's, else the fabric's). The platform is a copy extended with
    mem_bytes 1 TiB, so that sizes bounded by a GPU's memory reach their maximum.
    gpu4-all is left out: it stacks mechanisms whose settings bind each other's
    parameters (the link on FinePack's pcie4 preset, the cus' shared pattern), and
    every type in it has a platform of its own mechanism."""
    found = {}
    for path in sorted(glob.glob(os.path.join(PLATFORMS, "gpu4-*.json"))):
        if path.endswith("-all.json"):
            continue
        wrapper = os.path.join(tmp, os.path.basename(path))
        with open(wrapper, "w") as f:
            json.dump({"extends": os.path.abspath(path), "mem_bytes": "1TiB"}, f)
        dump = json.loads(mgtlm("validate", wrapper, "--dump").stdout)
        for inst in sorted(dump["instances"],
                           key=lambda i: not i["name"].startswith("gpu0.")):
            if inst["type"] not in found:
                found[inst["type"]] = (wrapper, inst["name"])
    return found


def standalone(tmp, btype, ports, settings):
    """A one-GPU platform of one btype instance, its parameters set from settings
    [(key, kind, value)], with a sink on every required port."""
    params = {key: json_value(kind, v) for key, kind, v in settings}
    blocks = {"x": {"type": btype, "params": params}}
    wires = []
    for i, port in enumerate(ports):
        arr = re.fullmatch(r"(\w+)\[(\w+)\]", port)
        if arr:
            count_key = arr.group(2)
            facts = next(p for p in block_facts(btype)[0] if p[0] == count_key)
            count = min(params.get(count_key, int(facts[2])), facts[4])
            if count == 0:
                continue
            blocks["s%d" % i] = {"type": "sink", "count": count}
            wires.append({"a": "x.%s[*]" % arr.group(1), "b": "s%d[*].in" % i})
        else:
            blocks["s%d" % i] = {"type": "sink"}
            wires.append({"a": "x." + port, "b": "s%d.in" % i})
    path = os.path.join(tmp, "sweep.json")
    with open(path, "w") as f:
        json.dump({"name": "sweep", "gpus": 1, "gpu": {"blocks": blocks,
                                                        "wires": wires}}, f)
    return path


def run_with(tmp, btype, where, ports, settings):
    """Runs btype with settings [(key, kind, value)] for RUN_FOR."""
    if where:
        argv = ["run", where[0], "--until", RUN_FOR]
        for key, kind, v in settings:
            argv += ["--set", "%s.%s=%s" % (where[1], key, set_arg(kind, v))]
    else:
        argv = ["run", standalone(tmp, btype, ports, settings), "--until", RUN_FOR]
    return mgtlm(*argv)


def settable(where, param):
    """Whether --set may change param on the shipped instance (fabric generators
    compute some parameters)."""
    key, kind, default, _lo, _hi = param
    r = mgtlm("validate", where[0], "--set", "%s.%s=%s" % (where[1], key, default))
    return r.returncode == 0


def out_of_range(r):
    return "above maximum" in r.stderr or "below minimum" in r.stderr


def loads(tmp, btype, where, ports, params, param, v):
    """Runs param at v alone or, when the block's realize refuses the combination
    with the other defaults (exit 2), with one other parameter of the block at its own
    minimum or maximum, or with all of them at their minimum. Returns the first
    result that is not a refusal, else the first refusal."""
    key, kind = param[0], param[1]
    r = run_with(tmp, btype, where, ports, [(key, kind, v)])
    if r.returncode != 2 or out_of_range(r):
        return r
    others = [o for o in params if o[0] != key and not (where and not settable(where, o))]
    tries = [[(o[0], o[1], o[b])] for o in others for b in (3, 4) if o[b] is not None]
    tries.append([(o[0], o[1], o[3]) for o in others])
    for companions in tries:
        c = run_with(tmp, btype, where, ports, [(key, kind, v)] + companions)
        if c.returncode != 2:
            return c
    return r


def model_errors_only(r):
    """Exit 1 is a model error only when stderr says so on every line (a sanitizer
    halting on undefined behaviour exits 1 too)."""
    lines = r.stderr.splitlines()
    return bool(lines) and all(l.startswith("mgtlm: model error:") for l in lines)


def check_param(tmp, btype, where, ports, params, param):
    key, kind, _default, lo, hi = param
    step = 1.0 if kind == "double" else 1
    for what, v in (("min", lo), ("max", hi)):
        r = loads(tmp, btype, where, ports, params, param, v)
        tally.check(r.returncode == 0 or (r.returncode == 1 and model_errors_only(r)),
                    "%s.%s %s (%r): want exit 0 or 1, got %d: %r" %
                    (btype, key, what, v, r.returncode, r.stderr[:300]))
    r = run_with(tmp, btype, where, ports, [(key, kind, hi + step)])
    lines = r.stderr.splitlines()
    tally.check(r.returncode == 2 and len(lines) == 1 and key in r.stderr,
                "%s.%s max+1 (%r): want exit 2 and one line naming it, got %d: %r" %
                (btype, key, hi + step, r.returncode, r.stderr[:300]))


def main():
    swept = 0
    with tempfile.TemporaryDirectory() as tmp:
        shipped = shipped_instances(tmp)
        for btype in block_types():
            params, ports = block_facts(btype)
            tally.check(params, "%s: no numeric parameter listed" % btype)
            for param in params:
                tally.check(param[4] is not None, "%s.%s has no maximum" % (btype,
                                                                            param[0]))
                if param[4] is None:
                    continue
                where = shipped.get(btype)
                if param[2] == "0" and any(p.endswith("[%s]" % param[0]) for p in ports):
                    where = None
                if where and not settable(where, param):
                    if where[1].startswith("fabric."):
                        continue
                    where = None
                check_param(tmp, btype, where, ports, params, param)
                swept += 1
    tally.check(swept > 50, "only %d parameters swept" % swept)
    tally.finish()


main()
