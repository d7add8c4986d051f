"""Checks the paper-regime platforms (platforms/paper/*.json):
- each describes its regime and cites its paper (papers/00N) and a table in its "doc",
  and every block entry and cores entry that sets a value has a "doc" citing a table
  or a section of the paper;
- every value the file sets reaches the built platform: `mgtlm validate --dump` (with a
  trace, so the cores exist) holds it on gpu0's instance, units compared by value
  ("0.5MiB" = "512KiB", "30cycles" = "30ns" at 1 GHz), and the GPU and SM counts are
  the file's;
- each runs a short tracegen kernel to its end with no model error (exit 0).
usage: test_paper_platforms.py MGTLM SOURCE_ROOT"""
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tally import check, finish  # noqa: E402

MGTLM, ROOT = os.path.abspath(sys.argv[1]), sys.argv[2]
PAPERS = {"dualopt": "000", "finepack": "001", "ladm": "002", "rec": "003",
          "carve": "004"}
SCALE = {"B": 1, "KiB": 2 ** 10, "MiB": 2 ** 20, "GiB": 2 ** 30, "KB": 1e3, "MB": 1e6,
         "GB": 1e9, "TB": 1e12, "ps": 1, "ns": 1e3, "us": 1e6, "ms": 1e9,
         "cycles": 1e3, "GHz": 1e9, "MHz": 1e6}
UNIT = re.compile(r"^([0-9.]+)([A-Za-z]+)(/s)?$")


def value(v):
    """A parameter value as a number where it has a unit (1 GHz platforms)."""
    if isinstance(v, str):
        m = UNIT.match(v)
        if m and m.group(2) in SCALE:
            return float(m.group(1)) * SCALE[m.group(2)]
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return float(v)
    return v


def cites(doc):
    return isinstance(doc, str) and re.search(r"Table|section", doc) is not None


files = sorted(glob.glob(os.path.join(ROOT, "platforms", "paper", "*.json")))
check(len(files) >= 5, "paper platforms exist: %d" % len(files))
with tempfile.TemporaryDirectory() as tmp:
    trace = os.path.join(tmp, "vectoradd")
    subprocess.run([os.path.join(ROOT, "tools", "tracegen"), "vectoradd", "--n", "8192",
                    "-o", trace], check=True, stdout=subprocess.DEVNULL)
    for path in files:
        name = os.path.basename(path)
        with open(path) as f:
            doc = json.load(f)
        paper = name.split("-")[0].split(".")[0]
        check(paper in PAPERS and "papers/" + PAPERS.get(paper, "?") in doc.get("doc", "")
              and "Table" in doc.get("doc", ""), name + ": doc cites its paper")
        blocks = doc.get("gpu", {}).get("blocks", {})
        for block, entry in blocks.items():
            check(cites(entry.get("doc")),
                  "%s: block %s cites its source" % (name, block))
        for part, entry in doc.get("cores", {}).items():
            if isinstance(entry, dict):
                check(cites(doc["cores"].get("doc")),
                      "%s: cores cite their source" % name)
        r = subprocess.run([MGTLM, "validate", path, "--dump", "--set", "trace=" + trace],
                           capture_output=True, text=True)
        check(r.returncode == 0, "%s: loads: %s" % (name, r.stderr))
        if r.returncode:
            continue
        flat = json.loads(r.stdout)
        inst = {i["name"]: i for i in flat["instances"]}
        for block, entry in blocks.items():
            built = inst.get("gpu0." + block) or inst.get("gpu0.%s[0]" % block)
            for key, want in entry.get("params", {}).items():
                got = built["params"].get(key) if built else None
                check(value(got) == value(want), "%s: gpu0.%s.%s is %r, file %r"
                      % (name, block, key, got, want))
        for part, entry in doc.get("cores", {}).items():
            if not isinstance(entry, dict) or part not in ("sm", "dispatch", "host"):
                continue
            built = inst.get({"sm": "gpu0.sm[0]",
                              "dispatch": "gpu0.disp"}.get(part, part))
            for key, want in entry.get("params", {}).items():
                got = built["params"].get(key) if built else None
                check(value(got) == value(want), "%s: cores %s.%s is %r, file %r"
                      % (name, part, key, got, want))
        if "gpus" in doc:
            check(flat["gpus"] == doc["gpus"], name + ": GPU count")
        if "sms" in doc:
            sms = [n for n in inst if n.startswith("gpu0.sm[")]
            check(len(sms) == doc["sms"], "%s: %d SMs per GPU" % (name, len(sms)))
        stats = os.path.join(tmp, "stats.json")
        r = subprocess.run([MGTLM, "run", path, "--quiet", "--trace", trace, "--stats",
                            stats], capture_output=True, text=True)
        check(r.returncode == 0, "%s: runs a trace: %s" % (name, r.stderr))
        if r.returncode == 0:
            with open(stats) as f:
                run = json.load(f)
            check(run["run"]["model_errors"] == 0 and run["stats"]["host.exec_ps"] > 0,
                  name + ": the trace ends with no model error")
finish()
